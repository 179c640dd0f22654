"""ag.cond and ag.while_loop: Python control flow when the predicate is a Python value,
staged region ops when it is a symbolic tensor.

Staging traces each branch (or the loop's cond and body) into its own region Graph, then
reconciles the results: same structure, same rank; dtypes promote NumPy-style in a cond,
and in a loop a weak initial value (a Python number) adopts the body's dtype; loop
variables whose sizes change are relaxed to ``None`` in those dimensions and retraced.

Where a merge gives a value a dtype that one path alone would not have (branches of
different dtypes, a loop variable adopting the body's), the value's dtype depends on the
path taken in plain Python; ``noting_path_dtypes`` lets a caller that must know (np.vectorize,
whose NumPy result takes the first element's dtype) hear of each such merge.
"""
import contextlib

import numpy as np

from . import contiguity, dtypes, mutation, nest, region_aliases, storage, variables
from .ir.graph import Graph
from .ir.types import TensorType, relax
from .ops.dispatch import apply, as_value, stage_node
from .ops.registry import public
from .tensor import SymbolicTensor, Tensor, is_symbolic
from .trace.context import current_graph, graph_scope


_OBSERVERS = []  # lists that hear of each merge whose dtype depends on the path


@contextlib.contextmanager
def noting_path_dtypes():
    """Collects, while active, a description of every staged merge that gives a value a
    dtype one of its paths alone would not give it (yields the list)."""
    seen = []
    _OBSERVERS.append(seen)
    try:
        yield seen
    finally:
        _OBSERVERS.remove(seen)


def _path_dtype(what):
    for seen in _OBSERVERS:
        seen.append(what)


DIFFERENT_STRUCTURES = "the true and false branches of ag.cond return different structures"


def _describe(names, i):
    return f"'{names[i]}'" if names and i < len(names) else f"#{i}"


def _is_value(x):
    return isinstance(x, (Tensor, bool, int, float, complex)) or hasattr(x, "dtype")


