"""`math.sqrt(t)`, `math.exp(t)`, ... on a tensor: staged as the NumPy op, with CPython's
errors raised at run time.

Scalar loops written for Numba call `math.*` on numbers; here those numbers may be 0-d
tensors. NumPy returns nan or inf where `math` raises, so each call also stages CPython's
own check (Modules/mathmodule.c): a nan from a number that is not nan is `ValueError:
math domain error`; an infinity from a finite number is `OverflowError: math range error`
for functions that can overflow (exp, cosh, ...) and `ValueError` for the others (log(0),
atanh(1)). Results are weak float64 (a Python float: `math.sqrt(x) * float32_array` stays
float32); `floor`/`ceil`/`trunc` give weak int64 and refuse nan and infinities as Python's
`int` conversion does. A math function with no staged form raises TypeError naming it.
"""
import math

import numpy as np

from autograph_lite import errors, numpy_api
from autograph_lite.ops import dispatch

# math function -> (NumPy ufunc, whether an infinite result of a finite argument is an
# overflow rather than a domain error)
_ONE = {math.sqrt: (np.sqrt, False), math.exp: (np.exp, True), math.expm1: (np.expm1, True),
        math.log10: (np.log10, False), math.log2: (np.log2, False),
        math.log1p: (np.log1p, False), math.sin: (np.sin, False), math.cos: (np.cos, False),
        math.tan: (np.tan, False), math.asin: (np.arcsin, False),
        math.acos: (np.arccos, False), math.atan: (np.arctan, False),
        math.sinh: (np.sinh, True), math.cosh: (np.cosh, True), math.tanh: (np.tanh, False),
        math.asinh: (np.arcsinh, False), math.acosh: (np.arccosh, False),
        math.atanh: (np.arctanh, False), math.fabs: (np.abs, False),
        math.cbrt: (np.cbrt, False), math.exp2: (np.exp2, True)}
# no errors in CPython either: the same multiplication by the same constant, or a sign
_PLAIN = {math.degrees: np.rad2deg, math.radians: np.deg2rad, math.copysign: np.copysign}
_TO_INT = {math.floor: np.floor, math.ceil: np.ceil, math.trunc: np.trunc}
_TESTS = {math.isnan: np.isnan, math.isinf: np.isinf, math.isfinite: np.isfinite}


def _check(ok, message, error):
    dispatch.apply("assert", ok, message=message, error=error)


def scalar(x):
    """``x`` as a tensor, which must be 0-d: a Python number is made from a 0-d array only
    (``int(v)``, ``float(v)``, ``math.sqrt(v)`` of a 1-element vector raise, in NumPy 2)."""
    x = dispatch.convert_to_tensor(x)
    if x.ndim:
        # (NumPy's error on the value's shape: raised by the runs that reach it)
        raise errors.numpy_error(
            TypeError("only 0-dimensional arrays can be converted to Python scalars"))
    return x


def within_int64(t):
    """``t``, a 0-d tensor; a uint64 past int64 (a Python int no staged int holds) is
    refused when the function runs, not wrapped."""
    if t.dtype == np.uint64:
        _check(t <= np.uint64(2 ** 63 - 1), "a uint64 value past int64 max, as a Python "
               "int, is not supported", "OverflowError")
    return t


def _float(x, name):
    x = scalar(x)
    if x.dtype.kind == "c":
        raise TypeError(f"math.{name}() takes a real number, got a complex tensor; use the "
                        f"NumPy function")
    return numpy_api.cast(x, np.float64)


def _checked(r, args, overflow):
    """CPython's checks of a result ``r`` of the float arguments ``args``; ``overflow``:
    whether an infinite result of finite arguments is an OverflowError (else a domain
    error), a bool, or a bool tensor where it depends on the arguments (pow)."""
    any_nan = np.isnan(args[0])
    all_finite = np.isfinite(args[0])
    for a in args[1:]:
        any_nan, all_finite = any_nan | np.isnan(a), all_finite & np.isfinite(a)
    _check(~(np.isnan(r) & ~any_nan), "math domain error", "ValueError")
    inf = np.isinf(r) & all_finite
    if isinstance(overflow, bool):
        _check(~inf, "math range error" if overflow else "math domain error",
               "OverflowError" if overflow else "ValueError")
    else:
        _check(~(inf & ~overflow), "math domain error", "ValueError")
        _check(~(inf & overflow), "math range error", "OverflowError")
    return dispatch.apply("as_weak", r)


def _log(x, base=None):
    x = _float(x, "log")
    r = _checked(np.log(x), [x], False)
    if base is None:
        return r
    b = _float(base, "log")
    lb = _checked(np.log(b), [b], False)
    _check(lb != 0, "float division by zero", "ZeroDivisionError")
    return r / lb


def _pow(x, y):
    x, y = _float(x, "pow"), _float(y, "pow")
    return _checked(np.power(x, y), [x, y], x != 0)  # (0 ** -1: a domain error)


def _atan2(y, x):
    return dispatch.apply("as_weak", np.arctan2(_float(y, "atan2"), _float(x, "atan2")))


