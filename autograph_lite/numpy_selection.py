"""NumPy's index-finding and selecting functions, built from the op table's ops (as
numpy_composites.py): every result is a new array, as NumPy's.

- ``take``: a gather (``x[index]``), bounds checked as indexing checks them (``mode='raise'``
  only).
- ``nonzero``/``flatnonzero``/``argwhere``: the positions are ``arange(size)`` under a
  boolean mask (a size known only at run time), unravelled to coordinates with the
  array's sizes (int64, NumPy's intp).
- ``unravel_index``: NumPy's loop (remainder and quotient from the last axis) with a
  static shape; indices out of range raise NumPy's ValueError when the call runs.
- ``isin``: each element compared with every test element (NumPy's promotion, NaN never
  found), ``any`` over them.
- ``select``: NumPy's ``result_type`` of the choices and the default (Python numbers
  weak), then ``where`` from the last condition to the first, as NumPy's copyto loop.
"""
import builtins

import numpy as np

from . import numpy_api as npa
from .numpy_composites import one_axis, size_of, static_int
from .ops.dispatch import apply, convert_to_tensor
from .ops.registry import public
from .tensor import Tensor

_INTP = np.dtype(np.int64)


@public("np.take", "Tensor.take")
def take(a, indices, axis=None, out=None, mode="raise"):
    if out is not None or mode != "raise":
        raise NotImplementedError("np.take: out= and mode other than 'raise' are not staged")
    x = convert_to_tensor(a)
    if axis is None:
        x, ax = npa.ravel(x), 0
    else:
        ax = one_axis(static_int(axis, "np.take's axis"), x.ndim)
    if isinstance(indices, (int, np.integer)) and not isinstance(indices, (bool, np.bool_)):
        return npa.copy(x[(slice(None),) * ax + (int(indices),)])  # (a copy, not a view)
    index = convert_to_tensor(indices)
    if index.dtype.kind not in "iu":
        raise TypeError(f"Cannot cast array data from dtype('{index.dtype}') to "
                        f"dtype('int64') according to the rule 'same_kind'")
    if index.ndim == 0:
        return npa.copy(x[(slice(None),) * ax + (index,)])
    return x[(slice(None),) * ax + (index,)]


def _flat_positions(x):
    """The C-order positions of ``x``'s nonzero elements (NaN counts)."""
    flat = npa.ravel(x)
    return npa.arange(size_of(flat, 0))[flat != 0]


@public("np.flatnonzero")
def flatnonzero(a):
    return _flat_positions(convert_to_tensor(a))


def _coordinates(flat, sizes):
    """NumPy's unravel loop in C order: per axis, from the last, remainder and quotient."""
    out = []
    for n in reversed(sizes):
        out.append(flat % _one_at_least(n))
        flat = flat // _one_at_least(n)
    return tuple(reversed(out))


def _one_at_least(n):
    return builtins.max(n, 1) if isinstance(n, int) else np.maximum(n, 1)


@public("np.nonzero", "Tensor.nonzero")
def nonzero(a):
    x = convert_to_tensor(a)
    if x.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead. If the context of this "
                         "warning is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.")
    flat = _flat_positions(x)
    if x.ndim == 1:
        return (flat,)
    return _coordinates(flat, [size_of(x, k) for k in builtins.range(x.ndim)])


@public("np.argwhere")
def argwhere(a):
    x = convert_to_tensor(a)
    if x.ndim == 0:  # (NumPy's: of atleast_1d, no columns)
        return _flat_positions(x)[:, None][:, :0]
    return npa.stack(list(nonzero(x)), axis=1)


@public("np.unravel_index")
def unravel_index(indices, shape, order="C"):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if isinstance(shape, Tensor) or (isinstance(shape, (tuple, list)) and builtins.any(
            isinstance(s, Tensor) for s in shape)):
        raise TypeError("np.unravel_index's shape must be known while tracing (Python "
                        "ints); use ag.py_func for a shape known only at run time")
    dims = [static_int(s, "np.unravel_index's shape") for s in
            (shape if isinstance(shape, (tuple, list)) else (shape,))]
    index = convert_to_tensor(indices)
    if index.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    size = int(np.prod(dims, dtype=np.int64))
    index = npa.cast(index, _INTP)
    apply("assert", npa.all((index >= 0) & (index < size)), error="ValueError",
          message=f"index out of bounds for array with size {size} (np.unravel_index)")
    if order == "F":
        return _coordinates(index, dims[::-1])[::-1]
    return _coordinates(index, dims)


@public("np.isin")
def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    x, t = convert_to_tensor(element), npa.ravel(convert_to_tensor(test_elements))
    found = npa.any(npa.expand_dims(x, x.ndim) == t, axis=-1)
    return ~found if invert else found


def _weak(v):
    return type(v) in (int, float, complex)


@public("np.select")
def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    values = [v if _weak(v) else convert_to_tensor(v) for v in list(choicelist) + [default]]
    try:
        dt = np.result_type(*[v if _weak(v) else v.dtype for v in values])
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}")
    conds = [convert_to_tensor(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype.kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    result = npa.cast(values[-1], dt)
    for cond, choice in zip(conds[::-1], values[-2::-1]):
        result = npa.where(cond, npa.cast(choice, dt), result)
    if result is values[-1]:  # (a fresh array even when nothing was selected)
        result = npa.copy(result)
    return result