@public("ag.cond")
def cond(pred, true_fn=None, false_fn=None, name=None, *, output_names=None):
    """Runs ``true_fn()`` or ``false_fn()``; staged when ``pred`` is a symbolic tensor."""
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("ag.cond needs callables true_fn and false_fn")
    if not is_symbolic(pred):
        return true_fn() if bool(pred) else false_fn()
    pred = _as_predicate(pred, "ag.cond")
    outer = current_graph()
    branches, results, ends, at_end, aliases = [], [], [], [], []
    start = mutation.mark()
    for label, fn in (("true", true_fn), ("false", false_fn)):
        g = Graph(f"cond_{label}", parent=outer)
        with graph_scope(g), mutation.scope(start) as log:
            results.append(fn())
            # each array result's value as the branch leaves it (undoing the branch's
            # writes below would otherwise give a result its value from before them)
            leaves = [_lifted_or(x, outer) for x in nest.flatten(results[-1])]
            at_end.append({id(x): x._value for x in leaves if is_symbolic(x)})
            aliases.append(region_aliases.BranchAliases(leaves, start))
        # arrays of the enclosing code written in this branch: their values at its end,
        # then undone, so the other branch starts from the same state
        ends.append({st: st.base for st in log.pre_existing()})
        log.restore()
        branches.append(g)
    t_res, f_res = results
    if not nest.same_structure(t_res, f_res):
        raise ValueError(f"{DIFFERENT_STRUCTURES}: {_shape_str(t_res)} vs {_shape_str(f_res)}")
    t_leaves, f_leaves = nest.flatten(t_res), nest.flatten(f_res)
    out_leaves, staged = [], []
    for i, (a, b) in enumerate(zip(t_leaves, f_leaves)):
        if a is b and isinstance(a, np.ndarray):  # (reads of it find any box it became)
            out_leaves.append(a)
            continue
        # a NumPy array of trace time that a branch turned into a box is that box
        a, b = _lifted_or(a, outer), _lifted_or(b, outer)
        t_leaves[i], f_leaves[i] = a, b
        if a is b and is_symbolic(a):  # the same array in both: it follows its storage
            out_leaves.append(a)
            continue
        if not (_is_value(a) and _is_value(b)) or (
                not is_symbolic(a) and not is_symbolic(b) and _same_python(a, b)):
            if not _same_python(a, b):
                raise ValueError(f"branch output {_describe(output_names, i)} is {a!r} in the "
                                 f"true branch and {b!r} in the false branch; a staged cond "
                                 f"needs tensors (or equal Python values) in both")
            out_leaves.append(a)
            continue
        va = at_end[0][id(a)] if id(a) in at_end[0] else _in_graph(branches[0], a)
        vb = at_end[1][id(b)] if id(b) in at_end[1] else _in_graph(branches[1], b)
        if va.type.ndim != vb.type.ndim:
            raise ValueError(f"branch output {_describe(output_names, i)} has rank "
                             f"{va.type.ndim} in the true branch and {vb.type.ndim} in the "
                             f"false branch; both branches must give the same rank")
        dt = dtypes.result_type(va.type, vb.type)
        if va.type.dtype != vb.type.dtype:
            _path_dtype(f"branch output {_describe(output_names, i)} is {va.type.dtype} in "
                        f"the true branch and {vb.type.dtype} in the false branch")
        weak = va.type.weak and vb.type.weak
        t = TensorType(dt, relax(va.type.shape, vb.type.shape), weak)
        name = f"branch output {_describe(output_names, i)}"
        branches[0].outputs.append(_cast_in(branches[0], va, dt, name))
        branches[1].outputs.append(_cast_in(branches[1], vb, dt, name))
        staged.append((len(out_leaves), t))
        out_leaves.append(None)
    written = sorted(set(ends[0]) | set(ends[1]), key=lambda st: st.serial)
    for st in written:
        for g, end in zip(branches, ends):
            g.outputs.append(end.get(st, st.base))
    n_fixed = len(staged) + len(written)
    finish = region_aliases.merge_results(
        branches, aliases, [(pos, (t_leaves[pos], f_leaves[pos])) for pos, _ in staged],
        start, lambda pos: _name_of(output_names, pos) or "a branch result")
    extra_types = [TensorType(x.type.dtype, relax(x.type.shape, y.type.shape))
                   for x, y in zip(branches[0].outputs[n_fixed:], branches[1].outputs[n_fixed:])]
    outs = stage_node("cond", [pred._value], {}, [t for _, t in staged]
                      + [st.base.type for st in written] + extra_types, regions=branches)
    for (pos, _), o in zip(staged, outs):
        out_leaves[pos] = o
    for st, o in zip(written, outs[len(staged):n_fixed]):
        mutation.set_base(st, o._value)
        variables.region_assigned(st, o._value)
    finish(outs[n_fixed:], out_leaves)
    return nest.pack_as(t_res, out_leaves)


def _lifted_or(x, graph):
    if isinstance(x, np.ndarray):
        box = mutation.lifted(x, graph)
        if box is not None:
            return box
    return x


def _name_of(names, i):
    return names[i] if names and i < len(names) else None


def _same_python(a, b):
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return a is b


def _shape_str(x):
    return repr(nest.structure_key(x))


def _as_predicate(pred, what):
    if pred.ndim != 0:
        raise ValueError(f"the predicate of {what} must be a scalar, got shape {pred.shape}")
    if pred.dtype != dtypes.bool_:
        pred = apply("not_equal", pred, 0)
    return pred


def _in_graph(graph, x):
    with graph_scope(graph):
        return as_value(graph, x)


def _cast_in(graph, value, dt, what=None):
    """``value`` as the merged dtype ``dt`` of a branch or loop variable (``what``). A
    Python number (weak) that ``dt`` cannot hold (`best = -1` where a uint8 element is the
    other path's value; `1e300` in float32), or cannot hold exactly (`b = 0.1` beside a
    float32; `2**53 + 1` beside a float64), is refused, while tracing where it is known
    then, else by a staged check: the cast would give another number (255, inf,
    0.10000000149), where Python keeps its own."""
    if value.type.dtype == dt:
        return value
    with graph_scope(graph):
        if value.type.weak:
            _check_holds(value, dt, what)
            _check_exact(value, dt, what)
        return apply("cast", SymbolicTensor(value), dtype=dt)._value


