"""Casts whose results NumPy defines and a Numba kernel's would not (found by a random
grammar of mixed dtypes, session 38).

A float out of an integer dtype's range cast by LLVM (``np.uint8(x)`` in a kernel) is
poison: the cpu backend gave saturated values, junk, or the value of a branch not taken.
NumPy's casts truncate within int32 or int64 and give the minimum beyond it, narrower
types wrapping that (cpu_runtime.f2i32 and kin). A Python number written into an integer
array that cannot hold it is NumPy 2's OverflowError (ValueError for NaN), where the
kernel wrapped it and wrote.
"""
import numpy as np
import pytest

from differential import agree

# values whose casts NumPy gives the same on every path (arrays of any length, 0-d);
# uint32 of values beyond [-2**31, 2**32) differs between NumPy's own loops
WIDE = np.array([-1.0, 300.7, 229369.0, 3e9, -3e9, 1e19, -1e19, np.nan, np.inf, -np.inf,
                 2.5, -2.5])
NARROW = np.array([-1.0, -4.0, 1.75, 3e9, -2e9, 229369.0])


def casts(x, y):
    return (x.astype(np.int8), x.astype(np.uint8), x.astype(np.int16), x.astype(np.uint16),
            x.astype(np.int32), x.astype(np.int64), x.astype(np.uint64), y.astype(np.uint32),
            x.astype(np.float32).astype(np.int16))


def writes_a_branch_value(c, y):
    s = np.float64(-1.0)
    if np.sum(c) > 100:              # not taken: its value must not reach the write
        s = np.float64(y)
    c[2] = s
    c[3:] = s * 2.0
    return c


def test_float_to_int_casts_are_numpys():
    with np.errstate(invalid="ignore"):
        agree(casts, WIDE, NARROW, exact=True)
        agree(writes_a_branch_value, np.array([7, 2, 2, 2, 8], np.uint8), np.int32(5),
              exact=True)


def writes_at(c, s, k):
    c[k] = s
    return c


@pytest.mark.parametrize("values", [[3, -1, 300, 255], [1.0, -1.0, 300.7, 2.9, np.nan]],
                         ids=["ints", "floats"])
def test_a_python_number_an_integer_array_cannot_hold_raises_as_numpy(values):
    """The first call traces the number's value (checked while tracing), the next ones
    relax it to a tensor (a staged check)."""
    errors = []
    agree(writes_at, calls=[(np.array([7, 2, 2], np.uint8), v, np.int64(1)) for v in values],
          exact=True, errors=errors)
    assert {m.split(" (at ")[0] for _, _, m in errors} >= {
        "Python integer -1 out of bounds for uint8", "Python integer 300 out of bounds for uint8"}


def scales_in_a_branch(a, out):
    out[0] = 1.0
    if np.sum(a) > 100:
        a = a * (-2)             # NumPy's OverflowError (-2 into uint8), on the runs there
    return a - 3 if np.sum(a) > 50 else a


def test_an_overflow_numpy_raises_waits_for_the_runs_that_reach_it():
    """It was raised while tracing, for every input (a branch never taken included)."""
    errors = []
    agree(scales_in_a_branch, calls=[(np.array([1, 2, 3], np.uint8), np.zeros(2)),
                                     (np.array([100, 2, 3], np.uint8), np.zeros(2))],
          exact=True, errors=errors)
    assert {m.split(" (at ")[0] for _, _, m in errors} == {
        "Python integer -2 out of bounds for uint8"}


def squares_bools(b, x):
    c = x > 0
    return b ** 2, c ** 2, b ** 3, c ** 2.0


def test_a_bool_array_squared_is_int8_as_numpys_operator_makes_it():
    """NumPy's ``**`` takes np.square for an exponent of 2 (int8 for bools; np.power and
    other exponents give int64): int64 before session 38."""
    agree(squares_bools, np.array([True, False, True]), np.array([1.0, -1.0, 2.0]), exact=True)


