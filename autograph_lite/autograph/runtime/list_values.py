"""A Python list after the staged loop (or branch) that appended to it: its stacked rows, one
tensor that keeps the list's own operators.

    out = []
    for v in x:                  # staged
        if v > 0:
            out.append(v)
    out = out + [0.0]            # a list: one more item (not 0.0 added to every item)
    return np.array(out * 2)     # the list twice (not every item doubled)

A staged loop carries such a list as a row buffer and a length (data.TensorList) and
hands it on as the stacked tensor (README "Lists"). Where a list and an array differ the
tensor answered as an array, silently: `out + [0.0]`, `out * 2`, `out += [v]`, `out ==
[...]`. A `ListTensor` is that tensor with the list's meaning of those operators:
concatenation and repetition (the result a list again), equality as one bool, the truth
of a list (`if out:` is "not empty"), slices that are lists, `isinstance(out, list)`;
arithmetic that Python refuses on a list (`out - 1`, `-out`, `out / 2.0`) raises Python's
TypeError. With an array (or a NumPy scalar) on the other side NumPy's elementwise answer
is what Python gives too, and so it stays. `np.array(out)` / `np.asarray(out)` is a plain
array (a copy, as NumPy's of a list). Staged loops and branches keep the kind of a value
that was one before them (staged_loop.py, conditionals.py).
"""
import numbers
import sys

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from autograph_lite import errors, mutation, numpy_api, python_numbers
from autograph_lite.ops import dispatch, indexing
from autograph_lite.tensor import SymbolicTensor, Tensor
from autograph_lite.trace.context import current_graph


def _array(name):
    """Tensor method ``name`` as an array's (NumPy's meaning, on the rows)."""
    return getattr(Tensor, name)


class ListTensor(SymbolicTensor):
    """A symbolic tensor that stands for a Python list of its rows (module docstring)."""

    __slots__ = ()

    def __add__(self, other):
        return _concatenated(self, other)

    def __radd__(self, other):
        return _concatenated(other, self)

    __iadd__ = __add__  # (rebinds the name: another name holding the list does not see it)

    def __mul__(self, count):
        return _repeated(self, count)

    __rmul__ = __imul__ = __mul__

    def __eq__(self, other):
        if isinstance(other, (list, ListTensor)):
            return _equal(self, other)
        if _numpy_side(other):
            return _array("__eq__")(self, other)
        return dispatch.apply("as_weak", dispatch.constant(False))

    def __ne__(self, other):
        if _numpy_side(other):
            return _array("__ne__")(self, other)
        return dispatch.apply("logical_not", self.__eq__(other))

    __hash__ = SymbolicTensor.__hash__

    def __copy__(self):  # (copy.copy of a list: a new list of the same items)
        return as_list(_array("__copy__")(self))

    def __deepcopy__(self, memo=None):
        return as_list(_array("__deepcopy__")(self, memo))

    def __bool__(self):
        raise TypeError("the truth of a staged list is known only when the function runs")

    def copy(self):  # (list.copy: a new list of the same items, not an array)
        return self.__copy__()

    def __iter__(self):
        if self.shape[0] is None:  # (`tuple(out)`, `a, *b = out`, `list(out)`)
            at = errors.user_location()
            raise TypeError(
                f"a list filled by a staged loop{f' at {at}' if at else ''} is iterated by "
                f"Python (tuple(out), unpacking, a loop over a zip with it), which needs its "
                f"length, known only when the function runs; index it (`out[i]`), stack it "
                f"(`np.array(out)`), or loop over it in converted code")
        return SymbolicTensor.__iter__(self)

    def __getitem__(self, index):
        _in_range(self, index)
        item = _array("__getitem__")(self, index)
        flags = _flags_of(self)  # (a list of Python and NumPy numbers: with_row_flags)
        if isinstance(index, slice):
            return with_row_flags(as_list(item), flags[index] if flags is not None else None)
        if flags is not None and not item.ndim:
            item._python_when = flags[index]
        return item

    def __delitem__(self, index):  # (`del out[-1]`: the name cannot be rebound here)
        at = errors.user_location()
        raise NotImplementedError(
            f"`del` of an item{f' at {at}' if at else ''} of a list filled by a staged loop "
            f"(a tensor of its rows) has no staged form; rebind the name instead: "
            f"`out.pop()` for the last item, or `out = out[:k] + out[k + 1:]`")

    def append(self, x):
        raise NotImplementedError("append to a staged list held where its name cannot be "
                                  "rebound (an attribute, an enclosing function's list): "
                                  "append to a local list")

    extend = append

    def reverse(self):
        """list.reverse(): the rows in the other order, in place (every name of the list
        sees it, as Python's; session 53's probe: refused, the path rebuilt by a `while`
        over parents then reversed)."""
        mutation.write(self, slice(None), _array("__getitem__")(self, slice(None, None, -1)))
        flags = _flags_of(self)
        if flags is not None:  # (each row's flag goes with it)
            self._python_when = flags[::-1]

    def __getattr__(self, name):
        # a list method with no staged form (`out.sort()` after the loop that filled `out`,
        # a pop inside an expression): refused naming it and the line, never a raw
        # AttributeError (tensor.py's rule)
        if hasattr(list, name) and not name.startswith("_"):
            at = errors.user_location()
            pop = (" here (`v = out.pop()` on a line of its own is)" if name == "pop"
                   else "")
            raise errors.UnstagedAttributeError(
                f"list.{name}(){f' at {at}' if at else ''} of a list filled by a staged loop "
                f"(a tensor of its rows) has no staged form{pop}; read its items by index "
                f"(`out[-1]`, `out[:-1]`) or keep the list a Python list (a loop over a "
                f"Python range)")
        return SymbolicTensor.__getattr__(self, name)


