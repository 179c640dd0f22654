"""The Python operators of a tensor where both operands are Python numbers of the plain run.

A weak 0-d tensor stands for a Python number of the plain run: a relaxed int or float
argument, ``len(x)``, a ``range`` counter, an accumulator that starts as ``0`` (SPEC §2).
NumPy's arithmetic is right for it almost everywhere (NumPy 2 treats Python scalars as
weak), but where Python and NumPy part, the plain run is Python's, and a staged weak value
that silently took NumPy's answer would be a wrong result. So between two Python numbers
(at least one of them staged) these operators check on every call, at the user's line:
- ``/``, ``//``, ``%`` by zero raise Python's ``ZeroDivisionError`` (NumPy: inf, nan, 0);
- ``+``, ``-``, ``*``, ``**``, unary ``-`` and ``abs`` of ints raise ``OverflowError``
  where the result leaves int64 (Python's ints grow; a staged Python int is an int64 and
  would wrap): refused, never a wrapped number;
- ``int ** int`` with a negative exponent is a float in Python: a constant exponent gives
  the float; a staged one must not be negative (``ValueError``: an int cannot become a
  float at run time); ``0 ** -1`` and ``0.0 ** -1.0`` raise ``ZeroDivisionError``;
  a negative float to a fractional power is complex in Python (``ValueError``: staged
  numbers stay real) and a float power past the float range raises ``OverflowError``,
  as Python's does.
Arrays and NumPy scalars (``np.int64``, even ``np.float64``, a ``float`` subclass) on
either side keep NumPy's arithmetic. See docs/architecture.md, "Python numbers".
"""
import builtins
import contextlib

import numpy as np

from . import errors, mutation, storage
from .ops.dispatch import INT64_MAX, INT64_MIN, apply
from .ops.dispatch import within as _within
from .ops.check_errors import stand_in
from .ops.io import CHECK_ERRORS
from .ops.registry import public
from .ir.graph import root_graph
from .tensor import SymbolicTensor
from .trace.context import current_graph

# |a * b| below this as float64 products proves the exact int product fits int64 (each
# conversion and the product round by at most 2**-53: 3 roundings < 2**-50, exactly the
# margin); at or above it, the product is refused (may refuse within 2**-50 of the limit)
_FLOAT_PROOF = float(2 ** 63 - 2 ** 13)


def python_number(v):
    """A Python number of the plain run: a Python int/float/bool (not a NumPy scalar,
    though ``np.float64`` is a ``float``) or a weak 0-d tensor."""
    if isinstance(v, (bool, int, float)):
        return not isinstance(v, np.generic)
    return isinstance(v, SymbolicTensor) and v.type.weak and not v.type.ndim


def python_flag(v):
    """Whether ``v`` is a Python number of the plain run: True (on every run), False (on
    none), or a 0-d bool tensor saying on which runs (a strong value merged from paths
    where it is one and paths where it is not: ``SymbolicTensor._python_when``, set by the
    staged `if` and loop that merge them)."""
    if python_number(v):
        return True
    if isinstance(v, SymbolicTensor) and v._python_when is not None and not v.type.ndim:
        return v._python_when
    return False


def path_flag(a, b):
    """Where ``a`` and ``b`` are both Python numbers, when that depends on the path (a
    0-d bool tensor); None when it does not (both are on every run, or one on none)."""
    fa, fb = python_flag(a), python_flag(b)
    if fa is False or fb is False or (fa is True and fb is True):
        return None
    return fb if fa is True else fa if fb is True else apply("logical_and", fa, fb)


def with_python_flag(result, flag):
    """``result`` marked a Python number on the runs ``flag`` holds (None: on none)."""
    if isinstance(result, SymbolicTensor) and not result.type.ndim:
        result._python_when = flag
    return result


def chosen_flag(take, a, b, result):
    """``result``, which is ``a`` where ``take`` holds and ``b`` elsewhere (a conditional
    expression, `max(a, b)`), marked a Python number on the runs where the one it is was
    one (`max(total, 0.0)` of a `total` Python's on some runs); a flag this graph cannot
    read (made inside a branch) is dropped: NumPy's arithmetic there, as before."""
    if not isinstance(result, SymbolicTensor) or result.type.ndim or result.type.weak:
        return result
    fa, fb = python_flag(a), python_flag(b)
    if fa is False and fb is False:
        return result
    graph = current_graph()
    if any(isinstance(f, SymbolicTensor) and graph is not None and not graph.can_see(
            f._value) for f in (fa, fb)):
        return result
    if fa is fb:
        return with_python_flag(result, np.bool_(True) if fa is True else fa)
    return with_python_flag(result, apply("where", take, *[
        np.bool_(f) if isinstance(f, bool) else f for f in (fa, fb)]))


