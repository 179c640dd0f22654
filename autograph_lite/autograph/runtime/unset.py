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

import contextlib
import operator
import os
import sys

import numpy as np

from autograph_lite import call_keys
from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import core, staging


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
        return self.required(error, text(self.name))

    def required(self, error, text):
        """The value, after a staged check that raises `error(text)` where it is not set
        (a MaybeNone: where it is None)."""
        if core.is_symbolic(self.is_set):
            dispatch.apply("assert", self.is_set, message=text, error=error.__name__)
        elif not self.is_set:
            raise error(text)
        return self.value

    def used(self, op, other=None):
        """The value, for operation `op` (a key of _SYMBOLS) with `other`: checked set."""
        return self.read()

    # A read that is not a name load (`x += 1`, whose read the converter does not wrap)
    # reaches these: the checked value, then the operation, as Python does.
    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return getattr(self.used("getattr", attr), attr)

    for _op in ("add sub mul truediv floordiv mod pow matmul and_ or_ xor lshift rshift "
                "lt le gt ge").split():
        _fn = getattr(operator, _op)
        _name = _op.rstrip("_")
        locals()[f"__{_name}__"] = (
            lambda f, n: lambda self, o: f(self.used(n, o), o))(_fn, _name)
        if _op not in ("lt", "le", "gt", "ge"):
            locals()[f"__r{_name}__"] = (
                lambda f, n: lambda self, o: f(o, self.used(n, o)))(_fn, _name)
    for _op in ("neg pos abs invert getitem len iter bool float int index contains "
                "call").split():
        _fn = {"len": len, "iter": iter, "bool": bool, "float": float, "int": int,
               "index": operator.index, "call": lambda v, *a, **k: v(*a, **k)}.get(
                   _op, getattr(operator, _op, None))
        locals()[f"__{_op}__"] = (
            lambda f, n: lambda self, *a, **k: f(self.used(n), *a, **k))(_fn, _op)
    del _op, _fn, _name


# Python's TypeError for an operation on None, by operation (`other`: the other operand)
_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//",
            "mod": "%", "pow": "** or pow()", "matmul": "@", "and": "&", "or": "|",
            "xor": "^", "lshift": "<<", "rshift": ">>"}
_ORDERS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_UNARY = {"neg": "bad operand type for unary -: 'NoneType'",
          "pos": "bad operand type for unary +: 'NoneType'",
          "abs": "bad operand type for abs(): 'NoneType'",
          "invert": "bad operand type for unary ~: 'NoneType'",
          "getitem": "'NoneType' object is not subscriptable",
          "len": "object of type 'NoneType' has no len()",
          "iter": "'NoneType' object is not iterable",
          "float": "float() argument must be a string or a real number, not 'NoneType'",
          "int": "int() argument must be a string, a bytes-like object or a real number, "
                 "not 'NoneType'",
          "index": "'NoneType' object cannot be interpreted as an integer",
          "contains": "argument of type 'NoneType' is not iterable",
          "call": "'NoneType' object is not callable"}


def _type_name(x):
    """The name Python's error gives the type of `x` (a tensor: the Python or NumPy type it
    stands for)."""
    if core.is_tensor_like(x) and not isinstance(x, (int, float, bool, complex)):
        if getattr(x, "ndim", 0):
            return "numpy.ndarray"
        kind = core.numpy_type(x) if core.is_symbolic(x) else type(x)
        return kind.__name__ if kind in (bool, int, float, complex) else f"numpy.{kind.__name__}"
    return type(x).__name__


_PACKAGE = os.path.dirname(call_keys.__file__) + os.sep  # (autograph_lite's own files)


