"""Rebinding forms of mutation (`list_append`, `setitem`), asserts and the index builder.

On Python lists and NumPy arrays they mutate in place and return the same object, so
the rebinding the converter adds changes nothing; on tensors they return a new value.
"""

import collections
import functools
import gc
import itertools
import operator
import os
import sys
import sysconfig
import types

import numpy as np

from autograph_lite import (control, errors, mutation, nest, numpy_api, numpy_flat,
                            python_numbers, tensor)
from autograph_lite.api import core as api
from autograph_lite.ir import graph as graph_ir
from autograph_lite.ops import dispatch, indexing
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import (core, list_values, staging, trace_arrays,
                                              unset, where)

_LIBRARY_ROOTS = {"numpy", "numba", "scipy", "autograph_lite", "gast", "llvmlite", "pytest",
                  "_pytest", "hypothesis"}
_STDLIB = os.path.normcase(sysconfig.get_paths()["stdlib"])


def is_library_code(func):
    """True for callables from NumPy, autograph_lite itself, the standard library,
    builtins, or anything installed in site-packages: these run unconverted."""
    func = getattr(func, "__func__", func)
    code = getattr(func, "__code__", None)
    if code is None:
        return True  # builtins and C functions
    module = (getattr(func, "__module__", None) or "").split(".")[0]
    if module in _LIBRARY_ROOTS or module in sys.stdlib_module_names:
        return True
    path = os.path.normcase(code.co_filename)
    return "site-packages" in path or "dist-packages" in path or path.startswith(_STDLIB)


def functions_reached(functions, limit=200):
    """{function: (its globals, [(free variable, cell)])} for ``functions`` and the user's
    functions their globals and closure variables hold, on through theirs (a helper's
    `global LAST; LAST = v`, `getG()[0] = v` of the array a helper's global names): what
    a trace of them may reach outside itself. Library functions are not followed."""
    out, stack = {}, [getattr(f, "__func__", f) for f in functions]
    while stack and len(out) < limit:
        f = stack.pop()
        code = getattr(f, "__code__", None)
        if code is None or f in out:
            continue
        cells = list(zip(code.co_freevars, f.__closure__ or ()))
        out[f] = (f.__globals__, cells)
        held = [v for v, _ in roots_of(f, f.__globals__, cells)]
        stack += [g for g in held if isinstance(g, types.FunctionType)
                  and g not in out and not is_library_code(g)]
    return out


def roots_of(f, scope, cells):
    """[(object, name)]: what the user's function ``f`` (its module variables ``scope``,
    its closure ``cells``) reaches outside itself: the globals it names, its closure
    variables, its default arguments (`def note(v, log=[])`), and the attributes it names
    of the user's modules among those (`mymod.REG.append(v)`, `mymod.add_one()`)."""
    names = global_names(f.__code__)
    found = [(scope[k], k) for k in names if k in scope]
    roots = found + [(c.cell_contents, k) for k, c in cells if is_filled(c)]
    roots += [(v, f"{f.__name__}'s default") for v in f.__defaults__ or ()]
    roots += [(v, f"{f.__name__}'s default {k}")
              for k, v in (f.__kwdefaults__ or {}).items()]
    return roots + module_attributes(found, names)


def module_attributes(roots, names):
    """[(object, 'module.name')]: the attributes ``names`` of the user's modules among
    ``roots`` (not a library's: its state is no user's)."""
    out = []
    for m, at in roots:
        if isinstance(m, types.ModuleType) and not _library_module(m):
            out += [(vars(m)[k], f"{at}.{k}") for k in names if k in vars(m)]
    return out


def _library_module(m):
    name = (m.__name__ or "").split(".")[0]
    path = os.path.normcase(getattr(m, "__file__", None) or "")
    return (name in _LIBRARY_ROOTS or name in sys.stdlib_module_names or not path
            or "site-packages" in path or "dist-packages" in path or path.startswith(_STDLIB))


# `op=` -> Python's in-place operator (user_operators.inplace reads it too)
AUGMENTED = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
             "/=": operator.itruediv, "//=": operator.ifloordiv, "%=": operator.imod,
             "**=": operator.ipow, "@=": operator.imatmul, "&=": operator.iand,
             "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift,
             ">>=": operator.irshift}


class _IndexBuilder:
    """`ag__.index[a:b, i]` evaluates to the index `(slice(a, b), i)`."""

    def __getitem__(self, index):
        return index


index = _IndexBuilder()


