"""Several integer arrays in one index (``a[rows, cols]``, ``oh[np.arange(n), k] = 1``) and
the flat positions that ``np.take_along_axis``, ``np.put_along_axis`` and ``np.add.at`` are
built on: NumPy's advanced indexing on top of the one-array gather Numba has.

``x[index]`` is split into a basic part (slices and None, a view ``y = x[basic]``) and the
advanced part on ``y``'s axes (the arrays, and the integers, which NumPy broadcasts with
them). The advanced part becomes one integer array ``P`` of C-order offsets into
``y.ravel()``, shaped as NumPy's result::

    P = sum over advanced axes k of wrap(i_k) * stride_k            (broadcast together)
      + arange(n_j) * stride_j for every axis j taken whole,        (each along its own dim)

the broadcast dims where the advanced indices are when they sit together, else first
(index_spec.advanced_items). ``x[index]`` is then the gather ``y.ravel()[P]`` and
``x[index] = v`` the functional update ``y.ravel()[P.ravel()] = broadcast(v, P).ravel()``
shaped back (then written into ``x[basic]``): a new value, which the mutation machinery
writes into every alias as it does any write. Each index is bounds-checked on its own
axis with NumPy's words (the ``wrap_index`` op); a repeated position in a write keeps the
last value, as NumPy's. A boolean mask of 2+ dims over some of the axes is first replaced
by its coordinate arrays (NumPy's ``nonzero``, which is what NumPy indexes with), a 1-D
mask beside other arrays by its positions.
"""
import numpy as np

from .. import dtypes, errors
from ..ir.types import broadcast_shapes
from ..tensor import Tensor
from .dispatch import apply, check_carries_state, size_of
from .index_spec import advanced_items, encode_index, expand_spec, mask_mismatch

_WHOLE = slice(None)


def needs_flat(spec, ndim):
    """Whether ``x[spec]`` (``x`` of rank ``ndim``) is built here: two or more array
    indices, or one whose dims NumPy moves first (an integer, a slice or None between it
    and an integer: ``a[0, :, i]``), which Numba's indexing does not always do."""
    arrays = sum(1 for s in spec if s[0] in ("gather", "mask"))
    if arrays >= 2:
        return True
    if arrays == 0 or sum(1 for s in spec if s[0] not in ("new", "ellipsis")) > ndim:
        return False  # (too many indices: the indexing op says so)
    return not advanced_items(expand_spec(spec, ndim))[1]


def _nd_mask(v):
    return isinstance(v, (Tensor, np.ndarray)) and v.dtype == dtypes.bool_ and v.ndim >= 2


def masks_as_coordinates(x, index):
    """``index`` with each boolean array of 2+ dims replaced by its coordinate arrays
    (NumPy's ``nonzero``: the True elements in C order, which is what NumPy indexes), each
    checked against the axes it covers (while tracing, or by a staged check); ``index``
    itself when it has none. (A mask of ``x``'s whole shape alone is indexing.py's
    ``_whole_mask``, one 1-D mask over the raveled array.)"""
    items = index if isinstance(index, tuple) else (index,)
    if not any(_nd_mask(v) for v in items):
        return index
    width = [v.ndim if isinstance(v, (Tensor, np.ndarray)) and v.dtype == dtypes.bool_
             else 0 if v is None or v is Ellipsis else 1 for v in items]
    out, axis = [], 0
    for v, w in zip(items, width):
        if v is Ellipsis:
            axis += max(0, x.ndim - sum(width))
        elif _nd_mask(v):
            if axis + w > x.ndim:
                raise IndexError(f"too many indices for a tensor of rank {x.ndim}")
            for j in range(w):
                check_mask_axis(size_of(x, axis + j), size_of(v, j), axis + j)
            out.extend(_coordinates(v))
            axis += w
            continue
        out.append(v)
        axis += w
    return tuple(out)


def check_mask_axis(n, m, axis):
    """NumPy's IndexError when a boolean index's size ``m`` is not the size ``n`` of the
    ``axis`` it covers: while tracing when both are ints (raised on the runs that reach
    it, errors.numpy_error), else a staged check."""
    if isinstance(n, int) and isinstance(m, int):
        if n != m:
            raise errors.numpy_error(IndexError(mask_mismatch(axis, n, m)))
        return
    apply("assert", apply("equal", n, m), error="IndexError",
          message=f"boolean index did not match indexed array along axis {axis}")


def _coordinates(mask):
    if not isinstance(mask, Tensor):
        return np.nonzero(mask)
    sizes = [size_of(mask, j) for j in range(mask.ndim)]
    total = 1
    for n in sizes:
        total = _mul(total, n)
    where = apply("getitem", _arange(total), _ravel(mask), spec=(("mask", 1),))
    out, stride = [], 1
    for n in reversed(sizes):
        out.append(apply("mod", apply("floor_divide", where, stride), n))
        stride = _mul(stride, n)
    return out[::-1]


