"""ag.py_func / ag.numpy_function and ag.py_function / ag.eager_py_func (SPEC §4).

Eagerly the callback just runs. While tracing, the call becomes one opaque node
(ops/callback.py) that the interpreter and compiled kernels run at its place in program
order on every execution -- inside staged ``ag.cond`` branches and once per iteration of
staged ``ag.while_loop`` bodies too. How a bare-dtype ``Tout`` gets its rank, how kernels
reach the callable and what is validated: see the docstring of ops/callback.py.
"""
import numpy as np

from .. import dtypes, errors
from ..ops.callback import Text, _Site, callback_name, out_types, spec_text, staged_outs
from ..ops import dispatch
from ..ops.dispatch import as_value, convert_to_tensor, stage_node, wrap
from ..ops.registry import public
from ..tensor import EagerTensor, TensorSpec, is_tensor_value
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
        values = [as_value(graph, a) for a in args]
        in_types = [v.type for v in values]
        attrs = {"func": func, "Tout": tout, "_outs": staged_outs(outs, in_types)}
        if name is not None:
            attrs["name"] = str(name)
        loc = errors.user_location()
        results = stage_node(op_name, values, attrs, out_types(outs, in_types), loc=loc)
    if form is None:
        return None
    if form == "single":
        return results[0]
    return list(results)


__all__ = ["py_func", "numpy_function", "py_function", "eager_py_func"]
