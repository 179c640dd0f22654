"""When may a functional update (``setitem``) write into its input's buffer?
(And when may an elementwise op write its result into a buffer nothing needs any more?)

The Graph is functional: ``out2 = setitem(out, i, v)`` is a new tensor. Copying the whole
array on every element write would make the NumPy idiom ``out[i] = ...`` in a loop
quadratic, so the cpu backend updates in place when nothing can observe the old value:
- the old value (and any view of it) has no later use, in its graph or enclosing graphs;
- its buffer is owned by the kernel: made by a non-view op without regions, never a
  caller's argument, a constant or a branch/loop result that may pass one through;
- the update may sit in cond branches below the value, never in a loop that does not
  carry it (each iteration must start from the same old value);
- a loop variable updated in place gets an owned buffer at loop entry: its initial value
  is reused when it is owned and used by nothing else, else copied once before the loop.
Elementwise ops use the same rules to write into a dead buffer of their shape and dtype
(``x = x - d`` in a loop body writes into x's buffer instead of a new array each trip),
with one more: no other input of the fused expression may be (a view of) that buffer,
since it would be read at other indices after the write.
"""


def _alias_ids(value, graph):
    ids = {value.id}
    for n in graph.walk():
        if n.opdef.view and n.inputs and n.inputs[0].id in ids:
            ids.update(v.id for v in n.outputs)
    return ids


def _used_from(ids, graph, start):
    for n in graph.nodes[start:]:
        if any(v.id in ids for v in n.inputs):
            return True
        for r in n.regions:
            if _used_from(ids, r, 0) or any(v.id in ids for v in r.outputs):
                return True
    return any(v.id in ids for v in graph.outputs)


def owned(value):
    """Whether `value`'s buffer is the kernel's own (see the rules above)."""
    # A cond/while result may be one of its inputs passed through (a caller's array, or
    # a loop variable whose first value is one), so it is never owned.
    node = value.node
    return (node is not None and node.op != "const" and not node.opdef.view
            and not node.regions)


def _region_parent(graph, root):
    for n in root.walk():
        if any(r is graph for r in n.regions):
            return n
    return None


def can_update(value, node, root, borrowed):
    """Whether ``node`` (a setitem) may overwrite ``value`` in the kernel of graph ``root``."""
    if value.id in borrowed:
        return False
    ids = _alias_ids(value, value.graph)
    graph, current = node.graph, node
    while True:
        if _used_from(ids, graph, graph.nodes.index(current) + 1):
            return False
        if graph is value.graph:
            break
        parent = _region_parent(graph, root)
        if parent is None or parent.op == "while_loop":
            return False  # a loop that does not carry the value: every trip needs the old one
        graph, current = parent.graph, parent
    if value.node is not None:
        return owned(value)
    loop = _region_parent(graph, root)
    if loop is None or loop.op != "while_loop" or graph is not loop.regions[1]:
        return False  # a kernel argument
    outs = [v.id for v in graph.outputs]
    return outs.count(node.outputs[0].id) <= 1 and value.id not in outs


def init_is_clobberable(init, loop_node, uses, borrowed):
    """A loop variable's initial value may become the loop's working buffer."""
    return (init.id not in borrowed and init.graph is loop_node.graph and owned(init)
            and uses.get(init.id, 0) == 1)


def can_overwrite(value, node, leaves, root, borrowed):
    """Whether elementwise ``node`` (reading the arrays ``leaves``) may store its result
    in ``value``'s buffer: ``value`` is one of its leaves, read at the same index as
    written, or a value the node does not read at all."""
    ids = _alias_ids(value, value.graph)
    if any(lf.id in ids and lf is not value for lf in leaves):
        return False
    return can_update(value, node, root, borrowed)
