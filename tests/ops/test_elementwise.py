"""Elementwise ops against NumPy itself (the oracle: never an eager ``ag.*`` call, which runs
the interpreter's own kernel), on the interpreter and cpu: values and dtypes.

Every elementwise op of the table is applied to every dtype family NumPy accepts it for,
at every rank <= 3, in several memory layouts per example (ops_strategies.py).
"""
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import BACKENDS, agree
from ops_strategies import (ALL, FAMILIES, FLOATS, INTS, NUMERIC, RANKS, arrays,
                            broadcastable_pair, deep, dtypes, layouts, shapes)

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _agree(f, *args, **kw):
    return agree(f, *args, autograph=False, independent=True, **kw)


def _tolerance(dt):
    """Transcendental functions: Numba calls libm, NumPy its own (SIMD) kernels."""
    return dict(rtol=2e-6, atol=1e-6) if np.dtype(dt) == np.float32 else dict(rtol=1e-12,
                                                                               atol=1e-12)


UNARY = ("sqrt exp log log1p expm1 log2 log10 sin cos tan arcsin arccos arctan sinh cosh "
         "tanh arcsinh arccosh arctanh floor ceil rint trunc sign square reciprocal isnan "
         "isinf isfinite negative absolute logical_not invert cbrt exp2 fabs deg2rad rad2deg "
         "degrees radians signbit positive").split()
BINARY = ("add subtract multiply true_divide floor_divide remainder power maximum minimum "
          "arctan2 fmod equal not_equal less less_equal greater greater_equal logical_and "
          "logical_or logical_xor bitwise_and bitwise_or bitwise_xor hypot logaddexp "
          "logaddexp2 copysign fmax fmin float_power gcd lcm left_shift right_shift "
          "heaviside").split()


