"""Every elementwise op of the table at the edges of every dtype, against NumPy bit for bit.

The property tests (test_elementwise.py) draw values in [-100, 100]; the bugs live at the
ends: the minimum and maximum of each integer type (``-2**63 // -1``, ``lcm`` and ``**``
wrapping, ``uint64 >> 1``, ``sign`` of a large unsigned int), signed zeros (``maximum`` of
0.0 and -0.0, ``sign(-0.0)``), infinities, NaN, subnormals, mixed dtypes whose common type
is wider than both (``fmod(int32, float32)`` is float64), and Python numbers beyond a
dtype (``int8_x < 300``, ``int8_x + 300``: exact, or NumPy's OverflowError). A sweep of
these found eleven silent differences on the cpu backend in session 25.

Each case is one kernel over every op NumPy has for the dtypes, on the outer product of the
edge values (``a[:, None]`` with ``b[None, :]``), called twice (the second call on the
values rolled, the same signature). Exact except the libm functions (within 4 ulp, NaN and
infinities exact) and the sign of a tie between 0.0 and -0.0 in fmax/fmin, which NumPy
itself gives differently by array size (its SIMD loop returns the second operand, its
scalar loop the first).
"""
import warnings

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS
from ops_strategies import deep
from test_elementwise import BINARY, UNARY

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_INEXACT = set("exp log log1p expm1 log2 log10 sin cos tan arcsin arccos arctan sinh cosh "
               "tanh arcsinh arccosh arctanh cbrt exp2 deg2rad rad2deg degrees radians "
               "arctan2 hypot logaddexp logaddexp2 power float_power true_divide".split())
_TIES = {"fmax", "fmin"}


def edges(dt):
    """The values where kernels go wrong, for dtype ``dt``."""
    dt = np.dtype(dt)
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind in "iu":
        i = np.iinfo(dt)
        wanted = {int(i.min), int(i.min) + 1, -2, -1, 0, 1, 2, 3, int(i.max) - 1, int(i.max)}
        return np.array(sorted(v for v in wanted if i.min <= v <= i.max), dt)
    f = np.finfo(dt)
    return np.array([-np.inf, -f.max, -2.5, -1.0, -0.5, -0.0, 0.0, f.smallest_subnormal,
                     f.tiny, 0.5, 1.0, 3.0, f.max, np.inf, np.nan], dt)


