"""f-strings and `str()`/`repr()` of traced values (autograph_lite/staged_text.py).

On Python values each is the Python construct itself: `formatted` is `format(value,
spec)` after the conversion, `fstring` joins the pieces."""

from autograph_lite.staged_text import Piece, StagedText, text
from autograph_lite.autograph.runtime import core, list_values, unset


def formatted(value, conversion=-1, spec=""):
    """`{value!conversion:spec}` of an f-string."""
    value = unset.plain(value)  # (None on some runs, known set here: its value's text)
    if type(value) in CONTAINERS and holds(value):
        if spec:  # (Python's, for a list/tuple/dict)
            raise TypeError(f"unsupported format string passed to "
                            f"{type(value).__name__}.__format__")
        return container_text(value)
    if core.is_symbolic(value):
        if spec and core.rank_of(value) != 0 and conversion == -1:
            # NumPy's, raised now: an array formats only as a whole, with no spec
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return _piece(value, conversion, spec)
    if isinstance(value, StagedText) and conversion in (-1, 115) and not spec:
        return value  # (`f"{str(x)}"`: its pieces, joined by fstring)
    return text(value, conversion, spec)


def _piece(value, conversion, spec):
    if isinstance(value, list_values.ListTensor):  # (its rows as a Python list's text)
        return Piece(value, conversion, spec, "list")
    python = core.numpy_type(value)  # (a weak 0-d tensor: the Python number it stands for)
    return Piece(value, conversion, spec,
                 python.__name__ if python in (bool, int, float, complex) else None)


def fstring(*pieces):
    """An f-string's pieces joined: a str, or a StagedText when a piece is traced."""
    if any(isinstance(p, (Piece, StagedText)) for p in pieces):
        flat = []
        for p in pieces:
            flat.extend(p.pieces if isinstance(p, StagedText) else (p,))
        return StagedText(flat)
    return "".join(pieces)


def str_(*args, **kwargs):
    if len(args) == 1 and not kwargs and core.is_symbolic(args[0]):
        return StagedText([_piece(args[0], 115, "")])
    if len(args) == 1 and not kwargs and type(args[0]) in CONTAINERS and holds(args[0]):
        return container_text(args[0])
    return str(*args, **kwargs)


def repr_(value):
    if core.is_symbolic(value):
        return StagedText([_piece(value, 114, "")])
    if type(value) in CONTAINERS and holds(value):
        return container_text(value)
    return repr(value)


CONTAINERS = (list, tuple, dict)


def holds(x):
    """Whether ``x`` is, or a list/tuple/dict in it holds, a traced value."""
    if type(x) in CONTAINERS:
        items = x.items() if type(x) is dict else ((v,) for v in x)
        return any(holds(v) for pair in items for v in pair)
    return core.is_symbolic(x) or isinstance(x, StagedText)


def container_text(value):
    """``str()`` of a list, tuple or dict holding traced values (`print([x[0], x[1]])`): the
    repr of each item, as Python joins them, the traced ones made when the function runs
    (a StagedText); ``value`` itself when it holds none, or is of another type."""
    if isinstance(value, list_values.ListTensor):  # (a list a staged loop appended to)
        return StagedText([_piece(value, 115, "")])
    if type(value) not in CONTAINERS or not holds(value):
        return value
    return StagedText(_repr_pieces(value))


def _repr_pieces(v):
    if core.is_symbolic(v):
        return [_piece(v, 114, "")]
    if isinstance(v, StagedText):
        raise TypeError("the repr of a string holding a traced value (an f-string or str() "
                        "of a tensor inside a list, tuple or dict) cannot be made: its "
                        "quotes and escapes depend on text that exists only when the "
                        "compiled function runs; print the string itself")
    if type(v) not in CONTAINERS or not holds(v):
        return [repr(v)]
    if type(v) is dict:
        parts = [[repr(k), ": "] + _repr_pieces(item) if not holds(k) else _no_key()
                 for k, item in v.items()]
        opening, closing = "{", "}"
    else:
        parts = [_repr_pieces(item) for item in v]
        opening, closing = ("[", "]") if type(v) is list else ("(", ",)" if len(v) == 1
                                                                else ")")
    out = [opening]
    for k, part in enumerate(parts):
        out += ([", "] if k else []) + part
    return out + [closing]


def _no_key():
    raise TypeError("a dict keyed by a traced value cannot be printed: its keys must be "
                    "Python values")


def exception_text(exc):
    """``str(exc)`` of a user's exception made while tracing: a StagedText when its
    arguments hold traced values (`ValueError(f"bad {v}")`, `ValueError("bad", v)`), whose
    text a staged check makes when it fails, as Python makes it then; else the str."""
    args = exc.args
    if not any(core.is_symbolic(a) or isinstance(a, StagedText)
               or (type(a) in CONTAINERS and holds(a)) for a in args):
        return str(exc)  # (`AssertionError((x[0], "low"))`: a tuple of traced values too)
    if len(args) == 1:
        return args[0] if isinstance(args[0], StagedText) else str_(args[0])
    if len(args) > 1 and not any(isinstance(a, StagedText) for a in args):
        # (a tuple's repr: the repr of a string is Python's own only when it is known now)
        parts = ["("]
        for k, a in enumerate(args):
            parts += [", "] * bool(k) + [repr_(a)]
        return fstring(*parts, ")")
    return str(exc)  # (repr of text made when it runs: each traced value named by its type)
