"""`converted_call`: decides per call whether the callee is converted, dispatched to a
staged builtin, or called as it is (library code, already converted, marked)."""

import abc
import dataclasses
import functools
import inspect
import os
import random
import re
import sys
import sysconfig
import types
import warnings
import weakref

import numpy as np

from autograph_lite import errors
from autograph_lite.tensor import Tensor, holds_symbolic
from autograph_lite.autograph.ndarray_writes import WRITING_METHODS
from autograph_lite.autograph.runtime.data import is_library_code
from autograph_lite.autograph.runtime import (builtins_, core, data, list_values, math_calls,
                                              numpy_calls, slots, staging, text,
                                              text_formats, trace_arrays, unset, where)
from autograph_lite.ir import graph as graph_ir
from autograph_lite.trace import context, random_states

_CONVERTED = weakref.WeakKeyDictionary()
_WARNED = set()
_ATTR = "__ag_do_not_convert__"
# The converter of a plain function: autograph/api.py's convert_plain, which sets it when it
# is imported (it imports this module; converted code exists only after it converted some)
CONVERTER = None


def do_not_convert(func):
    """Marks `func` so that autograph leaves it (and what it calls) unconverted."""
    try:
        setattr(func, _ATTR, True)
        return func
    except (AttributeError, TypeError):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        setattr(wrapper, _ATTR, True)
        return wrapper


def _warn_once(func, reason):
    key = getattr(func, "__code__", func)
    if key in _WARNED:
        return
    _WARNED.add(key)
    warnings.warn(f"autograph_lite could not convert {getattr(func, '__qualname__', func)!r} "
                  f"({reason}); it will run as is", UserWarning, stacklevel=4)


def _should_convert(func):
    if getattr(func, _ATTR, False) or hasattr(func, "ag__converted"):
        return False
    if errors.is_generated(func.__code__.co_filename):
        return False  # defined inside converted code: already converted with its parent
    return not is_library_code(func) or _derived_comparison(func)


def _derived_comparison(func):
    """Whether ``func`` is one of the comparisons `functools.total_ordering` derives from
    the user's (`_ge_from_lt`: `not a < b`): plain Python, converted as the user's own
    (run as it is, its `not` of the user's staged `<` is a TypeError)."""
    return (getattr(func, "__module__", None) == "functools"
            and _DERIVED.fullmatch(getattr(func, "__qualname__", "")) is not None)


_DERIVED = re.compile(r"_(lt|le|gt|ge)_from_(lt|le|gt|ge)")


def convert_function(func, recursive=True):
    """The converted version of a plain function, or `func` itself when it cannot be."""
    if not _should_convert(func):
        return func
    per_fn = _CONVERTED.setdefault(func, {})
    if recursive not in per_fn:
        try:
            per_fn[recursive] = CONVERTER(func, recursive)
        except NotImplementedError:
            raise
        except Exception as e:  # noqa: BLE001 - conversion must never break the user's call
            _warn_once(func, f"{type(e).__name__}: {e}")
            per_fn[recursive] = func
    return per_fn[recursive]


def _callee(f, recursive):
    """(function to call, leading args) for any callable, converting what should be."""
    if inspect.isgeneratorfunction(getattr(f, "__func__", f)):
        # (a helper that yields: its body cannot be split into the functions staging
        # needs; it runs as Python runs it, item by item while tracing, and a condition on
        # a tensor inside says so at its line: tensor.py's __bool__)
        return f, ()
    if inspect.isfunction(f):
        return convert_function(f, recursive), ()
    if inspect.ismethod(f) and inspect.isfunction(f.__func__):
        return convert_function(f.__func__, recursive), (f.__self__,)
    if not isinstance(f, type) and not inspect.isroutine(f):
        call = getattr(type(f), "__call__", None)
        if inspect.isfunction(call) and not is_library_code(call):
            return convert_function(call, recursive), (f,)
    if isinstance(f, type) and type(f) in (type, abc.ABCMeta) and f.__new__ is object.__new__:
        if user_method(f, "__init__"):
            return functools.partial(_constructed, f, convert_function(f.__init__, recursive)), ()
        if user_method(f, "__post_init__") and dataclasses.is_dataclass(f) and (
                "__slots__" not in f.__dict__):
            return functools.partial(_post_initialised, f, convert_function(
                f.__post_init__, recursive)), ()
    return f, ()


