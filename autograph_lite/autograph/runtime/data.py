"""Rebinding forms of mutation (`list_append`, `setitem`), asserts and the index builder.

On Python lists and NumPy arrays they mutate in place and return the same object, so
the rebinding the converter adds changes nothing; on tensors they return a new value.
"""

import operator

import numpy as np

from autograph_lite.autograph.runtime import core, trace_arrays, where

_AUG = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
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

    def __new__(cls, buffer, length):
        return tuple.__new__(cls, (buffer, length))

    buffer = property(lambda self: tuple.__getitem__(self, 0))
    length = property(lambda self: tuple.__getitem__(self, 1))

    def __getitem__(self, index):
        return self.stacked()[index]

    def stacked(self):
        return self.buffer[:self.length]

    def append(self, x):
        buf = self.buffer
        row = x if core.is_tensor(x) else np.asarray(x)
        if core.dtype_of(row) != buf.dtype and np.can_cast(row.dtype, buf.dtype, "same_kind"):
            row = core.ag().cast(row, buf.dtype)
        ops = core.module("autograph_lite.ops")
        return TensorList(ops.apply("list_push", buf, self.length, row), self.length + 1)


def new_tensor_list(items, row, capacity):
    """A TensorList holding `items`, room for `capacity` more rows of `row`'s type."""
    numpy_api = core.module("autograph_lite.numpy_api")
    buf = numpy_api.empty((len(items) + capacity,) + core.concrete_shape(row.shape), row.dtype)
    for k, item in enumerate(items):
        buf = core.ag().setitem(buf, k, item)
    return TensorList(buf, np.int64(len(items)))


def list_append(target, x):
    """`target.append(x)`, returning the list: a Python list is appended to; a list that
    a staged loop carries (TensorList) gets a new row; a list that an earlier staged loop
    stacked into a tensor gets one more row by concatenation."""
    if isinstance(target, TensorList):
        return target.append(x)
    if core.is_symbolic(target):
        row = x[None] if core.is_symbolic(x) else np.asarray(x)[None]
        return np.concatenate([target, row])
    target.append(x)
    return target


def _symbolic_key(key):
    parts = key if isinstance(key, tuple) else (key,)
    for p in parts:
        if isinstance(p, slice):
            if any(core.is_symbolic(v) for v in (p.start, p.stop, p.step)):
                return True
        elif core.is_symbolic(p):
            return True
    return False


def _view_roots(x):
    """The graph values a symbolic tensor's memory may belong to: itself and, through
    view ops (slicing, reshape, transpose), the values it was taken from."""
    value, roots = x._value, set()
    while value is not None:
        roots.add(value.id)
        node = value.node
        value = node.inputs[0] if node is not None and node.opdef.view and node.inputs \
            else None
    return roots


def _shares(a, b):
    if core.is_symbolic(a) and core.is_symbolic(b):
        return bool(_view_roots(a) & _view_roots(b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.shares_memory(a, b)
    return a is b and core.is_tensor(a)


def _check_aliases(target, live):
    """SPEC 3: a staged update of `name` must not leave another live name on the old array."""
    name, others = live
    for other, get in others.items():
        try:
            held = get()
        except NameError:  # not bound yet at this point of the trace
            continue
        for v in core.module("autograph_lite.nest").flatten(held):
            if _shares(v, target):
                raise ValueError(
                    f"'{name}[...] = ...' at {where.caller(3)} updates an array that "
                    f"'{other}' also holds, and '{other}' is used afterwards: the staged "
                    f"update gives '{name}' a new value while '{other}' keeps the old one, "
                    f"unlike NumPy. Write '{name} = {name}.copy()' first, or update "
                    f"'{other}' instead")


def staged_array(a):
    """A NumPy array about to be updated with traced values, as a tensor: the idiom's
    `np.zeros(n)`/`np.empty(n)` (any array of one repeated value) becomes a staged `full`
    the kernel allocates itself, instead of a constant it must receive and copy."""
    flat = a.reshape(-1)
    if a.size and (flat == flat[0]).all():
        return core.module("autograph_lite.numpy_api").full(a.shape, flat[0], a.dtype)
    return a


def setitem(target, key, value, op=None, live=None):
    """`target[key] = value` (or `target[key] op= value`), returning the updated target.
    `live`: (target's name, {other live name: getter}) for the alias check."""
    if op is not None:  # the read as a subscript load (trace_arrays: ndarray[tensor])
        value = _AUG[op](trace_arrays.getitem(target, key), value)
    if core.is_tensor(target) or (isinstance(target, np.ndarray) and (
            core.is_symbolic(value) or _symbolic_key(key))):
        # An array updated with a traced value becomes a traced value itself.
        if live is not None:
            _check_aliases(target, live)
        if isinstance(target, np.ndarray):
            target = staged_array(target)
        return core.ag().setitem(target, key, value)
    target[key] = value
    return target


def assert_stmt(test, msg=None):
    """`assert test, msg()`: now on Python values, on every call for a symbolic test."""
    if core.is_symbolic(test):
        text = str(msg()) if msg is not None else f"assertion failed at {where.caller()}"
        core.ag().assert_(test, text)
        return
    if not test:
        raise AssertionError(msg()) if msg is not None else AssertionError()


def set_loop_options(maximum_iterations=None, shape_invariants=None, **kwargs):
    """Loop options directive; as the first statement of a loop body the converter moves
    it into the loop (see converters/directives.py). Called anywhere else it does nothing.
    """
    del maximum_iterations, shape_invariants, kwargs
