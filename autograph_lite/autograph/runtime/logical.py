"""`and_`, `or_`, `not_`: Python's short-circuit semantics, staged lazily on tensors.

A symbolic left operand makes the right one a branch of a staged cond, so the right
side is evaluated (at run time) only when Python would have evaluated it.
"""

from autograph_lite import control
from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import core


def as_bool(x):
    """A staged boolean as it is, a Python value as a boolean constant tensor."""
    if core.is_symbolic(x):
        return x
    return dispatch.constant(bool(x))


def and_(a_fn, b_fn):
    a = a_fn()
    if core.is_symbolic(a):
        return control.cond(a, lambda: as_bool(b_fn()), lambda: as_bool(False))
    return b_fn() if a else a


def or_(a_fn, b_fn):
    a = a_fn()
    if core.is_symbolic(a):
        return control.cond(a, lambda: as_bool(True), lambda: as_bool(b_fn()))
    return a if a else b_fn()


def not_(a):
    if core.is_symbolic(a):
        return dispatch.apply("logical_not", a)
    return not a