class MaybeNone(MaybeUnset, call_keys.Optional):
    """Variable `name` after a staged `if` or loop that left it None on some runs and a value
    on others (`idx = None`, then `for i ...: if x[i] < 0: idx = i; break`): `value` where
    `is_set` (a staged bool), a stand-in of its type where it is None.

    Unlike a MaybeUnset it is a value, read and handed on as it is (`ld` gives it back): `x
    is None` is the staged `not is_set` (logical.is_); `==`/`!=` are Python's (None equals
    only None); an operation Python would refuse on None (`idx + 1`, `idx < 3`, `x[idx]` of
    it, `int(idx)`) stages a check that raises Python's TypeError on the runs where it is
    None, then works on the value; returned, it is None or the value (function.py
    ``_optional_leaf``). Anything that would do something else with None (a call of a NumPy
    or library function, an index into an array, its truth) is refused while tracing."""

    __slots__ = ()

    def __repr__(self):
        return f"<{self.name}: None or a value at run time>"

    def read(self, free=False):
        return self

    def __getattr__(self, attr):
        # (the package's own probes, `hasattr(v, "dtype")`, a private name: not the user's
        # read, which stages Python's AttributeError where it is None)
        if attr.startswith("_") or sys._getframe(1).f_code.co_filename.startswith(_PACKAGE):
            raise AttributeError(attr)
        return getattr(self.used("getattr", attr), attr)

    def used(self, op, other=None):
        if op == "bool" and self.is_set is not True:
            raise refused(self.name, "its truth (`if x:`, `not x`)")
        if op == "getattr":
            error, text = AttributeError, f"'NoneType' object has no attribute '{other}'"
        elif op in _ORDERS:
            error, text = TypeError, (f"'{_ORDERS[op]}' not supported between instances of "
                                      f"'NoneType' and '{_type_name(other)}'")
        elif op in _SYMBOLS:
            error, text = TypeError, (f"unsupported operand type(s) for {_SYMBOLS[op]}: "
                                      f"'NoneType' and '{_type_name(other)}'")
        else:
            error, text = TypeError, _UNARY[op]
        return self.required(error, text)

    def __eq__(self, other):
        if other is None:  # (`x == None`: as `x is None`, a test that narrows)
            return self.is_none()
        if isinstance(other, MaybeNone):  # (None equals None; values compare)
            return _both_or_neither(self, other)
        if not core.is_tensor_like(other):
            raise refused(self.name, f"its comparison with {_type_name(other)}")
        return dispatch.apply("logical_and", self.is_set,
                              dispatch.apply("equal", self.value, other))

    def __ne__(self, other):
        if other is None:
            test = self.is_none()
            return negated(test, dispatch.apply("logical_not", test))
        if isinstance(other, MaybeNone):
            return dispatch.apply("logical_not", _both_or_neither(self, other))
        if not core.is_tensor_like(other):
            raise refused(self.name, f"its comparison with {_type_name(other)}")
        return dispatch.apply("logical_or", dispatch.apply("logical_not", self.is_set),
                              dispatch.apply("not_equal", self.value, other))

    __hash__ = None

    def __array__(self, *args, **kwargs):
        raise refused(self.name, "its conversion to a NumPy array")

    def __str__(self):  # (`f"{idx}"`, `"%s" % idx`, print: None's text on some runs)
        if self.is_set is True:
            return str(self.value)
        raise refused(self.name, "its text (str(), an f-string, % formatting)")

    def __format__(self, spec):
        if self.is_set is True:
            return format(self.value, spec)
        raise refused(self.name, "its text (str(), an f-string, % formatting)")

    def is_none(self):
        """`x is None`: staged (a bool standing for a Python bool), remembered as a test of
        it (`narrowed`)."""
        test = dispatch.apply("as_weak", dispatch.apply("logical_not", self.is_set))
        return _remember(test, (self,), False) if core.is_symbolic(test) else test


def _both_or_neither(a, b):
    """`a == b` of two MaybeNones of single values (numbers): True where both are None,
    their values' equality where both are set, False where one is None. An array's `==`
    with None is elementwise (False everywhere), which one bool cannot stand for: refused."""
    for x in (a, b):
        if getattr(x.value, "ndim", 0):
            raise refused(x.name, "its comparison with another value that may be None "
                                  "(an array: `==` with None is elementwise)")
    set_a, set_b = a.is_set, b.is_set
    neither = dispatch.apply("logical_and", dispatch.apply("logical_not", set_a),
                             dispatch.apply("logical_not", set_b))
    both = dispatch.apply("logical_and", set_a, set_b)
    return dispatch.apply("logical_or", neither, dispatch.apply(
        "logical_and", both, dispatch.apply("equal", a.value, b.value)))


