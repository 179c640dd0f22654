"""NumPy functions built from the op table's ops, as jax.numpy builds them from lax.

Each one computes exactly what NumPy computes (same dtype, same values, same view or
copy), from ops that every backend lowers and that fuse where elementwise; none is an op
of its own. Most reorder elements with one gather along an axis (``_take``) whose
indices come from ``arange``, so they work for sizes known only at run time: ``roll``,
``tile``, ``repeat``, ``pad`` (its modes are index maps), ``meshgrid``. Arguments that
must be static (a shift, a repeat count, pad widths) are Python ints; a tensor there is
refused naming it. Each claims its public names with ``@public`` (ops/registry.py), from
which front_door.py makes NumPy's protocol tables and the Tensor methods.
"""
import builtins

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from . import control, dtypes, mutation
from . import numpy_api as npa
from .errors import numpy_error_at_user
from .ops import indexing, linalg
from .ops.dispatch import apply, convert_to_tensor, message_parts, size_of
from .ops.reduce import norm_axis
from .ops.registry import expose, public
from .python_numbers import check
from .tensor import EagerTensor, SymbolicTensor, Tensor


def static_int(v, what):
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return int(v)
    raise TypeError(f"{what} must be a Python int when the array is a tensor, got "
                    f"{type(v).__name__}; use ag.py_func for a value known only at run time")


def _ints(v, what):
    return tuple(static_int(x, what) for x in (v if isinstance(v, (tuple, list)) else (v,)))


def _max(n, k):
    return builtins.max(n, k) if isinstance(n, int) and isinstance(k, int) else np.maximum(n, k)


def _in(n, dtype):
    """Size ``n`` as a divisor that keeps ``dtype`` (a run-time size is a strong int64)."""
    return n if isinstance(n, int) else npa.cast(n, dtype)


def _take(x, index, axis):
    """``x`` gathered along ``axis`` at the int tensor ``index`` (1-D): a copy."""
    return x[(slice(None),) * axis + (index,)]


def one_axis(axis, ndim):
    return norm_axis(axis, ndim)[0] if ndim else 0


def _along(v, axis, ndim):
    """1-D ``v`` shaped to broadcast along ``axis`` of an ``ndim``-array."""
    return npa.reshape(v, tuple(-1 if k == axis else 1 for k in builtins.range(ndim)))


# -- reordering along an axis ------------------------------------------------------------------
@public("np.roll")
def roll(a, shift, axis=None):
    x = convert_to_tensor(a)
    if axis is None:
        return apply("reshape_as", roll(npa.ravel(x), shift, 0), x)
    # (a shift may be a 0-d integer tensor, not a uint64, whose difference with the int64
    # positions below would be a float: the gathered positions take it as is)
    shifts = tuple(s if isinstance(s, SymbolicTensor) and s.ndim == 0 and (
        s.dtype.kind == "i" or s.dtype.kind == "u" and s.dtype.itemsize < 8)
                   else static_int(s, "np.roll's shift")
                   for s in (shift if isinstance(shift, (tuple, list)) else (shift,)))
    axes = _ints(axis, "np.roll's axis")
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    for s, ax in zip(shifts, axes):
        ax = one_axis(ax, x.ndim)
        n = size_of(x, ax)
        x = _take(x, (npa.arange(n) - s) % _max(n, 1), ax)
    return x


@public("np.tile")
def tile(A, reps):
    x = convert_to_tensor(A)
    reps = _counts_of(reps, "np.tile's reps")
    while x.ndim < len(reps):
        x = npa.expand_dims(x, 0)
    reps = (1,) * (x.ndim - len(reps)) + reps
    out = npa.copy(x)  # (a copy even when every rep is 1)
    for ax, r in enumerate(reps):
        if not isinstance(r, int) or r != 1:
            n = size_of(out, ax)
            out = _take(out, npa.arange(n * _non_negative(r)) % _max(n, 1), ax)
    return out


def _counts_of(reps, what):
    """np.tile's reps: Python ints, 0-d integer tensors, or a 1-d integer tensor of a size
    known while tracing (its elements)."""
    if isinstance(reps, Tensor) and reps.ndim == 1 and reps.shape[0] is not None:
        reps = [reps[k] for k in builtins.range(reps.shape[0])]
    return tuple(_rep(r, what) for r in (reps if isinstance(reps, (tuple, list))
                                           else (reps,)))


def _rep(v, what):
    """A repeat count: a Python int, or a 0-d tensor of integers that cast safely to int64
    (bools too), as NumPy's ``intp`` under the 'safe' rule."""
    if not isinstance(v, Tensor):
        return static_int(v, what)
    _safe_counts(v)
    if v.ndim:
        raise TypeError(f"{what} must be Python ints or 0-d integer tensors, got a tensor "
                        f"of shape {v.shape}")
    return npa.cast(v, np.int64)


def _safe_counts(v):
    if v.dtype.kind not in "biu" or v.dtype == np.uint64:
        raise numpy_error_at_user(TypeError(f"Cannot cast array data from {v.dtype!r} to "
                                            f"dtype('int64') according to the rule 'safe'"))


def _non_negative(r, message="negative dimensions are not allowed"):
    """Count ``r`` after NumPy's check that it is not negative (a staged check for a
    tensor)."""
    if isinstance(r, int):
        if r < 0:
            raise numpy_error_at_user(ValueError(message))
        return r
    apply("assert", npa.all(r >= 0), message=message, error="ValueError")
    return r


