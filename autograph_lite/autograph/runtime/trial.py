"""Initial values for staged loop variables that have none yet, or are Python lists.

A variable first set inside a staged loop (the return value `retval_`, a temporary used
after the loop) needs a typed initial value, and so does a list the loop appends to
(carried as one stacked tensor). As TF AutoGraph does, one iteration is traced into a
scratch graph that is then thrown away, with the other loop variables as symbolic
placeholders; the types it produces give zero placeholders. While that trial runs,
a staged `if` fills a variable set in only one branch with zeros (`active()`), since
the trial only asks what type a variable takes when it is set.
"""

import contextlib

import numpy as np

from autograph_lite.autograph.runtime import core, staging
from autograph_lite.autograph.runtime.variables import Undefined, is_undefined

_DEPTH = [0]


def active():
    return _DEPTH[0] > 0


@contextlib.contextmanager
def _scratch_graph():
    context = core.module("autograph_lite.trace.context")
    graph = core.module("autograph_lite.ir.graph")
    g = graph.Graph("autograph_trial", parent=context.current_graph())
    _DEPTH[0] += 1
    try:
        with context.graph_scope(g):
            yield g
    finally:
        _DEPTH[0] -= 1


def _placeholder_input(g, value):
    if isinstance(value, tuple):
        return tuple(_placeholder_input(g, v) for v in value)
    if isinstance(value, dict):
        return {k: _placeholder_input(g, v) for k, v in value.items()}
    dispatch = core.module("autograph_lite.ops.dispatch")
    return core.tensor_module().SymbolicTensor(g.add_input(dispatch.as_value(g, value).type))


def zeros_like(value):
    """A constant zero of the type of `value` (None sizes become 0)."""
    if isinstance(value, tuple):
        return tuple(zeros_like(v) for v in value)
    if isinstance(value, dict):
        return {k: zeros_like(v) for k, v in value.items()}
    if isinstance(value, (bool, int, float)):
        return type(value)(0)
    shape = tuple(0 if d is None else d for d in (value.shape or ()))
    return np.zeros(shape, dtype=value.dtype)


def _trace_one_iteration(values, body, get_state, set_state, rest, nouts):
    with _scratch_graph() as g:
        trial = []
        for v in values:
            if isinstance(v, list):
                trial.append(list(v))
            elif core.is_carriable(v):
                trial.append(_placeholder_input(g, v))
            else:
                trial.append(v)
        set_state(tuple(trial) + tuple(rest))
        try:
            with staging.region():
                body()
        except UnboundLocalError:
            return None
        return get_state()[:nouts]


def _stacked(items, element, name, loc):
    """The stacked-tensor form of a list: its items, then rows appended by the loop."""
    if items:
        return core.module("autograph_lite.numpy_api").stack(items)
    if element is None or not core.is_tensor_like(element):
        raise ValueError(f"'{name}' is an empty list before the staged loop at {loc} and the "
                         f"loop does not append a tensor to it; append tensors or give it "
                         f"a first element before the loop")
    row = zeros_like(element) if not isinstance(element, (bool, int, float)) else \
        np.zeros((), np.asarray(element).dtype)
    return np.zeros((0,) + row.shape, row.dtype)


def initial_values(values, names, body, get_state, set_state, rest, nouts, loc):
    """Loop values the core can carry: undefined ones and lists replaced (see above)."""
    need = [i for i, v in enumerate(values) if is_undefined(v) or isinstance(v, list)]
    if not need:
        return list(values)
    traced = _trace_one_iteration(values, body, get_state, set_state, rest, nouts)
    set_state(tuple(values) + tuple(rest))
    out = list(values)
    for i in need:
        after = traced[i] if traced is not None else Undefined(names[i])
        if isinstance(values[i], list):
            grown = after if isinstance(after, list) else []
            element = grown[len(values[i])] if len(grown) > len(values[i]) else None
            out[i] = _stacked(values[i], element, names[i], loc)
        elif is_undefined(after) or not core.is_carriable(after):
            raise ValueError(f"'{names[i]}' has no value before the staged loop at {loc} and "
                             f"the loop needs one; give it a value before the loop")
        else:
            out[i] = zeros_like(after)
    return out
