"""NumPy functions built from table ops (autograph_lite/numpy_composites.py) against NumPy
itself, three ways (plain NumPy, interpreter, cpu; arguments compared, two calls each):
roll, tile, repeat, flip, pad (every staged mode), meshgrid, diff, outer, round,
count_nonzero, var/std/average, conjugate/real/imag, einsum, convolve, interp, searchsorted,
np.array of tensors, np.arange of a tensor. One Function per test shares its kernels across the drawn shapes (sizes relax)."""
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions
from ops_strategies import arrays, dtypes, examples, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
F64, I64 = np.float64, np.int64


def _draw_and_agree(data, family, fn, functions, shape, lo=-100, hi=100, **kw):
    """A dtype of ``family`` and an array of it (NaN and infinities among floats), drawn,
    and ``fn`` run three ways on it."""
    x = data.draw(arrays(data.draw(dtypes(family)), shape, nan=True, lo=lo, hi=hi))
    agree(fn, x, functions=functions, **kw)


def reorder(x):
    return (np.roll(x, 1), np.roll(x, -2, axis=0), np.roll(x, (1, 3), axis=(0, 1)),
            np.tile(x, 2), np.tile(x, (2, 1, 3)), np.repeat(x, 2), x.repeat(3, axis=-1),
            np.flip(x), np.fliplr(x), np.flipud(x), np.flip(x, axis=1))


def pads(x):
    w = ((1, 2), (0, 3))
    return (np.pad(x, 1), np.pad(x, w, constant_values=-1.5), np.pad(x, w, mode="edge"),
            np.pad(x, w, mode="wrap"), np.pad(x, ((3, 4), (2, 5)), mode="reflect"),
            np.pad(x, ((3, 4), (2, 5)), mode="symmetric"))


def differences(x):
    return (np.diff(x), np.diff(x, n=2, axis=0), np.diff(x, prepend=0.0),
            np.diff(x, append=x[:, :1]), np.diff(x > 0), np.diff(x, n=0),
            np.outer(x, x[0]), np.count_nonzero(x > 0), np.count_nonzero(x, axis=0))


def statistics(x, w):
    return (np.median(x), np.median(x, axis=0), np.median(x, axis=1, keepdims=True),
            np.var(x), x.var(axis=0), np.std(x, axis=1, ddof=1), x.std(keepdims=True),
            np.average(x), np.average(x, axis=0), np.average(x, axis=1, weights=w),
            np.average(x, weights=x * 0.0 + 2.0, returned=True))


_FNS = {f.__name__: shared_functions(f) for f in (reorder, pads, differences, statistics)}


@examples(8)
@given(arrays(F64, shapes(2, min_side=1)))
def test_reordering_matches_numpy(x):
    agree(reorder, x, functions=_FNS["reorder"], exact=True)


@examples(8)
@given(arrays(F64, shapes(2, min_side=1)))
def test_every_staged_pad_mode_matches_numpy(x):
    agree(pads, x, functions=_FNS["pads"], exact=True)


@examples(8)
@given(arrays(F64, shapes(2, min_side=1)))
def test_differences_match_numpy(x):
    agree(differences, x, functions=_FNS["differences"], exact=True)


@examples(8)
@given(st.data())
def test_statistics_match_numpy(data):
    x = data.draw(arrays(F64, shapes(2, min_side=1)))
    w = data.draw(arrays(F64, (x.shape[1],), lo=1, hi=5))
    agree(statistics, x, w, functions=_FNS["statistics"])


def test_integer_and_boolean_inputs():
    def f(a, b):
        return (np.var(a), np.std(a, axis=0), np.average(a, axis=1), np.roll(a, 2),
                np.median(a), np.median(a, axis=0),
                np.tile(b, 2), np.repeat(b, 2), np.pad(a, 1, constant_values=7.9),
                np.diff(b), np.round(a), np.count_nonzero(b))
    agree(f, np.arange(12, dtype=np.int32).reshape(3, 4) % 5,
          np.array([True, False, True]), exact=True)


def test_weights_that_sum_to_zero_raise_as_numpy():
    def f(x, w):
        return np.average(x, weights=w)
    agree(f, calls=[(np.arange(3.0), np.array([1.0, -1.0, 0.0])),
                    (np.arange(3.0), np.array([1.0, 1.0, 0.0]))])


def meshes(x, y, z):
    return np.meshgrid(x, y) + np.meshgrid(x, y, indexing="ij") + np.meshgrid(x, y, z)


def test_meshgrid_matches_numpy():
    agree(meshes, np.arange(3.0), np.arange(4) * 2, np.array([0.5, 1.5]), exact=True)


def rounding(x):
    return (np.round(x), np.round(x, 1), np.around(x, 2), x.round(3), np.round(x, -1),
            np.round(x.astype(np.float32), 2))


def test_round_matches_numpy():
    agree(rounding, np.array([0.5, 1.5, 2.5, -0.25, 1.2345, 12.5, 151.0, -7.45]), exact=True)


def rounding_integers(a):
    return np.round(a, -1), np.around(a, -2), a.round(-1), np.round(a, 2)


def test_round_of_integers_to_tens_matches_numpy():
    # (was NotImplementedError) NumPy's steps: / 10**-d in float64, half to even, * 10**-d,
    # cast back: past 2**53 the float's rounding shows, and an int8 result wraps
    agree(rounding_integers, np.array([15, 25, -35, 44, 2 ** 62 + 1, -128, 5]), exact=True)
    agree(rounding_integers, np.array([15, 25, -125, 127], dtype=np.int8), exact=True)
    agree(rounding_integers, np.array([250, 15, 5], dtype=np.uint8), exact=True)
    agree(lambda b: np.round(b, -1), np.array([True, False]))  # NumPy's TypeError


def complex_parts(x):
    return np.conjugate(x), np.conj(x), x.conj(), x.real * 2.0, np.real(x), x.imag, np.imag(x)


def test_complex_parts_of_real_arrays():
    agree(complex_parts, np.array([1.0, -2.0, 3.5]), exact=True)


