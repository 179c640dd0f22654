"""NumPy's statistics functions (autograph_lite/numpy_statistics.py) against NumPy itself,
three ways (plain NumPy, interpreter, cpu; arguments compared, two calls each): the
NaN-ignoring reductions with NaN, inf and all-NaN slices drawn, ptp, cov, corrcoef,
histogram and digitize, and each refusal.

Results compare bit for bit where the kernel runs NumPy's operations in NumPy's order.
A float sum does not: NumPy adds a contiguous run pairwise (the first element, then the sum
of the rest, in blocks of eight), the cpu kernel adds left to right; those results compare
within a tolerance (the interpreter, NumPy itself, agrees exactly). One Function per test
shares its kernels across the drawn shapes (sizes relax).
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions
from ops_strategies import arrays, dtypes, examples, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
F32, F64, I64 = np.float32, np.float64, np.int64


def nan_extremes(x):
    return (np.nanmax(x), np.nanmax(x, axis=0), np.nanmin(x, axis=1, keepdims=True),
            np.nanmin(x, axis=(0, 1)), np.nanprod(x, axis=1), np.nanprod(x, keepdims=True),
            np.ptp(x), np.ptp(x, axis=-1, keepdims=True))


def nan_sums(x):
    return (np.nansum(x), np.nansum(x, axis=1), np.nansum(x, axis=0, keepdims=True),
            np.nanmean(x), np.nanmean(x, axis=0), np.nanmean(x, axis=1, keepdims=True),
            np.nanvar(x), np.nanvar(x, axis=1, ddof=1), np.nanstd(x, axis=0, keepdims=True),
            np.nanstd(x, ddof=2), np.nanvar(x, axis=(0, 1), correction=1),
            np.nanmean(x, axis=1, dtype=np.float64), np.nansum(x, dtype=np.float64))


def nan_args(x):
    return np.nanargmax(x, axis=1), np.nanargmin(x, axis=0, keepdims=True)


def nan_args_flat(x):
    return np.nanargmax(x), np.nanargmin(x, keepdims=True)


_FNS = {f.__name__: shared_functions(f) for f in (nan_extremes, nan_sums, nan_args, nan_args_flat)}


@examples(8)
@given(st.data())
def test_nan_extremes_match_numpy(data):
    x = data.draw(arrays(data.draw(dtypes("float")), shapes(2, min_side=1), nan=True))
    agree(nan_extremes, x, functions=_FNS["nan_extremes"], exact=True)


@examples(8)
@given(arrays(F64, shapes(2, min_side=1), nan=True))
def test_nan_sums_and_moments_match_numpy(x):
    # (a float sum: NumPy's pairwise order, the kernel's left to right: see the docstring)
    agree(nan_sums, x, functions=_FNS["nan_sums"], rtol=1e-12, atol=1e-12)


def test_nan_moments_along_the_outer_axis_are_exact():
    """Down axis 0 of a C-ordered array NumPy adds row after row, as the kernel does: the
    float32 moments (divided in float64 and cast back, as NumPy's) agree bit for bit."""
    def f(x):
        return (np.nansum(x, axis=0), np.nanmean(x, axis=0), np.nanvar(x, axis=0),
                np.nanstd(x, axis=0, ddof=1), np.nanmean(x, axis=0, dtype=np.float64))
    x = np.array([[1.5, np.nan, 3.0, np.nan], [0.1, 2.0, np.inf, np.nan],
                  [-7.25, 0.3, 1.0, np.nan]], F32)
    agree(f, x, exact=True)


@examples(8)
@given(arrays(F64, shapes(2, min_side=1), nan=True))
def test_nanargmax_nanargmin_match_numpy_or_raise_its_error(x):
    """An all-NaN slice raises NumPy's ValueError when the call runs (agree checks that
    every side raised the oracle's exception type)."""
    agree(nan_args, x, functions=_FNS["nan_args"], exact=True)
    agree(nan_args_flat, x, functions=_FNS["nan_args_flat"], exact=True)


def test_all_nan_slices():
    def f(x):
        return (np.nanmax(x, axis=1), np.nanmin(x, axis=1), np.nanmean(x, axis=1),
                np.nanvar(x, axis=1), np.nanstd(x, axis=1, ddof=1), np.nansum(x, axis=1),
                np.nanprod(x, axis=1))
    agree(f, np.array([[np.nan, np.nan], [1.0, np.nan]]), exact=True)
    raised = []
    agree(lambda x: np.nanargmax(x, axis=1), np.array([[np.nan, np.nan], [1.0, np.nan]]),
          errors=raised)
    assert raised and all("All-NaN slice encountered" in m for *_, m in raised), raised


def test_integer_inputs_have_no_nan():
    def f(a, b):
        return (np.nansum(a), np.nansum(b, axis=0), np.nanprod(a, axis=1), np.nanmean(a),
                np.nanmean(b, axis=1), np.nanvar(a, axis=0), np.nanstd(b), np.nanmax(a),
                np.nanmin(b, axis=1), np.nanargmax(a, axis=0), np.nanargmin(b),
                np.ptp(a, axis=1), np.ptp(b))
    agree(f, np.arange(12, dtype=np.int8).reshape(3, 4) * 11 % 7 - 3,
          np.array([[True, False], [True, True]]) * np.int64(5), exact=True)


def test_ptp_of_integers_wraps_as_numpys():
    agree(lambda a: (np.ptp(a), np.ptp(a, axis=0)),
          np.array([[-100, 100], [27, -128]], np.int8), exact=True)


def test_unstaged_arguments_are_refused_by_name():
    x = np.array([1.0, np.nan])
    cases = [(lambda v: np.nansum(v, out=np.zeros(())), "out"),
             (lambda v: np.nanmax(v, initial=0.0), "initial"),
             (lambda v: np.nanmean(v, where=v > 0), "where"),
             (lambda v: np.nanvar(v, mean=np.zeros(())), "mean"),
             (lambda v: np.nanargmax(v, out=np.zeros((), np.int64)), "out"),
             (lambda v: np.ptp(v, out=np.zeros(())), "out")]
    for fn, name in cases:
        with pytest.raises(NotImplementedError, match=f"{name}="):
            ag.defun(fn, backend="interpreter")(x)


def test_numpys_argument_errors():
    x = np.array([1.0, np.nan])
    with pytest.raises(TypeError, match="dtype must be inexact"):
        ag.defun(lambda v: np.nanmean(v, dtype=np.int64), backend="interpreter")(x)
    with pytest.raises(ValueError, match="ddof and correction"):
        ag.defun(lambda v: np.nanvar(v, ddof=1, correction=1), backend="interpreter")(x)


# -- cov and corrcoef ---------------------------------------------------------------------------
def covariances(m, v):
    return (np.cov(m), np.cov(m, rowvar=False), np.cov(m, bias=True), np.cov(m, ddof=0),
            np.cov(v), np.cov(v, v * 2.0 - 1.0), np.cov(m, v[:m.shape[1]]),
            np.corrcoef(m), np.corrcoef(m, rowvar=False), np.corrcoef(v), np.corrcoef(v, -v),
            np.corrcoef(m[:1]))


_COV = shared_functions(covariances)


@examples(6)
@given(st.data())
def test_cov_and_corrcoef_match_numpy(data):
    # (a sum of products: np.dot's order is BLAS's, the mean's is pairwise: a tolerance)
    m = data.draw(arrays(F64, shapes(2, min_side=2).map(lambda s: (3, s[1] + 1))))
    v = data.draw(arrays(F64, (m.shape[1],)))
    agree(covariances, m, v, functions=_COV, rtol=1e-9, atol=1e-9)


def test_cov_of_integers_and_degenerate_inputs():
    def f(a, one):
        return (np.cov(a), np.cov(a, ddof=3), np.cov(one), np.corrcoef(a), np.corrcoef(one),
                np.cov(a[:, :0]), np.cov(a[:0]))
    agree(f, np.array([[1, 2, 4], [3, 3, 3]], np.int32), np.array([5.0]), exact=True)


def test_cov_refusals():
    m = np.ones((2, 3))
    for kw in ("fweights", "aweights"):
        with pytest.raises(NotImplementedError, match=f"{kw}="):
            ag.defun(lambda v: np.cov(v, **{kw: np.ones(3)}), backend="interpreter")(m)
    with pytest.raises(NotImplementedError, match="dtype="):
        ag.defun(lambda v: np.corrcoef(v, dtype=np.float32), backend="interpreter")(m)
    with pytest.raises(ValueError, match="ddof must be integer"):
        ag.defun(lambda v: np.cov(v, ddof=1.5), backend="interpreter")(m)
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        ag.defun(lambda v: np.cov(v[None]), backend="interpreter")(m)


# -- digitize -----------------------------------------------------------------------------------
def digitized(x, bins):
    return (np.digitize(x, bins), np.digitize(x, bins, right=True), np.digitize(x[0], bins),
            np.digitize(x, np.array([3.0, 1.0, 1.0, -2.0])),
            np.digitize(x, [-1, 0, 0, 4], right=True))


_DIG = shared_functions(digitized)


@examples(8)
@given(st.data())
def test_digitize_matches_numpy_for_increasing_and_decreasing_bins(data):
    x = data.draw(arrays(F64, shapes(1, min_side=1), nan=True, lo=-5, hi=5))
    bins = np.sort(data.draw(arrays(F64, shapes(1), lo=-5, hi=5)))  # (NaN-free: sorted)
    if data.draw(st.booleans()):
        bins = bins[::-1].copy()
    agree(digitized, x, bins, functions=_DIG, exact=True)


def test_digitize_of_bins_neither_increasing_nor_decreasing_raises():
    raised = []
    agree(lambda x, b: np.digitize(x, b), calls=[(np.ones(2), np.array([0.0, 2.0, 1.0]))],
          errors=raised)
    assert raised and all("monotonically" in m for *_, m in raised), raised
    with pytest.raises(ValueError, match="monotonically"):
        ag.defun(lambda x: np.digitize(x, [0, 2, 1]), backend="interpreter")(np.ones(2))
    with pytest.raises(TypeError, match="complex"):
        ag.defun(lambda x: np.digitize(x * 1j, [0, 1]), backend="interpreter")(np.ones(2))


# -- histogram ----------------------------------------------------------------------------------
def histograms(x, w):
    return (np.histogram(x), np.histogram(x, bins=3, range=(0, 10)),
            np.histogram(x, 4, range=(-1.5, 2.5), weights=w), np.histogram(x, 5, density=True),
            np.histogram(x, [-50, 0, 2.5, 50]), np.histogram(x, 2, range=(1, 1)),
            np.histogram(x > 0, 2))
# (weights with an array of edges: NumPy's argsort is not stable, so tied values' weights
# are summed in another order: test_histogram_of_integers_weights_and_density, rtol)


_HIST = shared_functions(histograms)


@examples(8)
@given(st.data())
def test_histogram_matches_numpy(data):
    x = data.draw(arrays(data.draw(dtypes("float", narrowest=True)), shapes(1, max_side=12), lo=-20, hi=20))
    w = data.draw(arrays(F64, (len(x),), lo=0, hi=5))
    agree(histograms, x, w, functions=_HIST, exact=True)


def test_histogram_of_integers_weights_and_density():
    def f(a, w):
        return (np.histogram(a), np.histogram(a, 3, weights=w), np.histogram(a, 4, density=True),
                np.histogram(a, [0, 2, 9], weights=w * 1.0, density=True),
                np.histogram(a, np.array([-1.0, 2.0, 9.5]), weights=w * 0.1),
                np.histogram(a, 2, range=(0.5, 4.5), weights=w.astype(np.float32)))
    # (density with float weights divides by their sum: NumPy's pairwise order)
    agree(f, np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int8), np.arange(8), rtol=1e-12)


