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
import sys
import threading

import numpy as np

from autograph_lite import control, mutation
from autograph_lite.ops import dispatch
from autograph_lite.trace import context, sizes
from autograph_lite.autograph.runtime import (conditionals, core, data, iteration, list_values,
                                              slots, staged_loop, trace_arrays, trial, unset,
                                              where)
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
# trips of a loop over an iterator of unknown length traced after a `break` under a tensor
# condition, before it is refused as maybe endless (_endless)
GUARDED_TRIPS = 200
# nodes a `while` unrolled at trace time may stage after staging the rest of it failed,
# before it is refused: a trace that never ends would fill the memory (a test that reads a
# value the trace cannot see change runs forever; Python's own loop would have ended)
UNROLLED_NODES_LIMIT = 256 * UNROLL_BUDGET
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
        raise NotImplementedError(
            f"`{kind}/else` cannot be staged (the loop at {loc} has a tensor condition; "
            f"SPEC §3); keep a flag instead: `broke = False` before the loop, `broke = "
            f"True` before each `break`, and the `else` block under `if not broke:` after "
            f"the loop")


def while_stmt(test, body, get_state, set_state, names, nouts, opts=None):
    """Runs `while test(): body()`; stages from the first iteration whose test is a tensor.

    A `while` whose test stays a Python value runs at trace time, under the unrolling
    budget (SPEC 3): once the iterations it ran, times the Python loops unrolled around
    it, have staged more than UNROLL_BUDGET ops, the rest of it is staged as a loop (its
    Python-number variables become loop state), unless that cannot be done (a variable
    the core cannot carry, a body that needs a Python value): then it keeps unrolling."""
    opts = opts or {}
    test = _users_truth(test)
    graph = context.current_graph()
    mark = len(graph.nodes) if graph is not None else 0
    may_stage = graph is not None and not opts.get("has_else")
    first, failures = True, []
    with _unrolled(1):  # (its own trip count is unknown: it measures what it staged)
        while True:
            cond, staged = control.probe_condition(test)
            if staged:
                loc = where.caller()
                _reject_else(opts, "while", loc)
                staged_loop.run(test, body, get_state, set_state, names, nouts, opts, loc)
                return
            if not cond:
                return
            if first and may_stage:
                if _staged_from_the_start(test, body, get_state, set_state, names, nouts,
                                          opts):
                    return
            else:
                body()
            first = False
            if (may_stage and trial.staged_ops(graph.nodes[mark:]) * _enclosing_trips()
                    > UNROLL_BUDGET):
                may_stage = False  # (one try: a loop that cannot be staged stays unrolled)
                loc = where.caller()
                if _try_staged(lambda: staged_loop.run(_staged_test(test), body, get_state,
                                                       set_state, names, nouts, opts, loc),
                               get_state, set_state, failures):
                    return
            elif failures and len(graph.nodes) - mark > UNROLLED_NODES_LIMIT:
                _refuse_unrolled(failures[0], where.caller())


def _refuse_unrolled(failure, loc):
    raise NotImplementedError(
        f"the `while` loop at {loc} has a test that stays a Python value while tracing, and "
        f"has run at trace time until it staged over {UNROLLED_NODES_LIMIT} ops without "
        f"ending; it could not be staged as a loop instead, because: "
        f"{type(failure).__name__}: {failure}") from failure


def _staged_from_the_start(test, body, get_state, set_state, names, nouts, opts):
    """Runs a `while`'s trip as Python; where it meets a variable set on one path of a
    staged `if` (`while True: ... if y < 0: t_hit = t; break`: set on the path that leaves
    the loop, which Python reads after it), the trip is undone (state, arrays, the objects
    it reaches) and the loop staged from its start, where that variable carries a flag
    checked where it is read. True when the loop was staged so."""
    init, before = tuple(get_state()), slots.reachable(sys._getframe(1))
    graph = context.current_graph()
    mark = len(graph.nodes)
    try:
        with mutation.scope():
            body()
        return False
    except unset.SetOnOnePath:
        if any(not n.opdef.pure and n.op != "assert" for n in graph.nodes[mark:]):
            raise  # (the trip printed or called back: staged, that would happen twice)
        before.restore()
        set_state(init)
        loc = where.caller()
        if not _try_staged(lambda: staged_loop.run(_staged_test(test), body, get_state,
                                                   set_state, names, nouts, opts, loc),
                           get_state, set_state):
            raise
        return True


def _users_truth(test):
    """``test`` whose result, where it is a user's object (`while queue:`), is its truth by
    its converted `__bool__`/`__len__` (runtime/user_operators.py), a staged bool where
    that reads a tensor; where it is a list a staged region carries (`while rows:`, `while
    i < 4 and (rows and v < rows[-1]):`, whose `and` gives the list), its length's truth
    (a tuple's own truth, always True, ran an empty list's loop: session 54)."""
    def run():
        c = test()
        if data.is_users(c) or getattr(type(c), "ag_truth", None) is not None or (
                isinstance(c, list_values.ListTensor)):
            return list_values.truth(c)
        return c
    return run