@public("np.repeat", "Tensor.repeat")
def repeat(a, repeats, axis=None):
    """Each element ``repeats`` times along ``axis``: one gather. A count per element (a
    1-d array, of the axis' size or of size 1) gathers at the positions where the running
    total of the counts passes each output index (``searchsorted``), so counts known only
    at run time work too."""
    x = convert_to_tensor(a)
    if axis is None:
        x, axis = npa.ravel(x), 0
    ax = one_axis(axis, x.ndim)
    n = size_of(x, ax)
    if isinstance(repeats, (bool, np.bool_)):
        repeats = int(repeats)
    if isinstance(repeats, (Tensor, np.ndarray, list, tuple)):
        counts = convert_to_tensor(repeats)
        _safe_counts(counts)
        if counts.ndim > 1:
            raise numpy_error_at_user(ValueError("object too deep for desired array"))
        counts = npa.cast(counts, np.int64)
        if counts.ndim == 0 or counts.shape[0] == 1:
            repeats = counts if counts.ndim == 0 else counts[0]
        else:
            return _take(x, _repeated_positions(counts, n), ax)
    r = _non_negative(static_int(repeats, "np.repeat's repeats")
                      if not isinstance(repeats, Tensor) else repeats)
    return _take(x, npa.arange(n * r) // _max(r, 1), ax)


def _repeated_positions(counts, n):
    """``np.repeat(np.arange(n), counts)`` for int64 ``counts`` of size ``n`` (or 1, known
    only at run time), after NumPy's checks."""
    m = size_of(counts, 0)
    text = "operands could not be broadcast together with shape ({},) ({},)"
    if isinstance(n, int) and isinstance(m, int):
        if n != m:
            raise numpy_error_at_user(ValueError(text.format(n, m)))
    else:
        apply("assert", (m == n) | (m == 1), n, m, error="ValueError",
              message=text.format("?", "?"), parts=message_parts(text))
        counts = counts[npa.arange(n) % _max(m, 1)]  # (size 1: every element its count)
    _non_negative(counts, "repeats may not contain negative values.")
    return npa.searchsorted(npa.cumsum(counts), npa.arange(npa.sum(counts)), side="right")


@public("np.flip")
def flip(m, axis=None):
    x = convert_to_tensor(m)
    axes = builtins.range(x.ndim) if axis is None else [one_axis(a, x.ndim) for a in
                                                        _ints(axis, "np.flip's axis")]
    index = [slice(None)] * x.ndim
    for ax in axes:
        index[ax] = slice(None, None, -1)
    return x[tuple(index)]  # (a view, as NumPy's)


@public("np.fliplr")
def fliplr(m):
    return flip(m, 1)


@public("np.flipud")
def flipud(m):
    return flip(m, 0)


_PAD_MODES = ("constant", "edge", "wrap", "reflect", "symmetric")


def _pad_widths(pad_width, ndim):
    w = np.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    w = np.broadcast_to(w, (ndim, 2))
    if (w < 0).any():
        raise ValueError("index can't contain negative values")
    return [(int(b), int(e)) for b, e in w]


@public("np.pad")
def pad(array, pad_width, mode="constant", constant_values=0):
    x = convert_to_tensor(array)
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"np.pad mode {mode!r} is not staged; staged modes: "
                                  f"{', '.join(_PAD_MODES)}")
    if mode == "constant" and not isinstance(constant_values, (int, float, bool, np.generic)):
        raise NotImplementedError("np.pad: constant_values other than one number are not "
                                  "staged")
    for ax, (before, after) in enumerate(_pad_widths(pad_width, x.ndim)):
        if before == after == 0:
            continue
        n = size_of(x, ax)
        if mode == "constant":  # (the fill's blocks joined: an empty axis too)
            fill = np.asarray(constant_values).astype(x.dtype)[()]  # (NumPy casts it)
            sizes = [size_of(x, k) for k in builtins.range(x.ndim)]
            blocks = [npa.full(tuple(sizes[:ax]) + (w,) + tuple(sizes[ax + 1:]), fill,
                               x.dtype) for w in (before, after)]
            x = npa.concatenate([blocks[0], x, blocks[1]], axis=ax)
            continue
        text = (f"can't extend empty axis {ax} using modes other than 'constant' or "
                f"'empty'")
        if isinstance(n, int) and n == 0:
            raise numpy_error_at_user(ValueError(text))
        if not isinstance(n, int):
            apply("assert", n > 0, message=text, error="ValueError")
        idx = npa.arange(-before, n + after)
        if mode == "edge":
            j = npa.clip(idx, 0, n - 1)
        elif mode == "wrap":
            j = idx % n
        elif mode == "reflect":
            period = _max(2 * (n - 1), 1)
            k = idx % period
            j = npa.where(k < n, k, period - k)
        else:  # symmetric
            k = idx % (2 * n)
            j = npa.where(k < n, k, 2 * n - 1 - k)
        x = _take(x, j, ax)
    return x if x is not array else npa.copy(x)


@public("np.meshgrid")
def meshgrid(*xi, indexing="xy", copy=True, sparse=False):
    if sparse or not copy:
        raise NotImplementedError("np.meshgrid: sparse=True and copy=False are not staged")
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    vs = [npa.ravel(convert_to_tensor(v)) for v in xi]
    if indexing == "xy" and len(vs) >= 2:
        order = [1, 0] + list(builtins.range(2, len(vs)))
    else:
        order = list(builtins.range(len(vs)))
    sizes = [size_of(v, 0) for v in vs]
    shape = [sizes[k] for k in order]  # the output's axes: which input each one runs over
    out = []
    for i, v in enumerate(vs):
        g = npa.reshape(v, tuple(-1 if order[ax] == i else 1 for ax in builtins.range(len(vs))))
        for ax in builtins.range(len(vs)):
            if order[ax] != i:
                g = _take(g, npa.zeros((shape[ax],), dtype=np.int64), ax)
        out.append(g)
    return tuple(out)


# -- arithmetic ---------------------------------------------------------------------------------
@public("np.diff")
def diff(a, n=1, axis=-1, prepend=None, append=None):
    x = convert_to_tensor(a)
    n = static_int(n, "np.diff's n")
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = one_axis(axis, x.ndim)
    parts = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
            continue
        e = convert_to_tensor(extra)
        if e.ndim == 0:  # broadcast to x's shape with size 1 along the axis, in its own
            # dtype (NumPy's np.asanyarray of it: a Python float is float64, not weak;
            # `np.diff(ints, prepend=np.nan)` is float64, was nan cast to int64)
            if e.type.weak:
                e = npa.cast(e, e.dtype)
            e = npa.full_like(x[(slice(None),) * ax + (slice(0, 1),)], e, dtype=e.dtype)
        parts.append(e)
    if parts[0] is not None or parts[1] is not None:
        x = npa.concatenate([p for p in (parts[0], x, parts[1]) if p is not None], axis=ax)
    lo, hi = [slice(None)] * x.ndim, [slice(None)] * x.ndim
    lo[ax], hi[ax] = slice(None, -1), slice(1, None)
    for _ in builtins.range(n):
        x = x[tuple(hi)] != x[tuple(lo)] if x.dtype == dtypes.bool_ else \
            x[tuple(hi)] - x[tuple(lo)]
    return x


@public("np.outer")
def outer(a, b, out=None):
    if out is not None:
        raise NotImplementedError("np.outer(..., out=) is not staged")
    return npa.ravel(a)[:, None] * npa.ravel(b)[None, :]


@public("np.round", "np.around", "Tensor.round")
def around(a, decimals=0, out=None):
    if out is not None:
        raise NotImplementedError("np.round(..., out=) is not staged")
    x = convert_to_tensor(a)
    d = static_int(decimals, "np.round's decimals")
    if x.dtype.kind in "iub":
        if d >= 0:
            return npa.copy(x)
        if x.dtype.kind == "b":
            np.round(np.zeros(1, bool), d)  # (NumPy's own UFuncTypeError: no bool result)
        # NumPy's: divided by 10**-d in float64, rounded half to even, multiplied back and
        # cast to the integer dtype (so past 2**53 it rounds as the float does)
        scale = 10.0 ** -d
        return npa.astype(np.rint(x / scale) * scale, x.dtype)
    if d == 0:
        return np.rint(x)
    scale = np.asarray(10.0 ** builtins.abs(d), x.dtype)[()]  # (NumPy's: in the dtype)
    return np.rint(x * scale) / scale if d > 0 else np.rint(x / scale) * scale


@public("np.count_nonzero")
def count_nonzero(a, axis=None, *, keepdims=False):
    return npa.sum(convert_to_tensor(a) != 0, axis=axis, keepdims=keepdims)