def user_method(cls, name):
    """``cls``'s method ``name`` where it is the user's own function with source to
    convert (not a builtin's, a library's, nor one a decorator generated: a dataclass's
    `__init__`), else None."""
    method = getattr(cls, name, None)
    if not inspect.isfunction(method) or method.__code__.co_filename.startswith("<") or (
            is_library_code(method) and not _derived_comparison(method)):
        return None
    return method


def _constructed(cls, init, *args, **kwargs):
    """``cls(*args)`` of a user's plain class, its `__init__` run as converted code (its
    `isinstance(m, np.ndarray)` sees the value's class, its `np.asarray(a)` stages), as a
    method call is: Python's object creation, then the initialiser."""
    obj = object.__new__(cls)
    result = init(obj, *args, **kwargs)
    if result is not None:
        raise TypeError(f"__init__() should return None, not '{type(result).__name__}'")
    return obj


def _post_initialised(cls, post_init, *args, **kwargs):
    """``cls(*args)`` of a user's dataclass with a `__post_init__`, run converted: the
    generated `__init__` calls ``self.__post_init__(...)``, which finds the converted
    method set on the new object for that call (Python's creation otherwise as it is)."""
    obj = object.__new__(cls)
    obj.__dict__["__post_init__"] = functools.partial(post_init, obj)
    try:
        cls.__init__(obj, *args, **kwargs)
    finally:
        del obj.__dict__["__post_init__"]
    return obj


# math functions whose NumPy namesake computes something else (np.remainder is Python's %)
_NOT_NUMPYS = ("remainder",)


def _math_on_tensor(f):
    name = getattr(f, "__name__", "function")
    np_name = {"fabs": "abs", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
               "atan2": "arctan2", "pow": "power"}.get(name, name)
    if hasattr(np, np_name) and name not in _NOT_NUMPYS:
        hint = f"np.{np_name}, which is staged (note: NumPy returns nan or inf where math raises)"
    else:
        hint = ("NumPy operations (NumPy has no function of this name), or keep the argument "
                "a Python number")
    raise TypeError(f"math.{name}() at {where.caller(3)} has no staged form, and its "
                    f"argument here is a tensor whose value exists only when the compiled "
                    f"function runs; use {hint}")


# builtins that read the containers they are given whole (their arrays: the boxes)
_READERS = frozenset(map(id, (sum, max, min, sorted, zip, enumerate, map, filter, list, tuple,
                              any, all, reversed, iter, dict, set, frozenset)))


def _reads_containers(f):
    """Whether `f` reads the lists, tuples and dict views passed to it without keeping or
    changing them: a reading builtin, or a NumPy function (`np.stack(arrs)`)."""
    return id(f) in _READERS or (getattr(f, "__module__", None) or "").split(".")[0] == "numpy"


_RANDOM_STATES = (np.random.RandomState, np.random.Generator, random.Random)


def _staged_draw(f, traced):
    """Refuses a random draw of NumPy or Python (`np.random.rand()`, `rng.normal()`,
    `random.random()`) inside a staged branch or loop, or given a tensor (`size=n`): it
    runs while tracing, once, so every iteration and every call would get the same
    numbers, where NumPy draws anew (a tensor's value does not exist then at all)."""
    owner = ("np.random." if isinstance(f.__self__, np.random.RandomState) else
             "random." if isinstance(f.__self__, random.Random) else "Generator.")
    what = f"{owner}{getattr(f, '__name__', 'draw')}() at {where.caller(3)}"
    if traced:
        raise TypeError(f"{what} is given a tensor, whose value exists only when the compiled "
                        f"function runs, and NumPy draws while tracing; draw with "
                        f"ag.random.uniform/normal (a tensor shape is fine there)")
    raise TypeError(
        f"{what} is inside a staged loop or branch: it would draw once, while tracing, and "
        f"every iteration and every call would get that same value (NumPy draws a new one "
        f"each time). Draw with ag.random.uniform/normal, which draw on every run, or draw "
        f"all the numbers before the loop (`noise = rng.normal(size=n)`, then index it)")




def _traced(args, kwargs):
    return numpy_calls._has_symbolic(args) or numpy_calls._has_symbolic(kwargs.values())