class TensorList(tuple):
    """A Python list as a staged loop carries it: a row buffer and the number of rows.

    The buffer is allocated before the loop (with the loop's trip count as capacity when
    it is known) and `list_push` writes each row in place, doubling when full; the list
    as a tensor is `buffer[:length]` (see ops/lists.py). Being a tuple (with namedtuple's
    `_fields`, so nest rebuilds it), it travels through staged loops and branches as two
    loop variables; indexing it and `len_` read the rows, as on the list.
    """

    _fields = ("buffer", "length")
    python_numbers = False  # (``PythonNumberRows``)

    def __new__(cls, buffer, length):
        return tuple.__new__(cls, (buffer, length))

    buffer = property(lambda self: tuple.__getitem__(self, 0))
    length = property(lambda self: tuple.__getitem__(self, 1))

    def __getitem__(self, index):
        if self.buffer.ndim == 1 and core.is_symbolic(self.length) and _an_int(index):
            return self._item(index)
        return self.stacked()[index]

    def _item(self, index):
        """Item ``index`` (an int) of a list of numbers, read from the buffer at the index
        Python's list takes (from the end where negative), with Python's IndexError on the
        runs where it is out of range: `stack[-1]` in a `while` test read a view of the
        rows first, then its item (session 55: 2x the hand loop's cost in
        next-greater-element), and said NumPy's error."""
        return self.buffer[self._row_at(index)]

    def _row_at(self, index):
        return list_values.python_index(index, self.length, "list index out of range")

    def __iter__(self):
        """Its rows, where the user's code iterates it (a comprehension, `sum(... for s in
        rows)`: a tuple's own iteration gave the buffer and the length, two items whatever
        the list held); the tuple's two parts for the library (nest flattens it)."""
        if errors.is_generated(sys._getframe(1).f_code.co_filename):
            return iter(self.stacked())
        return tuple.__iter__(self)

    def stacked(self):
        return self.buffer[:self.length]

    def ag_truth(self):
        """Python's truth of the list (`if rows:`, `not rows`): not empty, staged where its
        length is a tensor (a tuple's own truth, always True, was taken before session
        46: `if t:` in the loop appending to `t` held on its first trip)."""
        n = self.length
        return n > 0 if not core.is_symbolic(n) else dispatch.apply("greater", n, 0)

    def __bool__(self):
        """Python's truth where a tuple's would be taken (the tuple's own, always True,
        ran a `while` over an empty list: session 54): the length's where it is known
        while tracing; a length known only at run time has no Python truth."""
        truth = self.ag_truth()
        if core.is_symbolic(truth):
            raise TypeError(
                f"the truth of a list that a staged loop or branch carries (its length is "
                f"known only when the function runs) is read as a Python bool at "
                f"{errors.user_location() or 'its line'}; test it in an `if`, `while` or "
                f"`and`/`or`, which are staged")
        return bool(truth)

    def listed(self):
        """The list after the staged loop or branch: its stacked rows, a ListTensor."""
        return list_values.as_list(self.stacked(), self.python_numbers)

    def emptied(self):
        """The list with no rows, in the same buffer (`run = []` begun again)."""
        return type(self)(self.buffer, np.int64(0))

    def __getattr__(self, name):
        if hasattr(list, name):  # (`acc.insert(0, v)`, `acc.sort()`, a pop in a call)
            pop = (" and `.pop()` (or `.pop(k)`) where the list's own name is rebound "
                   "(`v = stack.pop()`, `stack.pop()` or `total += stack.pop()` on a line "
                   "of its own)") if name == "pop" else ""
            raise NotImplementedError(
                f"list.{name}() at {errors.user_location() or 'its line'} of a list that a "
                f"staged loop or branch carries as a row buffer: only .append/.extend{pop} "
                f"(and reads: indexing, len, iteration) are staged; keep the values in a "
                f"NumPy array and a count instead")
        raise AttributeError(f"'list' object has no attribute '{name}'")

    def __add__(self, other):
        raise NotImplementedError(
            "`+` (or `+=`) of a list that a staged loop carries as a row buffer: write "
            "`acc.extend(items)` (or `acc.append(v)`), which are staged")

    __radd__ = __mul__ = __rmul__ = __add__

    def index(self, *args):  # (a tuple's own methods would count the buffer and length)
        return self.__getattr__("index")

    def count(self, *args):
        return self.__getattr__("count")

    def __delitem__(self, index):  # (`del out[-1]`: as `out.pop()`)
        raise NotImplementedError(
            f"`del` of an item (at {errors.user_location() or 'its line'}) of a list that a "
            f"staged loop carries as a row buffer: only .append/.extend (and reads: "
            f"indexing, len, iteration) are staged; keep the values in a NumPy array and a "
            f"count instead")

    def append(self, x):
        """`.append` called on the list itself, not through the converter's rebinding
        (`list_append`): in a helper or nested function the converter did not rewrite, or
        on an attribute. The staged list is a value, the new one would be lost: refused."""
        raise NotImplementedError(
            f"a list that a staged loop or branch carries (a tensor of its rows) is "
            f"appended to at {errors.user_location()} by a method call the conversion does "
            f"not rebind (in a nested function, on an attribute, or through another name): "
            f"the new row would be lost, where Python's list changes in place; append to "
            f"it by its own name in the function that builds it")

    def pushed(self, x, where="a list's append in a staged loop or branch"):
        """The list with ``x`` as a new row (`list_append`)."""
        return type(self)(*self._pushed_rows(x, where))

    def _pushed_rows(self, x, where):
        """(the buffer, the length) with ``x`` as a new row."""
        mutation.held_by_copy(_as_box(x), where)
        return dispatch.apply("list_push", self.buffer, self.length, self._row(x)), \
            self.length + 1

    def _row(self, x, what="row"):
        """``x`` as a row of the buffer: of its dtype where NumPy casts it so (same_kind);
        another kind (a float into int rows) would lose its value: a TypeError."""
        buf = self.buffer
        if (self.python_numbers or isinstance(self, FlaggedRows)) and buf.ndim == 1:
            # (a list that holds Python numbers: a NumPy one of a narrower dtype would read
            # back as the rows' dtype, a Python number's where all rows are: a uint8 `cur`
            # appended where `cur = 0` was appended before)
            refuse_widened([x], buf.dtype, f"the list that takes a {what} at "
                                           f"{errors.user_location()}")
        control.check_python_number(x, buf.dtype, (
            f"a list that a staged loop or branch carries as {buf.dtype} rows takes a Python "
            f"number as its {what} at {errors.user_location()}: its rows have one dtype, "
            f"{buf.dtype}"))
        row = x if core.is_tensor(x) else np.asarray(x)
        if core.dtype_of(row) == buf.dtype:
            return row
        if not np.can_cast(core.dtype_of(row), buf.dtype, "same_kind"):
            raise TypeError(
                f"a list that a staged loop or branch carries as {buf.dtype} rows cannot "
                f"take a {core.dtype_of(row)} {what} at {errors.user_location()} (Python's "
                f"list would hold it as it is); give the list's items one type from the "
                f"start (`counts = [1.0]`), or cast the value")
        return api.cast(row, buf.dtype)

    def popped(self, index=None):
        """(the list without its row ``index``, the last where None, and that row), as
        `v = rows.pop()` or `v = queue.pop(0)` (list_pop)."""
        rest, item = _last_taken(self.buffer, self.length) if index is None else _taken(
            self.buffer, self.length, _pop_index(index, self.length))
        return type(self)(self.buffer, rest), (
            list_values.python_item(item) if self.python_numbers else item)

    def written(self, key, value, op=None, where="an item write in a staged loop or branch"):
        """The list with its item ``key`` set to ``value`` (or ``item op= value``), as
        `counts[-1] += 1` beside `counts.append(1)` writes it (run-length encoding): the
        row of the buffer, Python's negative index counting from the length, an index out
        of range NumPy's IndexError of the rows."""
        if isinstance(key, (slice, tuple, list)) or (
                core.is_tensor_like(key) and core.rank_of(key)):
            raise NotImplementedError(
                f"a slice or several items of a list that a staged loop or branch carries "
                f"as a row buffer are written at {errors.user_location()}: only one item "
                f"(`rows[k] = v`, `rows[-1] += v`) is staged; keep the values in a NumPy "
                f"array instead")
        if op is not None:  # (an item read as the list reads it: a Python number's rules)
            value = AUGMENTED[op](self[key], value)
        mutation.held_by_copy(_as_box(value), where)
        mutation.write(self.stacked(), key, self._row(value, "item"))
        return self


