"""Python's operators on the user's objects, their dunder methods run as converted code.

`V(x) * y` calls `V.__mul__` from Python's own operator machinery, which AutoGraph never
sees: run as it is, the method gets symbolic tensors where plain Python gives it arrays,
so its `isinstance(o, np.ndarray)` takes the other branch, its `if` on a value is a
TypeError, and its `self.a` reads the NumPy array of trace time where a staged branch or
loop wrote the box that array became (a stale value): each a silent difference. So the
converter (converters/user_operators.py) makes `a op b`, `-a`, `~a`, `a < b` calls of
``binary``/``unary``/``compare`` here (`==`/`!=` reach ``compare`` through logical.eq/ne,
a chain's comparisons through compare_chain), and `x op= v` reaches ``inplace``
(runtime/data.py ``augassign``); on operands that are no objects of the user's
(``data.is_users``: tensors, arrays, numbers, strings, containers) they are Python's
operator itself, and on the user's objects they follow Python's protocol (the reflected
method first for a subclass that overrides it, `NotImplemented` passing to the other side,
`__iop__` falling back to the binary operator), calling a user's method converted, as a
method call is (``staging.dunder``).
Errors Python raises on the trace's Python values are the user's own (staging.
pythons_error: raised by the runs that reach them), as when the converted code ran the
operator itself.
"""
import operator

import numpy as np

from autograph_lite import errors
from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import (core, data, list_values, logical, staging,
                                              trace_arrays, unset)

_BINARY = {"+": ("add", operator.add), "-": ("sub", operator.sub),
           "*": ("mul", operator.mul), "/": ("truediv", operator.truediv),
           "//": ("floordiv", operator.floordiv), "%": ("mod", operator.mod),
           "**": ("pow", operator.pow), "@": ("matmul", operator.matmul),
           "&": ("and", operator.and_), "|": ("or", operator.or_),
           "^": ("xor", operator.xor), "<<": ("lshift", operator.lshift),
           ">>": ("rshift", operator.rshift)}
_UNARY = {"-": ("neg", operator.neg), "+": ("pos", operator.pos),
          "~": ("invert", operator.invert)}
_INPLACE = {f"{op}=": (name, data.AUGMENTED[f"{op}="]) for op, (name, _) in _BINARY.items()}
_COMPARISONS = {"<": ("lt", "gt", operator.lt), "<=": ("le", "ge", operator.le),
                ">": ("gt", "lt", operator.gt), ">=": ("ge", "le", operator.ge),
                "==": ("eq", "eq", operator.eq), "!=": ("ne", "ne", operator.ne)}


def _plain(fn, *args):
    # (an operand that is a NumPy array of trace time a staged write made a box, through a
    # name no rebinding reached: `h.w += g` in a helper, `w` the same array: the box)
    args = [trace_arrays.resolve(x) if type(x) is np.ndarray else x for x in args]
    try:
        return fn(*args)
    except Exception as e:
        staging.pythons_error(e, args)
        raise


def _protocol(a, b, forward, reflected, same_type_reflects):
    """Python's dispatch of a binary operator: ``a.forward(b)``, then ``b.reflected(a)``
    (first, for a subclass of ``a``'s class that overrides it; for operands of one class
    only where ``same_type_reflects``: comparisons), each until one is not
    `NotImplemented`; NotImplemented where none answers."""
    ta, tb = type(a), type(b)
    sides = [(a, forward, b)]
    if ta is not tb or same_type_reflects:
        sides.append((b, reflected, a))
    if ta is not tb and issubclass(tb, ta) and (
            getattr(tb, reflected, None) is not getattr(ta, reflected, None)):
        sides.reverse()  # (a subclass's override of the reflected method goes first)
    for obj, method_name, other in sides:
        if core.is_tensor(obj) and data.is_users(other):
            # (a NumPy scalar's operator defers to the object; an array's makes an object
            # array of the object's results, which no tensor holds, unless the object's
            # class opts out of ufuncs, `__array_ufunc__ = None`)
            if core.rank_of(obj) and getattr(type(other), "__array_ufunc__", 0) is not None:
                raise NotImplementedError(
                    f"an array combined with a {type(other).__name__} object at "
                    f"{errors.user_location()}: NumPy makes an array of objects (the object's "
                    f"operator on each element), which is not staged; set "
                    f"`__array_ufunc__ = None` on the class to have Python call its reflected "
                    f"method, or combine the object with the array's elements yourself")
            continue
        method = _method(obj, method_name)
        if method is not None:
            result = method(other)
            if result is not NotImplemented:
                return result
    return NotImplemented


