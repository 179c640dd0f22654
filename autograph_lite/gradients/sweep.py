"""The reverse sweep: adjoints from the targets back to the sources, over a Graph.

``gradients`` (``ag.gradients``) collects the nodes the traced function has so far (the
current graph's and, when it is a branch or loop body, those of the enclosing graphs,
which all come before it), marks the values that depend on a source, and walks the nodes
backwards, calling each op's ``grad`` rule (rules.py) where an output has an adjoint and
an input depends on a source; the rules' ops are staged into the graph being traced, so
the gradient is part of the same kernel. A region op's inputs include the outer values its
regions read (implicit capture, ir/graph.py; ``captures``); its rule (regions.py) replays
the regions. A node on the path that has no rule refuses (never a silent zero); a
``py_func`` (``OPAQUE``) passes no gradient. The same ``backprop`` sweeps an eager tape's
entries (tape.py).
"""
import contextlib

from .. import errors, numpy_api as npa, partial_raise
from ..ops.dispatch import apply, convert_to_tensor
from ..ops.registry import public
from ..tensor import SymbolicTensor
from ..ir.graph import captures, deriving, root_graph
from ..trace.context import current_graph, device_scope
from ..variables import SymbolicVariable, Variable, captured, versions


# Ops whose gradient is None by contract, not refused: ``py_func`` (SPEC §4: NumPy code
# the tape cannot see; TensorFlow's tf.py_func has no gradient either).
OPAQUE = frozenset({"py_func", "py_func_stateless"})


class Entry:
    """One step of a sweep, what a grad rule sees of it (its ``site``): the op, its inputs
    (with a region op's captured values after them) and outputs as tensors, the keys their
    adjoints are filed under (a graph Value's id; an eager tensor's ``id``; None: not
    differentiable), its attributes and, for a graph node, the node itself."""
    __slots__ = ("op", "inputs", "outputs", "in_keys", "out_keys", "attrs", "node", "loc",
                 "depends")

    def __init__(self, op, inputs, outputs, in_keys, out_keys, attrs, node=None, loc=None):
        self.op, self.inputs, self.outputs = op, inputs, outputs
        self.in_keys, self.out_keys, self.attrs = in_keys, out_keys, attrs
        self.node, self.loc, self.depends = node, loc, None

    @classmethod
    def of_node(cls, node):
        inputs = node.inputs + captures(node)
        return cls(node.opdef, [SymbolicTensor(v) for v in inputs],
                   [SymbolicTensor(v) for v in node.outputs], [v.id for v in inputs],
                   [v.id for v in node.outputs], node.attrs, node, node.loc)


def inexact(t):
    """Whether tensor ``t`` can carry a gradient (floating or complex)."""
    return t.dtype.kind in "fc"


def _fit(g, like, exact=False):
    """Gradient ``g`` as the input ``like`` (a tensor) takes it: summed over the axes
    ``like`` was broadcast along (read at run time where a size is not known), in its
    dtype. ``exact``: ``g`` has ``like``'s shape by construction, whatever the sizes."""
    g = convert_to_tensor(g)
    shape = tuple(like.shape)
    exact = exact or _shaped_as(g, like)
    if not exact and (tuple(g.shape) != shape or None in shape):
        if not shape and g.ndim:
            g = npa.sum(g)
        elif shape or g.ndim:
            g = apply("sum_to", g, like)
    if g.dtype.kind == "c" and like.dtype.kind != "c":
        g = apply("real", g)  # (dL/dx of a real x that reached a complex value)
    return g if g.dtype == like.dtype else apply("cast", g, dtype=like.dtype)


def placed(n, positions, values):
    """A list of ``n`` Nones with ``values`` at ``positions`` (gradients of some inputs)."""
    out = [None] * n
    for i, v in zip(positions, values):
        out[i] = v
    return out


def _add(adjoints, key, g):
    prev = adjoints.get(key)
    adjoints[key] = g if prev is None else apply("add", prev, g)


def backprop(entries, adjoints, depends, cut=frozenset()):
    """Walks ``entries`` backwards, adding each input's share of the adjoints (key ->
    tensor) of the outputs; only keys in ``depends`` get one. The adjoints of the keys in
    ``cut`` stay where they are (values a variable was assigned: leaves of the sweep)."""
    with deriving():  # (its nodes raise nothing the forward's do not: ir/passes/dce.py)
        _sweep_back(entries, adjoints, depends, cut)


def _sweep_back(entries, adjoints, depends, cut):
    for e in reversed(entries):
        outs = [None if k in cut else adjoints.get(k) for k in e.out_keys]
        if all(g is None for g in outs):
            continue
        wanted = [k is not None and k in depends and inexact(t)
                  for k, t in zip(e.in_keys, e.inputs)]
        if not any(wanted):
            continue
        if e.op.name in OPAQUE:
            continue
        if e.op.grad is None:
            raise errors.with_location(NotImplementedError(
                f"the gradient of '{e.op.name}' is not built yet, and a source reaches the "
                f"target through it"), e.loc)
        e.depends = depends
        with _colocated(e):
            try:
                grads = e.op.grad(e, outs)
            except NotImplementedError as exc:
                raise errors.with_location(exc, e.loc) from None
            for i, (k, t, want, g) in enumerate(zip(e.in_keys, e.inputs, wanted, grads)):
                if want and g is not None:
                    _add(adjoints, k, _fit(g, t, _unbroadcast(e, i)))


def _shaped_as(g, like):
    """Whether graph value ``g`` was made in ``like``'s shape (a rule's broadcast of a
    reduction's gradient back to its input, say)."""
    v, w = getattr(g, "_value", None), getattr(like, "_value", None)
    node = getattr(v, "node", None)
    return (node is not None and w is not None and node.op in _SHAPED_AS
            and node.inputs[1] is w)