def _staged_test(test):
    """The loop's test, which must be a tensor once the state is: a test that stays a
    Python value (`while True:` left by `break`) cannot be staged."""
    def staged_test():
        c = test()
        if not core.is_symbolic(c):
            raise TypeError("the test of the staged while stays a Python value")
        return c
    return staged_test


def for_stmt(iter_, extra_test, body, get_state, set_state, names, nouts, opts=None):
    """Runs `for x in iter_: body(x)` (stopping when `extra_test()` is false)."""
    opts = opts or {}
    loc = where.caller()
    it = iteration.staged(iter_)
    if isinstance(iter_, range):
        sizes.note_loop(iter_.start, iter_.stop)  # (a size as the trip count: function.py)
    counted = isinstance(iter_, (range, iteration.NdIndex)) or _is_trace_array(iter_)
    if it is None and counted and len(iter_) > UNROLL_LIMIT:
        state = get_state()[:nouts]
        if any(core.is_symbolic(v) for v in state) or trial.iteration_stages(
                _first(iter_), body, get_state, set_state, nouts):
            if _try_staged(lambda: _staged_for(_as_staged(iter_), extra_test, body, get_state,
                                               set_state, names, nouts, opts, loc),
                           get_state, set_state):
                return
    if isinstance(iter_, list_values.ListTensor):  # (the rows a staged loop appended)
        body = _not_growing(iter_, body, get_state, names, nouts, loc)
    if it is not None:
        if it.iterator:  # (`it = enumerate(x)`; `for i, v in it:`: read once)
            if it.looped is not None:
                iteration.raise_read_again(it, it.looped)
            if it.advanced:
                raise NotImplementedError(
                    f"the `for` at {loc} iterates {it.what} iterator that next() advanced "
                    f"before; a staged loop reads an iterator from its start: loop over the "
                    f"rest itself (`for i, v in enumerate(x[1:], 1):`)")
            if extra_test is not None:
                _iterator_left_at_run_time(it, opts, loc)
            it.looped = loc
        _staged_for_peeling(it, extra_test, body, get_state, set_state, names, nouts, opts,
                            loc)
        return
    with _unrolled(len(iter_) if counted else 1):
        _python_for(iter_, extra_test, body, get_state, set_state, names, nouts, opts, loc,
                    counted)


def _is_trace_array(iter_):
    """A NumPy array of trace time iterated over its rows: counted, as a range is; so is
    the enumerate of one, or of a range (iteration.CountedEnumerate)."""
    if isinstance(iter_, iteration.CountedEnumerate):
        return iter_.fresh()
    return type(iter_) is np.ndarray and iter_.ndim > 0


def _first(iter_):
    if isinstance(iter_, range):
        return iter_[0]
    if isinstance(iter_, iteration.CountedEnumerate):
        return iter_.start, _first(iter_.inner)
    if _is_trace_array(iter_):
        return trace_arrays.getitem(iter_, 0)
    return iter_.first()


def _as_staged(iter_, skip=0):
    """A Python range, NdIndex or NumPy array of trace time, its first ``skip`` iterations
    left out, as a StagedIter. The array is the box it stands for from now on
    (data.entering_loop): a write into it in the body is seen by the rows read after."""
    if isinstance(iter_, range):
        return iteration.PythonRange(iter_[skip:])
    if isinstance(iter_, iteration.CountedEnumerate):
        return iteration.Enumerate(_as_staged(iter_.inner, skip), iter_.start + skip)
    if _is_trace_array(iter_):
        rows = data.entering_loop(iter_, None)
        return iteration.TensorRows(rows[skip:] if skip else rows)
    return iter_.rest(skip)


def _try_staged(stage, get_state, set_state, failures=None):
    """Runs ``stage()``, which stages the rest of a loop that could run (or ran) at trace
    time; False, with the state and the arrays the attempt wrote as they were, when that
    cannot be done (a body that needs its index or a variable as a Python value, a
    variable the core cannot carry), the error appended to ``failures``. Unrolling is
    Python's own semantics, so any error of the attempt sends the loop back to it: a real
    error is raised there, where the user's program raises it. What the attempt changed in
    the Python objects the code reaches is put back too (session 52: a `with` of the
    user's object in the loop, refused part-way, left its `__enter__`'s count one up)."""
    init = tuple(get_state())
    reached = slots.reachable(sys._getframe(1))
    try:
        with mutation.scope():  # (a failed attempt's writes are undone on the way out)
            stage()
        return True
    except Exception as e:  # noqa: BLE001 (see the docstring)
        reached.restore()
        set_state(init)
        if failures is not None:
            failures.append(e)
        return False


