"""Reductions with ``axis``/``keepdims`` (lowered by hand: Numba lacks most of them) and scans.

Every reduction is one loop nest over its input, which may be a fused elementwise
expression (``np.max(np.abs(d))`` makes no temporary).
"""
import operator

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ..ir.types import TensorType
from .dispatch import check_sizes
from .elementwise import real_only
from .registry import defop


def norm_axis(axis, ndim, name="axis"):
    """None -> None; int or sequence -> sorted tuple of non-negative axes (validated)."""
    if axis is None:
        return None
    if isinstance(axis, np.ndarray) and axis.ndim == 0:  # (NumPy takes a 0-d int array)
        axis = operator.index(axis)
    if isinstance(axis, Tensor) or (isinstance(axis, (tuple, list)) and any(
            isinstance(a, Tensor) for a in axis)):
        raise TypeError(f"{name} must be known while tracing (a Python int or a tuple of "
                        f"them), got a tensor: the result's shape depends on it; use a "
                        f"Python int, or ag.py_func for an axis known only at run time")
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):  # (NumPy's AxisError: a ValueError, an IndexError)
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % max(ndim, 1))
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in '{name}'")
    return tuple(sorted(out))


def _reduced_shape(shape, axis, keepdims):
    axes = range(len(shape)) if axis is None else axis
    return tuple(1 if k in axes else d for k, d in enumerate(shape) if keepdims or k not in axes)


def _make_infer(np_fn, fixed_dtype=None):
    def infer(in_types, axis=None, keepdims=False, dtype=None):
        t = in_types[0]
        dt = dtype or fixed_dtype or np_fn(np.ones((1,), t.dtype)).dtype
        return [TensorType(np.dtype(dt), _reduced_shape(t.shape, axis, keepdims))]
    return infer


def _eager(np_fn):
    """The eager kernel; ``dtype`` (sum and mean only): NumPy's accumulation dtype, the
    elements cast to it as they are summed (numpy_api._reduce)."""
    def run(x, axis=None, keepdims=False, dtype=None):
        more = {} if dtype is None else {"dtype": dtype}
        return np.asarray(np_fn(np.asarray(x), axis=axis, keepdims=keepdims, **more))[()]
    return run


# NumPy's errors of an empty axis (raised by the kernel; staged first by ``checks``)
_NO_IDENTITY = "zero-size array to reduction operation {} which has no identity"
_EMPTY_ARG = "attempt to get {} of an empty sequence"


def _lower_reduction(init, combine, finalize=None, nonempty=None, pairwise=False):
    """OpDef fields ``lower`` and ``fold`` of one reduction;
    ``combine(em, acc, elem_expr, out_dtype)`` emits one accumulation; ``pairwise``: a sum
    whose float32 forms NumPy adds pairwise are added in its order (_lower_pairwise).

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
                    em.line(f"raise ValueError({_NO_IDENTITY.format(nonempty)!r})")
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
                with em.block(f"if {flag}:"):  # (in the result's dtype: a bare np.nan
                    em.line(f"{name} = {em.lit(np.nan, dt)}")  # made a float32 a float64)
            if finalize:
                finalize(em, name, out, [dims[k] for k in axes])
        return step, finish

    def lower(em, node):
        if pairwise and not em.DEVICE and _pairwise_applies(node):  # (a cuda kernel's
            # text, a vectorized_map body: the loop, as the device's tree reductions)
            return _lower_pairwise(em, node, finalize)
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


def _pairwise_applies(node):
    """A float32 sum (or mean) of float32 values over all axes or the last one alone: NumPy
    adds those along the inner axis pairwise; over other axes it adds row by row, the
    loop's own order. (float64 sums keep the loop order, fused with their input: they
    differ from NumPy's in the last bits only.)"""
    x, out = node.inputs[0], node.outputs[0]
    axis, rank = node.attrs.get("axis"), x.type.ndim
    return (rank > 0 and x.type.dtype == out.type.dtype == np.float32
            and (axis is None or tuple(axis) in (tuple(range(rank)), (rank - 1,))))


