"""Dead-code elimination: drops pure nodes whose outputs nothing uses (inside regions too),
the results of a staged ``if`` that nothing reads, and the variables of a staged loop that
nothing after the loop reads and no iteration needs.

AutoGraph's conversion carries every name a branch or a loop body may set, and its return
and break flags, whether or not the rest of the function reads them; each one left in is
an assignment per branch or per trip that Numba types and lowers (compile time grows with
the kernel's statements, docs/architecture.md "Compiling large kernels").
"""
from .. import bounds
from ...ops import io


def _has_effects(node):
    if node.op == "assert" and bounds.proves(node.inputs[0]):
        return False  # (a check the graph proves, ir/bounds.py: an int that cannot overflow)
    if not node.opdef.pure or _raises_for_the_user(node):
        return True
    return any(_has_effects(n) for r in node.regions for n in r.nodes)


def _raises_for_the_user(node):
    """Whether ``node`` is the user's own read or write at an index known only when it
    runs (`r = x[i]`, never used: Python's IndexError still comes), or elementwise op of
    operands that may not broadcast (`x + y` as a shape check): kept though nothing reads
    it. Not a node made while building a gradient (Node.derived: the forward's raise
    first), nor one of an op that cannot raise."""
    if node.derived:
        return False
    if node.op in ("getitem", "setitem"):
        return io.indexed_at_run_time(node)
    return bool(node.opdef.elementwise and io.may_raise(node))


def run(graph):
    changed = False
    while True:
        uses = graph.uses()
        removed = _sweep(graph, uses)
        if not removed:
            return changed
        changed = True


def _sweep(graph, uses, checked=frozenset()):
    """One sweep; ``checked``: the predicates that checks run before ``graph``'s nodes
    (in it or around it) asserted, so a check of the same value again cannot fail (a
    bounds check of `x[i]` read twice, ops/advanced_index.check_index) and is dropped."""
    removed = False
    keep = []
    checked = set(checked)
    for node in graph.nodes:
        for r in node.regions:
            removed |= _sweep(r, uses, checked)
        if node.op == "assert" and node.inputs[0].id in checked:
            removed = True
            continue
        dead = not _has_effects(node) and all(uses.get(v.id, 0) == 0 for v in node.outputs)
        if dead:
            removed = True
            continue
        if node.op == "assert":
            checked.add(node.inputs[0].id)
        if node.op == "cond":
            removed |= _prune_cond(node, uses)
        elif node.op == "while_loop":
            removed |= _prune_loop(node, uses)
        keep.append(node)
    graph.nodes[:] = keep
    return removed


def _prune_cond(node, uses):
    """Drops the results of an if/else that nothing reads (and each branch's value of it)."""
    keep = [i for i, v in enumerate(node.outputs) if uses.get(v.id, 0)]
    if len(keep) == len(node.outputs):
        return False
    _select(node.outputs, keep)
    for r in node.regions:
        r.outputs[:] = [r.outputs[i] for i in keep]
    return True


def _prune_loop(node, uses):
    """Drops the loop variables that nothing after the loop reads, the condition does not
    read, and the body needs only to compute themselves (a flag set anew on each trip, a
    counter no one reads)."""
    cond, body = node.regions
    needed = {k for k, (out, c) in enumerate(zip(node.outputs, cond.inputs))
              if uses.get(out.id, 0) or uses.get(c.id, 0)}
    while True:
        live = _live_values(body, [body.outputs[k] for k in needed])
        more = {k for k, v in enumerate(body.inputs) if k not in needed and v.id in live}
        if not more:
            break
        needed |= more
    keep = sorted(needed)
    if len(keep) == len(node.outputs):
        return False
    node.inputs[:] = [node.inputs[k] for k in keep]
    _select(node.outputs, keep)
    _select(cond.inputs, keep)
    _select(body.inputs, keep)
    body.outputs[:] = [body.outputs[k] for k in keep]
    return True


def _select(values, keep):
    """Keeps the Values at positions ``keep`` (node outputs or graph inputs) and renumbers
    them, since backends pair a node's outputs with its regions' by position."""
    values[:] = [values[k] for k in keep]
    for i, v in enumerate(values):
        v.index = i


def _live_values(graph, roots):
    """Ids of the values ``graph``'s nodes need to compute ``roots`` and to keep their
    effects (a node with regions needs everything its regions read)."""
    live = {v.id for v in roots}
    for node in reversed(graph.nodes):
        if not (_has_effects(node) or any(v.id in live for v in node.outputs)):
            continue
        live.update(v.id for v in node.inputs)
        for r in node.regions:
            for inner in r.walk():
                live.update(v.id for v in inner.inputs)
            live.update(v.id for v in r.outputs)
            for sub in _nested_graphs(r):
                live.update(v.id for v in sub.outputs)
    return live


def _nested_graphs(graph):
    for node in graph.nodes:
        for r in node.regions:
            yield r
            yield from _nested_graphs(r)
