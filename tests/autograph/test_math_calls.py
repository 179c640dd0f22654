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
