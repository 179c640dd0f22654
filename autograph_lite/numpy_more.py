"""More of NumPy's functions on tensors, each composed from staged ops in NumPy's own steps
(numpy/_core, numpy/lib sources), so dtypes, values and errors agree; as
numpy_composites.py, none is an op of its own except the running extremes
(``cummax``/``cummin`` in ops/reduce.py, lowered like cumsum).

- ufunc methods and multi-output ufuncs: ``np.add/multiply/maximum/minimum.accumulate``,
  ``np.divmod``, ``np.modf``; ``np.fix``, ``np.angle``;
- sets: ``np.union1d``, ``np.intersect1d``, ``np.setdiff1d``;
- pieces and selections: ``np.ediff1d``, ``np.split``, ``np.array_split``, ``np.hsplit``,
  ``np.vsplit``, ``np.compress``, ``np.extract``, ``np.delete``;
- products and matrices: ``np.correlate``, ``np.tensordot``, ``np.vander``, ``np.diagflat``;
- indices and reordering: ``np.ravel_multi_index``, ``np.broadcast_arrays``, ``np.lexsort``,
  ``np.choose``, ``np.trim_zeros``, ``np.resize``.

Sizes may be known only at run time wherever NumPy's result size follows from the inputs'
(a set, a selection); counts that fix a result's shape (sections, ``N``) are Python ints.
"""
import builtins

import numpy as np

from . import dtypes, errors, mutation
from . import numpy_api as npa
from .numpy_composites import convolve, one_axis, static_int, unique
from .numpy_matrices import diag
from .numpy_selection import isin, nonzero, take
from .ops.dispatch import apply, convert_to_tensor, size_of
from .ops.registry import public
from .tensor import SymbolicTensor, Tensor


def _min(a, b):
    return builtins.min(a, b) if isinstance(a, int) and isinstance(b, int) else np.minimum(a, b)


# -- ufunc methods ------------------------------------------------------------------------------
def _accumulate(op, ufunc, array, axis, dtype, out):
    """``ufunc.accumulate``: NumPy computes in the result dtype (the input's, or ``dtype``);
    cumsum/cumprod compute wider and are cast back, which wraps integers alike (and gives
    bool's or/and)."""
    name = f"np.{ufunc.__name__}.accumulate"
    if out is not None:
        raise NotImplementedError(f"{name}(..., out=) is not staged")
    x = convert_to_tensor(array)
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if axis is None or isinstance(axis, (tuple, list)):
        raise ValueError("accumulate does not allow multiple axes")
    ax = one_axis(static_int(axis, f"{name}'s axis"), x.ndim)
    dt = dtypes.as_dtype(dtype) if dtype is not None else ufunc.accumulate(
        np.ones(1, x.dtype)).dtype
    if dtype is not None:
        x = npa.cast(x, dt)
    return npa.cast(apply(op, x, axis=ax), dt)


@public("np.add.accumulate")
def add_accumulate(array, axis=0, dtype=None, out=None):
    return _accumulate("cumsum", np.add, array, axis, dtype, out)


@public("np.multiply.accumulate")
def multiply_accumulate(array, axis=0, dtype=None, out=None):
    return _accumulate("cumprod", np.multiply, array, axis, dtype, out)


@public("np.maximum.accumulate")
def maximum_accumulate(array, axis=0, dtype=None, out=None):
    return _accumulate("cummax", np.maximum, array, axis, dtype, out)


@public("np.minimum.accumulate")
def minimum_accumulate(array, axis=0, dtype=None, out=None):
    return _accumulate("cummin", np.minimum, array, axis, dtype, out)


def _no_out(name, out):
    if out is not None and out != (None, None):
        raise NotImplementedError(f"{name}(..., out=) is not staged")


@public("np.divmod")
def divmod_(x1, x2, out=None, **kwargs):
    """(floor_divide, remainder): NumPy's divmod loop computes the same pair."""
    _no_out("np.divmod", out)
    return np.floor_divide(x1, x2, **kwargs), np.remainder(x1, x2, **kwargs)


@public("np.modf")
def modf(x, out=None):
    """(fractional, integral) parts, each with x's sign (C's modf: ±0 fraction of an
    infinity, NaN for NaN)."""
    _no_out("np.modf", out)
    t = convert_to_tensor(x)
    t = npa.cast(t, np.modf(np.ones(1, t.dtype))[0].dtype)
    whole = np.trunc(t)
    frac = np.copysign(t - whole, t)
    return npa.where(np.isinf(t), np.copysign(npa.zeros_like(t), t), frac), whole


