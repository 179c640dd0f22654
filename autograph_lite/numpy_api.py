"""NumPy's protocols on tensors: ``np.sin(t)``, ``np.sum(t, axis=0)``, ``np.where``, ...

Thin lookups into the op table. On an eager tensor, a NumPy function with no counterpart
runs on the NumPy value; on a symbolic tensor it raises TypeError suggesting ag.py_func.
"""
import builtins
import inspect
import sys
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import dtypes, errors, mutation
from .errors import numpy_error, numpy_error_at_user, user_location, with_location
from .ops.creation import split_shape
from .ops.dispatch import INT64_MAX, INT64_MIN, apply, convert_to_tensor, message_parts, size_of
from .ops.indexing import check_number_written, check_python_int, getitem
from .ops.reduce import norm_axis
from .ops.registry import PUBLIC, expose, public
from .tensor import EagerTensor, SymbolicTensor, holds_symbolic, type_of_constant
from .trace.context import current_graph

def _tables():
    """NumPy's protocol tables, made from the public names of the op table
    (ops/registry.py ``PUBLIC``): ufunc -> op, ufunc -> op of its ``reduce``, ufunc ->
    front, function -> front. Made on the first NumPy call on a tensor (every module that
    claims names has been imported by then) and again if names were claimed since."""
    global _TABLES
    if _TABLES is None or _TABLES[0] != len(PUBLIC):
        ufuncs, reduce, ufunc_fronts, functions = {}, {}, {}, {}
        for name, entry in PUBLIC.items():
            if not name.startswith("np."):
                continue
            obj = numpy_object(name)
            if name.endswith(".reduce"):
                reduce[obj.__self__] = entry.op
            elif isinstance(obj, np.ufunc):
                (ufuncs if entry.op else ufunc_fronts)[obj] = entry.op or entry.impl
            else:
                functions[obj] = entry.impl
        _TABLES = (len(PUBLIC), (ufuncs, reduce, ufunc_fronts, functions))
    return _TABLES[1]


_TABLES = None


def numpy_object(name):
    """The NumPy object a public ``np.`` name stands for (``np.linalg.norm``,
    ``np.add.reduce``)."""
    obj = np
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _unwrap(x):
    if isinstance(x, EagerTensor):
        return x._np
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap(v) for v in x)
    return x


def _no_counterpart(name):
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


def _recorded(inputs):
    """Whether ufunc inputs need the staged form: a symbolic tensor among them, or an eager
    tensor while a GradientTape records (NumPy's own result would be a constant to the tape:
    `np.conjugate(x) * x` gave half the gradient, `np.power(x, 3.0)` none)."""
    from .ops.dispatch import RECORDERS
    return _symbolic_in(inputs) or bool(RECORDERS) and builtins.any(
        isinstance(a, EagerTensor) for a in inputs)


# the errors a front function raises for its inputs (as ops/dispatch.py apply's infer)
_USER_ERRORS = (TypeError, ValueError, IndexError, NotImplementedError, ZeroDivisionError,
                OverflowError)


def array_ufunc(ufunc, method, inputs, kwargs):
    if kwargs.get("out") is not None:
        return _ufunc_out(ufunc, method, inputs, dict(kwargs))
    ufuncs, reduce, ufunc_fronts, _ = _tables()
    if method == "__call__" and ufunc in ufuncs and not (set(kwargs) - {"dtype"}):
        return _in_loop(ufunc, ufuncs[ufunc], inputs, kwargs.get("dtype"))
    if method == "__call__" and ufunc in ufunc_fronts and _recorded(inputs):
        if set(kwargs) == {"dtype"}:  # (`np.power(a, b, dtype=...)`: the front's, in it)
            return _in_loop(ufunc, ufunc_fronts[ufunc], inputs, kwargs["dtype"])
        return ufunc_fronts[ufunc](*inputs, **kwargs)
    if method == "reduce" and ufunc in reduce:
        unstaged = sorted(k for k, v in kwargs.items() if k not in ("axis", "keepdims", "dtype")
                          and not builtins.any(v is d for d in _REDUCE_DEFAULTS.get(k, ())))
        if unstaged and _recorded(inputs):  # (were dropped: `initial=10` added nothing)
            raise NotImplementedError(
                f"np.{ufunc.__name__}.reduce(..., {', '.join(f'{k}=' for k in unstaged)}) "
                f"is not staged; reduce without it and combine after (`np.add.reduce(x) + "
                f"initial`, `np.add.reduce(np.where(m, x, 0))`)")
        if not unstaged:
            return _reduce(reduce[ufunc], inputs[0], kwargs.get("axis", 0),
                           kwargs.get("keepdims", False), kwargs.get("dtype"))
    if method in ("at", "accumulate") and getattr(ufunc, method) in _tables()[3] and \
            _recorded(inputs):
        # (np.add.at, np.maximum.accumulate: a front claims the method)
        return array_function(getattr(ufunc, method), inputs, kwargs)
    if method == "outer" and ufunc.nin == 2 and (ufunc in ufuncs or ufunc in ufunc_fronts) \
            and _recorded(inputs):
        return _outer(ufunc, *inputs, **kwargs)
    if _recorded(inputs):
        _no_counterpart(f"np.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}"))
    return getattr(ufunc, method)(*_unwrap(inputs), **kwargs)


_REDUCE_DEFAULTS = {"initial": (np._NoValue, None), "where": (True,)}  # (as if not given)


def _in_loop(ufunc, op, inputs, dtype, casting="same_kind"):
    """``ufunc(*inputs, dtype=dtype)``: NumPy computes in the loop ``dtype`` selects, its
    inputs cast to it first (``np.add(u8, u8, dtype=np.uint16)`` is 400, not 400 wrapped
    in uint8 and cast; a float input to an int loop is NumPy's UFuncTypeError, raised
    here). The loop is NumPy's own choice (``ufunc.resolve_dtypes``, the inputs' dtypes and
    a Python number as its type, NEP 50)."""
    call = op if callable(op) else lambda *args: apply(op, *args)
    if dtype is None:
        return call(*inputs)
    given = tuple(_loop_part(v) for v in inputs) + (None,) * ufunc.nout
    try:
        loop = ufunc.resolve_dtypes(given, signature=(None,) * ufunc.nin + (
            np.dtype(dtype),) * ufunc.nout, casting=casting)
    except TypeError as e:
        raise numpy_error_at_user(e) from None
    for v, dt in zip(inputs, loop):  # (`np.add(u8, -1, dtype=np.uint16)`: NumPy's error)
        check_python_int(dt, v)
    args = [v if _loop_part(v) == dt else cast(v, dt) for v, dt in zip(inputs, loop)]
    res = call(*args)
    return res if res.dtype == loop[-1] else cast(res, loop[-1])


