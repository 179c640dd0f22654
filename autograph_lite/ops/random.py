"""Random ops: fresh values on every call of the compiled function (stateful: never merged).

Eager and interpreter runs draw from NumPy's global generator and compiled kernels from
Numba's; ``ag.random.set_seed`` seeds both, and Numba then reproduces NumPy's stream. The
cuda backend draws float arrays on the device (its own stream, also seeded by set_seed).
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType
from .creation import _dim_exprs, _dims
from .registry import defop


def _infer(in_types, shape, dtype):
    return [TensorType(dtypes.as_dtype(dtype), tuple(shape))]


def _eager(fn):
    def run(a, b, *dims, shape, dtype):
        size = _dims(shape, dims)
        return np.asarray(fn(a, b, size if size else None)).astype(dtype)[()]
    return run


def _lower(fn):
    def lower(em, node):
        a, b = (em.name(v) for v in node.inputs[:2])
        out = node.outputs[0].type
        if not out.ndim:
            return em.fix(f"np.random.{fn}({a}, {b})", out.dtype)
        dims = _dim_exprs(em, node, node.attrs["shape"], 2)
        return f"np.random.{fn}({a}, {b}, ({', '.join(dims)},)).astype({em.dt(out.dtype)})"
    return lower


defop("random_normal", infer=_infer, eager=_eager(np.random.normal),
      lower=_lower("normal"), lower_cuda=lambda em, node: em.drawn(node, "normal"),
      stateful=True, differentiable=False,
      doc="normal(mean, stddev) samples")
defop("random_uniform", infer=_infer, eager=_eager(np.random.uniform),
      lower=_lower("uniform"), lower_cuda=lambda em, node: em.drawn(node, "uniform"),
      stateful=True, differentiable=False,
      doc="uniform [minval, maxval) samples")