@public("np.fix")
def fix(x, out=None):
    """NumPy's: ceil, then floor where x >= 0."""
    if out is not None:
        raise NotImplementedError("np.fix(..., out=) is not staged")
    t = convert_to_tensor(x)
    return npa.where(t >= 0, np.floor(t), np.ceil(t))


@public("np.angle")
def angle(z, deg=False):
    t = convert_to_tensor(z)
    if t.dtype.kind == "c":
        a = np.arctan2(np.imag(t), np.real(t))
    else:
        a = np.arctan2(0, t)
    return a * (180 / np.pi) if deg else a


# -- sets (numpy/lib/_arraysetops_impl.py's steps) --------------------------------------------
@public("np.union1d")
def union1d(ar1, ar2):
    return unique(npa.concatenate([npa.ravel(convert_to_tensor(ar1)),
                                   npa.ravel(convert_to_tensor(ar2))]))


@public("np.intersect1d")
def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    if return_indices:
        raise NotImplementedError("np.intersect1d(..., return_indices=True) is not staged")
    a, b = (npa.ravel(convert_to_tensor(t)) for t in (ar1, ar2))
    if not assume_unique:
        a, b = unique(a), unique(b)
    aux = npa.sort(npa.concatenate([a, b]))
    return aux[:-1][aux[1:] == aux[:-1]]


@public("np.setdiff1d")
def setdiff1d(ar1, ar2, assume_unique=False):
    a = npa.ravel(convert_to_tensor(ar1)) if assume_unique else unique(ar1)
    b = unique(ar2)
    return a[isin(a, b, assume_unique=True, invert=True)]


# -- pieces and selections ----------------------------------------------------------------------
@public("np.ediff1d")
def ediff1d(ary, to_end=None, to_begin=None):
    x = npa.ravel(convert_to_tensor(ary))
    parts = [x[1:] - x[:-1]]
    for extra, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            continue
        e = convert_to_tensor(extra)
        if not np.can_cast(e.dtype, x.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under "
                            f"the `same_kind` rule.")
        e = npa.ravel(npa.cast(e, x.dtype))
        parts = [e] + parts if name == "to_begin" else parts + [e]
    return parts[0] if len(parts) == 1 else npa.concatenate(parts)


def _pieces(x, bounds, ax):
    """Slices of ``x`` between consecutive ``bounds`` along ``ax`` (views, as NumPy's)."""
    return [x[(slice(None),) * ax + (slice(lo, hi),)] for lo, hi in zip(bounds, bounds[1:])]