def check_python_number(x, dt, lead):
    """Refuses a Python number ``x`` (a Python int or float, or a weak 0-d tensor) that
    ``dt`` cannot hold, or not exactly, as ``_cast_in`` refuses one merged into ``dt``:
    an item of a list of ``dt`` rows that a staged loop or branch carries (`st[-1] = 0.1`
    of float32 rows kept float32's 0.10000000149 where Python's list holds 0.1). ``lead``
    says what takes it (the message goes on ", which cannot hold the number ...")."""
    graph = current_graph()
    if graph is None or isinstance(x, bool) or not (
            isinstance(x, (int, float)) and not isinstance(x, np.generic)
            or isinstance(x, SymbolicTensor) and x.type.weak and not x.type.ndim):
        return
    value = as_value(graph, x)
    if value.type.dtype != dt:
        _check_holds(value, dt, None, lead)
        _check_exact(value, dt, None, lead)


def _refused_text(what, dt, detail, lead=None):
    lead = lead or (f"{what or 'a variable'} is a Python number on one path and {dt} on "
                    f"another: the compiled function gives it one dtype, {dt}")
    return f"{lead}, which cannot hold the number {{}}{detail}"


def _check_holds(value, dt, what, lead=None):
    dt = np.dtype(dt)
    if dt.kind in "iu" and value.type.dtype.kind in "iu":
        lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
    elif dt.kind == "f" and value.type.dtype.kind == "f" and dt.itemsize < 8:
        lo, hi = -float(np.finfo(dt).max), float(np.finfo(dt).max)
    else:
        return
    text = _refused_text(what, dt, f" (Python keeps it as it is); start it from a value of "
                         f"{dt}'s range, or make both paths give a wider dtype "
                         f"(x.astype(np.int64), float(v))", lead)

    def staged(v):
        low, high = lo, hi
        if value.type.dtype.kind in "iu":  # (a bound beyond the value's own dtype always
            # holds: a weak int64 counter into uint64 needs only `v >= 0`)
            own = np.iinfo(value.type.dtype)
            low, high = (None if lo <= own.min else lo), (None if hi >= own.max else hi)
        checks = ([apply("greater_equal", v, low)] if low is not None else []) + (
            [apply("less_equal", v, high)] if high is not None else [])
        if not checks:
            return None
        fits = checks[0] if len(checks) == 1 else apply("logical_and", *checks)
        if dt.kind == "f":
            fits = apply("logical_or", fits, apply("logical_not", apply("isfinite", v)))
        return fits

    _refused_unless(value, text, lambda c: lo <= c <= hi or (
        dt.kind == "f" and not np.isfinite(c)), staged)


def _check_exact(value, dt, what, lead=None):
    """A Python number merged into a float dtype that rounds it: a float into float32 or
    float16 (`b = 0.1` beside a float32 element: Python's run keeps 0.1 and returns or
    compares it, the merge gave 0.10000000149), an int past the float's exact integers
    (`2**24 + 1` into float32, `2**53 + 1` into float64). Refused (a value out of range
    is _check_holds' refusal, made first)."""
    dt, own = np.dtype(dt), value.type.dtype
    if dt.kind != "f" or not (own.kind in "iu" or own.kind == "f"
                              and dt.itemsize < np.dtype(own).itemsize):
        return
    text = _refused_text(what, dt, f" exactly (it rounds it; Python keeps the number as it "
                         f"is): start it as a {dt} (np.{dt}(...), or x.dtype.type(...)), or "
                         f"make both paths give a wider dtype (x.astype(np.float64))", lead)

    def exact(c):
        if isinstance(c, (float, np.floating)) and not np.isfinite(c):
            return True
        with np.errstate(over="ignore"):
            rounded = dt.type(c)
        return bool(np.isfinite(rounded)) and float(rounded) == c

    def staged(v):
        back = apply("cast", apply("cast", v, dtype=dt), dtype=own)
        if own.kind == "f":
            return apply("logical_or", apply("equal", back, v),
                         apply("logical_not", apply("isfinite", v)))
        # (an int64 past 2**62 would come back from the float through an undefined cast)
        return apply("logical_and", apply("less", apply("abs", v), 2 ** 62),
                     apply("equal", back, v))

    _refused_unless(value, text, exact, staged)


def _refused_unless(value, text, holds, staged):
    """Refuses (``NotImplementedError`` ``text``, formatted with the number) a Python number
    ``value`` where ``holds`` of it is False while tracing, for a constant; else by the
    staged check ``staged`` of it (None: none needed), raising on the runs it fails."""
    node = value.node
    if node is not None and node.op == "const":
        if not holds(node.attrs["value"]):
            raise NotImplementedError(text.format(node.attrs["value"]))
        return
    v = SymbolicTensor(value)
    fits = staged(v)
    if fits is None:
        return
    apply("assert", fits, v, error="NotImplementedError", message=text.format("?"),
          parts=(text.split("{}")[0], (-1, "", "float" if v.type.dtype.kind == "f" else "int"),
                 text.split("{}")[1]))