def _lower_pairwise(em, node, finalize):
    """NumPy's float32 sum, bit for bit (cpu_runtime.pairwise_sum32, a precompiled helper):
    of the flattened input when every axis is reduced, else of each row of the last axis.
    A fused input expression is computed into a C array first (the helper reads an array)."""
    x, out = node.inputs[0], node.outputs[0]
    rank = x.type.ndim
    dims = em.dims(x)
    src = em.name(x) if not em.is_inlined(x) else None
    if src is None:
        src = em.fresh("terms")
        em.line(f"{src} = {em.alloc(dims, x.type.dtype)}")
        with em.loops(dims) as idx:
            em.line(f"{src}[{', '.join(idx)}] = {em.elem(x, idx)}")
    name = em.new(out)
    full = node.attrs.get("axis") is None or rank == 1 or len(node.attrs["axis"]) == rank
    if full:
        flat = src if rank == 1 else f"{src}.ravel()"  # (C order; a copy unless C array)
        total = f"rt.pairwise_sum32({flat})"
        if out.type.ndim:  # (keepdims)
            em.fill(name, ["1"] * out.type.ndim, total, out.type.dtype)
        else:
            em.line(f"{name} = {total}")
    else:
        keep = node.attrs.get("keepdims", False)
        em.line(f"{name} = {em.alloc(dims[:-1] + (['1'] if keep else []), out.type.dtype)}")
        with em.loops(dims[:-1]) as idx:
            at = ", ".join(idx + (["0"] if keep else []))
            em.line(f"{name}[{at}] = rt.pairwise_sum32({src}[{', '.join(idx + [':'])}])")
    if finalize:
        finalize(em, name, out, dims if full else [dims[-1]])
    return None


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


def _cuda(init, combine, nonempty=None, mean=False):
    """``lower_cuda``: the cuda backend's reduction kernels with this step (a combination
    of two values, so partial results combine in a tree; max/min keep NaNs from either)."""
    def lower(em, node):
        return em.reduction(node, init, combine, nonempty, mean)
    return lower


def _may_be_empty(node):
    """``raises`` of a reduction with no identity: a ValueError where an axis it reduces
    may be empty."""
    x = node.inputs[0]
    axis = node.attrs.get("axis")
    shape = x.type.shape
    dims = [shape[k % len(shape)] for k in (range(len(shape)) if axis is None else axis)]
    return (ValueError,) if any(d is None or d == 0 for d in dims) else ()


_R = dict(fuses_inputs=True)
_SUM, _PROD = "({0} + {1})", "({0} * {1})"
_MAX = "({0} if {0} > {1} or {0} != {0} else {1})"
_MIN = "({0} if {0} < {1} or {0} != {0} else {1})"
defop("reduce_sum", infer=_make_infer(np.sum), eager=_eager(np.sum),
      **_lower_reduction(lambda dt: 0, _assign(_SUM), pairwise=True),
      lower_cuda=_cuda(lambda dt: 0, _SUM), names=("np.add.reduce",), raises=(), **_R)
defop("reduce_prod", infer=_make_infer(np.prod), eager=_eager(np.prod),
      **_lower_reduction(lambda dt: 1, _assign(_PROD)), lower_cuda=_cuda(lambda dt: 1, _PROD),
      names=("np.multiply.reduce",), raises=(), **_R)
defop("reduce_mean", infer=_make_infer(np.mean), eager=_eager(np.mean),
      **_lower_reduction(lambda dt: 0, _assign(_SUM), _mean_finalize, pairwise=True),
      lower_cuda=_cuda(lambda dt: 0, _SUM, mean=True), raises=(), **_R)
def _nonempty(what):
    """``checks``: the error of a reduction with no identity over an empty axis."""
    def checks(x, axis=None, keepdims=False):
        check_sizes(x, axis, what)
    return checks


defop("reduce_max", infer=real_only(_make_infer(np.max), "np.max"), eager=_eager(np.max),
      checks=_nonempty(_NO_IDENTITY.format("maximum")),
      **_lower_reduction(_lowest, _extreme(">"), nonempty="maximum"),
      lower_cuda=_cuda(_lowest, _MAX, "maximum"), names=("np.maximum.reduce",),
      raises=_may_be_empty, **_R)
