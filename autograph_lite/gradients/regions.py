"""The grad rules of the region ops, by replaying their regions (docs/architecture.md,
"Gradients").

A region's intermediate values live in the region; the gradient reads them by re-adding
the region's nodes (``clone_nodes``) where the backward pass runs:

- ``cond``: a ``cond`` on the same predicate whose branches replay the forward branch and
  sweep it backwards (the gradient of the branch taken).
- ``while_loop``: the forward loop again, with an iteration counter and one stack per loop
  variable holding its value at the start of each iteration (grown by doubling: the trip
  count is known only at run time, ``break`` and ``maximum_iterations`` included); then a
  loop from the last iteration down to the first that reads the values back, replays the
  body on them and sweeps it backwards, carrying the loop variables' adjoints and summing
  those of the outer values the body reads. All of it is in the same kernel.

A region with a stateful op or a side effect (``print``, ``py_func``, random draws) would
run it again: such a gradient refuses. A ``py_function`` is the exception: its calls are
recorded by their inputs (callbacks.py) and a replay hands back the recorded results, so
its body runs once per forward call however often the backward pass replays it.
"""
import numpy as np

from .. import contiguity, control, numpy_api as npa
from ..ir.graph import Graph
from .. import partial_raise
from ..ir.types import TensorType
from ..ops.dispatch import apply, as_value, convert_to_tensor, stage_node
from ..ops.registry import defgrad
from ..tensor import SymbolicTensor
from ..trace.context import current_graph, graph_scope
from .callbacks import recorded, recordings, replayed
from .rules import first_rows, zeros_as
from .sweep import Entry, _add, _fit, backprop, inexact, placed, reach


def clone_nodes(nodes, mapping, graph, replay=True):
    """Re-adds ``nodes`` to ``graph`` (the one being traced), inputs renamed by ``mapping``
    (value id -> Value; missing: the Value itself, an outer one), regions cloned too. A
    replay runs where its original was placed, whatever scope the gradient is built in; a
    recorded ``py_function`` hands back its recorded results (callbacks.replayed) unless
    ``replay`` is False (the nodes move to another trace: residuals.py)."""
    added = []
    for n in nodes:
        regions = [_clone_graph(r, mapping, graph, replay) for r in n.regions]
        inputs, attrs = n.inputs, replayed(n, n.attrs) if replay else n.attrs
        if "commit" in attrs and replay:
            # (a replayed check sees the values its forward passed: it cannot fail, and
            # the state it would hand back lives in the forward's regions, not here)
            inputs = inputs[:len(inputs) - attrs["commit"][1]]
            attrs = {k: v for k, v in attrs.items() if k != "commit"}
        elif "commit" in attrs:  # (a check's state names its own trace's inputs and plan)
            inputs, attrs = partial_raise.moved(n, graph, mapping)
        new = graph.add_node(n.op, [mapping.get(v.id, v) for v in inputs], attrs,
                             [v.type for v in n.outputs], regions, n.loc)
        new.device = n.device
        for a, b in zip(n.outputs, new.outputs):
            mapping[a.id] = b
        added.append(new)
    return added


def _clone_graph(g, mapping, parent, replay=True):
    new = Graph(g.name, parent)
    for v in g.inputs:
        mapping[v.id] = new.add_input(v.type, v.hint)
    clone_nodes(g.nodes, mapping, new, replay)
    new.outputs = [mapping.get(v.id, v) for v in g.outputs]
    return new


def _replayable(node):
    """Refuses a region op whose regions have an op a replay would run again; records the
    calls of each ``py_function`` there (callbacks.recordings), which a replay then reads."""
    for r in node.regions:
        for n in r.walk():
            if n.op == "py_function":
                recordings(n)
            elif not n.opdef.pure and n.op != "assert":  # (a check replays as it ran)
                raise NotImplementedError(
                    f"the gradient of a staged {'if' if node.op == 'cond' else 'loop'} whose "
                    f"body has '{n.op}' (at {n.loc}) would run it again: not supported; "
                    f"move it out of the differentiated code")