def _loop_part(v):
    """What ``ufunc.resolve_dtypes`` takes for input ``v``: its dtype, or a Python number's
    type (a weak 0-d tensor's: the Python number it stands for)."""
    if isinstance(v, SymbolicTensor):
        return dtypes.weak_python_type(v.dtype) if v.type.weak and not v.type.ndim else v.dtype
    if isinstance(v, (bool, int, float, complex)) and not isinstance(v, np.generic):
        return type(v)
    return v.dtype if isinstance(v, (np.ndarray, np.generic, EagerTensor)) else \
        np.asarray(v).dtype


def _outer(ufunc, a, b, **kwargs):
    """``ufunc.outer(a, b)`` as NumPy defines it: the ufunc of ``a`` with one new trailing
    axis per dimension of ``b``, and ``b`` (no ravel, unlike ``np.outer``)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    return ufunc(a[(Ellipsis,) + (None,) * b.ndim], b, **kwargs)


def _ufunc_out(ufunc, method, inputs, kwargs):
    """``np.add(a, b, out=o)``: the result written into ``o`` as NumPy writes it (SPEC 3:
    same_kind casting, broadcast to ``o``'s shape; every alias and view of ``o`` sees it:
    mutation.store). Returns ``o``."""
    out = kwargs.pop("out")
    out = out if isinstance(out, tuple) else (out,)
    name = f"np.{ufunc.__name__}"
    ufuncs = _tables()[0]
    if len(out) == 1 and method in ("reduce", "accumulate") and set(kwargs) <= {"axis"} \
            and _symbolic_in(inputs + out):
        return _method_out(ufunc, method, inputs, kwargs, out[0], name)
    if len(out) != 1 or method != "__call__" or ufunc not in ufuncs or (
            set(kwargs) - {"dtype", "casting", "where"}):
        raise TypeError(f"{name}(..., out=) is supported for one output of a plain call "
                        f"with dtype=, casting= and where=, and of .reduce/.accumulate with "
                        f"axis=, only")
    if not _symbolic_in(inputs + out + (kwargs.get("where"),)):  # eager values: NumPy's
        return ufunc(*_unwrap(inputs), out=(writable(out[0], name),), **kwargs)
    target = writable(out[0], name)
    res = _in_loop(ufunc, ufuncs[ufunc], inputs, kwargs.get("dtype"),
                   kwargs.get("casting", "same_kind"))
    if kwargs.get("where", True) is not True:  # (out keeps its elements where it is False)
        res = apply("where", convert_to_tensor(kwargs["where"]), res, target)
    casting = kwargs.get("casting", "same_kind")
    return mutation.store(target, res, mutation.ufunc_cast_error(ufunc, ufunc.__name__,
                                                                 casting), casting)


def shapes_fit(a, b):
    """Whether shapes ``a`` and ``b`` (sizes None, or 0-d tensors, where known only at run
    time: the store's broadcast checks those) may be the same: the rank of an ``out=``
    array and each known size must be the result's."""
    return len(a) == len(b) and builtins.all(
        not isinstance(m, int) or not isinstance(n, int) or m == n for m, n in zip(a, b))


def _method_out(ufunc, method, inputs, kwargs, out, name):
    """``np.maximum.accumulate(x, out=y)``, ``np.add.reduce(x, axis=0, out=y)``: computed
    as without ``out``, written into it when it has the result's dtype and shape (NumPy
    would compute in another dtype's loop otherwise: refused by name)."""
    res = array_ufunc(ufunc, method, inputs, kwargs)
    target = writable(out, name)
    if res.dtype != target.dtype or not shapes_fit(res.shape, target.shape):
        raise NotImplementedError(
            f"{name}.{method}(..., out=) into a {target.dtype} array of shape "
            f"{target.shape} from a {res.dtype} result of shape {res.shape} is not staged "
            f"(NumPy computes in the output's dtype); use an out of the result's dtype and "
            f"shape")
    return mutation.store(target, res, mutation.ufunc_cast_error(ufunc, ufunc.__name__))


@public("np.copyto")
def copyto(dst, src, casting="same_kind", where=True):
    """``np.copyto(dst, src)``: ``src`` written into the whole of ``dst`` as NumPy writes it
    (mutation.store); ``where=`` keeps ``dst``'s elements where it is False."""
    if not _symbolic_in((dst, src, where)):
        return np.copyto(writable(dst, "np.copyto"), *_unwrap((src,)), casting=casting,
                         where=_unwrap(where))
    target = writable(dst, "np.copyto")
    value = convert_to_tensor(src)
    if target.dtype.kind in "iuf" and (type(src) in (int, float) or (
            isinstance(src, SymbolicTensor) and src.type.weak and src.dtype.kind in "iuf")) \
            and (target.dtype.kind == "f" or value.dtype.kind in "iu"):
        check_python_int(target.dtype, src)  # (a Python number is weak: NumPy's range
        value = cast(value, target.dtype)    # check, then the target's dtype: `np.copyto(
        # u8, 3)`, `np.copyto(f32, 3.5, casting="safe")`)
    if where is not True:
        value = apply("where", convert_to_tensor(where), value, target)
    mutation.store(target, value, lambda a, b: f"Cannot cast array data from dtype('{a}') "
                   f"to dtype('{b}') according to the rule '{casting}'", casting)


@public("np.putmask")
def putmask(a, mask, values):
    """``np.putmask(a, mask, values)``: ``values`` written where ``mask`` holds, cast to
    ``a``'s dtype as NumPy casts them (unsafe). Staged for a scalar ``values`` or one of
    ``a``'s shape (NumPy repeats a smaller one over the flat array: refused)."""
    return _masked_write(a, mask, values, "np.putmask")


@public("np.place")
def place(arr, mask, vals):
    """``np.place(arr, mask, vals)``: staged for one value (NumPy takes the values in turn
    for the True elements: more than one is refused)."""
    if _symbolic_in((arr, mask, vals)) and np.size(vals) != 1:
        raise NotImplementedError("np.place with more than one value is not staged (the "
                                  "values go to the True elements in turn); use one value, "
                                  "or np.putmask with values of the array's shape")
    return _masked_write(arr, mask, vals, "np.place")


def _masked_write(a, mask, values, what):
    if not _symbolic_in((a, mask, values)):
        return getattr(np, what[3:])(writable(a, what), *_unwrap((mask, values)))
    target = writable(a, what)
    # a number (or a list) is converted as an item write converts it (`np.putmask(u8, m,
    # k)`, k past uint8; NaN into ints: NumPy's ValueError); values that are an array are
    # cast by NumPy's 'safe' rule (a float array into ints is its TypeError): they wrote
    # INT_MIN
    check_number_written(target, values)
    value, mask = convert_to_tensor(values), convert_to_tensor(mask)
    if (value.ndim or isinstance(values, np.ndarray)) and not np.can_cast(
            value.dtype, target.dtype, "safe"):
        raise numpy_error_at_user(TypeError(
            f"Cannot cast array data from {np.dtype(value.dtype)!r} to "
            f"{np.dtype(target.dtype)!r} according to the rule 'safe'"))
    if value.ndim and tuple(value.shape) != tuple(target.shape) and value.size != 1:
        raise NotImplementedError(f"{what} with values of shape {tuple(value.shape)} into an "
                                  f"array of shape {tuple(target.shape)} is not staged (NumPy "
                                  f"repeats them over the flat array); give one value or "
                                  f"values of the array's shape")
    if tuple(mask.shape) != tuple(target.shape):
        raise ValueError(f"{what}: mask and data must be the same size")
    value = cast(value.reshape(()) if value.ndim and value.size == 1 else value, target.dtype)
    mutation.store(target, apply("where", mask, value, target), None, "unsafe")


def writable(x, what):
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
    if x.ndim == 0 and axis is not None:
        axis = _axis_of_a_0d(op, axis)
    if dtype is not None:
        want = dtypes.as_dtype(dtype)
        if (op in ("reduce_sum", "reduce_mean") and want in (dtypes.float32, dtypes.float64)
                and x.dtype != want and x.dtype.kind in "iubf"):
            # a float sum that casts is the op's own (``dtype``): the elements cast as
            # they are summed, as NumPy's (no cast array first)
            return apply(op, x, axis=norm_axis(axis, x.ndim), keepdims=bool(keepdims),
                         dtype=want)
        x = cast(x, dtype)
    return _in_dtype(apply(op, x, axis=norm_axis(axis, x.ndim), keepdims=bool(keepdims)),
                     dtype)


def _in_dtype(result, dtype):
    """A sum or product asked for in ``dtype`` (`np.sum(a, dtype=np.int8)`) is in it, as
    NumPy's: the op promotes small ints to int64, whose result wraps to NumPy's (the
    integers modulo 2**bits are a ring)."""
    if dtype is None or result.dtype == dtypes.as_dtype(dtype):
        return result
    return cast(result, dtype)


def cast(x, dtype):
    return apply("cast", x, dtype=dtypes.as_dtype(dtype))


# methods and functions -------------------------------------------------------------------
_NO_INITIAL = object()


def _initial_value(initial, dtype):
    """NumPy's ``initial=`` of a reduction: a scalar, cast to the result's ``dtype`` as NumPy
    casts it (`np.int8(300)` is its OverflowError, 2.5 an int 2)."""
    if isinstance(initial, SymbolicTensor) or np.ndim(initial):
        raise TypeError("initial= of a reduction must be a scalar known while tracing")
    return dtype.type(initial)


def _initial(result, initial, combine):
    """``result`` of a sum or product with ``initial=`` taken in."""
    return apply(combine, result, convert_to_tensor(_initial_value(initial, result.dtype)))


def _axis_of_a_0d(op, axis):
    """NumPy's reading of ``axis`` of a 0-d array: a ufunc's reduction (sum, prod, max,
    min, any, all) and argmax/argmin take an int 0 or -1 as the whole array; a tuple, or
    any axis of np.mean, is NumPy's AxisError (an empty tuple reduces nothing)."""
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and (
            op != "reduce_mean" and int(axis) in (0, -1)):
        return None
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if axes:
        raise np.exceptions.AxisError(int(axes[0]), 0)
    return axis


def _extreme(op, x, axis, keepdims, initial):
    """np.max/np.min with ``initial=``: the initial value joins each reduced run (so an
    empty one gives it), as NumPy's; one axis or all."""
    x = convert_to_tensor(x)
    init = _initial_value(initial, x.dtype)
    axes = norm_axis(axis, x.ndim)
    if axes is None or len(axes) == x.ndim:
        joined = concatenate([reshape(x, (-1,)), full((1,), init, x.dtype)])
        result = _reduce(op, joined)
        return reshape(result, (1,) * x.ndim) if keepdims else result
    if len(axes) != 1:
        raise NotImplementedError(f"np.{op[7:]}(..., initial=) over several (not all) axes "
                                  f"is not staged; reduce one axis at a time")
    # a slab of the initial value along the axis (x's sizes, 1 there), then the
    # reduction over both
    slab = full(tuple(1 if k == axes[0] else size_of(x, k) for k in builtins.range(x.ndim)),
                init, x.dtype)
    return _reduce(op, concatenate([slab, x], axis=axes[0]), axes[0], keepdims)


@public("np.sum", "Tensor.sum")
def sum(x, axis=None, dtype=None, keepdims=False, *, initial=_NO_INITIAL):  # noqa: A001
    result = _reduce("reduce_sum", x, axis, keepdims, dtype)
    return result if initial is _NO_INITIAL else _initial(result, initial, "add")


@public("np.mean", "Tensor.mean")
def mean(x, axis=None, dtype=None, keepdims=False):
    return _reduce("reduce_mean", x, axis, keepdims, dtype)


@public("np.max", "np.amax", "Tensor.max")
def max(x, axis=None, keepdims=False, *, initial=_NO_INITIAL):  # noqa: A001
    if initial is not _NO_INITIAL:
        return _extreme("reduce_max", x, axis, keepdims, initial)
    return _reduce("reduce_max", x, axis, keepdims)


@public("np.min", "np.amin", "Tensor.min")
def min(x, axis=None, keepdims=False, *, initial=_NO_INITIAL):  # noqa: A001
    if initial is not _NO_INITIAL:
        return _extreme("reduce_min", x, axis, keepdims, initial)
    return _reduce("reduce_min", x, axis, keepdims)


@public("np.prod", "Tensor.prod")
def prod(x, axis=None, dtype=None, keepdims=False, *, initial=_NO_INITIAL):
    result = _reduce("reduce_prod", x, axis, keepdims, dtype)
    return result if initial is _NO_INITIAL else _initial(result, initial, "multiply")


@public("np.any", "Tensor.any")
def any(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_any", x, axis, keepdims)


@public("np.all", "Tensor.all")
def all(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("reduce_all", x, axis, keepdims)


@public("np.argmax", "Tensor.argmax")
def argmax(x, axis=None, keepdims=False):
    return _reduce("argmax", x, _one_int_axis(axis), keepdims)


@public("np.argmin", "Tensor.argmin")
def argmin(x, axis=None, keepdims=False):
    return _reduce("argmin", x, _one_int_axis(axis), keepdims)


def _one_int_axis(axis):
    """argmax's axis: None or one integer (NumPy's TypeError for a tuple)."""
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
    return axis


def _cumulative(op, x, axis, dtype):
    x = convert_to_tensor(x)
    if dtype is not None:
        x = cast(x, dtype)
    return _in_dtype(apply(op, x, axis=None if axis is None else norm_axis(axis, x.ndim)[0]),
                     dtype)


@public("np.cumsum", "Tensor.cumsum")
def cumsum(x, axis=None, dtype=None):
    return _cumulative("cumsum", x, axis, dtype)


@public("np.cumprod", "Tensor.cumprod")
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


@public("np.sort")
def sort(x, axis=-1, kind=None, order=None, stable=None):
    return _along_last("sort", x, axis, kind)


@public("np.argsort", "Tensor.argsort")
def argsort(x, axis=-1, kind=None, order=None, stable=None):
    return _along_last("argsort", x, axis, kind)


@public("Tensor.sort")
def sort_in_place(x, axis=-1, kind=None, order=None, stable=None):
    """``x.sort()``: NumPy sorts the array itself (every alias sees it) and returns None."""
    target = writable(x, "sort")
    mutation.store(target, sort(target, axis, kind), lambda a, b: "")


@public("np.searchsorted", "Tensor.searchsorted")
def searchsorted(a, v, side="left", sorter=None):
    """np.searchsorted (and the array's method); with ``sorter``, the positions in
    ``a[sorter]``, as NumPy's."""
    a, v = convert_to_tensor(a), convert_to_tensor(v)
    if sorter is not None:
        a = a[convert_to_tensor(sorter)]
    dt = dtypes.as_dtype(np.result_type(a.dtype, v.dtype))
    return apply("searchsorted", cast(a, dt), cast(v, dt), side=side)


@public("np.bincount")
def bincount(x, weights=None, minlength=0):
    x = convert_to_tensor(x)
    inputs = [x, cast(minlength, np.int64) if holds_symbolic(minlength)
              else np.int64(minlength)]
    if weights is not None and x.shape[:1] == (0,):
        weights = None  # (NumPy's int64 zeros: the weights of no element are not read)
    if weights is not None:
        w = convert_to_tensor(weights)
        if not np.can_cast(w.dtype, np.float64, "safe"):  # (complex: NumPy's TypeError)
            raise errors.numpy_error(TypeError(
                f"Cannot cast array data from {w.dtype!r} to dtype('float64') according "
                f"to the rule 'safe'"))
        inputs.append(cast(w, np.float64))
    return apply("bincount", *inputs, weighted=weights is not None)


@public("Tensor.astype")
def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """NumPy's: a new array, unless ``copy=False`` and nothing is to be done (the dtype
    and the order are ``x``'s): then ``x`` itself, which a write through either name
    changes. A ``casting`` rule the cast breaks is NumPy's TypeError."""
    x = convert_to_tensor(x)
    to = dtypes.as_dtype(dtype)
    if order not in ("K", "A", "C"):
        raise NotImplementedError(f"astype(order={order!r}) of a traced array: only 'C', "
                                  f"'K' and 'A' (C-contiguous arrays) are staged")
    if not np.can_cast(x.dtype, to, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {to!r} according to "
                        f"the rule {casting!r}")
    if not copy and to == x.dtype:
        return ascontiguousarray(x) if order == "C" else x
    return cast(x, dtype)


@public("np.copy", "Tensor.copy", "Tensor.__copy__")
def copy(x):
    """``np.copy``, ``x.copy()``, and ``copy.copy(x)``, which NumPy answers with a copy of
    the array too (object.__copy__ would give a second box of the same array, so a write
    through one changed the other)."""
    return apply("cast", x, dtype=convert_to_tensor(x).dtype)


@public("np.ascontiguousarray")
def ascontiguousarray(a, dtype=None):
    """NumPy's: ``a`` itself where it is C-contiguous (a write through either name reaches
    both; contiguity.py knows the layout while tracing), else a C-contiguous copy; a cast
    where ``dtype`` differs; a 0-d value as a 1-element view."""
    x = convert_to_tensor(a)
    if dtype is not None and np.dtype(dtype) != x.dtype:
        x = cast(x, dtype)
    if not isinstance(x, SymbolicTensor):  # (eager: NumPy's own answer)
        return EagerTensor(np.ascontiguousarray(x._np))
    if x.ndim == 0:
        return x.reshape(1)
    from .contiguity import box_is_c
    return x if box_is_c(x) else copy(x)


@public("Tensor.__deepcopy__")
def deepcopy(x, memo=None):
    """``copy.deepcopy(x)``: a copy, as NumPy's of a numeric array."""
    return copy(x)


@public("np.clip", "Tensor.clip")
def clip(x, a_min=None, a_max=None, **bounds):
    """``np.clip(x, lo, hi)``, ``x.clip(min=lo)``: NumPy 2's keyword bounds too."""
    extra = set(bounds) - {"min", "max"}
    if extra:
        raise TypeError(f"clip() got an unexpected keyword argument '{sorted(extra)[0]}'")
    if bounds and (a_min is not None or a_max is not None):
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` "
                         "are provided is forbidden.")
    a_min, a_max = bounds.get("min", a_min), bounds.get("max", a_max)
    x = convert_to_tensor(x)
    lo = -np.inf if a_min is None else a_min
    hi = np.inf if a_max is None else a_max
    if x.dtype.kind in "iu" and (a_min is None or a_max is None):
        info = np.iinfo(x.dtype)
        lo = info.min if a_min is None else a_min
        hi = info.max if a_max is None else a_max
    if x.dtype.kind in "iu":
        lo, hi = _saturated(x.dtype, lo, "min"), _saturated(x.dtype, hi, "max")
    return apply("clip", x, lo, hi)


def _saturated(dt, bound, side):
    """A relaxed Python int bound of ``np.clip`` on an int array, as NumPy 2 takes it: past
    the dtype on its own side it clips nothing (`np.clip(u8, 0, 300)`), past the other
    side it is NumPy's OverflowError (a low bound of 300); the kernel's cast wrapped it."""
    if not (isinstance(bound, SymbolicTensor) and bound.type.weak and not bound.ndim
            and bound.dtype.kind in "iu"):
        return bound
    info = np.iinfo(dt)
    if side == "min" and info.min > INT64_MIN:
        bound = apply("maximum", bound, int(info.min))
    elif side == "max" and info.max < INT64_MAX:
        bound = apply("minimum", bound, int(info.max))
    check_python_int(dt, bound)
    return bound


@public("np.reshape")
def reshape(x, shape, order="C"):
    # sizes that are tensors (x.reshape(n, -1) where n = x.shape[0] of a relaxed trace)
    # are inputs of the op, read at run time
    shape, sizes = split_shape(shape, unknown=True)
    if order == "F":  # (the same values; a view only in cases refused, contiguity.py)
        return transpose(apply("reshape", transpose(x), *sizes[::-1], shape=shape[::-1]))
    if order != "C":
        raise NotImplementedError(f"reshape with order={order!r} has no staged form; use "
                                  f"order='C' or order='F'")
    return apply("reshape", x, *sizes, shape=shape)


@public("Tensor.reshape")
def reshape_method(x, *shape, order="C"):
    return reshape(x, shape[0] if len(shape) == 1 else shape, order)


@public("np.transpose")
def transpose(x, axes=None):
    if axes is None:
        return apply("transpose", x, axes=None)
    x = convert_to_tensor(x)
    axes = tuple(axes)
    if len(axes) != x.ndim:
        raise ValueError("axes don't match array")
    # (negative axes count from the end, as NumPy's; repeated or out of range: its errors)
    return apply("transpose", x, axes=normalize_axis_tuple(axes, x.ndim))


@public("Tensor.transpose")
def transpose_method(x, *axes):
    return transpose(x, axes[0] if len(axes) == 1 else (axes or None))


@public("Tensor.view")
def view(x, dtype=None, type=None):
    """``x.view()``: a new array of the same memory, as ``x[...]`` (writes through either
    reach both). A view as another dtype reinterprets the bytes: not staged."""
    if dtype is not None or type is not None:
        raise NotImplementedError("x.view(dtype) reinterprets the array's bytes as another "
                                  "dtype, which is not staged; use x.astype(dtype) to convert "
                                  "the values, or ag.py_func for the bytes")
    return x[...]


@public("np.ravel", "Tensor.ravel")
def ravel(x, order="C"):
    return reshape(x, (-1,), order)


@public("Tensor.flatten")
def flatten(x, order="C"):
    """``x.flatten()``: always a copy (``ravel`` may be a view)."""
    return copy(ravel(x, order))


@public("np.squeeze", "Tensor.squeeze")
def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    return apply("squeeze", x, axis=norm_axis(axis, x.ndim))


@public("np.expand_dims")
def expand_dims(x, axis):
    if not isinstance(axis, (tuple, list)):
        return apply("expand_dims", x, axis=int(axis))
    # (several new axes, NumPy's: each counted in the result's dims, inserted in order)
    x = convert_to_tensor(x)
    for k in sorted(normalize_axis_tuple(tuple(axis), x.ndim + len(axis))):
        x = apply("expand_dims", x, axis=k)
    return x


@public("np.dot", "Tensor.dot")
def dot(a, b):
    """NumPy's dot: with a 0-d operand, the product (a Python number strong, as NumPy's
    dot makes it an array); where ``b`` has rank <= 2 or ``a`` rank 1, matmul's; else the
    sum over ``a``'s last axis and ``b``'s second-to-last with every other axis kept
    (np.tensordot's: matmul would pair their leading axes as batches, a silent wrong
    shape before session 40). Unaligned known sizes: NumPy's ValueError, in its words."""
    x, y = (convert_to_tensor(v) for v in (a, b))
    x, y = (cast(v, v.dtype) if isinstance(v, SymbolicTensor) and v.type.weak else v
            for v in (x, y))
    if x.ndim == 0 or y.ndim == 0:
        return apply("multiply", x, y)
    check_aligned(x.shape, y.shape)
    if y.ndim <= 2 or x.ndim == 1:
        return apply("matmul", x, y)
    return PUBLIC["np.tensordot"].impl(x, y, axes=([-1], [-2]))


@public("np.where")
def where(cond, x=None, y=None):
    if x is None and y is None:  # NumPy: np.asarray(cond).nonzero()
        return PUBLIC["np.nonzero"].impl(cond)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    out = apply("where", cond, x, y)
    # NumPy's where returns an array (0-d for scalars), which promotes as an array
    return cast(out, out.dtype) if isinstance(out, SymbolicTensor) and out.type.weak else out


def shape_text(shape):
    """A shape as NumPy's messages write it: (2,3), (2,)."""
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def check_aligned(xs, ys):
    """NumPy's error of ``np.dot`` of arrays of shapes ``xs`` and ``ys`` whose summed sizes
    are known and differ (in its words: np.inner's is that of ``x`` and ``y.mT``)."""
    n, m = xs[-1], ys[-2 if len(ys) > 1 else 0]
    if n is not None and m is not None and n != m:
        raise numpy_error_at_user(ValueError(
            f"shapes {shape_text(xs)} and {shape_text(ys)} not aligned: {n} (dim "
            f"{len(xs) - 1}) != {m} (dim {builtins.max(len(ys) - 2, 0)})"))


def size_product(x, axes):
    """The product of ``x``'s sizes on ``axes``: an int, or a 0-d tensor where one is
    known only at run time (reshapes name every size: a -1 next to a zero size is
    NumPy's error)."""
    p = 1
    for i in axes:
        p = p * size_of(x, i)
    return p


def check_equal_division(n, k):
    """NumPy's error of ``np.split`` into ``k`` equal parts of an axis of ``n``: now when
    ``n`` is known, by the runs that reach it when it is a run-time size (the ``split``
    op's kernel cuts ``n // k`` each, unchecked)."""
    if not isinstance(n, int):
        apply("assert", n % k == 0, error="ValueError",
              message="array split does not result in an equal division")
    elif n % k:
        raise numpy_error(ValueError("array split does not result in an equal division"))


def _joined(op, arrays, axis, out, dtype, casting):
    if out is not None:
        raise NotImplementedError(f"np.{op}(..., out=) is not staged; assign the result "
                                  f"instead (out[...] = np.{op}(...))")
    arrays = [convert_to_tensor(a) for a in arrays]
    if axis is None:  # (NumPy: flattened first)
        arrays, axis = [ravel(a) for a in arrays], 0
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
        for a in arrays:
            if not np.can_cast(a.dtype, dt, casting):
                raise TypeError(f"Cannot cast array data from dtype('{a.dtype}') to "
                                f"dtype('{dt}') according to the rule '{casting}'")
        arrays = [cast(a, dt) for a in arrays]
    _check_joinable(op, arrays, int(axis))
    return apply("concat" if op == "concatenate" else op, *arrays, axis=int(axis))


def _check_joinable(op, arrays, axis):
    """NumPy's errors of np.concatenate/np.stack, in its words: a mismatch known while
    tracing is NumPy's own error (errors.numpy_error: raised by the runs that reach it,
    after the writes before it), a size known only at run time a staged check (the
    kernel's own error would hand back no state)."""
    def fail(error):
        raise numpy_error_at_user(error)
    if not arrays:
        fail(ValueError(f"need at least one array to {op}"))
    first = arrays[0]
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != first.ndim:
            fail(ValueError("all input arrays must have the same shape" if op == "stack" else
                            f"all the input arrays must have same number of dimensions, but "
                            f"the array at index 0 has {first.ndim} dimension(s) and the array "
                            f"at index {i} has {a.ndim} dimension(s)"))
    if op == "concatenate" and first.ndim == 0:
        fail(ValueError("zero-dimensional arrays cannot be concatenated"))
    try:
        axis = normalize_axis_index(axis, first.ndim + (op == "stack"))
    except np.exceptions.AxisError as e:
        fail(e)
    for k in builtins.range(first.ndim):
        if op == "concatenate" and k == axis:
            continue
        for i, a in enumerate(arrays[1:], 1):
            n, m = first.shape[k], a.shape[k]
            text = ("all input arrays must have the same shape" if op == "stack" else
                    f"all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {k}, the array at index 0 has size "
                    f"{{}} and the array at index {i} has size {{}}")
            if n is None or m is None:
                n, m = size_of(first, k), size_of(a, k)
                apply("assert", apply("equal", n, m), n, m, error="ValueError",
                      message=text.format("?", "?"),
                      parts=None if op == "stack" else message_parts(text))
            elif n != m:
                fail(ValueError(text.format(n, m)))


@public("np.concatenate")
def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _joined("concatenate", arrays, axis, out, dtype, casting)


@public("np.stack")
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _joined("stack", arrays, axis, out, dtype, casting)


def _like(x, value, dtype, shape):
    x = convert_to_tensor(x)
    dt = x.dtype if dtype is None else dtypes.as_dtype(dtype)
    return full(x.shape if shape is None else shape, value, dt, like=x)


@public("np.full")
def full(shape, fill_value, dtype=None, like=None):
    dt = dtypes.as_dtype(dtype) if dtype is not None else convert_to_tensor(fill_value).dtype
    check_python_int(dt, fill_value)  # (the kernel would wrap it)
    if isinstance(like, SymbolicTensor) and shape == like.shape:
        # the sizes of a traced tensor: read at run time, so the kernel fits any size
        dyn = [apply("dim", like, axis=k) for k in builtins.range(like.ndim)]
        return apply("full", fill_value, *dyn, shape=(None,) * like.ndim, dtype=dt,
                     known=tuple(like.shape))
    static, dyn = split_shape(shape)
    return apply("full", fill_value, *dyn, shape=static, dtype=dt)


@public("np.zeros")
def zeros(shape, dtype=float):
    return full(shape, 0, dtypes.as_dtype(dtype))


@public("np.ones")
def ones(shape, dtype=float):
    return full(shape, 1, dtypes.as_dtype(dtype))


@public("np.empty")
def empty(shape, dtype=float):
    static, dyn = split_shape(shape)
    return apply("empty", *dyn, shape=static, dtype=dtypes.as_dtype(dtype))


@public("np.zeros_like")
def zeros_like(x, dtype=None, shape=None):
    return _like(x, 0, dtype, shape)


@public("np.ones_like")
def ones_like(x, dtype=None, shape=None):
    return _like(x, 1, dtype, shape)


@public("np.full_like")
def full_like(x, fill_value, dtype=None, shape=None):
    return _like(x, fill_value, dtype, shape)


@public("np.empty_like")
def empty_like(x, dtype=None, shape=None):
    return _like(x, 0, dtype, shape)


@public("np.shape")
def shape(x):
    return convert_to_tensor(x).numpy_shape()


@public("np.size")
def size(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return x.size
    shape = x.numpy_shape()
    if isinstance(axis, (tuple, list)):  # (NumPy 2's: the product of those sizes)
        out = 1
        for a in normalize_axis_tuple(axis, x.ndim):  # (a repeated axis: its ValueError)
            out = out * shape[a]
        return out
    return shape[normalize_axis_index(axis, x.ndim)]


@public("np.ndim")
def ndim(x):
    return convert_to_tensor(x).ndim


@public("np.result_type")
def result_type(*arrays_and_dtypes):
    """NumPy's answer, from the dtypes known while tracing (a relaxed Python number takes
    part as a Python number of its kind, weak)."""
    def part(a):
        if isinstance(a, SymbolicTensor) and a.type.weak:
            return dtypes.weak_stand_in(a.dtype)
        return a.dtype if isinstance(a, (EagerTensor, SymbolicTensor)) else a
    return np.result_type(*[part(a) for a in arrays_and_dtypes])


def integer_count(v):
    """``v``, a count, size or offset (`np.linspace`'s num, `np.eye`'s N): a traced one must
    be an integer, as NumPy asks (a float is its TypeError, not a truncated count)."""
    if isinstance(v, SymbolicTensor) and v.dtype.kind not in "iu":
        name = "float" if v.type.weak and v.dtype.kind == "f" else f"numpy.{v.dtype.name}"
        raise TypeError(f"'{name}' object cannot be interpreted as an integer")
    return v


@public("np.linspace")
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = integer_count(num)
    if retstep or axis != 0:
        raise NotImplementedError("linspace: retstep and axis are not supported on tensors")
    def typ(v):
        return v.type if isinstance(v, SymbolicTensor) else type_of_constant(_unwrap(v))
    inexact = dtypes.result_type(typ(start), typ(stop), type_of_constant(1.0))
    dt = inexact if dtype is None else dtypes.as_dtype(dtype)
    if endpoint and not isinstance(num, SymbolicTensor) and inexact == dtypes.float64:
        return apply("linspace", start, stop, num=int(num), dtype=dt)
    # (NumPy computes in `inexact`: of float32 bounds, float32 steps op for op, which the
    # linspace op's float64 kernel does not give; before session 45 it did that and cast)
    return _linspace_staged(start, stop, num, endpoint, inexact, dt)


def _linspace_staged(start, stop, num, endpoint, inexact, dt):
    """np.linspace with a traced ``num`` (or endpoint=False), NumPy's own steps op for op:
    ``arange(num) * step + start`` (``/ div * delta`` where the step is 0, ``* delta``
    where ``div`` is 0), the last sample ``stop`` itself, floored for an integer dtype."""
    if isinstance(num, SymbolicTensor):  # (NumPy's message, with that run's num)
        apply("assert", num >= 0, num, message="Number of samples must be non-negative.",
              parts=("Number of samples, ", (-1, "", "int"), ", must be non-negative."),
              error="ValueError")
    elif num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    y = arange(0, num, dtype=inexact)
    delta = cast(convert_to_tensor(stop), inexact) - cast(convert_to_tensor(start), inexact)
    some = cast(convert_to_tensor(np.maximum(div, 1)), inexact)  # (div 0: unused)
    step = delta / some
    y = where(div > 0, where(step == 0, y / some * delta, y * step), y * delta) + start
    if endpoint:
        last = (arange(num) == num - 1) & (num > 1)
        y = where(last, cast(convert_to_tensor(stop), inexact), y)
    if np.dtype(dt).kind in "iu":
        y = np.floor(y)
    return cast(y, dt)


@public("np.arange")
def arange(start, stop=None, step=1, dtype=None):
    """np.arange / ag.range: tensor bounds are staged (the length then too)."""
    if stop is None:
        start, stop = 0, start
    parts = (start, stop, step)
    if dtype is None:  # (NumPy's takes each bound by its dtype, a Python int as int64,
        # and widens: a float32 or uint8 range is float64 or int64, uint64 with an int
        # float64; a float32 range was float32, with other values, until session 44)
        kind = np.result_type(*[convert_to_tensor(p).dtype if holds_symbolic(p) else
                                np.asarray(p).dtype for p in parts]).kind
        dtype = {"f": dtypes.float64, "c": dtypes.complex128}.get(kind, dtypes.int64)
    dtype = dtypes.as_dtype(dtype)
    length = None
    if builtins.all(isinstance(p, (int, float, np.number)) for p in parts):
        if step == 0:
            raise ZeroDivisionError("division by zero (np.arange's step is 0)")
        length = len(np.arange(start, stop, step))
    return apply("range", start, stop, step, dtype=dtype, length=length)


# NumPy function -> how its result is written into an ``out=`` array (numpy_out.py), for
# the functions whose front takes no ``out``
OUT_RULES = {}


def call_front(impl, func, args, kwargs, name):
    """``impl(*args, **kwargs)``, the staged form of NumPy function ``func`` (or of its
    method): ``out=`` by ``func``'s rule (numpy_out.py), a keyword ``impl`` does not take
    refused by name (NotImplementedError), not Python's bare TypeError; a refusal of the
    front names the user's line."""
    try:
        return _call_front(impl, func, args, kwargs, name)
    except _USER_ERRORS as e:
        if name.startswith("x."):
            attr = name[2:]
            e = numpy_raises_too(lambda a, *rest, **kw: getattr(a, attr)(*rest, **kw), args,
                                 kwargs, e)
        elif func is not None and not getattr(func, "__module__", "").startswith(
                "numpy.random"):  # (a sample would draw from NumPy's global generator)
            e = numpy_raises_too(func, args, kwargs, e)
        raise with_location(e, user_location()) from None


class _NoSample(Exception):
    pass


_SAMPLE_LIMIT = 1 << 16  # (elements of an array NumPy is asked on)


def _sample(v):
    """``v`` with each tensor a zero array of its shape and dtype (a weak one, the Python
    number), each NumPy array a copy (NumPy may write into a sample)."""
    if isinstance(v, SymbolicTensor):
        if None in v.shape or int(np.prod(v.shape)) > _SAMPLE_LIMIT:
            raise _NoSample
        if v.type.weak and not v.ndim:
            return dtypes.weak_python_type(v.dtype)(0)
        return np.zeros(v.shape, v.dtype)[()]
    if isinstance(v, EagerTensor):
        return np.array(v.numpy())
    if isinstance(v, np.ndarray):
        return v.copy()
    if type(v) in (list, tuple):
        return type(v)(_sample(i) for i in v)
    if type(v) is dict:
        return {k: _sample(i) for k, i in v.items()}
    if type(v) is slice:
        return slice(_sample(v.start), _sample(v.stop), _sample(v.step))
    return v


def numpy_raises_too(call, args, kwargs, e):
    """``e``, an error a front raised while tracing (an axis out of range, a float index,
    `np.where` of two arguments), as NumPy's own (errors.numpy_error: raised by the runs
    that reach it, so a staged branch never taken raises nothing, session 53's probe) when
    ``call`` raises an error of its type on arguments of the same shapes and dtypes, the
    rest as given: then the user's code raises it in plain NumPy too. Else ``e``: our own
    refusal, an error of the trace."""
    if getattr(e, "ag_user_raise", False) or not isinstance(e, (ValueError, IndexError,
                                                                 TypeError)):
        return e
    try:
        samples, named = _sample(tuple(args)), {k: _sample(v) for k, v in kwargs.items()}
    except _NoSample:
        return e
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(*samples, **named)
    except type(e) as again:
        if _raised_by_us(again):  # (a tensor the sample still held: an object's)
            return e
        return numpy_error(again.with_traceback(None))
    except Exception:  # noqa: BLE001 - another error: not the same failure
        return e
    return e


def _raised_by_us(e):
    """Whether NumPy's call went through our code (a tensor's ``__index__`` refusing)."""
    tb = e.__traceback__
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", "")
        if module.startswith("autograph_lite") and module != __name__:
            return True
        tb = tb.tb_next
    return False


def _named_from_out(func, args, kwargs):
    """NumPy's arguments from `out` on (`np.max(x, 0, o)`, `x.sum(0, None, o)`: `out` by
    position) passed by their NumPy names: a staged form has no `out` slot (session 50: a
    positional `out` was taken as the staged `keepdims`, and nothing was written)."""
    position = _out_position(func)
    if position is None or len(args) <= position:
        return args, kwargs
    names = _OUT_PARAMETERS[func][position:]
    moved = dict(zip(names, args[position:]))
    twice = [k for k in moved if k in kwargs]
    if twice or len(args) - position > len(names):
        raise TypeError(f"{_np_name(func)}() got multiple values for argument '{twice[0]}'"
                        if twice else f"{_np_name(func)}() takes at most "
                        f"{len(_OUT_PARAMETERS[func])} positional arguments")
    if moved["out"] is None:  # (NumPy's default: no out)
        del moved["out"]
    return args[:position], {**kwargs, **moved}


_OUT_PARAMETERS = {}  # NumPy function -> its positional parameter names (one with `out`)


def _out_position(func):
    """Where `out` is among `func`'s positional parameters (a NumPy function), or None."""
    try:
        names = _OUT_PARAMETERS.get(func)
    except TypeError:  # (an unhashable callable)
        return None
    if names is None:
        try:
            params = inspect.signature(func).parameters.values()
        except (TypeError, ValueError):
            params = ()
        names = _OUT_PARAMETERS[func] = tuple(
            p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    return names.index("out") if "out" in names else None


def _call_front(impl, func, args, kwargs, name):
    args, kwargs = _named_from_out(func, args, kwargs)
    try:
        rule = OUT_RULES.get(func) if kwargs.get("out") is not None else None
        if rule is not None:
            return rule(impl, args, {k: v for k, v in kwargs.items() if k != "out"},
                        kwargs["out"])
        return impl(*args, **kwargs)
    except TypeError as e:
        if "unexpected keyword argument" not in str(e) and "positional argument" not in str(e):
            raise
        try:
            inspect.signature(impl).bind(*args, **kwargs)
        except TypeError:
            params = inspect.signature(impl).parameters
            bad = [f"{k}=" for k in kwargs if k not in params]
            if len(args) > len(params) or not bad:  # (`np.size(a, 1)`, `x.copy('F')`)
                bad.append(f"{len(args)} arguments by position")
            raise NotImplementedError(
                f"{name}(..., {', '.join(bad)}) is not staged; call it without them (or "
                f"with keywords where it takes them), or wrap the NumPy code in "
                f"ag.py_func") from None
        raise


def has_staged_form(func):
    """Whether NumPy function ``func`` has a staged form (a public ``np.`` name)."""
    try:
        return func in _tables()[3]
    except TypeError:  # (an unhashable callable)
        return False


def array_function(func, args, kwargs):
    impl = _tables()[3].get(func)
    if impl is not None:
        return call_front(impl, func, args, kwargs, _np_name(func))
    if _symbolic_in(args) or _symbolic_in(kwargs.values()):
        _no_counterpart(_np_name(func))
    return func(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})


# -- the Tensor surface that is more than one op on its operands (front_door.py attaches it)
@public("Tensor.__array_ufunc__")
def _array_ufunc_method(x, ufunc, method, *inputs, **kwargs):
    return array_ufunc(ufunc, method, inputs, kwargs)


@public("Tensor.__array_function__")
def _array_function_method(x, func, types, args, kwargs):
    return array_function(func, args, kwargs)


@public("Tensor.numpy_shape")
def numpy_shape(x):
    """The shape as NumPy gives it, for user code (``x.shape`` and ``np.shape(x)`` in
    converted code): Python ints, and a staged (weak) int for a size known only at run
    time. ``.shape`` itself keeps ``None`` there (SPEC §1, what the library reads), which
    user code would compare silently (``x.shape[0] == 3`` was False on every run of a
    trace with relaxed sizes)."""
    return tuple(d if d is not None else apply("as_weak", apply("dim", x, axis=k))
                 for k, d in enumerate(x.shape))


def _size(x):
    """The number of elements: a Python int when every size is known while tracing, else
    a staged one (weak, as NumPy's Python int)."""
    n = 1
    for d in x.shape:
        if d is None:
            return apply("as_weak", apply("size", x))
        n *= d
    return n


def _getitem(x, index):
    """``x[index]``; an index NumPy refuses for the shapes and dtypes (`x[1.5]`) raises
    NumPy's error on the runs that reach it (numpy_raises_too)."""
    try:
        return getitem(x, index)
    except (IndexError, TypeError, ValueError) as e:
        own = numpy_raises_too(lambda a, i: a[i], (x, index), {}, e)
        if own is e:
            raise
        raise with_location(own, user_location()) from None


expose("Tensor.__getitem__", _getitem)
expose("Tensor.T", property(lambda x: apply("transpose", x, axes=None)))
expose("Tensor.size", property(_size))
# (a Python int, as NumPy's: the dtype fixes it; nbytes is the size's multiple)
expose("Tensor.itemsize", property(lambda x: np.dtype(x.dtype).itemsize))
expose("Tensor.nbytes", property(lambda x: _size(x) * np.dtype(x.dtype).itemsize))