@public("np.append")
def append(arr, values, axis=None):
    a, v = convert_to_tensor(arr), convert_to_tensor(values)
    if axis is None:
        return npa.concatenate([npa.ravel(a), npa.ravel(v)])
    return npa.concatenate([a, v], axis=axis)


@public("np.column_stack")
def column_stack(tup):
    cols = [convert_to_tensor(t) for t in tup]
    return npa.concatenate([npa.reshape(c, (-1, 1)) if c.ndim < 2 else c for c in cols],
                           axis=1)


# -- ranks and joins ---------------------------------------------------------------------------
def _atleast(a, ndim):
    """NumPy's ``atleast_<ndim>d`` of one array: the array itself when its rank is enough,
    else a view with sizes of 1 added where NumPy adds them (1-D ``(n,)``: ``(1, n)``,
    ``(1, n, 1)``; 2-D ``(m, n)``: ``(m, n, 1)``)."""
    x = convert_to_tensor(a)
    if x.ndim >= ndim:
        return x
    if x.ndim == 0:
        return npa.reshape(x, (1,) * ndim)
    if x.ndim == 1:
        x = npa.expand_dims(x, 0)
    return npa.expand_dims(x, 2) if ndim == 3 else x


def _atleast_front(ndim):
    def front(*arys):
        out = tuple(_atleast(a, ndim) for a in arys)
        return out[0] if len(out) == 1 else out
    front.__name__ = f"atleast_{ndim}d"
    return front


for _nd in (1, 2, 3):
    public(f"np.atleast_{_nd}d")(_atleast_front(_nd))


def _stack_along(tup, ndim, axis, dtype, casting):
    arrays = [_atleast(a, ndim) for a in tup]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    ax = axis(arrays[0].ndim) if callable(axis) else axis
    return npa.concatenate(arrays, axis=ax, dtype=dtype, casting=casting)


@public("np.hstack")
def hstack(tup, *, dtype=None, casting="same_kind"):
    """1-D arrays end to end, else joined along axis 1 (NumPy's rule, read off the first)."""
    return _stack_along(tup, 1, lambda nd: 0 if nd == 1 else 1, dtype, casting)


@public("np.vstack")
def vstack(tup, *, dtype=None, casting="same_kind"):
    return _stack_along(tup, 2, 0, dtype, casting)


@public("np.dstack")
def dstack(tup):
    return _stack_along(tup, 3, 2, None, "same_kind")


def _sizes(dims):
    return "(" + ", ".join("?" if d is None else str(d) for d in dims) + (",)" if len(dims) == 1
                                                                          else ")")


@public("np.broadcast_to", "ag.broadcast_to")
def broadcast_to(array, shape, subok=False):
    """NumPy's read-only view of ``array`` at ``shape``: the sizes are checked as NumPy
    checks them (a size known only at run time by a staged check), the value is a fresh
    array in the kernel, and mutation.py keeps it a view (a later write into ``array`` is
    seen through it; a write through it raises NumPy's read-only error)."""
    x = convert_to_tensor(array)
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    static = [s if isinstance(s, (int, np.integer)) else None for s in shape]
    if builtins.any(s is not None and s < 0 for s in static):
        raise ValueError("all elements of broadcast shape must be non-negative")
    if x.ndim > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis "
                         "remapping")
    fits = []
    for k in builtins.range(1, x.ndim + 1):
        have, want = x.shape[-k], static[-k]
        if have is not None and want is not None:
            if have not in (1, want):
                raise ValueError(
                    "operands could not be broadcast together with remapped shapes "
                    f"[original->remapped]: {tuple(x.shape)}  and requested shape "
                    f"{tuple(shape)}")
        elif have != 1:  # a size known only at run time on one side: checked there
            n, target = size_of(x, x.ndim - k), shape[-k]
            fits.append((n == target) | (n == 1))
    if fits:
        ok = fits[0]
        for f in fits[1:]:
            ok = ok & f
        apply("assert", ok, message="operands could not be broadcast together with "
              f"remapped shapes [original->remapped]: {_sizes(x.shape)}  and requested "
              f"shape {_sizes(static)} (? = a size known at run time)", error="ValueError")
    out = apply("broadcast_to", x, npa.zeros(shape, dtype=bool))
    return mutation.read_only_view(x, out) if isinstance(x, SymbolicTensor) else out


@public("np.unique")
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """np.unique of the flattened array, as NumPy computes it: sorted (stably, when the first
    indices are asked for), each value kept where it differs from the one before (NaNs
    equal when ``equal_nan``, so one is kept); the result's size is known at run time."""
    if not sorted:
        raise NotImplementedError("np.unique(..., sorted=False) is not staged")
    x = convert_to_tensor(ar)
    if axis is not None:
        return _unique_along(x, axis, return_index, return_inverse, return_counts)
    flat = npa.ravel(x)
    perm = npa.argsort(flat, kind="stable") if return_index or return_inverse else None
    s = flat[perm] if perm is not None else npa.sort(flat)
    n = size_of(s, 0)
    new = s[1:] != s[:-1]
    if equal_nan and s.dtype.kind in "fc":
        new = new & ~(np.isnan(s[1:]) & np.isnan(s[:-1]))
    keep = npa.concatenate([npa.ones(1, dtype=bool), new])[:n]
    return _unique_results(s[keep], perm, keep, n, return_index, return_inverse,
                           return_counts, x.shape if x.ndim != 1 else None)


def _unique_results(unique, perm, keep, n, return_index, return_inverse, return_counts,
                    inverse_shape=None):
    """np.unique's results from the ``n`` sorted entries, ``perm`` their original places
    and ``keep`` the first of each run of equal ones: the unique values, then the indices,
    inverse (in ``inverse_shape`` when given) and counts asked for."""
    out = (unique,)
    if return_index:
        out += (perm[keep],)
    if return_inverse:
        inverse = mutation.write(npa.empty(n, dtype=np.int64), perm, npa.cumsum(keep) - 1)
        out += (inverse if inverse_shape is None else npa.reshape(inverse, inverse_shape),)
    if return_counts:
        starts = npa.arange(n)[keep]
        out += (diff(npa.concatenate([starts, npa.reshape(n, (1,))])),)
    return out[0] if len(out) == 1 else out


def _unique_along(x, axis, return_index, return_inverse, return_counts):
    """np.unique(..., axis=): the slices along ``axis`` as rows, sorted lexicographically
    (stable: each column's sort from the last to the first), each row kept where it
    differs from the one before (NaNs differ: NumPy compares the rows as records), then
    shaped back. The rows' length must be known while tracing (a relaxed trace that needs
    it is traced again with the exact sizes)."""
    if isinstance(axis, (tuple, list)):
        raise TypeError("np.unique's axis must be one int")
    if x.ndim == 0:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
    ax = one_axis(axis, x.ndim)
    order = [ax] + [k for k in range(x.ndim) if k != ax]
    moved = npa.transpose(x, order)
    rest = tuple(moved.shape[1:])
    if None in rest:
        raise NotImplementedError("np.unique(..., axis=) needs the sizes of the other axes "
                                  "while tracing")
    width = int(np.prod(rest))
    n = size_of(moved, 0)
    rows = npa.reshape(moved, (n, width))
    perm = npa.arange(n)
    for c in builtins.range(width - 1, -1, -1):
        perm = perm[npa.argsort(rows[:, c][perm], kind="stable")]
    s = rows[perm]
    new = npa.any(s[1:] != s[:-1], axis=1)
    keep = npa.concatenate([npa.ones(1, dtype=bool), new])[:n]
    kept = s[keep]
    kept = npa.reshape(kept, (size_of(kept, 0),) + rest)
    unique = npa.transpose(kept, tuple(int(k) for k in np.argsort(order)))
    return _unique_results(unique, perm, keep, n, return_index, return_inverse,
                           return_counts)


