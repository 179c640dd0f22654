"""Shape ops: reshape, transpose, expand_dims, squeeze, concat, stack, split, shape, size,
and matmul (BLAS through ``np.dot`` where Numba allows, loops elsewhere)."""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType, broadcast_shapes
from ..tensor import SymbolicTensor
from .creation import _dim_exprs, _dims
from .dispatch import apply, check_carries_state, message_parts, size_of
from .registry import defop


def _prod(dims):
    n = 1
    for d in dims:
        if d is None:
            return None
        n *= d
    return n


def _reshape_infer(in_types, shape):
    """``shape``: ints (one may be -1), None where the size is a tensor input (0-d int,
    known at run time only)."""
    t = in_types[0]
    bad = [s for s in in_types[1:] if s.ndim or s.dtype.kind not in "iu"]
    if bad:
        raise TypeError(f"reshape: a size must be an integer scalar; got {bad[0]}")
    if sum(d == -1 for d in shape) > 1:
        raise ValueError(f"reshape: only one dimension can be -1, got {shape}")
    known, total = _prod([d for d in shape if d != -1]), _prod(t.shape)
    out = []
    for d in shape:
        if d == -1:
            out.append(None if total is None or not known else total // known)
        else:
            out.append(d)
    if known is None:
        return [TensorType(t.dtype, tuple(out))]
    if -1 in shape and known == 0:  # (NumPy: -1 next to a 0 is ambiguous, even when empty)
        raise ValueError(f"cannot reshape a tensor of shape {t.shape} into shape {shape}")
    if total is not None and -1 not in shape and _prod(out) != total:
        raise ValueError(f"cannot reshape a tensor of shape {t.shape} into shape {shape}")
    if total is not None and -1 in shape and known and total % known:
        raise ValueError(f"cannot reshape a tensor of shape {t.shape} into shape {shape}")
    return [TensorType(t.dtype, tuple(out))]


def _reshape_eager(x, *sizes, shape):
    return np.reshape(x, _dims(shape, sizes))[()]


def _reshape_lower(em, node):
    x, shape = node.inputs[0], node.attrs["shape"]
    src = em.name(x)
    if x.type.ndim == 0:
        src = f"np.array({src})"
    if not shape:
        return f"np.ascontiguousarray({src}).ravel()[0]"
    dims = _reshape_dims(em, node)
    if None in shape:  # sizes read at run time: checked (and a -1 resolved) as NumPy does
        known = " * ".join(d for d, s in zip(dims, shape) if s != -1)
        free = em.fresh("size")
        em.line(f"{free} = rt.reshape_free({src}.size, {known}, {int(-1 in shape)})")
        dims = [free if s == -1 else d for d, s in zip(dims, shape)]
    return f"np.ascontiguousarray({src}).reshape(({', '.join(dims)},))"


def _reshape_dims(em, node):
    """The sizes of a reshape as text: literals, and the tensor sizes as int64 scalars."""
    dims = _dim_exprs(em, node, node.attrs["shape"], 1)
    return [d if s is not None else f"np.int64({d})" for d, s in zip(dims, node.attrs["shape"])]


def _kept_dims_cuda(dims):
    """lower_cuda of a reshape to ``dims(em, node)`` (a list of size expressions)."""
    return lambda em, node: em.reshaped(node, "(" + "".join(d + ", " for d in dims(em, node))
                                        + ")")


defop("reshape", infer=_reshape_infer, eager=_reshape_eager, lower=_reshape_lower, view=True,
      lower_cuda=_kept_dims_cuda(lambda em, node: _dim_exprs(em, node, node.attrs["shape"], 1)))


def _reshape_as_lower(em, node):
    x, like = node.inputs
    src = em.name(x) if x.type.ndim else f"np.array({em.name(x)})"
    if like.type.ndim == 0:
        return f"np.ascontiguousarray({src}).ravel()[0]"
    return f"np.ascontiguousarray({src}).reshape(({', '.join(_shape_of(em, like))},))"


# (not user-facing: a write through a reshape, squeeze or expand_dims view, carried back to
# its base, whose sizes may be known only at run time: mutation.py ``_invert``)
defop("reshape_as", infer=lambda in_types: [TensorType(in_types[0].dtype, in_types[1].shape)],
      eager=lambda x, like: np.reshape(x, np.shape(like))[()], lower=_reshape_as_lower,
      lower_cuda=lambda em, node: em.reshaped(node, f"{em.name(node.inputs[1])}.shape"),
      view=True,
      doc="x reshaped to the shape of like (a view's write carried back to its base)")


def _transpose_infer(in_types, axes=None):
    t = in_types[0]
    axes = tuple(reversed(range(t.ndim))) if axes is None else tuple(axes)
    if sorted(axes) != list(range(t.ndim)):
        raise ValueError(f"transpose: axes {axes} are not a permutation of {t.ndim} axes")
    return [TensorType(t.dtype, tuple(t.shape[a] for a in axes))]


def _transpose_lower(em, node):
    x, axes = node.inputs[0], node.attrs.get("axes")
    if x.type.ndim < 2:
        return em.name(x)
    if axes is None:
        return f"{em.name(x)}.T"
    return f"np.transpose({em.name(x)}, ({', '.join(map(str, axes))},))"


def _transpose_cuda(em, node):
    x, axes = node.inputs[0], node.attrs.get("axes")
    if x.type.ndim < 2:
        em.alias(node.outputs[0], em.name(x))
        return None
    return em.permute(node, list(reversed(range(x.type.ndim))) if axes is None else list(axes))


defop("transpose", infer=_transpose_infer,
      eager=lambda x, axes=None: np.transpose(x, axes), lower=_transpose_lower, view=True,
      lower_cuda=_transpose_cuda)


def _expand_infer(in_types, axis):
    t = in_types[0]
    shape = list(t.shape)
    if not -t.ndim - 1 <= axis <= t.ndim:
        raise np.exceptions.AxisError(axis, t.ndim + 1)
    shape.insert(axis % (t.ndim + 1), 1)
    return [TensorType(t.dtype, tuple(shape))]


def _shape_of(em, x):
    return [f"{em.name(x)}.shape[{k}]" for k in range(x.type.ndim)]


def _expand_lower(em, node):
    x = node.inputs[0]
    dims = _shape_of(em, x)
    dims.insert(node.attrs["axis"] % (x.type.ndim + 1), "1")
    src = em.name(x) if x.type.ndim else f"np.array({em.name(x)})"
    return f"np.ascontiguousarray({src}).reshape(({', '.join(dims)},))"


def _expand_dims(em, node):
    dims = _shape_of(em, node.inputs[0])
    dims.insert(node.attrs["axis"] % (node.inputs[0].type.ndim + 1), "1")
    return dims


defop("expand_dims", infer=_expand_infer,
      eager=lambda x, axis: np.expand_dims(x, axis), lower=_expand_lower, view=True,
      lower_cuda=_kept_dims_cuda(_expand_dims))


def _squeeze_infer(in_types, axis=None):
    t = in_types[0]
    if axis is None and None in t.shape:  # (a size known only at run time may be 1: the
        # result's rank would depend on it; nothing squeezed was a silent wrong answer)
        raise ValueError("squeeze: dimension sizes unknown at trace time; pass axis=")
    axes = axis if axis is not None else tuple(k for k, d in enumerate(t.shape) if d == 1)
    for a in axes:
        if t.shape[a] not in (1, None):
            raise ValueError(f"squeeze: cannot select axis {a} of size {t.shape[a]}, which is "
                             f"not 1")
    return [TensorType(t.dtype, tuple(d for k, d in enumerate(t.shape) if k not in axes))]


def _squeeze_lower(em, node):
    x, out = node.inputs[0], node.outputs[0]
    axes = node.attrs.get("axis")
    axes = axes if axes is not None else tuple(k for k, d in enumerate(x.type.shape) if d == 1)
    src = em.name(x)
    if out.type.ndim == 0:
        return f"np.ascontiguousarray({src}).ravel()[0]"
    dims = [d for k, d in enumerate(_shape_of(em, x)) if k not in axes]
    return f"np.ascontiguousarray({src}).reshape(({', '.join(dims)},))"


def _squeezed_dims(em, node):
    x = node.inputs[0]
    axes = node.attrs.get("axis")
    axes = axes if axes is not None else tuple(k for k, d in enumerate(x.type.shape) if d == 1)
    return [d for k, d in enumerate(_shape_of(em, x)) if k not in axes]


defop("squeeze", infer=_squeeze_infer,
      eager=lambda x, axis=None: np.squeeze(x, axis)[()], lower=_squeeze_lower, view=True,
      lower_cuda=_kept_dims_cuda(_squeezed_dims))


def _join_infer(stack):
    def infer(in_types, axis=0):
        if not in_types:
            raise ValueError("need at least one tensor to " + ("stack" if stack else "concat"))
        rank = in_types[0].ndim
        if any(t.ndim != rank for t in in_types):
            raise ValueError("all tensors must have the same rank, got "
                             + ", ".join(str(t.shape) for t in in_types))
        dt = dtypes.result_type(*in_types)
        out_rank = rank + 1 if stack else rank
        if not -out_rank <= axis < out_rank:
            raise np.exceptions.AxisError(axis, out_rank)
        ax = axis % out_rank
        shape = []
        for k in range(rank):
            ds = [t.shape[k] for t in in_types]
            if stack or k != ax:
                known = {d for d in ds if d is not None}
                if len(known) > 1:
                    raise ValueError("all tensors must have the same shape except in the "
                                     "concatenation axis, got "
                                     + ", ".join(str(t.shape) for t in in_types))
                shape.append(known.pop() if known and None not in ds else
                             (known.pop() if known else None))
            else:
                shape.append(None if None in ds else sum(ds))
        if stack:
            shape.insert(ax, len(in_types))
        return [TensorType(dt, tuple(shape))]
    return infer


# Numba types np.stack's tuple of arrays item by item: past 1,000 items it refuses them
# (TypingError), and far fewer already take minutes to compile (a comprehension of 1,000
# `x[i] ** 2` unrolled: 70 s). Longer stacks are written into a new array item by item.
_TUPLE_STACK_MAX = 64


def _join_lower(fn):
    def lower(em, node):
        dt = node.outputs[0].type.dtype
        axis = node.attrs.get("axis", 0)
        if fn == "stack" and len(node.inputs) > _TUPLE_STACK_MAX:
            return _stack_by_items(em, node, axis % node.outputs[0].type.ndim)
        parts = []
        for v in node.inputs:
            s = em.name(v) if v.type.ndim else f"np.array({em.name(v)})"
            parts.append(s if v.type.dtype == dt else em.astype(s, v.type.dtype, dt))
        return f"np.{fn}(({', '.join(parts)},), axis={axis})"
    return lower


def _stack_by_items(em, node, axis):
    """``np.stack`` of many items: a new array, then one assignment per item (the store
    casts each to the result's dtype, as np.stack's of items of one shape; the inputs'
    shapes agree, as the trace checked, or NumPy's error was staged)."""
    out, first = node.outputs[0], node.inputs[0]
    dims = _shape_of(em, first)
    dims.insert(axis, str(len(node.inputs)))
    name = em.new(out)
    em.line(f"{name} = {em.alloc(dims, out.type.dtype)}")
    lead = ":, " * axis
    for k, v in enumerate(node.inputs):
        value = em.name(v) if v.type.ndim or v.type.dtype == out.type.dtype else em.cast(
            em.name(v), v.type.dtype, out.type.dtype)
        em.line(f"{name}[{lead}{k}] = {value}")
    return None


def _join_eager(fn):
    def run(*xs, axis=0):
        dt = np.result_type(*xs)
        return fn([np.asarray(x, dt) for x in xs], axis=axis)
    return run


defop("concat", infer=_join_infer(False), eager=_join_eager(np.concatenate),
      lower=_join_lower("concatenate"))
defop("stack", infer=_join_infer(True), eager=_join_eager(np.stack),
      lower=_join_lower("stack"))


# np.broadcast_to(x, shape): x read along a shape given by a second operand (any tensor of
# the target's shape; its values are never read). A fresh array in the kernel; the front
# (numpy_composites.broadcast_to) checks the sizes and links it to x as NumPy's read-only
# view (mutation.py replays it after a write into x and refuses writes through it).
def _broadcast_infer(in_types):
    x, like = in_types
    return [TensorType(x.dtype, broadcast_shapes(x.shape, like.shape))]


defop("broadcast_to", infer=_broadcast_infer,
      eager=lambda x, like: np.broadcast_to(x, np.shape(like))[()],
      scalar=lambda em, e, ts, out: e[0], cast_operands=False, read_only=True,
      doc="np.broadcast_to: x broadcast to the shape of input 1 (read-only in NumPy)")


def _split_infer(in_types, sections, axis=0):
    t = in_types[0]
    ax = axis % t.ndim
    n = t.shape[ax]
    if isinstance(sections, int):
        if n is not None and n % sections:
            raise ValueError(f"split: dimension {ax} of size {n} is not divisible into "
                             f"{sections} equal parts")
        sizes = [None if n is None else n // sections] * sections
    else:
        sizes = list(sections)
        if n is not None and sum(sizes) != n:
            raise ValueError(f"split: sizes {sizes} do not add up to {n}")
    return [t.with_shape(t.shape[:ax] + (s,) + t.shape[ax + 1:]).strong() for s in sizes]


def _split_eager(x, sections, axis=0):
    if isinstance(sections, int):
        return tuple(np.split(x, sections, axis))
    return tuple(np.split(x, np.cumsum(sections)[:-1], axis))


def _split_lower(em, node):
    x = node.inputs[0]
    sections, axis = node.attrs["sections"], node.attrs.get("axis", 0) % x.type.ndim
    src = em.name(x)
    step = em.fresh("step")
    if isinstance(sections, int):
        em.line(f"{step} = {src}.shape[{axis}] // {sections}")
        bounds = [(f"{i} * {step}", f"{i + 1} * {step}") for i in range(sections)]
    else:
        edges = np.concatenate([[0], np.cumsum(sections)]).tolist()
        bounds = [(str(a), str(b)) for a, b in zip(edges[:-1], edges[1:])]
    for out, (a, b) in zip(node.outputs, bounds):
        idx = [":"] * x.type.ndim
        idx[axis] = f"{a}:{b}"
        em.line(f"{em.new(out)} = {src}[{', '.join(idx)}]")
    return None


defop("split", infer=_split_infer, eager=_split_eager, lower=_split_lower,
      multi_output=True, view=True)


def _metadata_cuda(wrap):
    """lower_cuda of an op that reads only an array's shape (dim, size, shape): the cpu
    lowering's text on the device array's own ``.shape``/``.size``, ``wrap``ped into the
    driver's value (a host np.int64, or a device array). The host fallback would copy the
    whole array to the host first: Newton's ``np.ones_like(a)`` on 10^7 values spent a
    third of its time there (an H200, session 48)."""
    def lower(em, node):
        em.line(f"{em.new(node.outputs[0])} = {wrap}({node.opdef.lower(em, node)})")
    return lower


defop("shape", infer=lambda in_types: [TensorType(dtypes.int64, (in_types[0].ndim,))],
      eager=lambda x: np.array(np.shape(x), np.int64),
      lower=lambda em, node: (f"np.array(({', '.join(_shape_of(em, node.inputs[0]))},), "
                              f"np.int64)" if node.inputs[0].type.ndim
                              else "np.zeros(0, np.int64)"),
      lower_cuda=_metadata_cuda("crt.to_device"), differentiable=False)
defop("size", infer=lambda in_types: [TensorType(dtypes.int64, ())],
      eager=lambda x: np.int64(np.size(x)),
      lower=lambda em, node: (f"{em.name(node.inputs[0])}.size"
                              if node.inputs[0].type.ndim else "1"),
      lower_cuda=_metadata_cuda("np.int64"), differentiable=False)


def _dim_infer(in_types, axis):
    t = in_types[0]
    if not -t.ndim <= axis < t.ndim:
        raise np.exceptions.AxisError(axis, t.ndim)
    return [TensorType(dtypes.int64, ())]


defop("dim", infer=_dim_infer, eager=lambda x, axis: np.int64(np.shape(x)[axis]),
      lower=lambda em, node: f"{em.name(node.inputs[0])}.shape[{node.attrs['axis']}]",
      lower_cuda=_metadata_cuda("np.int64"), differentiable=False,
      doc="the size of one dimension (len(x) is dim(x, 0))")


def _matmul_infer(in_types):
    a, b = in_types
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: input operand does not have enough dimensions "
                         "(use * for scalars)")
    dt = dtypes.result_type(a.strong(), b.strong())
    ka, kb = a.shape[-1], b.shape[-2] if b.ndim > 1 else b.shape[0]
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} are not aligned "
                         f"({ka} != {kb})")
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    rows = a.shape[-2:-1] if a.ndim > 1 else ()
    cols = b.shape[-1:] if b.ndim > 1 else ()
    return [TensorType(dt, batch + rows + cols)]