def _numpy_accepts(name, *dts):
    """NumPy has the op for these dtypes and its result is not float16 (which the cpu
    backend does not compile: test_float16_* below)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = getattr(np, name)(*[np.ones(2, dt) for dt in dts])
        except TypeError:
            return False
    return out.dtype != np.float16


def _ops_for(names, *dts):
    return [n for n in names if _numpy_accepts(n, *dts)]


def _rank(data):
    """Rank 1 in CI (the op's dtype rules are what varies); any rank in deep runs."""
    return data.draw(st.sampled_from(RANKS)) if deep() else 1


def _op_shapes(data):
    """CI: rank 1 of 2..5 elements, so the strided layout is a Numba signature of its own
    and there is one kernel per dtype (the op's dtype rules are what varies); zero-size,
    size 1 and other ranks are test_ranks_layouts_and_broadcasting's. Deep runs: any."""
    return shapes(data.draw(st.sampled_from(RANKS))) if deep() else shapes(1, 5, min_side=2)


@pytest.mark.parametrize("family", FAMILIES)
@given(data=st.data())
def test_every_unary_op(family, data):
    """Every unary op NumPy has for the family; each op reads the input contiguous or
    strided, in turn."""
    dt = data.draw(dtypes(family))
    x = data.draw(arrays(dt, _op_shapes(data), nan=True))
    names = _ops_for(UNARY, dt)
    k = len(layouts(x))

    def f(*xs):
        return tuple(getattr(np, n)(xs[i % k]) for i, n in enumerate(names))
    _agree(f, *layouts(x), **_tolerance(dt))


# Operand dtypes: each family with itself and across families (NumPy 2 promotion).
PAIRS = [(np.float64, np.float64), (np.float32, np.float32), (np.float32, np.int32),
         (np.int8, np.uint8), (np.int64, np.int64), (np.bool_, np.int32),
         (np.uint32, np.uint32), (np.bool_, np.bool_)]


def _binary(names, la, lb, int_exponent):
    """f(*la, *lb): op i of `names` on layout i of `a` and layout i // len(la) of `b`."""
    def f(*xs):
        a_, b_ = xs[:len(la)], xs[len(la):]
        out = []
        for i, n in enumerate(names):
            x, y = a_[i % len(la)], b_[(i // len(la)) % len(lb)]
            if n == "power" and int_exponent:
                y = np.abs(y) % 3  # NumPy refuses negative integer powers of integers
            out.append(getattr(np, n)(x, y))
        return tuple(out)
    return f


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{np.dtype(p[0])}-{np.dtype(p[1])}")
@given(data=st.data())
def test_every_binary_op(pair, data):
    """Every binary op NumPy has for the dtype pair (mixed dtypes: NumPy 2 promotion),
    operands contiguous or strided in turn."""
    da, db = pair
    shape = data.draw(_op_shapes(data))
    sa, sb = (data.draw(broadcastable_pair(len(shape))) if deep() else (shape, shape))
    a, b = data.draw(arrays(da, sa, nan=True)), data.draw(arrays(db, sb, nan=True))
    la, lb = layouts(a), layouts(b)
    f = _binary(_ops_for(BINARY, da, db), la, lb, np.dtype(db).kind in "iu")
    _agree(f, *la, *lb, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("rank", RANKS)
@given(data=st.data())
def test_ranks_layouts_and_broadcasting(rank, data):
    """Every rank, every layout (contiguous, strided, reversed, Fortran), broadcasting and
    zero-size shapes, through representative ops of mixed dtypes and a fused chain."""
    sa, sb = data.draw(broadcastable_pair(rank))
    a = data.draw(arrays(np.float64, sa, nan=True))
    b = data.draw(arrays(np.int32, sb))
    la, lb = layouts(a, every=True), layouts(b, every=True)
    n = max(len(la), len(lb))

    def f(*xs):
        a_, b_ = xs[:len(la)], xs[len(la):]
        out = tuple(a_[i % len(la)] + b_[i % len(lb)] for i in range(n))
        return out + (np.maximum(a_[-1], b_[0]) < b_[-1] / 2,
                      np.sqrt(np.abs(b_[-1] * 2.5 - a_[0])) + 1)
    _agree(f, *la, *lb, rtol=1e-12)


@pytest.mark.parametrize("family", ["int", "uint", "float"])
@given(data=st.data())
def test_weak_literals_keep_dtype(family, data):
    dt = data.draw(dtypes(family))
    x = data.draw(arrays(dt, shapes(2), lo=0 if family == "uint" else -50, hi=50))

    def f(x):
        # NumPy 2 (NEP 50): Python literals are weak; float32 * 2.5 stays float32,
        # int32 + 1 stays int32, int32 * 2.5 is float64
        return x * 2.5, x + 1, 3 - x, x * 2, x / 2, 1.5 + x * x, x > 1, np.maximum(x, 0)
    _agree(f, x, rtol=2e-6)


def test_weak_literal_dtypes_explicitly():
    f32, i32 = np.arange(3, dtype=np.float32), np.arange(3, dtype=np.int32)
    r = _agree(lambda x, y: (x * 2.5, y + 1, y * 2.5, y // 2, x ** 2), f32, i32)
    assert [t.dtype for t in r["cpu"]] == [np.float32, np.int32, np.float64, np.int32,
                                           np.float32]


def _where_of_literals(x, c, t):
    # np.where returns an array (0-d for a scalar condition), never a weak Python number:
    # float32 times it is float64 in NumPy 2 (it was float32 in the kernel)
    return np.where(c > 0, 0.0, 0.5) * x, np.where(t > 0, 1.0, 2.0) * x


def test_where_of_python_numbers_promotes_as_an_array():
    f32 = np.arange(3, dtype=np.float32)
    r = _agree(_where_of_literals, f32, np.array([1.0, -1.0, 2.0]), np.float64(1.0))
    assert [t.dtype for t in r["cpu"]] == [np.float64, np.float64]


@pytest.mark.parametrize("backend", BACKENDS)
def test_float16_gives_numpys_answer_or_a_clear_refusal(backend):
    """SPEC §1 lists float16; NumPy makes it from np.sqrt of bool or int8. The interpreter
    gives NumPy's float16; the cpu backend (Numba has no float16) must give it too or say
    so by name: never another dtype or value."""
    b = np.array([True, False, True])
    i8 = np.array([4, 9, -1], np.int8)
    h = np.array([1.5, -2.0], np.float16)
    cases = [(lambda x: np.sqrt(x), b), (lambda x: np.sqrt(x) + 1, i8), (lambda x: x * 2.5, h)]
    for f, x in cases:
        want = f(x)
        assert want.dtype == np.float16
        try:
            got = ag.defun(f, autograph=False, backend=backend)(x)
        except (NotImplementedError, TypeError) as e:
            assert backend == "cpu", e
            assert "float16" in str(e) and "cpu" in str(e), f"an unclear refusal: {e!r}"
            continue
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("dt", INTS + (np.int16, np.uint8))
def test_floor_div_mod_fmod_negative_ints(dt):
    a = np.array([-7, 7, -7, 7, 5, -5, 0, 6], dt if dt != np.uint8 else np.int16).astype(dt)
    b = np.array([2, -2, -2, 2, 0, 3, 0, -4], dt if dt != np.uint8 else np.int16).astype(dt)

    def f(a, b):
        # NumPy: // and % floor; fmod truncates (Numba's integer fmod is wrong); x/0 -> 0
        return (a // b, a % b, np.fmod(a, b), np.remainder(a, b), a // 3,
                a % (-3 if a.dtype.kind == "i" else 3))
    _agree(f, a, b)


def compared_beyond(x):
    return x < -1, x > 300, x == -1, x != 256, -1 <= x, x >= 2 ** 70


def beyond_in_wider_types(x):
    return x / 300, x / -1, np.clip(x, 0, 300), np.clip(x, -5, 2 ** 70), x < 2 ** 70


def filled_beyond(x):
    return np.full_like(x, 300)


def shifted_down(x):
    x -= 300   # beyond int8 and uint8
    return x


def powered_in_place(x, k):
    x **= k
    return x


def picks_beyond(x, u):
    # np.where wraps a Python int beyond the result's dtype (a C long, cast): NumPy's
    # values (it was refused, sessions 38-39)
    return np.where(x > 1, x, 2 ** 63), np.where(x > 1, u, -1), np.where(x < 1, 70000, u)


def test_python_ints_beyond_an_int_dtype_are_numpys():
    """NumPy 2 gives the exact answer when an int array is compared with a Python int its
    dtype cannot hold, and raises OverflowError for arithmetic with one; the kernel cast the
    int into the dtype and wrapped (uint8 < -1 was True for 0 and 5, int8 > 300 True
    where the element exceeded 44). In-place int powers check their exponent as NumPy."""
    for dt in (np.uint8, np.int8, np.int64):
        agree(compared_beyond, np.array([0, 5, 100, 127], dt), exact=True)
    raised = []
    agree(shifted_down, calls=[(np.array([1, 2], np.int8),), (np.array([3], np.uint8),),
                               (np.array([3], np.int16),)], exact=True, errors=raised)
    assert len(raised) == 2 * len(BACKENDS) and all(
        "Python integer 300 out of bounds for" in m and "test_elementwise.py:" in m
        for _, _, m in raised), raised
    for dt in (np.uint8, np.int8):  # NumPy computes these in float64 / clips exactly
        agree(beyond_in_wider_types, np.array([0, 5, 100, 127], dt), exact=True)
    raised = []
    agree(filled_beyond, calls=[(np.array([1], np.uint8),), (np.array([2, 3], np.int16),)],
          exact=True, errors=raised)
    assert raised and all("Python integer 300 out of bounds for uint8" in m
                          for _, _, m in raised), raised
    agree(picks_beyond, calls=[(np.array([0, 5]), np.array([1, 2], np.uint16)),
                               (np.array([7, -5]), np.array([3, 4], np.uint16))], exact=True)
    with pytest.raises(OverflowError, match="too large to convert"):  # (NumPy's words)
        ag.defun(lambda x: x + 2 ** 70, backend="interpreter")(np.int64(3))
    raised = []
    agree(powered_in_place, calls=[(np.array([2, 3]), np.int64(2)),
                                   (np.array([2, 3]), np.array([1, -1])),
                                   (np.array([2.0, 3.0]), np.int64(-1))],
          exact=True, errors=raised)
    assert raised and all("Integers to negative integer powers" in m for _, _, m in raised)
    for backend in BACKENDS:  # (bools too: NumPy's power of a bool is an int power)
        with pytest.raises(ValueError, match="Integers to negative integer powers"):
            ag.defun(lambda x, k: x ** k, backend=backend)(np.array([True]), np.int64(-1))


def test_int_fmod_at_the_ends_of_int64():
    """fmod by -2**63 (abs() of it overflows: was 2**63 - 64 for fmod(-64, -2**63)) and of
    the extreme values, as NumPy's truncated remainder."""
    ends = [-2 ** 63, 2 ** 63 - 1, -1, 0, 1, 7, -7, 64, -64]
    a = np.array([x for x in ends for _ in ends], np.int64)
    b = np.array([y for _ in ends for y in ends], np.int64)
    _agree(lambda a, b: np.fmod(a, b), a, b)


@pytest.mark.parametrize("dt", FLOATS)
def test_floor_div_mod_fmod_negative_floats(dt):
    a = np.array([-7.5, 7.5, -7.0, 7.0, 5.0, -5.0, 0.0, 0.5], dt)
    b = np.array([2.0, -2.0, -2.0, 2.0, 0.0, 3.0, 0.0, -0.25], dt)

    def f(a, b):
        return a // b, a % b, np.fmod(a, b), a / b, a // 2.5, a % -1.5
    _agree(f, a, b)


@pytest.mark.parametrize("dt", NUMERIC)
def test_division_by_zero(dt):
    a = np.array([1, 3, 0, 3], dt)
    z = np.zeros(4, dt)

    def f(a, z):
        # floats: inf / nan; ints: / gives float inf/nan, // and % give 0
        return a / z, a // z, a % z, np.fmod(a, z), a / 0, a // 0
    _agree(f, a, z)


def test_scalar_division_by_zero():
    def f(a, b):
        return a / b, a // b, a % b
    _agree(f, np.float64(1.0), np.float64(0.0))
    _agree(f, np.int64(5), np.int64(0))
    _agree(f, np.int32(-5), np.int32(0))


@given(st.data())
def test_integer_arithmetic_wraps_like_numpy(data):
    dt = data.draw(st.sampled_from((np.int8, np.uint8, np.int64)))
    info = np.iinfo(dt)
    a = data.draw(arrays(dt, shapes(2), lo=info.min, hi=info.max))
    b = data.draw(arrays(dt, np.shape(a), lo=info.min, hi=info.max))

    def f(a, b):
        return a + b, a * b, a - b, a & b, a | b, a ^ b, ~a, -a, abs(a)
    _agree(f, a, b)


def test_power():
    i = np.array([2, 3, -2, 0], np.int64)
    e = np.array([3, 0, 3, 2], np.int64)
    _agree(lambda a, b: (a ** b, a ** 2, a.astype(np.float32) ** 0.5, 2.0 ** a), i, e)


@given(st.data())
def test_comparisons_and_logic(data):
    s = data.draw(shapes(2))
    a, b = data.draw(arrays(np.float64, s, nan=True)), data.draw(arrays(np.int32, s))
    m = data.draw(arrays(np.bool_, s))

    def f(a, b, m):
        return (a < b, a == b, a != a, np.logical_and(a > 0, m), np.logical_or(m, b > 0),
                np.logical_xor(m, a > 0), ~m, m & (b > 2), m | m, m ^ True)
    _agree(f, a, b, m)


@pytest.mark.parametrize("family", FAMILIES)
@given(st.data())
def test_where(family, data):
    sc, sa, sb = data.draw(st.sampled_from([((3,), (3,), (3,)), ((2, 3), (3,), ()),
                                            ((), (2,), (2,)), ((4, 1), (1, 5), ()),
                                            ((2, 0), (0,), ())]))
    da = data.draw(dtypes(family))
    c = data.draw(arrays(np.bool_, sc))
    a, b = data.draw(arrays(da, sa)), data.draw(arrays(np.float32, sb))

    def f(c, a, b):
        return np.where(c, a, b), np.where(c, a, 0), np.where(c, 1.5, b), ag.where(c, b, a)

    def oracle(c, a, b):
        return np.where(c, a, b), np.where(c, a, 0), np.where(c, 1.5, b), np.where(c, b, a)
    _agree(f, c, a, b, oracle=oracle)


@pytest.mark.parametrize("family", ["int", "uint", "float"])
@given(st.data())
def test_clip(family, data):
    dt = data.draw(dtypes(family))
    x = data.draw(arrays(dt, shapes(data.draw(st.sampled_from(RANKS)))))
    lo = data.draw(st.integers(0 if family == "uint" else -50, 0))

    def f(x):
        return (np.clip(x, lo, 40), np.clip(x, None, 10), np.clip(x, 1, None), x.clip(0, 1),
                ag.clip_by_value(x, lo, 3))

    def oracle(x):
        return (np.clip(x, lo, 40), np.clip(x, None, 10), np.clip(x, 1, None), x.clip(0, 1),
                np.clip(x, lo, 3))
    _agree(f, x, oracle=oracle)


def test_clip_with_array_bounds():
    x = np.linspace(-3, 3, 7)
    _agree(lambda x, lo, hi: np.clip(x, lo, hi), x, np.full(7, -1.0), np.float64(2.0))


def clips_by_keyword(x, hi):
    return x.clip(min=0), np.clip(x, max=hi), x.clip(min=1, max=hi), np.clip(x, min=-1.0)


def test_clip_with_numpy_2s_keyword_bounds():
    # (NotImplementedError before session 45); both kinds of bound: NumPy's ValueError
    agree(clips_by_keyword, calls=[(np.array([-1.0, 2.0, 5.0]), 3.0),
                                   (np.array([-3, 2, 7]), 4)])
    raised = []
    agree(lambda x: np.clip(x, 0, 1, min=0), calls=[(np.array([-1.0, 2.0]),)],
          errors=raised, autograph=False)
    assert raised and all("is forbidden" in m for *_, m in raised), raised


@pytest.mark.parametrize("src,dst", [(np.float64, np.int32), (np.float32, np.int64),
                                     (np.int64, np.float32), (np.float64, np.bool_),
                                     (np.bool_, np.float64), (np.int32, np.uint8)])
def test_cast(src, dst):
    x = np.array([-2.7, -1, 0, 0.5, 1.9, 300], np.float64).astype(src)
    _agree(lambda x: (x.astype(dst), ag.cast(x, dst) + 1), x,
           oracle=lambda x: (x.astype(dst), x.astype(dst) + 1))


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_nn_and_math_namespace():
    x = np.linspace(-4, 4, 9, dtype=np.float32)
    _agree(lambda x: (ag.nn.relu(x), ag.math.sigmoid(x), ag.math.log1p(ag.abs(x)),
                      ag.square(x), ag.math.atan2(x, 2.0), ag.math.floormod(x, 3.0)), x,
           oracle=lambda x: (np.maximum(x, 0), _sigmoid(x), np.log1p(np.abs(x)), np.square(x),
                             np.arctan2(x, 2.0), np.mod(x, 3.0)),
           rtol=2e-6)
    _agree(lambda x: (ag.nn.relu(x), ag.abs(x), ag.negative(x), ag.sign(x)),
           np.array([-3, 0, 4], np.int32),
           oracle=lambda x: (np.maximum(x, 0), np.abs(x), np.negative(x), np.sign(x)))


@pytest.mark.parametrize("dt", ALL)
def test_empty_and_zero_d(dt):
    _agree(lambda x: np.abs(x) * 2 + 1, np.zeros((0, 3), dt))
    _agree(lambda x: np.abs(x) * 2 + 1, np.zeros((), dt)[()])
    _agree(lambda x, y: x * y + 1, np.ones((), dt)[()], np.arange(3).astype(dt))


def test_complex_values():
    z = np.array([1 + 2j, -0.5j, 3.0])
    _agree(lambda z: (z * z + 1, np.abs(z), z.real, z.imag, np.conjugate(z), np.exp(z)), z)


def numpy_scalars_are_strong(x):
    # np.float64 and np.complex128 subclass float and complex, yet NumPy 2 promotes them
    # as the arrays they are (float32 / np.float64 is float64); Python numbers stay weak
    s = np.float64(0.0)
    for v in x:
        s += v  # a loop variable that starts as a NumPy scalar keeps its dtype
    return (x / np.float64(3.0), x * np.complex128(2j), x - 1.5, np.float64(2.0) ** x,
            x / np.uint64(10), s)


def test_numpy_scalars_promote_as_numpy_2_promotes_them():
    agree(numpy_scalars_are_strong, np.array([0.1, 0.2, 0.3], np.float32), exact=True)


def complex_quotients(x, y):
    return x / y, x[0] / y[0], 1.0 / x, x.astype(np.complex64) / y.astype(np.complex64)


def test_complex_division_is_numpys_also_by_zero():
    """Numba's complex division raises ZeroDivisionError for a zero divisor (NumPy: inf or
    nan) and divides where NumPy scales by a reciprocal (last bits); the cpu kernel uses
    NumPy's algorithm since session 41 (cpu_runtime.complex_divide)."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal(64) * 10.0 ** rng.integers(-5, 5, 64) + 1j * rng.standard_normal(64)
    b = rng.standard_normal(64) + 1j * rng.standard_normal(64) * 10.0 ** rng.integers(-5, 5, 64)
    b[:4], b[4:8] = 0, 1j * b[4:8].imag
    agree(complex_quotients, calls=[(a, b), (np.array([1 + 2j, 0j]), np.array([0j, 0j]))],
          exact=True)


def fmin_fmax_of_zeros(a, b):
    return (np.signbit(np.fmin(a, b)), np.signbit(np.fmax(a, b)), np.fmin(a, b),
            np.fmax(a, b), np.signbit(np.minimum(a, b)), np.signbit(np.maximum(a, b)))


def test_fmin_and_fmax_keep_the_first_of_equal_values_as_numpys():
    """np.fmin(-0.0, 0.0) is -0.0 (the first); the cpu kernel gave the second (before
    session 41); np.minimum gives the second, as it did."""
    agree(fmin_fmax_of_zeros, calls=[
        (np.array([-0.0, 0.0, np.nan, 1.0, np.nan]), np.array([0.0, -0.0, 1.0, np.nan, np.nan])),
        (np.array([-0.0]), np.array([0.0]))], exact=True)


def float16_accumulated(x):
    s = 0.0
    for v in x:            # (staged: s is carried as float16, from a constant 0.0)
        s += np.sqrt(v)
    return s


def test_the_float16_refusal_names_the_op_that_makes_it():
    """(it named `const`, the loop's initial value cast to the carried float16)"""
    with pytest.raises(TypeError, match=r"^sqrt gives float16 .* cpu backend"):
        ag.defun(float16_accumulated)(np.array([4, 9], np.uint8))


def element_powers(x, i):
    v = x[i]                            # a NumPy float32 scalar in plain Python
    return v ** 3, v ** np.float32(1.7), v ** 0.5


def test_the_power_of_two_numbers_is_numpys_scalar_power():
    """NumPy's `**` of a float32 scalar is powf, its array loop another algorithm (1 ulp
    apart on a fifth of the values); a 0-d tensor stands for the scalar: the cpu kernel
    computed the scalar's, the interpreter the array's until session 47."""
    xs = np.abs(np.random.default_rng(0).normal(size=40)).astype(np.float32)
    agree(element_powers, calls=[(xs, np.int64(i)) for i in range(40)], exact=True)
