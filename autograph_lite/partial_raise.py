"""A staged check that fails part-way leaves the caller's state as plain Python would (SPEC §3).

Plain Python that writes ``out[0] = ...`` or binds ``self.w = ...`` and then fails an
``assert`` (or a ``raise`` under a tensor condition, or an op's own check) leaves the
write and the binding in place. A kernel stores its writes and bindings at its end, from
its results, so a check that raises before the end would lose them. Instead, each check
of a function with state hands back the state of its program point:

- while tracing, ``plan_for_check`` (called as the ``assert`` op is staged) lists what the
  trace has written and bound so far: the current value of every written NumPy-array
  argument (or held array, or variable) and the values bound into the objects the function
  was called with (held_state.rebound against the state right after the holders got their
  boxes). The values become extra inputs of the check; the plan (what each value is) is
  kept on the root graph, ``graph.check_plans``;
- when the check fails, the kernel (ops/io.py ``_assert_lower``) or the interpreter raises
  ``Partial_<Error>(message, plan, values)`` (ops/check_errors.py): a subclass of the
  user's exception type, so even one that escaped every handler is still the right kind;
- the call (concrete.py) catches it, writes the values into the caller's arrays and binds
  them into its objects as the plan says, and raises the plain ``AssertionError`` (or the
  check's type) with the user's message and line.

A run-time index is made such a check where state is at stake (ops/advanced_index.py
``check_index``: ``keep=False`` below asks). Other errors that are no check (a shape known
only at run time that does not broadcast) carry no state: the interpreter still leaves
written arguments as Python would (backends/interpreter.py ``run_function``, from
``graph.input_versions``), a compiled kernel leaves its in-place writes only (documented
in the README).
"""
import contextlib
import copy
import threading

from .ir.graph import root_graph
from .ops import dispatch
from .ops.check_errors import CHECK_ERRORS, RAISED, CallbackRaised, Partial  # noqa: F401


class Plan:
    """What a check's extra inputs are: ``args`` [(graph input index, value k)] for the
    written inputs; ``held`` [(selector, steps, structure, kinds)] for the bindings (kinds as
    ``graph.held_updates``' own, ("out", k) naming value k); ``types`` each value's type
    as bound (a Python number where the value is made of Python numbers alone);
    ``exception``: the exception of NumPy's own class the call raises (a copy), or None
    for the check's builtin one."""
    __slots__ = ("args", "held", "types", "exception")

    def __init__(self, args, held, types, exception=None):
        self.args, self.held, self.types = args, held, types
        self.exception = exception


class _Trace(threading.local):
    current = None


_trace = _Trace()


class tracking:
    """``with tracking(graph, bindings):`` while a function is traced: its checks get
    plans. ``bindings()`` returns ([(selector, steps, structure, kinds)], values, types)
    of the bindings made so far (function.py), or None when nothing is held."""

    def __init__(self, graph, bindings):
        self.graph, self.bindings = graph, bindings

    def __enter__(self):
        self.outer, _trace.current = _trace.current, self
        return self

    def __exit__(self, *exc):
        _trace.current = self.outer


@contextlib.contextmanager
def untracked():
    """Staging with no plans: the checks of code the library builds over the function's own
    (a gradient, gradients/sweep.py) hand no state back. They see values the forward's
    checks passed, and a gradient may place its nodes before ops of the forward (a loop's
    stacks, allocated ahead of it), where the state a plan names is not made yet."""
    outer, _trace.current = _trace.current, None
    try:
        yield
    finally:
        _trace.current = outer


