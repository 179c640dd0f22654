"""Index bounds the kernel need not check: `x[i]` under `for i in range(len(x))`.

A tensor index is emitted as ``rt.index(i, n, site)`` (cpu_runtime.py): a negative index
wraps and one out of range raises IndexError, as in NumPy, where Numba would read past
the array. The check costs little at run time but keeps a tight loop from vectorizing, and
the first kernel of a process that uses it compiles ``rt.index`` too (about 45 ms, issue
13's compile budget). When the graph itself proves ``0 <= i < x.shape[axis]``, the index
is emitted bare (ops/indexing.py ``render_index``).

The proof is a small interval analysis over SSA values, sound by construction (each rule
below holds for every run; anything else proves nothing):
- a lower bound ``L(v)`` is an int; an upper bound ``U(v)`` is a set of ``(dim, offset)``
  pairs, each meaning ``v <= dim + offset`` where ``dim`` is ``(array id, axis)`` (the
  array's size along that axis) or None (a constant);
- constants, ``dim(x; axis)`` (``L = 0``), ``as_weak``, ``add``, ``subtract``, ``multiply``
  by 1, ``maximum``/``minimum`` combine these as arithmetic does; ``i % m`` with ``m >= 1``
  is in ``[0, m - 1]`` whatever ``i`` is (NumPy's floor modulo);
- ``dim`` names the array by its *shape root* (``_shape_root``): a ``setitem`` result has
  its input's shape, and a loop variable whose body hands back writes into itself has its
  initial value's shape, so `out[i] = ...` under `range(len(out))` is proven; an array
  that ``full``/``empty`` made with a size read off another (`np.zeros(len(x))`) has
  that one's size too (``_size_syms``);
- a **loop counter**: a ``while_loop`` variable whose body hands back ``v + s`` (``L(s) >=
  0``) has ``L(v) = L(initial value)``; its ``cond`` region's test (``v < b``, ``b > v``,
  ``v <= b``, a conjunction of tests: ``logical_and``, or a ``cond`` whose false branch
  is ``False``) holds whenever the body runs, on the same values (SSA), so in the body
  ``U(v) = U(b) - 1``. ``range(n)`` lowers ``b`` to ``maximum(n', 0)``: since the body
  runs only when ``v < b`` and ``v >= 0``, there ``v < n'`` too.

`rows` of a matrix, `for i in range(m.shape[0]): for j in range(1, m.shape[1]): m[i, j] *
m[i, j - 1]`, is proven for all four indices; `x[i + 1]` under `range(len(x))` is not (and
is checked, and raises as NumPy does).
"""

_DEPTH = 24  # how far back through the values a proof may go


def in_bounds(index, array, axis):
    """Whether the graph proves ``0 <= index < array.shape[axis]`` wherever ``index`` is
    used (``index``: an integer 0-d Value)."""
    if index.type.ndim or index.type.dtype.kind not in "iu":
        return False
    _MEMO.clear()
    lo = _lower(index, _DEPTH)
    if lo is None or lo < 0:
        return False
    static = array.type.shape[axis]
    me = _size_syms(array, axis)
    for dim, off in _upper(index, _DEPTH):
        if dim is None and static is not None and off < static:
            return True
        if dim in me and off <= -1:
            return True
    return False


def _size_syms(v, axis):
    """The ``(array id, axis)`` pairs whose size equals ``v``'s along ``axis``: its shape
    root's, and, for an array made by ``full``/``empty`` (np.zeros(n), np.empty_like(x))
    with a run-time size read off another array (``len(x)``, ``x.shape[1]``), that array's."""
    root = _shape_root(v)
    out = {(root.id, axis)}
    node = root.node
    first = {"full": 1, "empty": 0}.get(node.op) if node is not None else None
    if first is not None and axis < len(node.attrs["shape"]) \
            and node.attrs["shape"][axis] is None:
        size = node.inputs[first + sum(d is None for d in node.attrs["shape"][:axis])]
        while size.node is not None and size.node.op == "as_weak":
            size = size.node.inputs[0]
        if size.node is not None and size.node.op == "dim":
            out.add((_shape_root(size.node.inputs[0]).id, size.node.attrs["axis"]))
    return out