class PythonNumberRows(TensorList):
    """A list of Python numbers (ints: `f.append(f[-1] + f[-2])`) a staged loop carries: an
    item read is a Python number again (weak 0-d), whose arithmetic raises where Python's
    int would grow past int64 or divide by zero (python_numbers.py); a plain TensorList's
    item is an int64 that would wrap silently."""

    python_numbers = True

    def __getitem__(self, index):
        item = TensorList.__getitem__(self, index)
        return item if isinstance(index, slice) else list_values.python_item(item)


class FlaggedRows(TensorList):
    """A list of numbers some of which are Python's and some NumPy's (`st = [0.0]`, then
    `st.append(x[i])`): beside the rows, a bool per row says whether it is a Python number,
    and an item read carries its row's flag (python_numbers.python_flag), so its arithmetic
    is Python's on the runs where it is one (`1.0 / st[-1]` of the 0.0 raises
    ZeroDivisionError, as Python's; session 56: a plain TensorList's item was NumPy's
    float64 on every run, inf). The list after the loop keeps the flags
    (list_values.ListTensor)."""

    _fields = ("buffer", "length", "flags")

    def __new__(cls, buffer, length, flags):
        return tuple.__new__(cls, (buffer, length, flags))

    flags = property(lambda self: tuple.__getitem__(self, 2))

    def _item(self, index):
        k = self._row_at(index)
        return python_numbers.with_python_flag(self.buffer[k], self.flags[k])

    def listed(self):
        return list_values.with_row_flags(TensorList.listed(self),
                                          self.flags[:self.length])

    def emptied(self):
        return type(self)(self.buffer, np.int64(0), self.flags)

    def pushed(self, x, where="a list's append in a staged loop or branch"):
        return type(self)(*self._pushed_rows(x, where), dispatch.apply(
            "list_push", self.flags, self.length, _python_flag_of(x)))

    def popped(self, index=None):
        if index is None:
            rest, item = _last_taken(self.buffer, self.length)
            flag = self.flags[rest]
        else:
            k = _pop_index(index, self.length)
            flag = self.flags[k]
            rest, item = _taken(self.buffer, self.length, k)
            _shifted_down(self.flags, k, self.length)  # (each later row's flag with it)
        return type(self)(self.buffer, rest, self.flags), python_numbers.with_python_flag(
            item, flag)

    def written(self, key, value, op=None, where="an item write in a staged loop or branch"):
        if op is not None:  # (the item read as the list reads it: its row's flag)
            value, op = AUGMENTED[op](self[key], value), None
        TensorList.written(self, key, value, op, where)
        mutation.write(self.flags[:self.length], key, _python_flag_of(value))
        return self


_FAMILIES = {"f": "float", "c": "complex"}


def refuse_widened(items, dtype, what):
    """Refuses NumPy floats narrower than ``dtype``, a float dtype too, among the items of
    a list that also holds Python numbers (FlaggedRows: `st = [0.5]`, then
    `st.append(x[i])` of a float32 `x`): its rows are ``dtype`` (np.array's, float64 beside
    a Python number), so such an item read back as ``dtype`` loses its own rounding (`q[-1]
    * 3` was a float64 product where Python's is float32's: probe G, session 57). Narrower
    ints are let through (`ops = [12]` beside int32 tokens, compared: a shunting-yard
    parser): their values are exact in the int64 rows, and their arithmetic differs only
    where NumPy's own overflows, with its RuntimeWarning (a known difference, README).
    ``what``: the list, as the message names it."""
    dtype = np.dtype(dtype)
    for v in items:
        if python_numbers.python_flag(v) is True:
            continue
        dt = np.dtype(core.dtype_of(v)) if core.is_tensor(v) else np.asarray(v).dtype
        if dt != dtype and _FAMILIES.get(dt.kind) == _FAMILIES.get(dtype.kind) is not None:
            raise NotImplementedError(
                f"{what} holds Python numbers and NumPy {dt} numbers: a list a staged loop "
                f"or branch carries keeps its items in one dtype, {dtype} here (NumPy's "
                f"array of them), where Python's list keeps each item's own type, so a {dt} "
                f"item would read back as a {dtype}, without the {dt} arithmetic; give the "
                f"items one type: np.{dt}(...) of the Python numbers (`st = [np.{dt}(0)]`), "
                f"or {_FAMILIES[dt.kind]}(v) of the NumPy ones")


def _python_flag_of(x):
    """Whether ``x`` is a Python number, as a 0-d bool a flags row holds."""
    flag = python_numbers.python_flag(x)
    return np.bool_(flag) if isinstance(flag, bool) else flag


def new_tensor_list(items, dims, dtype, capacity, python_numbers=False, flagged=False):
    """A TensorList holding `items`, room for `capacity` more rows of sizes `dims` (ints,
    None for 0, or 0-d tensors known at run time) and `dtype` (a PythonNumberRows where
    they are all Python numbers, FlaggedRows where some are: ``flagged``)."""
    dims = tuple(0 if d is None else d for d in dims)
    buf = numpy_api.empty((len(items) + capacity,) + dims, dtype)
    flags = numpy_api.empty((len(items) + capacity,), np.bool_) if flagged else None
    for k, item in enumerate(items):
        mutation.held_by_copy(_as_box(item), "a list that a staged loop or branch appends to")
        buf = indexing.setitem(buf, k, item)
        if flagged:
            flags = indexing.setitem(flags, k, _python_flag_of(item))
    if flagged:
        return FlaggedRows(buf, np.int64(len(items)), flags)
    return (PythonNumberRows if python_numbers else TensorList)(buf, np.int64(len(items)))


def _as_box(x):
    """``x``, or the box a NumPy array of trace time becomes (``lift``): an array a staged
    list copies, whose later writes must be refused (mutation.held_by_copy); one that
    cannot become a box (captured) cannot be written either."""
    if isinstance(x, np.ndarray) and x.ndim:
        try:
            return lift(x, None)
        except (TypeError, ValueError, NotImplementedError):
            return x
    return x


# (while a trial trip of a staged loop runs, trial.py: variable name -> the first row the
# trip appended to that list, which a later pop in the trip may take off again)
APPENDS_SEEN = [None]


