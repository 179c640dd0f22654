"""ag.py_func / ag.numpy_function and ag.py_function / ag.eager_py_func (SPEC §4).

Eagerly the callback just runs. While tracing, the call becomes one opaque node
(ops/callback.py) that the interpreter and compiled kernels run at its place in program
order on every execution -- inside staged ``ag.cond`` branches and once per iteration of
staged ``ag.while_loop`` bodies too. How a bare-dtype ``Tout`` gets its rank, how kernels
reach the callable and what is validated: see the docstring of ops/callback.py.
"""
import dis
import types

import numpy as np

from .. import dtypes, errors, nest
from ..ops.callback import Text, _Site, callback_name, spec_text, staged_outs
from ..ops.check_errors import CallbackRaised
from ..ops import dispatch
from ..ops.dispatch import as_value, convert_to_tensor, stage_node, wrap
from ..ops.registry import OPS, public
from ..tensor import EagerTensor, SymbolicTensor, TensorSpec, is_tensor_value
from ..trace.context import current_graph


@public("ag.py_func", "ag.numpy_function")
def py_func(func, inp, Tout, stateful=True, name=None):
    """Wraps a NumPy function as an op: ``func(*arrays) -> array(s)``.

    ``inp``: a list of tensors/arrays/numbers (0-d ones arrive as NumPy scalars, the others
    as read-only arrays). ``Tout``: a dtype or ``ag.TensorSpec`` (one output, returns a
    tensor), a list/tuple of them (returns a list), ``[]`` (no output, returns ``[]``) or
    ``None`` (returns ``None``). ``stateful=False`` promises a pure function: identical
    calls may be merged and unused ones dropped. Not differentiable.
    """
    return _call("py_func" if stateful else "py_func_stateless", "py_func", func, inp, Tout,
                 name)


@public("ag.py_function", "ag.eager_py_func")
def py_function(func, inp, Tout, name=None):
    """Like :func:`py_func`, but ``func`` receives eager tensors and may use ag ops."""
    return _call("py_function", "py_function", func, inp, Tout, name)


def _numpy(x):
    return x.numpy() if isinstance(x, EagerTensor) else x


def _parse_tout(Tout, what):
    def one(t):
        if isinstance(t, TensorSpec):
            dt = dtypes.as_dtype(t.dtype, f"{what}: Tout")
            return (dt, None, False) if t.shape is None else (dt, tuple(t.shape), True)
        return (dtypes.as_dtype(t, f"{what}: Tout"), None, False)
    if Tout is None:
        return (), None
    if isinstance(Tout, (list, tuple)):
        return tuple(one(t) for t in Tout), "list"
    return (one(Tout),), "single"


def _as_input(x):
    if is_tensor_value(x):
        return x
    if isinstance(x, (bool, int, float, complex)):
        return np.asarray(x)[()]  # a strong NumPy scalar: the callback sees its dtype
    return np.asarray(x)


def _call(op_name, kind, func, inp, Tout, name):
    if not callable(func):
        raise TypeError(f"ag.{kind} needs a callable, got {func!r:.60}")
    label = callback_name(func, name)
    outs, form = _parse_tout(Tout, f"ag.{kind} '{label}'")
    tout = Text(spec_text(outs if form else None, form == "single"))
    if inp is None:
        inp = []
    elif not isinstance(inp, (list, tuple)):
        inp = [inp]
    args = [_as_input(x) for x in inp]
    graph = current_graph()
    if graph is None and kind == "py_function" and dispatch.RECORDERS:
        # a tape records: the body runs on the caller's tensors, so the tape sees its ops
        res = func(*[convert_to_tensor(a) for a in args])
        listed = [] if res is None else list(res) if isinstance(res, (list, tuple)) else [res]
        _Site(kind, func, label, tout, outs).check(  # (Tout's count, dtypes and shapes)
            [_numpy(r) for r in listed] if isinstance(res, (list, tuple)) else _numpy(res))
        results = [r if isinstance(r, EagerTensor) else wrap(r) for r in listed]
    elif graph is None:
        site = _Site(kind, func, label, tout, outs)
        raw = site(*[a._np if isinstance(a, EagerTensor) else a for a in args])
        results = [] if raw is None else [wrap(r) for r in
                                          (raw if isinstance(raw, tuple) else (raw,))]
    else:
        given = [as_value(graph, a) for a in args]
        func, held = _closure_inputs(func, kind, label)
        values = given + [as_value(graph, a) for a in held]
        attrs = {"func": func, "Tout": tout,
                 "_outs": staged_outs(outs, [v.type for v in given])}
        if name is not None:
            attrs["name"] = str(name)
        guarded = dispatch.check_carries_state()
        if guarded:
            attrs["guarded"] = True
            # (the state written and bound so far, stored before the call: the callback
            # sees it where Python's would, partial_raise.sync)
            state, index = dispatch.CHECK_PLAN(graph)
            values += list(state)
            attrs["sync"] = (index, len(state))
        loc = errors.user_location()
        results = stage_node(op_name, values, attrs,
                             OPS[op_name].infer([v.type for v in values], **attrs), loc=loc)
        if guarded:  # (raised after the writes and bindings made before it, as Python's)
            *results, returned = results
            dispatch.apply("assert", returned, error="Exception", original=CallbackRaised,
                           message=f"the {kind} callback '{label}' raised")
    if form is None:
        return None
    if form == "single":
        return results[0]
    return list(results)


