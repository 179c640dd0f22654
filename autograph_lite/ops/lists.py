"""``list_push``: the growable list that AutoGraph carries through staged loops.

A Python list appended to in a staged loop becomes a buffer plus a length (see
autograph/runtime/data.py ``TensorList``). Stacking the list after the loop is the view
``buf[:n]``. Pushing writes one row in place and doubles the buffer when it is full, so
appending T rows costs O(T) (a ``concatenate`` per iteration would cost O(T^2)); the
buffer is usually allocated with the loop's trip count, so it never grows at all.
"""
import numpy as np

from ..ir.types import TensorType
from .registry import defop


def _push_infer(in_types):
    buf, n, row = in_types
    if n.ndim != 0 or n.dtype.kind not in "iu":
        raise TypeError(f"list_push: the length must be an integer scalar, got {n}")
    if row.dtype != buf.dtype:
        raise TypeError(f"a list of {buf.dtype} rows cannot take a {row.dtype} row; "
                        f"cast it to {buf.dtype} before appending")
    if row.ndim != buf.ndim - 1:
        raise ValueError(f"a list of rank-{buf.ndim - 1} rows cannot take a rank-{row.ndim} "
                         f"row (shape {row.shape})")
    rows = tuple(a if a == b else None for a, b in zip(buf.shape[1:], row.shape))
    return [TensorType(buf.dtype, (None,) + rows)]


def _push_eager(buf, n, row):
    n, row = int(n), np.asarray(row)
    cap = buf.shape[0] if n < buf.shape[0] else max(2 * buf.shape[0], n + 1)
    out = np.empty((cap,) + row.shape, buf.dtype)
    if n:  # (an empty buffer may have placeholder row sizes: see cpu_runtime.list_push)
        out[:n] = buf[:n]
    out[n] = row
    return out


def _push_lower(em, node):
    buf, n, row = node.inputs
    return f"rt.list_push({em.writable(buf, node)}, {em.name(n)}, {em.name(row)})"


defop("list_push", infer=_push_infer, eager=_push_eager, lower=_push_lower,
      updates_input=True,
      doc="buffer with row written at index n (grown when full): a staged list's append")
