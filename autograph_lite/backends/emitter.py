"""Source writer for kernels: names, indentation, typed literals, and fused loop nests.

Elementwise ops are not emitted one array expression each: a chain of them is rendered
as one scalar expression inside one loop nest (``em.elem``), which Numba compiles ~10x
faster than array expressions, runs without temporaries and keeps NumPy's dtypes exact.
A value is inlined into its consumer when it has exactly one use, in the same region,
by an elementwise op of the same shape or a fusing reduction.
"""
import keyword
import math
from contextlib import contextmanager

import numpy as np

from .. import dtypes
from .ownership import Ownership

_NATURAL = {dtypes.float64, dtypes.int64}


class Emitter:
    # whether scalar forms render for a CUDA kernel, which cannot call cpu_runtime helpers
    # (ops/elementwise.py: a helper's inline or numba-cuda form instead)
    DEVICE = False

    # whether a failed staged check raises the state of its program point with it
    # (partial_raise.py): an exported module has no call that could store it
    carries_state = True

    def __init__(self, graph):
        self.graph = graph
        self.lines = []
        self.depth = 1
        self.names = {}
        self.literals = {}        # rendered literal -> Python value
        self.taken = set()
        self.counter = 0
        self.uses = graph.uses()
        self.const_params = []    # (param name, ndarray) passed at call time
        self.in_place = {}        # value id -> the value whose array was updated to make it
        self.scalars = {}         # value id -> scalar name, inside a multi-output loop nest
        self.reused = set()       # ids of values whose buffer an elementwise result took
        self.took = {}            # value id -> the value whose buffer it took (maybe)
        self.same = {}            # value id -> id of the value it is (a rotated loop's cond)
        self.loop_bodies = {id(n.regions[1]) for n in graph.walk() if n.op == "while_loop"}
        self.sites = []           # (user file:line, axis) of each bounds-checked index
        self.parallel = False     # a prange loop was emitted: compile with parallel=True
        self.helpers = []         # module-level functions the kernel calls (objmode)
        self.inline = self.plan_fusion()
        self.own = Ownership(graph, self.inline)  # who may write into which buffer

    def plan_fusion(self):
        """Ids of the elementwise values computed inside their consumer's expression (a
        backend may inline fewer; the ownership analysis reads the plan it uses)."""
        return _plan_fusion(self.graph, self.uses)

    # names --------------------------------------------------------------------
    def fresh(self, prefix):
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in prefix) or "v"
        if base[0].isdigit():
            base = "v" + base
        name, n = base, 0
        while name in self.taken or name in _RESERVED:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name

    def new(self, value, prefix=None):
        # Names must not depend on process-wide ids: the same program must give the same
        # source (that is the kernel cache key, in memory and on disk).
        self.counter += 1
        name = self.fresh(prefix or value.hint or f"v{self.counter}")
        self.names[value.id] = name
        return name

    def alias(self, value, name):
        self.names[value.id] = name

    def name(self, value):
        try:
            return self.names[value.id]
        except KeyError:
            raise RuntimeError(f"internal: {value} used before it was emitted") from None

    def out(self, node, i=0):
        return self.new(node.outputs[i])

    def site(self, node, axis):
        """A number for a run-time check of ``node`` on ``axis`` (its error carries it; the
        kernel's ``sites`` turn it into the user's line): not the line itself, so the
        source, the cache key, does not change when the user's lines move."""
        self.sites.append((node.loc, axis))
        return len(self.sites) - 1

    # text -----------------------------------------------------------------------
    def line(self, text):
        self.lines.append("    " * self.depth + text)

    @contextmanager
    def block(self, header):
        self.line(header)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    @contextmanager
    def loops(self, dims, idx=None):
        """Nested ``for`` loops over ``dims``; yields the index names (new ones unless
        given)."""
        idx = idx or [self.fresh(f"i{k}") for k in range(len(dims))]
        for i, d in zip(idx, dims):
            self.line(f"for {i} in range({d}):")
            self.depth += 1
        try:
            yield idx
        finally:
            self.depth -= len(dims)

    def objmode(self, inputs, outputs, body):
        """Runs ``body`` (lines reading the kernel's variables ``inputs`` and setting
        ``outputs``, [(name, Numba type string)]) in object mode, in a helper function of
        the kernel's module that the kernel calls: ``with numba.objmode`` blocks written in
        the kernel itself break Numba's LLVM lowering when one runs conditionally (in a
        loop or a branch) and a later one reads an array ("Instruction does not dominate
        all uses", numba#9574: a print inside a staged loop and another after it)."""
        fn = self.fresh("objmode")
        inputs = [n for n in dict.fromkeys(inputs)  # (not literals: `1.5`, `True`)
                  if n.isidentifier() and not keyword.iskeyword(n)]
        names = [n for n, _ in outputs]
        decl = ", ".join(f"{n}={t!r}" for n, t in outputs)
        lines = ["@numba.njit(nogil=True)",  # (objmode: Numba cannot cache it anyway)
                 f"def {fn}({', '.join(inputs)}):",
                 f"    with numba.objmode({decl}):"]
        lines += [f"        {line}" for line in body]
        if names:
            lines.append(f"    return {', '.join(names)}")
        self.helpers.append("\n".join(lines))
        call = f"{fn}({', '.join(inputs)})"
        self.line(f"{', '.join(names)} = {call}" if names else call)

    def fill(self, name, dims, value, dtype):
        """``name = <new array of dims filled with value>``. Not ``np.full``: Numba takes
        ~0.08 s longer to compile it (its flat-iterator fill) than empty + ``[...] =``,
        which runs as fast."""
        self.line(f"{name} = {self.alloc(dims, dtype)}")
        self.line(f"{name}[...] = {value}")

    def alloc(self, dims, dtype):
        """A new uninitialised C array: ``rt.empty``, not ``np.empty``, so the kernel links
        no Numba overload (whose module a warm process would import to load it)."""
        return f"rt.empty(({', '.join(dims)},), {self.dt(dtype)})"

    # typed literals and casts -------------------------------------------------------
    @staticmethod
    def dt(dtype):
        return "np.bool_" if dtype == dtypes.bool_ else f"np.{np.dtype(dtype).name}"

    def lit(self, value, dtype):
        dtype = np.dtype(dtype)
        if dtype == dtypes.bool_:
            text = repr(bool(value))
        elif dtype.kind == "f":
            text = _float_text(value)
            if dtype != dtypes.float64:
                text = f"{self.dt(dtype)}({text})"
        elif dtype.kind == "c":
            v = complex(value)
            text = f"{self.dt(dtype)}(complex({_float_text(v.real)}, {_float_text(v.imag)}))"
        else:
            text = repr(int(value))
            if dtype != dtypes.int64:
                text = f"{self.dt(dtype)}({text})"
        self.literals[text] = value
        return text

    def cast(self, expr, src, dst):
        if src == dst:
            return expr
        if expr in self.literals:
            return self.lit(np.asarray(self.literals[expr]).astype(dst)[()], dst)
        if dst == dtypes.bool_:
            return f"({expr} != 0)"
        if src.kind == "c" and dst.kind != "c":  # (NumPy's astype keeps the real part)
            expr = f"({expr}).real"
        if src.kind in "fc" and dst.kind in "iu":
            return _float_to_int(expr, dst, self.dt(dst), False)
        return f"{self.dt(dst)}({expr})"

    def astype(self, expr, src, dst):
        """``expr.astype(dst)`` of an array of dtype ``src``: a float array to an integer
        dtype as NumPy casts it (``cast``)."""
        if src.kind in "fc" and dst.kind in "iu":
            if src.kind == "c":
                expr = f"np.ascontiguousarray({expr}).real"
            return _float_to_int(expr, dst, self.dt(dst), True)
        if src.kind == "c" and dst == dtypes.bool_:
            return f"({expr} != 0)"
        if src.kind == "c" and dst.kind != "c":  # (NumPy keeps the real part; Numba's
            expr = f"np.ascontiguousarray({expr}).real"  # astype refuses complex -> real)
        return f"{expr}.astype({self.dt(dst)})"

    def fix(self, expr, dtype):
        """Pins an expression's Numba type to ``dtype`` (Numba widens int32+int32, etc.)."""
        if dtype in _NATURAL or expr in self.literals:
            return expr
        if dtype == dtypes.bool_:
            return f"bool({expr})"
        return f"{self.dt(dtype)}({expr})"

    # fused elementwise expressions ----------------------------------------------------
    def is_inlined(self, value):
        return value.id in self.inline

    def leaves(self, value, acc=None, root=False):
        acc = {} if acc is None else acc
        if root or self.is_inlined(value):
            for v in value.node.inputs:
                self.leaves(v, acc)
        elif value.type.ndim:
            acc.setdefault(value.id, value)
        return acc

    def dims(self, value, root=False):
        """Runtime size expressions of each dimension of ``value`` (fused or not).

        ``root``: ``value`` is the elementwise node being materialised (not yet a name).
        """
        rank = value.type.ndim
        leaves = list(self.leaves(value, root=root).values())
        self._plan = {}
        out = []
        for k in range(rank):
            contrib = [(lf, k - (rank - lf.type.ndim)) for lf in leaves
                       if k - (rank - lf.type.ndim) >= 0
                       and lf.type.shape[k - (rank - lf.type.ndim)] != 1]
            sizes = [f"{self.name(lf)}.shape[{j}]" for lf, j in contrib]
            ambiguous = len(contrib) > 1 and any(lf.type.shape[j] is None for lf, j in contrib)
            for lf, j in contrib:
                self._plan[(lf.id, j)] = "amb" if ambiguous and lf.type.shape[j] is None else "i"
            if not contrib:
                out.append("1")
            elif ambiguous:
                expr = sizes[0]
                for s in sizes[1:]:
                    expr = f"rt.bdim({expr}, {s})"
                out.append(expr)
            else:
                out.append(sizes[0])
        return out

    def elem(self, value, idx, root=False):
        """Scalar expression of ``value`` at loop indices ``idx`` (call dims() first)."""
        rank = len(idx)
        if root or self.is_inlined(value):
            node = value.node
            exprs = [self.elem(v, idx) for v in node.inputs]
            return self.render_scalar(node, exprs)
        if value.type.ndim == 0:
            return self.name(value)
        same = self.same.get(value.id, value.id)
        if same in self.scalars:  # computed earlier in this iteration of the nest
            return self.scalars[same]
        name = self.name(value)
        parts = []
        for j, d in enumerate(value.type.shape):
            k = j + rank - value.type.ndim
            mode = self._plan.get((value.id, j), "0" if d == 1 else "i")
            parts.append("0" if mode == "0" else idx[k] if mode == "i"
                         else f"({idx[k]} if {name}.shape[{j}] != 1 else 0)")
        return f"{name}[{', '.join(parts)}]"

    def render_scalar(self, node, exprs):
        return self.scalar_of(node.opdef, exprs, [v.type for v in node.inputs],
                              node.outputs[0].type, node.attrs)[0]

    def scalar_of(self, op, exprs, in_types, out=None, attrs=None):
        """The scalar expression of the elementwise ``op`` (an OpDef) on ``exprs`` of
        ``in_types``, and its dtype (``out``: the result's type, else inferred for 0-d
        operands: an op's own scalar form inside another op's loop, ``np.maximum.at``'s
        combination of an element and a value)."""
        attrs = attrs or {}
        out = out or op.infer(in_types, **attrs)[0]
        if callable(op.scalar):
            text = op.scalar(self, exprs, in_types, out, **attrs)
        else:
            if op.cast_operands and in_types:
                exprs, _ = self.common_operands(exprs, in_types)
            text = op.scalar.format(*exprs)
        return self.fix(text, out.dtype), out.dtype

    def common_operands(self, exprs, in_types):
        """The operands cast to NumPy's common dtype of ``in_types`` (Numba would compute
        in its own, wider types), and that dtype."""
        ct = dtypes.result_type(*in_types)
        return [self.cast(e, t.dtype, ct) for e, t in zip(exprs, in_types)], ct

    def materialize(self, node):
        """Emits an elementwise node as a scalar assignment or one loop nest."""
        v = node.outputs[0]
        if v.type.ndim == 0:
            expr = self.elem(v, [], root=True)
            self.line(f"{self.new(v)} = {expr}")
            return
        self.new(v)
        self.materialize_group([node], self.dims(v, root=True))

    def output_buffer(self, node, dims, reads=()):
        """Where elementwise ``node`` stores its result: a new array, or the buffer of a
        value nothing needs any more (one of its own operands, or a loop variable the body
        has replaced), when the ownership analysis allows it. ``reads``: other arrays the
        same loop nest reads. Sizes not fixed by the types are compared at run time,
        falling back to a new array."""
        v = node.outputs[0]
        fresh = self.alloc(dims, v.type.dtype)
        leaves = list(self.leaves(v, root=True).values())
        loop_vars = self.own.regions.loop_vars(node.graph)
        for cand in leaves + [b for b in loop_vars if b not in leaves]:
            if (cand.type.dtype != v.type.dtype or cand.type.shape != v.type.shape
                    or cand.id in self.reused or cand.id in self.scalars):
                continue
            others = [r for r in leaves + list(reads) if r is not cand]
            if not self.own.may_write(node, cand, others):
                continue
            arg = self._argument_buffer(cand)
            if arg is not None and self.own.clobbered_at_end(node, arg):
                continue
            self.reused.add(cand.id)  # a dead buffer is handed over once
            self.took[v.id] = cand
            name = self.name(cand)
            if None not in v.type.shape:
                self.in_place[v.id] = cand
                return name
            return f"{name} if {name}.shape == ({', '.join(dims)},) else {fresh}"
        return fresh

    def _argument_buffer(self, value):
        """The index of the written argument whose buffer ``value`` may be in through this
        emitter's choices (a result that took a dead buffer, an update in place), or None.
        The analysis sees buffers the graph makes, not these choices: ``r0 = u * 1.0``
        may take ``u``'s buffer (``u`` is overwritten later), and then ``r0 + f`` take
        ``r0``'s, which is ``u``'s again (random program seed 103010)."""
        seen = set()
        while value.id not in seen:
            seen.add(value.id)
            nxt = self.took.get(value.id) or self.in_place.get(value.id)
            if nxt is None:
                break
            value = nxt
        if value.node is None and value.graph is self.graph:
            return value.index
        return None

    def materialize_group(self, nodes, dims):
        """Emits elementwise nodes of one shape (already named) as ONE loop nest with
        several outputs, and full reductions over that shape folded into the same nest.

        ``x - d``, ``d`` and ``max(|d|)`` of a Newton step would otherwise be three passes
        over memory; here each element of ``d`` is computed once, kept in a scalar,
        stored, and read by the later members and the reductions."""
        members = [n for n in nodes if not n.opdef.fold]  # the rest: folded reductions
        idx = [self.fresh(f"i{k}") for k in range(len(dims))]
        body = self.member_stores(nodes, idx)
        reads = self._nest_reads(nodes)
        for n in members:
            self.line(f"{self.name(n.outputs[0])} = {self.output_buffer(n, dims, reads)}")
        folds = [n.opdef.fold(self, n, dims) for n in nodes if n.opdef.fold]
        with self.loops(dims, idx):
            for text in body:
                self.line(text)
            for step, _ in folds:
                step(idx)
        self.scalars.clear()
        for _, finish in folds:
            finish()

    def member_stores(self, nodes, idx):
        """The loop body of a group's elementwise members at indices ``idx``: each element
        computed once and stored; one that a later member or a fold reads is also kept in a
        scalar (``self.scalars``, which elem() reads; the caller clears it)."""
        body = []
        for n in nodes:
            if n.opdef.fold:
                continue
            v = n.outputs[0]
            self.dims(v, root=True)  # the broadcasting plan elem() reads
            expr = self.elem(v, idx, root=True)
            store = f"{self.name(v)}[{', '.join(idx)}]"
            if n is nodes[-1]:  # nothing later in the nest reads it
                body.append(f"{store} = {expr}")
                continue
            t = self.fresh(f"e_{self.name(v)}")
            body += [f"{t} = {expr}", f"{store} = {t}"]
            self.scalars[v.id] = t
        return body

    def _nest_reads(self, nodes):
        """The arrays a loop nest over ``nodes`` reads from memory (values computed in
        the nest itself are read from scalars; a rotated loop's condition inputs are the
        body's results)."""
        made = {self.same.get(n.outputs[0].id, n.outputs[0].id) for n in nodes}
        out = {}
        for n in nodes:
            src = n.inputs[0] if n.opdef.fold else n.outputs[0]
            for lf in self.leaves(src, root=not n.opdef.fold).values():
                if self.same.get(lf.id, lf.id) not in made:
                    out.setdefault(lf.id, lf)
        return list(out.values())

    def copy_of(self, name):
        """Text of a new array holding a copy of array ``name`` (see cpu_runtime.copy)."""
        return f"rt.copy({name})"

    def writable(self, value, node, same_object=True):
        """``value``'s name when ``node`` may update its buffer in place (ownership.py),
        else a copy of it. ``same_object``: the node's result is then that very array."""
        name = self.name(value)
        if not self.own.may_write(node, value):
            return self.copy_of(name)
        # the buffer now holds the node's result: never handed over again through
        # ``value`` (a loop variable's, which output_buffer would otherwise offer while
        # the result is still read: ``v[0] += 1; w = v; v = v * 2`` in a loop)
        self.reused.add(value.id)
        if same_object:
            self.in_place[node.outputs[0].id] = value
        return name

    # graph walking ----------------------------------------------------------------
    def emit_graph(self, graph):
        self.emit_nodes(graph.nodes)

    def emit_nodes(self, nodes):
        """Emits nodes in order (skipping inlined ones), sharing loop nests where it can.
        ``nodes`` may hold Rebind markers (see ops/control.py, rotated while loops)."""
        nodes = [n for n in nodes if isinstance(n, Rebind)
                 or not (n.outputs and all(self.is_inlined(v) for v in n.outputs))]
        k = 0
        while k < len(nodes):
            if isinstance(nodes[k], Rebind):
                nodes[k].apply(self)
                k += 1
                continue
            group, dims, taken = self._loop_group(nodes, k)
            if dims is None:
                self.emit_node(nodes[k])
            else:
                self.materialize_group(group, dims)
            k += taken

    def _loop_group(self, nodes, k):
        """The run of emitted nodes from ``nodes[k]`` that can share one loop nest:
        elementwise, one output of the same shape type, and provably the same runtime
        sizes (fully static shapes, or the very same size expressions), then full
        reductions over such values (``fold``), which nothing later in the run may read.
        Scalar constants in between (aliases to literals: no code, idempotent) are
        emitted on the way. Members are named here. Returns (members, dims, nodes
        consumed); dims is None when ``nodes[k]`` is not a loop nest at all."""
        head = nodes[k]
        if not self.loopable(head):
            return [head], None, 1
        v0 = head.outputs[0]
        dims = self.dims(v0, root=True)
        static = None not in v0.type.shape
        group = [head]
        self.new(v0)
        taken = 1
        folded = set()  # outputs of folded reductions: final only after the nest

        def same_sizes(v, root):
            return v.type.shape == v0.type.shape and (
                static or self.dims(v, root=root) == dims)
        for n in nodes[k + 1:]:
            if isinstance(n, Rebind):
                n.apply(self)
            elif n.op == "const" and n.outputs[0].type.ndim == 0:  # an alias to a literal
                self.emit_node(n)
            elif self.loopable(n) and not folded and same_sizes(n.outputs[0], True):
                group.append(n)
                self.new(n.outputs[0])
            elif (self.foldable(n) and same_sizes(n.inputs[0], False)
                    and not folded & self._reads(n.inputs[0])):
                group.append(n)
                folded.add(n.outputs[0].id)
            else:
                break
            taken += 1
        return group, dims, taken

    def loopable(self, node):
        """Whether ``node`` can be a member of a loop nest (materialize_group)."""
        return (node.opdef.elementwise and len(node.outputs) == 1
                and node.outputs[0].type.ndim > 0)

    def foldable(self, node):
        """Whether reduction ``node`` can be folded into the loop nest over its input."""
        return bool(node.opdef.fold and node.opdef.fold.applies(node))

    def _reads(self, value):
        """Ids of the values an expression reads: ``value`` and, through inlined nodes,
        everything below it."""
        out = {self.same.get(value.id, value.id)}
        if self.is_inlined(value):
            for v in value.node.inputs:
                out |= self._reads(v)
        return out

    def emit_node(self, node):
        op = node.opdef
        if op.elementwise:
            self.materialize(node)
            return
        if op.lower is None:
            raise NotImplementedError(f"op '{node.op}' has no cpu lowering")
        expr = op.lower(self, node)
        if expr is not None:
            self.line(f"{self.new(node.outputs[0])} = {expr}")


