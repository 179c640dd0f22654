"""Graph, Node and Value: the traced program that every backend consumes.

Flow: tracing appends Nodes to the innermost open Graph; each Node names an op of the op
table, its input Values, static attributes, output Values (typed) and the user's file:line.
Region ops (cond, while_loop) own sub-Graphs. A region may read Values of any enclosing
Graph directly (implicit capture, as in MLIR); a Graph's ``inputs`` are only its own
parameters (function arguments, or a loop body's loop variables).
"""
import contextlib
import itertools
import threading

from ..trace.context import current_device
from .types import TensorType

_ids = itertools.count()


class Value:
    """One typed result of a Node, or an input of a Graph."""
    __slots__ = ("type", "node", "index", "graph", "id", "hint")

    def __init__(self, type_, graph, node=None, index=0, hint=None):
        assert isinstance(type_, TensorType), type_
        self.type = type_
        self.graph = graph
        self.node = node
        self.index = index
        self.id = next(_ids)
        self.hint = hint  # a user-facing name, when one is known (argument name)

    @property
    def dtype(self):
        return self.type.dtype

    @property
    def shape(self):
        return self.type.shape

    def __repr__(self):
        return f"<Value %{self.id}: {self.type}>"


class _Deriving(threading.local):
    depth = 0


_DERIVING = _Deriving()


@contextlib.contextmanager
def deriving():
    """``with deriving():`` marks the nodes added meanwhile (this thread's) as derived
    (Node.derived)."""
    _DERIVING.depth += 1
    try:
        yield
    finally:
        _DERIVING.depth -= 1


class Node:
    """One op application. ``device`` is where the user placed it (``ag.device``, SPEC §2):
    None (unplaced: the backend chooses), "cpu" or "cuda". It is the innermost device scope
    open when the node was added (Graph.add_node), so a region op and the nodes of its
    regions each have their own. Backends that run everything on one device ignore it; a
    pass that merges nodes keeps differently placed ones apart and a clone copies it."""
    __slots__ = ("op", "inputs", "attrs", "outputs", "regions", "loc", "graph", "device",
                 "derived")

    def __init__(self, op, inputs, attrs, out_types, regions, loc, graph, device=None):
        # made while a gradient is built (``deriving``): not the user's own computation, so
        # an error it could raise is one the forward's own ops raise first (dce.py)
        self.derived = _DERIVING.depth > 0
        self.op = op
        self.inputs = list(inputs)
        self.attrs = dict(attrs)
        self.regions = list(regions)
        self.loc = loc
        self.graph = graph
        self.device = device
        self.outputs = [Value(t, graph, self, i) for i, t in enumerate(out_types)]

    @property
    def opdef(self):
        from ..ops.registry import OPS
        return OPS[self.op]

    def __repr__(self):
        return f"<Node {self.op} at {self.loc}>"


class Graph:
    """An ordered list of Nodes with typed inputs and outputs; regions nest Graphs."""

    def __init__(self, name="graph", parent=None):
        self.name = name
        self.parent = parent
        self.inputs = []
        self.nodes = []
        self.outputs = []
        # (input index, final value): the contents each NumPy-array argument the function
        # writes into must hold after the call (SPEC §3); read at the end, like outputs.
        self.input_updates = []
        # value id -> input index: a value that is, where it is computed, the contents of a
        # written argument at that point (mutation.py); lets a run that raises part-way
        # leave the argument as the plain run would. Passes that replace values keep it.
        self.input_versions = {}
        # {input index: Storage} of the arguments the trace wrote, and what each staged
        # check hands back when it fails (partial_raise.py): root graphs only
        self.written_inputs = {}
        self.check_plans = []
        # value id -> (lo, hi): where a Python int's overflow check bounds it once it has
        # passed (python_numbers._note_range): root graphs only
        self.int_ranges = {}
        # id -> (list, argument path) of the caller's lists among the arguments, which a
        # staged loop or branch must not rebind into a tensor list (trial.refuse_shared):
        # root graphs only
        self.caller_lists = {}

    def add_input(self, type_, hint=None):
        v = Value(type_, self, None, len(self.inputs), hint)
        self.inputs.append(v)
        return v

    def add_node(self, op, inputs, attrs, out_types, regions=(), loc=None):
        for v in inputs:
            self.check_visible(v, f"in '{op}' (at {loc})")
        node = Node(op, inputs, attrs, out_types, regions, loc, self, current_device())
        for r in node.regions:
            r.parent = self
        self.nodes.append(node)
        return node

    def drop_from(self, mark):
        """Removes the nodes added since ``len(nodes)`` was ``mark`` (a probe's). Their
        values leave every graph, so a cached use of one is seen (``can_see``), not
        emitted as a read of a value nothing computes."""
        for node in self.nodes[mark:]:
            for v in node.outputs:
                v.graph = None
        del self.nodes[mark:]

    def check_visible(self, value, use):
        """Raises when ``value`` is not this graph's or an enclosing one's: a tensor that
        escaped the function or branch/loop that computed it (through a Python object it
        was stored in), which no run of this graph could read."""
        if not self.can_see(value):
            made = f" (computed at {value.node.loc})" if value.node is not None else ""
            raise ValueError(
                f"a tensor from another function or an exited branch/loop{made} was used "
                f"{use}; return it from that function or branch instead")

    def can_see(self, value):
        g = self
        while g is not None:
            if value.graph is g:
                return True
            g = g.parent
        return False

    def walk(self):
        """Every node of this graph and its regions, depth first, in program order."""
        for n in self.nodes:
            yield n
            for r in n.regions:
                yield from r.walk()

    def uses(self):
        """Map value id -> number of uses, counting uses in regions, as region outputs and
        as final values of updated arguments."""
        counts = {}

        def visit(g):
            for n in g.nodes:
                for v in n.inputs:
                    counts[v.id] = counts.get(v.id, 0) + 1
                for r in n.regions:
                    visit(r)
            for v in g.outputs:
                counts[v.id] = counts.get(v.id, 0) + 1
        visit(self)
        for _, v in self.input_updates:
            counts[v.id] = counts.get(v.id, 0) + 1
        return counts

    def __str__(self):
        from .printer import format_graph
        return format_graph(self)


def root_graph(graph):
    """The outermost Graph of ``graph``'s trace (regions have parents)."""
    while graph.parent is not None:
        graph = graph.parent
    return graph


def captures(node):
    """The outer Values a region op's regions read, as node inputs or as region results
    (a branch may return an outer value as it is), at any depth; in first-read order."""
    if not node.regions:
        return []
    graphs = list(_graphs_in_order(node.regions))
    inner, seen, out = set(graphs), set(), []
    for g in graphs:
        for v in [v for n in g.nodes for v in n.inputs] + list(g.outputs):
            if v.graph not in inner and v.id not in seen:
                seen.add(v.id)
                out.append(v)
    return out


def _graphs_in_order(regions):
    for r in regions:
        yield r
        for n in r.nodes:
            yield from _graphs_in_order(n.regions)