class PythonNumbersList(ListTensor):
    """A ListTensor of Python numbers (data.PythonNumberRows after its loop): an item read
    is a Python number (weak 0-d), with Python's checks of its arithmetic."""

    __slots__ = ()

    def __getitem__(self, index):
        _in_range(self, index)
        item = _array("__getitem__")(self, index)
        return as_list(item, True) if isinstance(index, slice) else python_item(item)


def _in_range(rows, index):
    """Python's IndexError, "list index out of range", for ``rows[index]`` of one int index
    out of range, on the runs where it is (NumPy's text, naming an axis and a size, was
    given: session 57's probe, an item read after the loop that filled an empty list)."""
    if isinstance(index, (bool, np.bool_)) or not (
            isinstance(index, (int, np.integer)) or isinstance(index, SymbolicTensor)
            and not index.ndim and index.dtype.kind in "iu"):
        return
    python_index(index, dispatch.size_of(rows, 0), "list index out of range")


def python_index(index, length, message):
    """The row Python's list takes at ``index`` (an int, or an integer 0-d tensor; from the
    end where negative) of ``length`` rows, with Python's IndexError ``message`` where it is
    out of range: raised now where both are known while tracing, else on the runs where it
    is (a ListTensor's item, a TensorList's item and pop: data.py)."""
    if not isinstance(index, SymbolicTensor) and not isinstance(length, SymbolicTensor):
        if not -length <= index < length:
            raise errors.numpy_error(IndexError(message))
        return index + length if index < 0 else index
    if isinstance(index, SymbolicTensor):
        index = dispatch.apply("where", dispatch.apply("less", index, 0), index + length,
                               index)
        ok = dispatch.apply("logical_and", dispatch.apply("greater_equal", index, 0),
                            dispatch.apply("less", index, length))
    elif index < 0:
        index = index + length
        ok = dispatch.apply("greater_equal", index, 0)
    else:
        ok = dispatch.apply("less", index, length)
    python_numbers.check(ok, message, "IndexError")
    return index


