"""Sentinels for names without a value: `Undefined('x')` and the undefined return value.

Generated code binds a name to `Undefined` before a statement that may set it, so body
functions can share it with `nonlocal`. Using one the way a value is used raises the
UnboundLocalError Python would have raised for the unset variable. A variable that a
staged loop may leave unset is a `MaybeUnset` afterwards (unset.py): `ld` stages the
check that raises the same error at run time.
"""

from autograph_lite.autograph.runtime import core, unset, where
from autograph_lite.autograph.runtime.unset import Undefined  # noqa: F401  (ag__.Undefined)
from autograph_lite.autograph.runtime.unset import ReturnedNone, UndefinedReturnValue  # noqa: F401


def retval(value, do_return=None):
    """The function's result. `do_return` is passed when the function may fall off its end:
    if whether it returned depends on a tensor, a returned value (its placeholder on the
    paths that did not return) cannot stand for Python's None there."""
    if isinstance(value, UndefinedReturnValue):
        return None
    if do_return is not None and value is not None and core.is_symbolic(do_return) and (
            not isinstance(value, unset.MaybeNone)):  # (a MaybeNone: None where it fell off)
        raise ValueError(
            f"the function defined at {where.caller()} returns a value from inside a staged "
            f"loop or `if` but may also reach its end without a `return` (returning None "
            f"there), depending on tensor values; end it with a `return` of a value of the "
            f"same type")
    return value


def is_undefined(x):
    return isinstance(x, (Undefined, UndefinedReturnValue))


def ld(value, free=False):
    """A read of a variable that may be unset: raises as Python would when it is (now, or
    at run time for a MaybeUnset). `free`: read from a nested function, where Python
    raises NameError."""
    if isinstance(value, Undefined):
        if free:
            raise NameError(unset.free_message(value.name))
        value._fail()
    if isinstance(value, unset.MaybeUnset):
        return value.read(free)
    return value


def deleted(value, name):
    """`del name` (converters/deletes.py): the value it had must exist, as Python checks;
    the name is unset afterwards."""
    ld(value)
    return Undefined(name)
