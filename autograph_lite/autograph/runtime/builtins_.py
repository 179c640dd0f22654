"""Builtins with staged forms on tensors; `OVERLOADS` maps each builtin to its version.

On anything that is not a symbolic tensor every function is the builtin itself, so
converted code on Python values behaves exactly as the original.
"""

import builtins
import functools
import itertools
import math
import numbers
import sys
import types

import numpy as np

from autograph_lite import control, dtypes, errors, python_numbers, staged_text
from autograph_lite.api import core as api
from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import (core, data, iteration, list_values, logical,
                                              math_calls, staging, text, trial,
                                              user_operators)
from autograph_lite.trace import sizes


def _any_staged(args):
    return any(core.is_symbolic(a) or isinstance(a, (iteration.StagedIter, data.TensorList))
               or (type(a) is tuple and _any_staged(a)) for a in args)


def len_(x):
    if data.is_users(x) and staging.USER_METHOD(type(x), "__len__") is not None:
        return user_operators.length(x)
    if isinstance(x, data.TensorList):
        return x.length
    if isinstance(x, iteration.StagedIter):
        return x.length()
    if core.is_symbolic(x):
        # a Python int, as `len` gives (weak when staged: `len(x) * f32` stays float32)
        if not x.shape:  # (Python's own error: raised by the runs that reach it)
            raise errors.numpy_error(TypeError("len() of unsized object"))
        return shape_of(x)[0]
    return len(x)


def shape_of(x):
    """``x.shape`` in converted code: a symbolic tensor's sizes as NumPy gives them, staged
    where known only at run time (tensor.py ``numpy_shape``); anything else's ``.shape``."""
    if core.is_symbolic(x):
        if any(d is not None for d in x.shape):
            sizes.note_read(*x.shape)
        return x.numpy_shape()
    if data.is_users(x) and ATTRIBUTE is not None:
        return ATTRIBUTE(x, "shape")  # (a property of the user's class: run converted)
    return x.shape


# calls.attribute (installed there: it imports this module)
ATTRIBUTE = None


def int_(x=0, *args):
    """``int(t)`` of a 0-d tensor. Of a float (or complex: its real part, as NumPy's), a
    Python int (weak int64, python_numbers.py), with CPython's errors for NaN and
    infinities (a bare cast gives a number there). Of an integer or bool, an int64 that
    keeps NumPy's arithmetic (README "Python numbers": a deliberate exception; session 44
    made it a Python int with Python's checks, and the Collatz benchmark went from 1.0x to
    1.3x njit: the check inside the odd branch keeps LLVM from making the branch a select,
    so the loop's unpredictable `v % 2` branch mispredicts; see note 44); a uint64 past
    int64 is refused, not wrapped."""
    converted = user_operators.number(x, "int") if not args else None
    if converted is not None:
        return converted
    if core.is_symbolic(x) and not args:
        x = math_calls.scalar(x)
        _not_a_python_complex(x, "int() argument must be a string, a bytes-like object or "
                                 "a real number")
        if x.dtype.kind in "iub":
            return api.cast(math_calls.within_int64(x), np.int64)
        # (Python's int() of any NumPy float, np.float32 too: its __int__, where
        # math.trunc refuses the float32 it has no __trunc__ for; session 56's probe)
        return math_calls.to_int(np.trunc, "int")(x.real if x.dtype.kind == "c" else x)
    return int(x, *args)


def float_(x=0.0):
    """``float(t)`` of a 0-d tensor: a Python float (weak float64; ``float(a) / 0.0``
    raises ``ZeroDivisionError`` as Python's does); of a complex number, its real part."""
    converted = user_operators.number(x, "float")
    if converted is not None:
        return converted
    if not core.is_symbolic(x):
        return float(x)
    x = math_calls.scalar(x)
    _not_a_python_complex(x, "float() argument must be a string or a real number")
    return dispatch.apply("as_weak", api.cast(x.real if x.dtype.kind == "c" else x,
                                                np.float64))


def _not_a_python_complex(x, message):
    """Python's TypeError for int()/float() of a Python complex (a relaxed one: weak); a
    NumPy complex number gives its real part, as NumPy's does."""
    if x.dtype.kind == "c" and x.type.weak:
        raise staging.user_raise(TypeError(f"{message}, not 'complex'"))


def complex_(real=0, imag=0):
    """``complex(a, b)`` of 0-d tensors: a Python complex (weak complex128) built as
    CPython builds it: real part ``a``, imaginary part ``b``, exactly (no ``a + b*1j``
    rounding, signed zeros kept); a complex operand contributes as CPython's does (``b``'s
    imaginary part is taken from the real part, ``a``'s added to the imaginary one)."""
    if not (core.is_symbolic(real) or core.is_symbolic(imag)):
        return complex(real, imag)
    a, b = (math_calls.scalar(v) for v in (real, imag))
    re, im = api.cast(a.real, np.float64), api.cast(b.real, np.float64)
    if b.dtype.kind == "c":
        re = re - api.cast(b.imag, np.float64)
    if a.dtype.kind == "c":
        im = im + api.cast(a.imag, np.float64)
    return dispatch.apply("as_weak", dispatch.apply("make_complex", re, im))


