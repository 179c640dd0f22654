"""Variables that may be unset at run time: Python's UnboundLocalError, raised when it happens.

    for i in range(n):          # staged: n is a tensor
        last = i * 2.0
    return last                 # Python: UnboundLocalError when n == 0

Whether `last` is set depends on a tensor, so the error cannot be decided while tracing.
TensorFlow refuses such a program at trace time; here it runs as Python does (our
choice, README "Ordinary Python control flow"): the answer wherever Python gives one,
and Python's error, naming the variable, wherever Python raises it.

- A variable that has no value before a staged loop (`Undefined`), or that the body may
  `del`, is carried through the loop with a staged bool beside it, "set", and a zero of
  its type standing in where it is not set. After the loop it is a `MaybeUnset(name,
  value, is_set)`.
- A read of it (`ag__.ld(x)`: the converter wraps every read of a variable that may be
  unset, variables.py) stages a check that raises `UnboundLocalError("cannot access local
  variable 'last' where it is not associated with a value")` at the user's line, then
  gives the value. The check runs only on the paths that reach the read: in a staged
  branch only when that branch runs, in a loop body only when the body runs. A
  variable that is never read costs nothing.
- A staged `if` merges the flag with the value: a branch that sets the variable gives
  True, one that leaves it gives its flag. (A variable unset before the `if` and set in
  one branch only stays the SPEC's trace-time ValueError, conditionals.py.)
- `del x` (converters/deletes.py) makes `x` unset again: `Undefined` in Python code, the
  flag False in a staged loop or branch (control_flow names the variables a body may
  delete, so they carry a flag from the start; a deleted branch's stand-in is a bool
  zero, which promotes to the other branch's dtype and so keeps it).
"""

import operator

import numpy as np

from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import core


def message(name):
    """Python's (3.11+) message for a local variable read while unset."""
    return f"cannot access local variable '{name}' where it is not associated with a value"


def free_message(name):
    """Python's message for a variable of an enclosing function read while unset."""
    return (f"cannot access free variable '{name}' where it is not associated with a value "
            f"in enclosing scope")


class SetOnOnePath(ValueError):
    """A variable set in one branch of a staged `if` only (SPEC 3's error). A `while` whose
    test is still a Python value when its trip meets it (`while True: ... if y < 0: t_hit =
    t; break`) stages the loop from its start instead (loops.while_stmt), where such a
    variable carries a flag."""


class MaybeUnset:
    """Variable `name` after a staged construct that may have left it unset: `value` where
    it is set (a stand-in of the same type where not) and `is_set`, a staged bool."""

    __slots__ = ("name", "value", "is_set")

    def __init__(self, name, value, is_set):
        self.name, self.value, self.is_set = name, value, is_set

    def __repr__(self):
        return f"<{self.name}: set or not at run time>"

    def read(self, free=False):
        """The value, after a staged check that raises Python's error where it is unset."""
        error, text = (NameError, free_message) if free else (UnboundLocalError, message)
        if core.is_symbolic(self.is_set):
            dispatch.apply("assert", self.is_set, message=text(self.name), error=error.__name__)
        elif not self.is_set:
            raise error(text(self.name))
        return self.value

    # A read that is not a name load (`x += 1`, whose read the converter does not wrap)
    # reaches these: the checked value, then the operation, as Python does.
    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return getattr(self.read(), attr)

    for _op in ("add sub mul truediv floordiv mod pow matmul and_ or_ xor lshift rshift "
                "lt le gt ge").split():
        _fn = getattr(operator, _op)
        _name = _op.rstrip("_")
        locals()[f"__{_name}__"] = (lambda f: lambda self, o: f(self.read(), o))(_fn)
        if _op not in ("lt", "le", "gt", "ge"):
            locals()[f"__r{_name}__"] = (lambda f: lambda self, o: f(o, self.read()))(_fn)
    for _op in ("neg pos abs invert getitem len iter bool float int index contains "
                "call").split():
        _fn = {"len": len, "iter": iter, "bool": bool, "float": float, "int": int,
               "index": operator.index, "call": lambda v, *a, **k: v(*a, **k)}.get(
                   _op, getattr(operator, _op, None))
        locals()[f"__{_op}__"] = (lambda f: lambda self, *a, **k: f(self.read(), *a, **k))(
            _fn)
    del _op, _fn, _name


class Flagged(tuple):
    """(value, is_set): how a staged cond or loop carries a variable that may be unset (a
    tuple with `_fields`, so the core carries it as two values and rebuilds it)."""

    _fields = ("value", "is_set")

    def __new__(cls, value, is_set):
        return tuple.__new__(cls, (value, is_set))

    value = property(lambda self: tuple.__getitem__(self, 0))
    is_set = property(lambda self: tuple.__getitem__(self, 1))


class Undefined:
    """The value of variable `name` before anything set it."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<undefined {self.name}>"

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(message(self.name))

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        self._fail()

    for _op in ("add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow "
                "rpow matmul rmatmul neg pos abs invert and rand or ror xor rxor lt le gt ge "
                "getitem setitem iter len bool call float int index contains").split():
        locals()[f"__{_op}__"] = _fail
    del _op


def is_unset_kind(value):
    """Whether `value` stands for a variable without a value now (`Undefined`) or maybe
    without one at run time (`MaybeUnset`)."""
    return isinstance(value, (Undefined, MaybeUnset))


def stand_in(value):
    """The value a deleted variable has where it is unset (never read): zeros of its shape,
    of dtype bool, which promotes to the other branch's dtype (NumPy: bool is below every
    type), so the branch that keeps a value keeps its dtype. None for a non-tensor."""
    if not core.is_tensor_like(value):
        return None
    shape = getattr(value, "shape", ())
    return np.zeros(core.concrete_shape(shape), np.bool_)[()]


def value_of(value):
    """The value part of a MaybeUnset (for type checks); anything else as it is."""
    return value.value if isinstance(value, MaybeUnset) else value


def flagged(value, stand_in=None):
    """A branch's or an iteration's value of a flagged variable as (value, is_set): a set
    value is set (a Python True, which the core does not stage when both sides agree);
    `Undefined` (deleted) is unset, with `stand_in` as its value (None: cannot say)."""
    if isinstance(value, MaybeUnset):
        return Flagged(value.value, value.is_set)
    if isinstance(value, Undefined):
        return None if stand_in is None else Flagged(stand_in, np.False_)
    return Flagged(value, True)


def unflagged(name, value):
    """The variable after the construct: the value where the flag is known True, else a
    MaybeUnset."""
    if not isinstance(value, Flagged):
        return value
    if value.is_set is True or (isinstance(value.is_set, np.bool_) and value.is_set):
        return value.value
    return MaybeUnset(name, value.value, value.is_set)