def arrays_of_tensors(x, n):
    a = np.array([x[0], x[1] * 2.0, n * 1.0])
    b = np.array([[x[0], x[1]], [x[2], x[0]]], dtype=np.float32)
    c = np.asarray(x)
    c[0] = -1.0                      # np.asarray of an array is that array: x is written
    d = np.array(x)
    d[1] = -2.0                      # np.array copies
    return a, b, np.arange(n) * 0.5, np.arange(1, n + 2, 2), d


def test_np_array_of_tensors_and_arange_of_a_tensor():
    agree(arrays_of_tensors, calls=[(np.arange(3.0), I64(4)), (np.ones(3), I64(1))],
          exact=True)


def arange_by(x, step):
    return np.arange(0, x.shape[0], step) * 1.0, np.arange(5, 0, -2), np.arange(0.0, 1.0, 0.25)


def test_a_zero_arange_step_raises_numpys_error():
    # NumPy: ValueError for a NumPy number step (a tensor here), checked at run time...
    raised = []  # (agree checks each side raised NumPy's exception type)
    agree(arange_by, calls=[(np.ones(4), I64(2)), (np.ones(3), I64(0))], errors=raised)
    assert len(raised) == 2 and all("Maximum allowed size" in m for *_, m in raised), raised
    # ...and ZeroDivisionError when every part is a Python number
    with pytest.raises(ZeroDivisionError):
        ag.defun(lambda x: np.arange(0, 3, 0) * x, backend="interpreter")(1.0)


def float_aranges(x, s):
    return (np.arange(x, 0.0, s), np.arange(0.0, x, -s), np.arange(x, 0.0, s, dtype=np.float32),
            np.arange(np.float32(0.1), x, -s))


def test_arange_of_float_tensors_has_numpys_values():
    # NumPy computes start + i * delta, delta = (start + step) - start, in the result dtype;
    # Numba's start + i * step differed in the last bits (np.arange(1.0, 0, -0.3)[2])
    agree(float_aranges, calls=[(F64(1.0), F64(-0.3)), (F64(2.3), F64(-0.3)),
                                (F64(7.7), F64(-0.1))], exact=True)


def write_through_flip(x):
    y = x * 1.0
    v = np.flip(y)
    v[0] = 9.0                       # a view, as NumPy's: y's last element
    return y


def test_flip_is_a_view():
    agree(write_through_flip, np.arange(4.0), exact=True)


# -- counts and quantiles known only at run time -----------------------------------------------
def run_time_counts(x, n, counts, q):
    # (a count per element: searchsorted in the counts' running total; q: any shape)
    return (np.repeat(x, n), np.tile(x, (n, 2)), x.repeat(counts), np.repeat(x, counts[:1]),
            np.tile(x[:2], np.stack([n, n + 1])), np.repeat(x, counts > 0),
            np.percentile(x, q), np.quantile(x, q / 100, method="nearest"),
            np.percentile(x, np.stack([q, 100 - q]).reshape(2, 1), axis=0, keepdims=True),
            np.percentile(x.astype(np.float32), np.float32(q)))


_RUN_TIME_COUNTS = shared_functions(run_time_counts)


def test_counts_and_quantiles_known_only_at_run_time_match_numpy():
    # (np.repeat/np.tile/np.percentile refused a tensor count or q before session 41)
    agree(run_time_counts, calls=[
        (np.array([3.0, -1.0, 7.5, 0.0, 2.0]), np.int64(2), np.array([1, 0, 3, 1, 2]),
         np.float64(30.0)),
        (np.array([4.0, np.nan, 2.5]), np.int64(1), np.array([0, 0, 2]), np.float64(100.0))],
        functions=_RUN_TIME_COUNTS, exact=True)


def float32_quantiles(x, q):
    return np.quantile(x, q), np.percentile(x, 100 * q), np.bincount(
        np.arange(x.size) % 2, weights=x)


def test_a_python_float_q_keeps_float32_data_float32_and_complex_weights_raise():
    # (a relaxed Python float q, a weak 0-d input from the second call, computed in
    # float64; np.bincount dropped complex weights' imaginary parts: session 46)
    x = np.array([0.1, 0.7, 0.3], np.float32)
    agree(float32_quantiles, calls=[(x, 0.25), (x, 0.3), (np.arange(4.0), 0.5)], exact=True)
    raised = []
    agree(lambda i, w: np.bincount(i, weights=w), calls=[
        (np.array([0, 1]), np.array([1 + 1j, 2j])), (np.array([1, 1]), np.ones(2))],
        errors=raised)
    assert raised and all("Cannot cast array data" in m for _, _, m in raised)


def empty_pads_and_axes(x, e):
    # (session 46: a constant pad of an empty axis raised IndexError, negative transpose
    # axes and a tuple of new axes were refused)
    return (np.pad(e, 1), np.pad(e, ((0, 1), (2, 0)), constant_values=7), np.pad(x, (1, 2)),
            x.transpose(-1, 0, 1), np.transpose(x, (0, -1, -2)),
            np.expand_dims(x, (0, -1)), np.expand_dims(x, [1]))


def edge_pad(e):
    return np.pad(e, 1, mode="edge")


def test_pads_of_empty_axes_negative_transpose_axes_and_tuples_of_new_axes():
    x = np.arange(24.0).reshape(2, 3, 4)
    agree(empty_pads_and_axes, calls=[(x, np.zeros((0, 2))), (x + 1, np.ones((2, 0)))],
          exact=True)
    raised = []
    agree(edge_pad, calls=[(np.zeros((0, 2)),), (np.zeros((2, 0)),)], errors=raised)
    assert raised and all("can't extend empty axis" in m for _, _, m in raised)
    raised = []
    agree(lambda a: np.argmax(a, axis=(0, 1)), calls=[(x,), (x[0],)], errors=raised)
    agree(lambda a: np.linalg.norm(a, ord=3), calls=[(x[0],), (x[1],)], errors=raised)
    assert len(raised) == 8, raised


