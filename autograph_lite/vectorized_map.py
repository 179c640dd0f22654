"""``ag.vectorized_map(fn, elems)``: ``fn`` applied to every element (row) of ``elems``,
as one kernel over the elements (SPEC §6).

``fn`` describes one element, as in ``tf.vectorized_map``: it takes one argument with the
structure of ``elems`` (a tensor, or a tuple of tensors sharing their first dimension)
and may hold data-dependent ``if``/``while``/``for`` (it is converted by AutoGraph). Its
results, stacked along a new first axis, are the results: what ``np.stack([fn(e) for e in
elems])`` gives, with the dtypes ``fn``'s results have for one element (a Python number
becomes its NumPy default, as ``np.stack`` makes it).

Inside a trace the whole map is one ``vectorized_map`` node whose region is ``fn`` traced
once on symbolic elements (ops/vmap.py lowers it: a parallel loop on cpu). Eagerly it
runs as a compiled Function of its own (cached per ``fn`` and backend: pass the same
``fn`` object to reuse its kernel).

Elements are independent: ``fn`` may not write into its element or into any array that
exists outside it (the elements would race, and NumPy's loop would see earlier writes), so
such writes are refused; its own arrays it may write freely.
"""
import functools
import weakref

from . import contiguity, held_state, mutation, nest
from .ir.graph import Graph
from .ir.types import TensorType
from .ops.dispatch import apply, as_value, stage_node
from .ops.registry import public
from .ops.vmap import common_length
from .tensor import SymbolicTensor
from .trace.context import current_graph, graph_scope

_COMPILED = weakref.WeakKeyDictionary()   # fn -> {backend: Function}


@public("ag.vectorized_map")
def vectorized_map(fn, elems, backend="cpu"):
    """Applies ``fn`` to each element of ``elems`` (see the module docstring).

    Args:
      fn: a callable of one argument with the structure of ``elems``.
      elems: a tensor or array of rank >= 1, or a tuple/list of them sharing the first
        dimension.
      backend: eagerly, the backend of the kernel (``"cpu"``, ``"interpreter"``);
        inside a compiled function, the enclosing function's backend is used.
    Returns:
      The stacked results, with the structure of ``fn``'s result.
    """
    if not callable(fn):
        raise TypeError(f"vectorized_map: fn must be callable, got {type(fn).__name__}")
    if current_graph() is None:
        return _eager(fn, elems, backend)
    return _staged(fn, elems)


def _eager(fn, elems, backend):
    """A method of the user's object (`m.predict`) is its function called with the object
    as an argument, whose state is read on every call (held_state.py), as a compiled
    method reads `self`: closed over, it was baked at the first call."""
    from .function import Function
    owner = getattr(fn, "__self__", None)
    func = fn.__func__ if owner is not None and held_state.is_holder(owner) else None
    try:
        per_fn = _COMPILED.setdefault(func or fn, {})
    except TypeError:  # not weakly referenceable (a builtin): compiled anew each call
        per_fn = {}
    mapped = per_fn.get(backend)
    if mapped is None:
        if func is None:
            def mapped_fn(elems):
                return vectorized_map(fn, elems)
        else:
            def mapped_fn(obj, elems):
                return vectorized_map(functools.partial(func, obj), elems)
        mapped_fn.__name__ = f"vectorized_map_{getattr(fn, '__name__', 'fn')}"
        mapped = per_fn[backend] = Function(mapped_fn, autograph=False, backend=backend)
    elems = tuple(elems) if isinstance(elems, list) else elems
    return mapped(elems) if func is None else mapped(owner, elems)


def map_spread(fn, elems, args=(), kwargs=None):
    """Inside a trace: ``fn(*e, *args, **kwargs)`` for each element ``e`` of the tuple
    ``elems`` (np.vectorize, np.apply_along_axis: numpy_vectorize.py), one
    ``vectorized_map`` node."""
    return _staged(fn, elems, spread=(tuple(args), dict(kwargs or {})))


def _staged(fn, elems, spread=None):
    """The ``vectorized_map`` node; ``spread`` (extra positional and keyword arguments):
    ``fn`` takes the elements of the tuple ``elems`` as its arguments, then those
    (``fn(a, b)``, np.vectorize's call), instead of one tuple."""
    outer = current_graph()
    leaves = nest.flatten(elems)
    if not leaves:
        raise ValueError("vectorized_map: elems holds no tensor")
    values = [as_value(outer, x) for x in leaves]
    _check_lengths(values)
    body = Graph("vectorized_map_body", parent=outer)
    start = mutation.mark()
    with graph_scope(body), mutation.scope(start) as log:
        params = []
        for v in values:
            p = SymbolicTensor(body.add_input(TensorType(v.type.dtype, v.type.shape[1:])))
            contiguity.mark_input(p._value, None, contiguity.value_is_c(v))
            params.append(p)
        from .autograph.runtime.calls import converted_call
        if spread is None:
            result = converted_call(fn, (nest.pack_as(elems, params),), {})
        else:
            result = converted_call(fn, tuple(params) + spread[0], spread[1])
        if result is None:
            raise ValueError("vectorized_map: fn returned None; it must return a tensor, "
                             "a number, or a structure of them")
        outs = [_strong(body, as_value(body, x)) for x in nest.flatten(result)]
    _refuse_writes(log, params)
    log.restore()
    body.outputs.extend(outs)
    n = values[0].type.shape[0]
    types = [TensorType(o.type.dtype, (n,) + o.type.shape) for o in outs]
    results = tuple((o.type.shape, o.type.dtype) for o in outs)
    staged = stage_node("vectorized_map", values, {"_results": results}, types, regions=[body])
    return nest.pack_as(result, staged)


def _check_lengths(values):
    for k, v in enumerate(values):
        if v.type.ndim == 0:
            raise ValueError(f"vectorized_map: elems[{k}] is a scalar ({v.type}); every "
                             f"mapped tensor needs a first dimension to map over")
    common_length([v.type.shape[0] for v in values])


def _strong(graph, value):
    """A weak result (a Python number) as its NumPy default dtype, as ``np.stack`` gives."""
    if not value.type.weak:
        return value
    with graph_scope(graph):
        return apply("cast", SymbolicTensor(value), dtype=value.type.dtype)._value


def _refuse_writes(log, params):
    for k, p in enumerate(params):
        if p._storage is not None and p._storage in log.before:
            log.restore()
            raise NotImplementedError(
                f"vectorized_map: fn writes into its element (elems[{k}][i]); the "
                f"elements are mapped in parallel: copy it first (x = x.copy())")
    if log.pre_existing():
        written = mutation.describe(log.pre_existing())
        log.restore()
        raise NotImplementedError(
            f"vectorized_map: fn writes into {written}, which exists outside it; the "
            f"elements are mapped in parallel: return the values instead")

