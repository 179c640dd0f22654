"""Top-level TensorFlow-style ops: ag.add, ag.reduce_sum, ag.concat, ag.range, ag.print, ..."""
import builtins

import numpy as np

from .. import dtypes
from .. import numpy_api as npa
from ..ops.dispatch import apply
from ..ops.indexing import setitem  # noqa: F401  (ag.setitem)
from ..tensor import convert_to_tensor, is_symbolic, is_tensor_value


def _binary(name):
    def op(x, y, name=None):
        return apply(_OP, x, y)
    _OP = name
    op.__name__ = name
    return op


add = _binary("add")
subtract = _binary("subtract")
multiply = _binary("multiply")
divide = _binary("true_divide")
truediv = divide
floordiv = _binary("floor_divide")
mod = _binary("mod")
pow = _binary("power")  # noqa: A001
maximum = _binary("maximum")
minimum = _binary("minimum")
equal = _binary("equal")
not_equal = _binary("not_equal")
less = _binary("less")
less_equal = _binary("less_equal")
greater = _binary("greater")
greater_equal = _binary("greater_equal")
logical_and = _binary("logical_and")
logical_or = _binary("logical_or")
logical_xor = _binary("logical_xor")


def _unary(opname):
    def op(x, name=None):
        return apply(opname, x)
    op.__name__ = opname
    return op


abs = _unary("abs")  # noqa: A001
negative = _unary("negative")
square = _unary("square")
sqrt = _unary("sqrt")
exp = _unary("exp")
logical_not = _unary("logical_not")
sign = _unary("sign")


def cast(x, dtype, name=None):
    return npa.cast(x, dtype)


def _axis(axis):
    return axis if axis is None or isinstance(axis, int) else tuple(axis)


def reduce_sum(x, axis=None, keepdims=False, name=None):
    return npa.sum(x, _axis(axis), keepdims=keepdims)


def reduce_mean(x, axis=None, keepdims=False, name=None):
    return npa.mean(x, _axis(axis), keepdims=keepdims)


def reduce_max(x, axis=None, keepdims=False, name=None):
    return npa.max(x, _axis(axis), keepdims=keepdims)


def reduce_min(x, axis=None, keepdims=False, name=None):
    return npa.min(x, _axis(axis), keepdims=keepdims)


def reduce_prod(x, axis=None, keepdims=False, name=None):
    return npa.prod(x, _axis(axis), keepdims=keepdims)


def reduce_any(x, axis=None, keepdims=False, name=None):
    return npa.any(x, _axis(axis), keepdims=keepdims)


def reduce_all(x, axis=None, keepdims=False, name=None):
    return npa.all(x, _axis(axis), keepdims=keepdims)


def argmax(x, axis=None, output_type=dtypes.int64, name=None):
    return npa.argmax(x, axis)


def argmin(x, axis=None, output_type=dtypes.int64, name=None):
    return npa.argmin(x, axis)


def cumsum(x, axis=0, name=None):
    return npa.cumsum(x, axis)


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    if transpose_a:
        a = npa.transpose(a)
    if transpose_b:
        b = npa.transpose(b)
    return apply("matmul", a, b)


def transpose(x, perm=None, name=None):
    return npa.transpose(x, perm)


def reshape(x, shape, name=None):
    return npa.reshape(x, shape)


def expand_dims(x, axis, name=None):
    return npa.expand_dims(x, axis)


def squeeze(x, axis=None, name=None):
    return npa.squeeze(x, axis)


def concat(values, axis, name=None):
    return npa.concatenate(values, axis)


def stack(values, axis=0, name=None):
    if not values:
        raise ValueError("ag.stack needs a non-empty list of tensors")
    return npa.stack(values, axis)


def split(value, num_or_size_splits, axis=0, name=None):
    sections = (num_or_size_splits if isinstance(num_or_size_splits, int)
                else tuple(int(s) for s in num_or_size_splits))
    return list(apply("split", value, sections=sections, axis=int(axis)))


def gather(params, indices, axis=0, name=None):
    index = (slice(None),) * (axis % convert_to_tensor(params).ndim) + (indices,)
    return convert_to_tensor(params)[index]


def where(condition, x=None, y=None, name=None):
    return npa.where(condition, x, y)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    return apply("clip", t, clip_value_min, clip_value_max)


def fill(dims, value, name=None):
    return npa.full(dims, value)


def zeros(shape, dtype=dtypes.float32, name=None):
    return npa.zeros(shape, dtype)


def ones(shape, dtype=dtypes.float32, name=None):
    return npa.ones(shape, dtype)


def zeros_like(x, dtype=None, name=None):
    return npa.zeros_like(x, dtype)


def ones_like(x, dtype=None, name=None):
    return npa.ones_like(x, dtype)


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    m = num_rows if num_columns is None else num_columns
    return apply("eye", n=int(num_rows), m=int(m), dtype=dtypes.as_dtype(dtype))


def range(start, limit=None, delta=1, dtype=None, name=None):  # noqa: A001
    """ag.range(n), ag.range(start, limit, delta): tensor bounds are staged."""
    if limit is None:
        start, limit = 0, start
    parts = (start, limit, delta)
    if dtype is None:
        dtype = dtypes.result_type(*[convert_to_tensor(p).type if is_symbolic(p) else
                                     np.asarray(p).dtype for p in parts])
        if builtins.all(isinstance(p, int) for p in parts):
            dtype = dtypes.int64
    dtype = dtypes.as_dtype(dtype)
    length = None
    if builtins.all(isinstance(p, (int, float, np.number)) for p in parts):
        if delta == 0:
            raise ValueError("ag.range: delta must not be zero")
        length = len(np.arange(start, limit, delta))
    return apply("range", start, limit, delta, dtype=dtype, length=length)


def linspace(start, stop, num, name=None):
    return npa.linspace(start, stop, num)


def shape(x, out_type=dtypes.int64, name=None):
    return apply("shape", x)


def size(x, out_type=dtypes.int64, name=None):
    return apply("size", x)


def rank(x, name=None):
    return convert_to_tensor(x).ndim


def print(*inputs, sep=" ", end="\n"):  # noqa: A001
    """Prints tensors on every call of a compiled function (eagerly: at once).

    Arguments that are not tensors or arrays (strings, Python numbers, other objects)
    are printed as Python prints them; their text is fixed when the function is traced.
    """
    tensors, parts = [], []
    for a in inputs:
        if is_tensor_value(a):
            tensors.append(a)
            parts.append(None)
        else:
            parts.append(builtins.str(a))
    if builtins.all(p is None for p in parts):
        return apply("print", *tensors, sep=sep, end=end)
    return apply("print", *tensors, sep=sep, end=end, parts=tuple(parts))


def assert_(pred, message="assertion failed"):
    """A staged assertion: checked every call; raises AssertionError(message)."""
    if not is_symbolic(pred):
        if not bool(np.all(np.asarray(pred))):
            raise AssertionError(message)
        return None
    if pred.ndim:
        pred = reduce_all(pred)
    return apply("assert", pred, message=str(message))