def _closure_inputs(func, kind, label):
    """(callable, extra inputs) of a callback staged now, which runs when the kernel runs,
    after the trace: as Python calls it at its place in the program, it must see the
    variables it closes over as they are now.
    - A value of the trace (a tensor that exists only when the kernel runs: `lambda v: v *
      k` where the argument `k` relaxed on its second value, `m = x.mean()`) becomes an
      input of the node, and the callback is called as a copy of itself whose cell (or
      default) holds that value: a relaxed Python number as a Python number, an array as
      its inputs arrive; also through a function it closes over (`g = lambda v: v * k`,
      then `lambda v: g(v) + 1`). Inside a container: refused, naming it.
    - A function made by the converted code (a lambda of the traced function) keeps the
      values its cells hold now: the trace goes on and may rebind them (`for i in
      range(3): py_func(lambda v: v + i, ...)` would see the last `i`). A closure made
      elsewhere keeps its own cells (a counter it updates from call to call)."""
    plan = _closure_plan(func, kind, label, set())
    if plan is None:
        return func, []
    build, held = plan
    if not held:
        return build([]), []
    n = len(held)

    def with_values(*args):
        values = [v.item() if weak else v for (weak, _), v in zip(held, args[-n:])]
        return build(values)(*args[:-n])
    with_values.__name__ = func.__name__
    return with_values, [t for _, t in held]


def _closure_plan(func, kind, label, seen):
    """(build(values) -> the function with ``values`` in its cells, [(weak, tensor)] the
    values it needs), or None where ``func`` is to be called as it is."""
    if not isinstance(func, types.FunctionType) or id(func) in seen:
        return None
    seen.add(id(func))
    code = func.__code__
    defaults = list(func.__defaults__ or ())
    names = code.co_freevars + code.co_varnames[code.co_argcount - len(defaults):
                                                 code.co_argcount]
    fresh = errors.is_generated(code.co_filename)
    written = _nonlocal_writes(code)
    if fresh and written:
        raise NotImplementedError(
            f"the ag.{kind} callback '{label}' at {errors.user_location()} assigns "
            f"'{written[0]}' of the traced function (`nonlocal`): it runs when the compiled "
            f"function runs, after the trace, where that variable no longer changes (and "
            f"would keep counting from call to call); return the value from the callback "
            f"instead")
    cells = []
    for c in func.__closure__ or ():
        try:
            cells.append(types.CellType(c.cell_contents) if fresh else c)
        except ValueError:  # (not bound yet: it is read when the callback runs)
            cells.append(c)
    held, slots = [], []  # slots: (position, build or None for a tensor, first, count)
    for k, v in enumerate([_contents(c) for c in cells] + defaults):
        if isinstance(v, SymbolicTensor):
            slots.append((k, None, len(held), 1))
            held.append((dispatch.weak_scalar(v), v))
            continue
        inner = _closure_plan(v, kind, label, seen)
        if inner is not None and inner[1]:
            slots.append((k, inner[0], len(held), len(inner[1])))
            held += inner[1]
        elif inner is None and any(isinstance(u, SymbolicTensor) for u in nest.flatten(v)):
            raise NotImplementedError(
                f"the ag.{kind} callback '{label}' at {errors.user_location()} reads "
                f"'{names[k]}', a container holding tensors whose values exist only when the "
                f"compiled function runs: pass them in the callback's inputs instead")
    if not (held or fresh):
        return None

    def build(values):
        new_cells, new_defaults = list(cells), list(defaults)
        for k, inner, first, count in slots:
            v = values[first] if inner is None else inner(values[first:first + count])
            if k < len(cells):
                new_cells[k] = types.CellType(v)
            else:
                new_defaults[k - len(cells)] = v
        f = types.FunctionType(code, func.__globals__, func.__name__,
                               tuple(new_defaults) or None, tuple(new_cells) or None)
        f.__kwdefaults__ = func.__kwdefaults__
        return f
    return build, held


def _nonlocal_writes(code):
    """The variables of an enclosing function that ``code`` assigns (`nonlocal n; n += 1`)."""
    return [i.argval for i in dis.get_instructions(code)
            if i.opname in ("STORE_DEREF", "DELETE_DEREF") and i.argval in code.co_freevars]


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


__all__ = ["py_func", "numpy_function", "py_function", "eager_py_func"]