def _kind(v):
    """The Python type name of ``v`` as Python's messages give it."""
    if isinstance(v, ListTensor):
        return "list"
    if isinstance(v, SymbolicTensor):
        if v.ndim == 0 and v.type.weak:
            return {"f": "float", "i": "int", "u": "int", "b": "bool",
                    "c": "complex"}[v.dtype.kind]
        return "numpy.ndarray"
    return type(v).__name__


def _numpy_side(v):
    """Whether ``v`` makes an operator with a list NumPy's (an array, a NumPy scalar, a
    tensor that is neither a list nor a Python number): elementwise, as in Python."""
    if isinstance(v, ListTensor):
        return False
    if isinstance(v, SymbolicTensor):
        return not (v.ndim == 0 and v.type.weak)
    return isinstance(v, (np.ndarray, np.generic))


def _refused(symbol, name, reflected):
    def method(self, other):
        if _numpy_side(other):
            return _array(name)(self, other)
        left, right = (_kind(other), "list") if reflected else ("list", _kind(other))
        raise TypeError(f"unsupported operand type(s) for {symbol}: '{left}' and '{right}'")
    return method


for _symbol, _name in (("-", "sub"), ("/", "truediv"), ("//", "floordiv"), ("%", "mod"),
                       ("**", "pow"), ("@", "matmul"), ("&", "and"), ("|", "or"),
                       ("^", "xor"), ("<<", "lshift"), (">>", "rshift")):
    setattr(ListTensor, f"__{_name}__", _refused(_symbol, f"__{_name}__", False))
    setattr(ListTensor, f"__i{_name}__", _refused(_symbol, f"__{_name}__", False))
    setattr(ListTensor, f"__r{_name}__", _refused(_symbol, f"__r{_name}__", True))


def _ordered(symbol, name):
    def method(self, other):
        if _numpy_side(other):
            return _array(name)(self, other)
        if isinstance(other, (list, ListTensor)):
            raise NotImplementedError(f"`{symbol}` of two lists (Python's order of lists) "
                                      f"is not staged for a staged list")
        raise TypeError(f"'{symbol}' not supported between instances of 'list' and "
                        f"'{_kind(other)}'")
    return method


for _symbol, _name in (("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")):
    setattr(ListTensor, f"__{_name}__", _ordered(_symbol, f"__{_name}__"))


def _unary(text):
    def method(self):
        raise TypeError(text)
    return method


for _name, _text in (("neg", "bad operand type for unary -: 'list'"),
                     ("pos", "bad operand type for unary +: 'list'"),
                     ("invert", "bad operand type for unary ~: 'list'"),
                     ("abs", "bad operand type for abs(): 'list'")):
    setattr(ListTensor, f"__{_name}__", _unary(_text))


# -- helpers -------------------------------------------------------------------------------
def python_item(item):
    """An item read from a list of Python numbers (or picked among Python numbers): a
    Python number again, a weak 0-d tensor, which keeps Python's checks of its arithmetic."""
    if isinstance(item, SymbolicTensor) and not item.ndim and not item.type.weak:
        return dispatch.apply("as_weak", item)
    return item


def with_row_flags(t, flags):
    """The ListTensor ``t`` of numbers, each a Python number where the bool of ``flags``
    (one per row) holds (data.FlaggedRows after its loop): an item read carries its flag.
    (The flags are kept where a 0-d value keeps its own, ``_python_when``.)"""
    if flags is not None and type(t) in (ListTensor, SymbolicTensor) and t.ndim == 1:
        t._python_when = flags
    return t


def _flags_of(t):
    """The row flags of ListTensor ``t`` this trace can read (None: none). A list that a
    staged region passed on unchanged is the same object before and after it, so the
    flags a branch inside another gave it may belong to the exited branch (trips program
    0, session 56): those are not read (its rows are NumPy's there, as before the flags)."""
    flags = t._python_when
    graph = current_graph()
    if flags is None or graph is None or graph.can_see(flags._value):
        return flags
    return None