def _on_box(method, args, kwargs):
    """A method of a NumPy array of trace time, called on the box it stands for where it
    became one. A writing method (`a.sort()`, `a.fill(v)`) given a tensor or called inside a
    staged branch or loop makes it one first (data.for_write): NumPy would write the
    array now, while tracing, on every path (`if c: a.sort()` sorted it for both)."""
    array, name = method.__self__, method.__name__
    traced = _traced(args, kwargs)
    if name in WRITING_METHODS and not (traced or trace_arrays.in_region()):
        data.for_write(array, False, name)  # (a captured array: refused, made once per trace)
    elif name in WRITING_METHODS:
        box = data.for_write(array, traced)
        if not hasattr(box, name):
            raise NotImplementedError(
                f"ndarray.{name}() at {where.caller(3)} writes into a NumPy array made while "
                f"tracing, with a tensor or inside a staged branch or loop, and has no staged "
                f"form; compute the new values and assign them (`a[...] = ...`)")
        return getattr(box, name)
    box = trace_arrays.resolve(array)
    if box is array and traced and isinstance(array, np.ndarray):
        # (`x.dot(t)`, `x.clip(0, t)` of an array made while tracing: NumPy's own method
        # would convert the tensor; the array's constant has the staged one)
        staged = getattr(trace_arrays.as_constant(array), name, None)
        return method if staged is None else staged
    return method if box is array else getattr(box, name)


# list methods that compare items by value (in C, calling bool() on each comparison): what to
# write instead when the list holds tensors
_COMPARING = {
    "index": "stack them and search, e.g. `int(np.argmin(np.array(hist)))` for "
             "`hist.index(min(hist))`",
    "count": "stack them and count, e.g. `np.count_nonzero(np.array(items) == v)`",
    "remove": "keep the items in an array and select with a mask",
}


def list_pop(target, name=None, *index):
    """`v = target.pop(...)` as converters/lists.py writes it, `target, v = list_pop(target,
    'target')`: a list's pop (data.list_pop); another object's (a set's, a dict's, the
    user's) is its call, converted, with that call's checks (a set popped in a staged
    loop is refused: slots.advancing)."""
    if data.pops_as_list(target):
        return data.list_pop(target, name, *index)
    return target, converted_call(target.pop, index)


def converted_call(f, args, kwargs=None, recursive=True):
    """Calls `f(*args, **kwargs)` the autograph way (see module docstring)."""
    kwargs = kwargs or {}
    args, kwargs = _maybe_none_given(f, args, kwargs)
    if f is next and args or getattr(f, "__name__", None) in ("__next__", "send"):
        slots.advancing(args[0] if f is next else getattr(f, "__self__", None))
    elif getattr(f, "__name__", None) == "pop" and type(getattr(f, "__self__", None)) is set:
        slots.advancing(f.__self__, "set.pop()")
    if getattr(f, "__name__", None) == "write" and any(
            getattr(f, "__self__", None) is s for s in (sys.stdout, sys.stderr)):
        staged, written = builtins_.stream_write(f, args, kwargs)
        if staged:
            return written
    if isinstance(getattr(f, "__self__", None), _RANDOM_STATES):
        traced = _traced(args, kwargs)
        if traced or trace_arrays.in_region():
            _staged_draw(f, traced)
    if any(type(a) is np.ndarray for a in args):  # (a NumPy array of trace time that a
        args = tuple(map(trace_arrays.resolve, args))  # staged write made a box: the box)
    if any(type(v) is np.ndarray for k, v in kwargs.items() if k != "out"):
        kwargs = {k: v if k == "out" else trace_arrays.resolve(v) for k, v in kwargs.items()}
    if getattr(f, "__module__", None) in ("heapq", "_heapq") and (
            trace_arrays.in_region() or numpy_calls._has_symbolic(args)):
        _heapq_on_tensors(f)
    if _reads_containers(f):  # (`sum(arrs)` after `arrs[0][i] = t` in a staged loop)
        args = tuple(map(trace_arrays.resolved_items, args))
        kwargs = {k: v if k == "out" else trace_arrays.resolved_items(v)
                  for k, v in kwargs.items()}
    if type(getattr(f, "__self__", None)) is np.ndarray:  # (`g.u.sum()`: a held array's
        f = _on_box(f, args, kwargs)                     # box, where it became one)
    if isinstance(getattr(f, "__self__", None), list_values.ListTensor):
        builtins_.check_list_method(f)  # (`out.sum()` of a staged list: Python's error)
    if type(getattr(f, "__self__", None)) is str and getattr(f, "__name__", "") == "join" \
            and len(args) == 1 and not kwargs:
        return text.join(f.__self__, args[0])
    if type(getattr(f, "__self__", None)) is list and getattr(f, "__name__", "") == "sort":
        return builtins_.list_sort(f.__self__, *args, **kwargs)
    if (type(getattr(f, "__self__", None)) is list and f.__name__ in _COMPARING
            and numpy_calls._has_symbolic(list(f.__self__) + list(args))):
        try:  # (an item that is the very object needs no comparison: Python's `is` first)
            return f(*args, **kwargs)
        except TypeError:
            raise TypeError(
                f"list.{f.__name__} (at {where.caller()}) compares the list's items with "
                f"`==`, and a tensor's comparison is known only when the function runs; "
                f"{_COMPARING[f.__name__]}") from None
    try:
        overload = builtins_.OVERLOADS.get(f)
    except TypeError:
        overload = None
    if isinstance(kwargs.get("out"), (np.ndarray, tuple)):  # (NumPy writing a captured
        for o in (kwargs["out"] if isinstance(kwargs["out"], tuple) else (kwargs["out"],)):
            data.for_write(o, False, "out")  # array: once per trace, where Python writes it
    if overload is None:                     # on every call: refused)
        overload = numpy_calls.overload(f) or text_formats.overload(f)
    if overload is not None:  # (its own frame is ours: Python's or NumPy's under it)
        return _called(overload, tuple(args), kwargs, ours=2)
    if getattr(f, "__module__", None) == "math" and numpy_calls._has_symbolic(args):
        staged = math_calls.staged(f)
        if staged is None:
            _math_on_tensor(f)
        return staged(*args, **kwargs)
    if not recursive:
        return _as_it_is(lambda: f(*args, **kwargs), f, (args, kwargs))
    if isinstance(f, functools._lru_cache_wrapper):
        return _cached(f, args, kwargs)
    if isinstance(f, functools.partial):
        return converted_call(f.func, f.args + tuple(args), {**f.keywords, **kwargs})
    fn, lead = _callee(f, recursive)
    if is_library_code(fn):
        return _as_it_is(lambda: _stdlib_on_tensors(fn, lead + tuple(args), kwargs), f,
                         (args, kwargs))
    if any(fn is g for g in (f, getattr(f, "__func__", None),  # (identity: a callable
                             getattr(type(f), "__call__", None))):  # object's own __eq__)
        return _as_it_is(lambda: fn(*lead, *args, **kwargs), f, (args, kwargs))
    return fn(*lead, *args, **kwargs)