def _numpy(f, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return f(*args)
        except Exception as e:  # noqa: BLE001 - compared by type below
            return e


def _cpu_has(out):
    """The cpu backend has no float16 (test_elementwise's float16 test: a clear refusal)."""
    return np.asarray(out).dtype != np.float16


def _usable(names, backend, *args):
    """The ops of ``names`` NumPy has for these operands (and the backend can give)."""
    out = []
    for n in names:
        r = _numpy(getattr(np, n), *args)
        if isinstance(r, TypeError) or (backend == "cpu" and not _cpu_has(r)):
            continue
        out.append(n)
    return out


def _mismatches(name, got, want):
    """Where ``got`` differs from NumPy's ``want`` (bit for bit, with the tolerances the
    module docstring names): a boolean mask, or a string when dtype or shape differ."""
    g, w = np.asarray(got), np.asarray(want)
    if g.dtype != w.dtype or g.shape != w.shape:
        return f"{g.dtype}{g.shape}, NumPy gives {w.dtype}{w.shape}"
    if w.dtype.kind not in "fc":
        return g != w
    nan = np.isnan(w)
    same = (g == w) | (nan & np.isnan(g))
    if name not in _TIES:
        same &= (np.signbit(g) == np.signbit(w)) | nan
    if name in _INEXACT:
        with np.errstate(all="ignore"):
            same |= np.isfinite(w) & (np.abs(g.astype(np.float64) - w)
                                      <= 4 * np.spacing(np.abs(w)))
    return ~same


def _check(f, names, calls, backend, describe):
    """``f`` (a tuple, one result per name) through ag.defun on each call, against NumPy."""
    fn = ag.defun(f, autograph=False, backend=backend)
    problems = []
    for args in calls:
        want = _numpy(f, *args)
        got = _numpy(lambda *a: tuple(t.numpy() for t in fn(*a)), *args)
        if isinstance(want, Exception) or isinstance(got, Exception):
            if type(got) is not type(want):
                problems.append(f"{describe(args)}: NumPy gives {want!r}, ag {got!r}")
            continue
        for name, g, w in zip(names, got, want):
            bad = _mismatches(name, g, w)
            if isinstance(bad, str) or bad.any():
                where = bad if isinstance(bad, str) else "; ".join(
                    f"at {describe(args, tuple(i))}: {g[tuple(i)]!r} vs NumPy {w[tuple(i)]!r}"
                    for i in np.argwhere(bad)[:3])
                problems.append(f"{name}: {where}")
    assert not problems, "\n".join(problems)


_EVERY = (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64)
# CI: the narrowest and widest of each kind (each dtype is a compile); deep runs: all
_DTYPES = _EVERY if deep() else (np.bool_, np.int8, np.int64, np.uint8, np.uint64,
                                 np.float32, np.float64)


def _name(dt):
    return np.dtype(dt).name


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", _DTYPES, ids=_name)
def test_unary_ops_at_the_edges(dt, backend):
    x = edges(dt)
    names = _usable(UNARY, backend, x)

    def f(x):
        return tuple(getattr(np, n)(x) for n in names)
    _check(f, names, [(x,), (np.roll(x, 3),)], backend,
           lambda args, i=None: f"{_name(dt)} {args[0] if i is None else args[0][i]!r}")


_PAIRS = [(d, d) for d in _DTYPES] + [
    (np.int64, np.float64), (np.uint64, np.int64), (np.int8, np.uint8), (np.bool_, np.int8),
    (np.float32, np.int32), (np.int32, np.float32), (np.uint64, np.float64)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("pair", _PAIRS, ids=lambda p: f"{_name(p[0])}-{_name(p[1])}")
def test_binary_ops_at_the_edges(pair, backend):
    """Every pair of edge values of the two dtypes (a negative integer exponent is NumPy's
    ValueError for the whole array: `power` gets the exponents clipped at 0)."""
    a, b = edges(pair[0])[:, None], edges(pair[1])[None, :]
    names = _usable(BINARY, backend, a, np.abs(b) if b.dtype.kind in "iu" else b)

    def f(a, b):
        out = []
        for n in names:
            y = np.maximum(b, 0) if n == "power" and b.dtype.kind in "iu" else b
            out.append(getattr(np, n)(a, y))
        return tuple(out)

    def describe(args, i=None):
        if i is None:
            return f"{_name(pair[0])}, {_name(pair[1])}"
        return f"({args[0][i[0], 0]!r}, {args[1][0, i[1]]!r})"
    _check(f, names, [(a, b), (np.roll(a, 2, axis=0), np.roll(b, 3, axis=1))], backend,
           describe)


_PYTHON = {"int": [0, 1, -1, 2, 127, -128, 255, 256, 2 ** 31 - 1, -2 ** 31, 2 ** 32,
                   2 ** 63 - 1, -2 ** 63],
           "float": [0.0, -0.0, 0.5, -2.5, float("inf"), float("-inf"), float("nan"), 1e308,
                     3e38, 1e-320],
           "bool": [True, False]}
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", sorted(_PYTHON))
@pytest.mark.parametrize("dt", _DTYPES, ids=_name)
def test_python_numbers_at_the_edges(dt, kind, backend):
    """An array with a Python number on either side, the number a signature value on the
    first call and a relaxed (weak) tensor after (SPEC §2): beyond the array's dtype,
    comparisons are exact and arithmetic raises NumPy's OverflowError, never wraps.
    Comparisons and the rest are separate kernels (one OverflowError would hide them)."""
    x = edges(dt)
    numbers = _PYTHON[kind]
    for group in (True, False):
        names = [n for n in _usable(BINARY, backend, x, numbers[0])
                 if (n in _COMPARISONS) == group and n != "power"
                 and not isinstance(_numpy(getattr(np, n), numbers[0], x), TypeError)]

        def f(x, s, names=names):
            return tuple(r for n in names for r in (getattr(np, n)(x, s),
                                                    getattr(np, n)(s, x)))
        both = [n for n in names for _ in (0, 1)]
        _check(f, both, [(x, s) for s in numbers], backend,
               lambda args, i=None: f"{_name(dt)} {args[0] if i is None else args[0][i]!r} "
                                    f"with {args[1]!r}")