def as_list(t, python_numbers=False):
    """Tensor ``t`` (its rows) as a ListTensor (a PythonNumbersList where its items are
    Python numbers): the same Value and box, another class."""
    if type(t) is SymbolicTensor:
        t.__class__ = PythonNumbersList if python_numbers else ListTensor
        mutation.rows_are_copies(t)
    return t


def array_of(t):
    """``np.array(out)`` / ``np.stack(out)`` of a staged list: a new array of its rows (a
    new box of the same Value: the functional graph copies only if one is written)."""
    return SymbolicTensor(t._value) if isinstance(t, ListTensor) else t


def check_not_empty(t, message):
    """NumPy's ValueError for a join of an empty list: while tracing where its length is
    known, else a staged check."""
    n = dispatch.size_of(t, 0)
    if isinstance(n, int):
        if not n:
            raise errors.numpy_error_at_user(ValueError(message))
        return
    dispatch.apply("assert", dispatch.apply("greater", n, 0), error="ValueError",
                   message=message)


def check_typed_when_empty(t, what, dtype=None):
    """``np.array(out)`` of a staged list that is empty when the function runs: NumPy's
    ``np.array([])`` is float64 of shape (0,), which the tensor of the rows (of their dtype
    and shape) is not unless they are float64 numbers; such a run raises (a compiled
    function has one result type), rather than answer with another dtype or shape. (With
    ``dtype=``, rows of numbers are exact: ``np.array([], dtype=np.int64)``.)"""
    if (t.ndim == 1 and (dtype is not None or t.dtype == np.float64)) or isinstance(
            dispatch.size_of(t, 0), int):
        return
    dispatch.apply("assert", dispatch.apply("greater", dispatch.size_of(t, 0), 0),
                   error="NotImplementedError", message=(
                       f"np.{what} of a list that a staged loop or branch built, empty on "
                       f"this run: NumPy's np.{what}([]) is a float64 array of shape (0,), "
                       f"not the {t.dtype} array of shape (0{', ...' if t.ndim > 1 else ','}) "
                       f"of the list's rows that the compiled function returns; check the "
                       f"list's length first (`if len(out):`), or collect into an array"))


def joined(name, t, *args, **kwargs):
    """``np.<name>(t)`` (concatenate, vstack, hstack, column_stack) of the staged list
    ``t``: NumPy's join of its rows, from the tensor of them."""
    check_not_empty(t, "need at least one array to concatenate")
    rows = t.ndim - 1  # (each row's rank)
    if name == "concatenate":
        axis = kwargs.pop("axis", args[0] if args else 0)
        if args[1:] or set(kwargs) - {"dtype", "casting"} or axis is None:
            raise NotImplementedError(f"np.concatenate of a staged list with {args[1:]} "
                                      f"{sorted(kwargs)} or axis=None is not staged; "
                                      f"np.concatenate(list(...)) of a Python list is")
        if not rows:
            raise errors.numpy_error_at_user(ValueError(
                "zero-dimensional arrays cannot be concatenated"))
        out = _merged(array_of(t), normalize_axis_index(axis, rows))
        return (numpy_api.astype(out, kwargs["dtype"]) if kwargs.get("dtype") is not None
                else out)
    if args or kwargs:
        raise NotImplementedError(f"np.{name} of a staged list with other arguments is not "
                                  f"staged")
    x = array_of(t)
    if name == "vstack":  # (rows as at least 2-d, joined on axis 0)
        return x[:, None] if rows == 0 else x if rows == 1 else _merged(x, 0)
    if name == "hstack":  # (at least 1-d, joined on axis 1, or 0 for 1-d rows)
        return x if rows == 0 else _merged(x, 0 if rows == 1 else 1)
    # column_stack: 1-d rows (and numbers) are columns, others joined on axis 1
    return x[None] if rows == 0 else numpy_api.transpose(x) if rows == 1 else _merged(x, 1)


