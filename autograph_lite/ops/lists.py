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


_RAGGED = "all input arrays must have the same shape (rows appended to a staged list)"


def _push_eager(buf, n, row):
    n, row = int(n), np.asarray(row)
    if n and buf.shape[1:] != row.shape:
        raise ValueError(_RAGGED)
    cap = buf.shape[0] if n < buf.shape[0] else max(2 * buf.shape[0], n + 1)
    out = np.empty((cap,) + row.shape, buf.dtype)
    if n:  # (an empty buffer may have placeholder row sizes: see _push_lower)
        out[:n] = buf[:n]
    out[n] = row
    return out


def _push_lower(em, node):
    """Inline, rank-specific loops rather than a generic helper: Numba compiles the
    generic version (tuple concatenation, N-d slice assignment) ~1.9 s slower, once per
    process and row type; these loops compile in a few ms and run the same."""
    buf, n, row = node.inputs
    out, r, k = em.new(node.outputs[0]), em.name(row), em.name(n)
    em.line(f"{out} = {em.writable(buf, node, same_object=False)}")
    rows = [f"{r}.shape[{d}]" for d in range(row.type.ndim)]
    # a buffer made before the loop has placeholder row sizes where they were unknown
    # while tracing: the first push takes the row's (see _push_eager)
    differs = " or ".join(f"{out}.shape[{d + 1}] != {s}" for d, s in enumerate(rows))
    if rows:
        with em.block(f"if {k} > 0 and ({differs}):"):
            em.line(f"raise ValueError({_RAGGED!r})")
    grow = f"{k} >= {out}.shape[0]" + (f" or ({differs})" if rows else "")
    with em.block(f"if {grow}:"):
        grown = em.fresh("grown")
        cap = f"{out}.shape[0]"
        size = f"{cap} if {k} < {cap} else max(2 * {cap}, {k} + 1)"
        em.line(f"{grown} = {em.alloc([size] + rows, buf.type.dtype)}")
        with em.loops([k] + rows) as idx:
            em.line(f"{grown}[{', '.join(idx)}] = {out}[{', '.join(idx)}]")
        em.line(f"{out} = {grown}")
    if rows:
        with em.loops(rows) as idx:
            em.line(f"{out}[{k}, {', '.join(idx)}] = {r}[{', '.join(idx)}]")
    else:
        em.line(f"{out}[{k}] = {r}")


defop("list_push", infer=_push_infer, layout="unknown", eager=_push_eager, lower=_push_lower,
      updates_input=True,
      doc="buffer with row written at index n (grown when full): a staged list's append")