def list_append(target, x, name=None):
    """`target.append(x)` of the list variable `name`, returning the list: a Python list
    is appended to; a list that a staged loop carries (TensorList) gets a new row; a list
    that an earlier staged loop stacked into a tensor (list_values.ListTensor) gets one
    more row by concatenation (refused where another name holds it: `_sole`)."""
    if APPENDS_SEEN[0] is not None and name is not None:
        APPENDS_SEEN[0].setdefault(name, x)
    if isinstance(target, TensorList):  # (another name of it would not see the row)
        return _sole(target, name).pushed(x, _appending(name))
    if isinstance(target, list_values.ListTensor):
        return _sole(target, name) + [x]
    if core.is_symbolic(target):  # (an array: NumPy's has no append)
        raise AttributeError("'numpy.ndarray' object has no attribute 'append'")
    target.append(x)
    return target


def pops_as_list(target):
    """Whether `target.pop(...)` is a list's (list_pop), not another object's method."""
    return isinstance(target, (TensorList, list_values.ListTensor)) or core.is_symbolic(
        target) or (isinstance(target, list) and type(target).pop is list.pop)


def _an_int(index):
    """Whether ``index`` is one int (a Python int, or an integer 0-d tensor), not a bool."""
    if core.is_symbolic(index):
        return not index.ndim and index.dtype.kind in "iu"
    return isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_))


def list_pop(target, name=None, *index):
    """`v = target.pop()` of the list variable `name`, as (the list, the item): a Python
    list pops in place (the same list); a list that a staged loop or branch carries
    (TensorList: a stack in a `while stack:` loop) loses its last row, one that an earlier
    staged loop stacked (list_values.ListTensor) becomes the view of its other rows; an
    empty one raises Python's IndexError on the runs that pop it. `pop(k)` (a queue's
    `pop(0)`) moves the rows after ``k`` down one, as Python's list does."""
    if isinstance(target, (TensorList, list_values.ListTensor)):
        if len(index) > 1:
            raise TypeError(f"pop expected at most 1 argument, got {len(index)}")
        at = index[0] if index else None
        if at is not None and not _an_int(at):
            raise TypeError(f"'{core.dtype_of(at) if core.is_tensor(at) else type(at).__name__}"
                            f"' object cannot be interpreted as an integer")
        if at is not None and not core.is_symbolic(at) and operator.index(at) == -1:
            at = None  # (the last: no rows move)
        target = _sole(target, name, "pop", "popping")
        if isinstance(target, TensorList):
            return target.popped(at)
        n = dispatch.size_of(target, 0)
        if at is None:
            rest, item = _last_taken(target, n)
            return target[:rest], item  # (its own indexing: a list again, a Python number)
        k = _pop_index(at, n)
        item = target[k]  # (the flag of a Python-number row goes with it, as the rows')
        return target[:k] + target[k + 1:], item
    if core.is_symbolic(target):  # (an array: NumPy's has no pop)
        raise AttributeError("'numpy.ndarray' object has no attribute 'pop'")
    try:
        return target, target.pop(*index)
    except IndexError as e:
        if context.current_graph() is None:
            raise
        # (raised by the runs that reach it: in a staged branch, or in the trace of one
        # trip that types a staged loop, the list of trace time may be empty where the
        # runs' holds what earlier trips pushed; session 54's probe, `else: st.pop()`)
        raise errors.numpy_error(e) from None


def _pop_index(index, length):
    """The row `pop(index)` takes from a list of ``length`` rows (negative: from the
    end), with Python's IndexError where the list is empty or ``index`` out of range."""
    _not_empty(length)
    return list_values.python_index(index, length, "pop index out of range")


def _not_empty(length):
    """Python's IndexError of a pop from a list of ``length`` rows that is empty (on the
    runs where it is)."""
    if core.is_symbolic(length):
        api.check(dispatch.apply("greater", length, 0), "pop from empty list", "IndexError")
    elif length <= 0:
        raise errors.numpy_error(IndexError("pop from empty list"))


def _shifted_down(rows, k, length):
    """Rows ``k + 1 .. length - 1`` of the buffer ``rows`` moved to ``k .. length - 2`` in
    place (Python's list closing the gap of a `pop(k)`; the source is copied first, as
    the two ranges overlap)."""
    mutation.write(rows, slice(k, length - 1), numpy_api.copy(rows[k + 1:length]))


def _taken(rows, length, k):
    """(length - 1, row ``k``, checked by _pop_index) of a list of ``length`` rows in the
    buffer ``rows``, the rows after it moved down (an array row a copy, _row_taken)."""
    item = _row_taken(rows[k])
    _shifted_down(rows, k, length)
    return length - 1, item


def _last_taken(rows, length):
    """(length - 1, the row at length - 1 of ``rows``) of a list of ``length`` rows: Python's
    IndexError where it is empty, on the runs that pop it; a row of arrays is a copy (the
    row buffer's next push overwrites it), which refuses writes: Python's pop gives the
    array that was appended, which other names may still hold."""
    _not_empty(length)
    last = length - 1
    return last, _row_taken(rows[last])


def _row_taken(item):
    """A row taken off a list: one of arrays a copy (the next push or the rows moving down
    overwrites the buffer), which refuses writes."""
    if core.rank_of(item):
        item = numpy_api.copy(item)
        mutation.refuse_writes(item, NotImplementedError(
            f"a write into an array popped at {errors.user_location()} from a list that a "
            f"staged loop or branch carries: Python's pop gives the array that was "
            f"appended, which other names may hold and would see the write; the staged list "
            f"holds copies: write into a copy (`v = rows.pop().copy()`)"))
    return item


def list_extend(target, items, name=None):
    """`target.extend(items)`, returning the list (as list_append)."""
    if isinstance(target, TensorList):
        for x in items:
            target = _sole(target, name).pushed(x, _appending(name, "extend"))
        return target
    if isinstance(target, list_values.ListTensor):
        return _sole(target, name) + (
            items if isinstance(items, (list, list_values.ListTensor)) else list(items))
    if core.is_symbolic(target):
        raise AttributeError("'numpy.ndarray' object has no attribute 'extend'")
    target.extend(items)
    return target


def _appending(name, method="append"):
    return f"`{name or 'the list'}.{method}` at {errors.user_location()}"


def _sole(target, name, how="append", doing="appending"):
    """``target``, a staged list changed (``how``: appended to, popped) under ``name``,
    unless another name holds it (`b = out`, a caller's list passed to a helper): Python's
    append or pop would change the list they share, where the staged one gives the
    changing name a new value."""
    others = other_names(target, name) if name is not None else ()
    if others:
        raise ValueError(
            f"'{name}' is a list a staged loop or branch changes (held as a tensor of its "
            f"rows), and {', '.join(others)} holds the same list: {doing} it here would not "
            f"change the other name's list, as Python's {how} does; copy it (b = "
            f"list(a)), or {how} under one name (in the function that holds it, not in a "
            f"helper it is passed to)")
    return target