@public("np.isclose")
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = convert_to_tensor(a), convert_to_tensor(b)
    dt = np.result_type(y.dtype, 1.0)  # (NumPy's: integers compared as floats)
    x, y = npa.cast(x, np.result_type(x.dtype, dt)), npa.cast(y, dt)
    close = (np.abs(x - y) <= atol + rtol * np.abs(y)) & np.isfinite(y)
    out = close | (x == y)
    return out | (np.isnan(x) & np.isnan(y)) if equal_nan else out


@public("np.allclose")
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return npa.all(isclose(a, b, rtol, atol, equal_nan))


@public("np.array_equal")
def array_equal(a1, a2, equal_nan=False):
    """NumPy's: False for different shapes (compared when the function runs where a size
    is known only then), else whether every element is equal (NaNs in the same places
    counting as equal with ``equal_nan``)."""
    x, y = convert_to_tensor(a1), convert_to_tensor(a2)

    def equal():
        same = x == y
        if equal_nan and x.dtype.kind in "fc" and y.dtype.kind in "fc":
            same = same | (np.isnan(x) & np.isnan(y))
        return npa.all(same)
    return _when_shapes(x, y, equal, lambda m, n: m == n)


@public("np.array_equiv")
def array_equiv(a1, a2):
    """NumPy's: whether the arrays broadcast together and are equal everywhere."""
    x, y = convert_to_tensor(a1), convert_to_tensor(a2)
    return _when_shapes(x, y, lambda: npa.all(x == y),
                        lambda m, n: (m == n) | (m == 1) | (n == 1), broadcast=True)


def _when_shapes(x, y, compare, dims_fit, broadcast=False):
    """``compare()`` when the shapes of ``x`` and ``y`` fit (each pair of aligned sizes
    ``dims_fit``; ranks equal unless ``broadcast``), else False: decided while tracing when
    the sizes are known, else a staged cond."""
    if x.ndim != y.ndim and not broadcast:
        return False
    fits = True
    for k in builtins.range(1, builtins.min(x.ndim, y.ndim) + 1):
        m, n = size_of(x, x.ndim - k), size_of(y, y.ndim - k)
        ok = dims_fit(m, n)
        if not isinstance(ok, (bool, np.bool_)):
            fits = ok if fits is True else fits & ok
        elif not ok:
            return False
    if fits is True:
        return compare()
    return control.cond(fits, compare, lambda: npa.zeros((), dtype=bool))


# -- elementwise functions that are not ufuncs (NumPy's own steps, so the bits agree) --------
@public("np.sinc")
def sinc(x):
    y = np.pi * npa.where(x == 0, 1.0e-20, x)
    return np.sin(y) / y


@public("np.isposinf")
def isposinf(x):
    return np.isinf(x) & ~np.signbit(x)


@public("np.isneginf")
def isneginf(x):
    return np.isinf(x) & np.signbit(x)