def checked_counts(x, n, counts, q):
    return np.repeat(x, n), np.tile(x, n), x.repeat(counts), np.percentile(x, q)


_CHECKED_COUNTS = shared_functions(checked_counts)


def test_run_time_counts_and_quantiles_get_numpys_errors():
    x, ok = np.arange(3.0), (np.int64(1), np.array([1, 2, 0]), np.float64(50.0))
    messages = []
    agree(checked_counts, calls=[
        (x,) + ok,
        (x, np.int64(-1)) + ok[1:],
        (x, ok[0], np.array([1, -2, 0]), ok[2]),
        (x, ok[0], np.array([1, 2]), ok[2]),
        (x,) + ok[:2] + (np.float64(100.5),),
        (x,) + ok[:2] + (np.float64(np.nan),)], functions=_CHECKED_COUNTS, errors=messages)
    texts = {m.split(" (at ")[0] for _, _, m in messages}
    assert texts == {"negative dimensions are not allowed",
                     "repeats may not contain negative values.",
                     "operands could not be broadcast together with shape (3,) (2,)",
                     "Percentiles must be in the range [0, 100]"}, texts
    assert all("test_composites.py:" in m for _, _, m in messages)


def test_matrix_transposes_are_views_as_numpys():
    def swap(x):
        y = x.reshape(2, 3, 2)
        t = y.mT
        t[0, 0, 1] = -1.0   # (a view: written through into x)
        return t, np.matrix_transpose(y), np.linalg.matrix_transpose(y[0])
    agree(swap, np.arange(12.0), exact=True)
    for fn, match in ((lambda x: x.mT, "matrix transpose with ndim < 2 is undefined"),
                      (np.matrix_transpose, "at least 2-dimensional, but it is 1")):
        with pytest.raises(ValueError, match=match):
            ag.defun(fn, backend="interpreter")(np.arange(3.0))


# -- refusals name what and where ------------------------------------------------------------
def math_on_a_tensor(x):
    import math
    return math.hypot(x[0], x[1])


@pytest.mark.parametrize("fn,error,match", [
    (math_on_a_tensor, TypeError, r"math\.hypot\(\) at .*test_composites\.py:\d+ has no "
                                  r"staged form.*np\.hypot"),
    (lambda x: np.pad(x, 1, mode="mean"), NotImplementedError, "np.pad mode 'mean'"),
    (lambda x: np.repeat(x, 2.5), TypeError, "np.repeat's repeats"),
    (lambda x: np.tile(x, x[:2].reshape(1, 2).astype(np.int64)), TypeError, "np.tile's reps"),
    (lambda x: np.sum(x, axis=x[0].astype(np.int64)), TypeError,
     r"axis must be known while tracing .*test_composites\.py:\d+"),
    (lambda x: x.sum(axis=x[0].astype(np.int64)), TypeError,  # (a method: the line too)
     r"axis must be known while tracing .*test_composites\.py:\d+"),
    (lambda x: np.roll(x, x[0].astype(np.uint64)), TypeError, "np.roll's shift"),  # (int: staged)
    (lambda x: np.polyfit(x, x, 1), TypeError,
     r"np\.polyfit at .*test_composites\.py:\d+ has no staged"),
    # an ndarray method with no staged form: a TypeError naming it, never AttributeError
    (lambda x: x.partition(1), TypeError,
     r"array attribute \.partition at .*test_composites\.py:\d+ has no staged form"),
    # NumPy repeats a list times a 0-d int array; never an elementwise product
    (lambda x: np.array([0.0] * x[0].astype(np.int64)), TypeError, "repeated a tensor number"),
])
def test_what_is_not_staged_is_refused_naming_it(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.arange(3.0))


def sorting(x, y):
    s = y * 1.0
    s.sort()                          # in place, as NumPy's method: None, s sorted
    return (np.sort(x), np.sort(x, axis=0), np.sort(x, axis=None), np.argsort(x),
            np.argsort(x, axis=0, kind="stable"), x.argsort(axis=None), s,
            np.cumprod(x), np.cumprod(x, axis=1), x.cumprod(axis=0), np.cumsum(x, axis=0))


def test_sort_argsort_and_cumprod_match_numpy():
    # distinct values: NumPy's default argsort leaves the order of ties unspecified (ours is
    # stable); NaNs sort last, as NumPy's
    x = np.array([[3.0, -1.0, 2.5, np.nan], [0.5, 7.0, -2.0, 1.5], [4.0, 0.25, -3.0, 9.0]])
    agree(sorting, x, np.array([5.0, -1.0, 3.0]), exact=True)
    agree(lambda a: (np.sort(a), np.argsort(a, kind="stable"), np.cumprod(a)),
          np.array([3, 1, 2, 1, 3], dtype=np.int32), exact=True)


def test_median_of_nan_and_even_lengths():
    agree(lambda x: (np.median(x), np.median(x[:2]), np.median(x[1:]), np.median(x, axis=0)),
          np.array([1.0, np.nan, 3.0, 2.0]), exact=True)


def medians_and_averages(x):
    return (np.median(x), np.median(x, axis=0), np.median(x, axis=1), np.average(x),
            np.average(x, axis=0), np.average(x, axis=1))


def test_median_and_average_of_empty_arrays_are_numpys():
    """An empty slice's median is NaN (a take of its middle raised IndexError); NumPy's
    unweighted average raises ZeroDivisionError for an empty result (x.size / avg.size is
    0 / 0), static or relaxed sizes."""
    raised = []
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        agree(medians_and_averages, calls=[(np.arange(6.0).reshape(2, 3),), (np.zeros((0, 3)),),
                                           (np.zeros((3, 0)),), (np.zeros((2, 2)),)],
              exact=True, errors=raised)
    assert raised and all("division by zero" in m for _, _, m in raised), raised
    agree(lambda x: (np.median(x), np.median(x, axis=0)),
          calls=[(np.zeros((0, 2), np.int64),), (np.arange(4).reshape(2, 2),)], exact=True)