@functools.lru_cache(maxsize=4096)
def global_names(code):
    """The names a code object and the code nested in it look up (globals, attributes)."""
    names = tuple(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names += global_names(c)
    return names


NOT_OBJECTS = (np.ndarray, np.generic, type, types.ModuleType, types.FunctionType,
               types.MethodType, types.BuiltinFunctionType, tuple, str, bytes)
_SCAN_LIMIT = 20000  # items: past this a region's Python containers are not checked
FOREIGN = ("autograph_lite", "numpy", "numba", "builtins")  # (modules of no user class)


def class_attribute(cls, name):
    """``name`` as ``cls`` itself defines it, the first of its MRO that does (a property,
    a descriptor, a function, not what their `__get__` gives), or None."""
    for c in cls.__mro__:
        if name in c.__dict__:
            return c.__dict__[name]
    return None


def is_users(x):
    """A plain object of the user's own class (its attributes are looked at), with a
    `__dict__` or `__slots__`; or of ours that holds the user's state (``ag_holds_state``:
    an optimizer, whose `learning_rate` the user changes between calls)."""
    cls = type(x)  # (the class asked first: an object of ours, a StagedText, may answer no
    # attribute question, and this is asked of every operand of an operator: user_operators)
    if issubclass(cls, NOT_OBJECTS) or ((cls.__module__ or "").split(".")[0] in FOREIGN
                                        and not getattr(cls, "ag_holds_state", False)):
        return False
    return hasattr(x, "__dict__") or bool(slot_names(cls))


@functools.lru_cache(maxsize=1024)
def slot_names(cls):
    """The `__slots__` names of ``cls`` and its bases (`__dict__` left out)."""
    names = []
    for c in cls.__mro__:
        slots = c.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [n for n in slots
                                                         if n not in ("__dict__", "__weakref__")]
    return tuple(names)


class SlotAttributes:
    """The attributes of an object whose class has `__slots__`, as the dict ``vars`` gives
    of another's: what a staged region's state and the watch of Python objects read and
    write (slots.py), by getattr/setattr."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def keys(self):
        own = list(vars(self.obj)) if hasattr(self.obj, "__dict__") else []
        return [n for n in slot_names(type(self.obj)) if hasattr(self.obj, n)] + own

    def items(self):
        return [(k, getattr(self.obj, k)) for k in self.keys()]

    def __iter__(self):
        return iter(self.keys())

    def __contains__(self, k):
        return k in self.keys()

    def __getitem__(self, k):
        if k not in self.keys():
            raise KeyError(k)
        return getattr(self.obj, k)

    def __setitem__(self, k, v):
        setattr(self.obj, k, v)

    def clear(self):
        for k in self.keys():
            delattr(self.obj, k)

    def update(self, items):
        for k, v in dict(items).items():
            setattr(self.obj, k, v)


def attributes(x):
    """An object's attributes as a dict (``vars``), or a SlotAttributes view of them."""
    return SlotAttributes(x) if slot_names(type(x)) else vars(x)


def items_of(x):
    return enumerate(x) if type(x) in (list, tuple) else x.items()


# the dicts whose items reach() walks and a Snapshot (slots.py) keeps and puts back: the
# standard library's kinds too (a Counter, OrderedDict or defaultdict a trial trip changed
# kept the change: session 52's probe, every trip off by one)
DICTS = (dict, collections.Counter, collections.OrderedDict, collections.defaultdict)


def reach(roots):
    """(object, path) for everything reachable from ``roots`` ([(object, name)]) through
    dicts, lists, tuples and the attributes of the user's objects, each once; (None, None)
    and stop past _SCAN_LIMIT objects. (Not through functions: a converted frame's locals
    hold its closure variables already.)"""
    seen, stack = set(), list(roots)
    while stack:
        x, path = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if len(seen) > _SCAN_LIMIT:
            yield None, None
            return
        yield x, path
        if type(x) in DICTS or type(x) in (list, tuple):
            stack.extend((v, f"{path}[{k!r}]") for k, v in items_of(x))
        elif is_users(x):
            stack.extend((v, f"{path}.{k}") for k, v in attributes(x).items())
        elif type(x) is types.MethodType and is_users(x.__self__):  # (a bound method a
            stack.append((x.__self__, f"{path}.__self__"))         # name holds: its object)
        elif type(x).__module__ == "autograph_lite.function" and hasattr(x, "python_function"):
            # (an ag.defun of a bound method, called inside this trace: its object)
            stack.append((x.python_function, path))


def _hand_over(array, box):
    """Puts ``box`` where the lists, dicts and objects the converted code can reach hold
    ``array`` (a NumPy array of trace time that just became it, outside any staged region):
    a container made before the write and read whole (`sum(arrs)`, `d.values()`) then holds
    the box, as in NumPy it holds the written array (a tuple it holds is replaced by one
    holding the box). Returns the [(holder, key, old item)] changed, for
    mutation.forget_lifts to put the old items back. (Inside a staged region the holders
    keep the array, which every read resolves: a changed item there would be region state
    of its own, slots.Watch; ``hand_over_lifted`` hands it over when the region ends.)"""
    roots = [(v, k) for f in converted_frames(sys._getframe(1))
             for k, v in f.f_locals.items() if not k.startswith("ag__")]
    handed = []
    for x, path in reach(roots):
        if path is None:  # (past the limit; a None value is a value)
            break
        holder = x if type(x) in DICTS or type(x) is list else attributes(
            x) if is_users(x) else None
        for k, v in (list(items_of(holder)) if holder is not None else ()):
            if v is array:
                holder[k] = box
                handed.append((holder, k, v))
            elif type(v) is tuple and any(w is array for w, _ in reach([(v, "")])):
                holder[k] = trace_arrays.resolve(v)  # (a tuple held: one holding the box)
                handed.append((holder, k, v))
    return handed


def converted_frames(f):
    """The frames of the user's converted code from frame ``f`` outwards."""
    frames = []
    while f is not None:
        if errors.is_generated(f.f_code.co_filename):
            frames.append(f)
        f = f.f_back
    return frames


def other_names(obj, name):
    """The names other than ``name`` under which the user's converted code (its locals,
    closure variables and globals, and those of the converted functions that called it)
    holds the object ``obj`` now (``b = a`` of a list), quoted for a message; and the
    places in the containers those names hold (``d = {"acc": acc}``: `d['acc']`, an item
    of a list or tuple, an attribute of the user's object), which would not see it either."""
    found, mine = set(), True
    for f in converted_frames(sys._getframe(1)):
        named = [(k, v) for k, v in f.f_locals.items() if not k.startswith("ag__")]
        named += [(k, f.f_globals[k]) for k in global_names(f.f_code) if k in f.f_globals]
        held = {k for k, v in named if v is obj}
        inside = {p for k, v in named if v is not obj
                  for p in _held_inside(v, obj, k, [_SCAN_LIMIT])}
        if mine:
            mine = name not in f.f_code.co_varnames + f.f_code.co_cellvars
            held.discard(name)
            found.update(repr(k) for k in held)
            found.update(f"`{p}`" for p in inside)
        else:  # (a caller's variable: another name even when spelled alike; a closure
            # variable is its defining function's, named there: not `if_body()`'s)
            free = f.f_code.co_freevars
            found.update(f"{k!r} of {f.f_code.co_name}()" for k in held if k not in free)
            found.update(f"`{p}` of {f.f_code.co_name}()" for p in inside
                         if root_name(p) not in free)
    return sorted(found)


def root_name(path):
    """The variable a path (`d['acc']`, `h.items`) starts from."""
    return path.split("[", 1)[0].split(".", 1)[0]


def _held_inside(value, obj, path, budget, depth=0, seen=None):
    """The paths (`d['acc']`, `rows[0]`, `h.items`) at which what ``value`` holds holds
    ``obj``, several levels deep and ``budget`` items in all (``_parts``)."""
    seen = set() if seen is None else seen
    if depth > 7 or budget[0] <= 0 or id(value) in seen or isinstance(value, TensorList):
        return []
    seen.add(id(value))
    items = _parts(value, path, budget[0])
    budget[0] -= len(items)
    found = []
    for p, v in items:
        if v is obj:
            found.append(p)
        else:
            found += _held_inside(v, obj, p, budget, depth + 1, seen)
    return found


def _parts(value, path, limit):
    """[(path, item)] of what ``value`` holds, at most ``limit``: a dict's values, the
    items of a list, tuple or deque or of a NumPy array of objects, the attributes of the
    user's object, a function's default values (`lambda a=acc: ...`), a partial's
    arguments."""
    if isinstance(value, dict):
        return [(f"{path}[{k!r}]", v) for k, v in itertools.islice(value.items(), limit)]
    if isinstance(value, (list, tuple, collections.deque)):
        return [(f"{path}[{i}]", v) for i, v in enumerate(itertools.islice(value, limit))]
    if type(value) in core.SEQUENCE_ITERATORS:  # (`iter([acc])`: the sequence it walks)
        return [(f"{path}'s sequence", value.__reduce__()[1][0])]
    if isinstance(value, np.ndarray) and value.dtype == object:
        return [(f"{path}[{i}]", v) for i, v in enumerate(value.flat[:limit])]
    if isinstance(value, functools.partial):
        return ([(f"{path}.args[{i}]", v) for i, v in enumerate(value.args)]
                + [(f"{path}.keywords[{k!r}]", v) for k, v in value.keywords.items()])
    if isinstance(value, types.FunctionType):
        return ([(f"{path}.__defaults__[{i}]", v)
                 for i, v in enumerate(value.__defaults__ or ())]
                + [(f"{path}.__kwdefaults__[{k!r}]", v)
                   for k, v in (value.__kwdefaults__ or {}).items()])
    if is_users(value):
        attrs = vars(value) if hasattr(value, "__dict__") else SlotAttributes(value)
        return [(f"{path}.{k}", v) for k, v in itertools.islice(attrs.items(), limit)]
    return []


def _captured(a):
    """The name of the global or closure variable of the user's converted code whose
    array ``a`` is (or views), or None. The converted code's own nested functions
    (loop bodies, branches) reach the function's locals as closure variables too: those
    are locals of an enclosing converted frame, not captures."""
    frames = converted_frames(sys._getframe(2))
    local = set()
    for f in frames:
        local.update(f.f_code.co_varnames, f.f_code.co_cellvars)
    for f in frames:
        code = f.f_code
        # (globals its nested functions read too: `lambda: TABLE` of a staged `x if c
        # else y` has returned when its result is looked at)
        holders = [(n, f.f_globals.get(n)) for n in global_names(code)]
        holders += [(n, f.f_locals.get(n)) for n in code.co_freevars if n not in local]
        for n, held in holders:
            if isinstance(held, np.ndarray) and np.shares_memory(held, a):
                return n
    # (deeper: an array an argument's object, or a global's or closure's container, holds)
    graph = context.current_graph()
    root = graph_ir.root_graph(graph) if graph is not None else None
    for held, path in getattr(root, "outside_arrays", ()):
        if np.shares_memory(held, a):
            return path
    return None


def _unliftable(a, name):
    """Why the NumPy array of trace time ``a`` cannot become a box, as the exception to
    raise when it is written (or None): it is captured from a global or closure (SPEC 3),
    or a view of another array (which would not see the write)."""
    held = _captured(a)
    if held is not None:
        return TypeError(
            f"'{name or held}' at {where.caller()} is the NumPy array '{held}' captured "
            f"from a global or closure variable (or held by an object a global or "
            f"closure holds, or by a functools cache); the compiled function bakes it in "
            f"as a constant, so writing into it is not supported: pass the array itself as "
            f"an argument instead (the write then reaches the caller's array, as in NumPy)")
    if isinstance(a.base, np.ndarray):
        return NotImplementedError(
            f"'{name or 'an array'}' at {where.caller()} is a view of a NumPy array made "
            f"while tracing, written inside a staged branch or loop (or with a tensor); "
            f"the array it views would not see the write. Write through the array itself, "
            f"or make it a tensor first (ag.constant(...))")
    return None


_SCAN_BUDGET = 20000  # objects: past this a loop does not guess which arrays it makes


def reachable_arrays(graph):
    """{id: array} of the NumPy arrays of trace time the converted code can reach now: the
    locals of its frames and everything they refer to (containers, attributes, slots,
    closures: ``gc.get_referents``, not modules, classes or a function's globals, whose
    arrays are captured ones that may not be written), with what those are branch copies,
    views or NumPy bases of. A staged loop records them when it begins
    (mutation.loop_entry): an array lifted later that is not among them was made inside.
    None when the search is cut short: then no array counts as made inside (the safe
    answer; a wrong "made inside" would drop the loop's writes). Holding the arrays keeps
    their ids from being reused."""
    found, seen, stack = {}, set(), []
    for f in converted_frames(sys._getframe(1)):
        stack.extend(f.f_locals.values())
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, _OPAQUE) or core.is_tensor(x):
            continue
        seen.add(id(x))
        if len(seen) > _SCAN_BUDGET:
            return None
        if isinstance(x, np.ndarray):
            found[id(x)] = x
            stack.append(mutation.original(x, graph))
            stack.extend((mutation.view_of(x, graph) or (None,))[:1])
            stack.append(x.base)
            if x.dtype == object:
                stack.extend(x.flat)
        elif isinstance(x, types.FunctionType):
            stack.extend(c.cell_contents for c in x.__closure__ or () if is_filled(c))
            stack.extend(x.__defaults__ or ())
        elif not isinstance(x, dict) or "__builtins__" not in x:  # (a module's globals)
            stack.extend(gc.get_referents(x))
    return found


