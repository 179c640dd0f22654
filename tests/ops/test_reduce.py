"""Reductions (axis int/tuple/negative, keepdims), argmax/argmin with NaN, cumsum: against
NumPy itself, every rank <= 3 and dtype family drawn (Explored), contiguous and strided."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree
from ops_strategies import ALL, FAMILIES, RANKS, Explored, arrays, dtypes, layouts, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

REDUCTIONS = ["sum", "mean", "max", "min", "prod", "any", "all"]


def _agree(f, *args, **kw):
    return agree(f, *args, autograph=False, independent=True, **kw)


@st.composite
def axis_for(draw, ndim):
    """None, an int (maybe negative) or a tuple of distinct axes (maybe negative)."""
    if ndim == 0:
        return None
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-ndim, ndim - 1))
    axes = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return tuple(a - ndim if draw(st.booleans()) else a for a in axes)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_axis_keepdims(name):
    """Each example: a rank, a dtype family, an axis (None, int, negative, tuple) and
    keepdims; the input contiguous and strided (the strided view reduced with the
    other keepdims)."""
    explored = Explored(rank=RANKS, family=FAMILIES)
    fn = getattr(np, name)

    @given(data=st.data())
    def check(data):
        family = data.draw(st.sampled_from(sorted(FAMILIES)))
        dt = data.draw(dtypes(family))
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS)),
                                 min_side=1 if name in ("max", "min") else 0))
        x = data.draw(arrays(dt, shape, lo=-3, hi=3))
        axis = data.draw(axis_for(len(shape)))
        keepdims = data.draw(st.booleans())
        explored.note(rank=len(shape), family=family)

        def f(*xs):
            return tuple(fn(v, axis=axis, keepdims=keepdims != (i == 1))
                         for i, v in enumerate(xs))
        _agree(f, *layouts(x), rtol=1e-5 if dt == np.float32 else 1e-12)
    check()
    explored.check()


@pytest.mark.parametrize("dt", ALL)
def test_reduction_dtypes(dt):
    x = (np.arange(12).reshape(3, 4) % 5 - 1).astype(dt)

    def f(x):
        # sum/prod of small ints widen to int64, of bool to int64; mean of ints is float64
        return (np.sum(x), np.sum(x, axis=0), np.prod(x, axis=1), np.max(x, axis=-1),
                np.min(x), np.any(x, axis=0), np.all(x), np.mean(x, axis=1), x.sum(axis=1),
                x.max())
    _agree(f, x)


def test_a_sum_asked_for_in_a_small_int_dtype_wraps_as_numpys():
    # np.sum(a, dtype=np.int8) accumulates in int8: 100 + 100 + 7 wraps to -49
    def f(a):
        return (np.sum(a, dtype=np.int8), a.prod(dtype=np.int8), np.cumsum(a, dtype=np.int8),
                np.cumprod(a, dtype=np.int16), a.sum(axis=0, dtype=np.uint8),
                np.sum(a > 0, dtype=np.int8), np.mean(a, dtype=np.float32))
    _agree(f, np.array([100, 100, 7], np.int8), exact=True)


def test_reductions_of_fused_expressions():
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    _agree(lambda x: (np.max(np.abs(x * 2.5), axis=1), np.sum(x * x), np.mean(x - 1, axis=0),
                      np.any(x > 1.5, axis=1), np.all(x < 3), np.sum(x > 0)), x, rtol=2e-6)


def float32_statistics(x, m):
    return (x.sum(), x.mean(), np.sum(x * 0.5 + 1.0), x.var(), x.std(), m.sum(axis=1),
            m.mean(axis=-1, keepdims=True), m.sum(axis=0), m.sum(keepdims=True),
            np.nanmean(x), m[:, ::2].sum())


def test_float32_sums_are_numpys_pairwise_sums_bit_for_bit():
    """float32 sums over all axes or the last one add in NumPy's pairwise order (session 48:
    left to right, 10^6 values of 0.1 summed to 100958.3 where NumPy gives 100000.01);
    over axis 0 NumPy adds row by row, as the loop does. Exact, on sizes around the
    order's run lengths (8, 128, a split at a multiple of 8)."""
    rng = np.random.default_rng(5)
    calls = [(np.full(10**6, 0.1, np.float32), np.full((7, 300), 0.1, np.float32))]
    for n, cols in [(1, 1), (7, 8), (129, 127), (1000, 131), (4099, 1030)]:
        calls.append(((rng.standard_normal(n) * 100).astype(np.float32),
                      rng.random((5, cols)).astype(np.float32)))
    agree(float32_statistics, calls=calls, exact=True)