def _calling(func):
    """``func`` as a function argument of a builtin (``map(float, x)``, ``key=int``): each
    call made as converted code makes it (calls.converted_call), so a builtin with a staged
    form gets it and a user's function is converted."""
    if func is None:
        return None
    return lambda *args: converted_call(func, args)


def converted_call(f, args):
    """runtime/calls.py's, which installs it here when imported (it imports this module)."""
    raise AssertionError("autograph_lite.autograph.runtime.calls was not imported")


def map_(func, *iterables):
    return map(_calling(func), *iterables)


def filter_(func, iterable):
    return filter(_calling(func), iterable)


def reduce_(func, *args):
    return functools.reduce(_calling(func), *args)


def bool_(x=False):
    """``bool(t)``: the truth of a tensor of one element, as NumPy's (an empty one or one
    of more elements raises NumPy's ``ValueError``, when the function runs where the size
    is known only then); a Python bool (weak)."""
    if not core.is_symbolic(x):  # (a user's object's converted `__bool__`, a loop's list)
        x = list_values.truth(x)
    if not core.is_symbolic(x):
        return bool(x)
    if x.ndim:
        x = list_values.truth(x)  # (NumPy's: the one element, else its ValueError)
    return dispatch.apply("as_weak", api.cast(x, np.bool_))


def round_(x, ndigits=None):
    """``round(x)`` of a 0-d tensor: NumPy's scalar rounding (half to even, as Python's),
    to a Python int with CPython's errors (NumPy arrays have no ``round``). With ``ndigits``,
    ``np.round(x, ndigits)`` as ``np.float64.__round__`` does; a Python float (a weak
    input) rounds decimally in Python, which is not staged."""
    converted = user_operators.dunder_call(x, "__round__", *(
        () if ndigits is None else (ndigits,)))
    if converted is not user_operators.NONE:
        return converted
    if not core.is_symbolic(x):
        return round(x) if ndigits is None else round(x, ndigits)
    if x.ndim or x.dtype.kind == "c":
        kind = "ndarray" if x.ndim else x.dtype.name
        raise TypeError(f"type numpy.{kind} doesn't define __round__ method")
    if ndigits is None:
        return math_calls.to_int(np.rint, "round")(x)
    if (x.dtype.kind == "f" and python_numbers.python_flag(x) is not False
            and not (type(ndigits) is int and ndigits == 0)):  # (0 digits: binary is exact)
        # (a Python float on some runs too: a merge of `s = 0.215` and `s = x[0]`, whose
        # runs of the Python float rounded in binary: session 55's probe)
        some = "" if x.type.weak else " (on the runs where it is one)"
        raise NotImplementedError(f"round(x, ndigits) of a Python float{some} rounds in "
                                  f"decimal, which is not staged; use np.round(x, ndigits) "
                                  f"(binary)")
    return np.round(x, ndigits)


def pow_(base, exp, mod=None):
    if mod is not None and (core.is_symbolic(base) or core.is_symbolic(exp)
                            or core.is_symbolic(mod)):
        raise TypeError("pow(x, y, mod) of tensors is not staged (modular powers of "
                        "numbers known only when the function runs); write the square-and-"
                        "multiply loop, reducing modulo mod at each step")
    if core.is_symbolic(base) or core.is_symbolic(exp):
        return base ** exp
    return pow(base, exp) if mod is None else pow(base, exp, mod)


def divmod_(x, y):
    if core.is_symbolic(x) or core.is_symbolic(y):
        return x // y, x % y  # (NumPy's divmod of NumPy numbers: the two ops)
    return divmod(x, y)


def abs_(x):
    converted = user_operators.dunder_call(x, "__abs__")
    if converted is not user_operators.NONE:
        return converted
    return abs(x)  # (a tensor's __abs__: Python's for a Python number, python_numbers.py)


def range_(*args):
    return iteration.StagedRange(*args) if _any_staged(args) else range(*args)