def joins_and_closeness(x, y):
    return (np.append(x, y), np.append(x[None], y[None], axis=0), np.column_stack([x, y]),
            np.column_stack((x[:, None], y)), np.isclose(x, y), np.isclose(x, y, atol=0.5),
            np.isclose(x, x * np.nan, equal_nan=True), np.allclose(x, y),
            np.allclose(x, x + 1e-9), np.linalg.norm(x), np.linalg.norm(x, 1),
            np.linalg.norm(x, np.inf), np.linalg.norm(np.outer(x, y)),
            np.linalg.norm(np.outer(x, y), axis=1), np.linalg.norm((x > 0).astype(np.int64) - 2))


def test_joins_closeness_and_norms_match_numpy():
    agree(joins_and_closeness,
          calls=[(np.array([1.0, -2.0, 3.0]), np.array([1.0, -1.75, 9.0])),
                 (np.array([0.5, np.inf, -4.0]), np.array([0.5, np.inf, 4.0]))], rtol=1e-12)
    with pytest.raises(NotImplementedError, match="np.linalg.norm with ord=2 on a tensor of "
                                                  "rank 2"):
        ag.defun(lambda m: np.linalg.norm(m, 2), backend="interpreter")(np.eye(2))


def more_norms(m, v):
    return (np.linalg.norm(m, 1), np.linalg.norm(m, -1), np.linalg.norm(m, np.inf),
            np.linalg.norm(m, -np.inf, keepdims=True), np.linalg.norm(v, -np.inf),
            np.linalg.norm(v, 0), np.linalg.norm(v, 3), np.linalg.norm(v, 0.5))


def test_matrix_norms_one_and_inf_and_vector_p_norms_match_numpy():
    # (were NotImplementedError) NumPy's steps: column or row sums of |m|, their max
    # (initial 0: an empty matrix's norm is 0) or min; sum(|v| ** p) ** (1 / p)
    agree(more_norms, calls=[(np.array([[4.0, -1.0, 0.5], [2.0, 3.0, -7.0]]),
                              np.array([3.0, -4.0, 0.0, 1.5])),
                             (np.zeros((0, 3)), np.array([1.0, 2.0, -2.0, 0.0]))],
          rtol=1e-12)
    agree(lambda t: (np.linalg.norm(t, 1, axis=(0, 2)), np.linalg.norm(t, np.inf, axis=(2, 0)),
                     np.linalg.norm(t, -1, axis=(1, 2), keepdims=True)),
          np.arange(24.0).reshape(2, 3, 4) - 10.0, rtol=1e-12)



def equalities(x, y, m):
    return (np.array_equal(x, y), np.array_equal(x, x), np.array_equal(x, x[:3]),
            np.array_equal(x / 0.0, x / 0.0), np.array_equal(x / 0.0, x / 0.0, equal_nan=True),
            np.array_equiv(m[0], m), np.array_equiv(x, m), np.array_equiv(x[:1], m),
            np.array_equal(np.arange(3), [0, 1, 2]))


def equal_or_not(x, y):
    if np.array_equal(x, y):   # shapes known only at run time after the sizes relax
        return 1.0
    return 2.0


def test_array_equal_and_equiv_match_numpy():
    # before: "no staged counterpart"
    x = np.array([0.3, -1.2, 0.0, 4.1])
    agree(equalities, calls=[(x, x + (np.arange(4) == 1), np.tile(x, (3, 1))),
                             (x, x.copy(), np.tile(x, (2, 1)))], exact=True)
    agree(equal_or_not, calls=[(x, x.copy()), (x[:3], x[:3] * 2), (x, x[:2].copy()),
                               (x[:2], x[:2].copy()), (x[:1], x[:3].copy())],
          functions=shared_functions(equal_or_not), exact=True)

def python_numbers(x32, x8, a, b, k, m):
    s = 0.0
    for v in x32.tolist():                 # Python floats: float64 arithmetic
        s += v
    rows = m.tolist()
    return (x32 * a.item(), x32 * a.item(0), a.item() + 1, x32 * b.item(1, 0),
            b.item(2) > 1, x8 + k.item(), k.item() // 2, (k > 0).item() + x8, s,
            x32 * x32.tolist()[1], len(rows), rows[1][0] * x32, sum(rows[0]))


def test_item_and_tolist_give_python_numbers():
    # before: .item() a 0-d tensor of the array's dtype (x32 * a.item() was float64, a
    # silent difference); .tolist() refused
    agree(python_numbers, np.array([0.1, 0.2, 0.7], np.float32), np.arange(3, dtype=np.int8),
          np.array([0.1]), np.arange(6.0).reshape(3, 2), np.array([3]),
          np.arange(6.0).reshape(2, 3), exact=True)

def whole_norms(x, m):
    return (np.linalg.norm(x), np.linalg.norm(m), np.linalg.norm(m, "fro"),
            np.linalg.norm(x, 2), np.linalg.norm(m, keepdims=True),
            np.linalg.norm(x.astype(np.float32)), np.linalg.norm(np.arange(7)))


@pytest.mark.parametrize("n", [3, 17, 1001])
def test_the_norm_of_a_whole_array_is_numpys_bit_for_bit(n):
    # NumPy's is the dot product of the raveled array with itself (BLAS's order of sums);
    # a sum of squares differed from it in the last bit (a power iteration's eigenvalue)
    rng = np.random.default_rng(n)
    agree(whole_norms, rng.normal(size=n), rng.normal(size=(n, 3)), exact=True)

# -- ranks, stacks, broadcast_to, unique -------------------------------------------------------
def stacks(x, y, n):
    return (np.hstack((x, y)), np.hstack([x[:, None], y[:, None]]), np.vstack((x, y)),
            np.vstack([x[None], y]), np.dstack((x, y)), np.atleast_1d(n), np.atleast_2d(x),
            np.atleast_3d(x), np.atleast_3d(np.outer(x, y)), np.atleast_2d(n),
            np.atleast_1d(x, n), np.concatenate([x, y], dtype=np.float32),
            np.concatenate([np.outer(x, y), x[None]], axis=None),
            np.stack([x, y], axis=1, dtype=np.float64), np.hstack((x, [n, n])))