@public("np.nan_to_num")
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced (by 0 and the dtype's extremes unless given); integers
    and booleans come back as they are (a copy, or ``x`` itself with ``copy=False``)."""
    x = convert_to_tensor(x)
    if x.dtype.kind == "c":
        raise NotImplementedError("np.nan_to_num of a complex tensor is not staged; apply it "
                                  "to z.real and z.imag")
    if x.dtype.kind not in "f":
        return npa.copy(x) if copy else x
    info = np.finfo(x.dtype)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    out = npa.where(np.isnan(x), npa.cast(nan, x.dtype), x)
    out = npa.where(isposinf(x), npa.cast(big, x.dtype), out)
    out = npa.where(isneginf(x), npa.cast(small, x.dtype), out)
    if not copy:  # NumPy replaces in place and returns x
        npa.copyto(x, out)
        return x
    return out


_PYTHON_DTYPES = {"b": np.bool_, "i": np.int64, "u": np.int64, "f": np.float64,
                  "c": np.complex128}


def python_number(v):
    """0-d tensor ``v`` as the Python number NumPy's ``.item()``/``.tolist()`` give: the
    dtype of its Python type, promoting as a Python number does (weak: ``x32 * a.item()``
    stays float32). A uint64 past int64 (a Python int larger than any int64) is
    refused when the function runs."""
    if v.dtype == np.uint64:
        apply("assert", v <= np.uint64(2 ** 63 - 1), error="OverflowError",
              message="a uint64 value past int64 max, as a Python int, is not supported")
    return apply("as_weak", npa.cast(v, _PYTHON_DTYPES[v.dtype.kind]))


@public("Tensor.item")
def item(a, *args):
    """One element as a Python number: NumPy's from an eager tensor, while tracing a weak
    0-d tensor of the Python type's dtype (``python_number``: its value exists at run time
    only)."""
    if isinstance(a, EagerTensor):
        return a._np.item(*args)
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    if not args:
        n = size_of(npa.reshape(a, (-1,)), 0)
        if isinstance(n, int):
            if n != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
        else:
            apply("assert", n == 1, error="ValueError",
                  message="can only convert an array of size 1 to a Python scalar")
        return python_number(npa.reshape(a, (-1,))[0])
    if len(args) == 1:
        return python_number(npa.reshape(a, (-1,))[args[0]])
    if len(args) != a.ndim:
        raise ValueError("incorrect number of indices for array")
    return python_number(a[tuple(args)])


@public("Tensor.tolist")
def tolist(a):
    """``x.tolist()``: nested Python lists of Python numbers (``python_number``), one per
    element, for a shape known while tracing and at most 4,096 elements (each is a value
    of the graph); a 0-d tensor gives its number."""
    x = convert_to_tensor(a)
    if isinstance(x, EagerTensor):
        return x._np.tolist()
    if None in x.shape:
        raise TypeError("x.tolist() of a tensor whose shape is known only when the compiled "
                        "function runs cannot make a Python list; iterate the array itself "
                        "(`for v in x:` is one staged loop)")
    if int(np.prod(x.shape, dtype=np.int64)) > 4096:
        raise TypeError(f"x.tolist() of {x.shape} elements would make each a value of the "
                        f"compiled function; iterate the array itself (`for v in x:` is one "
                        f"staged loop) or index it")

    def rows(v):
        if v.ndim == 0:
            return python_number(v)
        return [rows(v[i]) for i in builtins.range(v.shape[0])]
    return rows(x)


@public("Tensor.fill")
def fill(a, value):
    """``a[...] = value``: written in place, cast as NumPy's ``fill`` casts (a number an
    integer ``a`` cannot hold raises as ``a[...] = value`` raises)."""
    indexing.check_number_written(a, value)
    npa.copyto(a, value, casting="unsafe")


@public("np.linalg.norm")
def norm(x, ord=None, axis=None, keepdims=False):
    """np.linalg.norm for ord None/'fro' (the 2-norm of all elements, or along ``axis``),
    and, on vectors, ord 1, 2 and inf."""
    x = convert_to_tensor(x)
    if x.dtype.kind in "iub":
        x = npa.cast(x, np.float64)
    mag = np.abs(x)
    vector = axis is not None and not isinstance(axis, tuple) or x.ndim == 1
    if axis is None and (ord is None or ord == "fro" and x.ndim == 2 or ord == 2 and vector):
        # (NumPy's: the dot product of the raveled array with itself, BLAS's order of sums,
        # which the kernel's dot also takes)
        flat = npa.ravel(x)
        if x.dtype.kind == "c":
            re, im = np.real(flat), np.imag(flat)
            total = npa.dot(re, re) + npa.dot(im, im)
        else:
            total = npa.dot(flat, flat)
        if keepdims:
            total = npa.reshape(total, (1,) * x.ndim)
        return np.sqrt(total)
    if ord is None or ord == "fro" or (ord == 2 and vector):
        return np.sqrt(npa.sum(mag * mag, axis=axis, keepdims=keepdims))
    if vector:
        if ord == 1:
            return npa.sum(mag, axis=axis, keepdims=keepdims)
        if ord == np.inf:
            return npa.max(mag, axis=axis, keepdims=keepdims)
        if ord == -np.inf:
            return npa.min(mag, axis=axis, keepdims=keepdims)
        if ord == 0:  # (the count of nonzero elements, as a float)
            return npa.sum(npa.cast(x != 0, mag.dtype), axis=axis, keepdims=keepdims)
        if isinstance(ord, (int, float)) and not isinstance(ord, bool):
            # NumPy's steps: |x| ** ord summed, then ** (1 / ord) in the result's dtype
            total = npa.sum(mag ** ord, axis=axis, keepdims=keepdims)
            return total ** np.reciprocal(np.asarray(ord, total.dtype))[()]
    matrix = (axis is None and x.ndim == 2) or (isinstance(axis, tuple) and len(axis) == 2)
    if matrix and ord in (1, -1, np.inf, -np.inf):
        # NumPy's: the column (ord +-1) or row (ord +-inf) sums of |x|, their max or min
        pair = axis if axis is not None else (0, 1)
        norm_axis(pair, x.ndim)  # (out of bounds, or one axis twice: NumPy's ValueError)
        rows, cols = (int(a) % x.ndim for a in pair)
        summed, other = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = npa.sum(mag, axis=summed)
        other -= other > summed
        ret = (npa.max(sums, axis=other, initial=0) if ord in (1, np.inf)
               else npa.min(sums, axis=other))
        if keepdims:
            for k in sorted((rows, cols)):
                ret = npa.expand_dims(ret, k)
        return ret
    if matrix and ord not in (2, -2, "nuc"):
        raise ValueError("Invalid norm order for matrices.")  # (NumPy's: any other ord)
    raise NotImplementedError(f"np.linalg.norm with ord={ord!r} on a tensor of rank "
                              f"{x.ndim} is not staged; ord None and 'fro', on vectors any "
                              f"number, on matrices 1, -1, inf and -inf are")


# -- statistics ---------------------------------------------------------------------------------
def _count(x, axis):
    """The number of elements a reduction over ``axis`` combines (a Python int, or a
    tensor when a size is known only at run time)."""
    axes = builtins.range(x.ndim) if axis is None else norm_axis(axis, x.ndim)
    n = 1
    for ax in axes:
        n = n * size_of(x, ax)
    return n


@public("np.var", "Tensor.var")
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    if out is not None or where is not True or mean is not None or correction is not None:
        raise NotImplementedError("var/std: out=, where=, mean= and correction= are not "
                                  "staged")
    x = convert_to_tensor(a)
    if dtype is None and x.dtype.kind in "iub":
        dtype = np.float64
    if dtype is not None:
        x = npa.cast(x, dtype)
    n = _count(x, axis)
    centered = x - npa.sum(x, axis=axis, keepdims=True) / _in(n, x.dtype)
    squares = centered * centered
    if x.dtype.kind == "c":  # (NumPy's: |c|**2 as re*re + im*im, a real variance)
        squares = centered.real * centered.real + centered.imag * centered.imag
    out = npa.sum(squares, axis=axis, keepdims=keepdims) / _in(_max(n - ddof, 0),
                                                                squares.dtype)
    return npa.cast(out, dtype) if dtype is not None and out.dtype != np.dtype(dtype) else out


@public("np.std", "Tensor.std")
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kwargs):
    return np.sqrt(var(a, axis, dtype, out, ddof, keepdims, **kwargs))


@public("np.median")
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    if out is not None:
        raise NotImplementedError("np.median(..., out=) is not staged")
    x = convert_to_tensor(a)
    shape = x.shape
    if isinstance(axis, (tuple, list)) and len(axis) > 1:  # (those axes merged, last)
        axes = normalize_axis_tuple([static_int(i, "np.median's axis") for i in axis], x.ndim)
        kept = [i for i in builtins.range(x.ndim) if i not in axes]
        merged = npa.reshape(npa.transpose(x, kept + list(axes)),
                             tuple(size_of(x, i) for i in kept) + (-1,))
        med = median(merged, axis=-1)
        if keepdims:
            med = npa.reshape(med, tuple(1 if i in axes else size_of(x, i)
                                         for i in builtins.range(x.ndim)))
        return med
    if isinstance(axis, (tuple, list)) and len(axis) == 1:
        axis = axis[0]
    if axis is None:
        x, ax = npa.ravel(x), 0
    else:
        ax = one_axis(static_int(axis, "np.median's axis (one axis)"), x.ndim)
    s = npa.sort(x, axis=ax)
    n = size_of(s, ax)

    def middle():
        lo, hi = _take(s, (n - 1) // 2, ax), _take(s, n // 2, ax)
        if s.dtype.kind in "iub":
            lo, hi = npa.cast(lo, np.float64), npa.cast(hi, np.float64)
        med = (lo + hi) / 2  # (the mean of the one or two middle values, as NumPy's)
        if s.dtype.kind in "fc":  # a NaN anywhere along the axis makes the median NaN
            med = npa.where(npa.any(np.isnan(s), axis=ax), np.nan, med)
        return med

    def of_nothing():  # NumPy: NaN (with "Mean of empty slice"), where a take would raise
        total = npa.sum(s, axis=ax)
        return npa.full_like(npa.cast(total, np.float64) if s.dtype.kind in "iub" else total,
                             np.nan)
    if isinstance(n, int):
        med = middle() if n else of_nothing()
    else:
        from .control import cond
        med = cond(n > 0, middle, of_nothing)
    if keepdims:
        med = npa.reshape(med, (1,) * len(shape)) if axis is None else npa.expand_dims(med, ax)
    return med


def _quantile(a, q, axis, keepdims, method, what):
    """np.quantile's 'linear' method as NumPy computes it (numpy/lib/_function_base_impl.py
    ``_quantile``/``_lerp``), step for step so the bits agree: virtual index ``(n - 1) *
    q``, the two neighbours in the sorted array (the last one from ``n - 1`` on, where
    NumPy's index is -1, which its ``gamma`` keeps), their lerp from whichever end is
    nearer, NaN where the sorted slice ends in NaN. A Python-number ``q`` is NumPy's weak
    scalar (a float32 array's quantile is float32); an array ``q`` keeps its float dtype
    and may be a tensor, of any shape (NumPy 2's: the result's leading axes)."""
    x = convert_to_tensor(a)
    if x.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    if isinstance(axis, (tuple, list)) and len(axis) == 1:
        axis = axis[0]
    if isinstance(axis, (tuple, list)):  # (those axes merged, last, as NumPy's _ureduce)
        axes = normalize_axis_tuple([static_int(i, f"np.{what}'s axis") for i in axis], x.ndim)
        kept = [i for i in builtins.range(x.ndim) if i not in axes]
        merged = npa.reshape(npa.transpose(x, kept + list(axes)),
                             tuple(size_of(x, i) for i in kept) + (-1,))
        out = _quantile(merged, q, -1, False, method, what)
        if keepdims:
            lead = tuple(size_of(out, k) for k in builtins.range(out.ndim - len(kept)))
            out = npa.reshape(out, lead + tuple(1 if i in axes else size_of(x, i)
                                                for i in builtins.range(x.ndim)))
        return out
    if method not in _QUANTILE_METHODS:
        raise NotImplementedError(f"np.{what}(..., method={method!r}) is not staged; "
                                  f"{', '.join(map(repr, _QUANTILE_METHODS))} are")
    weak = type(q) in (int, float) or (  # (a Python float, or a relaxed one: weak 0-d)
        isinstance(q, Tensor) and q.ndim == 0 and getattr(q.type, "weak", False))
    qa = _quantiles(q, what)
    q_shape = tuple(size_of(qa, k) for k in builtins.range(qa.ndim))
    if qa.ndim > 1:  # (the result's leading axes: q's shape, as one axis till the end)
        qa = npa.ravel(qa) if isinstance(qa, Tensor) else qa.ravel()
    shape = x.shape
    if axis is None:
        x, ax = npa.ravel(x), 0
    else:
        ax = one_axis(static_int(axis, f"np.{what}'s axis (one axis)"), x.ndim)
    s = npa.sort(x, axis=ax)
    n = size_of(s, ax)
    last = n - 1
    vi = npa.cast(last, qa.dtype) * qa if isinstance(n, Tensor) else last * qa
    if method in _DISCRETE:  # an element of the sorted array: its dtype, no lerp
        out = _q_first(_take(s, npa.cast(_DISCRETE[method](vi), np.int64), ax), ax, qa)
    else:
        if method == "midpoint":
            vi = 0.5 * (np.floor(vi) + np.ceil(vi))
        above = vi >= last
        floor = np.floor(vi)
        if method == "midpoint":  # (NumPy's fix_gamma: 0 on an element, else 1/2)
            gamma = npa.where(vi % 1 == 0, 0.0, 0.5)
        else:                     # (NumPy's: the previous index -1 where above kept)
            gamma = vi - npa.where(above, -1.0, floor)
        at = [npa.cast(npa.where(above, last, i), np.int64) for i in (floor, floor + 1)]
        lo, hi = (_q_first(_take(s, i, ax), ax, qa) for i in at)
        if qa.ndim:  # (q's length may be known only at run time: `q[q > 0]`)
            gamma = npa.reshape(gamma, (size_of(gamma, 0),) + (1,) * (lo.ndim - 1))
        t, u = gamma, 1.0 - gamma
        if weak and s.dtype.kind == "f":        # (a weak Python float in NumPy's lerp)
            t, u = npa.cast(t, s.dtype), npa.cast(u, s.dtype)
        diff = hi - lo
        out = npa.where(gamma >= 0.5, hi - diff * u, lo + diff * t)
    if s.dtype.kind == "f":                 # a NaN sorts last: the result is that NaN
        tail = _take(s, last, ax)
        out = npa.where(np.isnan(tail), tail, out)
    if keepdims:
        out = (npa.reshape(out, qa.shape + (1,) * len(shape)) if axis is None
               else npa.expand_dims(out, ax + qa.ndim))
    if len(q_shape) > 1:
        out = npa.reshape(out, q_shape + tuple(size_of(out, k)
                                               for k in builtins.range(1, out.ndim)))
    return out


def _quantiles(q, what):
    """``q`` as NumPy takes it: an array of its own float dtype (integers as float64; a
    percentile divided by 100 first) within [0, 1], a staged check for a tensor."""
    message = ("Percentiles must be in the range [0, 100]" if what == "percentile"
               else "Quantiles must be in the range [0, 1]")
    if isinstance(q, (list, tuple)) and builtins.any(isinstance(v, Tensor) for v in q):
        q = npa.stack([convert_to_tensor(v) for v in q])
    if isinstance(q, Tensor):
        if q.dtype.kind == "c":
            raise TypeError(f"np.{what}'s q must be real numbers, got {q.dtype}")
        qa = q / 100 if what == "percentile" else q
        qa = qa if qa.dtype.kind == "f" else npa.cast(qa, np.float64)
        apply("assert", npa.all((qa >= 0) & (qa <= 1)), message=message, error="ValueError")
        return qa
    qa = np.asarray(np.true_divide(q, 100) if what == "percentile" else q)
    if qa.dtype.kind == "c":
        raise TypeError(f"np.{what}'s q must be real numbers, got {qa.dtype}")
    qa = qa if qa.dtype.kind == "f" else qa.astype(np.float64)
    if qa.size and not (qa.min() >= 0 and qa.max() <= 1):
        raise ValueError(message)
    return qa


def _q_first(v, ax, qa):
    """The taken values with the q axis first, as NumPy's (a 1-d q only)."""
    if not qa.ndim:
        return v
    return npa.transpose(v, [ax] + [k for k in builtins.range(v.ndim) if k != ax])


# np.quantile's methods that pick an element: its index from the virtual index (NumPy's
# _QuantileMethods: floor, ceil, and round-half-to-even)
_DISCRETE = {"lower": np.floor, "higher": np.ceil, "nearest": np.around}
_QUANTILE_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


@public("np.percentile")
def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, interpolation=None):
    _no_out(out, weights, interpolation, "percentile")
    return _quantile(a, q, axis, keepdims, method, "percentile")


@public("np.quantile")
def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None, interpolation=None):
    _no_out(out, weights, interpolation, "quantile")
    return _quantile(a, q, axis, keepdims, method, "quantile")