def _isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
    """CPython's math.isclose: equal, or neither infinite and ``|b - a|`` within
    ``rel_tol`` of either magnitude or within ``abs_tol`` (NaN: never close)."""
    for tol in (rel_tol, abs_tol):
        if isinstance(tol, (int, float)) and tol < 0:
            raise ValueError("tolerances must be non-negative")
        if not isinstance(tol, (int, float)):
            _check(_float(tol, "isclose") >= 0, "tolerances must be non-negative",
                   "ValueError")
    a, b = _float(a, "isclose"), _float(b, "isclose")
    diff = np.abs(b - a)
    near = (diff <= np.abs(rel_tol * b)) | (diff <= np.abs(rel_tol * a)) | (diff <= abs_tol)
    return (a == b) | (near & ~(np.isinf(a) | np.isinf(b)))


def to_int(fn, name):
    """``name(x)`` to a Python int (weak int64) by the NumPy rounding ``fn``, with CPython's
    errors for NaN and infinities (a bare cast would give a number there)."""
    def call(x):
        t = within_int64(scalar(x))
        if name == "trunc" and not t.type.weak and t.dtype != np.float64:
            # (a NumPy number has no __trunc__, but np.float64, a float: session 55's
            # probe, math.trunc of a float32 element gave an int where Python raises)
            raise errors.numpy_error(TypeError(
                f"type numpy.{t.dtype.name} doesn't define __trunc__ method"))
        if t.dtype.kind in "iub":
            return dispatch.apply("as_weak", numpy_api.cast(t, np.int64))
        v = fn(_float(t, name))
        _check(~np.isnan(v), "cannot convert float NaN to integer", "ValueError")
        _check(np.abs(v) < 2.0 ** 63, "cannot convert float infinity (or a number past "
               "int64) to integer", "OverflowError")
        return dispatch.apply("as_weak", numpy_api.cast(v, np.int64))
    return call


def _integer(x, name):
    """``x``, a 0-d integer tensor (a Python bool is 0 or 1) as int64, for the math
    functions of ints; a float or a NumPy bool is Python's TypeError (no ``__index__``)."""
    t = within_int64(scalar(x))
    if t.dtype.kind not in "iu" and not (t.dtype.kind == "b" and t.type.weak):
        # (a NumPy bool has no __index__ either; a Python bool is an int)
        raise TypeError(f"'numpy.{t.dtype.name}' object cannot be interpreted as an integer "
                        f"(math.{name})")
    return numpy_api.cast(t, np.int64)


def _no_overflow(r, name):
    """``r`` (an int64 that must be >= 0) as a Python int; a negative one wrapped past
    int64, where Python's int grows (`math.gcd(-2**63, 0)` is 2**63): refused."""
    _check(r >= 0, f"math.{name}() overflowed int64: the plain run's int is larger than a "
           f"staged Python int (an int64) holds", "OverflowError")
    return dispatch.apply("as_weak", r)


def _gcd(*xs):
    """math.gcd of ints: np.gcd, folded left (no arguments: 0; one: its absolute value)."""
    r = numpy_api.cast(dispatch.convert_to_tensor(0), np.int64)
    for x in xs:
        r = np.gcd(r, _integer(x, "gcd"))
    return _no_overflow(r, "gcd")


def _lcm(*xs):
    """math.lcm of ints, folded left; a product past int64 is refused (Python's grows)."""
    r = numpy_api.cast(dispatch.convert_to_tensor(1), np.int64)
    for x in xs:
        x = _integer(x, "lcm")
        g = np.gcd(r, x)
        q = np.abs(r // np.where(g == 0, 1, g))
        _check(np.abs(numpy_api.cast(q, np.float64) * numpy_api.cast(x, np.float64))
               < 2.0 ** 63 - 2.0 ** 13, "math.lcm() overflowed int64: the plain run's int is "
               "larger than a staged Python int (an int64) holds", "OverflowError")
        r = np.abs(q * x)
    return _no_overflow(r, "lcm")


_ISQRT_MAX = math.isqrt(2 ** 63 - 1)


def _isqrt(n):
    """math.isqrt of an int: the float root, floored, then set right by one either way
    (float64's root of a number below 2**63 is off by less than one)."""
    n = _integer(n, "isqrt")
    _check(n >= 0, "isqrt() argument must be nonnegative", "ValueError")
    r = numpy_api.cast(np.floor(np.sqrt(numpy_api.cast(np.maximum(n, 0), np.float64))),
                       np.int64)
    r = np.minimum(r, _ISQRT_MAX)
    r = np.where(r * r > n, r - 1, r)
    up = np.minimum(r + 1, _ISQRT_MAX)
    return dispatch.apply("as_weak", np.where((up > r) & (up * up <= n), up, r))


def _one(f, fn, overflow):
    def call(x):
        x = _float(x, f.__name__)
        return _checked(fn(x), [x], overflow)
    return call


STAGED = {f: _one(f, fn, overflow) for f, (fn, overflow) in _ONE.items()}
STAGED.update({f: to_int(fn, f.__name__) for f, fn in _TO_INT.items()})
STAGED.update({f: (lambda x, fn=fn, f=f: fn(_float(x, f.__name__))) for f, fn in _TESTS.items()})
STAGED.update({f: (lambda *xs, fn=fn, f=f: dispatch.apply(
    "as_weak", fn(*[_float(x, f.__name__) for x in xs]))) for f, fn in _PLAIN.items()})
STAGED.update({math.log: _log, math.pow: _pow, math.atan2: _atan2, math.isclose: _isclose,
               math.gcd: _gcd, math.lcm: _lcm, math.isqrt: _isqrt})


def staged(f):
    """The staged form of math function ``f``, or None when it has none."""
    try:
        return STAGED.get(f)
    except TypeError:
        return None