class Rebind:
    """A marker in a node sequence: from here on, each value of ``pairs`` (a, b) is
    spelled like ``b`` and is the same value in a loop nest (a rotated while loop's
    condition reads the body's results: ops/control.py)."""

    def __init__(self, pairs):
        self.pairs = pairs

    def apply(self, em):
        for a, b in self.pairs:
            em.alias(a, em.name(b))
            em.same[a.id] = em.same.get(b.id, b.id)


_RESERVED = {"np", "rt", "numba", "math", "kernel", "int", "float", "bool", "range", "len",
             "abs", "min", "max", "print", "sum", "True", "False", "None", "lambda", "if",
             "else", "for", "while", "in", "is", "not", "and", "or", "def", "return", "pass",
             "break", "continue", "del", "global", "from", "import", "with", "as", "class",
             "try", "except", "raise", "yield", "assert", "finally", "nonlocal", "elif"}


def _plan_fusion(graph, uses):
    """Ids of elementwise values to inline into their single consumer."""
    inline = set()

    def visit(g):
        consumer = {}
        position = {}
        barriers = []
        for pos, n in enumerate(g.nodes):
            position[id(n)] = pos
            if not n.opdef.pure or n.regions or n.opdef.updates_input:
                barriers.append(pos)
            for v in n.inputs:
                consumer.setdefault(v.id, []).append(n)
            for r in n.regions:
                visit(r)
        for n in g.nodes:
            if not n.opdef.elementwise or len(n.outputs) != 1:
                continue
            v = n.outputs[0]
            users = consumer.get(v.id, [])
            if v.type.ndim == 0 or uses.get(v.id, 0) != 1 or len(users) != 1:
                continue
            c = users[0]
            ok = ((c.opdef.elementwise and c.outputs[0].type.shape == v.type.shape)
                  or (c.opdef.fuses_inputs and c.inputs[0] is v))
            lo, hi = position[id(n)], position[id(c)]
            if ok and not any(lo < b < hi for b in barriers):
                inline.add(v.id)
    visit(graph)
    return inline


def _float_text(value):
    v = float(value)
    return ("np.nan" if math.isnan(v) else "np.inf" if v == math.inf
            else "-np.inf" if v == -math.inf else repr(v))


def _float_to_int(expr, dst, name, array):
    """The kernel text of float ``expr`` (an array when ``array``) cast to integer dtype
    ``dst`` (Numba name ``name``) as NumPy casts it on x86-64, defined for every value
    (cpu_runtime.f2i32 and kin: LLVM's own conversion is poison out of range): int32 and
    narrower through int32, the rest through int64 (uint64: f2u64)."""
    via = 32 if dst.itemsize <= 4 and dst != np.dtype(np.uint32) else 64
    if dst == np.dtype(np.uint64):
        via = -64
    if array:
        return f"rt.f2int_array({expr}, {via}).astype({name})"
    helper = {32: "f2i32", 64: "f2i64", -64: "f2u64"}[via]
    inner = f"rt.{helper}({expr})"
    return inner if dst in (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint64)) \
        else f"{name}({inner})"
