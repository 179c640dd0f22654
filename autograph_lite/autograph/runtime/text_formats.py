"""`"...".format(...)` and `"..." % (...)` of traced values: the f-string's StagedText.

Progress lines in NumPy code are as often `print("%d: %.3e" % (i, err))` or
`"{:>6.1f}".format(x)` as f-strings. Python's own formatting would ask the tensor for a
Python number now, which it does not have; here each traced value becomes a piece of a
StagedText (runtime/text.py `formatted`, the f-string's), formatted by the same `format`
when the function runs, so the text is Python's. On Python values both are Python's own.

- `str.format`: Python's parser and field lookup (string.Formatter), each traced field a
  piece with its conversion and spec; a traced value inside a spec (`{:{w}}`) is refused.
- `%`: the printf-style directives mapped onto format specs as CPython formats them:
  `%d`/`%i`/`%u` of a float truncate (int()), `%x`/`%X`/`%o` need an integer, `%e`/`%f`/
  `%g` make a float, `%s`/`%r`/`%a` the str/repr/ascii; flags `-+ 0#`, width, precision.
  `%c` and a `*` width taken from a traced value are refused (one from a Python int is
  used). Converted only where the
  left operand is a string literal (converters/fstrings.py).
"""

import re
import string

import numpy as np

from autograph_lite.autograph.runtime import builtins_, core, text, unset

_MARK = "\x00"  # (stands for a traced field in Formatter's output; absent from formats)
_CONVERSIONS = {None: -1, "s": 115, "r": 114, "a": 97}  # (!s, !r, !a: ord of the letter)


def _traced(value):
    return (core.is_symbolic(value) or isinstance(value, text.StagedText)
            or (text.structured(value) and text.holds(value)))


def _field(pieces, piece):
    """The mark that stands for ``piece`` (now the last of ``pieces``) in the text."""
    pieces.append(piece)
    return f"{_MARK}{len(pieces) - 1}{_MARK}"


def _staged(parts, pieces):
    """The text ``parts`` (literals between _MARK-numbered fields) with each field its
    piece: a StagedText."""
    out = []
    for k, part in enumerate(parts):
        out.append(pieces[int(part)] if k % 2 else part)
    return text.fstring(*out)


class _Field:
    __slots__ = ("value", "conversion")

    def __init__(self, value, conversion):
        self.value, self.conversion = value, conversion


class _Formatter(string.Formatter):
    """str.format whose traced fields become pieces, marked in the text Python builds."""

    def __init__(self):
        self.pieces = []

    def convert_field(self, value, conversion):
        if _traced(value):
            return _Field(value, conversion)
        return super().convert_field(value, conversion)

    def format_field(self, value, format_spec):
        if isinstance(value, _Field) or _traced(value):
            if _MARK in format_spec:
                raise TypeError("str.format with a traced value inside a format spec "
                                "(`{:{width}}`) is not staged: the spec must be known now")
            conversion = value.conversion if isinstance(value, _Field) else None
            value = value.value if isinstance(value, _Field) else value
            return _field(self.pieces, text.formatted(value, _CONVERSIONS[conversion],
                                                      format_spec))
        return super().format_field(value, format_spec)


def str_format(fmt, *args, **kwargs):
    """``fmt.format(*args, **kwargs)``."""
    if not (any(_traced(a) for a in args) or any(_traced(v) for v in kwargs.values())):
        return fmt.format(*args, **kwargs)
    if _MARK in fmt:
        raise NotImplementedError("str.format of a format holding a NUL character and a "
                                  "traced value is not staged")
    formatter = _Formatter()
    made = formatter.vformat(fmt, args, kwargs)
    return _staged(made.split(_MARK), formatter.pieces)


def overload(f):
    """``"...".format`` (a bound method, as converted code calls it): its staged form."""
    if type(getattr(f, "__self__", None)) is str and getattr(f, "__name__", "") == "format":
        return lambda *args, **kwargs: str_format(f.__self__, *args, **kwargs)
    return None


# -- printf-style ------------------------------------------------------------------------------
_DIRECTIVE = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?"
                        r"(?:\.(?P<precision>\*|\d+))?[hlL]?(?P<type>.?)", re.S)