def _python_for(iter_, extra_test, body, get_state, set_state, names, nouts, opts, loc,
                counted):
    """Unrolls the loop. A counted one (a Python range, np.ndindex, a NumPy array) measures
    the ops each iteration staged: where one, times the Python loops unrolled around it,
    stages more than UNROLL_BUDGET, the rest of it is staged as a loop (tried once). A
    loop longer than UNROLL_LIMIT (unrolled because its first trip, traced alone, left its
    state Python values) is staged from the first later trip that stages anything: a first
    trip that staged nothing (`while stack and ...` of a list still empty) unrolled the
    whole loop (session 54: 10,000 trips of a staged `while`, then a RecursionError)."""
    deleted = opts.get("deleted", ())
    go = True if extra_test is None else extra_test()
    if not core.is_symbolic(go) and not go:
        return
    graph = context.current_graph()
    guarded = 0  # (trips traced under a tensor `break`'s condition)
    may_stage = counted and graph is not None and len(iter_) > 1
    long = counted and len(iter_) > UNROLL_LIMIT
    items = iter_.items if isinstance(iter_, iteration.ListEnumerate) else iter_
    held = _holders(items, get_state, nouts) if type(items) is list else []
    for k, item in enumerate(_items(iter_)):
        mark = len(graph.nodes) if graph is not None else 0
        if core.is_symbolic(go):
            _iterator_left_at_run_time(iter_, opts, loc)
            guarded += 1
            if guarded > GUARDED_TRIPS and not hasattr(iter_, "__len__"):
                _endless(iter_, loc)
            conditionals.if_stmt(go, lambda: body(item), lambda: None, get_state, set_state,
                                 names, nouts, deleted)
        else:
            body(item)
        if held:
            _refuse_growing(items, held, get_state(), names, loc)
        if extra_test is not None:
            go = extra_test()
            if not core.is_symbolic(go) and not go:
                return
        ops = trial.staged_ops(graph.nodes[mark:]) if may_stage else 0
        if may_stage and k + 1 < len(iter_) and (
                ops * _enclosing_trips() > UNROLL_BUDGET or (long and ops)):
            may_stage = False
            if core.is_symbolic(go):  # (a `for/else` past the budget breaking on a tensor:
                _reject_else(opts, "for", loc)  # SPEC's refusal, not thousands of trips)
            if _try_staged(lambda: _staged_for(_as_staged(iter_, k + 1), extra_test, body,
                                               get_state, set_state, names, nouts, opts,
                                               loc), get_state, set_state):
                return


def _not_growing(items, body, get_state, names, nouts, loc):
    """``body`` checked after each trace of it as ``_python_for`` checks its trips: a
    staged loop over the rows of a list (a ListTensor) iterates the rows it had on entry."""
    held = _holders(items, get_state, nouts)
    if not held:
        return body

    def checked(*args):
        out = body(*args)
        _refuse_growing(items, held, get_state(), names, loc)
        return out
    return checked


def _holders(items, get_state, nouts):
    """The positions of the state that hold list ``items`` itself (``_refuse_growing``)."""
    return [i for i, v in enumerate(get_state()[:nouts]) if v is items]


def _refuse_growing(items, held, state, names, loc):
    """Refuses a trip of a Python `for` over list ``items`` that left one of the names that
    held it (positions ``held``) a staged list: the body appended to it under a tensor
    condition, and Python's loop visits the appended items too, how many known only when
    the function runs (session 55's probe: a BFS `for u in order: ... order.append(v)`
    visited the items of before the loop only)."""
    for i in held:
        if state[i] is not items and isinstance(state[i], (data.TensorList,
                                                            list_values.ListTensor)):
            raise NotImplementedError(
                f"the `for` at {loc} iterates the list '{names[i]}', which its body appends "
                f"to under a tensor condition: Python's loop visits the appended items too, "
                f"how many is known only when the function runs; loop by index instead (`k "
                f"= 0`, `while k < len({names[i]}): u = {names[i]}[k]; k += 1`), which is "
                f"staged")


def _endless(iter_, loc):
    """Refuses a loop over an iterator of unknown length (`itertools.count()`, a generator)
    whose `break` depends on a tensor, past GUARDED_TRIPS trips: each trip is traced
    under the condition, and an endless one would be traced until Python's recursion
    limit, blamed on a recursive function (session 48)."""
    raise NotImplementedError(
        f"the `for` at {loc} over {type(iter_).__name__} (an iterator whose length is "
        f"unknown while tracing) stops at a `break` under a tensor condition: every trip "
        f"is traced, under that condition, and it has run past {GUARDED_TRIPS} trips (an "
        f"endless iterator such as itertools.count() never stops); write it as a `while` "
        f"on the condition with a counter (`step = 0`, `while ...: step += 1`), which is "
        f"staged as one loop")


