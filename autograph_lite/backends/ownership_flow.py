"""The graph facts behind ownership.py: region structure, liveness, and two dataflows
(the buffers each value may point into; the argument object each value is at run time).

Liveness is structured: a value is read after a node when a later node of the same graph
reads it (or a node whose regions do), when it is that graph's result, or, climbing out
of a region, after the enclosing node; a value from outside a while loop that the loop
reads is read again on the next trip. Fused (inlined) elementwise values read their
inputs where their consumer is computed, so that is where those reads count.
"""
from ..ops.callback import CALLBACK_OPS

ARG, CONST, NEW, COPY = "arg", "const", "new", "copy"
EMPTY = frozenset()


def _is_loop(node):
    return node.op == "while_loop"


def _is_map(node):
    return node.op == "vectorized_map"


def _repeats(node):
    """A node whose region runs many times: a value from outside it that the region reads
    is read again by the next trip (or, for a map, by the other elements)."""
    return _is_loop(node) or _is_map(node)


def _unwritten_at_checks(graph):
    """``unwritten(node)``: for a staged check (an ``assert``), the original values of the
    arguments the function writes that its state (partial_raise.py) does not carry: the
    caller sees them unchanged when it fails, so it reads them there, and no buffer of
    theirs may be written before it (`y = a * 0.5; assert ...; a[...] = y` computed `y`
    into `a`'s buffer, which the failed assert left halved). [] for other nodes."""
    mutated = [i for i, _ in getattr(graph, "input_updates", ())]
    plans = getattr(graph, "check_plans", [])
    if not mutated:
        return lambda node: []

    def unwritten(node):
        if node.op != "assert":
            return []
        commit = node.attrs.get("commit")
        carried = ({i for i, _ in plans[commit[0]].args}
                   if commit is not None and commit[0] < len(plans) else set())
        return [graph.inputs[i] for i in mutated if i not in carried]
    return unwritten


class Regions:
    """Positions, parents and last reads of every graph nested in ``graph``."""

    def __init__(self, graph, inline):
        self.inline = inline
        self.parent = {id(graph): None}   # region graph id -> the node that owns it
        self.pos = {}                     # node id -> index in its graph
        self.last = {}                    # graph id -> {value id: index of its last read}
        self.inside = {}                  # node id -> ids of values read in its regions
        self.bodies = set()               # ids of while-loop body graphs
        self._unwritten = _unwritten_at_checks(graph)
        self._index(graph, final_reads=[v for _, v in getattr(graph, "input_updates", ())])

    def _index(self, g, final_reads=()):
        last, end = {}, len(g.nodes)
        roots = self._fusion_roots(g)
        read = set()
        for i, n in enumerate(g.nodes):
            self.pos[id(n)] = i
            at = roots.get(id(n), i)
            for v in list(n.inputs) + self._unwritten(n):
                last[v.id] = max(last.get(v.id, -1), at)
                read.add(v.id)
            if n.regions:
                inner = set()
                for k, r in enumerate(n.regions):
                    self.parent[id(r)] = n
                    if _is_loop(n) and k == 1:
                        self.bodies.add(id(r))
                    # a loop's condition inputs are handed on (to the body or the result)
                    inner |= self._index(r, r.inputs if _is_loop(n) and k == 0 else ())
                self.inside[id(n)] = inner
                for vid in inner:
                    last[vid] = max(last.get(vid, -1), i)
                read |= inner
        for v in list(g.outputs) + list(final_reads):
            last[v.id] = end
            read.add(v.id)
        self.last[id(g)] = last
        return read

    def _fusion_roots(self, g):
        """node id -> index of the node whose expression computes it (fused nodes)."""
        consumer = {}
        for i, n in enumerate(g.nodes):
            for v in n.inputs:
                if v.id in self.inline:
                    consumer[v.id] = i
        roots = {}
        for i in range(len(g.nodes) - 1, -1, -1):
            n = g.nodes[i]
            if n.outputs and n.outputs[0].id in self.inline and n.outputs[0].id in consumer:
                c = consumer[n.outputs[0].id]
                roots[id(n)] = roots.get(id(g.nodes[c]), c)
        return roots

    # queries ----------------------------------------------------------------------------
    def live_after(self, w, node):
        """Whether ``w`` is read after ``node`` runs (see the module docstring)."""
        g, cur = node.graph, node
        while True:
            if self.last[id(g)].get(w.id, -1) > self.pos[id(cur)]:
                return True
            if w.graph is g:
                return False
            parent = self.parent[id(g)]
            if parent is None:
                return False
            if _repeats(parent) and w.id in self.inside[id(parent)]:
                return True  # made outside the loop, read by every trip
            g, cur = parent.graph, parent

    def visible(self, w, node):
        """Whether ``w`` exists when ``node`` runs (made before it, in its graph or an
        enclosing one)."""
        g, cur = node.graph, node
        while g is not None:
            if w.graph is g:
                return w.node is None or self.pos[id(w.node)] < self.pos[id(cur)]
            cur = self.parent[id(g)]
            g = cur.graph if cur is not None else None
        return False

    def encloses(self, loop, node):
        g = node.graph
        while g is not None:
            parent = self.parent.get(id(g))
            if parent is loop:
                return True
            g = parent.graph if parent is not None else None
        return False

    def loop_vars(self, g):
        return list(g.inputs) if id(g) in self.bodies else []

    def leaves(self, node):
        """The stored array values an elementwise node's fused expression reads."""
        acc = {}

        def visit(v):
            if v.id in self.inline:
                for u in v.node.inputs:
                    visit(u)
            elif v.type.ndim:
                acc.setdefault(v.id, v)
        for v in node.inputs:
            visit(v)
        return list(acc.values())


