"""`and_`, `or_`, `not_`: Python's short-circuit semantics, staged lazily on tensors.

A symbolic left operand makes the right one a branch of a staged cond, so the right
side is evaluated (at run time) only when Python would have evaluated it. As in Python,
the result is an operand's value, not a bool: `a and b` is `b if a else a` (`x[0] or
x[1]` is x[0] where it is nonzero), in the dtype both promote to.
"""

import operator

import collections

import numpy as np

from autograph_lite.tensor import holds_symbolic
from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import (core, data, identities, list_values,
                                              trace_arrays, unset, where)

# user_operators.compare (installed there: it imports this module): Python's comparison,
# the user's objects' dunders converted
COMPARE = None
# conditionals.choose (installed there: it imports this module): a staged choice whose
# errors in one operand are raised by the runs that evaluate it
CHOOSE = None
# user_operators.contains: `in` of a user's object with its own `__contains__`, converted
USER_CONTAINS = None


def as_bool(x):
    """A staged boolean as it is, a Python value as a boolean constant tensor."""
    x = list_values.truth(x)
    if core.is_symbolic(x):
        return x
    return dispatch.constant(bool(x))


def truth(a):
    """Python's ``bool(a)`` of a symbolic tensor, staged."""
    a = list_values.truth(a)
    if np.dtype(a.dtype).kind == "b":
        return a
    return dispatch.apply("not_equal", a, 0)


def _operand(fn, seen):
    """The right operand, as a staged branch gives it: a bool stays a bool tensor; `seen`
    gets it (a test of a MaybeNone: `x is not None and y is not None` narrows both)."""
    def run():
        b = fn()
        seen.append(b)
        return as_bool(b) if isinstance(b, (bool, np.bool_)) else b
    return run


def _staged_truth(a):
    """The truth of ``a`` as a 0-d bool tensor where it is staged (a tensor; a list a
    staged loop carries, data.TensorList, of a length known only at run time); else None:
    Python's own truth decides."""
    if core.is_symbolic(a):
        return truth(a)
    if getattr(type(a), "ag_truth", None) is not None:
        c = list_values.truth(a)
        return c if core.is_symbolic(c) else None
    return None


def _tested(fn):
    """``fn`` whose Python container (a list, tuple, dict, set, str) is given as its
    truth: an operand of an `and`/`or` that is a test (converters/logical_expressions.py),
    where only the truth is read; a container cannot be one side of a staged choice
    (`if x[i] > 0 and hist and x[i] < hist[-1]:` was refused, session 52), nor can a list
    a staged region carries (data.TensorList), whose truth is its length's, staged where
    that is known only at run time (session 54: `while i < 4 and x > 0 and (h and v <
    h[-1]):` in the branch appending to `h`)."""
    def run():
        v = fn()
        if getattr(type(v), "ag_truth", None) is not None or isinstance(
                v, list_values.ListTensor):  # (`while k < 10 and st:` of a filled list)
            return list_values.truth(v)
        if isinstance(v, _CONTAINERS):
            return bool(v)
        return v
    return run


_CONTAINERS = (list, tuple, dict, set, frozenset, str, bytes, collections.deque)


def and_(a_fn, b_fn, test=False):
    if test:
        a_fn, b_fn = _tested(a_fn), _tested(b_fn)
    a = a_fn()
    c = _staged_truth(a)
    if c is not None:
        # (a bool `a` is False where it is not taken: the constant, which ir/bounds.py and
        # the ownership analysis read, e.g. `while i < len(x) and ...` proves `x[i]`)
        c = unset.same_test(a, c)  # (`x is not None and ...`: narrows x, unset.narrowed)
        seen = []
        result = CHOOSE(c, _operand(b_fn, seen), _constant_if_bool(a, False), "`and`",
                        where.caller())
        if test and _python_truth(seen, False):
            return False  # (`v is not None and w is not None`, w None on every path)
        return unset.joined((c, seen[-1] if seen else None), result, True)
    return b_fn() if _known_truth(a) else a


def or_(a_fn, b_fn, test=False):
    if test:
        a_fn, b_fn = _tested(a_fn), _tested(b_fn)
    a = a_fn()
    c = _staged_truth(a)
    if c is not None:
        c = unset.same_test(a, c)
        seen = []
        result = CHOOSE(c, _constant_if_bool(a, True), _operand(b_fn, seen), "`or`",
                        where.caller())
        if test and _python_truth(seen, True):
            return True
        return unset.joined((c, seen[-1] if seen else None), result, False)
    return a if _known_truth(a) else b_fn()