def inline(region, inputs):
    """Re-adds ``region``'s nodes to the graph being traced with its inputs bound to
    ``inputs`` (Values): (the new nodes, the Values of the region's results)."""
    mapping = {v.id: x for v, x in zip(region.inputs, inputs)}
    nodes = clone_nodes(region.nodes, mapping, current_graph())
    return nodes, [mapping.get(v.id, v) for v in region.outputs]


def replay(region, inputs, out_grads, depends):
    """``inline``s ``region`` and sweeps it backwards from ``out_grads`` (one per region
    output); the adjoints by key."""
    nodes, outs = inline(region, inputs)
    entries = [Entry.of_node(n) for n in nodes]
    adjoints = {}
    for v, g in zip(outs, out_grads):
        if g is not None:
            _add(adjoints, v.id, g)
    backprop(entries, adjoints, reach(entries, set(depends) | {x.id for x in inputs}))
    return adjoints


def _wanted(site, start):
    return [t for k, t in zip(site.in_keys[start:], site.inputs[start:])
            if k in site.depends and inexact(t)]


def _zeros_or(adjoints, t):
    g = adjoints.get(t._value.id)
    return _fit(g, t) if g is not None else zeros_as(t)


def _cond_grad(site, out_grads):
    _replayable(site.node)
    caps = site.inputs[1:]
    wanted = _wanted(site, 1)

    def branch(region):
        def run():
            adjoints = replay(region, [], out_grads, site.depends)
            return [_zeros_or(adjoints, t) for t in wanted]
        return run

    grads = control.cond(site.inputs[0], branch(site.node.regions[0]),
                         branch(site.node.regions[1]))
    by_key = {t._value.id: g for t, g in zip(wanted, grads)}
    return [None] + [by_key.get(t._value.id) for t in caps]


defgrad("cond", _cond_grad)


# -- while_loop --------------------------------------------------------------------------------
def _stage_loop(test, step, init, types):
    """A ``while_loop`` node over loop variables of ``types`` (one per ``init`` tensor):
    ``test(*vars)`` -> bool tensor, ``step(*vars)`` -> the next values. Staged directly,
    not through ``control.while_loop``: the gradient's loops carry fresh values that no
    user code can see or write, so they need none of its aliasing and write tracking. A
    loop variable is taken as C-contiguous when its initial value and the body's result are
    (contiguity.py), traced again otherwise."""
    outer = current_graph()
    init_v = [as_value(outer, x) for x in init]
    c_flags = [t.ndim > 0 and contiguity.value_is_c(v) for v, t in zip(init_v, types)]
    for _ in range(2):
        cond_g, body_g = Graph("while_cond", outer), Graph("while_body", outer)
        for g in (cond_g, body_g):
            with graph_scope(g):
                params = [SymbolicTensor(g.add_input(t)) for t in types]
                for p, flag in zip(params, c_flags):
                    contiguity.mark_input(p._value, None, flag)
                if g is cond_g:
                    g.outputs = [as_value(g, test(*params))]
                else:
                    g.outputs = [_as_type(g, o, t) for o, t in zip(step(*params), types)]
        kept = [f and contiguity.value_is_c(o) for f, o in zip(c_flags, body_g.outputs)]
        if kept == c_flags:
            break
        c_flags = kept
    return stage_node("while_loop", init_v, {}, types, regions=[cond_g, body_g])


def _as_type(graph, x, t):
    v = as_value(graph, x)
    if v.type.dtype != t.dtype:
        v = as_value(graph, apply("cast", SymbolicTensor(v), dtype=t.dtype))
    return v


def _push(stack, value, k):
    """``stack[k] = value``, the stack doubled first when it is full: a staged list's
    append (``list_push``), so that a gradient of the recording loop itself (a second
    derivative) reads the stack as an append-only buffer (``_append_only``) rather than
    stacking a stack whose rows grow (which it cannot)."""
    return apply("list_push", stack, k, value)


