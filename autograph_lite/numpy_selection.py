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

from . import control, dtypes, errors, mutation, numpy_api as npa, numpy_flat
from .numpy_composites import one_axis, static_int
from .ops import advanced_index
from .ops.adjoint import AT_UFUNCS
from .ops.dispatch import apply, convert_to_tensor, size_of, weak_scalar
from .ops.index_spec import encode_index
from .ops.indexing import setitem
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
    """A Python number, or a relaxed one (a weak 0-d tensor: `default=k`), which NumPy 2's
    promotion takes by kind only (`np.select([m], [u8], default=k)` is uint8)."""
    return type(v) in (int, float, complex) or weak_scalar(v)


def _promoted(v):
    """What np.result_type takes for ``v``: a Python number of its kind for a weak one."""
    if weak_scalar(v):
        return dtypes.weak_stand_in(v.dtype)
    return v if _weak(v) else v.dtype


@public("np.select")
def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    values = [v if _weak(v) else convert_to_tensor(v) for v in list(choicelist) + [default]]
    try:
        dt = np.result_type(*[_promoted(v) for v in values])
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}")
    for v in values[:-1]:  # (NumPy copies each choice in as an array, 'same_kind': a
        own = np.asarray(v).dtype if type(v) in (int, float, complex) else v.dtype
        if not np.can_cast(own, dt, casting="same_kind"):  # Python int, int64, into uint8)
            raise errors.numpy_error(TypeError(
                f"Cannot cast array data from dtype('{own}') to dtype('{dt}') according to "
                f"the rule 'same_kind'"))
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


# -- along an axis, on the diagonal, unbuffered: writes through flat positions ---------------
def _int_indices(indices, what):
    index = convert_to_tensor(indices)
    if index.dtype.kind not in "iu":
        raise IndexError(f"`indices` must be an integer array ({what}), got {index.dtype}")
    return index


def _along_axis(arr, indices, axis, what):
    """(array, index tuple) of NumPy's ``*_along_axis``: ``indices`` on ``axis``, each
    other axis's ``arange`` shaped to broadcast against it (``axis=None``: the raveled
    array and a 1-D ``indices``)."""
    x, index = convert_to_tensor(arr), _int_indices(indices, what)
    if axis is None:
        if index.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return npa.ravel(x), (index,)
    if index.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ax = one_axis(static_int(axis, f"{what}'s axis"), x.ndim)
    return x, tuple(advanced_index.along_axis(x, index, ax).values())


@public("np.take_along_axis")
def take_along_axis(arr, indices, axis=-1):
    x, index = _along_axis(arr, indices, axis, "np.take_along_axis")
    return x[index]


@public("np.put_along_axis")
def put_along_axis(arr, indices, values, axis):
    """``arr`` written in place (every alias sees it, mutation.py) at NumPy's positions."""
    target = npa.writable(arr, "np.put_along_axis")
    x, index = _along_axis(target, indices, axis, "np.put_along_axis")
    if axis is None:  # (arr.flat[indices] = values: the raveled update, shaped back)
        mutation.store(target, apply("reshape_as", _set(x, index, values), target),
                       numpy_flat.own_dtype)
    else:
        mutation.write(target, index, values)


def _set(x, index, values):
    return setitem(x, index, values if isinstance(values, Tensor) else np.asarray(values))


@public("np.fill_diagonal")
def fill_diagonal(a, val, wrap=False):
    """``a.flat[:end:step] = val`` as NumPy's: the positions of the main diagonal of a 2-D
    array (``wrap``: on down a tall one every ``a.shape[1] + 1`` rows) or of an array with
    all sizes equal; an array ``val`` repeats along them."""
    target = npa.writable(a, "np.fill_diagonal")
    x = convert_to_tensor(target)
    if x.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if x.ndim == 2:
        cols = size_of(x, 1)
        step, end = cols + 1, None if wrap else cols * cols
    else:
        sizes = [size_of(x, k) for k in builtins.range(x.ndim)]
        unequal = "All dimensions of input must be of equal length"
        for n in sizes[1:]:
            if not (isinstance(n, int) and isinstance(sizes[0], int)):
                apply("assert", n == sizes[0], error="ValueError", message=unequal)
            elif n != sizes[0]:
                raise ValueError(unequal)
        step, end = 1 + _cumulative_sizes(sizes), None
    total = size_of(npa.ravel(x), 0)
    stop = total if end is None else builtins.min(end, total) if (
        isinstance(end, int) and isinstance(total, int)) else apply("minimum", end, total)
    numpy_flat.store(target, npa.arange(0, stop, step), val, "np.fill_diagonal")


