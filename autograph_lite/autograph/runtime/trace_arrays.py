"""`ag__.getitem(a, k)`: every subscript read, so trace-time NumPy values mix with tensors.

SPEC 1: a NumPy array that is a Python value while tracing (a global lookup table, a
closure's array, `v0 = np.zeros(5)` made in the body) indexed or sliced by a symbolic
tensor (`table[i]`, `v0[n % 5]`, `v0[a:b]`) works as in NumPy: the array becomes a
constant of the graph (a copy: the graph keeps the value the array had when it was
read, as NumPy's result would) and the staged index reads it. So does a Python list or
tuple of numbers (`[1.0, 2.5][i]`); its element stays weak, as the Python number it
is would be in NumPy 2 arithmetic (`float32_tensor * [1.0, 2.5][i]` is float32); and a
list or tuple of tensors of one dtype and shape (`[a * 2, b, c][k]`).

Everything else is plain `a[k]`: the common case (tensors, Python containers with
Python keys) costs one call and a type check while tracing, nothing at run time.
"""

import numpy as np

from autograph_lite import dtypes, mutation, numpy_flat, tensor
from autograph_lite.ops import dispatch
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import core, staging
from autograph_lite.autograph.runtime import where as where_


class _NoTensor:
    """Stands for SymbolicTensor while the core is not imported: nothing is symbolic."""


_SYMBOLIC = None  # the SymbolicTensor class, looked up once (isinstance is the fast test)


def _symbolic_type():
    global _SYMBOLIC
    mod = tensor
    if mod is None:
        return _NoTensor
    _SYMBOLIC = mod.SymbolicTensor
    return _SYMBOLIC


def has_symbolic(key):
    """Whether an index (`i`, `(i, j)`, `a:b`, ...) holds a symbolic tensor."""
    sym = _SYMBOLIC or _symbolic_type()
    for p in key if type(key) is tuple else (key,):
        if type(p) is slice:
            if (isinstance(p.start, sym) or isinstance(p.stop, sym)
                    or isinstance(p.step, sym)):
                return True
        elif isinstance(p, sym):
            return True
        elif type(p) is list and tensor.holds_symbolic(p):  # (`a[[i, 0]]`: NumPy's array)
            return True
    return False


def _python_numbers(seq):
    """The one Python number type all items of `seq` share (bool, int, float, complex), else
    None."""
    kinds = {type(v) for v in seq}
    if len(kinds) == 1 and next(iter(kinds)) in (bool, int, float, complex):
        return next(iter(kinds))
    return None


def _numpy_values(seq):
    """Whether `seq` holds NumPy scalars/arrays (eager tensors too) of one dtype and shape."""
    first = seq[0]
    if not isinstance(first, (np.ndarray, np.generic)) and not (
            core.is_tensor(first) and not core.is_symbolic(first)):
        return False
    return all((isinstance(v, (np.ndarray, np.generic)) or core.is_tensor(v))
               and not core.is_symbolic(v) and v.dtype == first.dtype
               and np.shape(v) == np.shape(first) for v in seq)


def _weak(t):
    """`t` (a scalar) as a weakly typed value: it promotes as the Python number it was."""
    return dispatch.apply("as_weak", t)


def _sequence_item(seq, key):
    """`seq[key]` for a list/tuple and a symbolic integer key (Python's only index of a
    sequence that a tensor can be), when it is the same read on `np.asarray(seq)`:
    numbers of one Python type, or NumPy values of one dtype and shape."""
    if not seq or key.ndim or key.dtype.kind not in "iu":
        return None
    kind = _python_numbers(seq)
    if kind is not None:
        table = dispatch.constant(np.asarray(seq, dtype={bool: np.bool_, int: np.int64,
                                                          float: np.float64}[kind]))
        return _weak(table[key])
    if _numpy_values(seq):
        return _copied_items(as_constant(np.stack([np.asarray(v) for v in seq])), seq)[key]
    if _symbolic_values(seq):  # (`[a * 2, b, c][k]`: the items stacked, then one read)
        item = _copied_items(dispatch.apply("stack", *seq, axis=0), seq)[key]
        return _weak(item) if seq[0].type.weak else item
    return None