_SHAPED_AS = frozenset({"broadcast_to", "sum_to", "reshape_as"})  # (input 1: the shape's)


def _unbroadcast(entry, i):
    """Whether input ``i`` of an elementwise op has the output's shape whatever the sizes:
    every other input is 0-d or the same value (so its gradient needs no ``sum_to``, which
    a trace with sizes known only at run time would otherwise stage for every input)."""
    t = entry.inputs[i]
    return bool(getattr(entry.op, "elementwise", False) and t.ndim and all(
        u.ndim == 0 or k == entry.in_keys[i]
        for j, (k, u) in enumerate(zip(entry.in_keys, entry.inputs)) if j != i))


def _colocated(entry):
    """The device scope a node's gradient is built in: a placed node's own (as TensorFlow
    colocates gradients with their ops: the backward pass of work placed on the GPU stays
    there), else the scope ``ag.gradients`` was called in."""
    device = entry.node.device if entry.node is not None else None
    return device_scope(device) if device is not None else contextlib.nullcontext()


def reach(entries, depends):
    """``depends`` (keys) grown by every output of ``entries`` that reads one."""
    for e in entries:
        if any(k in depends for k in e.in_keys):
            depends.update(k for k in e.out_keys if k is not None)
    return depends


def seed(adjoints, ys, grad_ys, key):
    """The targets' adjoints: ``grad_ys`` (ones where None: a target is summed)."""
    grad_ys = [None] * len(ys) if grad_ys is None else grad_ys
    if len(grad_ys) != len(ys):
        raise ValueError(f"{len(grad_ys)} output gradients for {len(ys)} targets")
    for y, gy in zip(ys, grad_ys):
        if not inexact(y):
            raise TypeError(f"a target must be a floating tensor; got {y.dtype}")
        _add(adjoints, key(y), _fit(npa.ones_like(y) if gy is None else gy, y))


def _symbolic(x, what):
    if isinstance(x, Variable):  # its value as the call began: the captured input
        graph = current_graph()
        return SymbolicTensor(root_graph(graph).inputs[captured(x, graph)._storage.index])
    if not isinstance(x, SymbolicTensor):
        raise TypeError(f"each of {what} must be a tensor of the traced function; got "
                        f"{type(x).__name__}")
    return x


def visible_nodes(graph, since=None):
    """The nodes of ``graph`` and of the graphs enclosing it (whose nodes all come before
    it), in program order; ``since``: (graph, mark) the nodes before which are left out."""
    chain = []
    while graph is not None:
        chain.append(graph)
        if since is not None and graph is since[0]:
            break
        graph = graph.parent
    nodes = []
    for g in reversed(chain):
        start = since[1] if since is not None and g is since[0] else 0
        nodes.extend(g.nodes[start:])
    return nodes


def graph_gradients(ys, xs, grad_ys=None, since=None):
    """The gradient sweep over the graph being traced (``ag.gradients``, and a tape's
    ``gradient`` inside a trace): one tensor or None per source."""
    graph = current_graph()
    ys = [_symbolic(y, "the targets") for y in ys]
    sources = [_versions(x, graph) for x in xs]
    xs = [_symbolic(x, "the sources") for x in xs]
    cut = {v.id for group in sources for v in group[1:]}  # (assigned: leaves of the sweep)
    entries = [Entry.of_node(n) for n in visible_nodes(graph, since)]
    depends = reach(entries, {v.id for group in sources for v in group})
    adjoints = {}
    seed(adjoints, ys, grad_ys, lambda y: y._value.id)
    backprop(entries, adjoints, depends, cut)
    out = []
    for x, group in zip(xs, sources):
        parts = [adjoints[v.id] for v in group if v.id in adjoints] if inexact(x) else []
        total = parts[0] if parts else None
        for g in parts[1:]:
            total = apply("add", total, g)
        out.append(total)
    return out


def _versions(x, graph):
    """The values a source stands for: a variable's value as the call began and each value
    the trace assigned it that ``graph`` sees (variables.versions: by `assign`, or the
    result of a staged region that assigned it), whose gradients add up (each read is of
    one of them; an assignment is no differentiable op, so the sweep stops at the values
    assigned); any other tensor, its own value."""
    if isinstance(x, Variable):
        x = captured(x, graph)
    if not isinstance(x, SymbolicVariable):
        return [_symbolic(x, "the sources")._value]
    start = root_graph(graph).inputs[x._storage.index]
    out = [start] + [v for v in versions(x) if graph.can_see(v)]
    now = x._value  # (the value reads see now: a staged loop's body reads its loop state,
    # an input of the body; a region's result is no leaf: the sweep goes through it)
    fresh = now.node is None and graph.can_see(now) and all(v is not now for v in out)
    return out + ([now] if fresh else [])


def _listed(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


@public("ag.gradients")
def gradients(ys, xs, grad_ys=None, name=None):
    """SPEC §5: the gradients of ``sum(ys)`` with respect to each of ``xs``, built into the
    traced function; a list with one entry per source (None where a source does not reach
    a target, and for integer and boolean sources, as in TensorFlow)."""
    if current_graph() is None:
        raise RuntimeError("ag.gradients builds the gradient into a traced function: call it "
                           "inside an ag.defun (eagerly, use ag.GradientTape)")
    try:
        with partial_raise.untracked():  # (its checks carry no state: they see the forward's)
            return graph_gradients(_listed(ys), _listed(xs),
                                   None if grad_ys is None else _listed(grad_ys))
    except (TypeError, ValueError) as e:
        raise type(e)(f"ag.gradients: {e}") from None