def _checked_on_paths(op, a, b, flag):
    """``a op b`` with Python's errors on the runs ``flag`` holds, where both are Python
    numbers (`total / count` after a loop whose `total += x[i]` ran on some runs only: on
    the others `total` is Python's 0.0): ZeroDivisionError of `/ // %` by zero, a float
    `**`'s errors; NumPy's inf or nan on the rest; and the rest of Python's arithmetic
    there (agreed_on_python_runs)."""
    kinds = (_kind(a) + _kind(b)).replace("u", "i")  # (a merged uint8 is a Python int)
    if op == "power" and _float_pair(a, b):
        with _only_where(flag):  # (`total ** -1` of a total Python's 0.0 on some runs)
            result = _float_power(a, b)
        return agreed_on_python_runs(op, a, b, result)
    if op in _DIVISION and set(kinds) <= set("if"):
        zero = apply("equal", b, 0) if isinstance(b, SymbolicTensor) else b == 0
        if zero is not False:
            check(_not(_and(flag, zero)), _DIVISION[op]["f" in kinds], "ZeroDivisionError")
    try:
        result = apply(op, a, b)
    except OverflowError as e:  # (NumPy's: `s + 2**40` of an int32 `s`)
        if not isinstance(flag, SymbolicTensor):
            raise
        return _pythons_where_numpy_raises(op, a, b, flag, e)
    return agreed_on_python_runs(op, a, b, result)


def _pythons_where_numpy_raises(op, a, b, flag, error):
    """``a op b`` where NumPy raises ``error`` for the merged dtype (a Python int an int32
    cannot take, `s + 2**40` of an `s` that is a NumPy int32 on some runs): raised on those
    runs, and Python's int on the runs ``flag`` holds, where both are Python's (session
    55's probe: raised while tracing, on every run); `v ** -1` of an int that is Python's
    on some runs, NumPy's ValueError on the others and Python's float on those."""
    check(flag, str(error), stand_in(error) or "ValueError")
    pa, pb = (v if python_number(v) else _as_python(v) for v in (a, b))
    with _only_where(flag):
        return arithmetic(op, pa, pb)


# -- the runs where a merged operand is a Python number ------------------------------------
# `v = 0; if x[0] > 100: v = x[0]` of a uint8 `x` leaves `v` a staged uint8 that is Python's
# int 0 on the runs that skipped the branch (a flag says which: python_flag). The staged
# arithmetic is NumPy's uint8 one on every run; on those runs Python's is the int's: `v - 1`
# is -1 there, where the uint8 gives 255, and `s * 10**6` of an int64 `s` that is Python's 3
# grows where the int64 wraps (session 56's probes: both silent). A result the compiled
# function cannot give on such a run is refused there, at the user's line: Python's own
# answer is computed beside NumPy's (from the number widened to the Python type's dtype)
# and the run raises where they differ, or where Python's int leaves int64. Where both
# computations are the same (operands already int64/float64, one result dtype) nothing is
# staged but that overflow check: float64 code pays nothing.
_ARITHMETIC = ("add", "subtract", "multiply", "true_divide", "floor_divide", "mod", "power")
_PYTHON_DTYPES = {"b": np.dtype(np.int64), "i": np.dtype(np.int64), "u": np.dtype(np.int64),
                  "f": np.dtype(np.float64), "c": np.dtype(np.complex128)}


def _python_type(v):
    """The dtype of the Python number a flagged operand is on its runs (int64 for any int)."""
    return _PYTHON_DTYPES[np.dtype(_dtype(v)).kind]


def _dtype(v):
    return v.dtype if isinstance(v, (SymbolicTensor, np.generic, np.ndarray)) else np.result_type(v)


def _as_python(v, ints=True):
    """``v`` (a strong 0-d tensor that is a Python number on some runs) as that number: a
    weak value of the Python type's dtype; a bool stays a bool beside a NumPy number (not
    ``ints``: `np.True_ + True` is NumPy's bool, `True + True` Python's int 2)."""
    if v.dtype.kind == "b" and not ints:
        return apply("as_weak", v)
    dtype = _python_type(v)
    return apply("as_weak", v if v.dtype == dtype else apply("cast", v, dtype=dtype))