def _matmul_lower(em, node):
    a, b = node.inputs
    out = node.outputs[0]
    dt = out.type.dtype
    na, nb = em.name(a), em.name(b)
    if a.type.dtype != dt:
        na = f"{na}.astype({em.dt(dt)})"
    if b.type.dtype != dt:
        nb = f"{nb}.astype({em.dt(dt)})"
    if dt.kind == "f" and dt != dtypes.float16 and a.type.ndim <= 2 and b.type.ndim <= 2:
        return f"rt.dot({na}, {nb})"
    if a.type.ndim <= 2 and b.type.ndim <= 2:
        return f"rt.matmul_loops({na}, {nb})"
    return f"rt.matmul_batched({na}, {nb})"


_CORE = ("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
         "signature (n?,k),(k,m?)->(n?,m?) (size {} is different from {})")


def _matmul_checks(a, b):
    """NumPy's error for inner sizes known only at run time that differ (``checks``)."""
    if not (isinstance(a, SymbolicTensor) or isinstance(b, SymbolicTensor)):
        return
    sa, sb = (v.shape if isinstance(v, SymbolicTensor) else np.shape(v) for v in (a, b))
    if not (sa and sb):
        return
    ka, kb = sa[-1], sb[-2 if len(sb) > 1 else 0]
    if (ka is None or kb is None) and check_carries_state():
        ka = size_of(a, len(sa) - 1) if ka is None else ka
        kb = size_of(b, max(len(sb) - 2, 0)) if kb is None else kb
        apply("assert", apply("equal", ka, kb), kb, ka, error="ValueError",
              message=_CORE.format("?", "?"), parts=message_parts(_CORE))


defop("matmul", infer=_matmul_infer, eager=lambda a, b: np.matmul(a, b)[()],
      lower=_matmul_lower, checks=_matmul_checks, lower_cuda=lambda em, node: em.matmul(node),
      names=("np.matmul", "Tensor.__matmul__", "Tensor.__rmatmul__", "Tensor.__imatmul__"))
