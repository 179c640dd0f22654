"""Which traced arrays NumPy's own run would hold C-contiguous, known at trace time.

Why it matters: ``y = x.reshape(...)`` (and ``ravel``) is a view of ``x`` when ``x`` is
C-contiguous and, otherwise, a view or a copy depending on its strides. A write through
``y``, or a read of ``y`` after ``x`` was written, differs between the two; the Graph is
functional, so mutation.py must decide at trace time. This module answers "is this
array C-contiguous on every run?" soundly: True only when NumPy guarantees it, False
when unknown (mutation.py then refuses what would depend on it: a wrong answer is the
worst bug).

The rules, from NumPy's behaviour (checked in tests/test_contiguity.py):
- A NumPy-array argument: its flags at trace time. The trace then depends on them, so
  the ConcreteFunction records them (``used_inputs``) and function.py traces again for
  an argument whose flag differs (sizes relax; layouts do not).
- An op's result, by the op table's ``layout`` (ops/registry.py): ``"inputs"`` (ufuncs,
  reductions, matmul, creation, concat...: NumPy's default order gives a C-contiguous
  result when every array input is), ``"first"`` (the buffer of input 0: setitem),
  ``"branches"``/``"carried"`` (a cond's result when every branch's is; a loop variable when
  its initial value and the body's result are, a fixpoint), ``"fresh"`` (always: a new
  C array whatever the inputs, vectorized_map's stacked results), or ``"unknown"`` (callbacks:
  anything may come back). A constant: its flags.
- A basic-indexing view of a C-contiguous array is C-contiguous when it selects one block:
  every axis after the last partly-selected one is a full ``:``, that axis is an index or
  a step-1 slice, and every axis before it is an index (``x[i]``, ``x[2:5]``, ``x[i, 1:3]``;
  not ``x[:, 1:3]`` or ``x[::2]``). ``squeeze``/``expand_dims`` keep it, a reshape that is a
  view makes it, ``transpose`` keeps it only in one dimension, ``split`` only on axis 0.
"""
from .ir.graph import root_graph
from .ops.index_spec import expand_spec
from .ops.registry import OPS
from .storage import step_output, storage_of

_INPUTS = "_c_contiguous_inputs"   # root graph: {input Value id: (leaf index, flag)}
_USED = "_c_contiguous_used"       # root graph: {leaf index: flag} the trace relied on


def mark_input(value, leaf, flag):
    """Function argument ``value`` (leaf ``leaf`` of the call) is an array whose
    C-contiguity at trace time is ``flag``; or (``leaf`` None) a region's parameter that
    stands for such a value: a loop variable, assumed to keep its initial value's layout
    (control.py checks the body's result and traces again when it does not)."""
    root_graph(value.graph).__dict__.setdefault(_INPUTS, {})[value.id] = (leaf, flag)


def stand_in(param, value):
    """Marks region parameter ``param`` as having the layout of the Value ``value`` it
    stands for; returns that layout."""
    flag = value.type.ndim > 0 and value_is_c(value)
    mark_input(param, None, flag)
    return flag


def used_inputs(graph):
    """{leaf index: flag} of the arguments whose layout the trace of ``graph`` relied on."""
    return dict(graph.__dict__.get(_USED, {}))


def used_by_input(graph):
    """``used_inputs`` by graph input position instead of argument leaf (export.py)."""
    used, known = used_inputs(graph), graph.__dict__.get(_INPUTS, {})
    out = {}
    for i, v in enumerate(graph.inputs):
        leaf, flag = known.get(v.id, (None, None))
        if leaf is not None and leaf in used:
            out[i] = flag
    return out


def _input_flag(value):
    root = root_graph(value.graph)
    known = root.__dict__.get(_INPUTS, {}).get(value.id)
    if known is None:
        return False  # a region's parameter (a loop variable), an ag.Tensor, a spec
    leaf, flag = known
    if leaf is not None:
        root.__dict__.setdefault(_USED, {})[leaf] = flag
    return flag