def _known_truth(a):
    """Python's truth of ``a``, known while tracing: a list a staged region carries
    (data.TensorList) by its length, 0 here (a tuple's own truth, always True, read
    `h[-1]` of its empty rows: `h and h[-1] != v`, session 52)."""
    if getattr(type(a), "ag_truth", None) is not None:
        return bool(list_values.truth(a))
    return a


def _python_truth(seen, value):
    """Whether the right operand of a tested `and` (``value`` False) or `or` (True), as
    ``seen``, is a Python value of that truth: the test is then that value on every run
    (its code under the test is not traced, as Python never runs it: `if v is not None and
    w is not None: v - w` with w None on every path raised on None, session 52)."""
    return (bool(seen) and not core.is_symbolic(seen[-1])
            and not isinstance(seen[-1], unset.MaybeNone)
            and getattr(type(seen[-1]), "ag_truth", None) is None
            and isinstance(seen[-1], (bool, np.bool_, int, float, type(None)))
            and bool(seen[-1]) is value)


def _constant_if_bool(a, value):
    """The value of `a and b` / `a or b` where `a` decides it: `a` itself, or the bool
    constant where `a` is a bool or a staged list (`rows and x` stands for its truth, as a
    condition reads it: the list cannot be one branch of a staged choice)."""
    if isinstance(a, list_values.ListTensor) or getattr(type(a), "ag_truth", None) or (
            np.dtype(a.dtype).kind == "b"):
        return lambda: as_bool(value)
    return lambda: a


def in_(item, container):
    """`item in container`, staged where tensors decide it: NumPy's `x in a` is `(a ==
    x).any()`; a list or tuple holding tensors (or searched for one) is Python's scan,
    `e is item or e == item` for each item in turn, staged lazily. Anything else is
    Python's own `in`."""
    if USER_CONTAINS is not None:
        found = USER_CONTAINS(item, container)
        if found is not None:
            return found
    if isinstance(container, data.TensorList):  # (a list a staged loop appends to)
        container = container.stacked()
    if core.is_symbolic(container) or (isinstance(container, np.ndarray)
                                       and core.is_symbolic(item)):
        return dispatch.apply("reduce_any", dispatch.apply("equal", container, item),
                              axis=None, keepdims=False)
    if isinstance(container, (list, tuple)) and (
            holds_symbolic(item) or any(holds_symbolic(e) for e in container)):
        # (Python stops at the first item that is `item`: the ones after it are never
        # compared, `a in [a, b]` of a `b` that does not broadcast with `a` holds)
        first = next((k for k, e in enumerate(container) if e is item), None)
        scanned = container if first is None else container[:first]
        found = first is not None
        for e in reversed(scanned):
            equal = _equal(e, item)
            if isinstance(equal, (bool, np.bool_)):  # (decided while tracing)
                found = True if equal else found
                continue
            if core.is_symbolic(equal) and equal.ndim and all(d == 1 for d in equal.shape):
                equal = equal.reshape(())  # (a one-element array's truth: its element)
            elif core.is_symbolic(equal) and equal.ndim:
                raise ValueError("The truth value of an array with more than one element is "
                                 "ambiguous. Use a.any() or a.all()")
            if not (core.is_symbolic(equal) and equal.ndim == 0):
                return item in container  # (Python's, and its errors)
            found = or_(lambda equal=equal: equal, lambda found=found: found)
        return found
    return item in container


def _equal(a, b):
    """`a == b` as `in` tests it: of two tuples (or lists) holding tensors, Python's item by
    item (`is` first), the first unequal pair deciding, staged lazily; else `==`."""
    if type(a) is type(b) and isinstance(a, (tuple, list)) and (
            holds_symbolic(a) or holds_symbolic(b)):
        if len(a) != len(b):
            return False
        equal = True
        for x, y in reversed(list(zip(a, b))):
            if x is y:
                continue
            pair = _equal(x, y)
            if isinstance(pair, (bool, np.bool_)) and not pair:
                equal = False
                continue
            equal = and_(lambda pair=pair: pair, lambda equal=equal: equal)
        return equal
    return COMPARE("==", a, b)  # (a tensor == None: False, as NumPy's)


def not_in(item, container):
    return not_(in_(item, container))


