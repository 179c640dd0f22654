"""`math.*` on tensors is staged as the NumPy op with CPython's errors at run time
(autograph/runtime/math_calls.py), three ways: results (weak Python-float results keep a
float32 array float32) and the exception types `math` raises (domain, range, int
conversion), on the runs that raise them."""
import math

import differential
import numpy as np

import autograph_lite as ag

from .three_way import agree

F64, I64 = np.float64, np.int64


def scalar_math(x, y):
    return (math.sqrt(x), math.exp(y), math.log(x), math.log(x, 2.0), math.log10(x),
            math.sin(y) * np.float32(2), math.floor(y), math.ceil(x), math.trunc(y),
            math.pow(x, y), math.atan2(y, x), math.isnan(x), math.cosh(y), math.fabs(y),
            math.floor(3))


def test_math_functions_on_tensors_match_python():
    agree(scalar_math, [(F64(2.0), F64(-1.5)), (F64(0.5), F64(3.25))])


def more_math(x, y):
    return (math.exp2(x), math.degrees(y), math.radians(x),
            math.copysign(x, y), math.copysign(3, x) * np.float32(1))


def test_exp2_degrees_radians_copysign_match_python():
    agree(more_math, [(F64(2.0), F64(-1.5)), (F64(-0.0), F64(1e308)), (F64(1e3), F64(-0.0))])


def cube_root(y):
    return math.cbrt(y)


def test_cbrt_matches_python_to_the_last_bit_but_one():
    # math.cbrt of a tensor is np.cbrt (SPEC §1), which NumPy computes with SIMD code on
    # CPUs with AVX-512 (its result there is 1 ulp off libm's: cbrt(-1.5)); the cpu
    # backend calls libm as math does
    differential.agree(cube_root, calls=[(F64(-1.5),), (F64(1e308),), (F64(-0.0),),
                                         (F64(27.0),)], rtol=4.5e-16, atol=0.0)
    assert math.copysign(1.0, ag.defun(cube_root)(F64(-0.0))) == -1.0


def domain(kind, x):
    if kind == 0:
        return math.sqrt(x)
    if kind == 1:
        return math.exp(x)
    if kind == 2:
        return math.log(x)
    if kind == 3:
        return math.acos(x)
    if kind == 5:
        return math.exp2(x)
    return math.pow(x, -1.0)


def to_int(x):
    return math.floor(x)


def test_math_errors_are_pythons_on_the_runs_that_raise_them():
    agree(domain, [(I64(0), F64(-1.0)), (I64(0), F64(4.0)), (I64(1), F64(1000.0)),
                   (I64(2), F64(0.0)), (I64(3), F64(2.0)), (I64(4), F64(0.0)),
                   (I64(4), F64(2.0)), (I64(5), F64(2000.0)), (I64(5), F64(3.0))])
    agree(to_int, [(F64(np.nan),), (F64(np.inf),), (F64(-2.5),)])


def pendulum(theta, omega, n):
    for _ in range(n):       # the scalar loop a Numba user writes
        omega = omega - 0.01 * 9.81 * math.sin(theta)
        theta = theta + 0.01 * omega
    return theta, omega


def test_a_scalar_loop_of_math_calls():
    agree(pendulum, [(F64(0.5), F64(0.0), I64(50)), (F64(-1.0), F64(0.3), I64(0))])


def gcd_fold(x):
    g = 0
    for v in x:                # (a staged loop: v is a 0-d tensor each trip)
        g = math.gcd(g, v)
    return g, math.gcd(), math.gcd(x[0], x[1], x[2]), math.lcm(x[0], x[1])


def isqrts(x):
    out = np.zeros(len(x), np.int64)
    for i in range(len(x)):
        out[i] = math.isqrt(x[i])
    return out


def divisors(n):
    c = 0
    for d in range(1, math.isqrt(n) + 1):
        c += n % d == 0
    return c


def test_math_gcd_lcm_isqrt_of_integer_tensors_are_pythons():
    """(session 47: they raised TypeError naming np.gcd, with no staged form for isqrt);
    isqrt near 2**63 is exact (the float root set right), a float is Python's TypeError,
    a negative Python's ValueError."""
    agree(gcd_fold, [(np.array([12, 18, 30]),), (np.array([-4, 6, 0], np.int32),),
                     (np.array([0, 0, 0]),)])
    agree(isqrts, [(np.array([0, 1, 2, 3, 15, 16, 17, 2 ** 62, 2 ** 63 - 1, 10 ** 18,
                              10 ** 18 - 1]),), (np.array([8, 9], np.int8),),
                   (np.array([-1]),), (np.array([4.0]),)])
    agree(divisors, [(36,), (97,), (10 ** 6,)])



def gcd_of_elements(x):
    return math.gcd(x[0], x[1])


def test_math_gcd_of_a_numpy_bool_is_pythons_type_error():
    # (np.bool_ has no __index__; a Python bool is an int)
    agree(gcd_of_elements, [(np.array([True, True]),), (np.array([4, 6]),)])
    agree(lambda b, n: math.gcd(b, n), [(True, 4), (False, 6)])


def truncated(x, k):
    if x[0] > 100.0:                     # (staged: raised by the runs that reach it)
        return math.trunc(x[1]) + k
    return math.trunc(k) + math.floor(x[1])


def test_math_trunc_of_a_numpy_number_but_float64_is_pythons_type_error():
    # session 55's probe: math.trunc(float32 element) gave an int; NumPy's numbers have no
    # __trunc__ (np.float64 is a float: it has)
    agree(truncated, [(np.array([1.0, 2.5], np.float32), 3), (np.array([200.0, -2.5],
                                                                      np.float32), 3),
                      (np.array([200.0, -2.5]), 3)])
    agree(lambda x: math.trunc(x[0]), [(np.array([3, 4]),), (np.array([-2.5]),)])


def binned(x, lo, w):
    k = int((x[0] - lo) / w)            # (a float32 bin: int() is its __int__, no __trunc__)
    return k + int(x.sum())


def test_int_of_any_numpy_float_is_its_int_not_truncs_type_error():
    # session 56's probe: int() went through math.trunc, so session 55's TypeError for a
    # float32 (which has no __trunc__) broke `int(x[0])` of every float32 array
    agree(binned, [(np.array([1.7, 2.0], np.float32), np.float32(0.5), np.float32(0.25)),
                   (np.array([-2.5, 9.0], np.float32), np.float32(-4.0), np.float32(1.5))])
