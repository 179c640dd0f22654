"""The reverse sweep: adjoints from the targets back to the sources, over a Graph.

``gradients`` (``ag.gradients``) collects the nodes the traced function has so far (the
current graph's and, when it is a branch or loop body, those of the enclosing graphs,
which all come before it), marks the values that depend on a source, and walks the nodes
backwards, calling each op's ``grad`` rule (rules.py) where an output has an adjoint and
an input depends on a source; the rules' ops are staged into the graph being traced, so
the gradient is part of the same kernel. A region op's inputs include the outer values its
regions read (implicit capture, ir/graph.py): a ``cond``'s gradient is a ``cond`` on the
same predicate whose branches replay the forward branch and sweep it backwards. A node on
the path that has no rule refuses (never a silent zero): ``while_loop`` today.
"""
from .. import control, errors, numpy_api as npa
from ..ir.graph import Graph
from ..ops.dispatch import apply, convert_to_tensor
from ..ops.registry import defgrad, public
from ..tensor import SymbolicTensor
from ..trace.context import current_graph


class Site:
    """What a grad rule sees of a node: its inputs (with a region op's captured values
    after them), outputs and attributes, as tensors."""
    __slots__ = ("inputs", "outputs", "attrs", "node", "depends")

    def __init__(self, node, inputs, depends):
        self.node, self.attrs, self.depends = node, node.attrs, depends
        self.inputs = [SymbolicTensor(v) for v in inputs]
        self.outputs = [SymbolicTensor(v) for v in node.outputs]


def _inexact(t):
    return t.dtype.kind in "fc"


def _region_graphs(regions):
    out, todo = set(), list(regions)
    while todo:
        g = todo.pop()
        out.add(g)
        for n in g.nodes:
            todo.extend(n.regions)
    return out


def captures(node):
    """The outer Values a region op's regions read (in first-read order)."""
    if not node.regions:
        return []
    inner, seen, out = _region_graphs(node.regions), set(), []
    for r in node.regions:
        for v in [v for n in r.walk() for v in n.inputs] + list(r.outputs):
            if v.graph not in inner and v.id not in seen:
                seen.add(v.id)
                out.append(v)
    return out


def _reach(nodes, depends):
    """``depends`` (value ids) grown by every output of ``nodes`` that reads one."""
    for node in nodes:
        if any(v.id in depends for v in node.inputs + captures(node)):
            depends.update(o.id for o in node.outputs)
    return depends


def _fit(g, v):
    """Gradient ``g`` as input ``v`` takes it: summed over the axes ``v`` was broadcast
    along (read at run time where a size is not known), in ``v``'s dtype."""
    g = convert_to_tensor(g)
    if g.shape != v.type.shape or None in v.type.shape:
        if v.type.ndim == 0 and g.ndim:
            g = npa.sum(g)
        elif v.type.ndim or g.ndim:
            g = apply("sum_to", g, SymbolicTensor(v))
    return g if g.dtype == v.type.dtype else apply("cast", g, dtype=v.type.dtype)


def _add(adjoints, v, g):
    prev = adjoints.get(v.id)
    adjoints[v.id] = g if prev is None else apply("add", prev, g)


def backprop(nodes, adjoints, depends):
    """Walks ``nodes`` backwards, adding each input's share of the adjoints (value id ->
    tensor) of the outputs; only values in ``depends`` get one."""
    for node in reversed(nodes):
        outs = [adjoints.get(v.id) for v in node.outputs]
        if all(g is None for g in outs):
            continue
        inputs = node.inputs + captures(node)
        wanted = [v.id in depends and _inexact(v.type) for v in inputs]
        if not any(wanted):
            continue
        op = node.opdef
        if op.grad is None:
            raise errors.with_location(NotImplementedError(
                f"ag.gradients: the gradient of '{node.op}' is not built yet, and a source "
                f"reaches the target through it"), node.loc)
        try:
            grads = op.grad(Site(node, inputs, depends), outs)
        except NotImplementedError as e:
            raise errors.with_location(e, node.loc) from None
        for v, want, g in zip(inputs, wanted, grads):
            if want and g is not None:
                _add(adjoints, v, _fit(g, v))