# builtins that raise a TypeError on None, by the MaybeNone dunder they call (unset.py)
_ON_NONE = ((abs, "abs"), (int, "int"), (float, "float"), (len, "len"), (iter, "iter"),
            (range, "index"))


def _maybe_none_given(f, args, kwargs):
    """`args`, where a variable that is None on some runs (unset.MaybeNone) is given: to the
    user's own functions as it is (traced with it, `x is None` staged); to a builtin that
    raises a TypeError on None (`int(idx)`) as its value, after the check that raises it;
    to anything else refused: NumPy, the other builtins and libraries do something else
    with None than with a value (`np.asarray(None)` is an object array, `print` prints it),
    which a compiled function cannot choose at run time. Returns (args, kwargs)."""
    given = [a for a in (*args, *kwargs.values()) if isinstance(a, unset.MaybeNone)]
    if not given:
        return args, kwargs
    if all(a.is_set is True for a in given):  # (known set here, `if idx is not None:`)
        return (tuple(map(unset.plain, args)),
                {k: unset.plain(v) for k, v in kwargs.items()})
    fn = getattr(f, "__func__", f)
    if inspect.isfunction(fn) and not is_library_code(fn):
        return args, kwargs
    for g, op in _ON_NONE:  # (`int(idx)`: Python's TypeError where it is None)
        if f is g and len(args) == 1 and not kwargs:
            return (args[0].used(op),), kwargs
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)
    raise unset.refused(given[0].name, f"passing it to {name} (at {where.caller(3)})")


def _cached(f, args, kwargs):
    """``f(*args)`` of a `functools.lru_cache`/`cache` function: what it returns may be
    what an earlier call returned, held by the cache, which outlives the trace as a
    global does: its arrays count as captured ones (writing into them is refused,
    data._captured; a write into a copy would leave the cached array unchanged, where
    NumPy changes it for every later call)."""
    out = _as_it_is(lambda: _called(f, tuple(args), kwargs), f, (args, kwargs))
    graph = context.current_graph()
    if graph is not None:
        root = graph_ir.root_graph(graph)
        name = f"{getattr(f, '__qualname__', 'a cached function')}(...)"
        root.outside_arrays = list(getattr(root, "outside_arrays", ())) + [
            (a, name) for a, _ in slots.arrays_in([(out, name)])]
    return out