def _merged(x, axis):
    """The tensor ``x`` of rows joined on the rows' ``axis``: the list's axis 0 moved next
    to it, and the two made one."""
    x = numpy_api.transpose(x, list(range(1, axis + 1)) + [0] + list(range(axis + 1, x.ndim)))
    sizes = [dispatch.size_of(x, k) for k in range(x.ndim)]
    return numpy_api.reshape(x, tuple(sizes[:axis]) + (sizes[axis] * sizes[axis + 1],)
                             + tuple(sizes[axis + 2:]))


def keep_kind(before, after):
    """``after`` (a value a staged loop or branch gave for a variable that held ``before``)
    as a ListTensor where ``before`` was one."""
    if isinstance(before, ListTensor) and isinstance(after, SymbolicTensor):
        return as_list(after, isinstance(before, PythonNumbersList))
    return after


# runtime/user_operators.truth (installed there: it imports this module)
USER_TRUTH = None


def truth(x):
    """Python's truth of a staged list (not empty), and of an array NumPy's: the value of
    its one element (an empty array or one of more elements raises NumPy's ValueError, when
    the function runs where the size is known only then; `not x` of two elements was their
    elementwise `not`, silently); of a user's object its converted `__bool__`/`__len__`
    (USER_TRUTH); anything else as it is."""
    staged = getattr(type(x), "ag_truth", None)  # (data.TensorList: a loop's list)
    if staged is not None:
        return staged(x)
    if USER_TRUTH is not None and not isinstance(x, Tensor):
        x = USER_TRUTH(x)
    if isinstance(x, ListTensor):
        return dispatch.apply("greater", dispatch.size_of(x, 0), 0)
    if isinstance(x, SymbolicTensor) and x.ndim:
        n = np.prod(x.shape) if None not in x.shape else numpy_api.size(x)
        for ok, text in ((n != 0, "The truth value of an empty array is ambiguous. Use "
                          "`array.size > 0` to check that an array is not empty."),
                         (n <= 1, "The truth value of an array with more than one element "
                          "is ambiguous. Use a.any() or a.all()")):
            if isinstance(ok, (bool, np.bool_)):
                if not ok:
                    raise ValueError(text)
            else:
                dispatch.apply("assert", ok, message=text, error="ValueError")
        return numpy_api.reshape(x, (-1,))[0]
    return x


def _rows(v):
    """The rows of list ``v`` as a plain tensor (a ListTensor's `==` is the list's own)."""
    return array_of(v) if isinstance(v, SymbolicTensor) else dispatch.convert_to_tensor(v)


def _concatenated(a, b):
    for first, other in ((a, b), (b, a)):
        if isinstance(first, ListTensor) and not isinstance(other, (list, ListTensor)):
            if _numpy_side(other):
                return _array("__add__")(a, b) if first is a else _array("__radd__")(b, a)
            raise TypeError(f'can only concatenate list (not "{_kind(other)}") to list')
    for v in (a, b):
        for item in (v if isinstance(v, list) else ()):
            mutation.held_by_copy(item, "a staged list's `+`")
    kept = [v for v in (a, b) if not (isinstance(v, list) and not v)]
    parts = [_rows(v) for v in kept]
    out = numpy_api.concatenate(parts) if len(parts) > 1 else numpy_api.copy(parts[0])
    if all(isinstance(v, PythonNumbersList) or (isinstance(v, list) and all(
            python_numbers.python_number(x) for x in v)) for v in kept):
        # (Python numbers alone stay Python numbers: `st = st + [i]` after a loop that
        # popped it; a plain list of them read int64s, which made `width = i - st[-1]` an
        # int64 and a running `best` of int32 products change dtype: session 56's probe)
        return as_list(out, True)
    flags = [row_flags(v) for v in kept]
    out = as_list(out)
    if all(f is None for f in flags) or out.ndim != 1:
        return out
    return with_row_flags(out, numpy_api.concatenate([
        numpy_api.zeros((dispatch.size_of(p, 0),), bool) if f is None else f
        for f, p in zip(flags, parts)]))