def counted_at_edges(x, w):
    return np.histogram(x, bins=[0.0, 1.0, 2.0], weights=w)[0]


def test_histogram_at_given_edges_counts_in_the_weights_dtype():
    """NumPy's counts at an array of edges are of the integer weights' dtype (int8 sums
    wrap) and bool weights raise its UFuncTypeError; they were int64, unwrapped, and bool
    counted (session 47)."""
    agree(counted_at_edges, calls=[(np.array([0.5, 1.5]), np.array([1, 2], np.int32)),
                                   (np.array([0.5, 1.5, 1.5]), np.full(3, 100, np.int8)),
                                   (np.array([0.5, 1.5]), np.array([1, 7], np.uint32)),
                                   (np.array([0.5]), np.array([True]))], exact=True)


def histogram_of_a_mask(x):
    return np.histogram(x[x > 0], bins=3)


def test_histogram_of_data_whose_size_is_known_at_run_time():
    # (the empty-array test read the run-time size as a Python bool: an internal TypeError
    # before session 45); an empty selection gives NumPy's (0, 1) edges
    agree(histogram_of_a_mask, calls=[(np.array([1.0, -2.0, 3.0, 0.5]),),
                                      (np.array([-1.0, -2.0]),), (np.array([2.0, 2.0, -1.0]),)],
          exact=True)


def test_histogram_errors_and_refusals():
    x = np.array([1.0, np.inf])
    raised = []
    agree(lambda v: np.histogram(v), calls=[(np.array([1.0, 2.0]),), (x,)], errors=raised)
    assert raised and all("not finite" in m for *_, m in raised), raised
    with pytest.raises(NotImplementedError, match="'auto'"):
        ag.defun(lambda v: np.histogram(v, "auto"), backend="interpreter")(x)
    with pytest.raises(NotImplementedError, match="number of bins must be a Python int"):
        ag.defun(lambda v, n: np.histogram(v, n), backend="interpreter")(x, I64(3))
    with pytest.raises(ValueError, match="max must be larger than min"):
        ag.defun(lambda v: np.histogram(v, range=(2, 1)), backend="interpreter")(x)
    with pytest.raises(ValueError, match="increase monotonically"):
        ag.defun(lambda v: np.histogram(v, [0, 2, 1]), backend="interpreter")(x)