def flow_pts(graph, copies, inline):
    """(pts, holders): value id -> frozenset of buffers it may point into; buffer ->
    the values that may point into it."""
    pts, values = {}, {}
    for i, v in enumerate(graph.inputs):
        pts[v.id] = frozenset({(ARG, i)}) if v.type.ndim else EMPTY
        values[v.id] = v
    _flow_graph(graph, pts, values, copies, inline)
    holders = {}
    for vid, bufs in pts.items():
        for b in bufs:
            holders.setdefault(b, []).append(values[vid])
    return pts, holders


def _flow_graph(g, pts, values, copies, inline, false=frozenset()):
    """``false``: ids of the bool values known false wherever ``g`` runs (a loop's flags
    that only an exiting path sets: _false_in_trips); a cond on one takes its false
    branch's results."""
    for n in g.nodes:
        if n.regions:
            if _is_loop(n):
                _flow_loop(n, pts, values, copies, inline)
            elif _is_map(n):
                _flow_map(n, pts, values, copies, inline)
            else:  # cond: either branch's result
                for r in n.regions:
                    _flow_graph(r, pts, values, copies, inline, false)
                for i, out in enumerate(n.outputs):
                    pts[out.id] = frozenset().union(*(pts[r.outputs[i].id]
                                                      for r in _taken(n, false)))
            for out in n.outputs:
                values[out.id] = out
            continue
        for out in n.outputs:
            values[out.id] = out
            if not out.type.ndim or out.id in inline:
                pts[out.id] = EMPTY
            elif n.opdef.view and n.inputs and n.inputs[0].type.ndim:
                pts[out.id] = pts[n.inputs[0].id]
            elif n.op == "const":
                pts[out.id] = frozenset({(CONST, out.id)})
            elif n.op in CALLBACK_OPS:  # (the callback's array, which its caller may keep)
                pts[out.id] = frozenset({(CONST, ("callback", out.id))})
            else:
                pts[out.id] = frozenset({(NEW, out.id)})