def _cumulative_sizes(sizes):
    """sum(cumprod(sizes[:-1])) of sizes some of which are 0-d tensors."""
    total, prod = 0, 1
    for n in sizes[:-1]:
        prod = prod * n
        total = total + prod
    return total


def _ufunc_at(ufunc, negate=False):  # (np.subtract.at adds -b: the same IEEE result)
    def at(a, indices, b=None):
        """``np.add.at(a, indices, b)``: ``a`` updated in place, unbuffered (a repeated
        position adds each of its values, in index order; the sum cast to ``a``'s dtype
        however it loses, as NumPy's); ``np.maximum.at`` and the others of
        adjoint.AT_UFUNCS alike, each combining with its own op."""
        name = f"np.{ufunc.__name__}.at"
        op = "add" if negate else ufunc.__name__
        target = npa.writable(a, name)
        if b is None:
            raise TypeError(f"{name}() requires a second operand for a binary ufunc")
        value = b if isinstance(b, Tensor) else np.asarray(b)  # (cast unsafely, as NumPy)
        spec, tensors = encode_index(_masks_as_positions(indices))
        x = convert_to_tensor(target)
        basic, advanced = advanced_index.split(x.ndim, spec, tensors)
        if None in basic:
            raise IndexError(f"{name}: None (np.newaxis) in the index is not supported")
        if negate:
            value = -value
        if not advanced:  # (no position can repeat: a[basic] += b)
            mutation.write(target, basic, apply(op, x[basic], value))
            return
        mutation.store(target, advanced_index.scatter(x, spec, tensors, value, at=op),
                       numpy_flat.own_dtype)
    return at


def _masks_as_positions(indices):
    """``indices`` with each boolean array (a mask) replaced by the positions it selects,
    its `nonzero` coordinates, as NumPy's `ufunc.at` and indexing read a mask."""
    items = indices if isinstance(indices, tuple) else (indices,)
    out = []
    for item in items:
        if isinstance(item, (Tensor, np.ndarray)) and item.dtype == dtypes.bool_ and item.ndim:
            out += list(nonzero(item))
        else:
            out.append(item)
    return tuple(out) if isinstance(indices, tuple) or len(out) > 1 else out[0]


@public("np.ix_")
def ix_(*args):
    """NumPy's open mesh: each 1-d sequence reshaped to lie along its own axis (a boolean
    one as its positions), so `a[np.ix_(rows, cols)]` indexes the cross product."""
    out = []
    for k, a in enumerate(args):
        if isinstance(a, (list, tuple)) and not a:
            a = np.zeros(0, _INTP)  # (NumPy's: an empty sequence is intp)
        x = convert_to_tensor(a)
        if x.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if x.dtype == dtypes.bool_:
            x = nonzero(x)[0]
        out.append(npa.reshape(x, (1,) * k + (-1,) + (1,) * (len(args) - k - 1)))
    return tuple(out)


public("np.subtract.at")(_ufunc_at(np.subtract, negate=True))
for _name in AT_UFUNCS:
    public(f"np.{_name}.at")(_ufunc_at(getattr(np, _name)))


@public("np.piecewise")
def piecewise(x, condlist, funclist, *args, **kw):
    """NumPy's steps: the conditions as one boolean array (an "otherwise" appended when
    there is one function more than conditions); then for each (condition, function) in
    order: a value written where the condition holds, or the function applied to
    ``x[cond]`` and written there when that selection is not empty (a staged cond when its
    size is known only at run time), into zeros of ``x``'s dtype."""
    x = convert_to_tensor(x)
    n2 = len(funclist)
    first = condlist[0] if isinstance(condlist, (list, tuple, Tensor)) and len(condlist) \
        else None
    as_array = isinstance(first, (list, np.ndarray)) or (
        isinstance(first, Tensor) and (first.ndim > 0 or not isinstance(condlist, Tensor)))
    if np.isscalar(condlist) or (not as_array and x.ndim != 0):
        condlist = [condlist]
    conds = npa.astype(convert_to_tensor(condlist), bool)
    n = conds.shape[0]
    if n == n2 - 1:
        otherwise = ~npa.any(conds, axis=0, keepdims=True)
        conds = npa.concatenate([conds, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are "
                         f"expected")
    y = npa.zeros_like(x)
    for k, func in enumerate(funclist):
        cond = conds[k]
        if not callable(func):
            y = setitem(y, cond, func if isinstance(func, Tensor) else np.asarray(func))
            continue
        vals = x[cond]
        count = size_of(vals, 0)

        def written(y=y, cond=cond, func=func, vals=vals):
            return setitem(y, cond, func(vals, *args, **kw))
        if isinstance(count, int):
            y = written() if count > 0 else y
        else:
            y = control.cond(count > 0, written, lambda y=y: y)
    return y