def split(ndim, spec, tensors):
    """(basic, advanced): the index tuple of ``spec``'s slices and None (every advanced item
    replaced by ``:``), and {axis of ``x[basic]``: its integer or integer array}."""
    def bound(p):
        return None if p is None else p[1] if p[0] == "c" else tensors[p[1] - 1]
    basic, advanced = [], {}
    for k, s in enumerate(expand_spec(spec, ndim)):
        if s[0] == "new":
            basic.append(None)
        elif s[0] == "slice":
            basic.append(slice(*map(bound, s[1:])))
        else:
            basic.append(_WHOLE)
            advanced[k] = s[1] if s[0] == "int" else tensors[s[1] - 1]
    return tuple(basic), advanced


def _arange(n):
    """``np.arange(n)`` as int64 for a size ``n`` known while tracing or not."""
    return apply("range", 0, n, 1, dtype=dtypes.int64, length=n if isinstance(n, int) else None)


def along_axis(x, index, axis):
    """{``axis``: ``index``, every other axis k: ``arange(x.shape[k])`` shaped to broadcast
    along k}: the advanced index of NumPy's ``take_along_axis`` (for ``positions``)."""
    def run(k):
        shape = tuple(-1 if j == k else 1 for j in range(x.ndim))
        return apply("reshape", _arange(size_of(x, k)), shape=shape)
    return {k: index if k == axis else run(k) for k in range(x.ndim)}


def _shape(v):
    return tuple(v.shape) if isinstance(v, (Tensor, np.ndarray)) else np.shape(v)


def _symbolic(*vs):
    return any(isinstance(v, Tensor) for v in vs)


def _mul(a, b):
    return apply("multiply", a, b) if _symbolic(a, b) else a * b


def _add(a, b):
    return apply("add", a, b) if _symbolic(a, b) else a + b


def _trailing(v, k):
    """``v`` with ``k`` size-1 dims added at the end (to broadcast against later dims)."""
    for _ in range(k):
        v = apply("expand_dims", v, axis=v.ndim) if isinstance(v, Tensor) else v[..., None]
    return v


def wrapped(i, n, axis):
    """Integer index ``i`` into an axis of size ``n`` checked and wrapped to [0, n) (int64):
    while tracing when both are known, else by a staged check raising NumPy's IndexError.
    A boolean mask is the positions where it holds (NumPy's ``nonzero``), its length
    checked against ``n``."""
    if isinstance(i, (Tensor, np.ndarray)) and i.dtype == dtypes.bool_:
        return _mask_positions(i, n, axis)
    if _symbolic(i, n):
        check_index(i, n, axis)
        return apply("wrap_index", i, n, axis=axis)
    i = np.asarray(i, np.int64)
    bad = (i < -n) | (i >= n)
    if bad.any():
        raise errors.numpy_error(IndexError(f"index {i[bad].flat[0]} is out of bounds for "
                                            f"axis {axis} with size {n}"))
    return np.where(i < 0, i + n, i)


def check_index(i, n, axis):
    """NumPy's IndexError for an integer index ``i`` (a tensor of any shape, or an int into
    an axis whose size ``n`` is known only at run time) out of ``[-n, n)`` on ``axis``, as an
    explicit staged check, staged only where a check hands
    back state when it fails (partial_raise.py: the function has written into its
    arguments or bound into its objects before this point, which Python keeps). The
    kernel's own bounds check (cpu_runtime.index) raises with no state; this one, first,
    with it. ir/passes/dce.py drops it where the graph proves the index in bounds."""
    if not (isinstance(i, Tensor) or isinstance(n, Tensor)) or not check_carries_state():
        return
    ok, first = apply("bounds_ok", i, n)
    apply("assert", ok, first, n, error="IndexError",
          message=f"index is out of bounds for axis {axis}",
          parts=("index ", (-1, "", "int"), f" is out of bounds for axis {axis} with size ",
                 (-1, "", "int")))


def check_mask(mask, n, axis):
    """``check_mask_axis`` of a 1-D boolean tensor index staged where a check carries state
    (``check_index``); else the kernel checks it (cpu_runtime.mask_index)."""
    if isinstance(mask, Tensor) and check_carries_state():
        check_mask_axis(n, size_of(mask, 0), axis)