def _flow_loop(n, pts, values, copies, inline):
    """Loop variables: what the initial value (or entry copy) points into, united with
    what the body hands back, to a fixpoint. The body's inputs get only what is handed
    back on paths that go on looping: a path that sets an exit flag (see _exit_flags)
    reaches the condition and the loop's results, never the next trip."""
    cond, body = n.regions
    full = []
    for k, init in enumerate(n.inputs):
        if not init.type.ndim:
            full.append(EMPTY)
        elif (id(n), k) in copies:
            full.append(frozenset({(COPY, id(n), k)}))
        else:
            full.append(pts[init.id])
    trips = list(full)
    flags = _exit_flags(n)
    false = _false_in_trips(n, flags)
    while True:
        for k in range(len(full)):
            pts[cond.inputs[k].id], pts[body.inputs[k].id] = full[k], trips[k]
            values[cond.inputs[k].id], values[body.inputs[k].id] = cond.inputs[k], body.inputs[k]
        _flow_graph(cond, pts, values, copies, inline)
        _flow_graph(body, pts, values, copies, inline, false)
        exits = [body.outputs[j] for j in flags]
        new_full = [s | pts[out.id] for s, out in zip(full, body.outputs)]
        new_trips = [s | _continuing(out, exits, pts) for s, out in zip(trips, body.outputs)]
        if new_full == full and new_trips == trips:
            break
        full, trips = new_full, new_trips
    for out, s in zip(n.outputs, full):
        pts[out.id] = s


def _flow_map(n, pts, values, copies, inline):
    """A map's element is a view of its input (``x[i]``), never the kernel's to write:
    its buffers are the input's plus a constant one of its own (rule 1 then refuses any
    write into it). The stacked results are new arrays."""
    body = n.regions[0]
    for k, (p, x) in enumerate(zip(body.inputs, n.inputs)):
        pts[p.id] = pts[x.id] | {(CONST, ("element", id(n), k))} if p.type.ndim else EMPTY
        values[p.id] = p
    _flow_graph(body, pts, values, copies, inline)
    for out in n.outputs:
        pts[out.id] = frozenset({(NEW, out.id)})


def _exit_flags(loop):
    """Indices of the loop variables the loop stops on: its condition implies that they
    are false (``not done and ...``: AutoGraph's flags for return and break)."""
    cond = loop.regions[0]
    return [j for j, c in enumerate(cond.inputs)
            if not c.type.ndim and _implies_not(cond.outputs[0], c)]


def _implies_not(v, c):
    node = v.node
    if node is None:
        return False
    if node.op == "logical_not":
        return node.inputs[0] is c
    if node.op == "logical_and":
        return any(_implies_not(u, c) for u in node.inputs)
    if node.op != "cond":
        return False
    t, f = (r.outputs[v.index] for r in node.regions)
    if _const_bool(f) is False:  # pred and t
        return _implies_not(node.inputs[0], c) or _implies_not(t, c)
    if _const_bool(t) is False:  # not pred and f
        return _implies_not(f, c)
    return _implies_not(t, c) and _implies_not(f, c)


def _const_bool(v):
    node = v.node
    if node is None or node.op != "const" or v.type.ndim:
        return None
    return bool(node.attrs["value"])


def _false_in_trips(loop, flags):
    """Ids of the body inputs of bool loop variables that are false in every trip the
    loop runs: false at entry, and false again on every path that goes on looping (while
    the others are). The alias flag of ``return out`` inside a loop that writes ``out``
    ("the return value is out's buffer", region_aliases.LoopAliases) is one: only the
    exiting path sets it, so the body's update of the return value after its write into
    ``out`` (``if flag: retval = new out``) never runs, and out needs no copy per trip.
    A greatest fixpoint: each assumed false at a trip's start stays false to the next."""
    body = loop.regions[1]
    exits = [body.outputs[j] for j in flags]
    cand = {k for k, (init, p) in enumerate(zip(loop.inputs, body.inputs))
            if not p.type.ndim and p.type.dtype == bool and _const_bool(init) is False}
    while True:
        false = {body.inputs[k].id for k in cand}
        keep = {k for k in cand if _false_continuing(body.outputs[k], exits, false)}
        if keep == cand:
            return frozenset(false)
        cand = keep


