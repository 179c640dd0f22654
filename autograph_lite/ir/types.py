"""TensorType: a dtype plus a partial shape (``None`` marks a size unknown at trace time)."""
from dataclasses import dataclass

import numpy as np

from .. import dtypes


@dataclass(frozen=True)
class TensorType:
    dtype: np.dtype
    shape: tuple
    weak: bool = False  # a Python literal: promotes like NumPy 2's weak scalars

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def fully_defined(self):
        return all(d is not None for d in self.shape)

    def with_shape(self, shape):
        return TensorType(self.dtype, tuple(shape), self.weak)

    def strong(self):
        return TensorType(self.dtype, self.shape) if self.weak else self

    def __str__(self):
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype}[{dims}]" + ("~" if self.weak else "")


def scalar(dtype, weak=False):
    return TensorType(dtypes.as_dtype(dtype), (), weak)


def broadcast_shapes(*shapes, what="operands"):
    """Static NumPy broadcasting over partial shapes; raises ValueError on a sure mismatch."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(ndim):
        dims = [s[len(s) - ndim + k] for s in shapes if len(s) - ndim + k >= 0]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(f"{what} could not be broadcast together with shapes "
                             + " ".join(str(tuple(s)) for s in shapes))
        if known:
            out.append(known.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def relax(a, b):
    """The most specific shape covering both ``a`` and ``b`` (same rank): differing dims -> None."""
    return tuple(x if x == y else None for x, y in zip(a, b))