def _no_out(out, weights, interpolation, what):
    for name, v in (("out", out), ("weights", weights), ("interpolation", interpolation)):
        if v is not None:
            raise NotImplementedError(f"np.{what}(..., {name}=) is not staged")


@public("np.average")
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    x = convert_to_tensor(a)
    if weights is None:
        avg = npa.mean(x, axis=axis, keepdims=keepdims)
        scale = npa.full_like(avg, _in(_count(x, axis), avg.dtype))
        # NumPy divides x.size by the result's size, raising on an empty result (0 / 0)
        if None in avg.shape:
            apply("assert", apply("greater", apply("size", avg), 0),
                  message="division by zero", error="ZeroDivisionError")
        elif 0 in avg.shape:
            raise ZeroDivisionError("division by zero")
    else:
        w = convert_to_tensor(weights)
        if w.ndim != x.ndim:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if w.ndim != 1:
                raise TypeError("1D weights expected when shapes of a and weights differ.")
            w = _along(w, one_axis(axis, x.ndim), x.ndim)
        dt = np.result_type(x.dtype, w.dtype, np.float64 if x.dtype.kind in "iub"
                            else x.dtype)
        scale = npa.sum(npa.cast(w, dt) + npa.zeros_like(x, dtype=dt), axis=axis,
                        keepdims=keepdims)
        apply("assert", npa.all(scale != 0), message="Weights sum to zero, can't be "
              "normalized", error="ZeroDivisionError")
        avg = npa.sum(npa.cast(x, dt) * npa.cast(w, dt), axis=axis, keepdims=keepdims) / scale
    return (avg, scale) if returned else avg


