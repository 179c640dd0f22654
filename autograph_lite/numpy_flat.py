"""``x.flat`` on a tensor: NumPy's flat iterator, the elements in C order whatever the
strides.

- ``x.flat[k]`` reads the raveled *value* (a plain tensor, never a view of the box, so a
  transposed or sliced ``x`` is no aliasing question): an integer gives the element, a
  slice a copy, an integer array the gather shaped as the index, a boolean array of
  ``x``'s size the selected elements.
- ``x.flat[k] = v`` (and ``x.flat = v``, every position) is the raveled update shaped back
  and stored into ``x``'s storage (mutation.store: every alias and view sees it), with
  NumPy's rules for the value: at one position it must be one value (else NumPy's
  ValueError); at several it is raveled and repeats along them (``a.flat[1:5] = [1, 2]``
  writes 1, 2, 1, 2), a longer one is cut, an empty one writes nothing.
- ``for v in x.flat`` reads each element when its trip runs, so a write into ``x`` in the
  body is seen as NumPy's iterator sees it (a staged loop: iteration.py's ``FlatItems``).

``np.fill_diagonal`` writes through ``store`` too (numpy_selection.py).
"""
import numpy as np

from . import contiguity, control, dtypes, mutation
from . import numpy_api as npa
from .ops.dispatch import apply, convert_to_tensor, size_of
from .ops.indexing import check_number_written, setitem
from .ops.registry import expose, public
from .tensor import SymbolicTensor, Tensor


def value_of(x):
    """The current value of ``x`` as a plain tensor (no storage: not a view of a box)."""
    if isinstance(x, SymbolicTensor):
        return SymbolicTensor(x._value)
    return convert_to_tensor(x)


def _is_position(k):
    """An integer index: one position (NumPy's ``flat[k]`` of a Python or NumPy int, or a
    0-d integer tensor)."""
    if isinstance(k, (bool, np.bool_)):
        return False
    if isinstance(k, (int, np.integer)):
        return True
    return isinstance(k, Tensor) and k.ndim == 0 and k.dtype.kind in "iu"


def _index(k, total):
    """``k`` as an index into the raveled array: an integer, a slice, an integer array; a
    boolean array (of the array's size: NumPy's IndexError otherwise) as its positions."""
    if isinstance(k, tuple):
        if len(k) != 1:
            raise IndexError(f"too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {len(k)} were indexed")
        k = k[0]
    if _is_position(k) or isinstance(k, slice):
        return k
    index = convert_to_tensor(k)
    if index.dtype == dtypes.bool_:
        if index.ndim != 1:
            raise IndexError("a boolean index into x.flat must be 1-dimensional (NumPy "
                             "raises for any other)")
        return npa.arange(total)[index]  # (its positions; a size mismatch: NumPy's error)
    if index.dtype.kind not in "iu":
        raise IndexError(f"only integers, slices and integer or boolean arrays are valid "
                         f"indices into x.flat; got a {index.dtype} array")
    return index


def read(x, k):
    """``x.flat[k]``: a copy, as NumPy's (never a view)."""
    flat = npa.ravel(value_of(x))
    index = _index(k, size_of(flat, 0))
    got = flat[index]
    return npa.copy(got) if isinstance(index, slice) else got


def _positions(index, total):
    """The positions ``index`` names in a raveled array of ``total`` elements (an array)."""
    return npa.arange(total)[index] if isinstance(index, slice) else index


def _may_view(s, target):
    """Whether storage ``s`` is ``target``'s, or is on some runs (a merge one of whose
    options is: `v = x[:-1]`, rebound to a copy under a staged `if`)."""
    return s is not None and (s is target or any(_may_view(o.storage, target)
                                                 for o in s.options))