def _copied_items(table, seq):
    """``table``, the items of ``seq`` stacked: an item read from it is a copy of the list's
    array, so a write through it is refused (it would not reach that array: ping-pong
    buffers `dst = bufs[(k + 1) % 2]; dst[1:-1] = ...` lost every write, silently)."""
    if np.ndim(seq[0]):
        kind = type(seq).__name__
        mutation.refuse_writes(table, NotImplementedError(
            f"an array read from a Python {kind} with a tensor index (at {where_.caller(2)}) "
            f"is a copy of the {kind}'s item (the items stacked, then read), so a write into "
            f"it would not reach that item. Choose the array with a staged `if` (`dst = b "
            f"if k % 2 else a`, which is the array itself), or keep the arrays in one NumPy "
            f"array and write `bufs[k % 2, ...]`"))
    return table


def _symbolic_values(seq):
    """Whether `seq` holds symbolic tensors of one dtype, one shape known while tracing
    and one kind (weak Python numbers or not): stacked, they are the same values, and a
    read of the stack is Python's read of the list (an index out of range raises
    IndexError either way)."""
    first = seq[0]
    return (core.is_symbolic(first) and None not in first.shape
            and all(core.is_symbolic(v) and v.dtype == first.dtype and v.shape == first.shape
                    and v.type.weak == first.type.weak for v in seq))


def as_constant(array):
    if array.dtype not in dtypes.ALL:  # never a silent conversion (complex, object, ...)
        raise TypeError(f"a NumPy array of dtype {array.dtype} cannot be read with a tensor "
                        f"index: it would become a constant of the graph, and {array.dtype} "
                        f"is not a supported dtype ({', '.join(map(str, dtypes.ALL))})")
    return dispatch.constant(array)


def in_region():
    """Whether a staged branch or loop body is being traced now (a write into a NumPy
    array there happens at run time, if at all, not now)."""
    graph = context.current_graph()
    return graph is not None and graph.parent is not None


def resolve(x):
    """`x`, or the box a NumPy array of trace time became when a staged branch or loop
    wrote into it (mutation.py, ``lifted``). A tuple holding such arrays (`pair = (u, 1)`
    made before `u[0] = t`) is a new tuple holding their boxes: a tuple cannot be handed
    the box in place (runtime/data.py ``_hand_over``), and its unpacking or a whole read
    (`a, _ = pair`, `sum(pair)`) would see the values from before the write."""
    if type(x) is np.ndarray:
        graph = context.current_graph()
        if graph is not None:
            box = mutation.lifted(x, graph)
            if box is not None:
                return box
    elif type(x) is tuple and x:
        items = _boxes_of(x)
        if items is not None:
            return tuple(items)
    return x


def _boxes_of(items):
    """[resolve(v) for v in items] when that changes some item, else None."""
    out = [resolve(v) for v in items]
    return out if any(v is not w for v, w in zip(out, items)) else None


_VIEWS = (type({}.values()), type({}.items()), type({}.keys()))


def resolved_items(x):
    """A list, tuple or dict view whose items are (or, in tuples, hold) NumPy arrays of
    trace time that became boxes, as a list (a tuple) of those boxes; anything else
    as it is. What reads a container whole (`sum(arrs)`, `np.stack(arrs)`, `a, b = arrs`,
    `[v * 2 for v in d.values()]`) then sees the writes: inside a staged region the
    container keeps the array (runtime/data.py ``_hand_over``)."""
    if type(x) is tuple or type(x) is np.ndarray:  # (an array itself: `[v for v in w]`)
        return resolve(x)
    if type(x) is list or type(x) in _VIEWS:
        items = _boxes_of(x)
        return x if items is None else items
    return x


# data.lift_for_view: (the box a NumPy array of trace time becomes, or None and why it
# cannot be written) (set by data.py, which imports this module)
LIFT_FOR_VIEW = None