def agreed_on_python_runs(op, a, b, result):
    """``result`` (NumPy's ``a op b``), checked on the runs where an operand with a staged
    Python-number flag is the Python number (section comment above)."""
    flags = [python_flag(a), python_flag(b)]
    staged = [isinstance(f, SymbolicTensor) for f in flags]
    graph = current_graph()
    if op not in _ARITHMETIC or not any(staged) or not isinstance(result, SymbolicTensor) or any(
            s and graph is not None and not graph.can_see(f._value)
            for s, f in zip(staged, flags)):
        return result
    choices = [(True, False) if s else (f,) for s, f in zip(staged, flags)]
    for python_a in choices[0]:
        for python_b in choices[1]:
            taken = [p for p, s in zip((python_a, python_b), staged) if s]
            if not any(taken):
                continue  # (the runs where each flagged operand is NumPy's: `result` itself)
            runs = True
            for p, s, f in zip((python_a, python_b), staged, flags):
                if s:
                    runs = _and(runs, f if p else _not(f))
            _check_python_run(op, a, b, result, python_a, python_b, staged, runs)
    return result


def _check_python_run(op, a, b, result, python_a, python_b, staged, runs):
    """The check of ``result`` on ``runs``, where ``a`` is a Python number iff ``python_a``
    (and ``b`` likewise): Python's int leaves int64, or its answer differs from NumPy's."""
    both = python_a and python_b
    pa = _as_python(a, both) if staged[0] and python_a else a
    pb = _as_python(b, both) if staged[1] and python_b else b
    ints = both and _dtype(pa).kind == "i" and _dtype(pb).kind == "i"
    if op == "power" and ints and (isinstance(pb, SymbolicTensor) or pb < 0):
        return  # (an int to a staged or negative power: Python's float, not checked here)
    alt = apply(op, pa, pb)  # (unused where it is `result`'s computation: dce.py drops it)
    same = _dtype(alt) == _dtype(result) and all(
        _dtype(v) == _dtype(w) for v, w in ((pa, a), (pb, b)))
    with _only_where(runs):
        if ints and op in ("add", "subtract", "multiply", "power"):
            check(_fits(op, pa, pb, alt), overflow_message(op), "OverflowError")
        if not same:
            check(_equal(alt, result), _differs(op, result, a if staged[0] and python_a
                                                else b), "NotImplementedError")


def _equal(x, y):
    """Whether the values ``x`` and ``y`` are equal (NaN to NaN), compared exactly in the
    dtype both cast to losslessly, neither weak (a weak float64 beside a float32 would
    compare in float32); one 0-d bool however many elements."""
    common = np.promote_types(_dtype(x), _dtype(y))
    x, y = (v if v.dtype == common and not v.type.weak else
            apply("cast", v, dtype=common) for v in (x, y))
    agree = apply("equal", x, y)
    if common.kind in "fc":
        agree = apply("logical_or", agree, apply("logical_and", apply("isnan", x),
                                                 apply("isnan", y)))
    return apply("reduce_all", agree) if agree.type.ndim else agree


def _differs(op, result, merged):
    kind = {"b": "bool", "i": "int", "u": "int"}.get(merged.dtype.kind, "float")
    return (f"`{_SYMBOLS[op]}` of a value that is a Python number on this run and a NumPy "
            f"{merged.dtype} on others (a variable that a staged `if` or loop, or a min/max, "
            f"leaves a Python number on some paths only) has another value in Python here than the "
            f"compiled result, a {result.dtype} on every run; give the variable one type on "
            f"every path (`np.{merged.dtype}(...)` where it starts, or `{kind}(...)` of the "
            f"NumPy value)")


def _float_pair(a, b):
    kinds = _kind(a) + _kind(b)
    return "f" in kinds and set(kinds) <= set("if")


def _staged_pair(a, b):
    return python_number(a) and python_number(b) and (
        isinstance(a, SymbolicTensor) or isinstance(b, SymbolicTensor))


def _kind(v):
    if isinstance(v, SymbolicTensor):
        return v.dtype.kind
    return "c" if isinstance(v, complex) else "f" if isinstance(v, float) else "i"