def plan_for_check(graph, keep=True, original=None):
    """(values, plan index) for a check staged into ``graph`` now, or None when the trace
    has written and bound nothing yet (the check then carries nothing). ``keep=False``
    asks only whether it would carry something (ops/indexing.py: a run-time index gets an
    explicit bounds check then) and keeps no plan. ``original``: the exception of NumPy's
    own class the check stands for (check_errors.stand_in): a plan, even of nothing,
    makes the call raise it."""
    t = _trace.current
    if t is None:
        return None
    root = t.graph
    values, args = [], []
    for index, st in sorted(root.written_inputs.items()):
        v = st.base
        if v is root.inputs[index] or not graph.can_see(v):
            continue
        args.append((index, len(values)))
        values.append(v)
    if values and not keep:
        return values, None
    types = [v.type.dtype.type for v in values]
    held = []
    found = t.bindings(len(values)) if t.bindings is not None else None
    if found:
        held, more, more_types = found
        values += more
        types += more_types
    if not values and not held and (original is None or not keep):
        return None
    if not keep:
        return values, None
    root.check_plans.append(Plan(args, held, types, original))
    return values, len(root.check_plans) - 1


def moved(node, graph, mapping):
    """(inputs, attrs) of check ``node`` cloned into ``graph`` (gradients/regions.py), its
    inputs renamed by ``mapping``: its plan, in the trace ``graph`` belongs to, names that
    trace's inputs (a split gradient's forward trace has the arguments, and captures the
    variables anew); a plan that cannot be named there (bindings, an input that maps to
    none of that trace's) is dropped: the check raises plainly."""
    index, count = node.attrs["commit"]
    src, dst = root_graph(node.graph), root_graph(graph)
    if src is dst:
        return node.inputs, node.attrs
    plan, kept = src.check_plans[index], node.inputs[:len(node.inputs) - count]
    attrs = {k: v for k, v in node.attrs.items() if k != "commit"}
    args = []
    for i, k in plan.args:
        v = mapping.get(src.inputs[i].id)
        if v is None or v.graph is not dst or v.node is not None or plan.held:
            return kept, attrs
        args.append((v.index, k))
    dst.check_plans.append(Plan(args, [], plan.types, plan.exception))
    return node.inputs, dict(attrs, commit=(len(dst.check_plans) - 1, count))


class _Call(threading.local):
    current = None  # (graph, targets, bind) of the call running a kernel that syncs


_call = _Call()


@contextlib.contextmanager
def calling(graph, targets, bind):
    """Around a call of a kernel whose callbacks see the state before them (``sync``)."""
    outer, _call.current = _call.current, (graph, targets, bind)
    try:
        yield
    finally:
        _call.current = outer


def sync(index, values):
    """Before a callback of a function that has written its arguments or bound into its
    objects by then (api/callbacks.py): that state, plan ``index`` of the call's graph,
    stored where Python would have it by then, so the callback sees it (`self.w = ...`,
    then a callback that logs `self.w`). Arrays are bound as copies: the kernel goes on
    writing its own (the call binds the final ones at its end)."""
    if _call.current is None:
        return
    graph, targets, bind = _call.current
    store(graph.check_plans[index], [v.copy() if hasattr(v, "copy") and getattr(
        v, "ndim", 0) else v for v in values], targets, bind)


def store(plan, values, targets, bind):
    """Stores the state ``values`` of ``plan`` into the caller's arrays and objects."""
    for i, k in plan.args:
        target, value = targets[i], values[k]
        if value is not target:
            target[...] = value
    if plan.held:
        bind(plan.held, values, plan.types)


def commit(exc, graph, targets, bind):
    """The user's error for a ``Partial`` raised by a call of ``graph``, after the state it
    carries is stored: each written input's value into its array (``targets``: the graph
    inputs' arrays, in order), and the bindings by ``bind(held, values, types)``."""
    message, index, values = exc.args  # (the message names the user's line)
    plan = graph.check_plans[index]
    store(plan, values, targets, bind)
    if plan.exception is CallbackRaised:  # (the callback's own exception, as it raised it)
        error, RAISED.exc = RAISED.exc, None
        return error
    if plan.exception is not None:  # (NumPy's own class: its exception, as NumPy made it;
        error = copy.copy(plan.exception).with_traceback(None)  # a user's, as raised)
        error.__cause__ = plan.exception.__cause__
        return error
    return CHECK_ERRORS[type(exc).__name__.removeprefix("Partial_")](message)


dispatch.CHECK_PLAN = plan_for_check