def _staged_for_peeling(it, extra_test, body, get_state, set_state, names, nouts, opts,
                        loc):
    """``_staged_for``; where a variable's dtype changes in a trip (staged_loop.changes_dtype:
    an EMA `s = x[0]` of an int32 `x`, then `s = alpha * v + (1 - alpha) * s` for `v in
    x[1:]`) and the trip count is known while tracing, the loop is staged again with its
    first trip run by itself (``_peeled``), as Python's first trip changes the dtype and
    the others keep it. A count known only at run time may be 0, where the variable keeps
    its dtype: refused, as before; a count of 0 known while tracing runs nothing, as Python."""
    n = it.length()
    if isinstance(n, (int, np.integer)) and n == 0:
        _reject_else(opts, "for", loc)
        return
    if not isinstance(n, (int, np.integer)):
        _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts, loc)
        return
    failures = []
    if _try_staged(lambda: _staged_for(it, extra_test, body, get_state, set_state, names,
                                       nouts, opts, loc), get_state, set_state, failures):
        return
    if not staged_loop.changes_dtype(failures[0]):
        raise failures[0]
    _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts, loc,
                peel=True)


def _peeled(it, n, extra_test, body, state, peel=False):
    """Runs the first trip of a staged `for` by itself where a variable it carries is None
    before it (or ``peel``: one whose dtype the trip changes) and the trip count is known
    while tracing (`best = None`, then `if best is None or v < best: best = v`; `prev =
    None ... prev = v`): in Python the first trip sees None and the others a number, which
    is what the first trip traced alone and the loop over the rest stage (a loop state
    cannot be None on some trips). True when it ran. (A count known only at run time may
    be 0, leaving None: refused by the state.)"""
    if not (peel or any(v is None for v in state)) or not isinstance(
            n, (int, np.integer)) or n < 1:
        return False
    if extra_test is not None and core.is_symbolic(extra_test()):
        return False  # (stopped by a tensor before the loop: not a first trip for sure)
    body(it.item(0))
    return True


def _iterator_left_at_run_time(iter_, opts, loc):
    """Refuses a loop over an iterator a name holds (`it = iter(x)`; `for v in it:`) that
    a `break` under a tensor condition may leave part-way: Python leaves it at the item
    after the break, to be read on (`list(it)`, `next(it)`, a second loop), a position
    the compiled function would know only when it runs; the unrolled loop took every
    item while tracing (the rest read as empty, silently)."""
    held = opts.get("held")
    if held and (isinstance(iter_, iteration.StagedIter) or iter(iter_) is iter_):
        raise NotImplementedError(
            f"the `for` at {loc} iterates the iterator '{held}' and may stop part-way at a "
            f"`break` under a tensor condition: where it leaves the iterator would be known "
            f"only when the function runs, and the iterator cannot carry that; loop over "
            f"the index instead (`for i in range(len(x))`) and keep where it stopped in a "
            f"variable")


def _items(iter_):
    """The items of an unrolled loop. A NumPy array of trace time is read a row at a time,
    as NumPy's iterator does, through ``getitem``: when the body writes into it with a
    tensor it becomes a box (trace_arrays.py), and the later rows are the box's, not the
    stale array's (``for e in r: r -= q`` read the rows from before the writes). So are
    the arrays a list or tuple holds (``for a in arrs``, after ``arrs[0][i] = t``)."""
    if type(iter_) is np.ndarray and iter_.ndim:
        return (trace_arrays.getitem(iter_, k) for k in range(len(iter_)))
    if type(iter_) in (list, tuple):  # (its arrays that became boxes: the boxes)
        return (trace_arrays.resolve(v) for v in iter_)
    return iter_


def _staged_for(it, extra_test, body, get_state, set_state, names, nouts, opts, loc,
                peel=False):
    _reject_else(opts, "for", loc)
    n = it.length()
    counter = [0]  # a Python int, as `range` counts: weak once staged
    state = get_state()[:nouts]
    if isinstance(n, (int, np.integer)) and n == 0 and any(v is None for v in state):
        return  # (no trip, known while tracing: the None stays, as Python's)
    if _peeled(it, n, extra_test, body, state, peel):
        counter[0] = 1
        if extra_test is not None and not core.is_symbolic(extra_test()) and not extra_test():
            return  # (a `break` in the first trip, on a Python value)

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
        # (i < n, an int64: no Python int's overflow check, which a `with` or `try` around
        # the loop would take for a run-time error, staging.try_body)
        counter[0] = dispatch.apply("add", i, 1) if core.is_symbolic(i) else i + 1

    staged_loop.run(test, step, get, set_, ("<loop counter>",) + tuple(names), nouts + 1,
                    dict(opts, trip_count=n), loc)
