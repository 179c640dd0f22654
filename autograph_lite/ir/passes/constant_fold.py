"""Constant folding: a pure node whose inputs are all constants becomes a constant.

Results larger than MAX_ELEMENTS stay computed at run time (they would become kernel
arguments anyway), and so do arrays made from scalars alone (`np.zeros(n)`). Shape
queries have tensor inputs, so sizes are never baked in here.
"""
import numpy as np

MAX_ELEMENTS = 4096


def run(graph):
    return _visit(graph)


def _visit(graph):
    changed = False
    for node in graph.nodes:
        for r in node.regions:
            changed |= _visit(r)
        if (node.op == "const" or node.regions or not node.opdef.pure or not node.inputs
                or len(node.outputs) != 1):
            continue
        if not all(v.node is not None and v.node.op == "const" for v in node.inputs):
            continue
        vals = [v.node.attrs["value"] for v in node.inputs]
        try:
            with np.errstate(all="ignore"):
                res = node.opdef.eager(*vals, **node.attrs)
        except Exception:  # leave it to run time, where the error points at the user
            continue
        out = node.outputs[0]
        res = np.asarray(res)
        if res.size > MAX_ELEMENTS or res.dtype != out.type.dtype:
            continue
        if res.ndim and all(np.ndim(v) == 0 for v in vals):
            continue  # an array made from scalars (full, range): the kernel makes it as
            # cheaply as it would receive it, and then owns it (in-place updates, no copy)
        value = res[()]
        if out.type.weak:
            value = value.item()
        node.op, node.inputs, node.attrs = "const", [], {"value": value}
        changed = True
    return changed
