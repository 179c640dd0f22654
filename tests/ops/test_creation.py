"""Tensors made from sizes: full/zeros/ones/eye/range/linspace (static and tensor sizes),
against NumPy itself (np.full/zeros/ones/eye/arange/linspace), never an eager ag.* call."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree
from ops_strategies import RANKS, Explored, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _agree(f, *args, **kw):
    return agree(f, *args, autograph=False, independent=True, **kw)


DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_]


def test_full_zeros_ones_static():
    """Every dtype in each example (a static shape is a kernel of its own)."""
    explored = Explored(rank=RANKS)

    @given(st.data())
    def check(data):
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS))))
        explored.note(rank=len(shape))

        def program(ns, fill):  # ag and ag.fill, or NumPy and np.full for the oracle
            def f(x):
                return ((np.zeros(shape) + x, np.full(shape, 2.5, np.float32), fill(shape, 7),
                         np.zeros_like(x), np.full_like(x, 3))
                        + tuple(ns.zeros(shape, dtype=dt) for dt in DTYPES)
                        + tuple(ns.ones(shape, dt) for dt in DTYPES)
                        + tuple(np.ones_like(x, dtype=dt) for dt in DTYPES))
            return f
        _agree(program(ag, ag.fill), np.float64(1.0), oracle=program(np, np.full))
    check()
    explored.check()


@given(st.integers(0, 5), st.integers(0, 4))
def test_sizes_from_tensors(n, m):
    def f(n, m, x):
        return (ag.zeros((n, m), ag.int32), ag.ones(n), ag.fill((m, 2), x), ag.zeros([n]),
                np.zeros_like(ag.ones((n, m))))

    def oracle(n, m, x):
        return (np.zeros((n, m), np.int32), np.ones(n, np.float32), np.full((m, 2), x),
                np.zeros([n], np.float32), np.zeros((n, m), np.float32))
    r = _agree(f, np.int64(n), np.int32(m), np.float32(1.5), oracle=oracle)
    assert r["cpu"][0].shape == (n, m)


def test_negative_tensor_size_raises_like_numpy():
    with pytest.raises(ValueError, match="negative dimensions"):
        np.zeros(-1)
    for backend in ("interpreter", "cpu"):
        f = ag.defun(lambda n, x: (ag.fill((n, 2), x), ag.zeros([n])), autograph=False,
                     backend=backend)
        assert f(np.int64(2), np.float64(1.5))[0].numpy().tolist() == [[1.5, 1.5]] * 2
        with pytest.raises(ValueError, match="negative dimensions"):
            f(np.int64(-1), np.float64(1.5))
        # an unsigned size past the largest intp would turn negative in a cast: two such
        # dimensions multiply to a positive count, so rt.empty checks each one
        g = ag.defun(lambda n: ag.zeros([n, n]).sum(), autograph=False, backend=backend)
        for n in (np.uint64(2 ** 64 - 1), np.uint64(2 ** 63)):
            with pytest.raises(ValueError, match="Maximum allowed dimension exceeded"):
                g(n)
        assert g(np.uint64(3)).numpy() == 0.0


def float_counts(x):
    return np.linspace(0.0, 1.0, x[0] * 1.0), np.eye(x[1])


def test_a_float_count_is_numpys_type_error():
    # before: truncated to an int, silently (np.linspace(0, 1, 3.0) ran with 3 samples)
    agree(float_counts, calls=[(np.array([3.0, 2.0]),), (np.array([2.0, 4.0]),)])


def test_fills_compile_cheaply():
    """Fills are ``rt.empty`` + ``[...] =`` rather than np.full (~0.08 s more to compile);
    sizes are checked inside rt.empty, with no separately compiled helper per size."""
    f = ag.defun(lambda x: (np.ones_like(x), ag.fill(ag.shape(x), 2.0)), autograph=False)
    x = np.zeros((3, 2))
    src = f.get_concrete_function(x).source
    assert "rt.empty" in src and "np.full" not in src
    _agree(lambda x: (np.ones_like(x), ag.fill(ag.shape(x), 2.0), np.full_like(x, 3)), x,
           oracle=lambda x: (np.ones_like(x), np.full(np.shape(x), 2.0), np.full_like(x, 3)))


def test_full_with_tensor_value():
    _agree(lambda x: (ag.fill((2, 3), x), np.full_like(ag.zeros((2, 2)), x)), np.int32(7),
           oracle=lambda x: (np.full((2, 3), x), np.full_like(np.zeros((2, 2), np.float32), x)))


@pytest.mark.parametrize("n,m,dt", [(3, None, ag.float32), (2, 4, ag.int64), (0, 2, ag.float64),
                                    (1, 1, ag.bool_)])
def test_eye(n, m, dt):
    _agree(lambda x: (ag.eye(n, m, dtype=dt), ag.eye(n) * x), np.float32(2.0),
           oracle=lambda x: (np.eye(n, m, dtype=dt), np.eye(n, dtype=np.float32) * x))


@given(st.integers(-5, 8), st.integers(-5, 8), st.sampled_from([1, 2, 3, -1, -2]))
def test_range(a, b, step):
    def f(a, b, s):
        return ag.range(a, b, s), ag.range(b), ag.range(a, b, s, dtype=ag.float32)

    def oracle(a, b, s):
        return np.arange(a, b, s), np.arange(b), np.arange(a, b, s, dtype=np.float32)
    _agree(f, np.int64(a), np.int64(b), np.int64(step), oracle=oracle)
    _agree(lambda x: ag.range(a, b, step) * x, np.int32(2),
           oracle=lambda x: np.arange(a, b, step) * x)


def test_range_float_and_int32():
    _agree(lambda n: (ag.range(0.0, n, 0.5), ag.range(n, 0.0, -0.75)), np.float64(2),
           oracle=lambda n: (np.arange(0.0, n, 0.5), np.arange(n, 0.0, -0.75)))
    _agree(lambda n: ag.range(n), np.int32(5), oracle=lambda n: np.arange(n))
    _agree(lambda x: ag.range(0, 3, 1, dtype=ag.float32) + x, np.float32(1),
           oracle=lambda x: np.arange(0, 3, 1, dtype=np.float32) + x)


def test_range_of_narrow_numbers_widens_as_numpys():
    """(np.arange of float32 bounds was float32: NumPy's is float64, int32 or uint8 int64,
    uint64 with an int float64)"""
    f32 = np.array([0.3, 2.0, 0.25], np.float32)
    _agree(lambda x: (ag.range(x[0], x[1], x[2]), ag.range(x[1])), f32,
           oracle=lambda x: (np.arange(x[0], x[1], x[2]), np.arange(x[1])))
    for x in (np.array([5], np.uint8), np.array([5], np.int32), np.array([5], np.uint64)):
        _agree(lambda x: (ag.range(x[0]), ag.range(x[0], 9)), x,
               oracle=lambda x: (np.arange(x[0]), np.arange(x[0], 9)))


def test_range_zero_delta_raises():  # (NumPy's error for a NumPy-number step)
    for backend in ("interpreter", "cpu"):
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            ag.defun(lambda d: ag.range(0, 5, d), autograph=False, backend=backend)(np.int64(0))


@given(st.integers(0, 7), st.floats(-10, 10), st.floats(-10, 10))
def test_linspace(num, a, b):
    def f(a, b):
        return (ag.linspace(a, b, num), np.linspace(a, b, num), np.linspace(a, 1.0, num),
                np.linspace(a, b, num, dtype=np.int64))

    def oracle(a, b):
        return (np.linspace(a, b, num), np.linspace(a, b, num), np.linspace(a, 1.0, num),
                np.linspace(a, b, num, dtype=np.int64))
    _agree(f, np.float64(a), np.float64(b), oracle=oracle)


@given(st.integers(0, 9), st.floats(-10, 10), st.floats(-10, 10), st.booleans())
def test_linspace_of_a_tensor_count(num, a, b, endpoint):
    # before: TypeError (a traced num as a Python int); endpoint=False NotImplementedError
    def f(n, a, b):
        return (np.linspace(a, b, n, endpoint=endpoint), np.linspace(0.0, b, n),
                np.linspace(a, b, n, endpoint=endpoint, dtype=np.int64),
                np.linspace(a, b, 5, endpoint=endpoint))
    agree(f, calls=[(np.int64(num), np.float64(a), np.float64(b)),
                    (np.int64(num + 2), np.float64(b), np.float64(a))], exact=True)



def spaces(n, a, b):
    return (np.logspace(0.0, 2.0, n), np.logspace(a, b, n, endpoint=False, base=2.0),
            np.logspace(a, b, 5, dtype=np.float32), np.geomspace(a, b, n),
            np.geomspace(-b, -a, n, endpoint=False), np.geomspace(a, b, 4, dtype=np.float32),
            np.geomspace(1, 1000, n))


@given(st.integers(0, 9), st.floats(0.25, 50), st.floats(0.25, 50))
def test_logspace_geomspace_of_a_tensor_count_and_bounds(num, a, b):
    # before: TypeError (a traced num) and "no staged counterpart" (traced bounds). NumPy's
    # steps op for op; the kernel's pow is libm's where NumPy's is SIMD (SVML): the last
    # bit may differ on the cpu backend, hence a relative tolerance
    agree(spaces, calls=[(np.int64(num), np.float64(a), np.float64(b)),
                         (np.int64(num + 2), np.float64(b), np.float64(a))], rtol=1e-6)


def geometric_zero(a):
    return np.geomspace(a, 10.0, 3)


def test_geomspace_of_a_zero_bound_raises_numpys_error():
    raised = []
    agree(geometric_zero, calls=[(np.float64(2.0),), (np.float64(0.0),)], errors=raised)
    assert raised and all("cannot include zero" in m for *_, m in raised), raised

def negative_count(n):
    return np.linspace(0.0, 1.0, n)


def test_linspace_of_a_negative_tensor_count_raises_numpys_error():
    agree(negative_count, calls=[(np.int64(3),), (np.int64(-2),)], exact=True)
    with pytest.raises(ValueError, match="Number of samples, -2, must be non-negative"):
        ag.defun(negative_count)(np.int64(-2))


def eyes(n, k):
    return (np.eye(n), np.eye(n, n + 1, k=k, dtype=np.int32), np.identity(n, dtype=bool),
            np.tri(n), np.tri(n, 3, k=k, dtype=np.int64), np.eye(3, k=k))


@pytest.mark.parametrize("n,k", [(3, 1), (0, 0), (4, -2)])
def test_eye_identity_tri_of_tensor_sizes(n, k):
    # before: TypeError (NumPy's eye/identity/tri take the traced size as a Python int)
    agree(eyes, calls=[(np.int64(n), np.int64(k)), (np.int64(n + 1), np.int64(-k))],
          exact=True)


def test_linspace_dtype_follows_numpy():
    _agree(lambda a: (np.linspace(a, 1, 4), np.linspace(a, 1, 4, dtype=np.float64)),
           np.float32(0))
    _agree(lambda a: (np.linspace(a, 10, 7), np.linspace(a, 10, 7, dtype=int)), np.int32(-5))


def float32_grids(x, a, b):
    return (np.arange(0, x.max(), 0.1), np.arange(x.min(), x.max(), 0.1),
            np.arange(a, b, 0.25), np.arange(x.min(), b, np.float32(0.3)),
            np.linspace(x.min(), x.max(), 4), np.linspace(a, b, 7),
            np.linspace(a, b, 6, dtype=np.int32))


def test_float32_bounds_count_and_step_in_float32_as_numpy():
    # NumPy takes `stop - start`, `/ step` and `start + step` in the bounds' own dtype
    # (a Python float step is weak), and linspace's steps in float32: before session 45 the
    # cpu kernel took them in float64 (np.arange(0, np.float32(1.7), 0.1): 18 elements
    # for NumPy's 17; linspace's float64 samples cast down)
    agree(float32_grids, calls=[
        (np.array([0.2, 1.7], np.float32), np.float32(0.2), np.float32(1.7)),
        (np.array([0.1, 2.9, 0.7], np.float32), np.float32(-3.3), np.float32(12.1))],
        exact=True)


def test_sizes_whose_byte_count_overflows_raise_numpys_error():
    """cpu_runtime.empty checks the element and byte counts for overflow, as NumPy does."""
    for backend in ("interpreter", "cpu"):
        f = ag.defun(lambda n: ag.zeros([n, n]) + 1.0, autograph=False, backend=backend)
        with pytest.raises(ValueError, match="array is too big"):
            f(np.int64(2 ** 40))
    with pytest.raises(ValueError, match="array is too big"):
        np.zeros((2 ** 40, 2 ** 40))


@pytest.mark.parametrize("value", [np.array([1.5], np.longdouble),
                                   np.float16(1.0).astype(np.longdouble)])
def test_an_unsupported_dtype_is_refused_not_converted(value):
    # (complex once went to int64, dropping the imaginary part: a wrong answer; complex
    # dtypes are supported now, tests/ops/test_complex.py)
    with pytest.raises(TypeError, match=f"dtype {np.asarray(value).dtype} .* not a supported"):
        ag.constant(value)
    with pytest.raises(TypeError, match="argument 'x' has dtype float128 is not supported|"
                                        "not supported for "):
        ag.defun(lambda x: x + 1)(value)