def _pythons(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, a builtin on the trace's Python values: what it raises
    (`max([])`, `min(1, "a")`) is Python's own error, raised by the runs that reach the
    call (staging.pythons_error), not while tracing for every input."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:
        staging.pythons_error(e, (args, kwargs))
        raise


def _reduce(python_fn, pairwise, beats, args, kwargs):
    """Python's `min`/`max` on tensors: the first value that no later one ``beats`` (`x <
    r` for min), as the builtin compares, so a NaN is kept only where it comes first
    (`min(1.0, nan)` is 1.0, `min(nan, 1.0)` is nan; np.minimum would give nan for both),
    and of zeros the first (`min(0.0, -0.0)` is 0.0). Integers: ``pairwise`` (NumPy's),
    the same there. The result has the arguments' promoted dtype (Python's has the type
    of the one it picked: `max(x, 0)` is 0 where `x` is negative, as 0.0 here)."""
    if kwargs.get("key") is not None:
        kwargs = {**kwargs, "key": _calling(kwargs["key"])}
    if len(args) == 1 and set(kwargs) <= {"default"} and isinstance(
            args[0], (types.GeneratorType, list, tuple)):
        items = list(args[0])  # (`max(abs(v) for v in u)`: the items, compared as above)
        if not _any_staged(items) or not items:  # (none: the default, or Python's error)
            return _pythons(python_fn, items, **kwargs)
        return items[0] if len(items) == 1 else _reduce(python_fn, pairwise, beats,
                                                        tuple(items), {})
    if kwargs.get("key") is not None and set(kwargs) <= {"key", "default"}:
        return _reduce_by_key(python_fn, beats, args, kwargs)
    if set(kwargs) == {"default"} and len(args) == 1 and core.is_symbolic(args[0]):
        return _reduce_or_default(python_fn, args[0], kwargs["default"])
    if kwargs or not _any_staged(args):
        return _pythons(python_fn, *args, **kwargs)
    if len(args) == 1:
        return _reduce_rows(python_fn, args[0])
    if all(type(a) is tuple for a in args):  # (`max((v, i) for i, v in enumerate(x))`)
        return _reduce_tuples(python_fn, args)
    for a in args:
        check_one_element(python_fn, a)
    if all(_is_integer(a) for a in args):  # (no NaN, no -0.0: the same as NumPy's, which
        if any(type(a) is int and not all(_holds(t, a) for t in args if core.is_symbolic(
                t)) for a in args):  # (`max(i8[0], 300)`: compared as Python ints do)
            kept = _beyond_its_dtype(python_fn, args)
            if kept is not None:
                return kept
            args = tuple(api.cast(a, np.int64) if core.is_symbolic(a) else a for a in args)
        held = _weak_beside_narrow(python_fn, beats, args)
        if held is not None:
            return held
        flagged = any(python_numbers.python_flag(a) is not False for a in args)
        out = args[0]  # (pairwise, as NumPy's: ir/bounds.py reads it for `range(min(...))`)
        for x in args[1:]:
            new = pairwise(out, x)
            if flagged:  # (Python's on the runs where the one picked is)
                python_numbers.chosen_flag(beats(x, out), x, out, new)
            out = new
        return _python_if_all(out, args)
    args = tuple(_widened(list(args)))
    held = _weak_beside_narrow(python_fn, beats, args)
    if held is not None:
        return held
    out = args[0]
    for x in args[1:]:
        take = beats(x, out)
        out = python_numbers.chosen_flag(take, x, out, np.where(take, x, out))
    return _python_if_all(out, args)


def _weak_beside_narrow(python_fn, beats, args):
    """`max(n, x[0])` of a relaxed Python number ``n`` (known only when the function runs)
    and a NumPy number of a narrower dtype (int32, float32): compared as Python compares
    them (in int64 or float64), the result in the NumPy dtype, Python's number on the runs
    that pick it, and a refusal on the runs where the number it picks is one that dtype
    cannot hold (session 56's probe: float32 inf of a relaxed 1e300; NumPy's
    OverflowError of a relaxed 2**40 beside an int32, where Python returns the int). None
    where the arguments are not such a pair."""
    if len(args) != 2:
        return None
    weak = [core.is_symbolic(a) and a.type.weak and not a.ndim for a in args]
    if sum(weak) != 1:
        return None
    w, t = (args[0], args[1]) if weak[0] else (args[1], args[0])
    if not core.is_symbolic(t) or t.ndim or t.type.weak or python_numbers.python_flag(
            t) is not False:
        return None
    kind, wide = np.dtype(t.dtype).kind, np.dtype(w.dtype)
    if kind not in "iuf" or np.dtype(t.dtype).itemsize >= 8 or kind == "f" and \
            wide.kind != "f" or kind in "iu" and wide.kind not in "iu":
        return None
    a, b = (api.cast(v, wide) if v is t else v for v in args)
    take = beats(b, a)
    picked = take if args[1] is w else np.logical_not(take)
    narrowed = api.cast(w, t.dtype)
    exact = np.equal(api.cast(narrowed, wide), w)
    if kind == "f":
        exact = np.logical_or(exact, np.isnan(w))
    python_numbers.check(np.logical_or(np.logical_not(picked), exact), (
        f"{python_fn.__name__}() of a Python number and a NumPy {t.dtype}: Python's result "
        f"is the Python number on this run, which the compiled result, a {t.dtype} (its "
        f"type on the runs that pick the NumPy number), cannot hold exactly; convert the "
        f"NumPy number (`{'float' if kind == 'f' else 'int'}(x[i])`) to have Python's type "
        f"on every run"), "NotImplementedError")
    out = np.where(picked, narrowed, t)
    return python_numbers.with_python_flag(out, picked)


def _reduce_tuples(python_fn, items):
    """`min`/`max` of tuples holding traced values (the `(value, index)` idiom): the first
    that no later one beats in Python's order of tuples (logical.order), picked item by
    item by selects where that order is known only at run time (session 49: Python's own
    comparison asked a tensor's truth)."""
    op = "<" if python_fn is min else ">"
    best = items[0]
    for x in items[1:]:
        take = logical.order(op, x, best)
        if take is None:  # (no traced value in either: Python's own comparison)
            take = logical.ORDERINGS[op](x, best)
        if not core.is_symbolic(take):
            best = x if take else best
        elif len(x) != len(best):
            raise TypeError(f"{python_fn.__name__}() of tuples of different lengths holding "
                            f"tensors picks one whose length would be known only when the "
                            f"function runs; give the tuples one length")
        else:
            best = tuple(v if v is b else np.where(take, v, b) for v, b in zip(x, best))
    return best


def _beyond_its_dtype(python_fn, args):
    """`min(i8[0], 250)`, `max(best, -10**9)`, `max(u8[0], 300, 5)` of integer tensors and
    Python ints some of their dtypes cannot hold: such an int is beyond every value the
    tensors can have, so whether Python picks it is known while tracing. The Python int
    itself where one always wins; else the arguments without those that never can (an
    int64 of them all gave `v + v` 200 where Python's int8 is -56: session 56's probes);
    None where neither holds (the int64 comparison then)."""
    ks = [a for a in args if type(a) is int]
    ts = [a for a in args if type(a) is not int]
    if not ks or not all(core.is_symbolic(t) and not t.type.weak and not t.ndim and
                         np.dtype(t.dtype).kind in "iu" for t in ts):
        return None
    hi = max(int(np.iinfo(t.dtype).max) for t in ts)
    lo = min(int(np.iinfo(t.dtype).min) for t in ts)
    best = python_fn(ks)
    if (best > hi) if python_fn is max else (best < lo):
        return best  # (above every tensor: Python's max is that int)
    kept = tuple(a for a in args if type(a) is not int or (
        a >= lo if python_fn is max else a <= hi))  # (those that can never win: out)
    if not all(_holds(t, k) for k in kept if type(k) is int for t in ts):
        return None
    return kept[0] if len(kept) == 1 else _reduce(
        python_fn, np.minimum if python_fn is min else np.maximum,
        (lambda x, r: x < r) if python_fn is min else (lambda x, r: x > r), kept, {})


def _widened(items):
    """``items`` (of a min/max that selects among them) with each tensor cast to the dtype
    of the Python numbers beside it that its own cannot hold: int64 beside a Python int
    beyond an int8's range, float64 beside a Python float beyond float32's (a select in the
    narrow dtype wrapped `-300` to int8's -44, or made `1e300` inf: session 56's probe)."""
    ints = any(type(v) is int and not all(_holds(t, v) for t in items if core.is_symbolic(t)
                                          and np.dtype(t.dtype).kind in "iu") for v in items)
    floats = any(type(v) is float and np.isfinite(v) and abs(v) > float(
        np.finfo(np.float32).max) for v in items)
    if not (ints or floats):
        return items
    return [api.cast(v, np.int64) if ints and core.is_symbolic(v) and np.dtype(
        v.dtype).kind in "iu" else api.cast(v, np.float64) if floats and core.is_symbolic(v)
        and np.dtype(v.dtype).kind == "f" and np.dtype(v.dtype).itemsize < 8 else v
        for v in items]


def _holds(t, k):
    """Whether integer tensor ``t``'s dtype holds the Python int ``k``."""
    info = np.iinfo(t.dtype) if np.dtype(t.dtype).kind in "iu" else None
    return info is not None and info.min <= k <= info.max


def _python_if_all(picked, items):
    """``picked`` (a value min/max/sorted chose among ``items``) as a Python number where
    all of them are Python numbers (weak 0-d), so it keeps their checks: `1.0 / min(a, b)`
    of float(...)s raises ZeroDivisionError, `round(max(...), 2)` rounds as Python's."""
    if all(python_numbers.python_number(v) for v in items):
        return list_values.python_item(picked)
    return picked


def _reduce_or_default(python_fn, x, default):
    """`max(x, default=d)` of a tensor: its rows' max, or ``d`` where it has none (a cond
    on its size when that is known only as it runs)."""
    if not x.shape or x.shape[0] is not None:
        return default if x.shape and x.shape[0] == 0 else _reduce_rows(python_fn, x)
    return control.cond(dispatch.apply("dim", x, axis=0) > 0,
                        lambda: _reduce_rows(python_fn, x), lambda: default)


def _reduce_by_key(python_fn, beats, args, kwargs):
    """`max(xs, key=f)`, `min(a, b, key=f)`: each key computed once, in order; the first
    item whose key no later key ``beats`` (as the builtin compares: a NaN key is kept only
    where it comes first), picked by selects when the keys are tensors (the items may be
    Python numbers, tensors, or rows of one shape)."""
    key = kwargs["key"]
    items = list(args[0]) if len(args) == 1 else list(args)
    if not items:
        return _pythons(python_fn, items, **kwargs)  # (the default, or Python's ValueError)
    keys = [key(v) for v in items]
    if not _any_staged(keys):
        return items[_pythons(python_fn, range(len(items)), key=keys.__getitem__)]
    items = _widened(items)
    for v in items:
        if isinstance(v, (tuple, list, dict)) or not (core.is_symbolic(v) or isinstance(
                v, (numbers.Number, np.generic))):
            raise TypeError(f"{python_fn.__name__}(..., key=) with a key that is a tensor "
                            f"picks among numbers or tensors here; an item is a "
                            f"{type(v).__name__}: pick an index instead "
                            f"({python_fn.__name__}(range(len(xs)), key=...))")
    best, best_key = items[0], keys[0]
    for v, k in zip(items[1:], keys[1:]):
        check_one_element(python_fn, k, "a key of one element")
        take = beats(k, best_key)
        best, best_key = np.where(take, v, best), np.where(take, k, best_key)
    return _python_if_all(best, items)


def _is_integer(a):
    if core.is_symbolic(a):
        return np.dtype(a.dtype).kind in "biu"
    return isinstance(a, (int, np.integer))  # (bool is an int)


def check_one_element(python_fn, a, instead=None):
    if core.is_symbolic(a) and any(d != 1 for d in a.shape):  # (None: maybe more)
        name = python_fn.__name__
        raise ValueError(f"{name}() tests its arguments' truth as Python values: the truth "
                         f"value of an array with more than one element is ambiguous (a "
                         f"{a.shape} tensor here); use "
                         f"{instead or f'np.{name}imum for the elementwise {name}imum'}")


def _reduce_rows(python_fn, x):
    """`min(x)` of one tensor: over its rows, as Python iterates it."""
    if not x.shape:
        return python_fn(x)  # (Python's TypeError: a 0-d array cannot be iterated)
    empty = f"{python_fn.__name__}() arg is an empty sequence"
    if x.shape[0] == 0:
        raise ValueError(empty)
    if x.shape[0] is None:  # (a size known when it runs: Python's ValueError then)
        api.check(dispatch.apply("dim", x, axis=0) > 0, empty, "ValueError")
    if len(x.shape) > 1:  # rows compared as Python values: only one row can be
        if x.shape[0] != 1:
            raise ValueError(f"{python_fn.__name__}() of a {x.shape} tensor compares its "
                             f"rows as Python values, whose truth value is ambiguous; use "
                             f"np.{python_fn.__name__}(x, axis=0) for the elementwise "
                             f"{python_fn.__name__}imum of the rows")
        return x[0]
    numpy_fn = np.min if python_fn is min else np.max
    if np.dtype(x.dtype).kind not in "fc":
        picked = numpy_fn(x)
    else:
        ignoring = np.nanmin if python_fn is min else np.nanmax
        picked = np.where(np.isnan(x[0]), x[0], ignoring(x))
    if isinstance(x, list_values.PythonNumbersList):  # (a list of Python numbers')
        return list_values.python_item(picked)
    flags = list_values.row_flags(x) if isinstance(x, list_values.ListTensor) else None
    if flags is not None:  # (Python's is the first item that ties it: that row's kind)
        python_numbers.with_python_flag(picked, flags[np.argmax(
            np.logical_or(x == picked, np.logical_and(np.isnan(x), np.isnan(picked)))
            if np.dtype(x.dtype).kind in "fc" else x == picked)])
    return picked


def _rows(args):
    """``args`` with a list a staged loop appends to as its rows so far (a ListTensor):
    a builtin walking the tuple that carries it would see its buffer and length."""
    return tuple(a.listed() if isinstance(a, data.TensorList) else a for a in args)


def min_(*args, **kwargs):
    return _reduce(min, np.minimum, lambda x, r: x < r, _rows(args), kwargs)


def max_(*args, **kwargs):
    return _reduce(max, np.maximum, lambda x, r: x > r, _rows(args), kwargs)


def sum_(iterable, start=0):
    """``sum(x)`` of a tensor: Python's ``start + x[0] + x[1] + ...``, whose dtype is the
    one of ``start + x[0]`` (a Python ``0`` is weak: an int8 array's sum is an int8 that
    wraps, not np.sum's int64), added in that dtype."""
    iterable, = _rows((iterable,))
    if core.is_symbolic(iterable):
        if not iterable.shape:
            raise TypeError("iteration over a 0-d array")
        if iterable.shape[0] == 0:  # (no item: `start` itself, Python's int 0)
            return start
        if isinstance(iterable, list_values.PythonNumbersList):
            return _python_sum(iterable, start)
        total = np.sum(iterable, axis=0, dtype=np.result_type(_as_python(start),
                                                               iterable.dtype))
        flags = (list_values.row_flags(iterable) if isinstance(
            iterable, list_values.ListTensor) and iterable.ndim == 1 else None)
        if flags is not None and python_numbers.python_number(start):
            # (Python's sum of Python numbers alone is one; a NumPy item makes it NumPy's)
            python_numbers.with_python_flag(total, np.all(flags))
            if iterable.dtype.kind in "iu":  # (Python's ints grow where the int64 wraps)
                _int64_sum_checked(iterable, total, np.any(flags))
        elif iterable.ndim == 1 and iterable.shape[0] is None and \
                python_numbers.python_number(start):
            # (no item on a run: Python's `start` itself, the int 0, so `sum(d) / len(d)`
            # raises ZeroDivisionError there, where the float64 0.0 gave nan: probe H,
            # session 57)
            python_numbers.with_python_flag(total, dispatch.apply(
                "equal", dispatch.size_of(iterable, 0), 0))
        return total if type(start) is int and start == 0 else total + start
    return sum(iterable, start)


def _int64_sum_checked(items, total, where=True):
    """OverflowError where the exact sum of int ``items`` (their int64 sum ``total``) leaves
    int64, on the runs ``where`` holds: the int64 sum wraps modulo 2**64, and the float64
    sum is within far less than 2**63 of the exact one, so they differ by 2**64 exactly
    when the exact sum left int64."""
    approx = np.sum(api.cast(items, np.float64), axis=0)
    fits = np.abs(approx - api.cast(total, np.float64)) < 2.0 ** 63
    python_numbers.check(fits if where is True else np.logical_or(np.logical_not(where), fits),
                         python_numbers.overflow_message("add"), "OverflowError")


def _python_sum(items, start):
    """``sum`` of a staged list of Python numbers: a Python number; of ints, Python's exact
    sum or OverflowError past int64 (the int64 sum wraps modulo 2**64, and its float64 sum
    is within far less than 2**63 of the exact one, so they differ by 2**64 exactly when
    the exact sum left int64)."""
    total = dispatch.apply("as_weak", np.sum(items, axis=0))
    if items.dtype.kind in "iu":
        _int64_sum_checked(items, total)
    return total if type(start) is int and start == 0 else total + start


def _as_python(v):
    """``v`` for np.result_type: a relaxed Python number (a weak 0-d tensor) as a Python
    number of its kind, a tensor as its dtype."""
    if core.is_symbolic(v):
        if dispatch.weak_scalar(v):
            return dtypes.weak_stand_in(v.dtype)
        return v.dtype
    return v


def any_(iterable):
    return _truth_reduce(any, np.any, np.logical_or, iterable)


def all_(iterable):
    return _truth_reduce(all, np.all, np.logical_and, iterable)


def _truth_reduce(python_fn, numpy_fn, combine, iterable):
    """`any(x)`/`all(x)` of a tensor (its rows' truth, as Python iterates it) or of an
    iterable holding symbolic tensors (`any(v > t for v in xs)`): the truth values
    combined, staged. Python stops at the first deciding item; staged, every item is
    computed (each must be free of side effects, as a comprehension's usually is)."""
    name = python_fn.__name__
    if core.is_symbolic(iterable):
        if not iterable.shape:
            raise TypeError(f"{name}() of a 0-d tensor: it is not iterable (as a NumPy "
                            f"scalar is not)")
        if any(d != 1 for d in iterable.shape[1:]):
            raise ValueError(f"{name}() of a {iterable.shape} tensor tests its rows as "
                             f"Python values, whose truth value is ambiguous; use "
                             f"np.{name}(x) for all its elements")
        return numpy_fn(iterable)
    if isinstance(iterable, (iteration.StagedIter, data.TensorList)):
        raise TypeError(f"{name}() of a loop's staged range or list is not staged; use "
                        f"np.{name} on a tensor")
    items = list(iterable)
    if not _any_staged(items):
        return _pythons(python_fn, items)
    out = python_fn is all
    for v in items:
        check_one_element(python_fn, v, f"np.{name} of one array")
        out = combine(out, logical.truth(v) if core.is_symbolic(v) else bool(v))
    return out


def enumerate_(iterable, start=0):
    if _any_staged([iterable]):
        return iteration.Enumerate(iteration.staged(iterable), start)
    if isinstance(iterable, range) or (type(iterable) is np.ndarray and iterable.ndim):
        return iteration.CountedEnumerate(iterable, start)  # (budgeted when unrolled)
    if type(iterable) is list:
        return iteration.ListEnumerate(iterable, start)  # (its list: loops._python_for)
    return enumerate(iterable, start)


def reversed_(seq):
    if _any_staged([seq]):
        return iteration.Reversed(iteration.staged(seq))
    return reversed(seq)


def list_sort(items, *, key=None, reverse=False):
    """`items.sort(...)` of a list: in place, in ``sorted``'s order (``sorted_``: staged
    where the keys are traced values); None, as Python's."""
    items[:] = sorted_(items, key=key, reverse=reverse)


def sorted_(iterable, *, key=None, reverse=False):
    """sorted() where the keys are traced values: of a 1-D tensor whose length is known
    while tracing (its elements, NumPy scalars), or of a list of them (`sorted([a, b])`,
    `sorted(xs, key=abs)`), in Python's order: a stable sort of the keys (np.argsort's, ties
    kept in place; reversed: stable too, as Python's `reverse=True`), each key computed
    once. The items come back with their promoted dtype (as `max` gives, README). A NaN key
    breaks Python's comparisons (its order then follows the sort's steps), so one is
    refused when the function runs."""
    key = _calling(key)
    tensor = core.is_symbolic(iterable)  # (then its elements, and it the stack of them)
    items = _elements(iterable, rows=key is not None) if tensor else list(iterable)
    keys = items if key is None else [key(v) for v in items]
    if not _any_staged(keys):
        order = sorted(range(len(items)), key=keys.__getitem__, reverse=reverse)
        return [items[i] for i in order]
    odd = sorted({type(v).__name__ for v in items if not core.is_tensor_like(v)})
    if odd:  # (`sorted(scores, key=lambda k: scores[k])` of a dict of tensors: its keys)
        raise NotImplementedError(
            f"sorted() of {', '.join(odd)} items by keys known only when the function runs "
            f"(at {errors.user_location() or 'its line'}): their order would be known only "
            f"then, and a Python list of them cannot wait; sort numbers or arrays, or give "
            f"the order as indices (`np.argsort`)")
    k = iterable if tensor and key is None else np.stack(
        [math_calls.scalar(v) if core.is_symbolic(v) else v for v in keys])
    kind = np.dtype(k.dtype).kind
    if kind == "c":
        raise TypeError("'<' not supported between instances of 'complex' and 'complex' "
                        "(sorted() of complex values)")
    if kind == "f":
        dispatch.apply("assert", ~np.any(np.isnan(k)), error="NotImplementedError",
                       message="sorted() of values holding NaN: Python's order then "
                               "follows its sort's comparisons, which NaN breaks; use "
                               "np.sort (NaN last)")
    n = len(items)
    if reverse:  # (stable descending: the stable ascending order of the reversed keys)
        order = (n - 1 - np.argsort(k[::-1], kind="stable"))[::-1]
    else:
        order = np.argsort(k, kind="stable")
    if tensor or key is None:
        values = iterable if tensor else k
    else:
        try:
            values = np.stack(items)
        except ValueError as e:
            raise TypeError(f"sorted() of values of different shapes cannot be staged "
                            f"({e})") from None
    # (items of Python's own, `sorted(range(n), key=lambda i: x[i])`: their array, indexed
    # by the staged order as a tensor is; NumPy's indexing cannot take the order)
    s = dispatch.convert_to_tensor(values)[order]
    return [_python_if_all(s[i], items) for i in range(n)]


def _elements(x, rows=False):
    """A tensor's items as Python iterates it, for sorted(): a 1-D tensor's elements, or,
    with ``rows`` (a `key=` compares their keys), the rows of a higher rank. Without a key
    the rows themselves are compared: Python's "ambiguous" ValueError."""
    if x.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if x.ndim > 1 and not rows:
        raise ValueError(f"The truth value of an array with more than one element is "
                         f"ambiguous. Use a.any() or a.all() (sorted() of a {x.shape} tensor "
                         f"compares its rows, at {errors.user_location() or 'its line'}; "
                         f"give a key=, or use np.sort / np.lexsort)")
    n = x.shape[0]
    if n is None:
        raise TypeError("sorted() of a tensor whose length is known only when the compiled "
                        "function runs cannot make a Python list; use np.sort")
    sizes.note_read(n)
    return [x[i] for i in range(n)]


def product_(*iterables, repeat=1):
    """itertools.product: staged (one counter, iteration.Product) when an iterable is."""
    if _any_staged(iterables):
        return iteration.Product([iteration.wrap(x) for x in iterables] * repeat)
    return itertools.product(*iterables, repeat=repeat)


def zip_(*iterables, **kwargs):
    if _any_staged(iterables) and not kwargs:
        return iteration.Zip([iteration.wrap(x) for x in iterables])
    return zip(*iterables, **kwargs)


def print_(*args, **kwargs):
    """print: staged when it prints a traced value, and inside a staged branch or loop
    body (a `print("found")` there runs on the runs, and the trips, that reach it, as in
    Python; its Python values' text is fixed at trace time). Elsewhere a Python print
    runs while tracing (SPEC: once per trace). `file=sys.stdout`/`sys.stderr` (the stream
    ``sys`` holds when it runs) and `flush=` are staged too (session 53: they printed
    once, while tracing, from inside a staged loop); another file is refused where the
    print must be staged. A list, tuple or dict holding traced values prints as Python
    prints it, their text made when the function runs (text.container_text)."""
    args = tuple(text.container_text(a) for a in args)
    for a in args:  # (an object whose own __str__ would print a traced value's placeholder)
        if not isinstance(a, (str, staged_text.StagedText)) and not _any_staged((a,)):
            text.checked(str(a), a)
    if _any_staged(args) or any(isinstance(a, staged_text.StagedText) for a in args) or (
            staging.active() and set(kwargs) <= {"sep", "end", "file", "flush"}):
        return api.print(*args, **_staged_print_options(kwargs))
    if trial.active():  # a thrown-away scratch trace (trial.py) prints nothing
        return None
    return print(*args, **kwargs)


def stream_write(write, args, kwargs):
    """``sys.stdout.write(s)`` (or stderr's) as the staged print of ``s`` with no end,
    where a print would be staged (inside a staged branch or loop, or of an f-string of
    traced values; session 53: it wrote once, while tracing); Python's length of a text
    known while tracing (None for an f-string of traced values, whose length is known
    only when it runs). Returns (whether it was staged, the result)."""
    if len(args) != 1 or kwargs or not (staging.active() or isinstance(
            args[0], staged_text.StagedText)):
        return False, None
    if not isinstance(args[0], (str, staged_text.StagedText)):
        raise TypeError(f"write() argument must be str, not {type(args[0]).__name__}")
    print_(args[0], end="", file=write.__self__)
    return True, len(args[0]) if isinstance(args[0], str) else None


def _staged_print_options(kwargs):
    options = {k: v for k, v in kwargs.items() if k in ("sep", "end")}
    unknown = set(kwargs) - {"sep", "end", "file", "flush"}
    if unknown:
        raise TypeError(f"print() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    file = kwargs.get("file")
    if file is not None and file is not sys.stdout and file is not sys.stderr:
        raise NotImplementedError(
            f"print(..., file={file!r}) of a value known only when the function runs, or "
            f"inside a staged branch or loop, is not staged: only sys.stdout and "
            f"sys.stderr are; build the text in a list and write it after the call")
    if file is sys.stderr and file is not sys.stdout:
        options["stream"] = "stderr"
    if kwargs.get("flush"):
        options["flush"] = True
    return options


def isinstance_(x, classinfo):
    """isinstance; a symbolic tensor is an instance of what its value is in plain NumPy
    (``numpy_type``: `isinstance(x, float)` holds for a float64 scalar, not for a float32
    or int64 one, as for NumPy's scalars), and of ag.Tensor."""
    if isinstance(x, classinfo):
        return True
    if not core.is_symbolic(x):
        return False
    if isinstance(x, list_values.ListTensor):
        return issubclass(list, classinfo)
    return issubclass(core.numpy_type(x), classinfo)


def type_(*args):
    """type(x); of a symbolic tensor, ``numpy_type`` (`type(a) is np.ndarray` holds)."""
    if len(args) == 1 and core.is_symbolic(args[0]):
        return list if isinstance(args[0], list_values.ListTensor) else core.numpy_type(
            args[0])
    return type(*args)


def python_type_of(x):
    """The Python type a traced value stands for where it is not an array: list (a list a
    staged loop filled, a tensor of its rows), or float/int/bool/complex (a relaxed Python
    number, a weak 0-d tensor), whose attributes (`ndim`, `shape`, `sum`) it must not
    show; None for an array."""
    if isinstance(x, list_values.ListTensor):
        return list
    kind = core.numpy_type(x) if core.is_symbolic(x) else None  # (a weak one: its type)
    return kind if kind in (bool, int, float, complex) else None


def lacks_attribute(x, name):
    """Whether attribute ``name`` of ``x`` is one the Python value ``x`` stands for lacks
    (``python_type_of``)."""
    kind = python_type_of(x)
    return kind is not None and not hasattr(kind, name)


def list_has_no(name, kind=list):
    return AttributeError(f"'{kind.__name__}' object has no attribute '{name}'")


def check_list_method(method):
    """Raises Python's AttributeError for a method of a staged list looked up under a name
    a Python list does not have (`out.sum`): the names its class binds the function to
    (`sort` is ``sort_in_place``)."""
    func = getattr(method, "__func__", None)
    names = [n for n in dir(type(method.__self__))
             if getattr(type(method.__self__), n, None) is func] or [method.__name__]
    if not any(hasattr(list, n) for n in names):
        raise staging.user_raise(list_has_no(names[0]))


def hasattr_(x, name):
    """hasattr; of a staged list or a relaxed Python number, the answer of the Python
    value it stands for (not an array's; a list's `count` too, which has no staged form)."""
    kind = python_type_of(x)
    return hasattr(kind, name) if kind is not None else hasattr(x, name)


def getattr_(x, name, *default):
    """getattr; of a staged list or a relaxed Python number, only the attributes of the
    Python value it stands for (as `hasattr_`)."""
    if lacks_attribute(x, name):
        if default:
            return default[0]
        raise list_has_no(name, python_type_of(x))
    if name == "shape" and core.is_symbolic(x):
        return shape_of(x)  # (NumPy's sizes, staged where known only at run time)
    return getattr(x, name, *default)


OVERLOADS = {
    builtins.len: len_, builtins.int: int_, builtins.float: float_, builtins.bool: bool_,
    builtins.abs: abs_, builtins.range: range_, builtins.min: min_, builtins.max: max_,
    builtins.sum: sum_, builtins.enumerate: enumerate_, builtins.zip: zip_,
    builtins.print: print_, builtins.isinstance: isinstance_, builtins.round: round_,
    builtins.pow: pow_, builtins.divmod: divmod_, builtins.type: type_, builtins.any: any_,
    builtins.all: all_, builtins.str: text.str_, builtins.repr: text.repr_,
    builtins.reversed: reversed_, builtins.sorted: sorted_, itertools.product: product_,
    builtins.complex: complex_, builtins.map: map_, builtins.filter: filter_,
    functools.reduce: reduce_, builtins.hasattr: hasattr_, builtins.getattr: getattr_,
}
