"""Text made from traced values: an f-string of a tensor, printed on every call.

`print(f"step {i}: err={err:.3e}")` is how NumPy code reports progress. While tracing,
`err` has no value, so its text cannot exist yet: the f-string becomes a ``StagedText``
(static pieces and ``Piece``s: a tensor with its conversion and format spec) that
``ag.print`` takes apart, and the print op formats each piece with ``text`` when the
function runs (ops/io.py), as Python would have. Anything else that needs the text now
(`len(s)`, `s == t`, `s.upper()`, returning it; `s + "x"` is text made when it runs) raises a TypeError saying so: a string
made from the symbolic repr would be a silent wrong answer. Only `str(s)` gives static
text, each traced value named by its type, for the messages of exceptions raised while
tracing and of staged asserts.
"""

from .errors import user_location

def text(value, conversion=-1, spec=""):
    """The text of ``value`` in an f-string: `f"{value!conversion:spec}"` (the one
    formatting, which kernels call too; imported here when first needed: importing
    autograph_lite does not import Numba)."""
    from .backends.cpu_runtime import render
    return render(value, conversion, spec, None)


class Piece:
    """A traced value in an f-string: its text is made when the function runs.
    ``python``: the name of the Python number type it stands for (a weak 0-d tensor: its
    text is that number's, `1.5`, not NumPy's `np.float64(1.5)` of `!r`), or None."""
    __slots__ = ("value", "conversion", "spec", "python")

    def __init__(self, value, conversion, spec, python=None):
        self.value, self.conversion, self.spec = value, conversion, spec
        self.python = python


class StagedText:
    """An f-string (or `str(x)`) holding traced values: printable, nothing else."""
    __slots__ = ("pieces",)

    def __init__(self, pieces):
        self.pieces = tuple(pieces)

    def _no_text(self, *_):
        at = user_location()
        raise TypeError(f"{f'at {at}, ' if at else ''}a string holding a traced value (an "
                        f"f-string, str() or repr() of a tensor) is used as a Python "
                        f"string, but its text exists only when the compiled function "
                        f"runs: it can be printed (print(f'...') prints it on every call), "
                        f"nothing else; return the tensor itself and format it outside the "
                        f"function")

    def __add__(self, other):  # `f"..." + "tail"`: still text made when it runs
        if isinstance(other, str):
            return StagedText(self.pieces + (other,))
        if isinstance(other, StagedText):
            return StagedText(self.pieces + other.pieces)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, str):
            return StagedText((other,) + self.pieces)
        return NotImplemented

    __len__ = __mod__ = __format__ = __iter__ = _no_text
    __getitem__ = __contains__ = __eq__ = __hash__ = __mul__ = _no_text

    def __getattr__(self, name):
        self._no_text()

    def split(self):
        """(the traced values, the pieces with (conversion, spec, Python type) where each
        goes): what the print and assert ops take (ops/io.py)."""
        values, pieces = [], []
        for p in self.pieces:
            if isinstance(p, Piece):
                values.append(p.value)
                pieces.append((p.conversion, p.spec, p.python))
            else:
                pieces.append(p)
        return values, tuple(pieces)

    def __str__(self):
        """Static text for a message fixed at trace time (a staged assert's, an exception's
        raised while tracing): each traced value named by its type."""
        return "".join(p if isinstance(p, str) else
                       f"<traced {p.value.dtype}{list(p.value.shape) or ''}>"
                       for p in self.pieces)

    def __repr__(self):
        return "<ag.StagedText: a string of traced values, printed when the function runs>"
