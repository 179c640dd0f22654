"""NumPy's protocols on tensors: ``np.sin(t)``, ``np.sum(t, axis=0)``, ``np.where``, ...

Thin lookups into the op table. On an eager tensor, a NumPy function with no counterpart
runs on the NumPy value; on a symbolic tensor it raises TypeError suggesting ag.py_func.
"""
import builtins
import sys

import numpy as np

from . import dtypes, mutation
from .ops.creation import split_shape
from .ops.dispatch import apply
from .ops.reduce import norm_axis
from .tensor import (EagerTensor, SymbolicTensor, convert_to_tensor, holds_symbolic,
                     type_of_constant)
from .trace.context import current_graph

_UFUNCS = {np.absolute: "abs", np.remainder: "mod", np.divide: "true_divide"}
for _n in ("sqrt exp log log1p expm1 log2 log10 sin cos tan arcsin arccos arctan sinh cosh "
           "tanh arcsinh arccosh arctanh floor ceil rint trunc sign square reciprocal isnan "
           "isinf isfinite negative logical_not invert add subtract multiply true_divide "
           "floor_divide power maximum minimum arctan2 equal not_equal less less_equal greater "
           "greater_equal logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor "
           "fmod matmul").split():
    _UFUNCS[getattr(np, _n)] = _n
_REDUCE = {np.add: "reduce_sum", np.multiply: "reduce_prod", np.maximum: "reduce_max",
           np.minimum: "reduce_min", np.logical_and: "reduce_all", np.logical_or: "reduce_any"}


def _unwrap(x):
    if isinstance(x, EagerTensor):
        return x._np
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap(v) for v in x)
    return x


def _no_counterpart(name):
    from .errors import user_location
    at = user_location()
    raise TypeError(f"NumPy function {name}{f' at {at}' if at else ''} has no staged "
                    f"counterpart in autograph_lite and cannot run on a symbolic tensor; wrap "
                    f"the NumPy code in ag.py_func(func, [inputs], Tout) to call it on the "
                    f"values")


def _np_name(func):
    module = getattr(func, "__module__", None) or "numpy"
    sub = module.split(".")[1] if module.startswith("numpy.") else ""
    return f"np.{sub + '.' if sub and not sub.startswith('_') else ''}{func.__name__}"


def _symbolic_in(args):
    return holds_symbolic(tuple(args))


def array_ufunc(ufunc, method, inputs, kwargs):
    if kwargs.get("out") is not None:
        return _ufunc_out(ufunc, method, inputs, dict(kwargs))
    if method == "__call__" and ufunc in _UFUNCS and not (set(kwargs) - {"dtype"}):
        res = apply(_UFUNCS[ufunc], *inputs)
        return cast(res, kwargs["dtype"]) if kwargs.get("dtype") is not None else res
    if method == "__call__" and ufunc in _UFUNC_COMPOSITES and _symbolic_in(inputs):
        return _UFUNC_COMPOSITES[ufunc](*inputs, **kwargs)
    if method == "reduce" and ufunc in _REDUCE:
        return _reduce(_REDUCE[ufunc], inputs[0], kwargs.get("axis", 0),
                       kwargs.get("keepdims", False))
    if _symbolic_in(inputs):
        _no_counterpart(f"np.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}"))
    return getattr(ufunc, method)(*_unwrap(inputs), **kwargs)


def _ufunc_out(ufunc, method, inputs, kwargs):
    """``np.add(a, b, out=o)``: the result written into ``o`` as NumPy writes it (SPEC 3:
    same_kind casting, broadcast to ``o``'s shape; every alias and view of ``o`` sees it:
    mutation.store). Returns ``o``."""
    out = kwargs.pop("out")
    out = out if isinstance(out, tuple) else (out,)
    name = f"np.{ufunc.__name__}"
    if len(out) != 1 or method != "__call__" or ufunc not in _UFUNCS or (
            set(kwargs) - {"dtype", "casting"}):
        raise TypeError(f"{name}(..., out=) is supported for one output of a plain call "
                        f"with dtype= and casting= only")
    if not _symbolic_in(inputs + out):  # eager values: NumPy itself (o must be writable)
        return ufunc(*_unwrap(inputs), out=(_writable(out[0], name),), **kwargs)
    target = _writable(out[0], name)
    res = apply(_UFUNCS[ufunc], *inputs)
    if kwargs.get("dtype") is not None:
        res = cast(res, kwargs["dtype"])
    return mutation.store(target, res, lambda a, b: f"Cannot cast ufunc '{ufunc.__name__}' "
                          f"output from dtype('{a}') to dtype('{b}') with casting rule "
                          f"'{kwargs.get('casting', 'same_kind')}'",
                          kwargs.get("casting", "same_kind"))


