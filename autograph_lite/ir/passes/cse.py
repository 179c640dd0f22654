"""Common-subexpression elimination for pure, region-free nodes (never random or print).

A region may reuse an equal node computed earlier in an enclosing graph, not the reverse.
Nodes placed on different devices (``ag.device``) are not equal where placement matters:
merging them would move one's work to the other's device. On backends that run every node
on one device it does not matter, and an annotation must not change their kernels.
"""
import numpy as np


def _attr_key(v):
    if isinstance(v, np.ndarray):
        return ("arr", v.dtype.str, v.shape, v.tobytes()) if v.size <= 64 else ("id", id(v))
    if isinstance(v, np.generic):
        return ("np", v.dtype.str, v.item())
    if isinstance(v, float):
        return ("f", repr(v))
    if isinstance(v, (list, tuple)):
        return tuple(_attr_key(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _attr_key(x)) for k, x in v.items()))
    try:
        hash(v)
        return (type(v).__name__, v)
    except TypeError:
        return ("id", id(v))


def run(graph, placement=True):
    """``placement``: whether the backend honours ``node.device`` (module docstring)."""
    return _visit(graph, {}, {}, placement)


def _visit(graph, table, replace, placement):
    changed = False
    keep = []
    table = dict(table)
    for node in graph.nodes:
        node.inputs = [replace.get(v.id, v) for v in node.inputs]
        for r in node.regions:
            changed |= _visit(r, table, replace, placement)
        if node.regions or not node.opdef.pure:
            keep.append(node)
            continue
        key = (node.op, tuple(v.id for v in node.inputs), _attr_key(node.attrs),
               tuple(v.type for v in node.outputs), node.device if placement else None)
        prev = table.get(key)
        if prev is None:
            table[key] = node
            keep.append(node)
            continue
        for old, new in zip(node.outputs, prev.outputs):
            replace[old.id] = new
        changed = True
    graph.nodes[:] = keep
    graph.outputs[:] = [replace.get(v.id, v) for v in graph.outputs]
    graph.input_updates[:] = [(i, replace.get(v.id, v)) for i, v in graph.input_updates]
    for old_id, new in replace.items():  # (the kept value holds the same contents)
        if old_id in graph.input_versions:
            graph.input_versions.setdefault(new.id, graph.input_versions[old_id])
    return changed