def test_tf_names():
    x = np.arange(24.0).reshape(2, 3, 4)
    _agree(lambda x: (ag.reduce_sum(x, axis=[0, 2]), ag.reduce_mean(x, -1, keepdims=True),
                      ag.reduce_max(x), ag.reduce_min(x, 1), ag.reduce_prod(x[0, 0], 0),
                      ag.reduce_any(x > 20, axis=(0, 1)), ag.reduce_all(x >= 0, axis=2)), x,
           oracle=lambda x: (np.sum(x, axis=(0, 2)), np.mean(x, -1, keepdims=True), np.max(x),
                             np.min(x, 1), np.prod(x[0, 0], 0), np.any(x > 20, axis=(0, 1)),
                             np.all(x >= 0, axis=2)))


def test_nan_propagates():
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    _agree(lambda x: (np.max(x, axis=1), np.min(x, axis=0), np.sum(x, axis=1), np.max(x),
                      np.mean(x, axis=1)), x)


@pytest.mark.parametrize("name", ["max", "min"])
def test_empty_max_min_raise_like_numpy(name):
    fn = getattr(np, name)
    x = np.zeros((0, 3))
    with pytest.raises(ValueError):
        fn(x, axis=0)
    _agree(lambda x: fn(x, axis=0), x)  # the same exception type
    for backend in ("interpreter", "cpu"):
        with pytest.raises(ValueError, match="zero-size array"):
            ag.defun(lambda x: fn(x, axis=0), autograph=False, backend=backend)(x)


def with_initial(m):
    return (m.max(initial=-5.0), np.min(m, initial=0.25), np.sum(m, initial=2.0),
            np.prod(m, axis=0, initial=3.0), m.max(axis=1, initial=0.5),
            np.min(m, axis=0, initial=1.0, keepdims=True), m.max(initial=-5.0, keepdims=True))


def test_initial_joins_every_reduction_as_numpys():
    # (was a TypeError) an empty run gives the initial value; NaN still propagates
    for m in (np.array([[0.3, np.nan, 0.1], [2.0, -1.0, 0.5]]), np.zeros((0, 3)),
              np.zeros((2, 0))):
        _agree(with_initial, m)
    # cast to the result's dtype as NumPy casts it (2.5 -> 2 for ints; 300 overflows int8)
    _agree(lambda a: (a.max(initial=2.5), np.sum(a, initial=2.5), np.min(a, initial=-1)),
           np.array([1, 2], np.int32))
    _agree(lambda a: a.max(initial=300), np.array([1, 2], np.int8))


def test_empty_sum_mean_prod():
    x = np.zeros((0, 3), np.float32)
    _agree(lambda x: (np.sum(x, axis=0), np.prod(x, axis=0), np.mean(x, axis=0), np.sum(x),
                      np.any(x, axis=1), np.all(x, axis=0)), x)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_argmin(name):
    explored = Explored(rank=RANKS[1:])
    fn = getattr(np, name)

    @given(data=st.data())
    def check(data):
        dt = data.draw(st.sampled_from((np.float64, np.int32, np.float32, np.bool_)))
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS[1:])), min_side=1))
        x = data.draw(arrays(dt, shape, nan=True, lo=-3, hi=3))
        axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
        keepdims = data.draw(st.booleans())
        explored.note(rank=len(shape))
        _agree(lambda *xs: tuple(fn(v, axis=axis, keepdims=keepdims) for v in xs),
               *layouts(x))
    check()
    explored.check()


def test_argmax_with_nan_and_ties():
    x = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 2.0, -1.0, -1.0], [5, 5, 5, 5]])
    _agree(lambda x: (np.argmax(x), np.argmin(x), np.argmax(x, axis=1), np.argmin(x, axis=1),
                      np.argmax(x, axis=0), np.argmin(x, axis=-2)), x)
    _agree(lambda x: (np.argmax(x), np.argmin(x), ag.argmax(x, 0)),
           np.array([True, False, True]),
           oracle=lambda x: (np.argmax(x), np.argmin(x), np.argmax(x, 0)))
    _agree(lambda x: (np.argmax(x), np.argmin(x)), np.float64(3.0))


