"""`ag__.getitem(a, k)`: every subscript read, so trace-time NumPy values mix with tensors.

SPEC 1: a NumPy array that is a Python value while tracing (a global lookup table, a
closure's array, `v0 = np.zeros(5)` made in the body) indexed or sliced by a symbolic
tensor (`table[i]`, `v0[n % 5]`, `v0[a:b]`) works as in NumPy: the array becomes a
constant of the graph (a copy: the graph keeps the value the array had when it was
read, as NumPy's result would) and the staged index reads it. So does a Python list or
tuple of numbers (`[1.0, 2.5][i]`); its element stays weak, as the Python number it
is would be in NumPy 2 arithmetic (`float32_tensor * [1.0, 2.5][i]` is float32).

Everything else is plain `a[k]`: the common case (tensors, Python containers with
Python keys) costs one call and a type check while tracing, nothing at run time.
"""

import numpy as np

from autograph_lite.autograph.runtime import core


def has_symbolic(key):
    """Whether an index (`i`, `(i, j)`, `a:b`, ...) holds a symbolic tensor."""
    parts = key if isinstance(key, tuple) else (key,)
    for p in parts:
        if isinstance(p, slice):
            if (core.is_symbolic(p.start) or core.is_symbolic(p.stop)
                    or core.is_symbolic(p.step)):
                return True
        elif core.is_symbolic(p):
            return True
    return False


def _python_numbers(seq):
    """The one Python number type all items of `seq` share (bool, int or float), else None."""
    kinds = {type(v) for v in seq}
    if len(kinds) == 1 and next(iter(kinds)) in (bool, int, float):
        return next(iter(kinds))
    return None


def _numpy_values(seq):
    """Whether `seq` holds NumPy scalars/arrays (eager tensors too) of one dtype and shape."""
    first = seq[0]
    if not isinstance(first, (np.ndarray, np.generic)) and not (
            core.is_tensor(first) and not core.is_symbolic(first)):
        return False
    return all((isinstance(v, (np.ndarray, np.generic)) or core.is_tensor(v))
               and not core.is_symbolic(v) and v.dtype == first.dtype
               and np.shape(v) == np.shape(first) for v in seq)


def _weak(t):
    """`t` (a scalar) as a weakly typed value: it promotes as the Python number it was."""
    return core.module("autograph_lite.ops").apply("as_weak", t)


def _sequence_item(seq, key):
    """`seq[key]` for a list/tuple and a symbolic integer key (Python's only index of a
    sequence that a tensor can be), when it is the same read on `np.asarray(seq)`:
    numbers of one Python type, or NumPy values of one dtype and shape."""
    if not seq or isinstance(key, (tuple, slice)) or key.ndim or key.dtype.kind not in "iu":
        return None
    kind = _python_numbers(seq)
    if kind is not None:
        table = core.ag().constant(np.asarray(seq, dtype={bool: np.bool_, int: np.int64,
                                                          float: np.float64}[kind]))
        return _weak(table[key])
    if _numpy_values(seq):
        return core.ag().constant(np.stack([np.asarray(v) for v in seq]))[key]
    return None


def getitem(target, key):
    """`target[key]` (a subscript read in converted code), see the module docstring."""
    if isinstance(target, np.ndarray):
        if has_symbolic(key):
            return core.ag().constant(target)[key]
    elif type(target) in (list, tuple) and has_symbolic(key):
        item = _sequence_item(target, key)
        if item is not None:
            return item
    return target[key]

