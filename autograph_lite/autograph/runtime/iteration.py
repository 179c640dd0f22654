"""What a staged `for` iterates: a counter `i` in [0, length) and `item(i)`.

`range` with a tensor bound, a symbolic tensor (its first dimension), and `enumerate`/
`zip` over those all reduce to that one shape, so loops.py stages a single counter loop.
"""

import copy
import itertools

import numpy as np

from autograph_lite import errors, numpy_flat
from autograph_lite.api import core as api
from autograph_lite.ops import dispatch
from autograph_lite.autograph.runtime import core, data, trace_arrays
from autograph_lite.trace import sizes


def _int64(x):
    if core.is_symbolic(x) and core.dtype_of(x) != np.int64:
        return api.cast(x, np.int64)
    return x


def _weak(x):
    """``x`` promoting as the Python int it is in plain Python (NumPy 2 weak scalar)."""
    if core.is_symbolic(x) and not x._value.type.weak:
        return dispatch.apply("as_weak", x)
    return x


def _is_zero(x):
    return isinstance(x, int) and x == 0


def _nonneg(n):
    if not core.is_symbolic(n):
        return max(n, 0)
    node = n._value.node
    if node is not None and node.op == "as_weak":
        node = node.inputs[0].node
    if node is not None and node.op == "dim":
        return n  # an array's size: never negative (`range(len(x))`)
    return np.maximum(n, 0)


class StagedIter:
    """Base: `length()` (int or int64 tensor) and `item(i)` for a symbolic index."""

    what = "an iterable"
    # an iterator in Python (enumerate, zip, reversed, itertools.product: read once), and
    # where a staged loop read it (loops.py: then read again, refused)
    iterator = False
    looped = None
    advanced = 0  # items `next()` took (an iterator's: `first = next(enumerate(x))`)

    def length(self):
        raise NotImplementedError

    def item(self, i):
        raise NotImplementedError

    def __next__(self):
        """``next(it)`` of an iterator (enumerate, zip of tensors) whose length is known while
        tracing: its next item, StopIteration past the end, as Python's."""
        if not self.iterator:
            raise TypeError(f"'{type(self).__name__}' object is not an iterator")
        if self.looped is not None:
            raise_read_again(self, self.looped)
        n = self.length()
        if core.is_symbolic(n):
            raise TypeError(f"next() of {self.what} whose length exists only when the compiled "
                            f"function runs (at {errors.user_location()}): whether it is "
                            f"exhausted is not known while tracing; index the items instead")
        if self.advanced >= n:
            raise StopIteration
        self.advanced += 1
        return self.item(self.advanced - 1)

    def __iter__(self):
        """Python iteration (a comprehension, ``list(zip(u, w))``): item by item when the
        length is known while tracing, as a tensor with a static first dimension iterates
        (tensor.py); a length that exists only at run time cannot be unrolled."""
        if self.looped is not None:
            raise_read_again(self, self.looped)
        n = self.length()
        if core.is_symbolic(n):
            at = errors.user_location()
            raise TypeError(
                f"{self.what} whose length is a tensor (it exists only when the compiled "
                f"function runs){f' at {at}' if at else ''} cannot be iterated by Python (a "
                f"comprehension, list(), unpacking): its items would make a list of that "
                f"length. Use a `for` loop, which is staged, writing into an array "
                f"(`out = np.empty(n)`, then `out[i] = ...`)")
        return (self.item(i) for i in range(self.advanced, int(n)))