def test_argmax_empty_raises():
    with pytest.raises(ValueError):
        np.argmax(np.zeros(0))
    _agree(lambda x: (np.argmax(x), np.argmin(x)), np.zeros(0))  # the same exception type


def test_cumsum():
    explored = Explored(rank=RANKS, family=FAMILIES)

    @given(data=st.data())
    def check(data):
        family = data.draw(st.sampled_from(sorted(FAMILIES)))
        dt = data.draw(dtypes(family))
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS))))
        x = data.draw(arrays(dt, shape, lo=-5, hi=5))
        axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1))
                         if shape else st.none())
        explored.note(rank=len(shape), family=family)
        _agree(lambda *xs: tuple(np.cumsum(v, axis=axis) for v in xs), *layouts(x),
               rtol=1e-5)
    check()
    explored.check()


def test_cumsum_methods_and_tf_name():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    _agree(lambda x: (x.cumsum(), x.cumsum(axis=1), ag.cumsum(x), ag.math.cumsum(x, axis=-1),
                      np.cumsum(x * 2, axis=0)), x,
           oracle=lambda x: (x.cumsum(), x.cumsum(axis=1), np.cumsum(x, axis=0),  # TF: axis=0
                             np.cumsum(x, axis=-1),
                             np.cumsum(x * 2, axis=0)))


@pytest.mark.parametrize("fn", [lambda x: x.sum(axis=2), lambda x: np.expand_dims(x, 3),
                                lambda x: np.squeeze(x, axis=3), lambda x: np.argmax(x, axis=-3),
                                lambda x: np.cumsum(x, axis=4), lambda x: np.sort(x, axis=2)])
def test_an_axis_out_of_bounds_is_numpys_axis_error(fn):
    """NumPy's AxisError (a ValueError and an IndexError: `except IndexError` catches it);
    a plain ValueError before session 41."""
    with pytest.raises(np.exceptions.AxisError):
        fn(np.zeros((2, 1)))
    for backend in ("interpreter", "cpu"):
        with pytest.raises(np.exceptions.AxisError, match="is out of bounds for array of "
                                                         "dimension"):
            ag.defun(fn, backend=backend)(np.zeros((2, 1)))
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        ag.defun(lambda x: x.sum(axis=(0, 0)), backend="interpreter")(np.zeros((2, 1)))


def running_sums(x):
    return (np.signbit(np.cumsum(x)), np.cumsum(x), np.cumprod(x), np.cumsum(x.reshape(2, -1)),
            np.cumsum(x > 0), np.cumsum(x.astype(np.int8)))


def test_cumsum_keeps_a_first_negative_zero():
    """The flattened np.cumsum was Numba's, which starts from 0 and turned a first -0.0
    into 0.0 (before session 41); now the same pass as along an axis."""
    agree(running_sums, calls=[(np.array([-0.0, 1.0, 2.5, -3.0]),),
                               (np.array([1.5, -0.0, 2.0, 7.0, 1.0, 2.0]),)], exact=True)


def reductions_of_a_0d_along_its_axis(x):
    return (x.sum(axis=0), np.max(x, axis=0), np.argmax(x, axis=-1), x.prod(axis=-1),
            np.any(x, axis=0), np.min(x, axis=-1), x.all(axis=0), x.sum(axis=()),
            np.argmin(x, axis=0), x.max(axis=0, keepdims=True))


def test_a_0d_array_reduces_along_axis_0_or_minus_1_as_numpy():
    # NumPy's ufunc reductions and argmax take an int 0 or -1 of a 0-d array as the whole
    # of it; before session 45 the interpreter raised AxisError where cpu gave the value,
    # and max/argmax raised an internal IndexError on both
    agree(reductions_of_a_0d_along_its_axis, calls=[(np.array(3.0),), (np.array(-2.0),)])
    for fn in (lambda x: x.mean(axis=0), lambda x: x.sum(axis=(0,))):
        raised = []
        agree(fn, calls=[(np.array(3.0),)], errors=raised, autograph=False)
        assert raised and all("out of bounds" in m for *_, m in raised), raised