def _shape_root(v, depth=_DEPTH, assumed=None):
    """The value whose shape ``v`` has by construction: through ``setitem`` (a write keeps
    the shape) and loop variables whose body hands back a value of their own shape (the
    initial value's shape, by induction: ``assumed`` is the loop variable whose shape the
    body is being checked to keep), so `out[i] = ...` under `range(len(out))` is proven
    although the loop writes a new value of `out` each iteration, nested loops too."""
    while depth > 0:
        depth -= 1
        node = v.node
        if node is not None and node.op == "setitem":
            v = node.inputs[0]
            continue
        loop, k = _carried(v)
        if loop is None:
            return v
        body = loop.regions[1]
        if body.inputs[k] is assumed:
            return v
        if _shape_root(body.outputs[k], depth, body.inputs[k]) is not body.inputs[k]:
            return v
        v = loop.inputs[k]
    return v


def _carried(v):
    """(the while_loop, the position) of a loop variable: a region input of its cond or
    body, or one of its results; else (None, None)."""
    if v.node is not None:
        return (v.node, v.index) if v.node.op == "while_loop" else (None, None)
    loop = _owner(v.graph) if v.graph is not None else None
    if loop is None or loop.op != "while_loop" or v not in v.graph.inputs:
        return None, None
    return loop, v.graph.inputs.index(v)


def _const(v):
    """An int constant's value (ints and bools), or None."""
    c = _number(v)
    return None if c is None or v.type.dtype.kind not in "iub" else int(c)


_MEMO = {}  # (rule, value id, depth) -> result, for one in_bounds question


def _memo(rule):
    def cached(v, depth):
        key = (rule.__name__, v.id, depth)
        if key not in _MEMO:
            _MEMO[key] = rule(v, depth)
        return _MEMO[key]
    cached.__name__ = rule.__name__
    return cached


@_memo
def _lower(v, depth):
    """A lower bound of integer value ``v``, or None."""
    if depth <= 0:
        return None
    c = _const(v)
    if c is not None:
        return c
    node = v.node
    if node is None:
        counter = _loop_counter(v, depth - 1)
        return None if counter is None else _lower(counter[0].inputs[counter[1]], depth - 1)
    if node.op == "dim":
        return 0
    a = [_lower(x, depth - 1) for x in node.inputs[:2]] if node.op in _ARITH else None
    if node.op == "as_weak":
        return _lower(node.inputs[0], depth - 1)
    if node.op == "add" and None not in a:
        return a[0] + a[1]
    if node.op == "subtract" and a[0] is not None:
        b = _const_upper(node.inputs[1], depth - 1)
        return None if b is None else a[0] - b
    if node.op == "multiply" and None not in a and min(a) >= 0:
        return a[0] * a[1]
    if node.op == "maximum":
        known = [x for x in a if x is not None]
        return max(known) if known else None
    if node.op == "minimum" and None not in a:
        return min(a)
    if node.op == "mod":
        m = _lower(node.inputs[1], depth - 1)
        return 0 if m is not None and m >= 1 else None
    return None


_ARITH = ("add", "subtract", "multiply", "maximum", "minimum")


def _const_upper(v, depth):
    """The least constant upper bound of ``v`` known, or None."""
    offs = [off for dim, off in _upper(v, depth) if dim is None]
    return min(offs) if offs else None


def _shift(bounds, by):
    return {(dim, off + by) for dim, off in bounds}