# {id of a staged bool that tests MaybeNones: (that bool, the MaybeNones xs, the branch
# in which none of them is None)}: `x is None` (False), `not` of a test (the other), `t and
# b` of tests whose True branches narrow (True: the xs of both), `t or b` of ones whose
# False branches do (False). A staged `if` or conditional expression on it narrows the xs
# in that branch (below).
_TESTS = {}


def _remember(test, xs, not_none_in):
    if not core.is_symbolic(test):
        return test
    if len(_TESTS) > 512:  # (a trace's own; older ones are not asked again)
        del _TESTS[next(iter(_TESTS))]
    _TESTS[id(test)] = (test, xs, not_none_in)
    return test


def _test_of(test):
    entry = _TESTS.get(id(test))
    return entry if entry is not None and entry[0] is test else None


def negated(test, result):
    """`result`, the staged `not test`: a test of the same MaybeNone, the other way."""
    entry = _test_of(test)
    if entry is not None:
        _remember(result, entry[1], not entry[2])
    return result


def same_test(test, result):
    """`result`, the staged truth of `test` (another object): the same test."""
    entry = _test_of(test)
    if entry is not None and result is not test:
        _remember(result, entry[1], entry[2])
    return result


def joined(tests, result, when):
    """`result`, the staged `a and b` (`when` True) or `a or b` (False) of `tests` (a, b;
    `b` None where it is not known): where it is `when`, each of them was too, so the xs of
    each test whose `when` branch narrows are narrowed in the result's."""
    xs = ()
    for test in tests:
        entry = _test_of(test) if test is not None else None
        if entry is not None and entry[2] == when:
            xs += tuple(x for x in entry[1] if not any(x is y for y in xs))
    if xs:
        _remember(result, xs, when)
    return result


def narrows(result, xs, when):
    """Remembers staged bool `result` as a test that rules None out of the MaybeNones `xs`
    where it is `when` (conditionals._flags_as_tests)."""
    unique = ()
    for x in xs:
        if not any(x is y for y in unique):
            unique += (x,)
    _remember(result, unique, when)


def narrowing(test, holds):
    """The MaybeNones that `test` rules None out of where it is `holds` (none: ())."""
    entry = _test_of(test) if core.is_symbolic(test) else None
    return entry[1] if entry is not None and entry[2] == holds else ()


def narrow_after(test, holds):
    """The trace goes on only where `test` is `holds` (the other runs raised: `if x is
    None: raise ...`, `assert x is not None`): where that branch narrows x, x is its value
    from here on. Only outside staged branches and loop bodies: inside one, the runs that
    do not take it (or a loop's zero trips) reach the code after it with x maybe None."""
    entry = _test_of(test)
    if entry is not None and entry[2] == holds and not staging.active():
        for x in entry[1]:
            x.is_set = True


@contextlib.contextmanager
def narrowed(cond, which):
    """Traces the branch `which` (True: the one run where `cond` holds) of a staged `if` or
    conditional expression on `cond`. Where `cond` tests a MaybeNone x and this branch
    runs only where x is not None, x is its value in it, as Python's x is there: `if idx
    is not None: out[idx] = 1.0`, `np.sqrt(idx)`, `print(idx)` work (outside, they are
    refused: None would do something else)."""
    entry = _test_of(cond)
    if entry is None or which != entry[2]:
        yield lambda values: values
        return
    xs = entry[1]
    saved = [x.is_set for x in xs]
    for x in xs:
        x.is_set = True
    try:  # (what the branch hands on: x as its value, `r = idx if idx is not None else 0`)
        yield lambda values: tuple(_settled_all(v, xs) for v in values)
    finally:
        for x, was in zip(xs, saved):
            x.is_set = was


def _settled_all(v, xs):
    for x in xs:
        v = _settled(v, x)
    return v


def _settled(v, x):
    """`v` with MaybeNone `x` as its value, also inside tuples (`return i, x[i]`) and in a
    dict the branch made (`res = {"i": idx, "v": x[idx]}`)."""
    if v is x:
        return x.value
    if type(v) is dict and any(e is x for e in v.values()):
        return {k: _settled(e, x) for k, e in v.items()}
    if type(v) is tuple or (isinstance(v, tuple) and hasattr(v, "_fields")
                            and not isinstance(v, Flagged)):
        items = [_settled(e, x) for e in v]
        if any(a is not b for a, b in zip(items, v)):
            return type(v)(*items) if hasattr(v, "_fields") else tuple(items)
    return v


