"""``sum_to``, ``scatter_add`` and ``cumprod_vjp``, ops that only gradients stage, and
``add_at``.

``scatter_add(like, idx, g)``: the gradient of a gather ``x[idx]`` on the first axis:
zeros of ``like``'s shape with each row ``g[j]`` added at row ``idx[j]`` (a repeated index
adds up, as ``np.add.at``; a negative one counts from the end, as the gather did).
``add_at(x, idx, g)``: the same rows added onto ``x`` itself, one at a time in index order
(``np.add.at``, which numpy_selection.py builds on flat positions), in place when ``x``'s
buffer may be written.

``sum_to``: The vector-Jacobian product of a broadcast
is the sum of the gradient over the broadcast axes; which axes those are is known while
tracing only when both sizes are, so the op reads ``like``'s sizes at run time (a size 1
there takes the sum, an equal size the element) and the kernel fits every call of a
relaxed trace (docs/architecture.md, "Gradients")."""
import numpy as np

from ..ir.types import TensorType
from .registry import OPS, defop


def _sum_to_infer(in_types):
    g, like = in_types
    if like.ndim > g.ndim:
        raise ValueError(f"sum_to: a gradient of rank {g.ndim} cannot be summed to rank "
                         f"{like.ndim}")
    return [TensorType(g.dtype, like.shape)]


def _sum_to_eager(g, like):
    g, shape = np.asarray(g), np.shape(like)
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    axes = tuple(k for k, d in enumerate(shape) if d == 1 and g.shape[k] != 1)
    return g.sum(axis=axes, keepdims=True).reshape(shape)[()]


def _sum_to_lower(em, node):
    g, like = node.inputs
    out = node.outputs[0]
    src, lk = em.name(g), em.name(like)
    lead = g.type.ndim - like.type.ndim
    if like.type.ndim == 0:
        acc = em.new(out)
        em.line(f"{acc} = {em.lit(0, out.type.dtype)}")
        with em.loops([f"{src}.shape[{k}]" for k in range(g.type.ndim)]) as idx:
            em.line(f"{acc} += {src}[{', '.join(idx)}]" if idx else f"{acc} += {src}")
        return None
    name = em.new(out)
    em.fill(name, [f"{lk}.shape[{k}]" for k in range(like.type.ndim)],
            em.lit(0, out.type.dtype), out.type.dtype)
    with em.loops([f"{src}.shape[{k}]" for k in range(g.type.ndim)]) as idx:
        target = []
        for k in range(like.type.ndim):
            i, d, gd = idx[lead + k], like.type.shape[k], g.type.shape[lead + k]
            if d == 1:
                target.append("0")
            elif d is not None and d == gd:
                target.append(i)
            else:  # (a size of 1 at run time reads index 0, an equal size the element)
                target.append(f"min({i}, {lk}.shape[{k}] - 1)")
        em.line(f"{name}[{', '.join(target)}] += {src}[{', '.join(idx)}]")
    return None


defop("sum_to", infer=_sum_to_infer, eager=_sum_to_eager, lower=_sum_to_lower,
      doc="a gradient summed over the axes its input was broadcast along (to the shape of "
          "input 1); differentiated in turn by a third derivative")


def _scatter_infer(in_types):
    like, idx, g = in_types
    if like.ndim == 0 or g.ndim != idx.ndim + like.ndim - 1:
        raise ValueError(f"scatter_add: updates of rank {g.ndim} do not fit an index of rank "
                         f"{idx.ndim} into rank {like.ndim}")
    return [TensorType(g.dtype, like.shape)]


def _scatter_eager(like, idx, g):
    shape = np.shape(like)
    out = np.zeros(shape, np.asarray(g).dtype)
    np.add.at(out, np.asarray(idx).ravel(), np.reshape(g, (-1,) + tuple(shape[1:])))
    return out


def _add_rows(em, name, like, idx, g, dtype, ufunc="add"):
    """Kernel lines adding row ``g[j]`` at row ``idx[j]`` of array ``name`` (of ``dtype``,
    shaped as the value ``like``), for every ``j`` in order; a negative row counts from the
    end. ``ufunc``: the elementwise op combining them instead of add (``np.maximum.at``),
    its own scalar form."""
    lk, ix, src = em.name(like), em.name(idx), em.name(g)
    with em.loops([f"{ix}.shape[{k}]" for k in range(idx.type.ndim)]) as ii:
        row = em.fresh("row")
        em.line(f"{row} = {ix}[{', '.join(ii)}]" if ii else f"{row} = {ix}")
        with em.block(f"if {row} < 0:"):
            em.line(f"{row} += {lk}.shape[0]")
        with em.loops([f"{lk}.shape[{k}]" for k in range(1, like.type.ndim)]) as jj:
            at, of = ", ".join([row] + list(jj)), ", ".join(list(ii) + list(jj))
            if g.type.dtype == dtype and ufunc == "add":
                em.line(f"{name}[{at}] += {src}[{of}]")
            else:  # (computed in both dtypes' type, then cast back: NumPy's unsafe cast)
                text, total = em.scalar_of(OPS[ufunc], [f"{name}[{at}]", f"{src}[{of}]"],
                                           [TensorType(dtype, ()), TensorType(g.type.dtype, ())])
                em.line(f"{name}[{at}] = {em.cast(text, total, dtype)}")