def _complex_zero_power(a, b):
    """Python's ZeroDivisionError for ``0 ** b`` of Python numbers, one complex, where ``b``
    is negative or complex."""
    b_re = b.real if isinstance(b, SymbolicTensor) else complex(b).real
    b_im = b.imag if isinstance(b, SymbolicTensor) else complex(b).imag
    bad = _and(_test("equal", a, 0), _not(_and(_test("greater_equal", b_re, 0.0),
                                                _test("equal", b_im, 0.0))))
    if isinstance(bad, SymbolicTensor) or bad:
        check(_not(bad), "0.0 to a negative or complex power", "ZeroDivisionError")


def _divided_by_complex(b):
    """Python's ZeroDivisionError for ``a / b`` of Python numbers, one complex."""
    if isinstance(b, SymbolicTensor):
        check(apply("not_equal", b, 0), "complex division by zero", "ZeroDivisionError")
    elif b == 0:
        raise errors.numpy_error_at_user(ZeroDivisionError("complex division by zero"))


_ONLY_WHERE = [None]  # (a flag: the checks made now hold only on its runs)


@contextlib.contextmanager
def _only_where(flag):
    """The checks made inside hold only on the runs ``flag`` holds (``check``)."""
    before, _ONLY_WHERE[0] = _ONLY_WHERE[0], flag
    try:
        yield
    finally:
        _ONLY_WHERE[0] = before


def check(ok, message, error):
    """The check ``ok``: raised now when it is a Python bool known while tracing, staged
    when it is a 0-d bool tensor (numpy_vectorize.py, numpy_spaces.py and the einsum
    diagonals use it too)."""
    where = _ONLY_WHERE[0]
    if where is not None and ok is not True:  # (Python's error on its runs only)
        ok = _not(where) if ok is False else apply("logical_or", _not(where), ok)
    if isinstance(ok, SymbolicTensor):
        apply("assert", ok, message=message, error=error)
    elif not ok:
        raise CHECK_ERRORS[error](message)


