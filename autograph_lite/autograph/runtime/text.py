"""f-strings and `str()`/`repr()` of traced values (autograph_lite/staged_text.py).

On Python values each is the Python construct itself: `formatted` is `format(value,
spec)` after the conversion, `fstring` joins the pieces."""

from autograph_lite.staged_text import Piece, StagedText, text
from autograph_lite.autograph.runtime import core


def formatted(value, conversion=-1, spec=""):
    """`{value!conversion:spec}` of an f-string."""
    if core.is_symbolic(value):
        if spec and core.rank_of(value) != 0 and conversion == -1:
            # NumPy's, raised now: an array formats only as a whole, with no spec
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return _piece(value, conversion, spec)
    if isinstance(value, StagedText) and conversion in (-1, 115) and not spec:
        return value  # (`f"{str(x)}"`: its pieces, joined by fstring)
    return text(value, conversion, spec)


def _piece(value, conversion, spec):
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
    return str(*args, **kwargs)


def repr_(value):
    if core.is_symbolic(value):
        return StagedText([_piece(value, 114, "")])
    return repr(value)


def exception_text(exc):
    """``str(exc)`` of a user's exception made while tracing: a StagedText when its
    arguments hold traced values (`ValueError(f"bad {v}")`, `ValueError("bad", v)`), whose
    text a staged check makes when it fails, as Python makes it then; else the str."""
    args = exc.args
    if not any(core.is_symbolic(a) or isinstance(a, StagedText) for a in args):
        return str(exc)
    if len(args) == 1:
        return args[0] if isinstance(args[0], StagedText) else str_(args[0])
    if len(args) > 1 and not any(isinstance(a, StagedText) for a in args):
        # (a tuple's repr: the repr of a string is Python's own only when it is known now)
        parts = ["("]
        for k, a in enumerate(args):
            parts += [", "] * bool(k) + [repr_(a)]
        return fstring(*parts, ")")
    return str(exc)  # (repr of text made when it runs: each traced value named by its type)
