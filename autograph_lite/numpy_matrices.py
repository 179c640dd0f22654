"""NumPy's axis and matrix functions, built from the op table's ops (as numpy_composites.py).

- Views, as NumPy's: ``swapaxes``, ``moveaxis`` and ``rot90`` are transposes, flips and
  slices of the array, so a write through them reaches it (mutation.py links each step).
  ``diagonal`` (and ``diag`` of a 2-D array) is NumPy's *read-only* view: a gather of the
  flattened array (a copy in the kernel) linked to the array by its steps, so it sees a
  later write into the array, and a write through it raises NumPy's "assignment
  destination is read-only" (a ``broadcast_to`` step, the table's read-only op).
- Copies: ``triu``/``tril`` (``where`` with an index mask on the last two axes, batches
  too), ``diag`` of a 1-D array (a scatter into zeros), ``trace`` (the diagonal's sum, with
  NumPy's dtype rules for sums), ``cross`` (NumPy's products in its order, 3- and
  2-vectors), ``inner``/``vdot`` (the ``matmul`` op of two vectors), ``kron`` (NumPy's
  interleaved broadcast product, any rank).

Sizes may be known only at run time (``size_of``); arguments NumPy needs as Python ints (an
offset, ``k``, axes) are refused when they are tensors, naming them (``static_int``).
"""
import builtins
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import errors, mutation
from . import numpy_api as npa
from .numpy_composites import flip, static_int
from .ops.dispatch import apply, convert_to_tensor, size_of
from .ops.registry import PUBLIC, expose, public
from .tensor import SymbolicTensor


def _zero(dtype):
    return np.zeros((), dtype)[()]


def _shaped(x, sizes):
    """``x`` (a fresh array) reshaped to ``sizes`` (ints, or 0-d tensors where known only
    at run time)."""
    if builtins.all(isinstance(s, int) for s in sizes):
        return npa.reshape(x, tuple(sizes))
    return apply("reshape_as", x, npa.zeros(tuple(sizes), dtype=bool))


# -- views: transposes and flips ------------------------------------------------------------------
@public("np.swapaxes", "Tensor.swapaxes")
def swapaxes(a, axis1, axis2):
    x = convert_to_tensor(a)
    i = normalize_axis_index(static_int(axis1, "np.swapaxes's axis1"), x.ndim)
    j = normalize_axis_index(static_int(axis2, "np.swapaxes's axis2"), x.ndim)
    order = list(builtins.range(x.ndim))
    order[i], order[j] = j, i
    return npa.transpose(x, order)


@public("np.matrix_transpose", "np.linalg.matrix_transpose")
def matrix_transpose(x):
    """``x.mT``: the last two axes swapped (a view)."""
    x = convert_to_tensor(x)
    if x.ndim < 2:
        raise errors.numpy_error_at_user(ValueError(
            f"Input array must be at least 2-dimensional, but it is {x.ndim}"))
    return swapaxes(x, -1, -2)


def _mT(x):
    if x.ndim < 2:  # (the attribute's own words)
        raise errors.numpy_error_at_user(ValueError(
            "matrix transpose with ndim < 2 is undefined"))
    return swapaxes(x, -1, -2)


expose("Tensor.mT", property(_mT))