_STACKS = shared_functions(stacks)


@pytest.mark.parametrize("family", ["bool", "int", "uint", "float"])
@examples(4)
@given(data=st.data())
def test_stacks_and_ranks_match_numpy(family, data):
    dt = data.draw(dtypes(family))
    x = data.draw(arrays(dt, shapes(1)))
    y = data.draw(arrays(dt, (len(x),)))
    agree(stacks, x, y, data.draw(arrays(dt, ())), functions=_STACKS, exact=True)


def stack_views(x):
    v = np.atleast_2d(x)            # a view of x: the write below reaches x
    v[0, 0] = 7.0
    return np.hstack((x, x)), np.vstack((x, x))  # new arrays: not views


def test_atleast_gives_views_and_stacks_copy():
    agree(stack_views, np.arange(3.0), exact=True)
    agree(lambda x: np.concatenate([x, x], dtype=np.int64), np.arange(3.0), errors=[])


def broadcasts(x, n):
    b = np.broadcast_to(x, (3,) + x.shape)    # a view: sees the write into x below
    c = np.broadcast_to(x[:1], (n, 1))         # a size known only at run time
    x += 1.0
    return b * 1.0, c, np.broadcast_to(n, (2, 2)), np.broadcast_to(x[None], (n, x.shape[0]))


def write_through_broadcast(x):
    b = np.broadcast_to(x, (2,) + x.shape)
    b[0, 0] = 1.0                             # NumPy's view is read-only
    return b


_BROADCASTS = shared_functions(broadcasts)


@examples(6)
@given(arrays(F64, shapes(1, min_side=1)), st.integers(0, 3))
def test_broadcast_to_is_a_read_only_view_as_numpy(x, n):
    agree(broadcasts, x, I64(n), functions=_BROADCASTS, exact=True)


@pytest.mark.parametrize("fn,args", [
    (write_through_broadcast, (np.arange(3.0),)),
    (lambda x: np.broadcast_to(x, (2, 2)), (np.arange(3.0),)),      # sizes checked...
    (lambda x, n: np.broadcast_to(x, (n,)), (np.arange(3.0), I64(2))),  # ...at run time
    (lambda x: np.broadcast_to(x, (3,)), (np.ones((2, 3)),)),
    (lambda x: np.broadcast_to(x, (-1, 3)), (np.ones(3),)),
])
def test_broadcast_to_refuses_as_numpy(fn, args):
    raised = []  # (agree checks that each side raised NumPy's exception type)
    agree(fn, calls=[args, args], errors=raised)
    assert len(raised) == 4, raised


def uniques(x):
    return (np.unique(x), np.unique(x, return_counts=True),
            np.unique(x, return_index=True, return_inverse=True, return_counts=True),
            np.unique(x, equal_nan=False))


_UNIQUES = shared_functions(uniques)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(6)
@given(data=st.data())
def test_unique_matches_numpy(family, data):
    _draw_and_agree(data, family, uniques, _UNIQUES, shapes(2), lo=-3, hi=3, exact=True)


def test_unique_of_booleans_and_refusals():
    agree(lambda b: np.unique(b, return_inverse=True), np.array([True, False, True]),
          exact=True)
    # (a 0-d array's inverse is 0-d, the input's shape: it was (1,) until session 47)
    agree(lambda x: np.unique(x, return_inverse=True), np.array(5), exact=True)
    with pytest.raises(TypeError, match="one int"):
        ag.defun(lambda x: np.unique(x, axis=(0, 1)), backend="interpreter")(np.ones((2, 2)))


def unique_slices(x):
    return (np.unique(x, axis=0), np.unique(x, axis=1, return_inverse=True),
            np.unique(x, axis=-1, return_index=True, return_counts=True),
            np.unique(x[:, :1], axis=0, return_inverse=True))


_UNIQUE_SLICES = shared_functions(unique_slices)


@examples(6)
@given(data=st.data())
def test_unique_along_an_axis_matches_numpy(data):
    # (integers: NumPy sorts the slices as records, unstably, so which of -0.0 and 0.0
    # stands for equal rows is its sort's choice)
    _draw_and_agree(data, "int", unique_slices, _UNIQUE_SLICES, shapes(3, min_side=0),
                    lo=-2, hi=2, exact=True)


def test_unique_along_an_axis_keeps_rows_with_nans_apart():
    x = np.array([[1.0, np.nan], [1.0, np.nan], [0.0, 2.0], [1.0, 0.0], [0.0, 2.0]])
    agree(lambda x: np.unique(x, axis=0, return_index=True, return_inverse=True,
                              return_counts=True), x, exact=True)


def quantiles(x):
    return (np.percentile(x, 50), np.percentile(x, 33.3), np.percentile(x, [0, 25, 100]),
            np.quantile(x, 0.4), np.quantile(x, [0.1, 0.9], axis=0),
            np.percentile(x, 75, axis=1), np.percentile(x, [10, 50], axis=1, keepdims=True),
            np.percentile(x, 20, keepdims=True))


_QUANTILES = shared_functions(quantiles)


def quantiles_over_axes(x, qs):
    return (np.percentile(x, 50, axis=(0, 1)), np.quantile(x, [0.2, 0.9], axis=(0, 2),
                                                            keepdims=True),
            np.percentile(x, 30, axis=(2,)),
            np.quantile(x, 0.3, axis=(-1, 0), keepdims=True, method="lower"),
            np.quantile(x[0, 0], qs[qs > 0]), np.percentile(x, qs[qs > 0] * 100, axis=1))


def test_quantiles_over_several_axes_and_of_run_time_many_qs():
    """(session 48: a tuple axis was refused as "one axis must be a Python int", np.median's
    was staged; a q whose length is known only at run time failed with an internal
    "a shape must hold ints")"""
    rng = np.random.default_rng(2)
    agree(quantiles_over_axes, calls=[
        (np.arange(24.0).reshape(2, 3, 4), np.array([0.1, -1.0, 0.5])),
        (rng.random((3, 2, 5)).astype(np.float32), np.array([-1.0, 0.9])),
        (np.arange(12).reshape(2, 2, 3), np.array([0.0, 1.0, 0.25, 0.7]))], exact=True)