def _ceil_div(p, q):
    return -((-p) // q)


def _root_bounds(k):
    """The ints ``a`` with ``a ** k`` in int64, for a constant ``k >= 2``: (lo, hi)."""
    hi = int(round(INT64_MAX ** (1.0 / k)))
    while hi ** k > INT64_MAX:
        hi -= 1
    while (hi + 1) ** k <= INT64_MAX:
        hi += 1
    lo = -hi
    if k % 2 and (-(hi + 1)) ** k >= INT64_MIN:
        lo = -(hi + 1)
    return lo, hi


def _exponent_bound(k):
    """The largest ``e`` with ``k ** e`` in int64, for a constant base ``|k| >= 2``."""
    e = 0
    while INT64_MIN <= k ** (e + 1) <= INT64_MAX:
        e += 1
    return e


def _operand_bounds(op, k, x_left):
    """(lo, hi): the staged int ``x`` with ``x op k`` (``x_left``) or ``k op x`` in int64,
    for a constant ``k``; None for a power (its bounds are not an interval of this kind)."""
    if op == "add":
        return INT64_MIN - k, INT64_MAX - k
    if op == "subtract":
        return (INT64_MIN + k, INT64_MAX + k) if x_left else (k - INT64_MAX, k - INT64_MIN)
    if op == "multiply":
        if k == 0:
            return INT64_MIN, INT64_MAX
        return ((_ceil_div(INT64_MIN, k), INT64_MAX // k) if k > 0
                else (_ceil_div(INT64_MAX, k), INT64_MIN // k))
    return None


def _range(v):
    """(lo, hi): the values the int ``v`` holds wherever it is used: a constant's own; a
    value whose overflow check bounded it (``_note_range``), those; else int64's."""
    if not isinstance(v, SymbolicTensor):
        return int(v), int(v)
    return root_graph(current_graph()).int_ranges.get(v._value.id, (INT64_MIN, INT64_MAX))


def _within_known(v, lo, hi):
    """``_within``, or True where ``v``'s known range lies inside [lo, hi] already: `3 * v
    + 1` checks the product only (it is at most 3 * (INT64_MAX // 3), so adding 1 fits):
    one branch per Collatz-like step, not two."""
    have = _range(v)
    if lo <= have[0] and have[1] <= hi:
        return True
    return _within(v, lo, hi)


def _note_range(op, a, b, result):
    """Records, for ``result = a op b`` of ints whose overflow check passed, the interval
    it lies in, when one operand is a constant: the staged one is inside that check's
    bounds (and its own range) where the result is used (every use comes after the check,
    which raises otherwise), so the result is inside their image."""
    staged_left = isinstance(a, SymbolicTensor)
    if op not in ("add", "subtract", "multiply") or staged_left == isinstance(
            b, SymbolicTensor) or not isinstance(result, SymbolicTensor):
        return
    x, k = (a, int(b)) if staged_left else (b, int(a))
    lo, hi = _operand_bounds(op, k, staged_left)
    have = _range(x)
    lo, hi = max(lo, have[0]), min(hi, have[1])
    if lo > hi:
        return
    if op == "multiply":
        lo, hi = sorted((lo * k, hi * k))
    elif op == "add":
        lo, hi = lo + k, hi + k
    else:
        lo, hi = (lo - k, hi - k) if staged_left else (k - hi, k - lo)
    if (lo, hi) != (INT64_MIN, INT64_MAX):
        root_graph(current_graph()).int_ranges[result._value.id] = (lo, hi)


def _fits(op, a, b, result):
    """Whether ``a op b`` of two ints (one staged) fits int64: a bool tensor or ``True``."""
    if not isinstance(a, SymbolicTensor):  # a constant left operand
        k = int(a)
        if op == "multiply":
            return _fits("multiply", b, a, result)
        if op == "power":  # k ** b, b >= 0 (checked before)
            return True if builtins.abs(k) < 2 else _within(b, 0, _exponent_bound(k))
        return _within_known(b, *_operand_bounds(op, k, False))
    if not isinstance(b, SymbolicTensor):  # a constant right operand
        k = int(b)
        if op == "power":
            return True if k < 2 else _within(a, *_root_bounds(k))
        return _within_known(a, *_operand_bounds(op, k, True))
    if op == "add":  # signs: the result's differs from both operands' only on overflow
        return apply("greater_equal", apply("bitwise_and", apply("bitwise_xor", a, result),
                                            apply("bitwise_xor", b, result)), 0)
    if op == "subtract":
        return apply("greater_equal", apply("bitwise_and", apply("bitwise_xor", a, b),
                                            apply("bitwise_xor", a, result)), 0)
    fa, fb = (apply("cast", v, dtype=np.dtype(np.float64)) for v in (a, b))
    return apply("less", apply("abs", apply(op, fa, fb)), _FLOAT_PROOF)


_SYMBOLS = {"add": "+", "subtract": "-", "multiply": "*", "power": "**", "true_divide": "/",
            "floor_divide": "//", "mod": "%", "negative": "-", "abs": "abs()"}


def overflow_message(op):
    return (f"Python int {_SYMBOLS[op]} overflowed int64: the plain run's int is larger "
            f"than a staged Python int (an int64) holds; use floats, or NumPy ints to get "
            f"NumPy's wrap-around")


def _int_power(a, b):
    """``a ** b`` of two Python ints: Python's float for a negative exponent."""
    if not isinstance(b, SymbolicTensor) and b < 0:  # Python: a float, 0 ** -1 raises
        check(apply("not_equal", a, 0), "0.0 cannot be raised to a negative power",
               "ZeroDivisionError")
        return _float_power(apply("as_weak", apply("cast", a, dtype=np.dtype(np.float64))),
                            float(b))
    check(True if not isinstance(b, SymbolicTensor) else apply("greater_equal", b, 0),
           "a Python int to a negative power is a float in Python, which a staged int "
           "cannot become; write float(a) ** b", "ValueError")
    result = apply("power", a, b)
    check(_fits("power", a, b, result), overflow_message("power"), "OverflowError")
    return result


def _float_power(a, b):
    """``a ** b`` of two Python numbers, one a float: Python's errors where NumPy gives
    inf, nan or a complex number's absence."""
    check(_not(_and(_test("equal", a, 0.0), _test("less", b, 0.0))),
           "0.0 cannot be raised to a negative power", "ZeroDivisionError")
    if _kind(b) == "f":
        fractional = (b != np.floor(b) if not isinstance(b, SymbolicTensor)
                      else apply("not_equal", apply("floor", b), b))
        check(_not(_and(_test("less", a, 0.0), fractional)),
               "a negative Python float to a fractional power is a complex number in "
               "Python; staged numbers stay real (np.power gives NumPy's nan)", "ValueError")
    result = apply("power", a, b)
    finite_in = _and(_test("isfinite", a), _test("isfinite", b))
    check(_not(_and(finite_in, _not(apply("isfinite", result)))),
           "(34, 'Numerical result out of range')", "OverflowError")
    return result


def _test(op, v, *more):
    """The NumPy test ``op`` of ``v``: staged for a tensor, a Python bool for a number."""
    if isinstance(v, SymbolicTensor):
        return apply(op, v, *more)
    return bool(getattr(np, op)(v, *more))


def _and(x, y):
    if x is False or y is False:
        return False
    return y if x is True else x if y is True else apply("logical_and", x, y)


def _not(x):
    if isinstance(x, bool):
        return not x
    node = x._value.node
    if node is not None and node.op == "logical_not":
        return SymbolicTensor(node.inputs[0])  # (not not p: p, for bounds.proves)
    return apply("logical_not", x)


def _bool_as_int(v):
    """A Python bool in arithmetic is the int 0 or 1 (``True + True`` is 2, ``1 / False``
    raises), where NumPy's bools add logically and refuse ``-``: a staged one, cast."""
    if isinstance(v, SymbolicTensor) and v.dtype.kind == "b":
        return apply("as_weak", apply("cast", v, dtype=np.dtype(np.int64)))
    return int(v) if isinstance(v, bool) else v


def arithmetic(op, a, b):
    """``a op b`` for the Python operator of ``op``: Python's checks between two Python
    numbers, NumPy's arithmetic otherwise."""
    if _staged_pair(a, b) and "b" in _kind(a) + _kind(b):
        a, b = _bool_as_int(a), _bool_as_int(b)
    flag = path_flag(a, b)
    if flag is not None and (op != "power" or _float_pair(a, b)) and op not in (
            "left_shift", "right_shift"):
        return with_python_flag(_checked_on_paths(op, a, b, flag), flag)
    kinds = _kind(a) + _kind(b)
    if op == "true_divide" and "c" in kinds and _staged_pair(a, b):  # (NumPy: inf, nan)
        _divided_by_complex(b)
    if op == "power" and "c" in kinds and _staged_pair(a, b):  # (NumPy: nan)
        _complex_zero_power(a, b)
    if op == "power" and not _staged_pair(a, b):
        try:
            powered = integer_power(a, b)
        except ValueError as e:  # (NumPy's int to a negative power; Python's is a float)
            if not isinstance(flag, SymbolicTensor):
                raise
            return _pythons_where_numpy_raises(op, a, b, flag, e)
        return agreed_on_python_runs(op, a, b, powered)
    if not _staged_pair(a, b) or not set(kinds) <= set("if"):
        return agreed_on_python_runs(op, a, b, apply(op, a, b))
    if op == "power":
        return _int_power(a, b) if kinds == "ii" else _float_power(a, b)
    if op in _DIVISION:
        return _divided(op, a, b, "f" in kinds)
    if op in ("left_shift", "right_shift"):
        return _shifted(op, a, b) if kinds == "ii" else apply(op, a, b)
    result = apply(op, a, b)
    if kinds == "ii":
        check(_fits(op, a, b, result), overflow_message(op), "OverflowError")
        _note_range(op, a, b, result)
    return result


@public("np.power", "ag.pow", "ag.math.pow")
def integer_power(a, b):
    """NumPy's power, which refuses an int array to a negative int power (ValueError) where
    Numba's kernel would give 0: a staged exponent of an int power is checked on every call
    (a constant one while tracing)."""
    _no_negative_int_exponent(a, b)
    return apply("power", a, b)


def _no_negative_int_exponent(a, b):
    """NumPy's check of an int power (``a ** b``, ``a **= b``, ``np.power``)."""
    dts = [v.dtype if isinstance(v, SymbolicTensor) else np.asarray(v).dtype for v in (a, b)]
    if not any(isinstance(v, SymbolicTensor) for v in (a, b)) or dts[0].kind not in "iub" \
            or dts[1].kind != "i" or np.result_type(*dts).kind not in "iu":
        return
    message = "Integers to negative integer powers are not allowed."
    if isinstance(b, SymbolicTensor):
        negative = apply("less", b, 0)
        if b.ndim:
            negative = apply("reduce_any", negative, axis=None, keepdims=False)
        check(_not(negative), message, "ValueError")
    elif np.any(np.asarray(b) < 0) and not (type(b) is int and dts[0].kind in "iu" and not (
            np.iinfo(dts[0]).min <= b <= np.iinfo(dts[0]).max)):
        # (a Python int beyond a's dtype: NumPy's OverflowError); NumPy's own error, raised
        # by the runs that reach it (a staged branch never taken raises nothing)
        raise errors.numpy_error_at_user(ValueError(message))


_INEXACT_QUOTIENT = (
    "a Python int / Python int with an operand that is no float64 (beyond 2**53): Python "
    "rounds the exact quotient once, a staged Python int (an int64) is divided as two "
    "float64s, each rounded first; use // for the integer quotient, or float(a) / b for "
    "the float division")


def _a_float64(v):
    """Whether the Python int ``v`` is a float64 exactly (every int within 2**53 is)."""
    if not isinstance(v, SymbolicTensor):
        return float(v) == v
    near = apply("cast", v, dtype=np.dtype(np.float64))
    below = apply("less", near, 2.0 ** 63)  # (2**63 - 1 rounds up to 2**63, no int64)
    back = apply("cast", apply("where", below, near, 0.0), dtype=np.dtype(np.int64))
    return _and(below, apply("equal", back, v))


# Python's `/`, `//` and `%` of two Python numbers raise ZeroDivisionError on a zero divisor
# (the message: int operands, float operands), where NumPy's give inf, nan or 0.
_DIVISION = {"true_divide": ("division by zero", "float division by zero"),
             "floor_divide": ("integer division or modulo by zero",
                              "float floor division by zero"),
             "mod": ("integer modulo by zero", "float modulo")}


def _divided(op, a, b, floats):
    message = _DIVISION[op][floats]
    if isinstance(b, SymbolicTensor):
        check(apply("not_equal", b, 0), message, "ZeroDivisionError")
    elif b == 0:  # (Python's own error, raised by the runs that reach it)
        raise errors.numpy_error_at_user(ZeroDivisionError(message))
    if op == "true_divide" and not floats:
        for v in (a, b):  # (Python rounds the exact quotient once; float64 operands would
            # round an int that is no float64 first, a different quotient)
            check(_a_float64(v), _INEXACT_QUOTIENT, "NotImplementedError")
    if op == "floor_divide" and not floats:  # -2**63 // -1 is 2**63 (Numba's: 0)
        a_min = apply("greater", a, INT64_MIN) if isinstance(a, SymbolicTensor) else \
            a != INT64_MIN
        b_minus = apply("not_equal", b, -1) if isinstance(b, SymbolicTensor) else b != -1
        check(_not(_and(_not(a_min), _not(b_minus))),
               "Python int // overflowed int64: the plain run's int is 2**63", "OverflowError")
    return apply(op, a, b)


def _shifted(op, a, b):
    """``a << b`` and ``a >> b`` of two Python ints: a negative count raises ValueError, a
    left shift past int64 OverflowError (Python's int would grow)."""
    check(_test("greater_equal", b, 0), "negative shift count", "ValueError")
    result = apply(op, a, b)
    if op == "left_shift":
        if not isinstance(b, SymbolicTensor):
            fits = _fits("multiply", a, 2 ** int(b), result) if b < 64 else _test(
                "equal", a, 0)
        else:  # (a * 2.0**b is exact in float64; 0 << b is 0 for any b)
            scaled = apply("multiply", _as_float(a), apply("power", 2.0, _as_float(b)))
            fits = apply("logical_or", _test("equal", a, 0),
                         apply("less", apply("abs", scaled), float(2 ** 63)))
        check(fits, "Python int << overflowed int64: the plain run's int is larger than a "
               "staged Python int (an int64) holds", "OverflowError")
    return result


def _as_float(v):
    return apply("cast", v, dtype=np.dtype(np.float64)) if isinstance(v, SymbolicTensor) \
        else float(v)


def _not_repeated(t, o):
    """``o`` for ``t * o``: NumPy repeats a list or tuple times a 0-d integer array (its
    ``__index__``), which a tensor count cannot do while tracing: refused, not turned into
    an elementwise product (``[0.0] * len(x)`` with a size known only at run time)."""
    if isinstance(o, (list, tuple)) and t.ndim == 0 and t.dtype.kind in "iub":
        raise TypeError("a Python list or tuple repeated a tensor number of times (e.g. "
                        "[0.0] * len(x) where the size is known only at run time) has no "
                        "staged form; use np.zeros(n) or np.full(n, v)")
    if isinstance(o, (list, tuple)) and t.ndim == 0 and isinstance(t, SymbolicTensor) and (
            t.type.weak or not storage.is_argument_itself(t)):
        # a Python float or a NumPy scalar times a list is Python's TypeError (only a 0-d
        # array argument multiplies the list's array elementwise)
        name = "float" if t.type.weak else f"numpy.{t.dtype.name}"
        raise TypeError(f"can't multiply sequence by non-int of type '{name}'")
    return o


def _operators(op, name):
    """``Tensor.__<name>__``, ``__r<name>__`` and ``__i<name>__`` for the op."""
    def method(x, o):
        if op == "power" and type(o) is int and o == 2 and x.ndim and x.dtype == np.bool_:
            # (ndarray.__pow__ takes np.square for ** 2, which makes a bool array int8)
            x = apply("cast", x, dtype=np.dtype(np.int8))
        return arithmetic(op, x, _not_repeated(x, o) if op == "multiply" else o)

    def reflected(x, o):
        return arithmetic(op, _not_repeated(x, o) if op == "multiply" else o, x)

    def in_place(x, o):
        if python_number(x) and python_number(o):
            return arithmetic(op, x, o)  # (a number is immutable: `a += b` rebinds a)
        if op == "power":
            _no_negative_int_exponent(x, o)
        flag = path_flag(x, o)
        if flag is not None:
            _checked_on_paths(op, x, o, flag)
        result = mutation.augmented(x, op, o)
        if flag is None and not x.ndim:  # (a new number: checked where one is Python's)
            agreed_on_python_runs(op, x, o, result)
        if python_flag(x) is not False:  # (`total += x[i]`: a NumPy number from here)
            return with_python_flag(result, flag)
        return result
    for form, fn in (("", method), ("r", reflected), ("i", in_place)):
        fn.__name__ = fn.__qualname__ = f"__{form}{name}__"
        public(f"Tensor.__{form}{name}__")(fn)


for _op, _name in (("add", "add"), ("subtract", "sub"), ("multiply", "mul"),
                   ("power", "pow"), ("true_divide", "truediv"),
                   ("floor_divide", "floordiv"), ("mod", "mod"),
                   ("left_shift", "lshift"), ("right_shift", "rshift")):
    _operators(_op, _name)


def _unary(op, name):
    def method(x):
        if python_number(x):
            x = _bool_as_int(x)  # (-True is -1; NumPy refuses a bool's negative)
        result = apply(op, x)
        if isinstance(python_flag(x), SymbolicTensor):  # (-total of a number Python's on
            with_python_flag(result, python_flag(x))     # some runs: Python's there too)
            _unary_on_python_runs(op, name, x, result)
        if python_number(x) and x.dtype.kind == "i":  # -(-2**63), abs(-2**63): 2**63
            # (x > min, not x != min: a bound bounds.proves can drop for a counter)
            check(apply("greater", x, INT64_MIN), f"Python int {name}() overflowed "
                   f"int64: the plain run's int is 2**63", "OverflowError")
        return result
    method.__name__ = method.__qualname__ = f"__{name}__"
    public(f"Tensor.__{name}__")(method)


def _unary_on_python_runs(op, name, x, result):
    """`-v`/`abs(v)` of a ``v`` that is a Python number on the runs its flag holds: there
    Python's (of the int, or the float) must be the compiled one (`-v` of a merged uint8
    that is Python's 5 is -5, the uint8's 251: refused on those runs)."""
    graph = current_graph()
    flag = python_flag(x)
    if graph is not None and not graph.can_see(flag._value):
        return
    px = _as_python(x)
    alt = apply(op, px)
    with _only_where(flag):
        if px.dtype.kind == "i":
            check(apply("greater", px, INT64_MIN), f"Python int {name}() overflowed "
                  f"int64: the plain run's int is 2**63", "OverflowError")
        if alt.dtype != result.dtype or px.dtype != x.dtype:
            check(_equal(alt, result), _differs(op, result, x), "NotImplementedError")


_unary("negative", "neg")
_unary("abs", "abs")


@public("Tensor.__invert__")
def _invert(x):
    """``~x``: of NumPy bools, logical not (NumPy's); of a Python bool, the int's bitwise
    not (``~True`` is -2)."""
    if python_number(x):
        x = _bool_as_int(x)
    return apply("logical_not" if x.dtype.kind == "b" else "invert", x)


@public("Tensor.__pos__")
def _pos(x):
    """``+x``: ``x`` itself (of a Python bool, its int: ``+True`` is 1)."""
    return _bool_as_int(x) if python_number(x) else x
