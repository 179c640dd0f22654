"""`sum`/`any`/`all` of a generator expression, as a loop (converters/generators.py).

`sum(e(v) for v in xs if c(v))` is run as the user would write it by hand:
`acc = 0; for v in xs: if c(v): acc = acc + e(v)`, through the same `for_stmt`/`if_stmt`
as the user's own loops: on Python values that is Python's loop; over a tensor (or a
staged range, zip, enumerate) it is one staged loop whatever the length, and an `if` on a
tensor is a staged `if`. `any`/`all` combine the items' truth (`bool(x)`, staged) and stop
where Python's do, at the first item that decides (the loop's extra test, a staged `break`
where the truth is a tensor): the items after it are not made, so their writes, their
effects and their errors do not happen (session 52: they all happened, `any(x[i] > 2 for i
in range(n))` raised an IndexError past the deciding item).
"""

import builtins

import numpy as np

from autograph_lite.autograph.runtime import (builtins_, conditionals, core, data, logical,
                                              loops, staging, user_operators)

_START = {builtins.sum: None, builtins.any: False, builtins.all: True}


def reduce_generator(fn, iterable, cond, elt, *start, unpack=False, **default):
    """``fn(elt(v) for v in iterable if cond(v))`` (``cond`` None: no `if`; ``unpack``: the
    target is a tuple, whose items the lambdas take; ``default``: max/min's keyword)."""
    def call(f, v):
        return f(*v) if unpack else f(v)

    if fn in _EXTREMES and not start:
        return _extreme(fn, iterable, lambda v: cond is None or call(cond, v),
                        lambda v: call(elt, v), default)
    if fn not in _START or start and isinstance(start[0], (str, bytes, bytearray)) or default:
        # (a function of the user's named `sum`: the generator itself; Python's TypeError
        # for a sum of strings)
        return fn((call(elt, v) for v in iterable if cond is None or call(cond, v)),
                  *start, **default)
    acc = _Reduction(fn, _START[fn] if fn is not builtins.sum else (start[0] if start else 0))

    def body(v):
        def take():
            acc.value = _combined(fn, acc.value, call(elt, v))
        if cond is None:
            take()
        else:
            acc.when(call(cond, v), take)

    acc.loop(iterable, body, None if fn is builtins.sum else (
        (lambda: logical.not_(acc.value)) if fn is builtins.any else (lambda: acc.value)))
    return acc.value


def filtered_list(iterable, cond, elt, unpack=False):
    """``[elt(v) for v in iterable if cond(v)]`` as the loop the user would write by hand,
    `out = []; for v in iterable: if cond(v): out.append(elt(v))` (converters/generators.py):
    Python's list on Python values; where the loop or its `if` is staged, the list a staged
    loop or branch appends to (data.TensorList), whose length is known at run time."""
    def call(f, v):
        return f(*v) if unpack else f(v)

    acc = _Reduction(None, [], "<list comprehension>")

    def body(v):
        def take():
            acc.value = data.list_append(acc.value, call(elt, v), acc.names[0])
        acc.when(call(cond, v), take)

    acc.loop(iterable, body)
    return acc.value


class _Reduction:
    """The reduction's one variable, as the staged `for` and `if` of its loop carry it."""

    def __init__(self, fn, value, name=None):
        self.value, self.names = value, (name or f"<{fn.__name__}()>",)

    def _get(self):
        return (self.value,)

    def _set(self, values):
        self.value = values[0]

    def when(self, test, then):
        conditionals.if_stmt(test, then, lambda: None, self._get, self._set, self.names, 1)

    def loop(self, iterable, body, undecided=None):
        loops.for_stmt(iterable, undecided, body, self._get, self._set, self.names, 1)


# max/min of a generator keep the first item, then each later one that compares greater
# (less) than the one kept, as CPython's loop does (`item > kept`: with a NaN, the order
# of the items decides); no item at all is `default`, else Python's ValueError
_EXTREMES = {builtins.max: ">", builtins.min: "<"}


def _extreme(fn, iterable, keep, elt, default):
    """``fn(elt(v) for v in iterable if keep(v), **default)``, as the user would write it:
    `best = None; for v in xs: if keep(v): x = elt(v); if best is None or x > best: best =
    x`, then `default` or Python's ValueError where `best` is still None (a staged flag
    when the loop or its `if` is staged: optional values, unset.py)."""
    acc = _Reduction(fn, None)

    def body(v):
        def take():
            x = elt(v)

            def better():
                acc.value = x
            acc.when(logical.or_(lambda: logical.is_(acc.value, None),
                                 lambda: user_operators.compare(_EXTREMES[fn], x, acc.value),
                                 test=True), better)
        acc.when(keep(v), take)

    acc.loop(iterable, body)
    if "default" in default:
        return conditionals.if_exp(logical.is_(acc.value, None), lambda: default["default"],
                                   lambda: acc.value)

    def empty():
        try:
            fn(())
        except ValueError as e:  # (Python's own text: "max() arg is an empty sequence")
            raise staging.user_raise(e) from None
    conditionals.if_stmt(logical.is_(acc.value, None), empty, lambda: None, lambda: (),
                         lambda _: None, (), 0)
    return acc.value


def _combined(fn, acc, x):
    if fn is builtins.sum:
        return acc + x
    if not core.is_symbolic(x) and not core.is_symbolic(acc):
        return (acc or bool(x)) if fn is builtins.any else (acc and bool(x))
    if core.is_symbolic(x):
        builtins_.check_one_element(fn, x, f"np.{fn.__name__} of one array")
        x = logical.truth(x)
    return (np.logical_or if fn is builtins.any else np.logical_and)(acc, x)
