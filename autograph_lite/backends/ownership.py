"""Which buffers may each value of a kernel alias, and may this node write into that one?

The Graph is functional (``x2 = setitem(x, i, v)`` is a new value), but copying a whole
array for every element write would make ``out[i] = ...`` in a loop quadratic, so the cpu
kernel writes in place where no one can tell. This module is the only place that decides
it: one pass over the kernel's Graph, asked one question by the emitter and the lowerings,
``may_write(node, value)``: may ``node`` store its result into ``value``'s buffer?

Buffers. Every array value points into a set of abstract buffers (``pts``):
- ``arg i``: the caller's i-th array argument; ``const``: an array baked into the graph
  (a kernel parameter shared by every call), or an array a callback returned (its
  Python code may keep it: a cache, a global); ``new``: an allocation made by one node (a
  fresh buffer each time it runs); ``copy``: the copy a while loop makes of a loop
  variable's initial value at loop entry.
- A view (slicing, reshape, transpose, split) points where its input points. A ``cond``
  result points where either branch's result does. A loop variable (and the loop's result)
  points where its initial value (or its entry copy) does, united with what every value
  the body hands back points to: a dataflow fixpoint over the back edge. A path through
  the body that sets an exit flag (the loop's condition implies ``not flag``: AutoGraph's
  ``return`` and ``break``) reaches the loop's results but never the next trip, so
  ``return out`` inside a loop does not make the return value share the buffer that the
  next trip updates.

Rules. ``node`` may write into ``value``'s buffer only when:
1. every buffer ``value`` may point into is the kernel's own: ``new``, ``copy``, or the
   argument of a mutated input (below). Never a constant (it is shared by later calls),
   never an argument the function does not write;
2. ``value`` is not read after ``node`` (later in its graph or, climbing out, after the
   enclosing branch; a value from outside a while loop that the loop reads is read again
   by the next iteration; a while loop's condition inputs are read until the loop ends;
   reads by fused expressions count where the fused expression is computed);
3. no other value that may share one of those buffers is read by ``node`` itself (or by
   the loop nest it is computed in) or is visible at ``node`` and read after it. An
   op may declare inputs it reads safely although they overlap its target
   (``overlap_safe``: setitem's value, which Numba copies first when it overlaps).
Values made after ``node`` cannot hold the old contents: they derive from values that are
read after ``node`` (rule 2/3 then refuses) or from ``node``'s own result. So an in-place
write hands the buffer over to the result, and the abstract sets need not follow it. (A
buffer whose last reader came before ``node`` is handed over once: the emitter keeps
that record.)

Loop entry copies. A loop variable that is updated in place inside its loop needs a
buffer the loop may write: its initial value's when that may be overwritten at the loop
entry (rules 1-3 at the loop node, counting every read inside the loop), else a copy made
once at loop entry. Copies that no permitted write inside the loop would use are dropped
(fixpoint: dropping one only removes permissions, so it ends).

Worked example (random program, seed 1174)::

    v1 = q                              # q: the caller's array
    for e0 in v1:                       # outer loop variable b1, initial value q
        for e1 in v1:                   # inner loop variable b2, initial value b1
            v1 = np.ones(5) * e1 * m    # t: elementwise; its buffer could be b2's
            v1 = v1 if c else q         # the body hands back cond(t, q)

``pts(b2) = copy ∪ pts(cond) = {copy, new t, arg q}``: ``q`` is not the kernel's own, so
rule 1 refuses to put ``t`` into ``b2``'s buffer (the old rules copied b2 at entry and
then wrote ``t`` into it every trip: after a trip that handed ``q`` back, the next one
wrote into the caller's ``q``). ``t`` gets a new array, as in NumPy.

Mutated arguments (SPEC §3). ``graph.input_updates`` lists ``(input index, final value)``:
the contents each written argument must hold after the call. Their ``arg`` buffers count
as the kernel's own (rule 1) and the final values are read at the end of the kernel, so
the same rules decide whether an update may happen in the caller's array itself. The
kernel ends with ``arg[...] = final`` unless ``final`` is provably the argument's array
object (every update in between done in place: ``same_object``), so filling an ``out``
argument in a loop is one in-place loop with no copy and no write-back. That closing
write is the one read of the buffer after the kernel: no value may take an argument's
buffer when it (or a view, an in-place update or a region result of it) is a result or
another argument's final value, which the write-back would overwrite
(``_clobbered_at_end``). The call path refuses read-only and overlapping mutated
arguments before the kernel runs.
"""
from .ownership_flow import ARG, CONST, COPY, EMPTY, NEW, Regions, flow_pts, same_object_roots