def _heapq_on_tensors(f):
    """Refuses heapq on traced values or inside a staged branch or loop: a heap is kept in
    order by comparing its items while tracing, where a traced value's order is known only
    when the function runs (in a staged loop the list's change was refused by a message
    about `h[0]` that never named heapq: session 49)."""
    raise NotImplementedError(
        f"heapq.{getattr(f, '__name__', 'function')} at {where.caller(3)} keeps a Python list "
        f"in heap order by comparing its items while tracing, and here they are traced "
        f"values (or the list changes inside a staged branch or loop), whose order is known "
        f"only when the function runs; keep the priorities in a NumPy array and pick the "
        f"smallest with np.argmin (with a mask of the items taken, as Dijkstra's visited set)")


def _stdlib_on_tensors(f, args, kwargs):
    """``_called``; a TypeError a function of Python's standard library raises on the
    tensors it was given (`statistics.mean(x)`: "can't convert type 'SymbolicTensor' to
    numerator/denominator", deep in its code) says so at the user's line."""
    try:
        return _called(f, args, kwargs)
    except TypeError as e:
        module = (getattr(f, "__module__", None) or "").split(".")[0]
        if module not in sys.stdlib_module_names or module == "builtins" or not (
                numpy_calls._has_symbolic(args) or numpy_calls._has_symbolic(
                    kwargs.values())):
            raise
        name = f"{module}.{getattr(f, '__qualname__', getattr(f, '__name__', 'function'))}"
        raise TypeError(
            f"{name}() at {where.caller(4)} is Python's standard library, which computes on "
            f"Python numbers, and it was given a tensor whose value exists only when the "
            f"compiled function runs ({e}); use the NumPy function that computes it, where "
            f"there is one (np.mean, np.median, np.std, ...), NumPy operations, or "
            f"ag.py_func to run it on the values") from e


# (modules whose functions draw from no random state: watching a call costs ~0.15 ms)
_NO_DRAWS = ("autograph_lite", "numpy", "builtins", "math", "operator", "functools",
             "itertools", "collections")


def _may_draw(f):
    """Whether a call of ``f`` may draw random numbers: not one of NumPy's functions (its
    `np.random` ones are refused by name, _staged_draw) nor Python's plain ones."""
    module = getattr(f, "__module__", None) or type(f).__module__ or ""
    root = module.split(".")[0]
    return root not in _NO_DRAWS or module.startswith("numpy.random")


def _as_it_is(call, f, values):
    """``call()`` of ``f``, which autograph does not convert (library code, ``@ag.
    do_not_convert``). Where a staged branch or loop is traced, a random draw in it
    (`scipy.stats.norm.rvs()`, a helper's `np.random.rand()`) would run once, while
    tracing, and every trip and every call would get that number: refused, as a draw
    written in the converted code is (_staged_draw)."""
    if not trace_arrays.in_region() or not _may_draw(f):
        return call()
    out, drew = random_states.draws(call, f, values)
    if drew:
        name = getattr(f, "__qualname__", None) or type(f).__name__
        raise TypeError(
            f"{name}() at {where.caller(3)}, which autograph does not convert, draws random "
            f"numbers inside a staged loop or branch: it would draw once, while tracing, and "
            f"every iteration and every call would get those same numbers (NumPy draws new "
            f"ones each time). Draw with ag.random.uniform/normal, which draw on every run, "
            f"or draw all the numbers before the loop and index them")
    return out


def _called(f, args, kwargs, ours=1):
    """``f(*args, **kwargs)``, called as it is: what Python or NumPy raises in it on the
    trace's Python values is the user's own error (staging.pythons_error), raised by the
    runs that reach the call (`np.stack([])` in a staged branch not taken raises nothing)."""
    try:
        return f(*args, **kwargs)
    except Exception as e:
        staging.pythons_error(e, (args, kwargs), ours)
        raise