def store(target, where, value, what="x.flat[...] =", partial=True):
    """``target.flat[where] = value`` (``where`` an index into the raveled array), NumPy's
    repeating of the value included; every alias and view of ``target`` sees it.
    ``partial``: the positions before the first one out of range are written before
    NumPy's IndexError (its flat iterator writes them one by one), else none are."""
    box = npa.writable(target, what)
    x = value_of(box)
    flat = npa.ravel(x)
    total = size_of(flat, 0)
    where = _index(where, total)
    full = None
    if isinstance(where, Tensor) and where.ndim:
        full = where = npa.ravel(where)
        if partial:  # (the first position out of range, or the count: argmax of one more)
            outside = (where < -total) | (where >= total)
            first = npa.argmax(npa.concatenate([outside, npa.ones(1, dtype=bool)]))
            where = where[:first]
    v = value if isinstance(value, Tensor) else np.asarray(value)
    if _is_position(where):
        if v.ndim:
            raise ValueError("Error setting single item of array.")
        updated = setitem(flat, where, v)
    elif not v.ndim:
        updated = setitem(flat, where, v)
    else:
        if isinstance(value, SymbolicTensor) and _may_view(value._storage, box._storage):
            # (NumPy's flatiter copies element by element, with no overlap test: a view of
            # the array it writes reads what it overwrote, `x.flat[1:] = x[:-1]` spreading
            # x[0]; a copied value, as setitem's, would differ)
            raise NotImplementedError(
                f"`{what}` from a view of the same array is not staged: NumPy writes it "
                f"element by element, reading the elements it overwrote; write "
                f"`.copy()` of the value for a copy's result")
        positions = npa.ravel(_positions(where, total))
        v = npa.ravel(v)
        count, size = size_of(positions, 0), size_of(v, 0)
        if isinstance(size, int) and size == 0:
            return box  # (an empty value writes nothing, as NumPy's)

        def written():
            return setitem(flat, positions, v[npa.arange(count) % size])
        # (a size known only at run time may be 0: then nothing is written, staged)
        updated = written() if isinstance(size, int) else control.cond(
            size > 0, written, lambda: flat)
    mutation.store(box, apply("reshape_as", updated, x), own_dtype)
    if full is not None:
        ok, first = apply("bounds_ok", full, total)
        apply("assert", ok, first, total, error="IndexError",
              message="index is out of bounds for axis 0",
              parts=("index ", (-1, "", "int"), " is out of bounds for axis 0 with size ",
                     (-1, "", "int")))
    return box


def own_dtype(a, b):
    """mutation.store's cast check for an update of the target's own dtype: none fails."""
    return ""


class FlatIter:
    """What ``x.flat`` is on a tensor (NumPy's ``numpy.flatiter``): index it, write through
    it, iterate it, ``len`` it, ``.copy()`` it; ``.base`` is ``x``."""
    __slots__ = ("base",)

    def __init__(self, base):
        self.base = base

    def __getitem__(self, k):
        return read(self.base, k)

    def __setitem__(self, k, value):
        store(self.base, k, value)

    def __len__(self):
        n = size_of(npa.ravel(value_of(self.base)), 0)
        if not isinstance(n, int):
            raise TypeError("len(x.flat) of a tensor whose size is known only when the "
                            "compiled function runs; use x.size")
        return n

    def __iter__(self):
        return (self[i] for i in range(len(self)))  # (each read when it is reached)

    def copy(self):
        return npa.flatten(value_of(self.base))

    def __repr__(self):
        return f"<flat iterator of {self.base!r}>"


def _assign_all(x, value):
    store(x, slice(None), value, "x.flat =")


expose("Tensor.flat", property(FlatIter, _assign_all))


@public("np.put", "Tensor.put")
def put(a, ind, v, mode="raise"):
    """``np.put(a, ind, v)``: ``a.flat[ind] = v`` with ``ind`` always an array of positions
    (one position takes the first value; with ``mode="raise"`` the writes before the first
    one out of range are kept, as ``store``'s); ``"wrap"`` takes them modulo the size,
    ``"clip"`` into ``[0, size)``."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    ind = npa.ravel(convert_to_tensor(ind))
    if ind.dtype.kind not in "iu":
        raise TypeError(f"Cannot cast array data from dtype('{ind.dtype}') to "
                        f"dtype('int64') according to the rule 'safe'")
    if not isinstance(v, (list, tuple, np.ndarray)) and getattr(a, "dtype", None) is not None:
        check_number_written(a, v)  # (a NaN into ints: NumPy's ValueError, was INT_MIN)
    v = convert_to_tensor(v)  # (a list holding tensors: their stack)
    count, n = size_of(ind, 0), size_of(npa.ravel(value_of(npa.writable(a, "np.put"))), 0)
    if (isinstance(count, int) and count == 0) or (isinstance(v.size, int) and v.size == 0):
        return store(a, ind, v, "np.put")  # (writes nothing, checks nothing: NumPy's)
    if mode != "raise" and isinstance(n, int) and n == 0:
        raise IndexError("cannot replace elements of an empty array")
    if mode == "clip":
        ind = npa.clip(ind, 0, n - 1)
    elif mode == "wrap":
        ind = ind % n
    # (into an array that is not C-contiguous NumPy puts into a copy, written back only
    # when every position was in range)
    return store(a, ind, v, "np.put", partial=contiguity.box_is_c(npa.writable(a, "np.put")))