def quantile_methods(x):
    # the methods besides 'linear': the element below / above / nearest (half to even:
    # an int result for int data) and the midpoint of the two around
    return tuple(f(x, q, **kw, method=m) for m in ("lower", "higher", "nearest", "midpoint")
                 for f, q, kw in ((np.percentile, 37.5, {}), (np.quantile, [0.0, 0.5, 1.0],
                                                             {"axis": 0}),
                                  (np.percentile, 50, {"axis": 1, "keepdims": True})))


_QUANTILE_METHODS = shared_functions(quantile_methods)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(6)
@given(data=st.data())
def test_percentile_and_quantile_match_numpy_bit_for_bit(family, data):
    # (a Python-number q is NumPy's weak scalar: float32 data gives float32; NaN, inf)
    _draw_and_agree(data, family, quantiles, _QUANTILES, shapes(2, min_side=1), exact=True)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(6)
@given(data=st.data())
def test_quantile_methods_match_numpy_bit_for_bit(family, data):
    _draw_and_agree(data, family, quantile_methods, _QUANTILE_METHODS, shapes(2, min_side=1),
                    exact=True)


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: np.percentile(x, 150), ValueError, r"Percentiles must be in the range"),
    (lambda x: np.quantile(x, [0.5, -0.1]), ValueError, r"Quantiles must be in the range"),
    (lambda x: np.percentile(x, x[:1].astype(np.complex128)), TypeError,  # (NumPy's)
     "'floor' not supported for the input types"),
    (lambda x: np.quantile(x, 0.5, method="weibull"), NotImplementedError,
     "'linear', 'lower', 'higher', 'nearest', 'midpoint' are"),
    (lambda x: np.percentile(x.astype(np.complex128), 5), TypeError, "real numbers"),
])
def test_quantile_refusals(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.arange(3.0))


def _weibull(x):
    return np.quantile(x, 0.5, method="weibull")  # the-refused-method


def test_a_front_functions_refusal_names_the_users_line():
    # (numpy_api.array_function adds the location to what a front function raises)
    with pytest.raises(NotImplementedError, match=r"test_composites.py:\d+\)") as e:
        ag.defun(_weibull, backend="interpreter")(np.arange(3.0))
    import linecache
    line = int(str(e.value).rsplit(":", 1)[1].rstrip(")"))
    assert "the-refused-method" in linecache.getline(__file__, line)


# -- einsum, convolve, interp, searchsorted ------------------------------------------------------
def contractions(x, y, v):
    return (np.einsum("ij,ij->i", x, y), np.einsum("ij,kj->ik", x, y), np.einsum("ij->", x),
            np.einsum("ij", x), np.einsum("ji", x), np.einsum("i,i", v, v),
            np.einsum("i,j->ij", v, v), np.einsum("ij,j->i", x, v), np.einsum("ij->j", x),
            np.einsum("ij, ij", x, y), np.einsum("ij,kj,k->i", x, y, x[:, 0]))


_CONTRACT = shared_functions(contractions)


@examples(6)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_einsum_matches_numpy(n, m, data):
    x, y = (data.draw(arrays(F64, (n, m))) for _ in range(2))
    agree(contractions, x, y, data.draw(arrays(F64, (m,))), functions=_CONTRACT,
          rtol=1e-12, atol=1e-12)


def write_through_einsum(x):
    t = np.einsum("ij->ji", x)  # NumPy's view: it sees the write below
    s = np.einsum("ij->i", x)   # a new array: it does not
    x[0, 1] = 50
    return t, s


def test_einsum_dtypes_and_views_match_numpy():
    i32 = np.arange(6, dtype=np.int32).reshape(2, 3) * 1_000_000_000  # int32 sums wrap
    agree(lambda a: (np.einsum("ij->j", a), np.einsum("ij,ij->", a, a)), i32, exact=True)
    b = np.array([[True, False], [False, False]])
    agree(lambda a: (np.einsum("ij,ij->i", a, a), np.einsum("i,i", a[0], a[1])), b,
          exact=True)
    agree(write_through_einsum, np.arange(6.0).reshape(2, 3), exact=True)


def diagonal_einsums(m, a3, x):
    return (np.einsum("ii", m), np.einsum("ii->i", m), np.einsum("iji->j", a3),
            np.einsum("ij,jj->i", x, m), np.einsum("ii,i->", m, m[0]),
            np.einsum("iij->ij", a3))


def diagonal_view(m):
    d = np.einsum("ii->i", m)   # NumPy's view: it sees the write below
    m[0, 0] = 100.0
    return d.copy()


def write_through_a_diagonal(m):
    np.einsum("ii->i", m)[0] = 5.0   # NumPy's view is writeable: refused, never lost


def test_einsum_with_a_letter_repeated_in_an_operand_takes_its_diagonal():
    # before: NotImplementedError
    agree(diagonal_einsums, np.arange(9.0).reshape(3, 3), np.arange(27.0).reshape(3, 3, 3),
          np.ones((2, 3)), rtol=1e-12)
    agree(diagonal_view, np.arange(9.0).reshape(3, 3), exact=True)
    raised = []
    agree(lambda x: np.einsum("ii", x), calls=[(np.zeros((3, 4)),)] * 2, errors=raised)
    assert raised and all("collapsing index 'i' don't match" in m for *_, m in raised)
    with pytest.raises(ValueError, match="read-only"):
        ag.defun(write_through_a_diagonal, backend="interpreter")(np.eye(3))


@pytest.mark.parametrize("sub,error,match", [
    ("...i->i", NotImplementedError, r"'\.\.\.'"),
    # (NumPy's own errors, its words: session 53, numpy_api.numpy_raises_too)
    ("ij,jk->ik", ValueError, "more operands provided to einstein sum function"),
    ("ijk->i", ValueError, "too many subscripts for operand 0"),
    ("ij->k", ValueError, "output subscript 'k' which never appeared in an input"),
])
def test_einsum_refusals(sub, error, match):
    with pytest.raises(error, match=match):
        ag.defun(lambda x: np.einsum(sub, x), backend="interpreter")(np.ones((2, 2)))