defop("reduce_min", infer=real_only(_make_infer(np.min), "np.min"), eager=_eager(np.min),
      checks=_nonempty(_NO_IDENTITY.format("minimum")),
      **_lower_reduction(_highest, _extreme("<"), nonempty="minimum"),
      lower_cuda=_cuda(_highest, _MIN, "minimum"), names=("np.minimum.reduce",),
      raises=_may_be_empty, **_R)
_ANY, _ALL = "({0} or {1})", "({0} and {1})"
defop("reduce_any", infer=_make_infer(np.any, dtypes.bool_), eager=_eager(np.any),
      **_lower_reduction(lambda dt: False, _assign(_ANY)),
      lower_cuda=_cuda(lambda dt: False, _ANY),
      differentiable=False, names=("np.logical_or.reduce",), raises=(), **_R)
defop("reduce_all", infer=_make_infer(np.all, dtypes.bool_), eager=_eager(np.all),
      **_lower_reduction(lambda dt: True, _assign(_ALL)),
      lower_cuda=_cuda(lambda dt: True, _ALL),
      differentiable=False, names=("np.logical_and.reduce",), raises=(), **_R)


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
                em.line(f"raise ValueError({_EMPTY_ARG.format(name)!r})")
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
      lower=_lower_arg(">", "argmax"), checks=_nonempty(_EMPTY_ARG.format("argmax")),
      differentiable=False, raises=_may_be_empty, **_R)
defop("argmin", infer=real_only(_arg_infer, "np.argmin"), eager=_arg_eager(np.argmin),
      lower=_lower_arg("<", "argmin"), checks=_nonempty(_EMPTY_ARG.format("argmin")),
      differentiable=False, raises=_may_be_empty, **_R)


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
    """cumsum/cumprod: one pass along ``axis`` (of the flattened array without one),
    each element combined with the previous result (the first copied, so a -0.0 stays) (``combine``: the expression
    of the two, "{0} + {1}"; cummax/cummin, np.maximum/minimum.accumulate, always have an
    axis, and their np.maximum keeps NumPy's NaN propagation)."""
    def lower(em, node):
        x, out = node.inputs[0], node.outputs[0]
        axis = node.attrs.get("axis")
        dt = out.type.dtype
        src, rank = em.name(x), x.type.ndim
        if axis is None:  # (the flattened array, by the same pass: Numba's np.cumsum starts
            flat = em.fresh("flat")  # from 0, which turns a first -0.0 into 0.0)
            em.line(f"{flat} = np.ascontiguousarray({src}).ravel()")
            src, rank, axis = flat, 1, 0
        name = em.new(out)
        dims = [f"{src}.shape[{k}]" for k in range(rank)]
        em.line(f"{name} = {em.alloc(dims, dt)}")
        with em.loops(dims) as idx:
            prev = list(idx)
            prev[axis] = f"{idx[axis]} - 1"
            e = em.cast(f"{src}[{', '.join(idx)}]", x.type.dtype, dt)
            with em.block(f"if {idx[axis]} == 0:"):
                em.line(f"{name}[{', '.join(idx)}] = {e}")
            with em.block("else:"):
                acc = combine.format(f"{name}[{', '.join(prev)}]", e)
                em.line(f"{name}[{', '.join(idx)}] = {em.fix(acc, dt)}")
        return None
    return lower


for _name, _fn, _combine in (("cumsum", np.cumsum, "{0} + {1}"),
                              ("cumprod", np.cumprod, "{0} * {1}")):
    defop(_name, infer=_cumulative_infer(_fn),
          eager=lambda x, axis=None, _fn=_fn: _fn(np.asarray(x), axis=axis),
          lower=_cumulative_lower(_name, _combine), doc=f"np.{_name}")
for _name, _ufunc in (("cummax", np.maximum), ("cummin", np.minimum)):
    defop(_name, infer=real_only(_cumulative_infer(_ufunc.accumulate), f"np.{_ufunc.__name__}"
                                 ".accumulate"),
          eager=lambda x, axis, _fn=_ufunc.accumulate: _fn(np.asarray(x), axis=axis),
          lower=_cumulative_lower(_name, f"np.{_ufunc.__name__}({{0}}, {{1}})"),
          doc=f"np.{_ufunc.__name__}.accumulate along one axis")