def plain(x):
    """`x`, or the value of a MaybeNone known set here (narrowed)."""
    return x.value if isinstance(x, MaybeNone) and x.is_set is True else x


def stored(value, into):
    """`value` to store `into` an object's attribute, a container's item or an array (a
    description): a MaybeNone is refused (the object outlives the call, or NumPy would
    store None's nan), but where it is known set (narrowed): its value."""
    value = plain(value)
    if isinstance(value, MaybeNone):
        raise refused(value.name, f"storing it in {into} (store it under an `if` that "
                                  f"tests it `is not None`)")
    return value


def written(target):
    """The array to write into where `target` may be None (`best[0] = 100.0`): its value,
    after the check that raises Python's TypeError where it is None."""
    if not isinstance(target, MaybeNone):
        return target
    return target.required(TypeError, "'NoneType' object does not support item assignment")


def refused(name, what):
    """The trace-time refusal of a use of a maybe-None variable with no staged form (`name`
    a variable, an item `best[1]`, or a description: `the value of the ... at file:line`)."""
    code = name.replace("[", "").replace("]", "").replace(".", "").isidentifier()
    subject = f"'{name}'" if code else name
    test = (f"test `{name} is None` (or `is not None`) in an `if` first" if code else
            "give it to a variable and test that `is None` (or `is not None`) in an `if` "
            "first")
    return NotImplementedError(
        f"{subject} is None on some runs and a value on others (a staged `if` or loop "
        f"decided it), and {what} would do something else with None than with a value, "
        f"which a compiled function cannot choose at run time; {test}, or give it a "
        f"number instead of None with a flag beside it")


class Flagged(tuple):
    """(value, is_set): how a staged cond or loop carries a variable that may be unset (a
    tuple with `_fields`, so the core carries it as two values and rebuilds it)."""

    _fields = ("value", "is_set")

    def __new__(cls, value, is_set):
        return tuple.__new__(cls, (value, is_set))

    value = property(lambda self: tuple.__getitem__(self, 0))
    is_set = property(lambda self: tuple.__getitem__(self, 1))


class UndefinedReturnValue:
    """The return value before a `return` ran; `retval` turns it into None.

    `falls_off`: the function may end without a return (then returning None), so a staged
    `if` must not give this a placeholder value in the branch that does not return.
    """

    __slots__ = ("falls_off",)

    def __init__(self, falls_off=False):
        self.falls_off = falls_off

    def __repr__(self):
        return "<no return value>"


