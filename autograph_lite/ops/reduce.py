"""Reductions with ``axis``/``keepdims`` (lowered by hand: Numba lacks most of them) and scans.

Every reduction is one loop nest over its input, which may be a fused elementwise
expression (``np.max(np.abs(d))`` makes no temporary).
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType
from .elementwise import real_only
from .io import emit_raise
from .registry import defop


def norm_axis(axis, ndim, name="axis"):
    """None -> None; int or sequence -> sorted tuple of non-negative axes (validated)."""
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"{name}={axis} is out of bounds for a tensor of rank {ndim}")
        out.append(a % max(ndim, 1))
    if len(set(out)) != len(out):
        raise ValueError(f"{name}={axis} repeats an axis")
    return tuple(sorted(out))


def _reduced_shape(shape, axis, keepdims):
    axes = range(len(shape)) if axis is None else axis
    return tuple(1 if k in axes else d for k, d in enumerate(shape) if keepdims or k not in axes)


def _make_infer(np_fn, fixed_dtype=None):
    def infer(in_types, axis=None, keepdims=False):
        t = in_types[0]
        dt = fixed_dtype or np_fn(np.ones((1,), t.dtype)).dtype
        return [TensorType(np.dtype(dt), _reduced_shape(t.shape, axis, keepdims))]
    return infer


def _eager(np_fn):
    def run(x, axis=None, keepdims=False):
        return np.asarray(np_fn(np.asarray(x), axis=axis, keepdims=keepdims))[()]
    return run


def _lower_reduction(init, combine, finalize=None, nonempty=None):
    """OpDef fields ``lower`` and ``fold`` of one reduction;
    ``combine(em, acc, elem_expr, out_dtype)`` emits one accumulation.

    ``fold(em, node, dims)`` serves a full reduction (0-d result) computed inside a loop
    nest the emitter opens for other outputs over ``dims`` (see Emitter.materialize_group):
    it emits the set-up now and returns ``(step(idx), finish())``."""
    def setup(em, node, dims):
        x, out = node.inputs[0], node.outputs[0]
        axis, keepdims = node.attrs.get("axis"), node.attrs.get("keepdims", False)
        rank = x.type.ndim
        axes = tuple(range(rank)) if axis is None else axis
        dt = out.type.dtype
        if nonempty:
            for k in axes:
                with em.block(f"if {dims[k]} == 0:"):
                    em.line(f"raise ValueError('zero-size array to reduction operation "
                            f"{nonempty} which has no identity')")
        name = em.new(out)
        start = em.lit(init(dt), dt)
        flag = None
        if out.type.ndim == 0:
            em.line(f"{name} = {start}")
            if getattr(combine, "nan_flag", False) and dt.kind == "f":
                flag = em.fresh("nan_seen")
                em.line(f"{flag} = False")
        else:
            odims = [("1" if k in axes else dims[k]) for k in range(rank)
                     if keepdims or k not in axes]
            em.fill(name, odims, start, dt)

        def step(idx, acc=None):
            """Accumulates the element at ``idx`` (into ``acc``, another scalar
            accumulator of the same kind, when given)."""
            em.dims(x)  # the broadcasting plan em.elem reads
            e = em.cast(em.elem(x, idx), x.type.dtype, dt)
            target = acc or name
            if out.type.ndim:
                o = [("0" if k in axes else idx[k]) for k in range(rank)
                     if keepdims or k not in axes]
                target = f"{name}[{', '.join(o)}]"
            if flag:
                combine.flagged(em, target, e, flag)
            else:
                combine(em, target, e, dt)

        def finish():
            if flag:
                with em.block(f"if {flag}:"):
                    em.line(f"{name} = np.nan")
            if finalize:
                finalize(em, name, out, [dims[k] for k in axes])
        return step, finish

    def lower(em, node):
        dims = em.dims(node.inputs[0])
        step, finish = setup(em, node, dims)
        if (getattr(combine, "lanes", None) and node.outputs[0].type.ndim == 0
                and node.inputs[0].type.ndim == 1
                and node.outputs[0].type.dtype.kind == "f"):
            combine.lanes(em, em.name(node.outputs[0]), dims[0], step)
        else:
            with em.loops(dims) as idx:
                step(idx)
        finish()
        return None
    return dict(lower=lower, fold=_Fold(setup))


class _Fold:
    """A full reduction computed in another loop nest (OpDef.fold). Only integer ones:
    a float max or sum carried from element to element (no reassociation, NaNs kept)
    stops LLVM vectorizing the loop it joins, which then runs ~3x slower than two."""

    def __init__(self, setup):
        self.setup = setup

    def applies(self, node):
        t = node.outputs[0].type
        return t.ndim == 0 and t.dtype.kind in "iu" and node.inputs[0].type.ndim > 0

    def __call__(self, em, node, dims):
        return self.setup(em, node, dims)


def _assign(op):
    def combine(em, acc, e, dt):
        em.line(f"{acc} = {em.fix(op.format(acc, e), dt)}")
    return combine


def _extreme(cmp):
    """max/min with NumPy's NaN propagation. Into one scalar, NaNs are noted in a flag
    and the running extreme is a select, not a compare-and-branch on every element (a
    shorter dependency chain: 1.6x faster); an array of outputs keeps the branch."""
    def combine(em, acc, e, dt):
        t = em.fresh("t")
        em.line(f"{t} = {e}")
        nan = f" or {t} != {t}" if dt.kind == "f" else ""
        with em.block(f"if {t} {cmp} {acc}{nan}:"):
            em.line(f"{acc} = {t}")

    def flagged(em, acc, e, flag):
        t = em.fresh("t")
        em.line(f"{t} = {e}")
        em.line(f"{acc} = {t} if {t} {cmp} {acc} else {acc}")
        em.line(f"{flag} |= {t} != {t}")

    def lanes(em, name, n, step):
        """The loop of a rank-1 float max/min into the scalar ``name`` (set up, and
        finished, by the caller) with four independent accumulators: one select chain
        is latency-bound (2.6x slower on 200,000 doubles)."""
        accs = [em.fresh(f"{name}_{k}") for k in range(1, 4)]
        em.line(f"{' = '.join(accs)} = {name}")
        j = em.fresh("j")
        with em.block(f"for {j} in range({n} // 4):"):
            for k, acc in enumerate([name] + accs):
                step([f"(4 * {j} + {k})"], acc)
        with em.loops([f"{n} // 4 * 4, {n}"]) as idx:
            step(idx)
        for acc in accs:
            em.line(f"{name} = {acc} if {acc} {cmp} {name} else {name}")
    combine.nan_flag, combine.flagged, combine.lanes = True, flagged, lanes
    return combine


def _mean_finalize(em, name, out, rdims):
    count = " * ".join(rdims) or "1"
    em.line(f"{name} = {em.fix(f'{name} / ({count})', out.type.dtype)}"
            if out.type.ndim == 0 else f"{name} /= ({count})")


def _lowest(dt):
    return -np.inf if dt.kind == "f" else False if dt.kind == "b" else np.iinfo(dt).min


def _highest(dt):
    return np.inf if dt.kind == "f" else True if dt.kind == "b" else np.iinfo(dt).max


_R = dict(fuses_inputs=True)
defop("reduce_sum", infer=_make_infer(np.sum), eager=_eager(np.sum),
      **_lower_reduction(lambda dt: 0, _assign("({0} + {1})")),
      names=("np.add.reduce",), **_R)
defop("reduce_prod", infer=_make_infer(np.prod), eager=_eager(np.prod),
      **_lower_reduction(lambda dt: 1, _assign("({0} * {1})")),
      names=("np.multiply.reduce",), **_R)
defop("reduce_mean", infer=_make_infer(np.mean), eager=_eager(np.mean),
      **_lower_reduction(lambda dt: 0, _assign("({0} + {1})"), _mean_finalize), **_R)
defop("reduce_max", infer=real_only(_make_infer(np.max), "np.max"), eager=_eager(np.max),
      **_lower_reduction(_lowest, _extreme(">"), nonempty="maximum"),
      names=("np.maximum.reduce",), **_R)
defop("reduce_min", infer=real_only(_make_infer(np.min), "np.min"), eager=_eager(np.min),
      **_lower_reduction(_highest, _extreme("<"), nonempty="minimum"),
      names=("np.minimum.reduce",), **_R)
defop("reduce_any", infer=_make_infer(np.any, dtypes.bool_), eager=_eager(np.any),
      **_lower_reduction(lambda dt: False, _assign("({0} or {1})")),
      differentiable=False, names=("np.logical_or.reduce",), **_R)
defop("reduce_all", infer=_make_infer(np.all, dtypes.bool_), eager=_eager(np.all),
      **_lower_reduction(lambda dt: True, _assign("({0} and {1})")),
      differentiable=False, names=("np.logical_and.reduce",), **_R)


def _arg_infer(in_types, axis=None, keepdims=False):
    t = in_types[0]
    if axis is not None and len(axis) != 1:
        raise ValueError("argmax/argmin take a single axis")
    return [TensorType(dtypes.int64, _reduced_shape(t.shape, axis, keepdims))]


def _arg_eager(fn):
    def run(x, axis=None, keepdims=False):
        ax = None if axis is None else axis[0]
        return np.asarray(fn(np.asarray(x), axis=ax, keepdims=keepdims), np.int64)[()]
    return run


def _lower_arg(cmp, name):
    def lower(em, node):
        x, out = node.inputs[0], node.outputs[0]
        axis, keepdims = node.attrs.get("axis"), node.attrs.get("keepdims", False)
        rank = x.type.ndim
        axes = tuple(range(rank)) if axis is None else axis
        dims = em.dims(x)
        for k in axes:
            with em.block(f"if {dims[k]} == 0:"):
                em.line(f"raise ValueError('attempt to get {name} of an empty sequence')")
        res, best = em.new(out), em.fresh("best")
        init = em.lit((_lowest if cmp == ">" else _highest)(x.type.dtype), x.type.dtype)
        flat = axis is None
        if out.type.ndim == 0:
            em.line(f"{res} = 0")
            em.line(f"{best} = {init}")
            acc_r, acc_b = res, best
        else:
            odims = [("1" if k in axes else dims[k]) for k in range(rank)
                     if keepdims or k not in axes]
            em.fill(res, odims, "0", np.int64)
            em.fill(best, odims, init, x.type.dtype)
        if flat:
            n = em.fresh("n")
            em.line(f"{n} = 0")
        with em.loops(dims) as idx:
            if out.type.ndim:
                o = ", ".join("0" if k in axes else idx[k] for k in range(rank)
                              if keepdims or k not in axes)
                acc_r, acc_b = f"{res}[{o}]", f"{best}[{o}]"
            t = em.fresh("t")
            em.line(f"{t} = {em.elem(x, idx)}")
            nan = (f" or ({t} != {t} and {acc_b} == {acc_b})"
                   if x.type.dtype.kind == "f" else "")
            with em.block(f"if {t} {cmp} {acc_b}{nan}:"):
                em.line(f"{acc_b} = {t}")
                em.line(f"{acc_r} = {n if flat else idx[axes[0]]}")
            if flat:
                em.line(f"{n} += 1")
        return None
    return lower


defop("argmax", infer=real_only(_arg_infer, "np.argmax"), eager=_arg_eager(np.argmax),
      lower=_lower_arg(">", "argmax"), differentiable=False, **_R)
defop("argmin", infer=real_only(_arg_infer, "np.argmin"), eager=_arg_eager(np.argmin),
      lower=_lower_arg("<", "argmin"), differentiable=False, **_R)


def _cumulative_infer(numpy_fn):
    def infer(in_types, axis=None):
        t = in_types[0]
        dt = numpy_fn(np.ones((1,), t.dtype)).dtype
        if axis is None:
            n = int(np.prod(t.shape, dtype=np.int64)) if t.fully_defined else None
            return [TensorType(dt, (n,))]
        return [TensorType(dt, t.shape)]
    return infer


def _cumulative_lower(numpy_name, combine):
    """cumsum/cumprod: NumPy's own function on the flattened array, or one pass along
    ``axis`` combining each element with the previous result (``combine``: "+", "*")."""
    def lower(em, node):
        x, out = node.inputs[0], node.outputs[0]
        axis = node.attrs.get("axis")
        dt = out.type.dtype
        src = em.name(x)
        if axis is None:
            return (f"np.{numpy_name}(np.ascontiguousarray({src}).ravel())"
                    f".astype({em.dt(dt)})")
        name = em.new(out)
        dims = [f"{src}.shape[{k}]" for k in range(x.type.ndim)]
        em.line(f"{name} = {em.alloc(dims, dt)}")
        with em.loops(dims) as idx:
            prev = list(idx)
            prev[axis] = f"{idx[axis]} - 1"
            e = em.cast(f"{src}[{', '.join(idx)}]", x.type.dtype, dt)
            with em.block(f"if {idx[axis]} == 0:"):
                em.line(f"{name}[{', '.join(idx)}] = {e}")
            with em.block("else:"):
                acc = f"{name}[{', '.join(prev)}] {combine} {e}"
                em.line(f"{name}[{', '.join(idx)}] = {em.fix(acc, dt)}")
        return None
    return lower


for _name, _fn, _combine in (("cumsum", np.cumsum, "+"), ("cumprod", np.cumprod, "*")):
    defop(_name, infer=_cumulative_infer(_fn),
          eager=lambda x, axis=None, _fn=_fn: _fn(np.asarray(x), axis=axis),
          lower=_cumulative_lower(_name, _combine), doc=f"np.{_name}")


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
      lower=_sort_lower("np.sort({})"), differentiable=False,
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
      lower=_convolve_lower, differentiable=False,
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
      differentiable=False,
      doc="np.interp of float64 x (rank >= 1) on 1-D float64 xp, fp, with left/right values")