def _false_continuing(v, exits, false, depth=0):
    """Whether bool ``v`` is false on every path that sets no exit flag (``exits``: the
    flags' values on the same paths), given the values ``false`` is false at."""
    if any(_const_bool(f) is True for f in exits):
        return True  # (this path exits)
    if _const_bool(v) is False or v.id in false:
        return True
    node = v.node
    if node is None or depth > 32:
        return False
    if node.op == "logical_and":
        return any(_false_continuing(u, exits, false, depth + 1) for u in node.inputs)
    if node.op == "logical_or":
        return all(_false_continuing(u, exits, false, depth + 1) for u in node.inputs)
    if node.op != "cond":
        return False
    return all(_false_continuing(r.outputs[v.index], _exits_in(r, node, exits), false,
                                 depth + 1) for r in _taken(node, false))


def _taken(cond, false):
    """The regions of ``cond`` that may run: only the false branch when its predicate is
    one of the values ``false`` holds."""
    return cond.regions[1:] if cond.inputs[0].id in false else cond.regions


def _exits_in(region, cond, exits):
    """The exit flags' values on the paths through ``region`` of ``cond``."""
    return [region.outputs[f.index] if f.node is cond else f for f in exits]


def _continuing(v, exits, pts):
    """What body result ``v`` points into on the paths that do not set an exit flag
    (``exits``: the flags' values on the same paths)."""
    if any(_const_bool(f) is True for f in exits):
        return EMPTY
    node = v.node
    if node is None or node.op != "cond" or not any(f.node is node for f in exits):
        return pts[v.id]
    return frozenset().union(*(
        _continuing(r.outputs[v.index], _exits_in(r, node, exits), pts) for r in node.regions))


def same_object_roots(graph, copies, decisions):
    """value id -> the top-level input Value whose array object it is at run time, for
    the values that provably are one. ``decisions``: value id -> the value whose array
    the emitter updated in place to make it."""
    roots = {v.id: v for v in graph.inputs if v.type.ndim}
    _roots_graph(graph, roots, copies, decisions)
    return roots


def _roots_graph(g, roots, copies, decisions):
    for n in g.nodes:
        for out in n.outputs:  # (a loop may revisit a body under a weaker assumption)
            roots.pop(out.id, None)
        if _is_loop(n):
            _roots_loop(n, roots, copies, decisions)
        elif _is_map(n):  # (its results are new arrays, its elements views)
            _roots_graph(n.regions[0], roots, copies, decisions)
        elif n.regions:
            for r in n.regions:
                _roots_graph(r, roots, copies, decisions)
            for i, out in enumerate(n.outputs):
                got = {id(roots.get(r.outputs[i].id)) for r in n.regions}
                if len(got) == 1 and roots.get(n.regions[0].outputs[i].id) is not None:
                    roots[out.id] = roots[n.regions[0].outputs[i].id]
        else:
            for out in n.outputs:
                src = decisions.get(out.id)
                if src is not None and roots.get(src.id) is not None:
                    roots[out.id] = roots[src.id]


def _roots_loop(n, roots, copies, decisions):
    cond, body = n.regions
    state = [None if (id(n), k) in copies else roots.get(init.id)
             for k, init in enumerate(n.inputs)]
    while True:
        for k, s in enumerate(state):
            for v in (cond.inputs[k], body.inputs[k]):
                roots.pop(v.id, None)
                if s is not None:
                    roots[v.id] = s
        _roots_graph(cond, roots, copies, decisions)
        _roots_graph(body, roots, copies, decisions)
        new = [s if s is not None and roots.get(out.id) is s else None
               for s, out in zip(state, body.outputs)]
        if new == state:
            break
        state = new
    for out, s in zip(n.outputs, state):
        if s is not None:
            roots[out.id] = s
