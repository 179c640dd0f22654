"""NumPy calls that need help on symbolic tensors before NumPy's own dispatch sees them.

`np.zeros(n)`, `np.empty((n, 3))`, `np.full(n, v)`, `np.arange(n)`, `np.linspace(a, b,
n)`, `np.eye(n)`, ... with a tensor size (or fill value) never reach a tensor's
`__array_function__` (no array argument), so they are routed to the core's staged forms; a NumPy array that `np.copyto`,
`np.fill_diagonal` or `np.add.at` writes tensors into becomes a staged array first (NumPy
dispatches those on the written array alone). `np.stack(x)`/`ag.stack(x)` of a
tensor (a list that a staged loop carried as one stacked tensor) is `x` itself, which is
also what NumPy gives for stacking the rows of an array along axis 0. Inside the loop
that appends to it, the list is a TensorList (data.py): its stack is its rows so far.
"""

import inspect
import itertools
import sys

import numpy as np

from autograph_lite import errors, numpy_api, tensor
from autograph_lite.api import core as api
from autograph_lite.ops import dispatch, indexing
from autograph_lite.autograph.runtime import core, data, iteration, list_values
from autograph_lite.autograph.runtime import where as where_

_ALLOCATORS = {np.zeros: "zeros", np.ones: "ones", np.empty: "empty", np.full: "full"}
# made of sizes: NumPy dispatches them on no argument (their staged forms: numpy_api's table)
# writing into their first argument: a NumPy array of trace time becomes a box first
_WRITERS = (np.copyto, np.fill_diagonal, np.put, np.putmask, np.place)
_SIZED = (np.arange, np.linspace, np.logspace, np.geomspace, np.eye, np.identity, np.tri)
# (and NumPy functions of an array that do not dispatch on it: their staged forms by name)
_UNDISPATCHED = (np.ascontiguousarray,)


def _has_symbolic(args):
    return tensor.holds_symbolic(tuple(args))


def _stack_of_tensor(stack):
    def call(values, axis=0, *args, **kwargs):
        if isinstance(values, data.TensorList):
            values = values.stacked()
        if core.is_symbolic(values) and axis == 0 and not args and not kwargs:
            if isinstance(values, list_values.ListTensor):
                list_values.check_not_empty(values, "need at least one array to stack")
            return list_values.array_of(values)
        return stack(values, axis, *args, **kwargs)
    return call


def _join_of_list(f):
    """``np.concatenate(rows)``, ``np.vstack``, ``np.hstack``, ``np.column_stack`` of a
    list a staged loop built (the tensor of its rows): NumPy's join of the rows, from that
    tensor (NumPy would iterate it as a list); after NumPy's check that it is not empty."""
    def call(values, *args, **kwargs):
        if isinstance(values, data.TensorList):
            values = values.stacked()
        if not isinstance(values, list_values.ListTensor):
            return f(values, *args, **kwargs)
        return list_values.joined(f.__name__, values, *args, **kwargs)
    return call


_LIST_JOINS = (np.concatenate, np.vstack, np.hstack, np.column_stack)


_NO_COPY = ("Unable to avoid copy while creating an array as requested.\nIf using "
            "`np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy "
            "when needed (no behavior change in NumPy 1.x).")
# the keywords of np.array / np.asarray / np.asanyarray a traced array takes (``like=``
# and Fortran order are refused); asarray's order may come second, by position; NumPy's
# own TypeError for one the function does not have
_ARRAY_KEYWORDS = {"copy", "order", "ndmin", "subok", "device"}
_KEYWORDS_OF = {np.array: {"copy", "order", "ndmin", "subok", "like"},
                np.asarray: {"copy", "order", "device", "like"},
                np.asanyarray: {"copy", "order", "device", "like"}}