def copyto(dst, src, casting="same_kind", where=True):
    """``np.copyto(dst, src)``: ``src`` written into the whole of ``dst`` as NumPy writes it
    (mutation.store); ``where=`` keeps ``dst``'s elements where it is False."""
    if not _symbolic_in((dst, src, where)):
        return np.copyto(_writable(dst, "np.copyto"), *_unwrap((src,)), casting=casting,
                         where=_unwrap(where))
    target = _writable(dst, "np.copyto")
    value = convert_to_tensor(src)
    if where is not True:
        value = apply("where", convert_to_tensor(where), value, target)
    mutation.store(target, value, lambda a, b: f"Cannot cast array data from dtype('{a}') "
                   f"to dtype('{b}') according to the rule '{casting}'", casting)


def _writable(x, what):
    """The array ``out=``/``np.copyto`` writes into: a symbolic tensor; a NumPy array of
    trace time, as the box it becomes (autograph/runtime/data.py ``lift``) when the
    trace is writing tensors into it, else itself; an ``ag.Tensor`` is immutable."""
    if isinstance(x, EagerTensor):
        raise TypeError(f"{what} cannot write into an ag.Tensor, which is immutable (as in "
                        f"TensorFlow); write into a NumPy array")
    if isinstance(x, np.ndarray) and current_graph() is not None:
        data = sys.modules.get("autograph_lite.autograph.runtime.data")
        if data is None:
            raise TypeError(f"{what} cannot write a symbolic tensor into a NumPy array "
                            f"outside converted code; use a tensor (ag.zeros(...))")
        return data.lift(x, None)
    if not isinstance(x, (SymbolicTensor, np.ndarray)):
        raise TypeError(f"{what}: the output must be an array, got {type(x).__name__}")
    return x


def _reduce(op, x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    if dtype is not None:
        x = cast(x, dtype)
    return apply(op, x, axis=norm_axis(axis, x.ndim), keepdims=bool(keepdims))


def cast(x, dtype):
    return apply("cast", x, dtype=dtypes.as_dtype(dtype))


# methods and functions -------------------------------------------------------------------
def sum(x, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_sum", x, axis, keepdims, dtype)


def mean(x, axis=None, dtype=None, keepdims=False):
    return _reduce("reduce_mean", x, axis, keepdims, dtype)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_max", x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_min", x, axis, keepdims)


def prod(x, axis=None, dtype=None, keepdims=False):
    return _reduce("reduce_prod", x, axis, keepdims, dtype)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_any", x, axis, keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_all", x, axis, keepdims)


