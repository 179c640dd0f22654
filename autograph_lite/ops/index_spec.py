"""The structure of an index (``x[...]``) as a static, hashable ``spec``: each item
``("int", k)``, ``("tint", j)`` (a 0-d tensor index), ``("slice", start, stop, step)`` (each
bound None, ``("c", k)`` or ``("t", j)``), ``("new",)``, ``("ellipsis",)``, ``("gather",
j)`` (an integer array) or ``("mask", j)`` (a boolean array); ``j`` numbers the index's
tensor parts from 1. Pure functions of the spec, read by the indexing ops, the
advanced-index compositions and the contiguity rules."""
import numpy as np

from .. import dtypes
from ..tensor import Tensor, to_numpy_value


def encode_index(index):
    """(spec, tensors): a hashable description of ``index`` plus its tensor parts."""
    if not isinstance(index, tuple):
        index = (index,)
    spec, tensors = [], []

    def part(v):
        if v is None:
            return None
        if isinstance(v, (bool, np.bool_)):
            raise TypeError("a boolean cannot be used as a slice bound")
        if isinstance(v, (int, np.integer)):
            return ("c", int(v))
        if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu":
            return ("c", int(v))
        if not (isinstance(v, Tensor) and v.ndim == 0 and v.dtype.kind in "iu"):
            # (Python's own error: a float bound, `x[:n / 2]`, is not truncated)
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
        tensors.append(v)
        return ("t", len(tensors))

    for item in index:
        if item is None:
            spec.append(("new",))
        elif item is Ellipsis:
            spec.append(("ellipsis",))
        elif isinstance(item, slice):
            spec.append(("slice", part(item.start), part(item.stop), part(item.step)))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            spec.append(("int", int(item)))
        else:
            if isinstance(item, (list, tuple)) and not item:
                item = np.zeros(0, np.int64)  # (NumPy's: an empty list indexes as intp)
            elif not isinstance(item, Tensor):
                item = to_numpy_value(item)
            kind = "mask" if item.dtype == dtypes.bool_ else (
                "tint" if item.ndim == 0 else "gather")
            if item.dtype.kind not in "iub":
                raise IndexError(f"only integers, slices, None, Ellipsis and integer or boolean "
                                 f"tensors are valid indices; got a {item.dtype} tensor")
            tensors.append(item)
            spec.append((kind, len(tensors)))
    return tuple(spec), tensors


def expand_spec(spec, ndim):
    """``spec`` with its Ellipsis (or the implied trailing one) spelled out as full slices."""
    used = sum(1 for s in spec if s[0] not in ("new", "ellipsis"))
    if used > ndim:
        raise IndexError(f"too many indices for a tensor of rank {ndim}: {used} were indexed")
    if sum(1 for s in spec if s[0] == "ellipsis") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    out = []
    for s in spec:
        if s[0] == "ellipsis":
            out += [("slice", None, None, None)] * (ndim - used)
        else:
            out.append(s)
    if not any(s[0] == "ellipsis" for s in spec):
        out += [("slice", None, None, None)] * (ndim - used)
    return out


def mask_mismatch(axis, n, m):
    """NumPy's words for a boolean index of length ``m`` on an axis of size ``n``."""
    return (f"boolean index did not match indexed array along axis {axis}; size of axis is "
            f"{n} but size of corresponding boolean axis is {m}")


def decode(spec, tensors):
    """The NumPy index tuple for ``spec`` given the values of its tensor parts."""
    def part(p):
        return None if p is None else p[1] if p[0] == "c" else int(tensors[p[1] - 1])
    out = []
    for s in spec:
        kind = s[0]
        out.append(None if kind == "new" else Ellipsis if kind == "ellipsis"
                   else s[1] if kind == "int" else slice(*map(part, s[1:])) if kind == "slice"
                   else np.asarray(tensors[s[1] - 1]))
    return tuple(out)


ADVANCED = ("gather", "mask", "int", "tint")


def advanced_items(items):
    """(positions, adjacent) of NumPy's advanced indices in ``items`` (an expanded spec):
    the integer and boolean arrays and, when there is one, the integers too (NumPy
    broadcasts those with the arrays). ``adjacent``: they sit next to each other (no slice
    or None between them), where NumPy puts the broadcast dims in their place; else first."""
    if not any(s[0] in ("gather", "mask") for s in items):
        return [], True
    pos = [k for k, s in enumerate(items) if s[0] in ADVANCED]
    return pos, pos == list(range(pos[0], pos[-1] + 1))