# -- complex parts ------------------------------------------------------------------------------
@public("np.conjugate", "Tensor.conj", "Tensor.conjugate")
def conjugate(x, **kwargs):
    x = convert_to_tensor(x)
    return apply("conjugate", x) if x.dtype.kind == "c" else npa.copy(x)


@public("np.real")
def real(x):
    x = convert_to_tensor(x)  # (of a real array NumPy gives the array itself)
    return apply("real", x) if x.dtype.kind == "c" else x


@public("np.imag")
def imag(x):
    x = convert_to_tensor(x)  # (of a real array: zeros NumPy will not let you write)
    return apply("imag", x) if x.dtype.kind == "c" else npa.zeros_like(x)


def set_part(x, part, value):
    """``x.real = value`` / ``x.imag = value``: written into that part of ``x`` (all of a
    real ``x`` for ``real``), with NumPy's unsafe casting; a real array has no imaginary
    part to set (NumPy's TypeError)."""
    if x.dtype.kind != "c" and part == "imag":
        raise TypeError("array does not have imaginary part to set")
    target = real(x) if part == "real" else imag(x)
    if value is not target:  # (`z.real += v` wrote it already and sets the view back)
        npa.copyto(target, value, casting="unsafe")


# `z.real`, `z.imag` read the part; `z.real = v`, `z.real += v` write it as NumPy does
expose("Tensor.real", property(real, lambda x, v: set_part(x, "real", v)))
expose("Tensor.imag", property(imag, lambda x, v: set_part(x, "imag", v)))


# -- products and convolution -------------------------------------------------------------------
def _einsum_terms(subscripts, n):
    """``"ij,jk->ik"`` -> ([["i", "j"], ["j", "k"]], ["i", "k"]): the operands' letters and
    the output's (NumPy's implicit output: the letters used once, sorted)."""
    if not isinstance(subscripts, str):
        raise TypeError("np.einsum: the subscripts must be a string such as 'ij,jk->ik' "
                        f"when an operand is a tensor, got {type(subscripts).__name__}")
    text = subscripts.replace(" ", "")
    if "." in text:
        raise NotImplementedError("np.einsum with '...' (broadcast dimensions) is not staged; "
                                  "name every axis with a letter")
    ins, arrow, out = text.partition("->")
    terms = [list(t) for t in ins.split(",")]
    if len(terms) != n:
        raise ValueError(f"np.einsum: {len(terms)} operand subscripts for {n} operands")
    letters = [c for t in terms for c in t]
    if not all(c.isalpha() for c in letters + list(out)):
        raise ValueError(f"np.einsum: invalid subscripts {subscripts!r} (letters only)")
    if arrow:
        output = list(out)
        missing = [c for c in output if c not in letters]
        if missing or len(set(output)) != len(output):
            raise ValueError(f"np.einsum: invalid output subscripts {out!r}")
    else:
        output = sorted(c for c in set(letters) if letters.count(c) == 1)
    return terms, output


@public("np.einsum")
def einsum(subscripts, *operands, out=None, dtype=None, order="K", casting="safe",
           optimize=False):
    """np.einsum as a broadcast product summed over the letters not in the output: each
    operand transposed to the letters' order, size-1 axes for the letters it lacks; a
    letter repeated inside one operand takes its diagonal first (``_diagonals``). One
    operand and no summation is NumPy's view (a transpose)."""
    if out is not None or dtype is not None:
        raise NotImplementedError("np.einsum(..., out=/dtype=) is not staged")
    terms, output = _einsum_terms(subscripts, len(operands))
    xs = [convert_to_tensor(x) for x in operands]
    for k, (t, x) in enumerate(zip(terms, xs)):
        if len(t) != x.ndim:
            raise ValueError(f"np.einsum: operand subscripts {''.join(t)!r} name {len(t)} "
                             f"axes for an operand with {x.ndim}")
        terms[k], xs[k] = _diagonals(t, x, k)
    order_ = []
    for t in terms:
        order_ += [c for c in t if c not in order_]
    if len(xs) == 1 and set(output) == set(terms[0]):
        return npa.transpose(xs[0], [terms[0].index(c) for c in output])
    product = None
    for t, x in zip(terms, xs):
        x = npa.transpose(x, sorted(range(len(t)), key=lambda k: order_.index(t[k])))
        for k, c in enumerate(order_):
            if c not in t:
                x = npa.expand_dims(x, k)
        product = x if product is None else product * x
    result = np.result_type(*[x.dtype for x in xs])
    summed = tuple(k for k, c in enumerate(order_) if c not in output)
    if summed:
        product = _sum_as(product, summed, result)
    left = [c for c in order_ if c in output]
    return npa.copy(npa.transpose(product, [left.index(c) for c in output]))


def _diagonals(t, x, k):
    """Operand ``k`` whose subscripts repeat a letter (``ii``, ``iji``): its diagonal over
    those axes (their sizes must agree: NumPy's ValueError), the letter once, last. One
    operand and no summation (``'ii->i'``) is then that read-only view, where NumPy's is
    writeable: a write through it raises rather than being lost."""
    while len(set(t)) != len(t):
        c = next(c for c in t if t.count(c) > 1)
        i = t.index(c)
        j = t.index(c, i + 1)
        n, m = size_of(x, i), size_of(x, j)
        sizes = f" ({n} != {m})" if isinstance(n, int) and isinstance(m, int) else ""
        check(n == m, f"dimensions in operand {k} for collapsing index '{c}' don't "
              f"match{sizes}", "ValueError")
        # (np.diagonal's read-only view, numpy_matrices.py, reached through NumPy's
        # dispatch: the other axes in order, then the diagonal; it sees later writes)
        x = np.diagonal(x, 0, i, j)
        t = [t[a] for a in builtins.range(len(t)) if a not in (i, j)] + [c]
    return t, x