@_memo
def _upper(v, depth):
    """Upper bounds of integer value ``v``: a set of ``(dim, offset)`` (see the module)."""
    if depth <= 0:
        return set()
    c = _const(v)
    if c is not None:
        return {(None, c)}
    node = v.node
    if node is None:
        return _counter_upper(v, depth - 1)
    ins = node.inputs
    if node.op == "dim":
        return {(sym, 0) for sym in _size_syms(ins[0], node.attrs["axis"])}
    if node.op == "as_weak":
        return _upper(ins[0], depth - 1)
    if node.op == "add":
        out = set()
        for a, b in ((ins[0], ins[1]), (ins[1], ins[0])):
            k = _const_upper(b, depth - 1)
            if k is not None:
                out |= _shift(_upper(a, depth - 1), k)
        return out
    if node.op == "subtract":
        k = _lower(ins[1], depth - 1)
        return set() if k is None else _shift(_upper(ins[0], depth - 1), -k)
    if node.op == "multiply":
        for a, b in ((ins[0], ins[1]), (ins[1], ins[0])):
            if _const(b) == 1:
                return _upper(a, depth - 1)
        return set()
    if node.op == "minimum":
        return _upper(ins[0], depth - 1) | _upper(ins[1], depth - 1)
    if node.op == "mod":  # i % m is in [0, m - 1] for m >= 1, whatever the sign of i
        m = _lower(ins[1], depth - 1)
        return _shift(_upper(ins[1], depth - 1), -1) if m is not None and m >= 1 else set()
    if node.op == "maximum":
        a, b = (_const_upper(x, depth - 1) for x in ins)
        return {(None, max(a, b))} if a is not None and b is not None else set()
    return set()


def _owner(region):
    """The region op whose region ``region`` is (cached on the region Graph)."""
    owner = region.__dict__.get("_bounds_owner")
    if owner is None and region.parent is not None:
        for node in region.parent.nodes:
            for r in node.regions:
                r.__dict__["_bounds_owner"] = node
        owner = region.__dict__.get("_bounds_owner")
    return owner


def _loop_counter(v, depth):
    """(the while_loop, the position) when ``v`` is a loop variable of a loop body that
    never decreases (its body hands back ``v + s``, ``L(s) >= 0``), else None."""
    loop = _owner(v.graph) if v.graph is not None else None
    if loop is None or loop.op != "while_loop" or loop.regions[1] is not v.graph:
        return None
    k = v.graph.inputs.index(v) if v in v.graph.inputs else None
    if k is None:
        return None
    nxt = v.graph.outputs[k]
    if nxt is not v:
        node = nxt.node
        if node is None or node.op != "add" or v not in node.inputs[:2]:
            return None
        step = node.inputs[1] if node.inputs[0] is v else node.inputs[0]
        lo = _lower(step, depth - 1)
        if lo is None or lo < 0:
            return None
    return loop, k


def _counter_upper(v, depth):
    """Upper bounds of a loop counter in its loop's body, from the loop's test."""
    counter = _loop_counter(v, depth)
    if counter is None:
        return set()
    loop, k = counter
    test = loop.regions[0]
    low = _lower(loop.inputs[k], depth)
    out = set()
    for a, b, strict in _facts(test.outputs[0], depth):
        if a is not test.inputs[k]:
            continue
        if strict and b.node is not None and b.node.op == "as_weak":
            b = b.node.inputs[0]
        if strict and b.node is not None and b.node.op == "maximum" and low is not None:
            # v < max(n, c) with c <= v: v < n (else max(n, c) = c <= v)
            for n, c in ((b.node.inputs[0], b.node.inputs[1]),
                         (b.node.inputs[1], b.node.inputs[0])):
                cu = _const_upper(c, depth)
                if cu is not None and cu <= low:
                    out |= _shift(_upper(n, depth), -1)
        out |= _shift(_upper(b, depth), -1 if strict else 0)
    return out