_OPAQUE = (type(None), bool, int, float, complex, str, bytes, type, types.ModuleType,
           types.CodeType, types.BuiltinFunctionType, np.generic, np.dtype)


def is_filled(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def lift(a, name):
    """A NumPy array of trace time about to be written with traced values, or inside a
    staged branch or loop, as a box (SPEC 1): one the function made becomes a buffer the
    kernel makes, and stands for that box for the rest of the trace (mutation.py,
    ``lifted``); writing into a captured one or a view is refused (``_unliftable``)."""
    box = trace_arrays.resolve(a)
    if box is not a:
        return box
    graph = context.current_graph()
    a = mutation.original(a, graph)  # a branch's copy of the array stands for it
    view = mutation.view_of(a, graph)
    if view is not None:  # `w = r0[1:]; w[0] = t`: the box of `r0`, indexed
        try:
            # (an `r0` that is a view itself, of a buffer nothing else holds, lifts through
            # that owner: `v = np.linspace(...)`, whose result views a temporary; its view
            # `b = v[1:]` written in a staged branch was refused: probe I, session 57)
            return lift(view[0], None)[view[1]]
        except (TypeError, NotImplementedError):
            pass  # (a captured base, or a view of one: refused below, naming ``a``)
    owner = _whole_buffer_owner(a)
    if owner is not a and _unliftable(owner, None) is None:  # `m = t.reshape(2, 2)`
        lift(owner, None)
        box = trace_arrays.resolve(a)  # (the owner's box reshaped: mutation.lifted)
        if box is not a:
            return box
    error = _unliftable(a, name)
    if error is not None:
        raise error
    with context.graph_scope(graph_ir.root_graph(graph)):
        box = dispatch.convert_to_tensor(staged_array(a))
    box = mutation.register_lifted(a, box, graph, name)
    if graph.parent is None:
        mutation.note_handed(a, graph, _hand_over(a, box))
    return box


def lift_for_view(a):
    """(box, None): the box the NumPy array of trace time ``a`` becomes when a tensor index
    takes a view of it (`r = D[i]`, `dp[s:]`: NumPy's view, which a write through reaches,
    where a read of the array as a constant would be a copy); (None, the exception a write
    through the view raises) where it cannot be one (a captured array: read as the
    constant, written never)."""
    try:
        return lift(a, None), None
    except (TypeError, NotImplementedError) as e:
        return None, e


trace_arrays.LIFT_FOR_VIEW = lift_for_view


def hand_over_lifted(graph):
    """After a staged branch or loop traced at the top of the function (``graph``, the root):
    the arrays that became boxes inside it are handed over now (``_hand_over``), so a
    container made before the region and read whole after it (`sum(arrs)`, `d.values()`,
    an operator method of the user's class) sees the region's writes."""
    for entry in mutation.not_handed(graph):
        mutation.note_handed(entry.array, graph, _hand_over(entry.array, entry.box))


def leaving_region(values, names, alive):
    """A staged branch's or loop body's results, with each NumPy array of trace time that
    existed before the region (its id, or its original's, in ``alive``, the region's
    ``reachable_arrays``; None: unknown, so every one) as the box it stands for from now on
    (``entering_loop``): `v = t0 if c else t0 * 2` must be `t0` itself on the runs where
    `c` holds, so a later write into either name is seen through the other (a constant
    copy of `t0` would not see it). Arrays the region made stay constants."""
    graph = context.current_graph()

    def leave(v, name):
        if not isinstance(v, np.ndarray):
            return v
        box = trace_arrays.resolve(v)
        if box is v and (alive is None or id(mutation.original(v, graph)) in alive
                         or _captured(v) is not None):
            return entering_loop(v, name)
        return box
    # (leaves: a variable maybe unset before the region is (value, is_set), unset.py)
    return [nest.pack_as(v, [leave(x, name) for x in nest.flatten(v)])
            for v, name in zip(values, names)]


def _whole_buffer_owner(a):
    """The array whose whole buffer NumPy view ``a`` is, in the same C order
    (`t.reshape(2, 2)`, `np.ravel(t)`), else ``a`` itself."""
    owner = a.base
    return owner if isinstance(owner, np.ndarray) and mutation.same_buffer(a, owner) else a


def entering_loop(a, name):
    """A NumPy array of trace time that a staged loop carries: the box it stands for from
    now on when the function made it (``lift``), so the loop's writes reach every name
    that holds it; otherwise (captured, or a view) a tensor of its value that refuses
    writes (``_unliftable``): the array itself would not see them."""
    graph = context.current_graph()
    a0 = mutation.original(a, graph)
    view = mutation.view_of(a0, graph)
    owner = _whole_buffer_owner(a0)  # (written through that array: ``lift``)
    error = _unliftable(view[0] if view is not None else owner, name)
    if error is None:
        return lift(a, name)
    return mutation.frozen(dispatch.convert_to_tensor(staged_array(a)), error)


def staged_array(a):
    """A NumPy array about to be updated with traced values, as a tensor: the idiom's
    `np.zeros(n)`/`np.empty(n)` (any array of one repeated value) becomes a staged `full`
    the kernel allocates itself, instead of a constant it must receive and copy."""
    flat = a.reshape(-1)
    if a.size and (flat == flat[0]).all():
        return numpy_api.full(a.shape, flat[0], a.dtype)
    return a


# calls.py's: the converted __setitem__ of a user's class (or None), and its getitem
USER_SETITEM = None
USER_GETITEM = None


def setitem(target, key, value, op=None, name=None):
    """`target[key] = value` (or `target[key] op= value`), returning the target.

    On a symbolic tensor this is a write (mutation.py): every alias and view of the
    array sees it, as in NumPy. A NumPy array of trace time written with a traced value
    (or at a traced index, or inside a staged branch or loop) becomes a box first
    (`lift`). `name`: the target's variable name, for error messages."""
    # (None on some runs: the value where known set; a target checked, a value refused)
    target = unset.written(unset.plain(target))
    value = unset.stored(value, "an array" if core.is_tensor_like(target) else
                         "the item of a container")
    if isinstance(target, TensorList):  # (as list_append: another name would not see it)
        return _sole(target, name).written(unset.index_key(key), value, op)
    key = unset.index_key(key)
    if type(target) is np.flatiter:  # (`a.flat[k] = v` of a NumPy array of trace time)
        return _flat_setitem(target, key, value, op, name)
    # (a list holding tensors, `traj[i] = [x, y, z]`, is their stack)
    target = for_write(target, tensor.holds_symbolic(value)
                       or trace_arrays.has_symbolic(key), name)
    if core.is_symbolic(target):
        if op is None:
            list_values.item_written(target, key, value)
            return mutation.write(target, key, value)
        current = target[key]
        if core.is_symbolic(current) and current._chain and current._storage is target._storage:
            AUGMENTED[op](current, value)  # a view: NumPy's in-place ufunc writes through it
            return target
        # (a copy, `x[idx]`, `x[mask]`: NumPy's `tmp = x[key]; tmp op= v; x[key] = tmp`,
        # whose in-place op checks same_kind casting, `x[[0, 1]] += 1.5` of ints raising)
        value = AUGMENTED[op](current, value)
        list_values.item_written(target, key, value, current)
        return mutation.write(target, key, value)
    if isinstance(target, list) and trace_arrays.has_symbolic(key):
        raise TypeError(
            f"'{name or 'the list'}' at {where.caller()} is a Python list written at an index "
            f"known only when the compiled function runs (`counts[v % 3] += 1`); a Python "
            f"list cannot change then: make it a NumPy array (`counts = np.zeros(3, "
            f"dtype=int)`), whose writes at run-time indices are staged")
    method = USER_SETITEM(target) if type(target) not in (list, dict, np.ndarray) else None
    if op is not None:  # the read as a subscript load (trace_arrays: ndarray[tensor])
        value = AUGMENTED[op](trace_arrays.getitem(target, key) if method is None
                         else USER_GETITEM(target, key), value)
    if method is not None:  # (a user's class: its own __setitem__, converted)
        method(target, key, value)
        return target
    if core.is_tensor(target):  # an eager ag.Tensor: immutable, the name gets a new value
        return indexing.setitem(target, key, value)
    try:
        target[key] = value
    except Exception as e:  # (NumPy's or Python's own, as augassign's)
        staging.pythons_error(e, (target, key, value))
        raise
    return target


def _flat_setitem(target, key, value, op, name):
    """`a.flat[key] = value` where `a` is a NumPy array of trace time: written as NumPy
    writes it when nothing traced is involved, else through the box `a` becomes."""
    traced = tensor.holds_symbolic(value) or trace_arrays.has_symbolic(key)
    base = for_write(target.base, traced, name)
    flat = numpy_flat.FlatIter(base) if core.is_symbolic(base) else base.flat
    if op is not None:
        value = AUGMENTED[op](trace_arrays.getitem(flat, key), value)  # (a copy: same_kind)
    flat[key] = value
    return target


def for_write(target, traced, name=None):
    """``target`` about to be written (`x[k] = v`, `x op= v`, `np.copyto(x, ...)`, `out=x`):
    a NumPy array of trace time that stands for a box is that box; one written with traced
    values (``traced``) or inside a staged branch or loop becomes one first (``lift``):
    NumPy run on it directly would change only this trace's Python value."""
    if isinstance(target, np.ndarray):
        target = trace_arrays.resolve(target)
        if isinstance(target, np.ndarray) and (traced or trace_arrays.in_region()):
            target = lift(target, name)
        elif isinstance(target, np.ndarray) and context.current_graph() is not None and (
                _captured(target) is not None):
            # (a write of trace-time values into a global's or a cache's array: made
            # once, while tracing, where Python makes it on every call; SPEC 3 refuses it)
            raise _unliftable(target, name)
    return target


def setitem_held(target, key, value, op=None, name=None):
    """`x[key] = value` where `x` is not a local name (`rows[0]`, `self.a`, a global): as
    `setitem`, but nothing can be rebound, so an update that would need a new value (an
    eager ag.Tensor, which is immutable) is refused rather than lost."""
    if core.is_tensor(target) and not core.is_symbolic(target):
        raise TypeError(f"'{name}' at {where.caller()} is an ag.Tensor, which is immutable: "
                        f"writing into it is not supported (make a NumPy copy, "
                        f"np.array(...), and write into that)")
    setitem(target, key, value, op, name)


def augassign(target, value, op, name=None):
    """`target op= value` on a name (converters/subscripts.py): Python's in-place operator,
    on the box when `target` is a NumPy array of trace time that is (or, written now
    inside a staged branch or loop or by a tensor, becomes) one (``lift``)."""
    # (a MaybeUnset target checks its read: unset.py)
    target = for_write(target, core.is_symbolic(value), name)
    return INPLACE(op, target, value)  # (NumPy's error on values of trace time: its own,
    # raised by the runs that reach it, after the state)


# user_operators.inplace (installed there: it imports this module): Python's `op=`, the
# user's objects' dunders converted
INPLACE = None


def augassign_attribute(target, value, op, name=None):
    """`obj.w op= value` (converters/subscripts.py): as ``augassign``, but an attribute that
    holds a NumPy array the box stands for keeps that array (the box is the trace's, and
    the array an argument's object holds is written back to: held_state.py)."""
    out = augassign(target, value, op, name)
    if type(target) is np.ndarray and trace_arrays.resolve(target) is out:
        return target
    return out


def set_loop_options(maximum_iterations=None, shape_invariants=None, **kwargs):
    """Loop options directive; as the first statement of a loop body the converter moves
    it into the loop (see converters/directives.py). Called anywhere else it does nothing.
    """
    del maximum_iterations, shape_invariants, kwargs