def _symbolic(x, what):
    if not isinstance(x, SymbolicTensor):
        raise TypeError(f"ag.gradients: each of {what} must be a tensor of the traced "
                        f"function; got {type(x).__name__}")
    return x


def _visible_nodes(graph):
    chain = []
    while graph is not None:
        chain.append(graph)
        graph = graph.parent
    return [n for g in reversed(chain) for n in g.nodes]


@public("ag.gradients")
def gradients(ys, xs, grad_ys=None, name=None):
    """SPEC §5: the gradients of ``sum(ys)`` with respect to each of ``xs``, built into the
    traced function; a list with one entry per source (None where a source does not reach
    a target)."""
    graph = current_graph()
    if graph is None:
        raise RuntimeError("ag.gradients builds the gradient into a traced function: call it "
                           "inside an ag.defun (eagerly, use ag.GradientTape)")
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    if grad_ys is None:
        grad_ys = [None] * len(ys)
    grad_ys = list(grad_ys) if isinstance(grad_ys, (list, tuple)) else [grad_ys]
    if len(grad_ys) != len(ys):
        raise ValueError(f"ag.gradients: grad_ys has {len(grad_ys)} entries for {len(ys)} "
                         f"targets")
    xs = [_symbolic(x, "xs") for x in xs]
    nodes = _visible_nodes(graph)
    depends = _reach(nodes, {x._value.id for x in xs})
    adjoints = {}
    for y, gy in zip(ys, grad_ys):
        y = _symbolic(y, "ys")
        if not _inexact(y):
            raise TypeError(f"ag.gradients: a target must be a floating tensor; got {y.dtype}")
        seed = npa.ones_like(y) if gy is None else convert_to_tensor(gy)
        _add(adjoints, y._value, _fit(seed, y._value))
    backprop(nodes, adjoints, depends)
    out = []
    for x in xs:
        g = adjoints.get(x._value.id)
        if g is not None and not _inexact(x):
            g = None  # (integer and boolean sources get none, as in TensorFlow)
        out.append(g)
    return out


# -- cond: each branch replayed, then swept backwards ----------------------------------------
def _clone_nodes(nodes, mapping, graph):
    """Re-adds ``nodes`` to ``graph`` (the one being traced), inputs renamed by ``mapping``
    (value id -> Value; missing: the Value itself, an outer one), regions cloned too."""
    added = []
    for n in nodes:
        regions = [_clone_graph(r, mapping, graph) for r in n.regions]
        new = graph.add_node(n.op, [mapping.get(v.id, v) for v in n.inputs], n.attrs,
                             [v.type for v in n.outputs], regions, n.loc)
        for a, b in zip(n.outputs, new.outputs):
            mapping[a.id] = b
        added.append(new)
    return added


def _clone_graph(g, mapping, parent):
    new = Graph(g.name, parent)
    for v in g.inputs:
        mapping[v.id] = new.add_input(v.type, v.hint)
    _clone_nodes(g.nodes, mapping, new)
    new.outputs = [mapping.get(v.id, v) for v in g.outputs]
    return new


def _cond_grad(site, out_grads):
    node = site.node
    caps = node.inputs[1:] + captures(node)
    wanted = [v for v in caps if v.id in site.depends and _inexact(v.type)]

    def branch(region):
        def replay():
            mapping = {}
            nodes = _clone_nodes(region.nodes, mapping, current_graph())
            adjoints = {}
            for v, g in zip(region.outputs, out_grads):
                if g is not None:
                    _add(adjoints, mapping.get(v.id, v), g)
            backprop(nodes, adjoints, _reach(nodes, set(site.depends)))
            return [_fit(adjoints[v.id], v) if v.id in adjoints
                    else npa.zeros_like(SymbolicTensor(v)) for v in wanted]
        return replay

    grads = control.cond(site.inputs[0], branch(node.regions[0]), branch(node.regions[1]))
    by_id = {v.id: g for v, g in zip(wanted, grads)}
    return [None] + [by_id.get(v.id) for v in caps]


defgrad("cond", _cond_grad)