def attribute(obj, name):
    """`obj.name` read in converted code (converters/attribute_loads.py): a property of
    the user's class runs converted, as a method call does (its `self.w.sum()` then sees
    the box an array of trace time became; run as it is, NumPy would read the array's
    values of trace time); the value, resolved (trace_arrays.resolve)."""
    prop = getattr(type(obj), name, None)
    if (isinstance(prop, property) and inspect.isfunction(prop.fget)
            and not is_library_code(prop.fget) and not isinstance(obj, type)):
        return trace_arrays.resolve(converted_call(prop.fget, (obj,)))
    users = _users_attribute(obj, name, prop)
    if users is not None:
        return trace_arrays.resolve(users())
    if name == "shape" and core.is_symbolic(obj):
        return builtins_.shape_of(obj)  # (`self.a.shape`: NumPy's sizes, as `x.shape`)
    try:
        if builtins_.lacks_attribute(obj, name):  # (`out.shape` of a staged list: Python's)
            raise staging.user_raise(builtins_.list_has_no(name, builtins_.python_type_of(obj)))
        value = getattr(obj, name)
    except AttributeError as e:  # (Python's own on the user's object: after the state)
        if not isinstance(obj, Tensor):
            staging.pythons_error(e, (name,))
        raise
    return trace_arrays.resolve(value)


def _users_attribute(obj, name, found):
    """A read of ``obj.name`` that Python answers with the user's code, as a function to
    run it converted: a `functools.cached_property` not computed yet (its value then kept
    in the object, as it does), a descriptor of the user's class's `__get__`, or the
    class's `__getattr__` for a name found nowhere else; else None."""
    if isinstance(obj, type) or not data.is_users(obj):
        return None
    attrs = getattr(obj, "__dict__", None)
    if isinstance(found, functools.cached_property) and inspect.isfunction(found.func) \
            and not is_library_code(found.func) and isinstance(attrs, dict):
        if found.attrname in attrs:
            return None

        def cached():
            attrs[found.attrname] = value = converted_call(found.func, (obj,))
            return value
        return cached
    get = user_method(type(found), "__get__") if found is not None else None
    if get is not None and not isinstance(found, (property, types.FunctionType)):
        return lambda: converted_call(get, (found, obj, type(obj)))
    if found is None and not (isinstance(attrs, dict) and name in attrs):
        hook = user_method(type(obj), "__getattr__")
        if hook is not None:
            return lambda: converted_call(hook, (obj, name))
    return None


def setattr_(obj, name, value):
    """`obj.name = value` in converted code (converters/attribute_stores.py): a property's
    setter of the user's class, or its `__setattr__`, runs converted, as a method call
    does; anything else is Python's `setattr`."""
    value = unset.stored(value, f"the attribute '{name}' of an object")
    prop = data.class_attribute(type(obj), name)
    if (isinstance(prop, property) and inspect.isfunction(prop.fset)
            and not is_library_code(prop.fset) and not isinstance(obj, type)):
        converted_call(prop.fset, (obj, value))
        return
    if isinstance(obj, types.ModuleType) and (holds_symbolic(value) or staging.active()):
        raise NotImplementedError(
            f"'{obj.__name__}.{name}' is assigned at {where.caller()}"
            f"{' inside a staged block' if staging.active() else ' a traced value'}: a "
            f"compiled function cannot change a module's variable when it runs (it would "
            f"keep the trace's value); return the value instead")
    hook = user_method(type(obj), "__setattr__") if data.is_users(obj) else None
    if hook is not None and not isinstance(obj, type):  # (the class's own `__setattr__`)
        converted_call(hook, (obj, name, value))
        return
    setattr(obj, name, value)


def getitem(target, key):
    """`target[key]` read in converted code: a user's class's `__getitem__` runs converted
    (as a method call does); anything else as trace_arrays.getitem reads it."""
    target = unset.plain(target)  # (a MaybeNone known set here: its value)
    method = getattr(type(target), "__getitem__", None)
    if inspect.isfunction(method) and not is_library_code(method):
        return trace_arrays.resolve(converted_call(method, (target, key)))
    return trace_arrays.getitem(target, unset.index_key(key))


def user_setitem(target):
    """The converted ``__setitem__`` of a user's class, called as ``f(target, key, value)``
    (data.setitem: `g[0] = x` on the user's object runs it converted, as `g[0]` reads
    through its converted `__getitem__`; run as it is, its `self.data[k] = v` met a box),
    or None."""
    method = getattr(type(target), "__setitem__", None)
    if inspect.isfunction(method) and not is_library_code(method):
        return lambda *args: converted_call(method, args)
    return None


builtins_.converted_call = converted_call  # (a function argument of map/sorted/... is called so)
builtins_.ATTRIBUTE = attribute  # (`obj.shape` of a user's object: its property converted)
# (the user's operator dunders and context managers are called so too: staging.dunder)
staging.CONVERTED_CALL, staging.USER_METHOD = converted_call, user_method
data.USER_SETITEM, data.USER_GETITEM = user_setitem, getitem