def _append_only(body_g, i):
    """Whether loop variable ``i`` is a staged list's buffer (ops/lists.py) that the body
    only appends to (``list_push``, in its branches too) and reads rows of (``getitem``:
    the list's ``buf[:n]``). A row, once pushed, never changes, so the rows the body reads
    at iteration k are the final buffer's: the backward pass reads that one buffer instead
    of a copy of it per iteration (which would take O(trips x rows) memory)."""
    b = body_g.inputs[i]
    pushed = False
    for node in body_g.walk():
        for k, v in enumerate(node.inputs):
            if v is not b:
                continue
            if k or node.op not in ("list_push", "getitem"):
                return False
            pushed = pushed or node.op == "list_push"
    return pushed


def _record(node):
    """The forward loop again, recording: (trip count, the loop variables' values at the
    start of each iteration: a stack per variable, or for a list's buffer the final one,
    ``_append_only``). When it can, the recording loop takes the original's place
    (``_splice``), so the forward runs once."""
    cond_g, body_g = node.regions
    n = len(node.inputs)
    graph = current_graph()
    mark = len(graph.nodes)
    init = [SymbolicTensor(v) for v in node.inputs]
    kept = [i for i in range(n) if not _append_only(body_g, i)]
    stacks = [npa.expand_dims(zeros_as(init[i]), 0) for i in kept]

    def test(*vs):
        return SymbolicTensor(inline(cond_g, [x._value for x in vs[:n]])[1][0])

    def step(*vs):
        state, k, bufs = vs[:n], vs[n], vs[n + 1:]
        new = [SymbolicTensor(v) for v in inline(body_g, [x._value for x in state])[1]]
        return (*new, apply("add", k, 1), *[_push(b, state[i], k) for b, i in zip(bufs, kept)])

    types = ([v.type for v in body_g.inputs] + [_COUNTER]
             + [TensorType(v.type.dtype, (None,) + v.type.shape)
                for v in (body_g.inputs[i] for i in kept)])
    calls = _callables(node)
    out = _stage_loop(test, step, [*init, convert_to_tensor(np.int64(0)), *stacks], types)
    if _splice(node, graph, mark):  # (the recording's own results are then the node's)
        out = [SymbolicTensor(v) for v in node.outputs]
        _callables(node, calls)  # (it is the forward now: its py_functions call as it did)
    at_start = dict(zip(kept, out[n + 1:]))
    return out[n], [at_start.get(i) for i in range(n)], out[:n]


def _splice(node, graph, mark):
    """Makes the original loop ``node`` the recording loop just staged at the end of
    ``graph`` (its last node; the nodes since ``mark`` make its stacks): the original keeps
    its output Values (every reader of them, a user's tensor included, stays valid) and
    gains the counter and the stacks; the nodes the recording needs move before it. Done
    only where nothing but the recording was added and the loop variables' types agree;
    returns whether it was."""
    new = graph.nodes[-1] if len(graph.nodes) > mark else None
    n = len(node.outputs)
    if (node.graph is not graph or new is None or new.op != "while_loop"
            or len(new.outputs) != len(new.inputs) or len(new.outputs) <= n
            or any(a.type != b.type for a, b in zip(node.outputs, new.outputs[:n]))
            or any(v in new.outputs[:n] for m in graph.nodes for v in m.inputs)):
        return False
    made = graph.nodes[mark:-1]
    del graph.nodes[mark:]
    at = graph.nodes.index(node)
    graph.nodes[at:at] = made
    node.inputs, node.regions, node.attrs = list(new.inputs), new.regions, dict(new.attrs)
    for i, v in enumerate(new.outputs[n:], n):
        v.node, v.index = node, i
    node.outputs = node.outputs + new.outputs[n:]
    for r in node.regions:
        r.parent = graph
    return True