def _scatter_lower(em, node):
    like, idx, g = node.inputs
    out = node.outputs[0]
    name = em.new(out)
    em.fill(name, [f"{em.name(like)}.shape[{k}]" for k in range(like.type.ndim)],
            em.lit(0, out.type.dtype), out.type.dtype)
    _add_rows(em, name, like, idx, g, out.type.dtype)
    return None


defop("scatter_add", infer=_scatter_infer, eager=_scatter_eager, lower=_scatter_lower,
      differentiable=False, doc="gradient of x[idx]: rows of input 2 added at input 1's rows "
                                "of zeros shaped as input 0")


# the ufuncs whose `.at` is staged (numpy_selection.py): add and subtract (as add of -b)
# are differentiable, the others are not (gradients/rules.py refuses them by name)
AT_UFUNCS = ("add", "multiply", "maximum", "minimum", "fmax", "fmin")


def _add_at_infer(in_types, ufunc="add"):
    _scatter_infer(in_types)
    x, _, g = in_types
    OPS[ufunc].infer([TensorType(x.dtype, ()), TensorType(g.dtype, ())])  # (its refusals)
    return [x.strong()]


def _add_at_eager(x, idx, g, ufunc="add"):
    out = np.array(x, copy=True)
    rows = np.reshape(g, (-1,) + tuple(np.shape(x)[1:]))
    # (an unsafe cast into x's dtype, as NumPy's)
    getattr(np, ufunc).at(out, np.asarray(idx).ravel(), rows)
    return out[()]


def _add_at_lower(em, node):
    x, idx, g = node.inputs
    name = em.new(node.outputs[0])
    em.line(f"{name} = {em.writable(x, node)}")
    _add_rows(em, name, x, idx, g, x.type.dtype, node.attrs.get("ufunc", "add"))
    return None


defop("add_at", infer=_add_at_infer, eager=_add_at_eager, lower=_add_at_lower,
      layout="first", updates_input=True,
      doc="np.add.at on the first axis: x with row g[j] added at row idx[j] for each j in "
          "order (a repeated index adds up); attr ufunc: another of AT_UFUNCS combining "
          "them (np.maximum.at)")


def _cumprod_vjp_infer(in_types, axis):
    x, g = in_types
    return [TensorType(np.result_type(x.dtype, g.dtype), x.shape)]


def _cumprod_vjp_eager(x, g, axis):
    """dx_i = P_{i-1} S_i along ``axis``: P the products before i, S_i = g_i + x_{i+1}
    S_{i+1}; no division, so exact where elements are zero."""
    x, g = np.moveaxis(np.asarray(x), axis, -1), np.moveaxis(np.asarray(g), axis, -1)
    out = np.empty(x.shape, np.result_type(x, g))
    before = np.ones(x.shape[:-1], out.dtype)
    for i in range(x.shape[-1]):
        out[..., i] = before
        before = before * x[..., i]
    s = np.zeros(x.shape[:-1], out.dtype)
    for i in reversed(range(x.shape[-1])):
        s = g[..., i] + (s * x[..., i + 1] if i + 1 < x.shape[-1] else s)
        out[..., i] *= s
    return np.moveaxis(out, -1, axis)[()]


def _cumprod_vjp_lower(em, node):
    x, g = node.inputs
    out, axis = node.outputs[0], node.attrs["axis"]
    dt = out.type.dtype
    src, gs, name = em.name(x), em.name(g), em.new(out)
    dims = [f"{src}.shape[{k}]" for k in range(x.type.ndim)]
    em.line(f"{name} = {em.alloc(dims, dt)}")
    n = dims[axis]
    with em.loops(dims[:axis] + dims[axis + 1:]) as idx:
        def at(i):
            return ", ".join(idx[:axis] + [i] + idx[axis:])
        before, s, i = em.fresh("before"), em.fresh("s"), em.fresh("i")
        em.line(f"{before} = {em.lit(1, dt)}")
        with em.block(f"for {i} in range({n}):"):
            em.line(f"{name}[{at(i)}] = {before}")
            em.line(f"{before} = {before} * {src}[{at(i)}]")
        em.line(f"{s} = {em.lit(0, dt)}")
        with em.block(f"for {i} in range({n} - 1, -1, -1):"):
            with em.block(f"if {i} + 1 < {n}:"):
                em.line(f"{s} = {s} * {src}[{at(f'{i} + 1')}]")
            em.line(f"{s} = {s} + {gs}[{at(i)}]")
            em.line(f"{name}[{at(i)}] = {name}[{at(i)}] * {s}")
    return None


defop("cumprod_vjp", infer=_cumprod_vjp_infer, eager=_cumprod_vjp_eager,
      lower=_cumprod_vjp_lower, differentiable=False,
      doc="the gradient of np.cumprod along attr axis: input 1 (the output's gradient) "
          "carried back through the running products without dividing")