@public("ag.while_loop")
def while_loop(cond, body, loop_vars, maximum_iterations=None, name=None, *,
               loop_var_names=None):
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``.

    Runs as a Python loop while everything is a Python value; from the first iteration
    whose condition is a symbolic tensor on, the rest of the loop is staged.
    """
    single = not isinstance(loop_vars, (tuple, list))
    vars_ = (loop_vars,) if single else tuple(loop_vars)
    if maximum_iterations is not None:
        out = _with_max_iterations(cond, body, vars_, maximum_iterations, loop_var_names)
    else:
        out = _while(cond, body, vars_, loop_var_names)
    if single:
        return out[0]
    if isinstance(loop_vars, tuple) and hasattr(loop_vars, "_fields"):
        return type(loop_vars)(*out)
    return type(loop_vars)(out)


def _as_vars(new, vars_):
    """The body's result as a tuple of loop variables (a lone value for one variable)."""
    if len(vars_) == 1 and nest.same_structure(new, vars_[0]) and not (
            isinstance(new, (tuple, list)) and len(new) == 1
            and nest.same_structure(new[0], vars_[0])):
        return (new,)
    if not isinstance(new, (tuple, list)):
        raise ValueError(f"the loop body must return the same structure as loop_vars "
                         f"({len(vars_)} variables), got one {type(new).__name__}")
    return tuple(new)


def _while(cond, body, vars_, names):
    while True:
        if any(is_symbolic(v) for v in nest.flatten(vars_)):
            # staged: cond is traced in the loop's own graph; evaluating it here as well
            # would leave its stateful ops (py_func, print) in the outer graph, run once more
            return _staged_while(cond, body, vars_, names)
        c, staged = probe_condition(cond, *vars_)
        if staged:
            return _staged_while(cond, body, vars_, names)
        if not bool(c):
            return vars_
        vars_ = _as_vars(body(*vars_), vars_)


def probe_condition(test, *args):
    """``(test(*args), False)`` for a Python result; ``(None, True)`` for a symbolic one,
    with what the probe staged in the current graph dropped: the staged loop traces the
    condition again in its own graph, where it also makes the first test, and stateful
    ops left here (py_func, print) would run once more per call."""
    graph = current_graph()
    mark = len(graph.nodes) if graph is not None else 0
    lifted = mutation.lifted_arrays(graph)
    with mutation.scope() as log:
        c = test(*args)
    if is_symbolic(c):
        graph.drop_from(mark)
        log.restore()
        # an array of trace time the probe made a box of (`v if c else u` leaving a staged
        # branch) has that box's value among the nodes dropped: it is an array again
        mutation.forget_lifts(graph, lifted)
        return None, True
    return c, False


def _with_max_iterations(cond, body, vars_, limit, names):
    def c(i, *v):
        if not (is_symbolic(i) or is_symbolic(limit)) and not i < limit:
            return False  # a Python loop stops without evaluating cond again
        inner = cond(*v)
        if is_symbolic(inner) or is_symbolic(i) or is_symbolic(limit):
            return apply("logical_and", apply("less", i, limit), inner)
        return bool(inner)

    def b(i, *v):
        return (i + 1,) + _as_vars(body(*v), v)
    out = _while(c, b, (0,) + vars_, ["<iteration counter>"] + list(names or []))
    return out[1:]