def _method(obj, name):
    """``staging.dunder``; object's own `__ne__` is Python's inversion of `__eq__` (which
    it calls itself: the user's, converted here, its result's `not` staged)."""
    if name == "__ne__" and getattr(type(obj), "__ne__", None) is object.__ne__:
        eq = staging.dunder(obj, "__eq__")

        def ne(other):
            result = eq(other)
            return result if result is NotImplemented else logical.not_(result)
        return ne
    return staging.dunder(obj, name)


def binary(op, a, b):
    """``a op b`` (op: "+", "*", ...)."""
    name, fn = _BINARY[op]
    if isinstance(a, unset.MaybeNone) or isinstance(b, unset.MaybeNone):
        a, b = unset.operands(name, a, b)
    if not (data.is_users(a) or data.is_users(b)):
        return _plain(fn, a, b)
    result = _protocol(a, b, f"__{name}__", f"__r{name}__", False)
    if result is NotImplemented:
        raise staging.user_raise(TypeError(f"unsupported operand type(s) for {op}: "
                                           f"'{type(a).__name__}' and '{type(b).__name__}'"))
    return result


def unary(op, a):
    """``op a`` (op: "-", "+", "~")."""
    name, fn = _UNARY[op]
    if not data.is_users(a) or isinstance(a, unset.MaybeNone):
        return _plain(fn, a)
    method = staging.dunder(a, f"__{name}__")
    if method is None:
        raise staging.user_raise(TypeError(
            f"bad operand type for unary {op}: '{type(a).__name__}'"))
    return method()


def inplace(op, a, b):
    """``a op= b`` (op: "+=", ...): ``__iop__``, else the binary operator."""
    name, fn = _INPLACE[op]
    a, b = unset.plain(a), unset.plain(b)  # (known set here: the values)
    if isinstance(b, unset.MaybeNone):  # (Python's TypeError where it is None)
        b = b.used(name, a)
    if isinstance(a, unset.MaybeNone):
        if core.rank_of(a.value):  # (in place into an array that may be None)
            raise unset.refused(a.name, f"`{op}` into it")
        return binary(op[:-1], a, b)
    if not (data.is_users(a) or data.is_users(b)):
        return _plain(fn, a, b)
    method = staging.dunder(a, f"__i{name}__") if data.is_users(a) else None
    if method is not None:
        result = method(b)
        if result is not NotImplemented:
            return result
    return binary(op[:-1], a, b)


def compare(op, a, b):
    """``a op b`` (op: "<", "==", ...): the reflected method too where the first gives
    `NotImplemented` (`__gt__` for `<`), identity for `==`/`!=` where both do."""
    name, reflected, fn = _COMPARISONS[op]
    if op in ("==", "!=") and (isinstance(a, unset.MaybeNone) or isinstance(b,
                                                                         unset.MaybeNone)):
        x, other = (b, a) if isinstance(b, unset.MaybeNone) else (a, b)
        return getattr(x, f"__{name}__")(other)  # (None equals only None: MaybeNone.__eq__)
    if isinstance(a, unset.MaybeNone) or isinstance(b, unset.MaybeNone):
        a, b = unset.operands(name, a, b)
    if op in ("==", "!=") and (a is None) != (b is None) and core.is_symbolic(
            b if a is None else a):  # (`v == prev`, prev None: NumPy's all False)
        t = b if a is None else a
        same = dispatch.apply("equal", t, t)
        return (dispatch.apply("logical_and", same, False) if op == "=="
                else dispatch.apply("logical_or", same, True))
    if not (data.is_users(a) or data.is_users(b)):
        ordered = logical.order(op, a, b) if op in logical.ORDERINGS else None
        return _plain(fn, a, b) if ordered is None else ordered
    result = _protocol(a, b, f"__{name}__", f"__{reflected}__", True)
    if result is not NotImplemented:
        return result
    if op in ("==", "!="):
        return (a is b) == (op == "==")
    raise staging.user_raise(TypeError(f"'{op}' not supported between instances of "
                                       f"'{type(a).__name__}' and '{type(b).__name__}'"))