def convolutions(a, v):
    return np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(a, v, mode="valid")


_CONVOLVE = shared_functions(convolutions)


@examples(8)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_convolve_matches_numpy_for_every_mode_and_length(n, m, data):
    # lengths vary between calls: the second shape relaxes the sizes, the output's
    # length is then computed in the kernel
    agree(convolutions, data.draw(arrays(F64, (n,))), data.draw(arrays(F64, (m,))),
          functions=_CONVOLVE, rtol=1e-12, atol=1e-9)


def test_convolve_dtypes_and_empty_inputs_match_numpy():
    agree(convolutions, np.arange(5), np.array([1, -2, 3], dtype=np.int32), exact=True)
    agree(convolutions, np.array([True, False, True]), np.array([False, True]), exact=True)
    errors = []
    agree(convolutions, calls=[(np.ones(3), np.ones(2)), (np.ones(0), np.ones(2)),
                               (np.ones(3), np.ones(0))], errors=errors)
    said = {re.split(r"\s\(at ", m)[0] for _, _, m in errors}  # (NumPy's text, a note)
    assert said == {"a cannot be empty", "v cannot be empty"}, errors


def interpolations(x, xp, fp):
    return (np.interp(x, xp, fp), np.interp(x, xp, fp, left=-7.0, right=9.0),
            np.searchsorted(xp, x), np.searchsorted(xp, x, side="right"),
            np.interp(x[0], xp, fp))


def test_interp_and_searchsorted_match_numpy_at_every_special_case():
    # exact hits, the last point, repeated sample points (an infinite slope), an infinite
    # sample, values beyond both ends, NaN and infinities; one and two sample points
    xp = np.array([0.0, 1.0, 1.0, 2.5, 4.0])
    fp = np.array([1.0, np.inf, 3.0, -2.0, 5.0])
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.9, 4.0, 4.5, np.nan, np.inf, -np.inf])
    agree(interpolations, calls=[(x, xp, fp), (x, xp[:1], fp[:1]), (x, xp[:2], fp[:2]),
                                 (x[::-1], np.arange(5), np.arange(5) * 2)], exact=True)
    with pytest.raises(ValueError, match="fp and xp are not of the same length"):
        ag.defun(np.interp, backend="interpreter")(x, xp, fp[:3])
    with pytest.raises(NotImplementedError, match="complex"):
        ag.defun(np.interp, backend="interpreter")(x, xp, fp * 1j)


def counts(x, w, m):
    return (np.bincount(x), np.bincount(x, minlength=m), np.bincount(x, weights=w),
            np.bincount(x, w, m), np.bincount(x > 2))


def test_bincount_matches_numpy_with_weights_minlength_and_its_errors():
    rng = np.random.default_rng(7)
    calls = [(rng.integers(0, 6, n), rng.standard_normal(n), m)
             for n, m in ((5, 3), (7, 10), (4, 0), (6, 8))]
    agree(counts, calls=calls, exact=True)
    errors = []
    agree(counts, calls=[(np.array([1, 2]), np.ones(2), 0), (np.array([1, -1]), np.ones(2), 0),
                         (np.array([1, 2]), np.ones(3), 0), (np.array([1, 2]), np.ones(2), -1)],
          errors=errors)
    said = {m.split(" (at ")[0] for _, _, m in errors}
    assert said == {"'list' argument must have no negative elements",
                    "The weights and list don't have the same length.",
                    "'minlength' must not be negative"}, errors
    # an empty array: NumPy's int64 zeros (weights or not) when the trace knows it is empty;
    # a trace typed for float64 weight sums refuses it rather than change the dtype
    agree(lambda x, w: (np.bincount(x), np.bincount(x, w, minlength=3)),
          np.zeros(0, np.int64), np.zeros(0), exact=True)
    f = ag.defun(lambda x, w: np.bincount(x, w), backend="cpu")
    for n in (3, 4, 5, 6, 7, 8):
        f(np.arange(n), np.ones(n))
    with pytest.raises(NotImplementedError, match="empty array with weights is int64"):
        f(np.zeros(0, np.int64), np.zeros(0))
    with pytest.raises(TypeError, match="Cannot cast array data from dtype"):
        ag.defun(np.bincount, backend="interpreter")(np.ones(3))


def linear_systems(a, b):
    return (np.linalg.solve(a, b), np.linalg.solve(a, np.stack([b, 2 * b], axis=1)),
            np.linalg.inv(a), np.linalg.det(a), np.linalg.det(a[:1, :1]))


_LINALG = shared_functions(linear_systems)


@examples(6)
@given(st.integers(1, 5), st.data())
def test_solve_inv_det_match_numpy(n, data):
    a = data.draw(arrays(F64, (n, n))) + 500.0 * np.eye(n)  # (well conditioned)
    b = data.draw(arrays(F64, (n,)))
    # (two calls of our own: the default second call rolls the values off the diagonal;
    # pivots far from subnormal, where LAPACK's and OpenBLAS's reciprocals decide NaNs)
    agree(linear_systems, calls=[(a, b), (a[::-1, ::-1].copy(), b[::-1].copy())],
          functions=_LINALG, rtol=1e-10, atol=1e-12)


