"""NumPy's statistics functions built from the op table's ops: the NaN-ignoring reductions
(``nansum``, ``nanprod``, ``nanmean``, ``nanvar``, ``nanstd``, ``nanmax``, ``nanmin``,
``nanargmax``, ``nanargmin``), ``ptp``, ``cov``, ``corrcoef``, ``histogram`` and
``digitize``.

Each follows the steps of NumPy's own Python code (numpy/lib/_nanfunctions_impl.py,
_function_base_impl.py, _histograms_impl.py) one for one, casts included, so that the
values agree bit for bit where the same operations run in the same order: the NaNs are
replaced by the reduction's identity (``_replace_nan``), a mean is a sum divided by the
count of non-NaNs computed in NumPy's promoted dtype and cast back (``_divide_by_count``),
an all-NaN slice is NaN where NumPy gives NaN and NumPy's ValueError, checked when the
kernel runs (a staged ``assert``), where NumPy raises. Integer and boolean inputs hold no
NaN: they take NumPy's plain reductions, as NumPy does. What is not staged (``out=``,
``where=``, ``initial=``, weights of ``cov``, string ``bins``, a number of bins or a range
known only at run time) is refused naming the argument. Each function claims its public
name with ``@public`` (ops/registry.py); none is an op of its own.
"""
import builtins
import operator

import numpy as np

from . import errors, mutation
from . import numpy_api as npa
from .ops.dispatch import apply, convert_to_tensor, size_of
from .ops.registry import public
from .tensor import Tensor


def _refuse(what, **given):
    """NotImplementedError naming the first argument given that is not staged."""
    for name, value in given.items():
        if value is not None:
            raise NotImplementedError(f"np.{what}(..., {name}=) is not staged")


def _replace_nan(a, val):
    """NumPy's ``_replace_nan``: ``a`` with its NaNs replaced by ``val`` and the NaN mask,
    or ``a`` and None for a dtype that holds no NaN."""
    x = convert_to_tensor(a)
    if x.dtype.kind not in "fc":
        return x, None
    mask = np.isnan(x)
    return npa.where(mask, np.asarray(val, x.dtype)[()], x), mask


def _divide_by_count(total, count):
    """NumPy's ``_divide_by_count``: the division in the promoted dtype (float32 / intp
    divides in float64), cast back to the total's dtype."""
    return npa.cast(total / count, total.dtype)


def _inexact(dtype):
    if dtype is not None and np.dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")


# -- sums and products ignoring NaNs ------------------------------------------------------------
@public("np.nansum")
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _refuse("nansum", out=out, initial=initial, where=where)
    x, _ = _replace_nan(a, 0)
    return npa.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


@public("np.nanprod")
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _refuse("nanprod", out=out, initial=initial, where=where)
    x, _ = _replace_nan(a, 1)
    return npa.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _non_nan_count(mask, axis, keepdims):
    return npa.sum(~mask, axis=axis, dtype=np.int64, keepdims=keepdims)


@public("np.nanmean")
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    _refuse("nanmean", out=out, where=where)
    x, mask = _replace_nan(a, 0)
    if mask is None:
        return npa.mean(x, axis=axis, dtype=dtype, keepdims=keepdims)
    _inexact(dtype)
    total = npa.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)
    return _divide_by_count(total, _non_nan_count(mask, axis, keepdims))  # 0/0: NaN