def writes_numpy_numbers(a, v, k, x):
    a[k] = v                          # basic indices: NumPy makes v a Python int first
    a[np.array([0, 1])] = v * 0.5     # an advanced index: cast, as the kernel casts
    a[1:] = x.sum()
    a.fill(x[0])
    return a


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.uint8])
def test_a_numpy_number_a_signed_array_cannot_hold_raises_as_numpy(dtype):
    """`i16[k] = np.float64(1e6)` (or `x.sum()`, `np.int64(10**5)`, NaN, inf, beyond a C
    long) is NumPy 2's OverflowError or ValueError: it makes the NumPy number a Python int
    for a signed dtype; the kernel cast it and wrote. Unsigned dtypes and advanced indices
    cast in NumPy too."""
    a, ok = np.zeros(3, dtype), np.array([3.5, -2.0])
    calls = [(a.copy(), v, np.int64(2), ok) for v in (
        np.float64(-3.75), np.float64(1e6), np.float64(np.nan), np.float64(-np.inf),
        np.float64(1e20), np.float64(-2.0 ** 63))]
    calls += [(a.copy(), v, np.int64(0), ok) for v in (np.int64(7), np.int64(-10 ** 5),
                                                        np.int64(-2 ** 63))]
    calls += [(a.copy(), np.float64(1.0), np.int64(1), x) for x in (
        np.array([4e4, 1.0]), np.array([1.0, 4e4]), np.array([np.nan, 1.0]))]
    errors = []
    with np.errstate(invalid="ignore", over="ignore"):
        agree(writes_numpy_numbers, calls=calls, exact=True, errors=errors)
    messages = {m.split(" (at ")[0] for _, _, m in errors}
    if dtype is np.uint8:
        assert not messages
    else:
        assert "cannot convert float NaN to integer" in messages
        assert "Python int too large to convert to C long" in messages
    if dtype is np.int16:
        assert "Python integer -9223372036854775808 out of bounds for int16" in messages


def writes_then_casts_in_place(c, x, n):
    c[0] = 5                          # (before NumPy's casting error: it stays)
    if n > 0:
        c += x                        # float64 into int16: NumPy's UFuncTypeError
    return c


def casts_in_place_on_every_trip(c, v, n):
    c[1] = 3
    for _ in range(n):
        v += np.ones(3, np.int8) * np.int32(-5)   # int32 into uint8: UFuncTypeError
    return c


@pytest.mark.parametrize("fn, v", [(writes_then_casts_in_place, np.array([1.0, 2.0, 3.0])),
                                   (casts_in_place_on_every_trip, np.zeros(3, np.uint8))])
def test_numpys_casting_error_waits_for_the_runs_that_reach_it(fn, v):
    """NumPy's UFuncTypeError (its own TypeError subclass) of `c += x` in a staged branch
    or loop: raised by the runs that reach it, as NumPy's own class, the writes before it
    kept; it was raised while tracing, for every input, the writes lost (dtypes grammar
    865, 927; session 39). The kernel raises a TypeError standing in for it; the call
    raises a copy of NumPy's exception (check_errors.stand_in)."""
    c = np.array([1, 2, 3], np.int16)
    errors = []
    agree(fn, calls=[(c.copy(), v.copy(), np.int64(0)), (c.copy(), v.copy(), np.int64(2)),
                     (c.copy(), v.copy(), np.int64(0))], exact=True, errors=errors)
    assert errors and all("Cannot cast ufunc 'add' output" in m for _, _, m in errors)


def hashes_int64(x):
    h = (x[0] & 1023) * 6364136223846793005 + 1442695040888963407   # an LCG step
    return h % 10, h < 0


def steps_past_int64(t):
    return (t + 1) > t, -(t + 1), t * 3 - t


@pytest.fixture
def llvm_optimizing(monkeypatch):
    """Numba's default optimization level for this test (the suite compiles at -O0,
    conftest.py): what it computes differs only where Numba's IR holds poison."""
    from numba.core import config
    monkeypatch.setenv("NUMBA_OPT", "3")
    config.reload_config()
    yield
    monkeypatch.undo()
    config.reload_config()


def test_int64_arithmetic_wraps_as_numpys(llvm_optimizing):
    """NumPy's int64 + - * wrap on overflow; Numba's carry LLVM's `nsw`, under which an
    overflow is poison the optimizer assumed away: `(t + 1) > t` was True for the largest
    int64, and a wrapped hash's `h % 10` and `h < 0` wrong (7 and False for NumPy's 1 and
    True). Now emitted through cpu_runtime.wrap_add/sub/mul (dtypes grammar 643)."""
    with np.errstate(over="ignore"):
        agree(hashes_int64, calls=[(np.array([2, 1]),), (np.array([5, 1]),),
                                   (np.array([1023, 1]),)], exact=True)
        agree(steps_past_int64, calls=[(np.int64(2 ** 63 - 1),), (np.int64(7),),
                                       (np.int64(-2 ** 63),)], exact=True)


