"""``sum_to``: an op that only gradients stage. The vector-Jacobian product of a broadcast
is the sum of the gradient over the broadcast axes; which axes those are is known while
tracing only when both sizes are, so the op reads ``like``'s sizes at run time (a size 1
there takes the sum, an equal size the element) and the kernel fits every call of a
relaxed trace (docs/architecture.md, "Gradients")."""
import numpy as np

from ..ir.types import TensorType
from .registry import defop


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
      differentiable=False, doc="a gradient summed over the axes its input was broadcast "
                                "along (to the shape of input 1)")
