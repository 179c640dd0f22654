"""Rebinding forms of mutation (`list_append`, `setitem`), asserts and the index builder.

On Python lists and NumPy arrays they mutate in place and return the same object, so
the rebinding the converter adds changes nothing; on tensors they return a new value.
"""

import operator

import numpy as np

from autograph_lite.autograph.runtime import core, where

_AUG = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
        "/=": operator.itruediv, "//=": operator.ifloordiv, "%=": operator.imod,
        "**=": operator.ipow, "@=": operator.imatmul, "&=": operator.iand,
        "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift,
        ">>=": operator.irshift}


class _IndexBuilder:
    """`ag__.index[a:b, i]` evaluates to the index `(slice(a, b), i)`."""

    def __getitem__(self, index):
        return index


index = _IndexBuilder()


def list_append(target, x):
    """`target.append(x)`, returning the list. A list carried by a staged loop is one
    stacked tensor (see trial.py): appending is concatenating one more row."""
    if core.is_symbolic(target):
        row = x[None] if core.is_symbolic(x) else np.asarray(x)[None]
        return np.concatenate([target, row])
    target.append(x)
    return target


def _symbolic_key(key):
    parts = key if isinstance(key, tuple) else (key,)
    for p in parts:
        if isinstance(p, slice):
            if any(core.is_symbolic(v) for v in (p.start, p.stop, p.step)):
                return True
        elif core.is_symbolic(p):
            return True
    return False


def setitem(target, key, value, op=None):
    """`target[key] = value` (or `target[key] op= value`), returning the updated target."""
    if op is not None:
        value = _AUG[op](target[key], value)
    if core.is_tensor(target) or (isinstance(target, np.ndarray) and (
            core.is_symbolic(value) or _symbolic_key(key))):
        # An array updated with a traced value becomes a traced value itself.
        return core.ag().setitem(target, key, value)
    target[key] = value
    return target


def assert_stmt(test, msg=None):
    """`assert test, msg()`: now on Python values, on every call for a symbolic test."""
    if core.is_symbolic(test):
        text = str(msg()) if msg is not None else f"assertion failed at {where.caller()}"
        core.ag().assert_(test, text)
        return
    if not test:
        raise AssertionError(msg()) if msg is not None else AssertionError()


def set_loop_options(maximum_iterations=None, shape_invariants=None, **kwargs):
    """Loop options directive; as the first statement of a loop body the converter moves
    it into the loop (see converters/directives.py). Called anywhere else it does nothing.
    """
    del maximum_iterations, shape_invariants, kwargs
