"""Sorting, searching and counting: ``sort``/``argsort`` along the last axis, ``searchsorted``,
``bincount`` (each a loop nest of its own, lowered by hand or with Numba's sort).
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType
from .elementwise import real_only
from .io import emit_raise
from .registry import defop


def _sorted_infer(dtype=None):
    def infer(in_types):
        t = in_types[0]
        if t.ndim == 0:
            raise ValueError("sort: a 0-d tensor has no axis to sort along; use axis=None")
        return [TensorType(dtype or t.dtype, t.shape)]
    return real_only(infer, "sorting")


def _sort_lower(numpy_call):
    """Sort along the last axis: Numba's np.sort/np.argsort on each row (its argsort takes
    1-D arrays only), into a new array."""
    def lower(em, node):
        x, out = node.inputs[0], node.outputs[0]
        src, name = em.name(x), em.new(out)
        dims = [f"{src}.shape[{k}]" for k in range(x.type.ndim)]
        em.line(f"{name} = {em.alloc(dims, out.type.dtype)}")
        with em.loops(dims[:-1]) as idx:
            row = ", ".join(list(idx) + [":"])
            em.line(f"{name}[{row}] = {numpy_call.format(f'{src}[{row}]')}")
        return None
    return lower


defop("sort", infer=_sorted_infer(), eager=lambda x: np.sort(np.asarray(x), axis=-1),
      lower=_sort_lower("np.sort({})"),
      doc="np.sort along the last axis (NaNs last, as NumPy)")
defop("argsort", infer=_sorted_infer(dtypes.int64),
      eager=lambda x: np.argsort(np.asarray(x), axis=-1, kind="stable"),
      lower=_sort_lower("np.argsort({}, kind='mergesort')"), differentiable=False,
      doc="np.argsort along the last axis; ties in stable order")


def _searchsorted_infer(in_types, side):
    a, v = in_types
    if a.ndim != 1:
        raise ValueError(f"searchsorted: the sorted array must be 1-D, got rank {a.ndim}")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    return [TensorType(dtypes.int64, v.shape)]


def _searchsorted_lower(em, node):
    """Numba's np.searchsorted per element (NaNs sorted last, as NumPy's)."""
    (a, v), out = node.inputs, node.outputs[0]
    side = node.attrs["side"]
    if v.type.ndim == 0:  # (kernels keep 0-d values as scalars)
        return f"np.searchsorted({em.name(a)}, {em.name(v)}, side={side!r})"
    dims = em.dims(v)
    name = em.new(out)
    em.line(f"{name} = {em.alloc(dims, out.type.dtype)}")
    with em.loops(dims) as idx:
        em.line(f"{name}[{', '.join(idx)}] = np.searchsorted({em.name(a)}, {em.elem(v, idx)}, "
                f"side={side!r})")
    return None


defop("searchsorted", infer=real_only(_searchsorted_infer, "searchsorted"),
      eager=lambda a, v, side: np.asarray(np.searchsorted(np.asarray(a), v, side=side)),
      lower=_searchsorted_lower, differentiable=False,
      doc="np.searchsorted(a, v, side): insertion indices of v in the sorted 1-D a")


_NEGATIVE = "'list' argument must have no negative elements"
_WEIGHTS = "The weights and list don't have the same length."


def _bincount_infer(in_types, weighted):
    x, minlength = in_types[:2]
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1
                         else "object of too small depth for desired array")
    if x.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') "
                        f"according to the rule 'safe'")
    if minlength.ndim or minlength.dtype.kind not in "iu":
        raise TypeError("'minlength' must be an integer")
    if weighted and in_types[2].ndim != 1:
        raise ValueError(_WEIGHTS)
    return [TensorType(dtypes.float64 if weighted else dtypes.int64, (None,))]


# NumPy's bincount of an empty array is int64 zeros even with (float) weights: a trace that
# typed the weight sums float64 refuses that case at run time rather than change the dtype
_EMPTY_WEIGHTED = ("np.bincount of an empty array with weights is int64 zeros in NumPy, not "
                   "the float64 sums this trace was typed for; pass a non-empty array, or "
                   "one whose size is 0 while tracing")


def _bincount_eager(x, minlength, weights=None, weighted=False):
    if weighted and np.size(x) == 0:
        raise NotImplementedError(_EMPTY_WEIGHTED)
    return np.bincount(np.asarray(x), weights, minlength=int(minlength))


def _bincount_lower(em, node):
    """One pass for the length (max + 1, at least minlength; NumPy's errors for a negative
    entry or minlength), one to count (or add the weights, in float64)."""
    x, minlength = (em.name(v) for v in node.inputs[:2])
    weights = em.name(node.inputs[2]) if node.attrs["weighted"] else None
    out = node.outputs[0]
    name, top, i = em.new(out), em.fresh("top"), em.fresh("i")
    with em.block(f"if {minlength} < 0:"):
        emit_raise(em, node, "ValueError", "'minlength' must not be negative")
    if weights is not None:
        with em.block(f"if {weights}.shape[0] != {x}.shape[0]:"):
            emit_raise(em, node, "ValueError", _WEIGHTS)
        with em.block(f"if {x}.shape[0] == 0:"):
            emit_raise(em, node, "NotImplementedError", _EMPTY_WEIGHTED)
    em.line(f"{top} = np.int64({minlength})")
    with em.block(f"for {i} in range({x}.shape[0]):"):
        with em.block(f"if {x}[{i}] < 0:"):
            emit_raise(em, node, "ValueError", _NEGATIVE)
        em.line(f"{top} = max({top}, np.int64({x}[{i}]) + 1)")
    em.fill(name, [top], "0", out.type.dtype)
    with em.block(f"for {i} in range({x}.shape[0]):"):
        em.line(f"{name}[np.int64({x}[{i}])] += {weights + f'[{i}]' if weights else '1'}")
    return None


defop("bincount", infer=_bincount_infer, eager=_bincount_eager, lower=_bincount_lower,
      differentiable=False,
      doc="np.bincount(x, weights, minlength): counts (or weight sums) of each value of x")
