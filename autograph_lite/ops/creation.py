"""Tensors made from sizes: full/zeros/ones/empty, eye, range, linspace.

Sizes known as Python ints are static attributes (``shape`` with None where a size is a
tensor); tensor sizes are extra inputs, so ``np.zeros(n)`` with a traced ``n`` is staged.
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType
from ..tensor import SymbolicTensor
from .dispatch import apply, check_all, check_carries_state
from .registry import defop


def split_shape(shape, unknown=False):
    """(static shape with None for tensor dims, the tensor dims) for a user's shape;
    ``unknown``: a -1 may stand for one size (a reshape's)."""
    from ..tensor import Tensor
    if isinstance(shape, Tensor) and shape.ndim == 1 and shape.shape[0] is not None:
        shape = [shape[i] for i in range(shape.shape[0])]
    if isinstance(shape, (int, np.integer)) or (isinstance(shape, Tensor) and not shape.ndim):
        shape = (shape,)
    static, dyn = [], []
    for d in shape:
        if isinstance(d, (int, np.integer)) and not isinstance(d, bool):
            if d < 0 and not (unknown and d == -1):
                raise ValueError(f"negative dimensions are not allowed: {tuple(shape)}")
            static.append(int(d))
        elif isinstance(d, Tensor) and d.ndim == 0 and d.dtype.kind in "iu":
            static.append(None)
            dyn.append(d)
        else:
            raise TypeError(f"a shape must hold ints or integer scalar tensors; got {d!r}")
    return tuple(static), dyn


def _dims(static, dyn_values):
    it = iter(dyn_values)
    return tuple(int(next(it)) if d is None else d for d in static)


def _dim_exprs(em, node, static, first):
    """The sizes of a new array: static ones as literals, the others read at run time
    (rt.empty checks them as NumPy does)."""
    it = iter(node.inputs[first:])
    return [em.name(next(it)) if d is None else str(d) for d in static]


def _full_infer(in_types, shape, dtype, known=None):
    # ``known``: sizes known while tracing but read at run time (ones_like of a traced x)
    return [TensorType(dtypes.as_dtype(dtype), tuple(shape if known is None else known))]


def _full_eager(value, *dims, shape, dtype, known=None):
    return np.full(_dims(shape, dims), value, dtype)[()]


def _full_lower(em, node):
    out = node.outputs[0].type
    val = em.cast(em.name(node.inputs[0]), node.inputs[0].type.dtype, out.dtype)
    if not out.ndim:
        return val
    dims = _dim_exprs(em, node, node.attrs["shape"], 1)
    em.fill(em.new(node.outputs[0]), dims, val, out.dtype)


def _sizes_checked(first):
    """``checks``: NumPy's error for a negative size known only at run time (inputs from
    ``first`` on)."""
    def checks(*args, **attrs):
        sizes = args[first:]
        if sizes and check_carries_state():
            check_all([apply("greater_equal", n, 0) for n in sizes],
                      "negative dimensions are not allowed")
    return checks


defop("full", infer=_full_infer, eager=_full_eager, lower=_full_lower, differentiable=False,
      checks=_sizes_checked(1),
      lower_cuda=lambda em, node: em.filled(node, em.name(node.inputs[0]),
                                            _dim_exprs(em, node, node.attrs["shape"], 1)),
      doc="ag.fill / zeros / ones / np.full: a tensor of one value")


def _empty_eager(*dims, shape, dtype):
    return np.zeros(_dims(shape, dims), dtype)[()]


def _empty_lower(em, node):
    out = node.outputs[0].type
    if not out.ndim:
        return em.lit(0, out.dtype)
    dims = _dim_exprs(em, node, node.attrs["shape"], 0)
    return em.alloc(dims, out.dtype)


defop("empty", infer=_full_infer, eager=_empty_eager, lower=_empty_lower, differentiable=False,
      checks=_sizes_checked(0),
      lower_cuda=lambda em, node: em.filled(node, "0",
                                            _dim_exprs(em, node, node.attrs["shape"], 0)),
      doc="np.empty: uninitialised storage (the interpreter fills it with zeros)")


def _eye_infer(in_types, n, m, dtype):
    return [TensorType(dtypes.as_dtype(dtype), (n, m))]


defop("eye", infer=_eye_infer, eager=lambda n, m, dtype: np.eye(n, m, dtype=dtype),
      lower=lambda em, node: (f"np.eye({node.attrs['n']}, {node.attrs['m']}, "
                              f"dtype={em.dt(node.attrs['dtype'])})"),
      differentiable=False)


def _range_infer(in_types, dtype, length=None):
    return [TensorType(dtypes.as_dtype(dtype), (length,))]


# NumPy's error for a zero step that is a NumPy number (a tensor here); of Python numbers
# only, a ZeroDivisionError (numpy_api.arange raises that while tracing)
_ZERO_STEP = "Maximum allowed size exceeded (np.arange's step is 0)"


def _range_eager(start, limit, delta, dtype, length=None):
    if delta == 0:
        raise ValueError(_ZERO_STEP)
    return np.arange(start, limit, delta, dtype=dtype)


def _range_lower(em, node):
    """NumPy's arange, not Numba's: the values are computed in the result dtype as NumPy
    computes them (``rt.arange_fill``), which differs from ``start + i * step`` in the
    last bits (np.arange(1.0, 0.0, -0.3)[2] is 0.3999999999999999, not 0.4)."""
    a, b, c = (em.name(v) for v in node.inputs)
    dt = node.attrs["dtype"]
    em.line(f"if {c} == 0:")
    em.line(f"    raise ValueError({_ZERO_STEP!r})")
    out = em.new(node.outputs[0])
    length = ", ".join(_in_numpy_scalar_type(em, node, (0, 1, 2)))
    em.line(f"{out} = {em.alloc([f'rt.arange_length({length})'], dt)}")
    em.line(f"rt.arange_fill({out}, {', '.join(_in_numpy_scalar_type(em, node, (0, 2)))})")


def _in_numpy_scalar_type(em, node, which):
    """The bounds ``which`` (input positions) cast to the dtype NumPy's arange computes
    with them in: it takes ``stop - start``, ``/ step`` and ``start + step`` as the NumPy
    scalars (or Python numbers: weak) they are, so float32 bounds with a Python float
    step count and start in float32 (np.arange(np.float32(0.2), np.float32(1.7), 0.1) has
    15 elements, not float64's 16; before session 45 the kernel's had 16)."""
    types = [node.inputs[k].type for k in which]
    dt = dtypes.result_type(*types)
    return [em.cast(em.name(node.inputs[k]), t.dtype, dt) for k, t in zip(which, types)]


def _step_checked(start, limit, delta, **attrs):
    """``checks``: NumPy's error for a zero step known only at run time."""
    if isinstance(delta, SymbolicTensor) and check_carries_state():
        apply("assert", apply("not_equal", delta, 0), error="ValueError", message=_ZERO_STEP)


defop("range", infer=_range_infer, eager=_range_eager, lower=_range_lower,
      checks=_step_checked, differentiable=False, doc="ag.range / np.arange with tensor bounds")


def _linspace_infer(in_types, num, dtype):
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    return [TensorType(dtypes.as_dtype(dtype), (num,))]


def _linspace_eager(a, b, num, dtype):
    y = np.linspace(a, b, num, dtype=np.float64)
    if np.dtype(dtype).kind in "iub":
        y = np.floor(y)  # NumPy floors before an integer cast
    return y.astype(dtype)


def _linspace_lower(em, node):
    a, b = (em.name(v) for v in node.inputs)
    dt = node.attrs["dtype"]
    y = f"np.linspace(np.float64({a}), np.float64({b}), {node.attrs['num']})"
    if dt.kind in "iub":
        y = f"np.floor({y})"
    return em.astype(y, np.dtype(np.float64), dt)


defop("linspace", infer=_linspace_infer, eager=_linspace_eager, lower=_linspace_lower,
      differentiable=False, doc="ag.linspace / np.linspace with tensor bounds")
