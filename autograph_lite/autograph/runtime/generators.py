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

from autograph_lite.autograph.runtime import builtins_, conditionals, core, logical, loops

_START = {builtins.sum: None, builtins.any: False, builtins.all: True}


def reduce_generator(fn, iterable, cond, elt, *start, unpack=False):
    """``fn(elt(v) for v in iterable if cond(v))`` (``cond`` None: no `if`; ``unpack``: the
    target is a tuple, whose items the lambdas take)."""
    def call(f, v):
        return f(*v) if unpack else f(v)

    if fn not in _START or (start and isinstance(start[0], (str, bytes, bytearray))):
        # (a function of the user's named `sum`: the generator itself; Python's TypeError
        # for a sum of strings)
        return fn((call(elt, v) for v in iterable if cond is None or call(cond, v)), *start)
    acc = [_START[fn] if fn is not builtins.sum else (start[0] if start else 0)]
    name = f"<{fn.__name__}()>"

    def get_state():
        return (acc[0],)

    def set_state(values):
        acc[0] = values[0]

    def body(v):
        def take():
            acc[0] = _combined(fn, acc[0], call(elt, v))
        if cond is None:
            take()
        else:
            conditionals.if_stmt(call(cond, v), take, lambda: None, get_state, set_state,
                                 (name,), 1)

    undecided = None if fn is builtins.sum else (
        (lambda: logical.not_(acc[0])) if fn is builtins.any else (lambda: acc[0]))
    loops.for_stmt(iterable, undecided, body, get_state, set_state, (name,), 1)
    return acc[0]


def _combined(fn, acc, x):
    if fn is builtins.sum:
        return acc + x
    if not core.is_symbolic(x) and not core.is_symbolic(acc):
        return (acc or bool(x)) if fn is builtins.any else (acc and bool(x))
    if core.is_symbolic(x):
        builtins_.check_one_element(fn, x, f"np.{fn.__name__} of one array")
        x = logical.truth(x)
    return (np.logical_or if fn is builtins.any else np.logical_and)(acc, x)