class ReturnedNone(UndefinedReturnValue):
    """The return value after a staged `if` one branch of which returned None (`if x[i] <
    0: return`) while the other goes on (conditionals.py): None wherever the function
    returns; a later `return` of a value merging with it makes the return value a
    MaybeNone (`may_be_none`)."""

    __slots__ = ()


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
    without one at run time (`MaybeUnset`; a MaybeNone has a value, maybe None)."""
    return isinstance(value, (Undefined, MaybeUnset)) and not isinstance(value, MaybeNone)


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


def flagged(value, stand_in=None, none=False):
    """A branch's or an iteration's value of a flagged variable as (value, is_set): a set
    value is set (a Python True, which the core does not stage when both sides agree);
    `Undefined` (deleted) is unset, with `stand_in` as its value (None: cannot say); so is
    None where the variable may be None (`none`: MaybeNone)."""
    if isinstance(value, Flagged):
        return value
    if isinstance(value, MaybeUnset):
        return Flagged(value.value, value.is_set)
    if isinstance(value, Undefined) or (none and is_none(value)):
        return None if stand_in is None else Flagged(stand_in, np.False_)
    return Flagged(value, True)


def unflagged(name, value, none=False):
    """The variable after the construct: the value where the flag is known True, else a
    MaybeUnset (`none`: a MaybeNone; None where the flag is known False)."""
    if not isinstance(value, Flagged):
        return value
    if value.is_set is True or (isinstance(value.is_set, np.bool_) and value.is_set):
        return value.value
    if none and (value.is_set is False or isinstance(value.is_set, np.bool_)):
        return None
    return (MaybeNone if none else MaybeUnset)(name, value.value, value.is_set)


def may_be_none(value):
    """Whether a variable holding `value` before a staged `if` or loop is carried as a
    MaybeNone when the construct gives it a value: None now, None on some runs, or the
    return value of a function that returned None (ReturnedNone) or may fall off its end
    (`if s > 0: return s`, then nothing: `is_none`)."""
    return isinstance(value, MaybeNone) or is_none(value)


def is_none(value):
    """None, or a return value that is the function's None where it returns: one returned
    (ReturnedNone), or none yet in a function that may fall off its end."""
    return value is None or isinstance(value, ReturnedNone) or (
        isinstance(value, UndefinedReturnValue) and value.falls_off)


def none_beside(name, value, zeros_like):
    """None where the other branch or the loop gives `value` (a tensor, or a MaybeNone): a
    MaybeNone that is None, with `zeros_like(value)` standing in; None itself when `value`
    is no tensor (the variable is then not a MaybeNone)."""
    value = value_of(value)
    if not (core.is_tensor_like(value) or (isinstance(value, tuple) and core.is_carriable(
            value))) or isinstance(value, (str, bytes)):
        return None
    return MaybeNone(name, zeros_like(value), np.False_)


def identity(a, b):
    """`a is b` where one is a MaybeNone: staged against None; refused against anything
    else (whose identity with the value is not known while tracing)."""
    x, other = (a, b) if isinstance(a, MaybeNone) else (b, a)
    if other is None:
        return x.is_none()
    if other is x:
        return True
    raise refused(x.name, "its identity with another object (`is`)")


def operands(op, a, b):
    """`a` and `b` of `a op b` (op: a key of _SYMBOLS or _ORDERS), each MaybeNone as its
    value, after the check that raises Python's TypeError where it is None (`a == b`, `a
    != b` of one: its own __eq__/__ne__)."""
    if isinstance(a, MaybeNone):
        a = a.used(op, b)
    if isinstance(b, MaybeNone):
        b = b.used(_REFLECTED.get(op, op), a)
    return a, b


_REFLECTED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def _slice_bounds(k):
    """A slice with a bound that may be None (`x[:end]`): where it is None, the bound
    NumPy's None means (past either end: clipped), for a step known while tracing."""
    step = plain(k.step)
    if isinstance(step, MaybeNone) or not (step is None or type(step) is int):
        raise refused((step if isinstance(step, MaybeNone) else k.start if isinstance(
            k.start, MaybeNone) else k.stop).name, "a slice's bound, with this step")
    up = step is None or step > 0
    ends = ((0, 2 ** 63 - 1) if up else (2 ** 63 - 1, -2 ** 63))
    bounds = []
    for b, end in zip((plain(k.start), plain(k.stop)), ends):
        if isinstance(b, MaybeNone):
            if np.dtype(core.dtype_of(b.value)).kind not in "iu":  # (NumPy's TypeError)
                raise refused(b.name, "a slice's bound, holding no integer")
            value = dispatch.apply("cast", b.value, dtype=np.dtype(np.int64))  # (the ends:
            b = dispatch.apply("where", b.is_set, value, end)  # int64's, not wrapped)
        bounds.append(b)
    return slice(bounds[0], bounds[1], step)


def index_key(key):
    """An index holding a MaybeNone (`x[idx]`): its value, after a staged check that raises
    where it is None (NumPy would add an axis there: np.newaxis; refused at run time
    rather than answered differently)."""
    items = key if type(key) is tuple else (key,)
    if not any(isinstance(k, MaybeNone) or (type(k) is slice and any(
            isinstance(b, MaybeNone) for b in (k.start, k.stop, k.step))) for k in items):
        return key
    out = []
    for k in items:
        k = plain(k)
        if type(k) is slice:
            k = _slice_bounds(k)
        elif isinstance(k, MaybeNone):
            text = (f"'{k.name}' is None here, and an index of None adds an axis "
                    f"(np.newaxis), which the compiled function does not do: it was "
                    f"compiled for '{k.name}' holding a number; test `{k.name} is None` "
                    f"before indexing")
            k = k.required(NotImplementedError, text)
        out.append(k)
    return tuple(out) if type(key) is tuple else out[0]