def _facts(pred, depth):
    """``(a, b, strict)`` comparisons ``a < b`` (strict) or ``a <= b`` that hold whenever
    the boolean value ``pred`` is true."""
    node = pred.node
    if node is None or depth <= 0:
        return []
    ins = node.inputs
    if node.op == "less":
        return [(ins[0], ins[1], True)]
    if node.op == "greater":
        return [(ins[1], ins[0], True)]
    if node.op == "less_equal":
        return [(ins[0], ins[1], False)]
    if node.op == "greater_equal":
        return [(ins[1], ins[0], False)]
    if node.op == "logical_and":
        return _facts(ins[0], depth - 1) + _facts(ins[1], depth - 1)
    if node.op == "cond" and len(node.outputs) == 1:
        # `a and b` staged: cond(a) { b } else { False }
        false = node.regions[1].outputs[0]
        if _const(false) == 0:
            return _facts(ins[0], depth - 1) + _facts(node.regions[0].outputs[0], depth - 1)
    return []


# -- checks the graph proves true (ir/passes/dce.py drops them) -------------------------------
# A staged Python-int operation is checked for int64 overflow on every call
# (python_numbers.py); most operands are small by construction (`steps += 1`, `i + 1` under
# a `range`), and a check left in a `while` body costs a branch per trip and keeps a cuda
# map on the host. ``proves(pred)`` answers from a bound on each int's magnitude, ``|v| <=
# M(v)``, with two assumptions about what a run can do, stated here once:
# - an array's size (``dim``, ``size``) is below 2**62 elements (no memory holds more);
# - no staged loop runs 2**54 trips in one call (over 200 days at a nanosecond a trip), so
#   a loop variable whose body hands back ``v`` or ``v +/- s`` (``|s| <= M(s)``, through
#   staged `if`s) stays within ``M(initial value) + M(s) * 2**54``.
SIZE_LIMIT, TRIP_LIMIT = 2 ** 62, 2 ** 54
INT64_MAX = 2 ** 63 - 1


def proves(pred):
    """Whether the bool value ``pred`` is true on every run (see above); False when not
    known."""
    _MEMO.clear()
    return _proves(pred, _DEPTH)


def _proves(pred, depth):
    node = pred.node
    if node is None or depth <= 0 or pred.type.ndim:
        return False
    ins = node.inputs
    if node.op == "bounds_ok":  # an explicit bounds check (ops/advanced_index.check_index)
        return _index_below(ins[0], ins[1], depth - 1)
    if node.op == "logical_and":
        return _proves(ins[0], depth - 1) and _proves(ins[1], depth - 1)
    if node.op not in ("less", "less_equal", "greater", "greater_equal"):
        return False
    if node.op == "greater_equal" and _const(ins[1]) == 0 and _sign_test(ins[0], depth):
        return True
    bound = _number(ins[1])
    m = _magnitude(ins[0], depth - 1)
    if bound is None or m is None:
        return False
    return {"less": m < bound, "less_equal": m <= bound,
            "greater": -m > bound, "greater_equal": -m >= bound}[node.op]


def _index_below(i, n, depth):
    """Whether ``0 <= i < n`` on every run, for a 0-d integer index ``i`` and a size ``n``
    (a constant, or ``dim`` of an array): ``in_bounds``' rules."""
    while n.node is not None and n.node.op == "as_weak":
        n = n.node.inputs[0]
    if i.type.ndim or i.type.dtype.kind not in "iu":
        return False
    lo = _lower(i, depth)
    if lo is None or lo < 0:
        return False
    static = _const(n)
    if static is not None:
        return any(dim is None and off < static for dim, off in _upper(i, depth))
    if n.node is None or n.node.op != "dim":
        return False
    me = _size_syms(n.node.inputs[0], n.node.attrs["axis"])
    return any(dim in me and off <= -1 for dim, off in _upper(i, depth))


def _number(v):
    node = v.node
    if node is None or node.op != "const" or v.type.ndim:
        return None
    return node.attrs["value"]