def _array_of(f):
    """`np.array([t0, t1])`, `np.asarray(t)`: a list (nested) holding tensors is their
    stack; the result is the tensor itself or a copy exactly where NumPy's is the array
    itself or a copy (a write through it reaches the argument or not): `np.array` copies
    unless ``copy=None``/``False``; `np.asarray` (and `np.asanyarray`) copy only with
    ``copy=True``, a cast, or ``order="C"`` of a view that is not C-contiguous; where a
    copy is needed ``copy=False`` is NumPy's ValueError."""
    def call(obj, dtype=None, *args, **kwargs):
        if isinstance(obj, data.TensorList):  # (inside the loop appending to it: its rows,
            obj = obj.listed()                # not the buffer and length, session 52)
        if not _has_symbolic((obj,)):
            return f(obj, dtype, *args, **kwargs)
        if args and f is not np.array and len(args) == 1 and "order" not in kwargs:
            kwargs, args = {**kwargs, "order": args[0]}, ()
        for k in kwargs:
            if k not in _KEYWORDS_OF[f]:
                raise TypeError(f"{f.__name__}() got an unexpected keyword argument '{k}'")
        unknown = sorted(set(kwargs) - _ARRAY_KEYWORDS) + (["(by position)"] if args else [])
        order = kwargs.get("order") or "K"
        if unknown or order not in ("K", "A", "C") or kwargs.get("device") not in (None, "cpu"):
            raise NotImplementedError(
                f"np.{f.__name__}() of a traced array takes dtype=, copy=, order='C'/'K'/'A', "
                f"ndmin= and subok= (as keywords); got "
                f"{', '.join(unknown) or f'order={order!r}'}")
        copy = kwargs.get("copy", True if f is np.array else None)
        if dtype is not None:  # (`np.array([k, 1], np.uint8)`, k past it: NumPy's error)
            indexing.check_python_int(np.dtype(dtype), obj)
        out = dispatch.convert_to_tensor(obj)  # (a list's: the stack)
        fresh = out is not obj
        if isinstance(out, list_values.ListTensor):  # (an array of a list: a new array)
            list_values.check_typed_when_empty(out, f.__name__, dtype)
            out, fresh = list_values.array_of(out), True
        if dtype is not None and np.dtype(dtype) != out.dtype:
            out, fresh = numpy_api.astype(out, dtype), True
        if order == "C" and not fresh:
            c = numpy_api.ascontiguousarray(out)
            out, fresh = c, c is not out
        if fresh and copy is False:
            raise ValueError(_NO_COPY)
        if copy and not fresh:
            out = numpy_api.copy(out)
        ndmin = kwargs.get("ndmin", 0)
        return out.reshape((1,) * (ndmin - out.ndim) + out.shape) if out.ndim < ndmin else out
    return call


def _seterr(*args, **kwargs):
    """np.seterr while tracing: one that makes a floating-point error raise (or call) is
    refused, as `with np.errstate(...)` is (runtime/staging.py): the compiled arithmetic
    never raises FloatingPointError."""
    if any(v in ("raise", "call") for v in (*args, *kwargs.values())):
        raise NotImplementedError(
            f"np.seterr(...) at {errors.user_location() or 'its line'} asks NumPy to raise (or "
            f"call) on a floating-point error inside a compiled function, whose arithmetic "
            f"gives inf/nan as Numba's does and never raises FloatingPointError; test the "
            f"values instead (`np.isfinite`), or set it around the call")
    return np.seterr(*args, **kwargs)


def _of_numbers(res, args):
    """A ufunc the user calls on Python numbers alone gives a NumPy scalar (``np.cos(t)`` of
    a Python float ``t`` is an np.float64, which promotes strongly: ``np.cos(t) * f32`` is
    float64); on a relaxed Python number (a weak 0-d tensor) too, so its weak result is
    made strong. (Our own code's calls on weak sizes keep them weak.)"""
    if not all(dispatch.weak_scalar(a) or type(a) in (bool, int, float, complex)
               for a in args):
        return res
    if isinstance(res, tuple):
        return tuple(_of_numbers(r, ()) for r in res)
    if isinstance(res, tensor.SymbolicTensor) and res.type.weak:
        return numpy_api.cast(res, res.dtype)
    return res