def _split(name, x, sections, ax, equal):
    n = size_of(x, ax)
    if isinstance(sections, (int, np.integer)) and not isinstance(sections, (bool, np.bool_)):
        k = int(sections)
        if k <= 0:
            raise errors.numpy_error(ValueError("number sections must be larger than 0."))
        if equal:
            npa.check_equal_division(n, k)
        each, extra = (n // k, n % k)
        bounds = [i * each + _min(i, extra) for i in builtins.range(k + 1)]
        return _pieces(x, bounds, ax)
    if isinstance(sections, Tensor):
        raise TypeError(f"{name}'s indices must be Python ints (a list), not a tensor; use "
                        f"ag.py_func for split points known only at run time")
    cuts = [static_int(i, f"{name}'s indices") for i in sections]
    return _pieces(x, [0] + cuts + [None], ax)


@public("np.split")
def split(ary, indices_or_sections, axis=0):
    """A number of equal parts (the ``split`` op), or the Python ints to cut at (slices
    between them, as NumPy: past the end an empty part, negative from the end)."""
    x = convert_to_tensor(ary)
    sections = indices_or_sections
    if isinstance(sections, (int, np.integer)) and not isinstance(sections, (bool, np.bool_)):
        if sections == 0:
            raise errors.numpy_error(ZeroDivisionError("integer modulo by zero"))
        if sections < 0:
            raise errors.numpy_error(ValueError("number sections must be larger than 0."))
        npa.check_equal_division(size_of(x, one_axis(axis, x.ndim)), int(sections))
        return list(apply("split", x, sections=int(sections), axis=int(axis)))
    return _split("np.split", x, sections, one_axis(axis, x.ndim), True)


@public("np.array_split")
def array_split(ary, indices_or_sections, axis=0):
    x = convert_to_tensor(ary)
    return _split("np.array_split", x, indices_or_sections, one_axis(axis, x.ndim), False)


@public("np.hsplit")
def hsplit(ary, indices_or_sections):
    x = convert_to_tensor(ary)
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split("np.hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, True)


@public("np.vsplit")
def vsplit(ary, indices_or_sections):
    x = convert_to_tensor(ary)
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split("np.vsplit", x, indices_or_sections, 0, True)


@public("np.compress", "Tensor.compress")
def compress(condition, a, axis=None, out=None):
    """``a.take(nonzero(condition)[0], axis)``: a condition shorter than the axis selects
    from its start; a True beyond the axis is NumPy's out-of-bounds IndexError."""
    if out is not None:
        raise NotImplementedError("np.compress(..., out=) is not staged")
    c = convert_to_tensor(condition)
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, nonzero(c)[0], axis=axis)


@public("np.extract")
def extract(condition, arr):
    return take(npa.ravel(convert_to_tensor(arr)), nonzero(npa.ravel(
        convert_to_tensor(condition)))[0])


@public("np.delete")
def delete(arr, obj, axis=None):
    """The elements (or slices along ``axis``) that ``obj`` does not name: a keep-mask,
    False at ``obj`` (ints, negative from the end, bounds-checked as NumPy's; a slice; or
    a boolean mask of the axis's length)."""
    x = convert_to_tensor(arr)
    if axis is None:
        x, ax = npa.ravel(x), 0
    else:
        ax = one_axis(static_int(axis, "np.delete's axis"), x.ndim)
    n = size_of(x, ax)
    index = obj if isinstance(obj, slice) else convert_to_tensor(obj)
    if isinstance(index, Tensor) and index.dtype == dtypes.bool_:
        text = ("boolean array argument obj to delete must be one dimensional and match "
                "the axis length of {}")
        m = size_of(index, 0) if index.ndim == 1 else None
        if index.ndim != 1 or (isinstance(m, int) and isinstance(n, int) and m != n):
            raise ValueError(text.format(n if isinstance(n, int) else "the array"))
        if not (isinstance(m, int) and isinstance(n, int)):
            apply("assert", m == n, error="ValueError",
                  message=text.format("the array (sizes known at run time)"))
        keep = ~index
    else:
        if isinstance(index, Tensor) and index.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if isinstance(x, SymbolicTensor) or isinstance(index, SymbolicTensor):
            keep = mutation.write(npa.ones((n,), dtype=bool), index, False)
        else:  # eager values: NumPy's own mask (mutation.write records traced writes)
            keep = np.ones(n, dtype=bool)
            keep[index if isinstance(index, slice) else np.asarray(index)] = False
    return x[(slice(None),) * ax + (keep,)]


# -- products and matrices ---------------------------------------------------------------------
@public("np.correlate")
def correlate(a, v, mode="valid"):
    """NumPy's correlation as the full convolution of ``a`` with ``v`` reversed and
    conjugated, cut where NumPy's modes cut it (checked against np.correlate for every
    pair of lengths in the tests)."""
    x, w = convert_to_tensor(a), convert_to_tensor(v)
    if w.ndim == 1 and w.dtype.kind == "c":
        w = np.conjugate(w)
    full = convolve(x, w[::-1] if w.ndim == 1 else w, mode="full")
    if mode == "full":
        return full
    na, nv = size_of(x, 0), size_of(w, 0)
    static = isinstance(na, int) and isinstance(nv, int)
    if mode == "valid":
        start = _min(na, nv) - 1
        size = builtins.abs(na - nv) + 1 if static else np.abs(na - nv) + 1
    elif mode == "same":
        size = builtins.max(na, nv) if static else np.maximum(na, nv)
        start = ((nv - 1) // 2 if nv <= na else na // 2) if static else \
            npa.where(nv <= na, (nv - 1) // 2, na // 2)
    else:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return full[start:start + size]


@public("np.tensordot")
def tensordot(a, b, axes=2):
    """NumPy's: the summed axes moved to the end of ``a`` and the front of ``b``, both
    reshaped to matrices, one matrix product, reshaped to the kept axes."""
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    if isinstance(axes, (int, np.integer)):
        k = int(axes)
        axes_a, axes_b = list(builtins.range(x.ndim - k, x.ndim)), list(builtins.range(k))
    else:
        axes_a, axes_b = ([static_int(i, "np.tensordot's axes") for i in
                           (ax if isinstance(ax, (tuple, list)) else [ax])] for ax in axes)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [one_axis(i, x.ndim) for i in axes_a]
    axes_b = [one_axis(i, y.ndim) for i in axes_b]
    for i, j in zip(axes_a, axes_b):
        if isinstance(x.shape[i], int) and isinstance(y.shape[j], int) and \
                x.shape[i] != y.shape[j]:
            raise ValueError("shape-mismatch for sum")
    keep_a = [i for i in builtins.range(x.ndim) if i not in axes_a]
    keep_b = [j for j in builtins.range(y.ndim) if j not in axes_b]
    # (explicit sizes, as NumPy's tensordot: a -1 next to a zero-size sum is ambiguous)
    m = npa.reshape(npa.transpose(x, keep_a + axes_a), (npa.size_product(x, keep_a), npa.size_product(x, axes_a)))
    n = npa.reshape(npa.transpose(y, axes_b + keep_b), (npa.size_product(y, axes_b), npa.size_product(y, keep_b)))
    out = npa.dot(m, n)
    return npa.reshape(out, tuple(size_of(x, i) for i in keep_a) +
                       tuple(size_of(y, j) for j in keep_b))


@public("np.vander")
def vander(x, N=None, increasing=False):
    """NumPy's: a column of ones, then running products of x (multiply.accumulate, so the
    powers round as NumPy's do), in promote_types(x.dtype, int)."""
    v = convert_to_tensor(x)
    if v.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = size_of(v, 0) if N is None else static_int(N, "np.vander's N")
    if not isinstance(n, int):
        raise TypeError("np.vander needs N (a Python int) when x's length is known only at "
                        "run time")
    v = npa.cast(v, np.promote_types(v.dtype, int))
    cols = [npa.ones_like(v)[:, None]][:n]
    if n > 1:
        reps = npa.reshape(v, (-1, 1)) * npa.ones((1, n - 1), dtype=v.dtype)
        cols.append(multiply_accumulate(reps, axis=1))
    out = npa.concatenate(cols, axis=1) if cols else npa.zeros((size_of(v, 0), 0), v.dtype)
    return out if increasing else out[:, ::-1]


@public("np.diagflat")
def diagflat(v, k=0):
    return diag(npa.ravel(convert_to_tensor(v)), k)


# -- indices, broadcasting, reordering ---------------------------------------------------------
def _dims(shape, what):
    if isinstance(shape, Tensor) or (isinstance(shape, (tuple, list)) and builtins.any(
            isinstance(s, Tensor) for s in shape)):
        raise TypeError(f"{what} must be known while tracing (Python ints); use ag.py_func "
                        f"for a shape known only at run time")
    return [static_int(s, what) for s in (shape if isinstance(shape, (tuple, list))
                                          else (shape,))]


def _index_mode(i, n, mode, message):
    """An index array under NumPy's ``mode``: 'raise' checks 0 <= i < n (ValueError with
    ``message``, at run time), 'wrap' takes it modulo n, 'clip' clips it into range."""
    if mode == "raise":
        apply("assert", npa.all((i >= 0) & (i < n)), error="ValueError", message=message)
        return i
    if mode == "wrap":
        return np.mod(i, n)
    if mode == "clip":
        return np.clip(i, 0, n - 1)
    raise ValueError(f"clipmode not understood: {mode!r}")


@public("np.ravel_multi_index")
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    sizes = _dims(dims, "np.ravel_multi_index's dims")
    if len(multi_index) != len(sizes):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(sizes)}")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    modes = mode if isinstance(mode, (tuple, list)) else [mode] * len(sizes)
    strides = [int(np.prod(sizes[k + 1:] if order == "C" else sizes[:k], dtype=np.int64))
               for k in builtins.range(len(sizes))]
    out = 0
    for i, n, m, s in zip(multi_index, sizes, modes, strides):
        t = convert_to_tensor(i)
        if t.dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
        t = _index_mode(npa.cast(t, np.int64), n, m, "invalid entry in coordinates array")
        out = out + t * s
    return out


@public("np.broadcast_arrays")
def broadcast_arrays(*args, subok=False):
    """Read-only broadcast views of each argument (NumPy 2 still lets one write through
    them with a DeprecationWarning, into memory the elements share: refused here, as a
    write through ``np.broadcast_to``'s view is)."""
    from .numpy_composites import broadcast_to
    xs = [convert_to_tensor(a) for a in args]
    if not xs:
        return ()
    common = npa.zeros_like(xs[0], dtype=bool)
    for x in xs[1:]:
        common = common | npa.zeros_like(x, dtype=bool)
    shape = tuple(size_of(common, k) for k in builtins.range(common.ndim))
    return tuple(broadcast_to(x, shape) for x in xs)


@public("np.lexsort")
def lexsort(keys, axis=-1):
    """Stable sorts from the least significant key (the first) to the primary (the last)."""
    ks = [convert_to_tensor(k) for k in keys] if isinstance(keys, (tuple, list)) else \
        [t for t in convert_to_tensor(keys)]
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if builtins.any(k.ndim != 1 for k in ks) or axis not in (-1, 0):
        raise NotImplementedError("np.lexsort of keys that are not 1-D is not staged")
    order = npa.argsort(ks[0], kind="stable")
    for k in ks[1:]:
        order = order[npa.argsort(k[order], kind="stable")]
    return order


@public("np.choose", "Tensor.choose")
def choose(a, choices, out=None, mode="raise"):
    """``choices[a[i]][i]`` over the broadcast of ``a`` and every choice, in the choices'
    common dtype (Python numbers weak, as NumPy 2 promotes them)."""
    if out is not None:
        raise NotImplementedError("np.choose(..., out=) is not staged")
    idx = convert_to_tensor(a)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"Cannot cast array data from dtype('{idx.dtype}') to "
                        f"dtype('int64') according to the rule 'safe'")
    cs = list(choices) if isinstance(choices, (tuple, list)) else list(
        convert_to_tensor(choices))
    dt = np.result_type(*[c if type(c) in (bool, int, float, complex) else c.dtype
                          if isinstance(c, (Tensor, np.ndarray, np.generic))
                          else np.asarray(c).dtype for c in cs])  # (Python numbers: weak)
    cs = [npa.cast(convert_to_tensor(c), dt) for c in cs]
    idx = _index_mode(npa.cast(idx, np.int64), len(cs), mode, "invalid entry in choice array")
    res = cs[-1] + npa.zeros_like(idx, dtype=dt)  # (the broadcast of all, in dt)
    for k in builtins.range(len(cs) - 2, -1, -1):
        res = npa.where(idx == k, cs[k], res)
    return npa.cast(res, dt)


@public("np.trim_zeros")
def trim_zeros(filt, trim="fb", axis=None):
    x = convert_to_tensor(filt)
    if x.ndim != 1 or axis not in (None, 0, -1):
        raise NotImplementedError("np.trim_zeros of arrays that are not 1-D is not staged")
    trim = trim.lower()
    if builtins.any(c not in "fb" for c in trim):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    n = size_of(x, 0)
    nz, end = x != 0, npa.ones((1,), dtype=bool)  # (a True past the end: argmax of none)
    first = npa.argmax(npa.concatenate([nz, end]))           # n when all are zero
    last = n - npa.argmax(npa.concatenate([nz[::-1], end]))  # 0 when all are zero
    start = first if "f" in trim else 0
    stop = last if "b" in trim else n
    stop = np.maximum(stop, start) if "b" in trim and "f" in trim else stop
    return x[start:stop]


@public("np.resize")
def resize(a, new_shape):
    """The flattened array repeated (or cut) to the new size; zeros when either is empty."""
    shape = _dims(new_shape, "np.resize's new_shape")
    if builtins.any(s < 0 for s in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    x = npa.ravel(convert_to_tensor(a))
    size, n = int(np.prod(shape, dtype=np.int64)), size_of(x, 0)
    if size == 0 or (isinstance(n, int) and n == 0):
        return npa.zeros(tuple(shape), dtype=x.dtype)
    padded = npa.concatenate([x, npa.zeros((1,), dtype=x.dtype)])  # (the zero for n == 0)
    idx = npa.where(n == 0, n, np.mod(npa.arange(size), np.maximum(n, 1)))
    return npa.reshape(padded[idx], tuple(shape))