def _sign_test(v, depth):
    """``(a ^ r) & (b ^ r)`` (``r = a + b``) or ``(a ^ b) & (a ^ r)`` (``r = a - b``): not
    negative unless ``r`` overflowed, which ``M(a) + M(b) <= INT64_MAX`` rules out."""
    node = v.node
    if node is None or node.op != "bitwise_and":
        return False
    terms = [x.node.inputs[:2] for x in node.inputs[:2]
             if x.node is not None and x.node.op == "bitwise_xor"]
    for r in {t.id: t for pair in terms for t in pair}.values():
        if r.node is not None and r.node.op in ("add", "subtract") and len(terms) == 2:
            a, b = r.node.inputs[:2]
            ma, mb = _magnitude(a, depth - 1), _magnitude(b, depth - 1)
            return ma is not None and mb is not None and ma + mb <= INT64_MAX
    return False


@_memo
def _magnitude(v, depth):
    """An upper bound of ``|v|`` for an int value (or a float made of ints by ``cast``,
    ``multiply`` and ``abs``), or None."""
    if depth <= 0 or v.type.ndim:
        return None
    kind = v.type.dtype.kind
    c = _number(v)
    if c is not None:
        return abs(int(c)) if kind in "iub" else None
    node = v.node
    if node is None:
        return _loop_magnitude(v, depth - 1)
    if node.op == "while_loop":
        return _loop_magnitude(node.regions[1].inputs[v.index], depth - 1)
    if node.op == "cond":
        outs = [_magnitude(r.outputs[v.index], depth - 1) for r in node.regions]
        return None if None in outs else max(outs)
    ins = [_magnitude(x, depth - 1) if not x.type.ndim else None for x in node.inputs[:2]]
    if kind == "f":
        if node.op == "cast" and node.inputs[0].type.dtype.kind in "iub":
            return ins[0]
        if node.op == "abs":
            return ins[0]
        return ins[0] * ins[1] if node.op == "multiply" and None not in ins else None
    if kind not in "iub":
        return None
    if node.op in ("dim", "size"):
        return SIZE_LIMIT
    if node.op in ("as_weak", "negative", "abs", "cast"):
        return ins[0] if node.inputs[0].type.dtype.kind in "iub" else None
    if None in ins[:len(node.inputs[:2])]:
        return None
    if node.op in ("add", "subtract"):
        return ins[0] + ins[1]
    if node.op == "multiply":
        return ins[0] * ins[1]
    if node.op in ("maximum", "minimum"):
        return max(ins)
    if node.op == "mod":
        return ins[1]
    if node.op == "floor_divide":
        return ins[0]
    return None


def _loop_magnitude(v, depth):
    """``M`` of a while_loop variable (its test's or body's region input): see above."""
    loop = _owner(v.graph) if v.graph is not None else None
    if loop is None or loop.op != "while_loop" or v not in v.graph.inputs:
        return None
    k = v.graph.inputs.index(v)
    body = loop.regions[1]
    start = _magnitude(loop.inputs[k], depth)
    step = _step(body.inputs[k], body.outputs[k], depth)
    return None if start is None or step is None else start + step * TRIP_LIMIT


def _step(v, nxt, depth):
    """A bound of ``|nxt - v|`` for a loop body's hand-back ``nxt`` of variable ``v``."""
    if nxt is v:
        return 0
    node = nxt.node
    if node is None or depth <= 0:
        return None
    if node.op in ("add", "subtract"):  # (v + a) + b: a step of M(a) + M(b)
        pairs = ((0, 1), (1, 0)) if node.op == "add" else ((0, 1),)
        for i, j in pairs:
            before = _step(v, node.inputs[i], depth - 1)
            more = _magnitude(node.inputs[j], depth - 1) if before is not None else None
            if more is not None:
                return before + more
        return None
    if node.op == "cond":
        steps = [_step(v, r.outputs[nxt.index], depth - 1) for r in node.regions]
        return None if None in steps else max(steps)
    return None
