"""NumPy's finite differences, integrals and polynomials, built from the op table's ops (as
numpy_composites.py), each following NumPy's own steps (numpy/lib/_function_base_impl.py,
numpy/lib/_polynomial_impl.py) so that dtypes and bits agree:

- ``gradient``: central differences inside, one-sided differences of order
  ``edge_order`` at the ends, with a uniform spacing per axis (a number, 1 by default);
  each piece is cast to the result's dtype as NumPy's assignment into ``empty_like`` casts
  it, and the pieces are joined along the axis. Sizes known only at run time are checked
  there (NumPy's "too small" ValueError). Coordinate arrays as spacing are refused.
- ``trapezoid``: ``(d * (y[1:] + y[:-1]) / 2.0).sum(axis)``, with ``d`` the spacing or the
  differences of ``x``.
- ``polyval``: Horner's loop over the coefficients (their number known while tracing).
"""
import numpy as np

from . import numpy_api as npa
from .numpy_composites import diff, one_axis
from .ops.dispatch import apply, convert_to_tensor, size_of
from .ops.registry import public
from .tensor import Tensor


def _along(axis, ndim, s):
    """An index that applies slice ``s`` along ``axis`` only."""
    return (slice(None),) * axis + (s,) + (slice(None),) * (ndim - axis - 1)


def _spacings(varargs, axes):
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    if any(np.ndim(d) != 0 for d in varargs):
        raise NotImplementedError("np.gradient with coordinate arrays as spacing is not "
                                  "staged; pass one number per axis")
    return list(varargs)


def _check_size(f, axis, edge_order):
    need = edge_order + 1
    message = ("Shape of array too small to calculate a numerical gradient, at least "
               "(edge_order + 1) elements are required.")
    n = size_of(f, axis)
    if isinstance(n, int):
        if n < need:
            raise ValueError(message)
    else:
        apply("assert", n >= need, message=message, error="ValueError")


def _one_axis(f, axis, dx, edge_order, otype):
    nd = f.ndim

    def at(s):
        return f[_along(axis, nd, s)]
    inner = (at(slice(2, None)) - at(slice(None, -2))) / (2. * dx)
    if edge_order == 1:
        first = (at(slice(1, 2)) - at(slice(0, 1))) / dx
        last = (at(slice(-1, None)) - at(slice(-2, -1))) / dx
    else:
        a, b, c = -1.5 / dx, 2. / dx, -0.5 / dx
        first = a * at(slice(0, 1)) + b * at(slice(1, 2)) + c * at(slice(2, 3))
        a, b, c = 0.5 / dx, -2. / dx, 1.5 / dx
        last = a * at(slice(-3, -2)) + b * at(slice(-2, -1)) + c * at(slice(-1, None))
    parts = [npa.cast(p, otype) for p in (first, inner, last)]
    return npa.concatenate(parts, axis=axis)


@public("np.gradient")
def gradient(f, *varargs, axis=None, edge_order=1):
    f = convert_to_tensor(f)
    if f.dtype.kind == "c":
        raise NotImplementedError("np.gradient of a complex tensor is not staged")
    if f.dtype.kind == "b":  # (NumPy's: it subtracts the bools; we cast them to numbers)
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the "
                        "bitwise_xor, the `^` operator, or the logical_xor function instead.")
    if edge_order not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    if axis is None:
        axes = tuple(range(f.ndim))
    else:
        axes = tuple(one_axis(a, f.ndim) for a in (axis if isinstance(axis, (tuple, list))
                                                    else (axis,)))
    spacings = _spacings(varargs, axes)
    if f.dtype.kind in "iub":
        f = npa.cast(f, np.float64)  # (NumPy's: integers as float64)
    outs = []
    for ax, dx in zip(axes, spacings):
        _check_size(f, ax, edge_order)
        outs.append(_one_axis(f, ax, dx, edge_order, f.dtype))
    return outs[0] if len(outs) == 1 else tuple(outs)


@public("np.trapezoid")
def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = convert_to_tensor(y)
    axis = one_axis(axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = convert_to_tensor(x)
        if x.ndim == 1:
            d = diff(x)
            d = npa.reshape(d, tuple(-1 if k == axis else 1 for k in range(y.ndim)))
        else:
            d = diff(x, axis=axis)
    upper = y[_along(axis, y.ndim, slice(1, None))]
    lower = y[_along(axis, y.ndim, slice(None, -1))]
    return npa.sum(d * (upper + lower) / 2.0, axis=axis)


@public("np.polyval")
def polyval(p, x):
    if isinstance(p, Tensor):
        n = p.shape[0] if p.ndim == 1 else None
        if n is None:
            raise TypeError("np.polyval's coefficients must be 1-D with a length known "
                            "while tracing")
        coefficients = [p[i] for i in range(n)]
    else:
        coefficients = list(np.asarray(p))
    y = npa.zeros_like(x)
    for pv in coefficients:
        y = y * x + pv
    return y
