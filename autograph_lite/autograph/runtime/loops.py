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

import contextlib
import threading

import numpy as np

from autograph_lite import control
from autograph_lite.trace import context, sizes
from autograph_lite.autograph.runtime import (conditionals, core, iteration, staged_loop,
                                              trace_arrays, trial, where)
from autograph_lite.autograph.runtime.logical import and_

# A Python `range` loop with more iterations than this, whose state holds symbolic
# tensors, is staged as one loop instead of being unrolled at trace time: unrolling
# makes graphs (and Numba compile times) grow with N, while 32 small bodies are cheap.
UNROLL_LIMIT = 32
# The unrolling budget (SPEC 3): a Python `range` (or `np.ndindex`) loop is unrolled only
# while the ops its unrolled iterations stage, times the trip counts of the Python loops
# unrolled around it, stay within this many; beyond it a body that stages ops is staged
# as a loop (so a 20 x 20 x 25 nest of small bodies is not unrolled 10,000 times).
UNROLL_BUDGET = 256
_unrolling = threading.local()  # .trips: the trip counts of the Python loops unrolling now


def _enclosing_trips():
    trips = 1
    for n in getattr(_unrolling, "trips", ()):
        trips *= n
    return trips


@contextlib.contextmanager
def _unrolled(n):
    stack = _unrolling.__dict__.setdefault("trips", [])
    stack.append(max(n, 1))
    try:
        yield
    finally:
        stack.pop()


def _reject_else(opts, kind, loc):
    if opts.get("has_else"):
        raise NotImplementedError(f"`{kind}/else` cannot be staged (the loop at {loc} has a "
                                  f"tensor condition); move the `else` block after the loop")


def while_stmt(test, body, get_state, set_state, names, nouts, opts=None):
    """Runs `while test(): body()`; stages from the first iteration whose test is a tensor."""
    opts = opts or {}
    while True:
        cond, staged = control.probe_condition(test)
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
    loc = where.caller()
    it = iteration.staged(iter_)
    if isinstance(iter_, range):
        sizes.note_loop(iter_.start, iter_.stop)  # (a size as the trip count: function.py)
    counted = isinstance(iter_, (range, iteration.NdIndex))
    if it is None and counted and len(iter_) > UNROLL_LIMIT:
        state = get_state()[:nouts]
        if any(core.is_symbolic(v) for v in state) or trial.iteration_stages(
                _first(iter_), body, get_state, set_state, nouts):
            if _try_staged(_as_staged(iter_), extra_test, body, get_state, set_state, names,
                           nouts, opts, loc):
                return
    if it is not None:
        _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts, loc)
        return
    with _unrolled(len(iter_) if counted else 1):
        _python_for(iter_, extra_test, body, get_state, set_state, names, nouts, opts, loc,
                    counted)


def _first(iter_):
    return iter_[0] if isinstance(iter_, range) else iter_.first()


def _as_staged(iter_, skip=0):
    """A Python range or NdIndex, its first ``skip`` iterations left out, as a StagedIter."""
    if isinstance(iter_, range):
        return iteration.PythonRange(iter_[skip:])
    return iter_.rest(skip)


def _try_staged(it, extra_test, body, get_state, set_state, names, nouts, opts, loc):
    """Stages the loop over ``it``; False (the state as it was) when the body needs its
    index as a Python int (it raises TypeError when traced with a symbolic one)."""
    init = get_state()
    try:
        _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts, loc)
        return True
    except TypeError:
        set_state(init)
        return False


def _python_for(iter_, extra_test, body, get_state, set_state, names, nouts, opts, loc,
                counted):
    """Unrolls the loop. A counted one (a Python range, np.ndindex) measures the ops its
    first iteration staged: if all its iterations, times the Python loops unrolled around
    it, would stage more than UNROLL_BUDGET, the rest of it is staged as a loop."""
    deleted = opts.get("deleted", ())
    go = True if extra_test is None else extra_test()
    if not core.is_symbolic(go) and not go:
        return
    graph = context.current_graph()
    for k, item in enumerate(_items(iter_)):
        mark = len(graph.nodes) if graph is not None else 0
        if core.is_symbolic(go):
            conditionals.if_stmt(go, lambda: body(item), lambda: None, get_state, set_state,
                                 names, nouts, deleted)
        else:
            body(item)
        if extra_test is not None:
            go = extra_test()
            if not core.is_symbolic(go) and not go:
                return
        if (counted and k == 0 and graph is not None and len(iter_) > 1
                and trial.staged_ops(graph.nodes[mark:]) * _enclosing_trips() > UNROLL_BUDGET
                and _try_staged(_as_staged(iter_, 1), extra_test, body, get_state, set_state,
                                names, nouts, opts, loc)):
            return


def _items(iter_):
    """The items of an unrolled loop. A NumPy array of trace time is read a row at a time,
    as NumPy's iterator does, through ``getitem``: when the body writes into it with a
    tensor it becomes a box (trace_arrays.py), and the later rows are the box's, not the
    stale array's (``for e in r: r -= q`` read the rows from before the writes)."""
    if type(iter_) is np.ndarray and iter_.ndim:
        return (trace_arrays.getitem(iter_, k) for k in range(len(iter_)))
    return iter_


def _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts, loc):
    _reject_else(opts, "for", loc)
    n = it.length()
    counter = [0]  # a Python int, as `range` counts: weak once staged

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