@public("np.moveaxis")
def moveaxis(a, source, destination):
    x = convert_to_tensor(a)
    src = normalize_axis_tuple(_ints(source, "np.moveaxis's source"), x.ndim, "source")
    dst = normalize_axis_tuple(_ints(destination, "np.moveaxis's destination"), x.ndim,
                               "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    order = [n for n in builtins.range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return npa.transpose(x, order)


def _ints(v, what):
    return [static_int(k, what) for k in (v if isinstance(v, (tuple, list)) else (v,))]


@public("np.rot90")
def rot90(m, k=1, axes=(0, 1)):
    """NumPy's steps (numpy/lib/_function_base_impl.py): a view of ``m``."""
    axes = tuple(_ints(axes, "np.rot90's axes"))
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    x = convert_to_tensor(m)
    if axes[0] == axes[1] or builtins.abs(axes[0] - axes[1]) == x.ndim:
        raise ValueError("Axes must be different.")
    if builtins.any(a >= x.ndim or a < -x.ndim for a in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={x.ndim}.")
    k = static_int(k, "np.rot90's k") % 4
    if k == 0:
        return x[:]
    if k == 2:
        return flip(flip(x, axes[0]), axes[1])
    order = list(builtins.range(x.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return npa.transpose(flip(x, axes[1]), order)
    return flip(npa.transpose(x, order), axes[1])


# -- triangles ---------------------------------------------------------------------------------
def _tri(x, k):
    """NumPy's ``tri(*x.shape[-2:], k=k)``: True where column <= row + k."""
    if x.ndim == 0:
        raise ValueError("np.triu/np.tril of a 0-d array: NumPy needs at least one "
                         "dimension")
    n, m = (size_of(x, -1),) * 2 if x.ndim == 1 else (size_of(x, -2), size_of(x, -1))
    return npa.arange(m)[None, :] <= npa.arange(n)[:, None] + k


def _grid(n, m, k, sized=False):
    """(column - row == k)-style masks of an n x m matrix: the rows and the columns
    shifted by ``k``, as staged ranges (n, m, k may be traced ints). ``sized``: a negative
    size is NumPy's ValueError (np.eye's; np.tri's sizes are ranges, empty when negative),
    raised by the runs that reach it."""
    n, m, k = (npa.integer_count(v) for v in (n, m, k))
    for size in (n, m) if sized else ():
        if isinstance(size, SymbolicTensor):
            apply("assert", size >= 0, error="ValueError",
                  message="negative dimensions are not allowed")
        elif size < 0:
            raise errors.numpy_error(ValueError("negative dimensions are not allowed"))
    return npa.arange(n)[:, None] + k, npa.arange(m)[None, :]


def _traced(*values):
    return builtins.any(isinstance(v, SymbolicTensor) for v in values)


@public("np.eye")
def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """np.eye; with a traced size or offset, the mask ``column == row + k`` (NumPy's eye of
    that size, made when it runs)."""
    if not _traced(N, M, k):
        return np.eye(N, M, k, dtype, order, device=device, like=like)
    rows, cols = _grid(N, N if M is None else M, k, sized=True)
    return (cols == rows).astype(dtype)


@public("np.identity")
def identity(n, dtype=None, *, like=None):
    if not _traced(n):
        return np.identity(n, dtype, like=like)
    return eye(n, dtype=float if dtype is None else dtype)


@public("np.tri")
def tri(N, M=None, k=0, dtype=float, *, like=None):
    if not _traced(N, M, k):
        return np.tri(N, M, k, dtype, like=like)
    rows, cols = _grid(N, N if M is None else M, k)
    return (cols <= rows).astype(dtype)


@public("np.triu")
def triu(m, k=0):
    x = convert_to_tensor(m)
    return npa.where(_tri(x, static_int(k, "np.triu's k") - 1), _zero(x.dtype), x)


@public("np.tril")
def tril(m, k=0):
    x = convert_to_tensor(m)
    return npa.where(_tri(x, static_int(k, "np.tril's k")), x, _zero(x.dtype))


# -- diagonals ---------------------------------------------------------------------------------
def _diagonal_index(n, m, offset):
    """The flat (C-order) positions of an n x m matrix's diagonal at ``offset``: NumPy's
    length max(0, min(n, m - offset)) (``offset`` >= 0) or max(0, min(n + offset, m))."""
    length = m - offset if offset >= 0 else n + offset
    length = _min(n, length) if offset >= 0 else _min(length, m)
    start = offset if offset >= 0 else -offset * m
    return npa.arange(_clamp0(length)) * (m + 1) + start


def _min(a, b):
    return builtins.min(a, b) if isinstance(a, int) and isinstance(b, int) else np.minimum(a, b)


def _clamp0(n):
    return builtins.max(n, 0) if isinstance(n, int) else np.maximum(n, 0)


def _linked(parent, result):
    """``result`` (an op of ``parent`` that is not a view op) as a view of it."""
    return mutation.make_view(parent, result, result._value.node)


@public("np.diagonal", "Tensor.diagonal")
def diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's read-only view of the diagonals of the (axis1, axis2) planes (module
    docstring): the other axes first, in order, then the diagonal."""
    x = convert_to_tensor(a)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    i = normalize_axis_index(static_int(axis1, "np.diagonal's axis1"), x.ndim,
                             msg_prefix="axis1")
    j = normalize_axis_index(static_int(axis2, "np.diagonal's axis2"), x.ndim,
                             msg_prefix="axis2")
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    offset = static_int(offset, "np.diagonal's offset")
    planes = x
    if (i, j) != (x.ndim - 2, x.ndim - 1):  # (the planes last: a view, as transpose is)
        planes = npa.transpose(x, [k for k in range(x.ndim) if k not in (i, j)] + [i, j])
    n, m = size_of(planes, -2), size_of(planes, -1)
    index = _diagonal_index(n, m, offset)
    lead = tuple(size_of(planes, k) for k in range(x.ndim - 2))
    if not isinstance(x, SymbolicTensor):  # (an eager tensor: its values)
        return npa.reshape(planes, lead + (n * m,))[..., index]
    flat = _linked(planes, apply("reshape_as", planes,
                                 npa.zeros(lead + (n * m,), dtype=bool)))
    d = _linked(flat, flat[..., index])
    return mutation.read_only_view(d, apply("broadcast_to", d,
                                            npa.zeros_like(d, dtype=bool)))


@public("np.diag")
def diag(v, k=0):
    x = convert_to_tensor(v)
    k = static_int(k, "np.diag's k")
    if x.ndim == 2:
        return diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = size_of(x, 0) + builtins.abs(k)
    if not isinstance(x, SymbolicTensor):  # (an eager tensor, immutable: a tape sees ops)
        pad = npa.zeros((builtins.abs(k),), dtype=x.dtype)
        row = npa.concatenate((pad, x) if k >= 0 else (x, pad))  # (column j's value)
        return npa.where(eye(n, k=k, dtype=bool), row, npa.zeros((), dtype=x.dtype))
    flat = npa.zeros((n * n,), dtype=x.dtype)
    start = k if k >= 0 else -k * n
    mutation.write(flat, npa.arange(size_of(x, 0)) * (n + 1) + start, x)
    return _shaped(flat, (n, n))


@public("np.trace", "Tensor.trace")
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if out is not None:
        raise NotImplementedError("np.trace(..., out=) is not staged")
    return npa.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


# -- products ----------------------------------------------------------------------------------
@public("np.cross")
def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's products in NumPy's order (numpy/_core/numeric.py), vectors along the last
    axis after ``moveaxis``; 2-vectors warn as NumPy's (once per trace, not per call)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    if x.ndim < 1 or y.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    x = moveaxis(x, normalize_axis_index(static_int(axisa, "np.cross's axisa"), x.ndim,
                                         msg_prefix="axisa"), -1)
    y = moveaxis(y, normalize_axis_index(static_int(axisb, "np.cross's axisb"), y.ndim,
                                         msg_prefix="axisb"), -1)
    na, nb = x.shape[-1], y.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 "
                         "or 3)" if None not in (na, nb) else "np.cross: the vectors' length "
                         "must be known while tracing (2 or 3)")
    if 2 in (na, nb):
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    dt = np.promote_types(x.dtype, y.dtype)
    x, y = npa.cast(x, dt), npa.cast(y, dt)
    a0, a1, b0, b1 = x[..., 0], x[..., 1], y[..., 0], y[..., 1]
    if na == nb == 2:
        return a0 * b1 - a1 * b0
    if na == 2:
        b2 = y[..., 2]
        parts = (a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0)
    elif nb == 2:
        a2 = x[..., 2]
        parts = (-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0)
    else:
        a2, b2 = x[..., 2], y[..., 2]
        parts = (a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0)
    cp = npa.stack(list(parts), axis=-1)
    return moveaxis(cp, -1, normalize_axis_index(static_int(axisc, "np.cross's axisc"),
                                                 cp.ndim, msg_prefix="axisc"))


@public("np.inner")
def inner(a, b):
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if x.ndim != 1 or y.ndim != 1:  # (the sum over both last axes, every other kept)
        npa.check_aligned(x.shape, y.shape if y.ndim == 1 else
                          y.shape[:-2] + (y.shape[-1], y.shape[-2]))  # (NumPy's: y.mT)
        return PUBLIC["np.tensordot"].impl(x, y, axes=([-1], [-1]))
    _same_length(x, y, "shapes {} and {} not aligned: {} (dim 0) != {} (dim 0)")
    return npa.dot(x, y)


def _same_length(x, y, message):
    n, m = size_of(x, 0), size_of(y, 0)
    if isinstance(n, int) and isinstance(m, int):
        if n != m:
            raise ValueError(message.format((n,), (m,), n, m))
    else:
        apply("assert", n == m, message=message.format("(?,)", "(?,)", "?", "?"),
              error="ValueError")


@public("np.vdot")
def vdot(a, b):
    x, y = npa.ravel(convert_to_tensor(a)), npa.ravel(convert_to_tensor(b))
    _same_length(x, y, "cannot reshape array of size {3} into shape {0}")
    if x.dtype.kind == "c":
        x = apply("conjugate", x)
    return npa.dot(x, y)


def _ones_before(x, ndim):
    while x.ndim < ndim:
        x = npa.expand_dims(x, 0)
    return x


@public("np.kron")
def kron(a, b):
    """NumPy's steps (numpy/lib/_shape_base_impl.py): both to one rank (1s in front), ``a``
    with a 1 after each axis, ``b`` with one before, their product reshaped to the sizes'
    products."""
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    nd = builtins.max(x.ndim, y.ndim)
    x, y = _ones_before(x, nd), _ones_before(y, nd)
    for ax in builtins.range(nd):
        x = npa.expand_dims(x, 2 * ax + 1)
        y = npa.expand_dims(y, 2 * ax)
    return _shaped(x * y, [size_of(x, 2 * ax) * size_of(y, 2 * ax + 1)
                           for ax in builtins.range(nd)])