def percent_format(fmt, values):
    """``fmt % values`` for a string literal ``fmt``."""
    values = (tuple(map(unset.plain, values)) if type(values) is tuple
              else unset.plain(values))  # (None on some runs, known set here: its value)
    items = values if type(values) is tuple else (values,)
    if not (any(_traced(v) for v in items) or (isinstance(values, dict) and any(
            _traced(v) for v in values.values()))):
        return fmt % values
    mapping = values if not isinstance(values, tuple) and hasattr(values, "keys") else None
    if _MARK in fmt:
        raise NotImplementedError("`%` formatting of a format holding a NUL character and "
                                  "a traced value is not staged")
    out, pieces, at, pos = [], [], 0, 0
    for m in _DIRECTIVE.finditer(fmt):
        out.append(fmt[at:m.start()])
        at = m.end()
        if m.group("type") == "%" and m.group(0) == "%%":
            out.append("%")
            continue
        flags, width, precision = m.group("flags"), m.group("width"), m.group("precision")
        if "*" in (width, precision) and mapping is not None:
            raise TypeError("* wants int")
        if width == "*":  # (the next argument: a Python int; negative, left-justified)
            width, pos = _star(items, pos), pos + 1
            flags, width = (flags + "-", width[1:]) if width.startswith("-") else (flags,
                                                                                   width)
        if precision == "*":
            precision, pos = _star(items, pos), pos + 1
        if m.group("key") is not None:
            if mapping is None:
                raise TypeError("format requires a mapping")
            value = mapping[m.group("key")]
        else:
            if pos >= len(items):
                raise TypeError("not enough arguments for format string")
            value, pos = items[pos], pos + 1
        piece = _directive(value, m.group("type"), flags, width, precision)
        out.append(piece if isinstance(piece, str) else _field(pieces, piece))
    out.append(fmt[at:])
    if mapping is None and pos < len(items):
        raise TypeError("not all arguments converted during string formatting")
    return _staged("".join(out).split(_MARK), pieces)


def _star(items, pos):
    """The number a `*` of a `%` directive takes from the arguments, as text."""
    if pos >= len(items):
        raise TypeError("not enough arguments for format string")
    if _traced(items[pos]):
        raise NotImplementedError("a `*` width or precision in `%` formatting taken from a "
                                  "traced value is not staged: the text's layout must be "
                                  "known now")
    if not isinstance(items[pos], int):
        raise TypeError("* wants int")
    return str(items[pos])


def _directive(value, kind, flags, width, precision):
    """One `%` directive of ``value``: its text now (a Python value) or its piece."""
    directive = f"%{flags}{width or ''}{'.' + precision if precision else ''}{kind}"
    if not _traced(value):
        return directive % (value,)
    width = width or ""
    if kind in "sra" and kind:
        align = ("<" if "-" in flags else ">") if width else ""
        spec = f"{align}{width}{'.' + precision if precision else ''}"
        return text.formatted(value, _CONVERSIONS[kind], spec)
    if kind not in "diuxXoeEfFgG" or not kind:
        raise NotImplementedError(f"the `%{kind}` directive of a traced value is not staged "
                                  f"(use an f-string)")
    name = core.type_name(value)  # (Python's messages name the plain run's type)
    if not core.is_symbolic(value):
        raise TypeError(f"%{kind} format: a real number is required, not {name}")
    dkind = np.dtype(value.dtype).kind
    if kind in "xXo" and (dkind not in "biu" or core.rank_of(value)):
        raise TypeError(f"%{kind} format: an integer is required, not {name}")
    if core.rank_of(value):
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars"
                        if kind in "eEfFgG" else
                        f"%{kind} format: a real number is required, not {name}")
    if name == "complex":  # (a NumPy complex gives its real part, with NumPy's warning)
        raise TypeError("must be real number, not complex")
    if kind in "diu" and precision:
        raise NotImplementedError("a precision on `%d` of a traced value is not staged")
    number = builtins_.int_(value) if kind in "diuxXo" else builtins_.float_(value)
    align = "<" if "-" in flags and width else ""
    sign = "+" if "+" in flags else (" " if " " in flags else "")
    zero = "0" if "0" in flags and not align else ""
    spec = (f"{align}{sign}{'#' if '#' in flags else ''}{zero}{width}"
            f"{'.' + precision if precision else ''}{'d' if kind in 'iu' else kind}")
    return text.formatted(number, -1, spec)