def relaxed_ints_made_elements(x, k):
    # a Python int known only at run time becomes an element of uint8 here: NumPy 2 raises
    # OverflowError where it does not fit (np.select and np.clip: their own rules)
    r = (np.uint8(k), np.array([k, 1], dtype=np.uint8), np.full(2, k, np.uint8),
         np.full_like(x, k), np.ones(2, np.uint8) * k)
    np.putmask(x, x > 150, k)
    return r


def relaxed_ints_by_their_own_rules(x, k):
    return np.select([x > 50], [x], default=k), np.clip(x, 0, k), np.clip(x, k - 300, 255)


def test_a_relaxed_python_int_made_an_element_of_a_narrower_int_is_checked():
    """(the kernel's cast wrapped it: `np.uint8(k)` of 300 was 44, `np.clip(u8, 0, k)` of
    300 clipped everything to 44 on cpu, `np.select(..., default=k)` was int64)"""
    u8 = np.array([200, 100, 30], np.uint8)
    for f in (relaxed_ints_made_elements, relaxed_ints_by_their_own_rules):
        raised = []
        agree(f, calls=[(u8, 5), (u8, 255), (u8, 300), (u8, -1)], exact=True, errors=raised)
        assert raised and all("out of bounds for uint8" in m for *_, m in raised), raised


def python_ints_into_narrow_arrays(x, k):
    np.copyto(x, k)                 # (refused as an int64 "same_kind" cast for k = 3 before)
    x[0:2] = [k, 2]                 # a list: NumPy makes it an array of x's dtype, checked
    x[[1, 2]] = [2, k]
    return x


def test_python_ints_a_list_or_copyto_writes_are_checked():
    """(a list of Python ints written into a uint8 or int8 array wrapped, constants too)"""
    raised = []
    agree(python_ints_into_narrow_arrays,
          calls=[(np.zeros(3, np.uint8), 3), (np.zeros(3, np.uint8), 5),
                 (np.zeros(3, np.uint8), 300), (np.zeros(3, np.int8), -300)],
          exact=True, errors=raised)
    assert raised and all("out of bounds for" in m for *_, m in raised), raised


def diffs_with_ends(x):
    return np.diff(x, prepend=np.nan), np.diff(x, append=0.5), np.diff(x, prepend=0)


def masked_writes(x, v):
    np.putmask(x, x < 0, v)
    np.put(x, [0], v)
    return x


def test_diff_ends_keep_their_dtype_and_masked_writes_convert_as_numpy():
    """(np.diff cast a prepend/append to x's dtype: prepend=np.nan of ints was -2**63; a
    NaN or inf put/putmask into ints wrote INT_MIN where NumPy raises; a float array of
    values into ints was truncated where NumPy's 'safe' rule refuses it)"""
    agree(diffs_with_ends, calls=[(np.array([3, 1, 2]),), (np.array([1.0, 2.0], np.float32),),
                                  (np.array([200, 1], np.uint8),)], exact=True)
    ints = np.array([3, -1, 4, -1])
    raised = []
    agree(masked_writes, calls=[(ints, 2.5), (ints, 7), (ints, np.nan), (ints, np.inf),
                                (ints, np.array([2.5]))], exact=True, errors=raised)
    assert {m.split(" (at")[0].split(":")[0] for *_, m in raised} >= {
        "cannot convert float NaN to integer", "cannot convert float infinity to integer"}


def test_copyto_of_python_numbers_with_safe_casting():
    """(`np.copyto(f32, 3, casting="safe")` was refused as an int64 -> float32 cast: a
    Python number is weak)"""
    def copied(f, k):
        np.copyto(f, k, casting="safe")
        return f
    agree(copied, calls=[(np.zeros(2, np.float32), 3), (np.zeros(2, np.float32), 3.5),
                         (np.zeros(2, np.float32), 4)], exact=True)