def _check_together(arrays):
    """NumPy's IndexError when the index arrays do not broadcast together: while tracing,
    or by a staged check for sizes known only at run time."""
    shapes = [_shape(i) for i in arrays]
    if len(shapes) < 2:
        return
    try:
        broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + " ".join(str(s) for s in shapes)) from None
    rank = max(len(s) for s in shapes)
    for back in range(1, rank + 1):  # (a pair of sizes: equal, or one of them 1)
        sizes = [(i, s[-back]) for i, s in zip(arrays, shapes) if len(s) >= back]
        for (i, a), (j, b) in zip(sizes, sizes[1:]):
            if a is None or b is None:
                a = apply("dim", i, axis=i.ndim - back) if a is None else a
                b = apply("dim", j, axis=j.ndim - back) if b is None else b
                apply("assert", (a == b) | (a == 1) | (b == 1), error="IndexError",
                      message="shape mismatch: indexing arrays could not be broadcast "
                              "together")


def _mask_positions(mask, n, axis):
    if mask.ndim != 1:
        raise IndexError("a boolean mask of 2 or more dims is supported alone and of the "
                         "array's own shape (x[m] with m.shape == x.shape)")
    check_mask_axis(n, size_of(mask, 0), axis)
    if not isinstance(mask, Tensor):
        return np.flatnonzero(mask)
    return apply("getitem", _arange(n), mask, spec=(("mask", 1),))


def positions(y, advanced):
    """The int64 array of C-order offsets into ``y.ravel()`` that ``y[index]`` reads, for
    ``advanced`` {axis: index} and every other axis taken whole, shaped as NumPy's result."""
    n = y.ndim
    sizes = [size_of(y, k) for k in range(n)]
    strides = [1] * n
    for k in range(n - 2, -1, -1):
        strides[k] = _mul(strides[k + 1], sizes[k + 1])
    at = {k: wrapped(i, sizes[k], k) for k, i in advanced.items()}
    _check_together([i for i in at.values() if _shape(i)])
    flat = 0
    for k, i in at.items():
        flat = _add(flat, _mul(i, strides[k]))
    axes = sorted(advanced)
    whole = [k for k in range(n) if k not in advanced]
    together = axes == list(range(axes[0], axes[-1] + 1))
    before = [k for k in whole if together and k < axes[0]]
    after = [k for k in whole if k not in before]
    rank = len(before) + len(_shape(flat)) + len(after)
    flat = _trailing(flat, len(after))
    for at, k in enumerate(before + after):
        dim = at if at < len(before) else at + rank - len(before) - len(after)
        flat = _add(flat, _trailing(_mul(_arange(sizes[k]), strides[k]), rank - dim - 1))
    return flat


def _basic(x, basic):
    """``x[basic]`` (a view): ``x`` itself when every item is ``:``."""
    if all(b == _WHOLE for b in basic):
        return x
    spec, tensors = encode_index(basic)
    return apply("getitem", x, *tensors, spec=spec)


def _ravel(v):
    return apply("reshape", v, shape=(-1,))


GATHER = (("gather", 1),)  # (the spec of x[idx]: one index array, on the first axis)


def gather(x, spec, tensors):
    """``x[index]`` for ``spec`` with several integer arrays (``needs_flat``)."""
    basic, advanced = split(x.ndim, spec, tensors)
    y = _basic(x, basic)
    return apply("getitem", _ravel(y), positions(y, advanced), spec=GATHER)


def fitted(value, where):
    """``value`` broadcast to the shape of the positions ``where`` and raveled as they are
    (a scalar as it is), or NumPy's ValueError."""
    if not isinstance(value, Tensor):
        value = np.asarray(value)
    if value.ndim == 0:
        return value
    vs, ws = _shape(value), _shape(where)
    try:
        if len(vs) > len(ws):
            raise ValueError
        broadcast_shapes(vs, ws)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {vs} could not be broadcast "
                         f"to indexing result of shape {ws}") from None
    return _ravel(apply("broadcast_to", value, where))


def scatter(x, spec, tensors, value, at=None):
    """``x`` with ``x[index] = value`` for ``spec`` with several integer arrays (a new
    value); ``at`` (an op of adjoint.AT_UFUNCS, "add"): with ``value`` combined at each
    position instead, unbuffered (``np.add.at``: a repeated position adds every value, in
    order)."""
    basic, advanced = split(x.ndim, spec, tensors)
    y = _basic(x, basic)
    where = positions(y, advanced)  # (NumPy's result shape, None's axes included)
    if None in basic:  # size-1 axes: the same elements in the same order without them
        basic = [b for b in basic if b is not None]
        y = _basic(x, basic)
    if at is not None:
        rows = _ravel(apply("broadcast_to", value, where))
        flat = apply("add_at", _ravel(y), _ravel(where), rows, ufunc=at)
    else:
        flat = apply("setitem", _ravel(y), fitted(value, where), _ravel(where), spec=GATHER)
    updated = apply("reshape_as", flat, y)
    if y is x:
        return updated
    spec, tensors = encode_index(basic)
    return apply("setitem", x, updated, *tensors, spec=spec)
