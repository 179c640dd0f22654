"""One-dimensional sampled signals: ``convolve`` (full/same/valid) and ``interp`` (piecewise
linear, NumPy's values at and beyond the ends), each one loop nest lowered by hand.
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType
from .io import emit_raise
from .registry import defop

_CONVOLVE_MODES = ("full", "same", "valid")


def _convolve_infer(in_types, mode):
    a, v = in_types
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("np.convolve takes 1-D arrays")
    n, m = a.shape[0], v.shape[0]
    if mode not in _CONVOLVE_MODES:
        raise ValueError(f"mode must be one of 'full', 'same', or 'valid' (got {mode!r})")
    if n is None or m is None:
        size = None
    else:
        size = {"full": n + m - 1, "same": max(n, m), "valid": max(n, m) - min(n, m) + 1}[mode]
    return [TensorType(np.result_type(a.dtype, v.dtype), (size,))]


def _convolve_lower(em, node):
    """out[k] = sum over j of a[k + first - j] v[j], j where that element of a exists: one
    pass per output (the O(n m) sum numba.njit's np.convolve does too), no gathered copy."""
    (a, v), out = node.inputs, node.outputs[0]
    mode = node.attrs["mode"]
    an, vn, name = em.name(a), em.name(v), em.new(out)
    n, m, first, size, k, j, s = (em.fresh(p) for p in ("n", "m", "first", "size", "k", "j",
                                                         "s"))
    em.line(f"{n} = {an}.shape[0]")
    em.line(f"{m} = {vn}.shape[0]")
    for size_, arg in ((n, "a"), (m, "v")):
        with em.block(f"if {size_} == 0:"):
            emit_raise(em, node, "ValueError", f"{arg} cannot be empty")
    first_size = {"full": ("0", f"{n} + {m} - 1"),
                  "same": (f"(min({n}, {m}) - 1) // 2", f"max({n}, {m})"),
                  "valid": (f"min({n}, {m}) - 1", f"max({n}, {m}) - min({n}, {m}) + 1")}[mode]
    em.line(f"{first} = {first_size[0]}")
    em.line(f"{size} = {first_size[1]}")
    dt = out.type.dtype
    em.line(f"{name} = {em.alloc([size], dt)}")
    zero = "False" if dt.kind == "b" else em.lit(0, dt)
    with em.block(f"for {k} in range({size}):"):
        em.line(f"{s} = {zero}")
        lo, hi = f"max(0, {k} + {first} - {n} + 1)", f"min({m}, {k} + {first} + 1)"
        with em.block(f"for {j} in range({lo}, {hi}):"):
            term = (f"{em.cast(f'{an}[{k} + {first} - {j}]', a.type.dtype, dt)} * "
                    f"{em.cast(f'{vn}[{j}]', v.type.dtype, dt)}")
            if dt.kind == "b":
                em.line(f"{s} = {s} or ({term})")
            else:
                em.line(f"{s} = {em.fix(f'{s} + {term}', dt)}")
        em.line(f"{name}[{k}] = {s}")
    return None


defop("convolve", infer=_convolve_infer,
      eager=lambda a, v, mode: np.convolve(np.asarray(a), np.asarray(v), mode),
      lower=_convolve_lower,
      doc="np.convolve(a, v, mode) of 1-D arrays (NumPy's errors for empty inputs)")


def _interp_infer(in_types):
    x, xp, fp, left, right = in_types
    if xp.ndim != 1 or fp.ndim != 1 or x.ndim < 1:
        raise ValueError("interp: x (rank >= 1), xp and fp (1-D) as the composite passes them")
    return [TensorType(dtypes.float64, x.shape)]


def _interp_eager(x, xp, fp, left, right):
    return np.interp(x, xp, fp, left=left, right=right)


def _interp_lower(em, node):
    """NumPy's own loop (numpy/_core/src/multiarray/compiled_base.c, arr_interp): a binary
    search per value, then its special cases in its order."""
    (x, xp, fp, left, right), out = node.inputs, node.outputs[0]
    pn, fn, ln, rn = (em.name(v) for v in (xp, fp, left, right))
    name = em.new(out)
    n, xv, j, r, slope, lo, hi, mid = (em.fresh(p) for p in ("n", "xv", "j", "r", "slope",
                                                               "lo", "hi", "mid"))
    dims = em.dims(x)
    em.line(f"{name} = {em.alloc(dims, out.type.dtype)}")
    em.line(f"{n} = {pn}.shape[0]")
    em.line(f"{j} = 0")
    with em.loops(dims) as idx:
        em.line(f"{xv} = {em.elem(x, idx)}")
        cases = ((f"{n} == 1", f"{ln} if {xv} < {pn}[0] else ({rn} if {xv} > {pn}[0] else "
                               f"{fn}[0])"),
                 (f"{xv} != {xv}", xv), (f"{xv} < {pn}[0]", ln), (f"{xv} > {pn}[{n} - 1]", rn))
        for k, (test, value) in enumerate(cases):
            with em.block(f"{'elif' if k else 'if'} {test}:"):
                em.line(f"{r} = {value}")
        with em.block("else:"):
            # the last j with xp[j] <= x: the previous value's j when it still fits (sorted
            # x, NumPy's "search with guess"), else a binary search
            with em.block(f"if not ({j} < {n} - 1 and {pn}[{j}] <= {xv} < {pn}[{j} + 1]):"):
                em.line(f"{lo}, {hi} = 0, {n}")
                with em.block(f"while {lo} < {hi}:"):
                    em.line(f"{mid} = ({lo} + {hi}) >> 1")
                    with em.block(f"if {pn}[{mid}] <= {xv}:"):
                        em.line(f"{lo} = {mid} + 1")
                    with em.block("else:"):
                        em.line(f"{hi} = {mid}")
                em.line(f"{j} = {lo} - 1")
            with em.block(f"if {j} >= {n} - 1 or {pn}[{j}] == {xv}:"):
                em.line(f"{r} = {fn}[{j}]")
            with em.block("else:"):
                em.line(f"{slope} = ({fn}[{j} + 1] - {fn}[{j}]) / ({pn}[{j} + 1] - {pn}[{j}])")
                em.line(f"{r} = {slope} * ({xv} - {pn}[{j}]) + {fn}[{j}]")
                with em.block(f"if {r} != {r}:"):
                    em.line(f"{r} = {slope} * ({xv} - {pn}[{j} + 1]) + {fn}[{j} + 1]")
                    with em.block(f"if {r} != {r} and {fn}[{j}] == {fn}[{j} + 1]:"):
                        em.line(f"{r} = {fn}[{j}]")
        em.line(f"{name}[{', '.join(idx)}] = {r}")
    return None


defop("interp", infer=_interp_infer, eager=_interp_eager, lower=_interp_lower,
      doc="np.interp of float64 x (rank >= 1) on 1-D float64 xp, fp, with left/right values")