def item_written(t, key, value, current=None):
    """After ``t[key] = value`` of a ListTensor ``t`` of numbers: the flag of that row says
    whether ``value`` is a Python number (`st[-1] = 0.0` over a NumPy row makes it Python's:
    session 56's probe, `1.0 / st[-1]` gave inf where Python raises). ``current``: the item
    read for ``t[key] op= v``, whose flag ``value`` may keep (`counts[-1] += 1`)."""
    if not isinstance(t, ListTensor) or t.ndim != 1 or isinstance(t, PythonNumbersList):
        return
    flag = python_numbers.python_flag(value)
    flags = _flags_of(t)
    if (flags is None and flag is False) or (
            current is not None and flag is python_numbers.python_flag(current)):
        return
    graph = current_graph()
    if graph is not None and t._value.graph is not graph:
        # (the list from before a staged branch, written in place there: its flags, an
        # attribute of the one object, would leave the branch on every path)
        at = errors.user_location()
        raise NotImplementedError(
            f"an item of a list of Python and NumPy numbers (`st = [0.0]`, then NumPy "
            f"numbers appended by a staged loop) is written inside a staged `if` or loop"
            f"{f' at {at}' if at else ''}: which of its items are Python numbers (whose "
            f"arithmetic differs: `1.0 / 0.0` raises) would then depend on the run, which "
            f"the compiled list does not follow there; write it outside the branch, or "
            f"keep the list's items NumPy numbers (`st = [np.float64(0.0)]`)")
    if flags is None:
        flags = numpy_api.zeros((dispatch.size_of(t, 0),), bool)
    t._python_when = indexing.setitem(flags, key, np.bool_(flag) if isinstance(flag, bool)
                                      else flag)


def has_row_flags(v):
    """Whether the ListTensor ``v`` has Python-number rows (decided while tracing; stages
    nothing, so that it may look at a value of a branch already traced)."""
    return isinstance(v, PythonNumbersList) or v._python_when is not None


def row_flags(v):
    """Which items of the list ``v`` are Python numbers, one bool each (None: none are)."""
    if isinstance(v, PythonNumbersList):
        return numpy_api.ones((dispatch.size_of(v, 0),), bool)
    if isinstance(v, ListTensor):
        return _flags_of(v)
    flags = [python_numbers.python_flag(x) for x in v]
    if not any(f is not False for f in flags):
        return None
    if not any(isinstance(f, SymbolicTensor) for f in flags):
        return np.array(flags, bool)
    return numpy_api.stack([np.bool_(f) if isinstance(f, bool) else f for f in flags])


def _repeated(a, count):
    if isinstance(count, (np.ndarray, SymbolicTensor)) and getattr(count, "ndim", 0):
        return _array("__mul__")(a, count)  # (a list times an array: NumPy's, elementwise)
    if isinstance(count, (float, complex, np.floating, np.complexfloating)) or (
            isinstance(count, SymbolicTensor) and count.dtype.kind not in "iub"):
        raise TypeError(f"can't multiply sequence by non-int of type '{_kind(count)}'")
    if isinstance(count, SymbolicTensor):
        raise NotImplementedError("a staged list repeated a number of times known only "
                                  "when the function runs; use np.tile(np.array(out), n)")
    if not isinstance(count, numbers.Integral):
        raise TypeError(f"can't multiply sequence by non-int of type '{_kind(count)}'")
    n = max(int(count), 0)
    return as_list(numpy_api.concatenate([a] * n) if n else a[:0])


def _equal(a, b):
    """``a == b`` of two lists: one bool (same length, equal items), as Python's."""
    # (np.array_equal's module, imported by the package: importing it here would close a
    # circle through AutoGraph, as numpy_calls.py notes for np.vectorize)
    equal = sys.modules["autograph_lite.numpy_composites"].array_equal
    return dispatch.apply("as_weak", equal(_rows(a), _rows(b)))