def overload(f):
    """The replacement for `f`, or None when `f` is called as it is."""
    try:
        name = _ALLOCATORS.get(f)
    except TypeError:
        return None
    if name is not None:
        def allocate(*args, **kwargs):
            if _has_symbolic(args) or _has_symbolic(kwargs.values()):
                return getattr(numpy_api, name)(*args, **kwargs)
            if f is np.empty:
                # Undefined contents may as well be zeros: a uniform array that later
                # gets traced values is allocated by the kernel (data.staged_array).
                return np.zeros(*args, **kwargs)
            return f(*args, **kwargs)
        return allocate
    if f is np.stack or f is api.stack:
        return _stack_of_tensor(f)
    if any(f is g for g in _LIST_JOINS):
        return _join_of_list(f)
    if any(f is g for g in _WRITERS):  # (dispatched on the written array alone)
        def copyto(*args, **kwargs):  # (by NumPy's own names: `np.put(w, ind=i, v=v)`)
            bound = inspect.signature(f).bind(*args, **kwargs)
            bound.apply_defaults()
            dst, *rest = bound.arguments.values()
            dst = data.for_write(dst, _has_symbolic(rest))
            return f(dst, *rest)
        return copyto
    if isinstance(getattr(f, "__self__", None), np.ufunc) and f.__name__ == "at":
        def at(a, indices, *args, **kwargs):  # (nor np.add.at on index arrays in a tuple)
            return f(data.for_write(a, _has_symbolic((indices,) + args)), indices, *args,
                     **kwargs)
        return at
    if isinstance(f, np.ufunc):
        def ufunc(*args, out=None, **kwargs):
            if out is None:
                return _of_numbers(f(*args, **kwargs), args)
            outs = tuple(data.for_write(o, _has_symbolic(args))
                         for o in (out if isinstance(out, tuple) else (out,)))
            return f(*args, out=outs, **kwargs)
        return ufunc
    if any(f is g for g in _SIZED + _UNDISPATCHED):  # (`np.arange(n)`: nothing to dispatch on)
        def sized(*args, **kwargs):
            if _has_symbolic(args) or _has_symbolic(kwargs.values()):
                return numpy_api.array_function(f, args, kwargs)
            return f(*args, **kwargs)
        return sized
    if f is np.array or f is np.asarray or f is np.asanyarray:
        return _array_of(f)
    if isinstance(f, type) and issubclass(f, np.number | np.bool_) and f.__module__ == "numpy":
        def scalar(*args, **kwargs):  # (`np.float32(t)`: NumPy's cast, as astype's)
            if len(args) == 1 and not kwargs and _has_symbolic(args):
                x = dispatch.convert_to_tensor(args[0])
                if (x is args[0] and x.ndim and x.dtype == np.dtype(f)
                        and not isinstance(x, list_values.ListTensor)):
                    return x  # (NumPy's of an array of its type: the array itself)
                indexing.check_python_int(np.dtype(f), x)  # (`np.uint8(k)`, k past it)
                return numpy_api.astype(x, f)
            return f(*args, **kwargs)
        return scalar
    if isinstance(f, np.vectorize):  # (`np.vectorize(g)(x)`, `@np.vectorize`)
        def vectorized(*args, **kwargs):
            if _has_symbolic(args) or _has_symbolic(kwargs.values()):
                # (the core's module, imported by the package: its map converts `g`, so
                # importing it here would close a circle through AutoGraph)
                return sys.modules["autograph_lite.numpy_vectorize"].call(f, args, kwargs)
            return f(*args, **kwargs)
        return vectorized
    if f is np.seterr:
        return _seterr
    if f is np.ndindex:  # (a loop over it may be staged: loops.py)
        return iteration.ndindex
    if f is np.ndenumerate:
        return iteration.ndenumerate
    if f is np.fromiter:
        return _fromiter
    if f is np.nditer or (getattr(f, "__module__", None) or "").startswith("numpy.ma"):
        return _unstaged(f, _NO_FORM.get(f, _NO_FORM["ma"]))
    if f is np.isscalar:  # (not dispatched: it asks the argument's type)
        return lambda x: (core.numpy_type(x) is not np.ndarray if core.is_symbolic(x)
                          else np.isscalar(x))
    # a tensor where NumPy does not dispatch (`np.take(table, i)`, `np.roll(a, k)`,
    # `np.repeat(a, n)`: NumPy dispatches on the array alone): the staged form, as NumPy's
    # dispatch on a tensor array would call it (not NumPy's own code, which would fail
    # converting the tensor, or refuse it with a misleading message); a ufunc's methods
    # (`np.maximum.accumulate(x, out=y)`) dispatch on every operand, out= included
    if numpy_api.has_staged_form(f) and not isinstance(getattr(f, "__self__", None), np.ufunc):
        def staged(*args, **kwargs):
            if _has_symbolic(args) or _has_symbolic(kwargs.values()):
                return numpy_api.array_function(f, args, kwargs)
            return f(*args, **kwargs)
        return staged
    return None


# NumPy callables that do not dispatch to tensors and have no staged form: what to write
# instead (NumPy's own call would fail converting the tensor with a message about
# something else: nditer's "flagged as writeable ... WRITEBACKIFCOPY")
_NO_FORM = {
    np.nditer: "iterate over `np.ndindex(x.shape)` (then read `x[idx]`) or "
               "`np.ndenumerate(x)`, which are staged",
    "ma": "masked arrays are not staged; use a boolean mask (`x[x != 0].sum()`, "
          "`np.where(mask, x, 0)`) or ag.py_func",
}


def _unstaged(f, instead):
    name = numpy_api._np_name(f)  # (np.nditer, np.ma.masked_equal)

    def refuse(*args, **kwargs):
        if _has_symbolic(args) or _has_symbolic(kwargs.values()):
            raise TypeError(f"{name} of a tensor (at {where_.caller()}) has no staged "
                            f"form: {instead}")
        return f(*args, **kwargs)
    return refuse


def _fromiter(iterable, dtype, count=-1, *, like=None):
    """`np.fromiter` of an iterable whose items are tensors (`(int(c) for c in x)` over a
    tensor of known length): the items taken while tracing, as NumPy takes them, stacked
    and cast to ``dtype``; NumPy's own for Python items."""
    items = list(iterable if count < 0 else itertools.islice(iterable, count))
    if not any(core.is_symbolic(v) for v in items):
        return np.fromiter(iter(items), dtype, count)
    if count >= 0 and len(items) < count:
        raise ValueError(f"iterator too short: Expected {count} but iterator had only "
                         f"{len(items)} items.")
    if any(core.rank_of(v) for v in items):
        raise TypeError("np.fromiter takes an iterable of numbers: an item is an array")
    return numpy_api.cast(api.stack([dispatch.convert_to_tensor(v) for v in items]),
                          np.dtype(dtype))