def _staged_while(cond, body, init, names):
    """Stages the loop. Loop variables are carried by value (a placeholder per variable),
    except arrays that the body updates without rebinding them (``out[i] = v``): those
    keep their identity (the same tensor object, so every alias sees the update) and
    their storage is carried instead, as is every other array of the enclosing code the
    body writes into (mutation.py). Which is which is found by tracing, retracing while
    the answer or a variable's type changes."""
    outer = current_graph()
    leaves = nest.flatten(init)
    for i, x in enumerate(leaves):
        if not _is_value(x):
            raise TypeError(f"loop variable {_describe(names, i)} is {x!r} of type "
                            f"{type(x).__name__}, which a staged loop cannot carry: loop "
                            f"variables must be tensors or numbers")
    start = mutation.mark()
    # (a 0-d NumPy-array argument is an array too: `a *= 2` writes the caller's)
    identity = [is_symbolic(x) and (x.ndim > 0 or mutation.is_argument(x)) for x in leaves]
    carried = []
    for x, ident in zip(leaves, identity):
        if ident and storage.storage_of(x) not in carried:
            carried.append(storage.storage_of(x))
    vtypes = {i: as_value(outer, x).type for i, x in enumerate(leaves) if not identity[i]}
    # a loop variable's layout (contiguity.py): its initial value's, while the body keeps it
    layouts = {i: contiguity.value_is_c(x._value) for i, x in enumerate(leaves)
               if is_symbolic(x) and x.ndim > 0}
    aliases = region_aliases.LoopAliases(leaves, start, names)
    written = []
    # A carried storage whose base agrees with its options (a merge's buffers) at entry
    # and at the end of every trip agrees in its placeholder too: reads of it inside the
    # loop and after it are its base, not a select of an older buffer by its flag, which
    # would keep that buffer read on every trip (and copied before each in-place update
    # of the variable: a stack pushed after an inner popping loop, O(n^2)).
    synced_at_entry, in_sync = {}, {}
    with mutation.loop_entry(start, outer):
        for _ in range(8):
            vpos = [i for i in range(len(leaves)) if not identity[i]]
            types = [vtypes[i] for i in vpos]
            saved = [(st, st.base) for st in carried]
            for st in carried:
                if st not in synced_at_entry:
                    synced_at_entry[st] = in_sync[st] = mutation.in_sync(st)
            ctypes = [st.base.type for st in carried]
            n_flags = len(aliases.flag_keys(vpos))

            def enter(g):
                phs = [SymbolicTensor(g.add_input(t)) for t in types]
                for i, p in zip(vpos, phs):
                    contiguity.mark_input(p._v, None, layouts.get(i, False))
                for st, t in zip(carried, ctypes):
                    param = g.add_input(t)
                    contiguity.stand_in(param, st.first)  # (the buffer keeps its layout)
                    mutation.rebase(st, param)
                mutation.mark_synced([st for st in carried if in_sync[st]])
                aliases.attach(phs, vpos, [SymbolicTensor(g.add_input(_FLAG))
                                           for _ in range(n_flags)])
                args = list(leaves)
                for i, p in zip(vpos, phs):
                    args[i] = p
                return phs, nest.pack_as(init, args)

            try:
                with mutation.shielded(carried):
                    (cond_g, body_g, ph_b, res, outs, carried_outs, ends_in_sync, log,
                     flag_outs, changed) = _trace_loop_regions(
                        cond, body, init, names, outer, start, enter, vpos, carried, aliases)
            finally:
                for st, base in saved:
                    mutation.rebase(st, base)
                mutation.mark_synced([st for st, _ in saved if synced_at_entry[st]])
            for st, agrees in zip(carried, ends_in_sync):
                if in_sync[st] and not agrees:  # the body writes an option's buffer only
                    in_sync[st], changed = False, True
            for i, x in enumerate(leaves):
                if identity[i] and res[i] is not x:  # rebound in the body: carried by value
                    identity[i], changed = False, True
                    vtypes[i] = as_value(outer, x).type
            for i, p, o in zip(vpos, ph_b, outs):
                if p._storage is not None and p._storage in log.before:  # written in the body
                    if res[i] is p and is_symbolic(leaves[i]):
                        identity[i], changed = True, True  # updated, never rebound: identity
                        if storage.storage_of(leaves[i]) not in carried:
                            carried.append(storage.storage_of(leaves[i]))
                if layouts.get(i) and not contiguity.value_is_c(getattr(o, "_value", o)):
                    layouts[i], changed = False, True  # the body changes its layout
                if not identity[i]:
                    merged = _merge_loop_type(i, vtypes[i], o.type, names)
                    changed |= merged != vtypes[i]
                    vtypes[i] = merged
            for st in log.pre_existing():
                if st not in written:  # an array of the enclosing code the body writes into
                    written.append(st)
            # carried: the arrays of identity variables and the arrays the body writes
            new_carried = []
            for st in [storage.storage_of(x) for x, ident in zip(leaves, identity) if ident] \
                    + written:
                if st not in new_carried:
                    new_carried.append(st)
            changed |= new_carried != carried
            carried = new_carried
            if not changed:
                break
        else:
            raise ValueError("loop variable types did not settle after 8 retraces")
    for i, o in zip(vpos, outs):
        body_g.outputs.append(_cast_in(body_g, o, vtypes[i].dtype,
                                       f"loop variable {_describe(names, i)}"))
    body_g.outputs.extend(carried_outs)
    body_g.outputs.extend(flag_outs)
    init_cast = [_cast_in(outer, as_value(outer, leaves[i]), vtypes[i].dtype,
                          f"loop variable {_describe(names, i)}") for i in vpos]
    results = stage_node("while_loop", init_cast + [st.base for st in carried]
                         + aliases.init_flags(outer, vpos), {},
                         types + ctypes + [_FLAG] * len(flag_outs), regions=[cond_g, body_g])
    out_leaves = list(leaves)
    for i, o in zip(vpos, results):
        out_leaves[i] = o
    n_fixed = len(vpos) + len(carried)
    for st, o in zip(carried, results[len(vpos):n_fixed]):
        if st in written:  # (an identity variable's array the body never wrote is unchanged)
            mutation.set_base(st, o._value)
            variables.region_assigned(st, o._value)
    mutation.mark_synced([st for st in carried if in_sync.get(st)])
    aliases.finish(out_leaves, vpos, results[n_fixed:])
    return tuple(nest.pack_as(init, out_leaves))


