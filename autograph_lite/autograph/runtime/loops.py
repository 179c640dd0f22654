"""`while_stmt` and `for_stmt`: Python loops on Python values, staged loops on tensors.

A `while` runs in Python until its test gives a symbolic tensor, then stages the rest
(SPEC: the NumPy `while d >= tol` idiom). A `for` stages over tensor ranges, tensors and
their enumerate/zip; a Python `range` longer than UNROLL_LIMIT whose loop variables
hold symbolic tensors is staged too, and unrolled instead if the body needs `i` as a
Python value (it raises TypeError when traced with a symbolic `i`). A loop whose state
starts as Python values (`out = np.empty(n)`) is staged when one trial iteration turns
its state into tensors (trial.iteration_stages). A Python loop whose
`break`/`return` flag turns into a tensor runs its remaining iterations under a staged
`if` on that flag.
"""

import numpy as np

from autograph_lite.autograph.runtime import (conditionals, core, iteration, staged_loop, trial,
                                              where)
from autograph_lite.autograph.runtime.logical import and_

# A Python `range` loop with more iterations than this, whose state holds symbolic
# tensors, is staged as one loop instead of being unrolled at trace time: unrolling
# makes graphs (and Numba compile times) grow with N, while 32 small bodies are cheap.
UNROLL_LIMIT = 32


def _reject_else(opts, kind, loc):
    if opts.get("has_else"):
        raise NotImplementedError(f"`{kind}/else` cannot be staged (the loop at {loc} has a "
                                  f"tensor condition); move the `else` block after the loop")


def while_stmt(test, body, get_state, set_state, names, nouts, opts=None):
    """Runs `while test(): body()`; stages from the first iteration whose test is a tensor."""
    opts = opts or {}
    while True:
        cond, staged = core.control().probe_condition(test)
        if staged:
            loc = where.caller()
            _reject_else(opts, "while", loc)
            staged_loop.run(test, body, get_state, set_state, names, nouts, opts, loc)
            return
        if not cond:
            return
        body()


def for_stmt(iter_, extra_test, body, get_state, set_state, names, nouts, opts=None):
    """Runs `for x in iter_: body(x)` (stopping when `extra_test()` is false)."""
    opts = opts or {}
    it = iteration.staged(iter_)
    if it is None and isinstance(iter_, range) and len(iter_) > UNROLL_LIMIT:
        state = get_state()[:nouts]
        if any(core.is_symbolic(v) for v in state) or trial.iteration_stages(
                iter_[0], body, get_state, set_state, nouts):
            init = get_state()
            try:
                _staged_for(iteration.PythonRange(iter_), extra_test, body, get_state,
                            set_state, names, nouts, opts)
                return
            except TypeError:
                set_state(init)  # the body needs `i` as a Python int: unroll instead
    if it is not None:
        _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts)
    else:
        _python_for(iter_, extra_test, body, get_state, set_state, names, nouts,
                    opts.get("deleted", ()))


def _python_for(iter_, extra_test, body, get_state, set_state, names, nouts, deleted):
    go = True if extra_test is None else extra_test()
    if not core.is_symbolic(go) and not go:
        return
    for item in iter_:
        if core.is_symbolic(go):
            conditionals.if_stmt(go, lambda: body(item), lambda: None, get_state, set_state,
                                 names, nouts, deleted)
        else:
            body(item)
        if extra_test is not None:
            go = extra_test()
            if not core.is_symbolic(go) and not go:
                return


def _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts):
    loc = where.caller(3)
    _reject_else(opts, "for", loc)
    n = it.length()
    counter = [np.int64(0)]

    def get():
        return (counter[0],) + tuple(get_state())

    def set_(values):
        counter[0] = values[0]
        set_state(tuple(values[1:]))

    def test():
        c = counter[0] < n
        if extra_test is None:
            return c
        return and_(lambda: c, extra_test)

    def step():
        i = counter[0]
        body(it.item(i))
        counter[0] = i + 1

    staged_loop.run(test, step, get, set_, ("<loop counter>",) + tuple(names), nouts + 1,
                    dict(opts, trip_count=n), loc)