def _sum_as(x, axis, dt):
    """A sum of products as np.einsum gives it: in ``dt`` (an int32 sum wraps in int32,
    not int64), and for booleans whether any term is true."""
    if dt.kind == "b":
        return npa.any(x, axis=axis)
    return npa.cast(npa.sum(x, axis=axis, dtype=dt), dt)


@public("np.convolve")
def convolve(a, v, mode="full"):
    """1-D discrete convolution (the ``convolve`` op: one pass per output, sizes may be
    known only at run time; empty inputs raise NumPy's ValueError when the call runs)."""
    a, v = convert_to_tensor(a), convert_to_tensor(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array" if builtins.max(a.ndim, v.ndim) > 1
                         else "np.convolve of a 0-d array is not staged; pass 1-D arrays")
    for size, name in ((a.shape[0], "a"), (v.shape[0], "v")):
        if size == 0:
            raise ValueError(f"{name} cannot be empty")
    return apply("convolve", a, v, mode=mode)


@public("np.interp")
def interp(x, xp, fp, left=None, right=None, period=None):
    """np.interp (the ``interp`` op: NumPy's own loop, one pass). Here: NumPy's checks of
    the arguments, float64 inputs, and the left/right values (fp's ends by default)."""
    if period is not None:
        raise NotImplementedError("np.interp(..., period=) is not staged")
    x, xp, fp = (convert_to_tensor(t) for t in (x, xp, fp))
    if any(t.dtype.kind == "c" for t in (x, xp, fp)):
        raise NotImplementedError("np.interp of complex values is not staged; interpolate "
                                  ".real and .imag")
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array" if builtins.max(xp.ndim, fp.ndim)
                         else "object of too small depth for desired array")
    f64 = np.dtype(np.float64)
    x, xp, fp = (npa.cast(t, f64) for t in (x, xp, fp))
    n, nf = size_of(xp, 0), size_of(fp, 0)
    if isinstance(n, int) and isinstance(nf, int):
        if n != nf:
            raise ValueError("fp and xp are not of the same length.")
        if n == 0:
            raise ValueError("array of sample points is empty")
    else:
        apply("assert", n == nf, message="fp and xp are not of the same length.",
              error="ValueError")
        apply("assert", n != 0, message="array of sample points is empty", error="ValueError")
    lval = npa.cast(fp[0] if left is None else left, f64)
    rval = npa.cast(fp[-1] if right is None else right, f64)
    if x.ndim == 0:  # (the op takes rank >= 1)
        return apply("interp", npa.reshape(x, (1,)), xp, fp, lval, rval)[0]
    return apply("interp", x, xp, fp, lval, rval)


# -- linear systems (ops/linalg.py) ---------------------------------------------------------------
# Stacks of matrices (rank > 2) are one ``vectorized_map`` of the 2-D op over the matrices
# (as NumPy's gufuncs loop over them): one kernel loop, a gradient through the map's rule,
# eagerly one cached kernel per function below.
def _inv_one(m):
    return apply("inv", m)


def _det_one(m):
    return apply("det", m)


def _cholesky_one(m):
    return apply("cholesky", m)


def _solve_one(ab):
    return apply("solve", ab[0], ab[1])


def _batch(x, core):
    """(the batch sizes of ``x``, whose last ``core`` axes are one problem, and ``x`` as a
    stack of its problems: shape (count,) + core shape)."""
    lead = tuple(size_of(x, k) for k in range(x.ndim - core))
    flat = npa.reshape(x, (npa.size_product(x, range(x.ndim - core)),)
                       + tuple(size_of(x, k) for k in range(x.ndim - core, x.ndim)))
    return lead, flat


def _per_matrix(one, a):
    from .vectorized_map import vectorized_map
    lead, flat = _batch(a, 2)
    r = vectorized_map(one, flat)
    return npa.reshape(r, lead + tuple(size_of(r, k) for k in range(1, r.ndim)))


def _stacked_like(x, stack):
    """``x`` (one problem, no batch axes) repeated along ``stack``'s first axis."""
    ones = npa.zeros_like(stack[(slice(None),) + (slice(0, 1),) * (stack.ndim - 1)])
    return npa.reshape(ones, (-1,) + (1,) * x.ndim) + x


@public("np.linalg.solve")
def solve(a, b):
    """NumPy 2's shapes: ``a`` (..., M, M); ``b`` (M,) for one vector per matrix, else
    (..., M, K), batch axes equal or absent on one side."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    dt = linalg.solve_dtype(a, b)
    a, b = npa.cast(a, dt), npa.cast(b, dt)
    if a.ndim <= 2 and b.ndim <= 2:
        return apply("solve", a, b)
    if a.ndim < 2:
        raise np.linalg.LinAlgError(f"{a.ndim}-dimensional array given. Array must be at "
                                    f"least two-dimensional")
    from .vectorized_map import vectorized_map
    core = 1 if b.ndim == 1 else 2
    lead_a, lead_b = a.shape[:-2], b.shape[:b.ndim - core]
    if lead_a and lead_b and (len(lead_a) != len(lead_b) or any(
            m is not None and n is not None and m != n for m, n in zip(lead_a, lead_b))):
        raise NotImplementedError(f"np.linalg.solve of stacks whose batch axes broadcast "
                                  f"({a.shape} and {b.shape}) is not staged; give both the "
                                  f"same batch axes")
    lead, fa = _batch(a, 2) if lead_a else (None, None)
    lead_b2, fb = _batch(b, core) if lead_b else (None, None)
    fa = fa if fa is not None else _stacked_like(a, fb)
    fb = fb if fb is not None else _stacked_like(b, fa)
    r = vectorized_map(_solve_one, (fa, fb))
    return npa.reshape(r, (lead or lead_b2) + tuple(size_of(r, k) for k in range(1, r.ndim)))


@public("np.linalg.inv")
def inv(a):
    a = convert_to_tensor(a)
    a = npa.cast(a, linalg.solve_dtype(a))
    return apply("inv", a) if a.ndim <= 2 else _per_matrix(_inv_one, a)


@public("np.linalg.det")
def det(a):
    a = convert_to_tensor(a)
    a = npa.cast(a, linalg.solve_dtype(a))
    return apply("det", a) if a.ndim <= 2 else _per_matrix(_det_one, a)


@public("np.linalg.cholesky")
def cholesky(a, /, *, upper=False):
    # LAPACK reads one triangle: the lower one, or with upper=True the upper one, which is
    # the lower triangle of a's conjugate transpose (they differ where a is not Hermitian)
    a = convert_to_tensor(a)
    a = npa.cast(a, linalg.solve_dtype(a))
    if a.ndim > 2:
        return _per_matrix(_cholesky_upper_one if upper else _cholesky_one, a)
    if not upper:
        return apply("cholesky", a)
    return _cholesky_upper_one(a)


def _cholesky_upper_one(m):
    return np.conjugate(npa.transpose(apply("cholesky", np.conjugate(npa.transpose(m)))))