_FLAG = TensorType(dtypes.bool_, ())


def _trace_loop_regions(cond, body, init, names, outer, start, enter, vpos, carried, aliases):
    """One attempt of _staged_while: the cond and body regions traced, their writes
    undone afterwards (the caller puts the carried storages back)."""
    cond_g, body_g = Graph("while_cond", outer), Graph("while_body", outer)
    with graph_scope(cond_g), mutation.scope(start) as log:
        ph_c, args = enter(cond_g)
        c = cond(*args)
        c = _as_predicate(c if is_symbolic(c) else apply("cast", c, dtype=dtypes.bool_),
                          "a while loop condition")
        cond_g.outputs.append(c._value)
    _refuse_condition_writes(log, ph_c, carried, names, vpos)
    log.restore()
    with graph_scope(body_g), mutation.scope(start, loop=True) as log:
        ph_b, args = enter(body_g)
        res = _as_vars(body(*args), init)
        if not nest.same_structure(res, init):
            raise ValueError("the loop body must return the same structure as loop_vars: "
                             f"{_shape_str(init)} vs {_shape_str(res)}")
        res = nest.flatten(res)
        outs = [as_value(body_g, res[i]) for i in vpos]
        flag_outs, changed = aliases.body_flags(res, vpos, body_g)
        carried_outs = [st.base for st in carried]
        ends_in_sync = [mutation.in_sync(st) for st in carried]
    log.restore()
    return (cond_g, body_g, ph_b, res, outs, carried_outs, ends_in_sync, log, flag_outs,
            changed)


def _refuse_condition_writes(log, placeholders, carried, names, vpos):
    """A loop condition that writes into an array of the loop or the enclosing code:
    the while op carries no state out of its condition, so it is refused."""
    for i, p in zip(vpos, placeholders):
        if p._storage is not None and p._storage in log.before:
            raise NotImplementedError(f"the condition of a staged loop writes into loop "
                                      f"variable {_describe(names, i)}; move the write into "
                                      f"the loop body")
    if log.pre_existing():
        raise NotImplementedError(
            f"the condition of a staged loop writes into "
            f"{mutation.describe(log.pre_existing())}; move the write into the loop body")


def _merge_loop_type(i, t, o, names):
    if t.ndim != o.ndim:
        raise ValueError(f"loop variable {_describe(names, i)} changes rank in the loop: "
                         f"it is {t} before and {o} after an iteration; a staged loop "
                         f"variable must keep its rank")
    dt = t.dtype
    if o.dtype != t.dtype:
        if t.weak and dtypes.result_type(t, o.strong()) == o.dtype:
            dt = o.dtype
        elif not (o.weak and dtypes.result_type(t, o) == t.dtype):
            raise TypeError(f"loop variable {_describe(names, i)} changes dtype in the loop: "
                            f"it is {t.dtype} before and {o.dtype} after an iteration; cast "
                            f"it (e.g. ag.cast or .astype) so it keeps one dtype")
        _path_dtype(f"loop variable {_describe(names, i)} is {t.dtype} before the loop "
                    f"and {o.dtype} after a trip")
    weak = t.weak and o.weak
    return TensorType(dt, relax(t.shape, o.shape), weak)