def is_(a, b):
    """`a is b`: Python's identity, but a 0-d tensor that stands for a Python bool (`bool(t)`,
    weak) is True or False by its value, and one that stands for a NumPy bool is np.True_
    or np.False_ (the singletons NumPy's bools are): `bool(t) is True`, `x.any() is
    np.True_`, `case True:` (identity with the tensor object held none of them)."""
    if isinstance(a, unset.MaybeNone) or isinstance(b, unset.MaybeNone):
        return unset.identity(a, b)  # (`idx is None` of a variable None on some runs)
    if type(a) is np.ndarray or type(b) is np.ndarray:  # (an array of trace time that a
        a, b = trace_arrays.resolve(a), trace_arrays.resolve(b)  # staged region made a box)
    if core.is_symbolic(b) and not core.is_symbolic(a):
        a, b = b, a
    kind = _bool_kind(a)
    if kind is not None and (kind is _bool_kind(b) or type(b) is kind):
        return dispatch.apply("as_weak", dispatch.apply("equal", a, b))
    if core.is_symbolic(a) and core.is_symbolic(b) and a is not b and not isinstance(
            a, list_values.ListTensor) and not isinstance(b, list_values.ListTensor):
        same = identities.same_object(a, b)  # (a merge of a staged branch: by the path)
        return same if isinstance(same, bool) else dispatch.apply("as_weak", same)
    return a is b


def _bool_kind(v):
    """bool for a tensor standing for a Python bool, np.bool_ for one standing for a
    NumPy bool (core.numpy_type: not a 0-d array argument), else None."""
    if core.is_symbolic(v) and not v.ndim and v.dtype.kind == "b":
        kind = core.numpy_type(v)
        return kind if kind in (bool, np.bool_) else None
    return None


def eq(a, b):
    """`a == b`: Python's, but a tuple or list holding traced values (`(i, j) == (0, 0)`,
    `x.tolist() == [1, 5, 7]`) compares as Python's sequences do, staged: the same kind and
    length, then each pair's truth, all of them (Python asked each tensor pair's truth
    while tracing: a TypeError)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and (
            not isinstance(a, list_values.ListTensor)) and holds_symbolic((a, b)):
        if isinstance(a, tuple) != isinstance(b, tuple) or len(a) != len(b):
            return False
        held = True
        for x, y in zip(a, b):
            if x is y:
                continue
            one = list_values.truth(eq(x, y))
            if not core.is_symbolic(one) and not one:
                return False
            if core.is_symbolic(one):
                held = one if held is True else dispatch.apply("logical_and", held, one)
        return dispatch.apply("as_weak", held) if core.is_symbolic(held) else held
    return COMPARE("==", a, b)


ORDERINGS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def order(op, a, b):
    """`a < b` (`<=`, `>`, `>=`) of two tuples (or two lists) holding traced values, as
    Python orders sequences, staged: the first pair that is not equal decides (a pair that
    is one object is equal), else the lengths. The `(value, index)` idiom (`if (d, i) <
    best:`) asked a tensor's truth while tracing: a TypeError (session 49). None when
    Python's own comparison applies (no traced value, or not two sequences of one kind)."""
    if not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
            and isinstance(a, tuple) == isinstance(b, tuple)
            and not isinstance(a, list_values.ListTensor)
            and not isinstance(b, list_values.ListTensor) and holds_symbolic((a, b))):
        return None
    result = ORDERINGS[op](len(a), len(b))
    for x, y in reversed(list(zip(a, b))):  # (the first pair decides: it is read last)
        if x is y:
            continue
        same = list_values.truth(eq(x, y))
        if not core.is_symbolic(same):
            if not same:
                result = list_values.truth(COMPARE(op, x, y))
            continue
        decided = list_values.truth(COMPARE(op, x, y))
        result = dispatch.apply("where", same, result, decided)
    return dispatch.apply("as_weak", result) if core.is_symbolic(result) else result


def ne(a, b):
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return not_(eq(a, b))
    return COMPARE("!=", a, b)


def is_not(a, b):
    return not_(is_(a, b))


_COMPARE = {"Lt": lambda a, b: COMPARE("<", a, b), "LtE": lambda a, b: COMPARE("<=", a, b),
            "Gt": lambda a, b: COMPARE(">", a, b), "GtE": lambda a, b: COMPARE(">=", a, b),
            "Eq": eq, "NotEq": ne, "Is": is_,
            "IsNot": is_not, "In": in_, "NotIn": not_in}


def compare_chain(left, ops, operands):
    """`left op0 x0 op1 x1 ...`, a chained comparison whose middle operands are not plain
    names (`0 < a[i] < f(x)`): each operand (``operands``: lambdas) is evaluated once, and
    only when Python evaluates it, after the comparison before it held; the result is
    Python's, `(left op0 x0) and (x0 op1 x1 ...)`, staged lazily on tensors."""
    right = operands[0]()
    held = _COMPARE[ops[0]](left, right)
    if len(ops) == 1:
        return held
    return and_(lambda: held, lambda: compare_chain(right, ops[1:], operands[1:]))


def not_(a):
    a = list_values.truth(a)
    if core.is_symbolic(a):  # (`not (x is None)`: a test of x still, unset.narrowed)
        return unset.negated(a, dispatch.apply("logical_not", a))
    return not a