class Ownership:
    """The analysis of one kernel's Graph (see the module docstring).

    ``inline``: ids of the values the emitter computes inside their consumer's expression
    (never stored: they read their inputs where the consumer is computed)."""

    def __init__(self, graph, inline=frozenset()):
        self.graph = graph
        self.inline = frozenset(inline)
        self.mutated = frozenset(i for i, _ in getattr(graph, "input_updates", ()))
        if self.mutated:
            self._index_write_backs()
        self.regions = Regions(graph, self.inline)
        self.copies = {(id(n), k) for n in graph.walk() if n.op == "while_loop"
                       for k, v in enumerate(n.inputs) if v.type.ndim}
        self._settle()

    # the question -------------------------------------------------------------------
    def may_write(self, node, value, reads=None):
        """Whether ``node`` may store its result into ``value``'s buffer. ``reads``: the
        other array values ``node`` reads while it writes (default: its other inputs)."""
        if not value.type.ndim or value.id in self.inline:
            return False
        buffers = self.pts.get(value.id, EMPTY)
        if not buffers or not all(self._writable(b) for b in buffers):
            return False
        if reads is None:  # an update of input 0
            reads = [v for i, v in enumerate(node.inputs)
                     if i and i not in node.opdef.overlap_safe]
        read_ids = {r.id for r in reads}
        if value.id in read_ids or self.regions.live_after(value, node):
            return False
        for w in self._sharers(value):
            if w.id in read_ids or (self.regions.visible(w, node)
                                    and self.regions.live_after(w, node)):
                return False
        return not any(b[0] == ARG and self._clobbered_at_end(node, b[1]) for b in buffers)

    def may_alias(self, a, b):
        """Whether array values ``a`` and ``b`` may share a buffer."""
        return not self.pts.get(a.id, EMPTY).isdisjoint(self.pts.get(b.id, EMPTY))

    def entry_copy(self, loop, k):
        """Whether while ``loop`` starts loop variable ``k`` from a copy of its initial
        value (so that the body may update it in place)."""
        return (id(loop), k) in self.copies

    def aliases_caller(self, value):
        """Whether ``value`` may share memory with an argument or a constant (a result
        must then be copied: the caller never gets an alias of its input or of state
        that later calls share)."""
        return any(b[0] in (ARG, CONST) for b in self.pts.get(value.id, EMPTY))

    def caller_buffers(self, value):
        """The argument and constant Values whose memory ``value`` may share, when it may
        also be a buffer of the kernel's own (a result that is one on some runs and the
        other on others, as ``return out`` inside a loop, whose return value starts as a
        constant placeholder): the kernel then copies it only on the runs where it
        overlaps one of them. None when it is always the caller's, or a buffer is not a
        Value of the kernel's top level."""
        buffers = self.pts.get(value.id, EMPTY)
        if all(b[0] in (ARG, CONST) for b in buffers):
            return None
        out = []
        for kind, key in (b[:2] for b in buffers if b[0] in (ARG, CONST)):
            if kind == ARG:
                out.append(self.graph.inputs[key])
                continue
            const = [w for w in self.holders.get((CONST, key), ()) if w.id == key]
            if not const or const[0].node is None or const[0].node.op != "const":
                return None
            out.append(const[0])
        return out

    def same_object(self, final, decisions):
        """The top-level input whose array object ``final`` is at run time, or None.
        ``decisions``: value id -> the value whose buffer the emitter updated in place to
        make it (the same array object, not a view)."""
        return same_object_roots(self.graph, self.copies, decisions).get(final.id)

    # internals ------------------------------------------------------------------------
    def _index_write_backs(self):
        """For ``_clobbered_at_end``: per mutated argument, the ids of the array values the
        write-backs read after its own (the other arguments' final values); every value's
        users; the nodes whose regions output it."""
        finals = {i: v.id for i, v in self.graph.input_updates}
        self._read_after = {i: set(finals.values()) - {f} for i, f in finals.items()}
        self._users, self._owner = {}, {}
        for n in self.graph.walk():
            for k, v in enumerate(n.inputs):
                self._users.setdefault(v.id, []).append((n, k))
            for r in n.regions:
                for v in r.outputs:
                    self._owner.setdefault(v.id, []).append(n)

    def clobbered_at_end(self, node, i):
        """``_clobbered_at_end`` for the emitter, whose own choices may put a value into
        argument ``i``'s buffer (Emitter._argument_buffer); False if ``i`` is not written."""
        return i in self.mutated and self._clobbered_at_end(node, i)

    def _clobbered_at_end(self, node, i):
        """Whether ``node``'s result, once in mutated argument ``i``'s buffer, could be
        overwritten there by the kernel's closing ``arg[...] = final`` while the caller
        still gets it: another argument's final value that holds the buffer through
        views, in-place updates or regions. Rule 2 protects values read inside the
        kernel; this is the one read after it. (A result holding it, random program seed
        50102's ``r0 = u * 1.0`` in ``u``'s dead buffer, is copied before the write-backs
        where it overlaps a written argument when the kernel ends: cpu.py; so
        `a[0] = 7.0; return a[::2]` writes ``a`` in place, where it wrote a copy of all of
        ``a``, stored at the end, which an error raised in between lost.)"""
        return not self._read_after[i].isdisjoint(self._holders_of(node))

    def _holders_of(self, node):
        """Ids of the values that may hold ``node``'s result buffer: it, the views and
        in-place updates of them, and what a region hands them on to (conservatively:
        every array result of the region's node)."""
        todo = [v for v in node.outputs if v.type.ndim]
        seen = {v.id for v in todo}
        while todo:
            v = todo.pop()
            nexts = [w for n in self._owner.get(v.id, ()) for w in n.outputs]
            for n, k in self._users.get(v.id, ()):
                if n.regions:
                    nexts += list(n.outputs) + [x for r in n.regions for x in r.inputs]
                elif k == 0 and (n.opdef.view or n.opdef.updates_input):
                    nexts += list(n.outputs)
            for w in nexts:
                if w.type.ndim and w.id not in seen:
                    seen.add(w.id)
                    todo.append(w)
        return seen

    def _writable(self, buf):
        return buf[0] in (NEW, COPY) or (buf[0] == ARG and buf[1] in self.mutated)

    def _sharers(self, value):
        seen = {value.id}
        for b in self.pts.get(value.id, EMPTY):
            for w in self.holders.get(b, ()):
                if w.id not in seen:
                    seen.add(w.id)
                    yield w

    def _clobberable(self, loop, k):
        """Whether the loop may take initial value ``k``'s buffer as its own (no copy)."""
        init = loop.inputs[k]
        others = [v for j, v in enumerate(loop.inputs) if j != k]
        if not self.may_write(loop, init, others):
            return False
        inside = self.regions.inside[id(loop)]
        return init.id not in inside and not any(
            w.id in inside and self.regions.visible(w, loop) for w in self._sharers(init))

    def _settle(self):
        """Entry copies to a fixpoint: drop those whose initial value the loop may take,
        then those no permitted write inside their loop would use."""
        by_id = {id(n): n for n in self.graph.walk()}
        while True:
            self.pts, self.holders = flow_pts(self.graph, self.copies, self.inline)
            drop = {c for c in self.copies if self._clobberable(by_id[c[0]], c[1])}
            if not drop:
                drop = self.copies - self._wanted_copies(by_id)
            if not drop:
                return
            self.copies -= drop

    def _wanted_copies(self, by_id):
        """The entry copies that the in-place writes inside their loop would use. For an
        elementwise node, the first candidate buffer allowed, as the emitter chooses."""
        wanted, taken = set(), set()
        for node, cands in self._candidate_writes():
            for value, reads in cands:
                if value.id in taken or not self.may_write(node, value, reads):
                    continue
                if node.opdef.elementwise:
                    taken.add(value.id)
                wanted |= {(b[1], b[2]) for b in self.pts.get(value.id, EMPTY)
                           if b[0] == COPY and self.regions.encloses(by_id[b[1]], node)}
                break
        return wanted

    def _candidate_writes(self):
        """(node, [(value, reads)]) for every node that may write in place, with the
        buffers it may write into in the emitter's order of preference: input 0 of an
        update; for an elementwise result, a buffer of its shape and dtype (one of its
        operands, or a loop variable the body has replaced)."""
        for n in self.graph.walk():
            if n.opdef.updates_input and n.inputs[0].type.ndim:
                yield n, [(n.inputs[0], None)]
            elif (n.opdef.elementwise and len(n.outputs) == 1 and n.outputs[0].type.ndim
                    and n.outputs[0].id not in self.inline):
                out = n.outputs[0]
                leaves = self.regions.leaves(n)
                cands = leaves + [b for b in self.regions.loop_vars(n.graph) if b not in leaves]
                yield n, [(c, [lf for lf in leaves if lf is not c]) for c in cands
                          if c.type.dtype == out.type.dtype and c.type.shape == out.type.shape]