@public("np.nanvar")
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    _refuse("nanvar", out=out, where=where, mean=mean)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x, mask = _replace_nan(a, 0)
    if mask is None:
        return np.var(x, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    _inexact(dtype)
    if x.dtype.kind == "c":
        raise NotImplementedError("np.nanvar/np.nanstd of complex tensors are not staged; "
                                  "use np.nanvar(z.real) + np.nanvar(z.imag)")
    count = _non_nan_count(mask, axis, True)
    avg = _divide_by_count(npa.sum(x, axis=axis, dtype=dtype, keepdims=True), count)
    d = npa.where(mask, np.asarray(0, x.dtype)[()], npa.cast(x - avg, x.dtype))
    var = npa.sum(d * d, axis=axis, dtype=dtype, keepdims=keepdims)
    dof = _non_nan_count(mask, axis, keepdims) - ddof
    return npa.where(dof <= 0, np.asarray(np.nan, var.dtype)[()],
                     _divide_by_count(var, dof))


@public("np.nanstd")
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    return np.sqrt(nanvar(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                          correction=correction))


# -- extremes ignoring NaNs ---------------------------------------------------------------------
def _nan_extreme(reduce, fill, a, axis, keepdims, what, **unstaged):
    """nanmax/nanmin: the NaNs replaced by the identity, reduced, NaN where a slice was
    all NaN (NumPy's safe path: the same values as its ``np.fmax.reduce``)."""
    _refuse(what, **unstaged)
    x, mask = _replace_nan(a, fill)
    out = reduce(x, axis=axis, keepdims=keepdims)
    if mask is None:
        return out
    return npa.where(npa.all(mask, axis=axis, keepdims=keepdims),
                     np.asarray(np.nan, out.dtype)[()], out)


@public("np.nanmax")
def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_extreme(npa.max, -np.inf, a, axis, keepdims, "nanmax", out=out,
                        initial=initial, where=where)


@public("np.nanmin")
def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_extreme(npa.min, np.inf, a, axis, keepdims, "nanmin", out=out,
                        initial=initial, where=where)


def _nan_arg(arg, fill, a, axis, out, keepdims, what):
    """nanargmax/nanargmin: NumPy's ValueError for an all-NaN slice, checked when the
    kernel runs; else the arg of the array with its NaNs replaced by the identity."""
    _refuse(what, out=out)
    x, mask = _replace_nan(a, fill)
    if mask is not None:
        apply("assert", ~npa.any(npa.all(mask, axis=axis)),
              message="All-NaN slice encountered", error="ValueError")
    return arg(x, axis=axis, keepdims=keepdims)


@public("np.nanargmax")
def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg(npa.argmax, -np.inf, a, axis, out, keepdims, "nanargmax")


@public("np.nanargmin")
def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg(npa.argmin, np.inf, a, axis, out, keepdims, "nanargmin")


@public("np.ptp")
def ptp(a, axis=None, out=None, keepdims=False):
    """NumPy's ``_ptp``: the maximum minus the minimum, in the input's dtype (integers
    wrap as NumPy's do)."""
    _refuse("ptp", out=out)
    x = convert_to_tensor(a)
    return npa.max(x, axis=axis, keepdims=keepdims) - npa.min(x, axis=axis, keepdims=keepdims)


# -- covariance and correlation -----------------------------------------------------------------
def _rows(v, dt, rowvar, what):
    """NumPy's ``array(v, ndmin=2, dtype=dt)``, transposed where ``cov`` transposes it:
    one variable per row. The number of variables fixes the result's shape (NumPy
    squeezes a 1 x 1 result to 0-d), so it must be known while tracing."""
    x = npa.cast(v, dt)
    ndim = x.ndim
    while x.ndim < 2:
        x = npa.expand_dims(x, 0)
    if not rowvar and (ndim != 1 if what == "m" else x.shape[0] != 1):
        x = npa.transpose(x)
    if x.shape[0] is None or (what != "m" and ndim == 2 and v.shape[0] is None):
        raise NotImplementedError(f"np.cov: the number of variables of {what} (its rows, or "
                                  f"columns with rowvar=False) must be known while tracing; "
                                  f"give the Function an input_signature with that size")
    return x


def _reciprocal_dof(n, ddof):
    """``np.true_divide(1, fact)``: fact = observations - ddof, 0.0 where that is <= 0."""
    if isinstance(n, int):
        with np.errstate(divide="ignore"):
            return np.true_divide(1, n - ddof if n - ddof > 0 else 0.0)
    fact = n - ddof
    return 1.0 / npa.where(fact <= 0, 0.0, npa.cast(fact, np.float64))


@public("np.cov")
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """np.cov as numpy/lib/_function_base_impl.py computes it without weights: the
    variables' means subtracted, ``dot(X, X.T)``, times ``1 / (N - ddof)``, squeezed."""
    _refuse("cov", fweights=fweights, aweights=aweights, dtype=dtype)
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    parts = [convert_to_tensor(m)] + ([] if y is None else [convert_to_tensor(y)])
    for v, what in zip(parts, ("m", "y")):
        if v.ndim > 2:
            raise ValueError(f"{what} has more than 2 dimensions")
    dt = np.result_type(*[v.dtype for v in parts], np.float64)
    if dt.kind == "c":
        raise NotImplementedError("np.cov/np.corrcoef of complex tensors are not staged")
    x = _rows(parts[0], dt, rowvar, "m")
    if x.shape[0] == 0:
        return npa.zeros((0, 0))
    if y is not None:
        x = npa.concatenate((x, _rows(parts[1], dt, rowvar, "y")), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    x = x - npa.mean(x, axis=1)[:, None]
    return npa.squeeze(npa.dot(x, npa.transpose(x)) * _reciprocal_dof(size_of(x, 1), ddof))


@public("np.corrcoef")
def corrcoef(x, y=None, rowvar=True, bias=None, ddof=None, *, dtype=None):
    """np.corrcoef: the covariance divided by the outer product of the standard deviations
    (its diagonal's square roots, one division after the other as NumPy's), clipped to
    [-1, 1]; a single variable gives ``c / c``."""
    _refuse("corrcoef", bias=bias, ddof=ddof, dtype=dtype)
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return c / c
    std = np.sqrt(npa.ravel(c)[::c.shape[0] + 1])
    return npa.clip(c / std[:, None] / std[None, :], -1, 1)


# -- binning ------------------------------------------------------------------------------------
_NOT_MONOTONIC = "bins must be monotonically increasing or decreasing"


def _monotonicity(bins):
    """NumPy's ``_monotonicity`` (compiled_base.c) on the bins as float64: (increasing,
    monotonic). Equal bins increase; else the first bin that differs from the first one
    decides the direction (a NaN: decreasing). Written with np.* calls, so the same code
    runs on a NumPy array while tracing and stages on a tensor."""
    d = bins.astype(np.float64)
    first = np.concatenate([d[:1], np.zeros(1)])[0]  # (0 for no bins)
    ext = np.concatenate([d, np.reshape(first, (1,))])
    up = np.all(d == first) | (first < ext[np.argmax(ext != first)])
    rising, falling = ~np.any(d[:-1] > d[1:]), ~np.any(d[:-1] < d[1:])
    return up, np.where(up, rising, falling)


@public("np.digitize")
def digitize(x, bins, right=False):
    """NumPy's definition: ``searchsorted`` of increasing bins, ``len(bins) -
    searchsorted`` of the reversed decreasing ones; the direction and NumPy's ValueError
    for bins that are neither decided while tracing for NumPy bins, when the call runs for
    a tensor."""
    x = convert_to_tensor(x)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    static = not isinstance(bins, Tensor)
    b = np.asarray(bins) if static else bins
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1
                         else "object of too small depth for desired array")
    up, ok = _monotonicity(b)
    if static and not ok:
        raise ValueError(_NOT_MONOTONIC)
    if not static:
        apply("assert", ok, message=_NOT_MONOTONIC, error="ValueError")
    side = "left" if right else "right"
    b = convert_to_tensor(b)
    rising = (not static or up) and npa.searchsorted(b, x, side=side)
    falling = (not static or not up) and \
        size_of(b, 0) - npa.searchsorted(b[::-1], x, side=side)
    return (rising if up else falling) if static else npa.where(up, rising, falling)


def _unsigned_subtract(a, b):
    """NumPy's ``_unsigned_subtract`` of two numbers known while tracing: a signed integer
    difference in the unsigned type of the same size, else in the promoted type."""
    dt = np.result_type(a, b)
    if dt.kind == "i":
        return np.subtract(np.asarray(a, dt), np.asarray(b, dt), casting="unsafe",
                           dtype=np.dtype(f"u{dt.itemsize}"))
    return np.subtract(a, b, dtype=dt)


def _strong(v):
    """A NumPy scalar as a 0-d tensor of its dtype: NumPy 2 promotes with its dtype (a
    Python number is weak), and the library takes an ``np.float64`` for a Python float."""
    return npa.cast(v, v.dtype) if isinstance(v, np.generic) else v


def _edges_of_range(x, n, range):
    """The edges NumPy makes from ``range`` (numbers known while tracing: NumPy's own
    linspace, checks and errors), with the first edge and the width for the indices."""
    if builtins.any(isinstance(v, Tensor) for v in range):
        raise NotImplementedError("np.histogram's range must be numbers known while "
                                  "tracing, got a tensor; use ag.py_func")
    first, last = range
    if first > last:
        raise ValueError("max must be larger than min in range parameter.")
    if not (np.isfinite(first) and np.isfinite(last)):
        raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    edges = np.histogram_bin_edges(np.empty(0, x.dtype), n, (first, last))
    return (convert_to_tensor(edges), _strong(first), _strong(last),
            _strong(_unsigned_subtract(last, first)))


def _edges_of_data(x, n):
    """The edges from the data's minimum and maximum (NumPy's ``_get_outer_edges`` and
    linspace, step for step in the edges' dtype: the input's float type, float64 for
    integers), NumPy's ValueErrors checked when the call runs. An empty array's edges are
    NumPy's linspace over (0, 1)."""
    dt = np.dtype(np.float64) if x.dtype.kind in "iu" else x.dtype
    size = size_of(x, 0)
    if isinstance(size, int) and size == 0:  # (a size known at run time: at the end)
        edges = np.linspace(0, 1, n + 1, dtype=dt)
        return convert_to_tensor(edges), 0, _strong(_unsigned_subtract(1, 0))
    lo, hi = (np.array([v], x.dtype) for v in ((np.inf, -np.inf) if x.dtype.kind == "f"
                                               else (np.iinfo(x.dtype).max,
                                                     np.iinfo(x.dtype).min)))
    first = npa.cast(npa.min(npa.concatenate([x, lo])), dt)  # (an empty x: the sentinel)
    last = npa.cast(npa.max(npa.concatenate([x, hi])), dt)
    if x.dtype.kind == "f":
        apply("assert", (size == 0) | (np.isfinite(first) & np.isfinite(last)),
              message="autodetected range of [a.min(), a.max()] is not finite",
              error="ValueError")
    same = first == last
    first, last = npa.where(same, first - 0.5, first), npa.where(same, last + 0.5, last)
    delta = last - first
    step = delta / n
    ar = npa.arange(n + 1, dtype=dt)
    y = npa.where(step == 0, ar / n * delta, ar * step) + first
    edges = npa.concatenate([y[:-1], npa.reshape(last, (1,))])
    apply("assert", (size == 0) | npa.all(edges[:-1] < edges[1:]),
          message=f"Too many bins for data range. Cannot create {n} finite-sized bins.",
          error="ValueError")
    if not isinstance(size, int):  # (known at run time: NumPy's (0, 1) edges when empty)
        empty = convert_to_tensor(np.linspace(0, 1, n + 1, dtype=dt))
        edges = npa.where(size == 0, empty, edges)
    return edges, first, delta


def _equal_bins(x, w, n, range):
    """NumPy's fast path for ``n`` equal bins: values outside the range dropped, the index
    ``(x - first) / width * n`` as an int, corrected against the edges by one either way
    (the last edge inclusive), counted with bincount."""
    if range is None:
        edges, first, width = _edges_of_data(x, n)
    else:
        edges, first, last, width = _edges_of_range(x, n, range)
        keep = (x >= first) & (x <= last)
        x, w = x[keep], (None if w is None else w[keep])
    weights_dtype = None if w is None else w.dtype
    v = npa.cast(x, edges.dtype)
    i = npa.cast((v - first) / width * n, np.int64)
    i = npa.where(i == n, i - 1, i)
    i = npa.where(v < edges[i], i - 1, i)
    i = npa.where((v >= edges[i + 1]) & (i != n - 1), i + 1, i)
    if w is None:
        return npa.bincount(i, minlength=n), edges
    # (one more index, n, weighing 0: never an empty bincount, whose weighted result the
    # op refuses; NumPy's zeros then come out of the sums, cast to the weights' dtype)
    i = npa.concatenate([i, np.array([n])])
    w = npa.concatenate([npa.cast(w, np.float64), np.zeros(1)])
    return npa.cast(npa.bincount(i, weights=w, minlength=n + 1)[:n], weights_dtype), edges


def _given_edges(x, w, bins):
    """NumPy's cumulative path for an array of edges: searchsorted into the sorted data
    (the last edge inclusive), differences of the counts or of the weights' cumsum."""
    static = not isinstance(bins, Tensor)
    edges = convert_to_tensor(np.asarray(bins) if static else bins)
    rising = np.all(np.asarray(bins)[:-1] <= np.asarray(bins)[1:]) if static else \
        npa.all(edges[:-1] <= edges[1:])
    message = "`bins` must increase monotonically, when an array"
    if static and not rising:
        raise ValueError(message)
    if not static:
        apply("assert", rising, message=message, error="ValueError")
    if w is None:
        cum = _search_sorted_inclusive(npa.sort(x), edges)
    else:
        if w.dtype.kind == "b":  # (NumPy adds the int64 cumsum into bool counts: its error)
            raise errors.numpy_error(mutation.ufunc_cast_error(np.add, "add")(
                np.dtype(np.int64), w.dtype))
        order = npa.argsort(x)
        total = npa.concatenate([npa.zeros(1, dtype=w.dtype), npa.cumsum(w[order])])
        # (NumPy's counts are of the weights' dtype: an int8 sum wraps, as its does)
        cum = npa.cast(total[_search_sorted_inclusive(x[order], edges)], w.dtype)
    return cum[1:] - cum[:-1], edges


def _search_sorted_inclusive(a, v):
    return npa.concatenate([npa.searchsorted(a, v[:-1], side="left"),
                            npa.searchsorted(a, v[-1:], side="right")])


@public("np.histogram")
def histogram(a, bins=10, range=None, density=None, weights=None):
    """np.histogram for a number of equal bins (edges from ``range`` or the data) or an
    array of increasing edges, with weights and density, as
    numpy/lib/_histograms_impl.py computes it."""
    x = convert_to_tensor(a)
    if x.dtype.kind == "b":
        x = npa.cast(x, np.uint8)  # (NumPy's, with a RuntimeWarning)
    w = None
    if weights is not None:
        w = convert_to_tensor(weights)
        if tuple(w.shape) != tuple(x.shape):
            raise ValueError("weights should have the same shape as a.")
        if w.dtype.kind == "c":
            raise NotImplementedError("np.histogram with complex weights is not staged")
        w = npa.ravel(w)
    x = npa.ravel(x)
    if isinstance(bins, str):
        raise NotImplementedError(f"np.histogram(..., bins={bins!r}): estimated numbers of "
                                  f"bins are not staged; pass a number of bins or the edges")
    if isinstance(bins, Tensor) and bins.ndim == 0:
        raise NotImplementedError("np.histogram's number of bins must be a Python int (it "
                                  "is the result's size), got a tensor")
    if np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        hist, edges = _equal_bins(x, w, n, range)
    elif np.ndim(bins) == 1:
        hist, edges = _given_edges(x, w, bins)
    else:
        raise ValueError("`bins` must be 1d, when an array")
    if density:
        return hist / npa.cast(edges[1:] - edges[:-1], np.float64) / npa.sum(hist), edges
    return hist, edges