def value_is_c(value, _memo=None):
    """Whether NumPy's array for graph Value ``value`` is C-contiguous on every run."""
    memo = {} if _memo is None else _memo
    if value.id in memo:
        return memo[value.id]
    memo[value.id] = False  # (a cycle cannot occur in SSA; this only guards the recursion)
    node = value.node
    if value.type.ndim == 0:
        out = True
    elif node is None:
        out = _input_flag(value)
    elif node.op == "const":
        flags = getattr(node.attrs.get("value"), "flags", None)
        out = flags is None or bool(flags.c_contiguous)
    else:
        layout = node.opdef.layout
        if layout == "first":
            out = value_is_c(node.inputs[0], memo)
        elif node.opdef.view:
            out = value_is_c(node.inputs[0], memo) and step_keeps_c(
                node.op, node.attrs, node.inputs[0].type, value.type, value.index)
        elif layout == "inputs":
            out = all(value_is_c(v, memo) for v in node.inputs if v.type.ndim)
        elif layout == "branches":
            out = all(value_is_c(r.outputs[value.index], memo) for r in node.regions)
        elif layout == "carried":
            out = value.index in _carried_c(node, memo)
        elif layout == "fresh":
            out = True
        else:
            out = False
    memo[value.id] = out
    return out


def _carried_c(node, memo):
    """The loop variables of while_loop ``node`` that are C-contiguous on every trip:
    the largest set whose initial values are, and whose body results are when they are
    (a fixpoint from the optimistic guess, each round dropping what fails)."""
    key = ("carried", id(node))
    if key in memo:
        return memo[key]
    body = node.regions[1]
    alive = {k for k, v in enumerate(node.inputs) if value_is_c(v, memo)}
    while True:
        assumed = dict(memo)
        for k, p in enumerate(body.inputs):
            assumed[p.id] = k in alive
        keep = {k for k in alive if value_is_c(body.outputs[k], assumed)}
        if keep == alive:
            break
        alive = keep
    memo[key] = alive
    return alive


def step_keeps_c(op, attrs, parent_type, out_type, index=0):
    """Whether view ``op`` of a C-contiguous array is C-contiguous (``index``: which
    output, for split)."""
    if op in ("real", "imag"):
        return False  # every other float of a complex buffer
    if out_type.ndim <= 1 and op != "getitem":
        return True
    if op in ("squeeze", "expand_dims", "reshape", "reshape_as"):
        return True  # (a reshape is a view here only of a C-contiguous array)
    if op == "split":
        return attrs.get("axis", 0) % parent_type.ndim == 0
    if op == "getitem":
        return _selects_one_block(attrs["spec"], parent_type.ndim)
    return False  # transpose of two or more dimensions


def _selects_one_block(spec, ndim):
    parts = [s for s in expand_spec(spec, ndim) if s[0] != "new"]
    if any(s[0] in ("gather", "mask") for s in parts):
        return False  # (a copy: not a view at all)
    full = [s[0] == "slice" and s[1:] == (None, None, None) for s in parts]
    partial = [k for k, f in enumerate(full) if not f]
    if not partial:
        return True
    p = partial[-1]
    s = parts[p]
    if s[0] == "slice" and s[3] not in (None, ("c", 1)):
        return False
    return all(parts[k][0] in ("int", "tint") for k in range(p))


def box_is_c(box):
    """Whether tensor ``box`` (a SymbolicTensor) is C-contiguous on every run: its
    storage's root (mutation.py) viewed through its chain."""
    s = storage_of(box)
    ok = value_is_c(s.first)  # (a merge: its region result, C when every buffer it may be is)
    parent = s.base.type
    for op, attrs, extra in box._chain:
        if not ok:
            return False
        out = _step_type(op, attrs, extra, parent)
        ok = step_keeps_c(op, attrs, parent, out, step_output(attrs)[1] or 0)
        parent = out
    return ok


def _step_type(op, attrs, extra, parent):
    attrs, k = step_output(attrs)
    return OPS[op].infer([parent] + [x.type for x in extra], **attrs)[k or 0]