def argmax(x, axis=None, keepdims=False):
    return _reduce("argmax", x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _reduce("argmin", x, axis, keepdims)


def _cumulative(op, x, axis, dtype):
    x = convert_to_tensor(x)
    if dtype is not None:
        x = cast(x, dtype)
    return apply(op, x, axis=None if axis is None else norm_axis(axis, x.ndim)[0])


def cumsum(x, axis=None, dtype=None):
    return _cumulative("cumsum", x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative("cumprod", x, axis, dtype)


def _along_last(name, x, axis, kind):
    """sort/argsort along ``axis`` as the ops' last axis (moved there and back)."""
    x = convert_to_tensor(x)
    if kind not in (None, "quicksort", "mergesort", "heapsort", "stable"):
        raise ValueError(f"{name}: kind {kind!r} is not one of NumPy's")
    if axis is None:
        x, axis = ravel(x), 0
    ax = norm_axis(axis, x.ndim)[0] if x.ndim else 0
    if ax == x.ndim - 1 or x.ndim == 0:
        return apply(name, x)
    perm = [k for k in builtins.range(x.ndim) if k != ax] + [ax]
    back = [int(k) for k in np.argsort(perm)]
    return transpose(apply(name, transpose(x, perm)), back)


def sort(x, axis=-1, kind=None, order=None, stable=None):
    return _along_last("sort", x, axis, kind)


def argsort(x, axis=-1, kind=None, order=None, stable=None):
    return _along_last("argsort", x, axis, kind)


def sort_in_place(x, axis=-1, kind=None, order=None, stable=None):
    """``x.sort()``: NumPy sorts the array itself (every alias sees it) and returns None."""
    target = _writable(x, "sort")
    mutation.store(target, sort(target, axis, kind), lambda a, b: "")


def searchsorted(a, v, side="left", sorter=None):
    if sorter is not None:
        raise NotImplementedError("np.searchsorted(..., sorter=) is not staged; pass "
                                  "a[sorter]")
    a, v = convert_to_tensor(a), convert_to_tensor(v)
    dt = dtypes.as_dtype(np.result_type(a.dtype, v.dtype))
    return apply("searchsorted", cast(a, dt), cast(v, dt), side=side)


def bincount(x, weights=None, minlength=0):
    x = convert_to_tensor(x)
    inputs = [x, cast(minlength, np.int64) if holds_symbolic(minlength)
              else np.int64(minlength)]
    if weights is not None and x.shape[:1] == (0,):
        weights = None  # (NumPy's int64 zeros: the weights of no element are not read)
    if weights is not None:
        inputs.append(cast(weights, np.float64))
    return apply("bincount", *inputs, weighted=weights is not None)


def astype(x, dtype, copy=True):
    return cast(x, dtype)


def copy(x):
    return apply("cast", x, dtype=convert_to_tensor(x).dtype)


def clip(x, a_min=None, a_max=None):
    x = convert_to_tensor(x)
    lo = -np.inf if a_min is None else a_min
    hi = np.inf if a_max is None else a_max
    if x.dtype.kind in "iu" and (a_min is None or a_max is None):
        info = np.iinfo(x.dtype)
        lo = info.min if a_min is None else a_min
        hi = info.max if a_max is None else a_max
    return apply("clip", x, lo, hi)


def reshape(x, shape, order="C"):
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    if order == "F":  # (the same values; a view only in cases refused, contiguity.py)
        return transpose(apply("reshape", transpose(x), shape=shape[::-1]))
    if order != "C":
        raise NotImplementedError(f"reshape with order={order!r} has no staged form; use "
                                  f"order='C' or order='F'")
    return apply("reshape", x, shape=shape)


def reshape_method(x, *shape, order="C"):
    return reshape(x, shape[0] if len(shape) == 1 else shape, order)


def transpose(x, axes=None):
    return apply("transpose", x, axes=None if axes is None else tuple(axes))


def transpose_method(x, *axes):
    return transpose(x, axes[0] if len(axes) == 1 else (axes or None))


def ravel(x, order="C"):
    return reshape(x, (-1,), order)


def flatten(x, order="C"):
    """``x.flatten()``: always a copy (``ravel`` may be a view)."""
    return copy(ravel(x, order))


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    return apply("squeeze", x, axis=norm_axis(axis, x.ndim))


def expand_dims(x, axis):
    return apply("expand_dims", x, axis=int(axis))


def dot(a, b):
    return apply("matmul", a, b)


def where(cond, x=None, y=None):
    if x is None or y is None:
        raise TypeError("np.where with one argument (nonzero) has no staged form; "
                        "pass x and y")
    return apply("where", cond, x, y)


def concatenate(arrays, axis=0):
    return apply("concat", *arrays, axis=int(axis))


def stack(arrays, axis=0):
    return apply("stack", *arrays, axis=int(axis))


def split(x, sections, axis=0):
    if not isinstance(sections, int):
        raise TypeError("np.split on tensors takes a number of equal sections; "
                        "use ag.split for sizes")
    return list(apply("split", x, sections=sections, axis=int(axis)))


def _like(x, value, dtype, shape):
    x = convert_to_tensor(x)
    dt = x.dtype if dtype is None else dtypes.as_dtype(dtype)
    return full(x.shape if shape is None else shape, value, dt, like=x)


def full(shape, fill_value, dtype=None, like=None):
    dt = dtypes.as_dtype(dtype) if dtype is not None else convert_to_tensor(fill_value).dtype
    if isinstance(like, SymbolicTensor) and shape == like.shape:
        # the sizes of a traced tensor: read at run time, so the kernel fits any size
        dyn = [apply("dim", like, axis=k) for k in builtins.range(like.ndim)]
        return apply("full", fill_value, *dyn, shape=(None,) * like.ndim, dtype=dt,
                     known=tuple(like.shape))
    static, dyn = split_shape(shape)
    return apply("full", fill_value, *dyn, shape=static, dtype=dt)


def zeros(shape, dtype=float):
    return full(shape, 0, dtypes.as_dtype(dtype))


def ones(shape, dtype=float):
    return full(shape, 1, dtypes.as_dtype(dtype))


def empty(shape, dtype=float):
    static, dyn = split_shape(shape)
    return apply("empty", *dyn, shape=static, dtype=dtypes.as_dtype(dtype))


def zeros_like(x, dtype=None, shape=None):
    return _like(x, 0, dtype, shape)


def ones_like(x, dtype=None, shape=None):
    return _like(x, 1, dtype, shape)


def full_like(x, fill_value, dtype=None, shape=None):
    return _like(x, fill_value, dtype, shape)


def empty_like(x, dtype=None, shape=None):
    return _like(x, 0, dtype, shape)


def shape(x):
    return convert_to_tensor(x).numpy_shape()


def size(x):
    return convert_to_tensor(x).size


def ndim(x):
    return convert_to_tensor(x).ndim


def matmul(a, b):
    return apply("matmul", a, b)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    if not endpoint or retstep or axis != 0:
        raise NotImplementedError("linspace: endpoint=False, retstep and axis are not "
                                  "supported on tensors")
    if dtype is None:  # NumPy: result_type(start, stop, float(num))
        def typ(v):
            return v.type if isinstance(v, SymbolicTensor) else type_of_constant(_unwrap(v))
        dt = dtypes.result_type(typ(start), typ(stop), type_of_constant(1.0))
    else:
        dt = dtypes.as_dtype(dtype)
    return apply("linspace", start, stop, num=int(num), dtype=dt)


def arange(start, stop=None, step=1, dtype=None):
    from .api.core import range as ag_range
    return ag_range(start, stop, step, dtype=dtype)


_FUNCTIONS = {np.sum: sum, np.mean: mean, np.max: max, np.amax: max, np.min: min,
              np.amin: min, np.prod: prod, np.any: any, np.all: all, np.argmax: argmax,
              np.argmin: argmin, np.cumsum: cumsum, np.cumprod: cumprod, np.sort: sort,
              np.searchsorted: searchsorted, np.bincount: bincount, np.argsort: argsort,
              np.clip: clip, np.reshape: reshape,
              np.transpose: transpose, np.ravel: ravel, np.squeeze: squeeze,
              np.expand_dims: expand_dims, np.dot: dot, np.where: where,
              np.concatenate: concatenate, np.stack: stack, np.split: split,
              np.zeros_like: zeros_like, np.ones_like: ones_like, np.full_like: full_like,
              np.empty_like: empty_like, np.shape: shape, np.size: size, np.ndim: ndim,
              np.copy: copy, np.matmul: matmul, np.linspace: linspace, np.copyto: copyto}


def array_function(func, args, kwargs):
    impl = _FUNCTIONS.get(func)
    if impl is not None:
        return impl(*args, **kwargs)
    if _symbolic_in(args) or _symbolic_in(kwargs.values()):
        _no_counterpart(_np_name(func))
    return func(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})

# NumPy ufuncs built from several ops: numpy_composites.py registers them (and its functions
# in _FUNCTIONS) when it is imported, which the package does (it builds on this module)
_UFUNC_COMPOSITES = {}