def _basic_view(target, key):
    """Whether ``target[key]`` is a NumPy view of more than one element's rank: a basic
    index (integers, slices, Ellipsis, None) leaving an axis (`D[i]` of a matrix, `dp[s:]`)."""
    parts = key if type(key) is tuple else (key,)
    ints = 0
    for p in parts:
        if type(p) is slice or p is Ellipsis or p is None:
            continue
        if isinstance(p, (int, np.integer)) and not isinstance(p, (bool, np.bool_)):
            ints += 1
        elif isinstance(p, tensor.Tensor) and p.ndim == 0 and p.dtype.kind in "iu":
            ints += 1
        else:
            return False
    return target.ndim - ints + sum(p is None for p in parts) > 0


def _view(target, key):
    """`target[key]` of a NumPy array of trace time: a view is recorded (mutation.py
    ``record_view``) so that, if the array becomes a box or a write through the view in
    staged code makes it one (data.lift), the view stands for the box's `[key]`."""
    item = _read(target, key)
    if isinstance(item, np.ndarray) and item.size and np.shares_memory(item, target):
        graph = context.current_graph()
        if graph is not None:
            mutation.record_view(item, target, key, graph)
    return item


def getitem(target, key):
    """`target[key]` (a subscript read in converted code), see the module docstring."""
    if (target is np.r_ or target is np.c_) and has_symbolic(key):
        name, instead = (("np.r_", "np.concatenate((np.zeros(1), a, b))") if target is np.r_
                         else ("np.c_", "np.column_stack((a, b))"))
        raise TypeError(f"{name}[...] of a tensor (at {where_.caller()}) has no staged form "
                        f"(NumPy's index trick converts its items itself); write {instead} "
                        f"instead, with 1-d arrays for numbers")
    if (target is np.mgrid or target is np.ogrid) and has_symbolic(key):
        from autograph_lite.autograph.runtime import index_grids
        return index_grids.grid(target is np.ogrid, key)
    if type(target) is np.flatiter:  # (`a.flat[k]` of a NumPy array of trace time)
        base = resolve(target.base)
        if not isinstance(base, np.ndarray):
            return numpy_flat.read(base, key)
        if has_symbolic(key):
            return numpy_flat.read(as_constant(base), key)
        return target[key]
    if isinstance(target, np.ndarray):
        target = resolve(target)
        if not isinstance(target, np.ndarray):
            return target[key]
        if has_symbolic(key):
            table = None
            if LIFT_FOR_VIEW is not None and _basic_view(target, key):
                box, refusal = LIFT_FOR_VIEW(target)
                if box is not None:  # (`r = D[i]; r[1] = v` writes D, as NumPy's view does)
                    return box[key]
                table = as_constant(target)  # (a captured array: a write through the
                mutation.refuse_writes(table, refusal)  # view is refused, as into it)
            return (table if table is not None else as_constant(target))[key]
        return _view(target, key)
    elif (type(target) is list or type(target) is tuple) and isinstance(
            key, _SYMBOLIC or _symbolic_type()):
        item = _sequence_item(target, key)
        if item is not None:
            return item
        if key.ndim == 0 and key.dtype.kind in "iu":
            kinds = sorted({"a tensor" if core.is_symbolic(v) else type(v).__name__
                            for v in target})
            raise TypeError(
                f"a Python {type(target).__name__} indexed by a tensor (at "
                f"{where_.caller()}): it is read as a staged table only when its items are "
                f"numbers of one Python type or tensors of one dtype and shape, and this one "
                f"holds {', '.join(kinds) or 'nothing'}; keep such a table in a NumPy array "
                f"(`pi = np.zeros(m, np.int64)`), which a tensor indexes and writes")
    if isinstance(target, tensor.Tensor):
        return target[key]
    return resolve(_read(target, key))  # (`d["u"]` holding an array that became a box)


def _read(target, key):
    """``target[key]`` of a Python value of the trace's with a Python key: its error is
    Python's or NumPy's own, raised on the runs that reach it (staging.pythons_error)."""
    try:
        return target[key]
    except Exception as e:
        # (a dict's or list's lookup reads no item: one that holds tensors, `self.t` whose
        # arrays are boxes while tracing, raises Python's KeyError as any other)
        staging.pythons_error(e, (key,) if type(target) in (dict, list, tuple)
                              else (target, key))
        raise