class StagedRange(StagedIter):
    """`range(start, stop, step)` where some bound is a tensor."""

    what = "a range"

    def __init__(self, *args):
        for a in args:  # (Python's rule: integers only, a float bound is its TypeError)
            if core.is_symbolic(a) and core.dtype_of(a).kind not in "iu" or (
                    not core.is_symbolic(a) and not hasattr(type(a), "__index__")):
                raise TypeError(f"'{core.type_name(a)}' object cannot be interpreted as an "
                                f"integer")
        r = slice(*args) if len(args) > 1 else slice(0, args[0])
        self.start = _int64(r.start if r.start is not None else 0)
        self.stop = _int64(r.stop)
        self.step = _int64(r.step if r.step is not None else 1)
        if core.is_symbolic(self.step):  # (a zero step would make an empty loop)
            dispatch.apply("assert", dispatch.apply("not_equal", self.step, 0),
                           error="ValueError", message="range() arg 3 must not be zero")
        elif self.step == 0:
            raise errors.numpy_error(ValueError("range() arg 3 must not be zero"))

    def length(self):
        start, stop, step = self.start, self.stop, self.step
        if core.is_symbolic(step):
            up = (stop - start + step - 1) // step
            down = (start - stop - step - 1) // (-step)
            return _nonneg(api.where(step > 0, up, down))
        if step < 0:
            start, stop, step = stop, start, -step
        span = stop if _is_zero(start) else stop - start
        if step == 1:  # (the common case: no node for `+ 0` and `// 1`, less to compile)
            return _nonneg(span)
        return _nonneg((span + (step - 1)) // step)

    def __getitem__(self, i):
        """``r[i]`` of an int index, as Python's range: from the end where negative, its
        IndexError out of range (a staged check where the length or the index is traced)."""
        if isinstance(i, slice) or not (core.is_symbolic(i) and core.dtype_of(i).kind in "iu"
                                        or hasattr(type(i), "__index__")):
            raise NotImplementedError(f"indexing a range with staged bounds by "
                                      f"{core.type_name(i)} is not staged; index it by an int")
        n = self.length()
        if not core.is_symbolic(i):
            i = int(i)
        k = api.where(i < 0, i + n, i) if core.is_symbolic(i) or core.is_symbolic(n) else (
            i + n if i < 0 else i)
        inside = (k >= 0) & (k < n) if core.is_symbolic(k) else 0 <= k < n
        if core.is_symbolic(inside):
            dispatch.apply("assert", inside, error="IndexError",
                           message="range object index out of range")
        elif not inside:
            raise errors.numpy_error(IndexError("range object index out of range"))
        return _weak(self.start + k * self.step)

    def item(self, i):
        start, step = self.start, self.step
        if isinstance(start, int) and isinstance(step, int) and (start, step) == (0, 1):
            return i  # the common `range(n)`: the counter itself
        # a Python int whatever the bounds were (range yields ints): weak when staged
        return _weak(start + i * step)

    def __repr__(self):
        return f"range({self.start!r}, {self.stop!r}, {self.step!r})"


class PythonRange(StagedRange):
    """A Python range staged anyway (large, tensor-carrying loops): same arithmetic."""

    def __init__(self, r):
        self.start, self.stop, self.step = r.start, r.stop, r.step

    def length(self):
        return np.int64(len(range(self.start, self.stop, self.step)))


class TensorRows(StagedIter):
    """A symbolic tensor iterated over its first dimension."""

    what = "a tensor"

    def __init__(self, x):
        if not x.ndim:  # (Python's TypeError, not an IndexError of the loop's first read)
            if core.numpy_type(x) is np.ndarray:
                raise TypeError("iteration over a 0-d array")
            raise TypeError(f"'{core.type_name(x)}' object is not iterable")
        self.x = x

    def length(self):
        shape = self.x.shape
        if shape and shape[0] is not None:
            sizes.note_read(shape[0])
            sizes.note_loop(shape[0])
            return np.int64(shape[0])
        return api.shape(self.x)[0]

    def item(self, i):
        return self.x[i]


class FlatItems(StagedIter):
    """`x.flat` of a symbolic tensor: its elements in C order, each read when its trip
    runs (a write into `x` in the body is seen, as NumPy's flat iterator sees it)."""

    what = "x.flat"

    def __init__(self, x):
        self.x = x

    def length(self):
        return dispatch.size_of(api.reshape(numpy_flat.value_of(self.x), (-1,)), 0)

    def item(self, i):
        return numpy_flat.read(self.x, i)


class Enumerate(StagedIter):
    def __init__(self, inner, start=0):
        self.inner, self.start = inner, start

    what = "an enumerate"
    iterator = True

    def length(self):
        return self.inner.length()

    def item(self, i):
        return (i + self.start, self.inner.item(i))


class Zip(StagedIter):
    def __init__(self, inners):
        self.inners = inners

    what = "a zip"
    iterator = True

    def length(self):
        lengths = [n for n in (it.length() for it in self.inners) if n is not None]
        if not lengths:  # (endless iterators alone: Python's zip never ends either)
            raise NotImplementedError("a zip of endless iterators alone (itertools.count, "
                                      "cycle, repeat) has no length to stage a loop over")
        n = lengths[0]
        for m in lengths[1:]:
            n = np.minimum(n, m) if core.is_symbolic(n) or core.is_symbolic(m) else min(n, m)
        return n

    def item(self, i):
        return tuple(it.item(i) for it in self.inners)


class Product(StagedIter):
    """`itertools.product` of staged ranges or tensors (and Python sequences): one counter
    over every combination, each index unravelled from it, the last iterable fastest (the
    nested loops flattened: the same items in the same order)."""

    what = "an itertools.product"
    iterator = True

    def __init__(self, inners):
        self.inners = inners

    def length(self):
        n = 1
        for it in self.inners:
            n = n * it.length()
        return n

    def item(self, i):
        out = []
        for it in reversed(self.inners):
            n = it.length()
            out.append(it.item(i % n))
            i = i // n
        return tuple(reversed(out))


class Reversed(StagedIter):
    """`reversed(x)` of a staged range or tensor: the same items, last first (backward
    substitution's `for i in reversed(range(n))`)."""

    what = "a reversed"
    iterator = True

    def __init__(self, inner):
        self.inner = inner

    def length(self):
        return self.inner.length()

    def item(self, i):
        return self.inner.item(self.inner.length() - 1 - i)


class PythonItems(StagedIter):
    """A Python sequence inside a staged `zip`/`enumerate`: indexed by the counter."""

    def __init__(self, seq):
        self.seq = seq

    def length(self):
        return np.int64(len(self.seq))

    def item(self, i):
        if not core.is_symbolic(i):
            return self.seq[i]
        return _item_at(self.seq, i)


_PYTHON_NUMBERS = (bool, int, float, complex)


def _item_at(seq, i):
    """``seq[i]`` of a Python sequence at a counter known when the function runs: its
    items held as one array, indexed then. Python numbers of one type stay Python numbers
    (weak: `w * v` of a float `w` keeps `v`'s dtype); arrays and NumPy numbers must share
    one dtype and shape (an item keeps its own). Anything else (strings, mixed kinds)
    cannot be picked when the function runs: refused, naming it."""
    items = list(seq)
    kinds = {type(v) for v in items}
    if items and len(kinds) == 1 and kinds <= set(_PYTHON_NUMBERS):
        table = dispatch.convert_to_tensor(np.array(items))
        return dispatch.apply("as_weak", table[i])
    if items and not kinds & set(_PYTHON_NUMBERS) and all(core.is_tensor_like(v)
                                                          for v in items):
        typed = {(core.dtype_of(v), tuple(np.shape(v) if not core.is_tensor(v) else v.shape))
                 for v in items}
        if len(typed) == 1 and None not in next(iter(typed))[1]:
            return api.stack(items)[i]
    raise NotImplementedError(
        f"a staged loop over a `zip`, `enumerate` or `product` with a Python "
        f"{type(seq).__name__} picks its item when the function runs, from the items held "
        f"as one array: they must be Python numbers of one type, or arrays (NumPy numbers) "
        f"of one dtype and shape; these are "
        f"{', '.join(sorted({_kind_name(v) for v in items}))} "
        f"(at {errors.user_location() or 'the loop'}); convert it (np.array) or loop over "
        f"a Python range")


def _kind_name(v):
    """An item's kind for a message: a traced value (one the loop wrote into the list, or
    computed before it) is a tensor, whatever its class."""
    if core.is_symbolic(v):
        return f"tensor ({v.dtype}, shape {v.shape})"
    return type(v).__name__


class NdIndex(StagedIter):
    """`np.ndindex(*shape)` with Python sizes: iterates index tuples as NumPy's does when a
    loop over it is unrolled; staged, one counter over all cells, each index unravelled
    from it (the nested loops flattened: the same iterations in the same order)."""

    def __init__(self, shape, skip=0):
        self.shape = tuple(int(d) for d in shape)
        self.skip = skip  # cells already done (a loop unrolled one, then staged the rest)

    def __iter__(self):
        return itertools.islice(np.ndindex(*self.shape), self.skip, None)

    def __len__(self):
        return max(int(np.prod(self.shape, dtype=np.int64)) - self.skip, 0)

    def first(self):
        return next(iter(self))

    def rest(self, skip):
        out = copy.copy(self)
        out.skip = self.skip + skip
        return out

    def length(self):
        return np.int64(len(self))

    def item(self, i):
        if self.skip:
            i = i + self.skip
        out, step = [], 1
        for d in reversed(self.shape):
            out.append((i // step) % d)
            step *= d
        return tuple(reversed(out))


class NdEnumerate(NdIndex):
    """`np.ndenumerate(a)` of a NumPy array of trace time, or of a tensor whose shape is
    known while tracing: (index, a[index]), each element read when its trip runs (NumPy's
    iterator walks `a.flat`: a write into `a` in the body is seen)."""

    def __init__(self, a):
        super().__init__(np.shape(a))
        self.a = a

    def __iter__(self):
        if core.is_symbolic(self.a):
            return ((index, self.a[index])
                    for index in itertools.islice(np.ndindex(*self.shape), self.skip, None))
        return itertools.islice(np.ndenumerate(self.a), self.skip, None)

    def item(self, i):
        index = super().item(i)
        return index, trace_arrays.getitem(self.a, index)


class ListEnumerate(enumerate):
    """`enumerate(items)` of a Python list in converted code: Python's enumerate, which
    knows its list (loops._python_for refuses a loop whose trips append to it under a
    tensor condition, as for the list itself)."""

    def __new__(cls, items, start=0):
        self = super().__new__(cls, items, start)
        self.items = items
        return self


class CountedEnumerate:
    """`enumerate(x)` in converted code where ``x`` is a Python range or a NumPy array of
    trace time: an iterator as enumerate's (the array's rows read through
    trace_arrays.getitem, as loops.py reads them), whose length loops.py knows, so a loop
    over it is counted and the unrolling budget holds (`for i, row in enumerate(table)`
    over a 1,000-row table is not unrolled 1,000 times)."""

    def __init__(self, inner, start=0):
        self.inner, self.start = inner, start
        self._it = None

    def fresh(self):
        """Whether nothing has been taken from it yet (a loop may then count it)."""
        return self._it is None

    def __len__(self):
        return len(self.inner)

    def __iter__(self):
        return self

    def __next__(self):
        if self._it is None:
            rows = (trace_arrays.getitem(self.inner, k) for k in range(len(self.inner))) \
                if isinstance(self.inner, np.ndarray) else iter(self.inner)
            self._it = enumerate(rows, self.start)
        return next(self._it)


def ndindex(*shape):
    """`np.ndindex` in converted code (numpy_calls.py): an NdIndex when the sizes are
    Python ints, NumPy's own otherwise."""
    dims = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape
    if all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        return NdIndex(dims)
    return np.ndindex(*shape)


def ndenumerate(a):
    """`np.ndenumerate` in converted code: an NdEnumerate of a NumPy array of trace time or
    of a tensor of known shape (one whose sizes are known only at run time: refused)."""
    if isinstance(a, np.ndarray):
        return NdEnumerate(a)
    if core.is_symbolic(a):
        if any(d is None for d in a.shape):
            raise NotImplementedError(
                "np.ndenumerate of a tensor whose shape is known only when the compiled "
                "function runs is not staged; loop over np.ndindex(*x.shape) of a known "
                "shape, or over range(x.size) with np.unravel_index")
        return NdEnumerate(a)
    return np.ndenumerate(a)


def raise_read_again(it, loc):
    """Refuses reading again an iterator (enumerate, zip, ...) a name holds that a staged
    `for` at ``loc`` read: Python's is exhausted by then (a second loop runs no trip,
    `list(it)` is empty), where a staged loop stands for every item and would read them
    all again."""
    raise NotImplementedError(
        f"{it.what} iterator read by the loop at {loc} is read again: in Python that loop "
        f"exhausted it (or left it where a `break` stopped), which a staged loop cannot "
        f"carry; make a new one for each loop (`for i, v in enumerate(x):`)")


def staged(x):
    """The StagedIter for `x`, or None when `x` iterates in Python (an NdIndex too: loops.py
    decides whether to unroll it, as it does a Python range)."""
    if isinstance(x, StagedIter) and not isinstance(x, NdIndex):
        return x
    if core.is_symbolic(x):
        return TensorRows(x)
    if isinstance(x, data.TensorList):  # (a list a staged loop appends to: its rows so far)
        return TensorRows(x.stacked())
    if isinstance(x, numpy_flat.FlatIter) and core.is_symbolic(x.base):
        return FlatItems(x.base)
    return None


def wrap(x):
    """Like `staged`, but any sequence is accepted (for zip/enumerate mixing kinds)."""
    it = staged(x)
    if it is not None:
        return it
    if isinstance(x, range):
        return PythonRange(x)
    if type(x) in core.FINITE_ITERATORS:  # (`zip(x, reversed(w))`: the items it walks)
        return PythonItems(list(x))
    endless = Endless.of(x)
    return endless if endless is not None else PythonItems(x)


class Endless(StagedIter):
    """An endless iterator zipped with a staged one (`zip(itertools.count(1), x)`,
    `zip(x, itertools.cycle([1, -1]))`, `itertools.repeat(v)`): no length of its own (the
    zip's is the others'), item ``i`` computed from the counter. Its Python object is
    left as it was (read through ``__reduce__``), where Python's zip advances it; one
    already advanced (a cycle partway) is refused."""

    what = "an endless iterator"

    def __init__(self, item):
        self.item = item

    def length(self):
        return None

    @staticmethod
    def of(x):
        kind = type(x)
        if kind is itertools.count:
            start, step = (x.__reduce__()[1] + (1,))[:2]
            return Endless(lambda i: start + i if step == 1 else start + i * step)
        if kind is itertools.repeat and len(x.__reduce__()[1]) == 1:
            value = x.__reduce__()[1][0]
            return Endless(lambda i: value)
        if kind is itertools.cycle:
            _, (inner,), (saved, started) = x.__reduce__()
            if saved or started:
                raise NotImplementedError("an itertools.cycle already advanced, zipped with "
                                          "a staged loop, is not staged; make it in the "
                                          "loop's own line")
            items = list(copy.copy(inner))
            if not items:
                return None
            return Endless(lambda i: items[i % len(items)] if not core.is_symbolic(i)
                           else _item_at(items, i % len(items)))
        return None