def test_linalg_dtypes_singular_matrices_and_nans_match_numpy():
    ints = np.array([[2, 1], [1, 3]], np.int32)
    agree(lambda a: (np.linalg.det(a), np.linalg.inv(a), np.linalg.solve(a, a[0])), ints,
          rtol=1e-12)
    agree(lambda a: (np.linalg.inv(a), np.linalg.det(a)), ints.astype(np.float32), rtol=1e-6)
    agree(lambda a: (np.linalg.solve(a, a[:, 0]), np.linalg.det(a)),
          np.array([[1 + 1j, 2.0], [0.5j, 3.0]]), rtol=1e-12)
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    errors = []
    agree(lambda a: np.linalg.solve(a, a[0]), calls=[(np.eye(2),), (singular,)], errors=errors)
    agree(lambda a: np.linalg.inv(a), calls=[(np.eye(2),), (singular,)], errors=errors)
    assert {m.split(" (at ")[0] for _, _, m in errors} == {"Singular matrix"}, errors
    agree(lambda a: np.linalg.det(a), singular, exact=True)  # (0.0, no error)
    # NaNs propagate as LAPACK's do (Numba's own solve raises on them)
    agree(lambda a: np.linalg.solve(a, a[1]), np.array([[1.0, np.nan], [2.0, 4.0]]),
          exact=True)
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        ag.defun(np.linalg.inv, backend="interpreter")(np.ones((2, 3)))
    with pytest.raises(NotImplementedError, match="batch axes broadcast"):
        ag.defun(np.linalg.solve, backend="interpreter")(np.ones((2, 2, 2)), np.ones((3, 2, 1)))


def stacked_systems(a, b, bk, b2):
    """Stacks of matrices, as NumPy 2 takes them: b (M,) one vector per matrix, else
    (..., M, K) with equal batch axes or none on one side."""
    return (np.linalg.inv(a), np.linalg.det(a), np.linalg.cholesky(a),
            np.linalg.cholesky(a, upper=True), np.linalg.solve(a, b), np.linalg.solve(a, bk),
            np.linalg.solve(a, b2), np.linalg.solve(a[0, 0], bk))


_STACKED = shared_functions(stacked_systems)


@examples(4)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.data())
def test_stacks_of_matrices_match_numpy(p, q, n, data):
    m = data.draw(arrays(F64, (p, q, n, n)))
    a = m @ np.swapaxes(m, -1, -2) + 50.0 * np.eye(n)   # (positive definite)
    args = (a, data.draw(arrays(F64, (n,))), data.draw(arrays(F64, (p, q, n, 2))),
            data.draw(arrays(F64, (n, 2))))
    agree(stacked_systems, calls=[args, tuple(x * 0.5 for x in args)], functions=_STACKED,
          rtol=1e-10, atol=1e-12)


_INTERP = shared_functions(lambda x, xp, fp: np.interp(x, xp, fp))


@examples(10)
@given(st.integers(1, 6), st.integers(1, 8), st.data())
def test_interp_matches_numpy_on_drawn_samples(m, n, data):
    # sorted sample points with repeats, values inside, outside and on them, in any order
    xp = np.sort(data.draw(arrays(F64, (m,), lo=-4, hi=4)))
    x = data.draw(arrays(F64, (n,), lo=-5, hi=5))
    fp = data.draw(arrays(F64, (m,)))
    # (two calls of our own: the default second call rolls xp, which must stay sorted)
    agree(lambda x, xp, fp: np.interp(x, xp, fp), calls=[(x, xp, fp), (x[::-1], xp, fp[::-1])],
          functions=_INTERP, exact=True)


# -- elementwise functions that are not ufuncs; Tensor.item and Tensor.fill ----------------------
def not_ufuncs(x):
    return (np.sinc(x), np.isposinf(x), np.isneginf(x), np.nan_to_num(x),
            np.nan_to_num(x, nan=-1.5, posinf=7.0, neginf=-7.0))


_NOT_UFUNCS = shared_functions(not_ufuncs)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(6)
@given(data=st.data())
def test_sinc_isposinf_isneginf_nan_to_num_match_numpy(family, data):
    # sinc: NumPy's own steps (pi * where(x == 0, 1e-20, x), sin(y) / y); sin is libm's in
    # the kernel and NumPy's SIMD loop in the oracle, hence the tolerance for floats
    _draw_and_agree(data, family, not_ufuncs, _NOT_UFUNCS, shapes(1), rtol=1e-12, atol=1e-15)


def items_and_fill(x, m, k):
    m.fill(k)  # cast as NumPy casts (unsafe: 2.75 -> 2 in an int array)
    return x.item(0), x[1:2].item(), x.item(-1), x.reshape(2, -1).item(1, 0), x.item((0,))


def test_item_and_fill_three_ways():
    agree(items_and_fill, np.arange(6.0) * 1.5, np.zeros(3, np.int32), 2.75, exact=True)
    agree(items_and_fill, np.arange(6.0) * 1.5, np.ones((2, 2)), np.float64(-0.5), exact=True)
    t = ag.constant(np.array([3.5]))
    assert t.item() == 3.5 and type(t.item()) is float  # an eager tensor: a Python number


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: x.item(), ValueError, "can only convert an array of size 1"),
    (lambda x: x[:0].item(), ValueError, "can only convert an array of size 1"),
    (lambda x: x.item(0, 1), ValueError, "incorrect number of indices"),
    (lambda x: np.nan_to_num(x.astype(np.complex128)), NotImplementedError, "z.real"),
])
def test_item_and_nan_to_num_refusals(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.arange(3.0))
    if error is ValueError and "size 1" in match:
        with pytest.raises(error, match=match):  # (NumPy's own error, as NumPy words it)
            fn(np.arange(3.0))


def test_item_of_a_size_known_at_run_time_is_checked_there():
    f = ag.defun(lambda x, n: x[:n].item())
    assert f(np.arange(3.0), np.int64(1)) == 0.0
    with pytest.raises(ValueError, match="can only convert an array of size 1"):
        f(np.arange(3.0), np.int64(2))


def medians_over_axes(x):
    return (np.median(x, axis=(0, 2)), np.median(x, axis=(2, 0), keepdims=True),
            np.median(x, axis=[1]), np.median(x, axis=(-1, -2)))


def test_median_over_several_axes_is_numpys():
    """(refused before session 40: one axis or all)"""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 4))
    x[1, 0, 2] = np.nan
    agree(medians_over_axes, calls=[(rng.normal(size=(2, 3, 4)),), (rng.normal(size=(3, 1, 5)),),
                                    (x,), (np.arange(24).reshape(2, 3, 4),)], exact=True)