def truth(x):
    """Python's truth of a user's object (`if obj:`, `not obj`, `bool(obj)`, `obj and
    ...`): its `__bool__`, else its `__len__` (`!= 0`), run converted, so one that reads
    a tensor (`return bool(self.a.sum() > 0)`) gives a staged bool; anything else as it
    is. The result must be a bool (of `__len__`: an int, not negative), as Python's."""
    if not data.is_users(x):
        return x
    method = staging.dunder(x, "__bool__")
    if method is not None:
        return _checked(method(), bool, "__bool__ should return bool, returned")
    method = staging.dunder(x, "__len__")
    if method is None:
        return True
    return logical.COMPARE("!=", length(x, method), 0)


def length(x, method=None):
    """``len(obj)`` of a user's object: its converted `__len__`, an int that is not
    negative (Python's errors), staged where it reads a tensor."""
    n = _checked((method or staging.dunder(x, "__len__"))(), (int, np.integer),
                 "'{}' object cannot be interpreted as an integer")
    if isinstance(n, int):
        if n < 0:
            raise staging.user_raise(ValueError("__len__() should return >= 0"))
        return n
    dispatch.apply("assert", n >= 0, message="__len__() should return >= 0", error="ValueError")
    return n


def number(x, kind):
    """``float(obj)`` / ``int(obj)`` (``kind``: "float", "int") of a user's object with
    its own `__float__` / `__int__` (or `__index__`), run converted, or None where it has
    none (Python's own call then)."""
    names = ("__float__",) if kind == "float" else ("__int__", "__index__")
    if not data.is_users(x):
        return None
    for name in names:
        if staging.USER_METHOD(type(x), name) is not None:
            return _checked(staging.dunder(x, name)(), float if kind == "float" else int,
                            f"{name} returned non-{kind} (type {{}})")
    return None


NONE = object()  # (dunder_call: the object has no such method of the user's)


def dunder_call(x, name, *args):
    """``x.name(*args)`` run converted where ``x`` is a user's object whose class defines
    ``name`` itself (`abs(v)`: `__abs__`, `round(v, 2)`: `__round__`); ``NONE`` where it
    does not (Python's builtin runs then)."""
    if not data.is_users(x) or staging.USER_METHOD(type(x), name) is None:
        return NONE
    return staging.dunder(x, name)(*args)


def contains(item, container):
    """``item in obj`` of a user's object with its own `__contains__`, run converted, its
    result's truth; None where it has none."""
    if not data.is_users(container) or staging.USER_METHOD(type(container),
                                                           "__contains__") is None:
        return None
    result = staging.dunder(container, "__contains__")(item)
    return logical.truth(result) if core.is_symbolic(result) else bool(result)


def _checked(value, kinds, message):
    """``value``, a dunder's result, where its type in the plain run is one Python takes
    (``kinds``: `__bool__` a bool, not NumPy's; `__float__` a float, np.float64 too;
    `__int__` an int, not NumPy's, but a staged int64 (`int(t)`); `__len__` anything with
    `__index__`), else Python's
    TypeError (``message`` names the type)."""
    t = core.numpy_type(value) if core.is_symbolic(value) else type(value)
    if kinds is int and core.is_symbolic(value):
        kinds = (int, np.integer)  # (`int(t)` of an integer tensor: an int64, README)
    if not issubclass(t, kinds):
        name = core.type_name(value)
        raise staging.user_raise(TypeError(
            message.format(name) if "{}" in message else f"{message} {name}"))
    return value


data.INPLACE, logical.COMPARE = inplace, compare  # (`x op= v`, `a == b`: their operators)
list_values.USER_TRUTH, logical.USER_CONTAINS = truth, contains