def _callables(node, funcs=None):
    """{recordings: the callable} of the recorded ``py_function``s in ``node``'s regions;
    with ``funcs``, gives them those callables back (the spliced recording loop replays
    none of its forward's calls)."""
    found = {}
    for r in node.regions:
        for n in r.walk():
            rec = recorded(n)
            if rec is not None and funcs is not None and rec in funcs:
                n.attrs["func"] = funcs[rec]
            elif rec is not None:
                found.setdefault(rec, n.attrs["func"])
    return found


_COUNTER = TensorType(np.dtype(np.int64), ())


def _while_grad(site, out_grads):
    node = site.node
    _replayable(node)
    body_g = node.regions[1]
    n = len(node.inputs)
    wanted_caps = _wanted(site, n)
    live = [i for i, t in enumerate(site.inputs[:n]) if inexact(t)]
    trips, stacks, final = _record(node)
    g0 = [out_grads[i] if out_grads[i] is not None else zeros_as(site.outputs[i])
          for i in live]
    c0 = [zeros_as(t) for t in wanted_caps]

    def test(k, *rest):
        return apply("greater_equal", k, 0)

    def step(k, *carry):
        gs, cs = carry[:len(live)], carry[len(live):]
        # the loop variables at iteration k (a list's buffer: the final one, whose first
        # rows are the ones it had then)
        state = [final[i] if stacks[i] is None else stacks[i][k] for i in range(n)]
        adjoints = replay(body_g, [x._value for x in state], placed(n, live, gs),
                          site.depends)
        new_gs = [_zeros_or(adjoints, state[i]) for i in live]
        new_cs = [c if adjoints.get(t._value.id) is None else
                  apply("add", c, _fit(adjoints[t._value.id], t))
                  for c, t in zip(cs, wanted_caps)]
        return (apply("subtract", k, 1), *new_gs, *new_cs)

    types = ([_COUNTER] + [body_g.inputs[i].type.strong() for i in live]
             + [t._value.type.strong() for t in wanted_caps])
    out = _stage_loop(test, step, [apply("subtract", trips, 1), *g0, *c0], types)
    gs, cs = out[1:1 + len(live)], out[1 + len(live):]
    grads = placed(len(site.inputs), live, gs)
    for i in live:
        if stacks[i] is None:  # a list's buffer: the final one's rows cut to the initial's
            grads[i] = first_rows(grads[i], site.inputs[i])
    by_key = {t._value.id: c for t, c in zip(wanted_caps, cs)}
    for j, t in enumerate(site.inputs[n:]):
        grads[n + j] = by_key.get(t._value.id)
    return grads


defgrad("while_loop", _while_grad)


# -- vectorized_map ----------------------------------------------------------------------------
def _vmap_grad(site, out_grads):
    """A ``vectorized_map`` over the mapped inputs and the results' adjoints whose body
    replays the forward body on one element and sweeps it backwards: row i of a mapped
    input's gradient is that element's; a captured value's is the sum over the elements."""
    from ..vectorized_map import vectorized_map
    node = site.node
    _replayable(node)
    body = node.regions[0]
    m = len(node.inputs)
    mapped = [i for i in range(m) if site.in_keys[i] in site.depends and inexact(site.inputs[i])]
    wanted_caps = _wanted(site, m)
    have = [k for k, g in enumerate(out_grads) if g is not None]

    def element(args):
        elems, gs = args[:m], args[m:]
        adjoints = replay(body, [e._value for e in elems], placed(len(out_grads), have, gs),
                          site.depends)
        return ([_zeros_or(adjoints, elems[i]) for i in mapped]
                + [_zeros_or(adjoints, t) for t in wanted_caps])

    if not mapped and not wanted_caps:
        return [None] * len(site.inputs)
    rows = vectorized_map(element, tuple(site.inputs[:m]) + tuple(out_grads[k] for k in have))
    grads = placed(len(site.inputs), mapped, rows[:len(mapped)])
    by_key = {t._value.id: npa.sum(r, axis=0)
              for t, r in zip(wanted_caps, rows[len(mapped):])}
    for j, t in enumerate(site.inputs[m:]):
        grads[m + j] = by_key.get(t._value.id)
    return grads


defgrad("vectorized_map", _vmap_grad)
