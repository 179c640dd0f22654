"""f-strings and `str()`/`repr()` of traced values (autograph_lite/staged_text.py).

On Python values each is the Python construct itself: `formatted` is `format(value,
spec)` after the conversion, `fstring` joins the pieces."""

import collections
import dataclasses

from autograph_lite.staged_text import Piece, StagedText, text
from autograph_lite.autograph.runtime import core, list_values, unset


def formatted(value, conversion=-1, spec=""):
    """`{value!conversion:spec}` of an f-string."""
    value = unset.plain(value)  # (None on some runs, known set here: its value's text)
    if structured(value) and holds(value):
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
    return checked(text(value, conversion, spec), value)


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
    if len(args) == 1 and not kwargs and structured(args[0]) and holds(args[0]):
        return container_text(args[0])
    return checked(str(*args, **kwargs), args[0] if args else None)


def repr_(value):
    if core.is_symbolic(value):
        return StagedText([_piece(value, 114, "")])
    if structured(value) and holds(value):
        return container_text(value)
    return checked(repr(value), value)


CONTAINERS = (list, tuple, dict)
_NAMEDTUPLE_REPR = collections.namedtuple("_Record", "a").__repr__.__code__
_PLACEHOLDERS = ("<ag.Tensor symbolic", "<ag.StagedText")


def checked(made, value):
    """``made``, the text Python made of ``value`` while tracing, unless it holds the
    placeholder of a traced value (an object's own `__repr__`/`__str__` run on its traced
    attributes, a SimpleNamespace, a deque): that text would be printed on every call, a
    silent difference (session 54's probe: a namedtuple printed so); refused instead."""
    if isinstance(made, str) and any(p in made for p in _PLACEHOLDERS):
        raise TypeError(
            f"the text of a {type(value).__name__} holding traced values is made by its own "
            f"__str__/__repr__ while tracing, where each traced value is a placeholder "
            f"(its number exists only when the compiled function runs); format its values "
            f"themselves (an f-string of each, or a list, tuple, dict, namedtuple or "
            f"dataclass of them, whose text is made when it runs)")
    return made


def record_items(v):
    """(class name, [(field, value)]) of a namedtuple or dataclass whose repr is the one
    Python generates (`P(a=1.0, b=2)`), else None: its text is made item by item."""
    t = type(v)
    if isinstance(v, tuple) and getattr(t.__repr__, "__code__", None) is _NAMEDTUPLE_REPR:
        return t.__name__, list(zip(t._fields, v))
    if dataclasses.is_dataclass(t) and getattr(getattr(getattr(
            t.__repr__, "__wrapped__", None), "__code__", None), "co_filename", "") == "<string>":
        return t.__qualname__, [(f.name, getattr(v, f.name))
                                for f in dataclasses.fields(v) if f.repr]
    return None


def structured(v):
    """Whether ``v``'s text is made item by item here: a list, tuple, dict, or a record."""
    return type(v) in CONTAINERS or record_items(v) is not None


def holds(x):
    """Whether ``x`` is, or a list/tuple/dict (or record: ``record_items``) in it holds, a
    traced value."""
    if type(x) in CONTAINERS:
        items = x.items() if type(x) is dict else ((v,) for v in x)
        return any(holds(v) for pair in items for v in pair)
    record = None if core.is_symbolic(x) else record_items(x)
    if record is not None:
        return any(holds(v) for _, v in record[1])
    return core.is_symbolic(x) or isinstance(x, StagedText)


def container_text(value):
    """``str()`` of a list, tuple or dict holding traced values (`print([x[0], x[1]])`): the
    repr of each item, as Python joins them, the traced ones made when the function runs
    (a StagedText); ``value`` itself when it holds none, or is of another type."""
    if isinstance(value, list_values.ListTensor):  # (a list a staged loop appended to)
        return StagedText([_piece(value, 115, "")])
    if not structured(value) or not holds(value):
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
    if not structured(v) or not holds(v):
        return [checked(repr(v), v)]
    record = record_items(v)
    if record is not None:  # (`P(a=np.float64(1.0), b=2)`, as Python's generated repr)
        out = [f"{record[0]}("]
        for k, (name, item) in enumerate(record[1]):
            out += ([", "] if k else []) + [f"{name}="] + _repr_pieces(item)
        return out + [")"]
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


def join(sep, items):
    """`sep.join(items)`: Python's, or where an item is text of traced values (`", ".join(
    f"{v:.2f}" for v in x)`: session 54's probe, CPython's TypeError naming StagedText)
    that text made when the function runs. A non-string item is Python's TypeError."""
    items = list(items)
    if not any(isinstance(v, StagedText) for v in items):
        return sep.join(items)
    parts = []
    for k, v in enumerate(items):
        if not isinstance(v, (str, StagedText)):
            kind = core.numpy_type(v) if core.is_symbolic(v) else type(v)
            name = (kind.__name__ if kind.__module__ == "builtins"
                    else f"{kind.__module__}.{kind.__name__}")
            raise TypeError(f"sequence item {k}: expected str instance, {name} found")
        parts += [sep] * bool(k) + [v]
    return fstring(*parts)


def exception_text(exc):
    """``str(exc)`` of a user's exception made while tracing: a StagedText when its
    arguments hold traced values (`ValueError(f"bad {v}")`, `ValueError("bad", v)`), whose
    text a staged check makes when it fails, as Python makes it then; else the str."""
    args = exc.args
    if not any(core.is_symbolic(a) or isinstance(a, StagedText)
               or (structured(a) and holds(a)) for a in args):
        return str(exc)  # (`AssertionError((x[0], "low"))`: a tuple of traced values too)
    if len(args) == 1:
        return args[0] if isinstance(args[0], StagedText) else str_(args[0])
    if len(args) > 1 and all(_quotable(a) for a in args if isinstance(a, StagedText)):
        # (a tuple's repr: a string's is its text in quotes, made when it runs where no
        # quote or escape in it could change Python's choice of quotes: session 54, the
        # text's placeholder `<ag.StagedText ...>` was the message)
        parts = ["("]
        for k, a in enumerate(args):
            parts += [", "] * bool(k) + (["'", a, "'"] if isinstance(a, StagedText)
                                         else [repr_(a)])
        return fstring(*parts, ")")
    raise NotImplementedError(
        f"an exception raised with several arguments, one a text of traced values holding "
        f"quotes or escapes ({type(exc).__name__}{args!r}): its message would be the repr "
        f"of that text, made when the function runs; raise it with one f-string instead")


def _quotable(t):
    """Whether the repr of staged text ``t`` is its text in single quotes: its own pieces
    hold no quote, backslash or control character (a traced number's text holds none)."""
    return all(not isinstance(p, str) or (p.isprintable() and not set(p) & set("'\\\""))
               for p in t.pieces)
