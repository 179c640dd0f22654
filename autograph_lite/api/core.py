"""TensorFlow-style fronts (ag.reduce_sum, ag.concat, ag.range, ag.print, ...): argument
handling over the ops. One-op names (ag.add, ag.sqrt) are claimed by the op entries."""
import builtins
import re

import numpy as np

from .. import dtypes, staged_text
from .. import numpy_api as npa
from ..ops.dispatch import apply, convert_to_tensor, size_of
from ..ops.indexing import setitem
from ..ops.registry import expose, public
from ..tensor import is_symbolic, is_tensor_value
from ..trace.context import device_scope


@public("ag.cast")
def cast(x, dtype, name=None):
    return npa.cast(x, dtype)


def _axis(axis):
    return axis if axis is None or isinstance(axis, int) else tuple(axis)


@public("ag.reduce_sum", "ag.math.reduce_sum")
def reduce_sum(x, axis=None, keepdims=False, name=None):
    return npa.sum(x, _axis(axis), keepdims=keepdims)


@public("ag.reduce_mean", "ag.math.reduce_mean")
def reduce_mean(x, axis=None, keepdims=False, name=None):
    return npa.mean(x, _axis(axis), keepdims=keepdims)


@public("ag.reduce_max", "ag.math.reduce_max")
def reduce_max(x, axis=None, keepdims=False, name=None):
    return npa.max(x, _axis(axis), keepdims=keepdims)


@public("ag.reduce_min", "ag.math.reduce_min")
def reduce_min(x, axis=None, keepdims=False, name=None):
    return npa.min(x, _axis(axis), keepdims=keepdims)


@public("ag.reduce_prod", "ag.math.reduce_prod")
def reduce_prod(x, axis=None, keepdims=False, name=None):
    return npa.prod(x, _axis(axis), keepdims=keepdims)


@public("ag.reduce_any", "ag.math.reduce_any")
def reduce_any(x, axis=None, keepdims=False, name=None):
    return npa.any(x, _axis(axis), keepdims=keepdims)


@public("ag.reduce_all", "ag.math.reduce_all")
def reduce_all(x, axis=None, keepdims=False, name=None):
    return npa.all(x, _axis(axis), keepdims=keepdims)


@public("ag.argmax", "ag.math.argmax")
def argmax(x, axis=None, output_type=dtypes.int64, name=None):
    return npa.argmax(x, axis)


@public("ag.argmin", "ag.math.argmin")
def argmin(x, axis=None, output_type=dtypes.int64, name=None):
    return npa.argmin(x, axis)


@public("ag.cumsum", "ag.math.cumsum")
def cumsum(x, axis=0, name=None):
    return npa.cumsum(x, axis)


@public("ag.matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    if transpose_a:
        a = npa.transpose(a)
    if transpose_b:
        b = npa.transpose(b)
    return apply("matmul", a, b)


@public("ag.transpose")
def transpose(x, perm=None, name=None):
    return npa.transpose(x, perm)


@public("ag.reshape")
def reshape(x, shape, name=None):
    return npa.reshape(x, shape)


@public("ag.expand_dims")
def expand_dims(x, axis, name=None):
    return npa.expand_dims(x, axis)


@public("ag.squeeze")
def squeeze(x, axis=None, name=None):
    return npa.squeeze(x, axis)


@public("ag.concat")
def concat(values, axis, name=None):
    return npa.concatenate(values, axis)


@public("ag.stack")
def stack(values, axis=0, name=None):
    if not values:
        raise ValueError("ag.stack needs a non-empty list of tensors")
    return npa.stack(values, axis)


@public("ag.split")
def split(value, num_or_size_splits, axis=0, name=None):
    sections = (num_or_size_splits if isinstance(num_or_size_splits, int)
                else tuple(int(s) for s in num_or_size_splits))
    value = convert_to_tensor(value)
    if isinstance(sections, int) and sections > 0 and -value.ndim <= int(axis) < value.ndim:
        npa.check_equal_division(size_of(value, int(axis) % value.ndim), sections)
    return list(apply("split", value, sections=sections, axis=int(axis)))


@public("ag.gather")
def gather(params, indices, axis=0, name=None):
    index = (slice(None),) * (axis % convert_to_tensor(params).ndim) + (indices,)
    return convert_to_tensor(params)[index]


@public("ag.where")
def where(condition, x=None, y=None, name=None):
    return npa.where(condition, x, y)


@public("ag.clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    return apply("clip", t, clip_value_min, clip_value_max)


@public("ag.fill")
def fill(dims, value, name=None):
    return npa.full(dims, value)


@public("ag.zeros")
def zeros(shape, dtype=dtypes.float32, name=None):
    return npa.zeros(shape, dtype)


@public("ag.ones")
def ones(shape, dtype=dtypes.float32, name=None):
    return npa.ones(shape, dtype)


@public("ag.zeros_like")
def zeros_like(x, dtype=None, name=None):
    return npa.zeros_like(x, dtype)


@public("ag.ones_like")
def ones_like(x, dtype=None, name=None):
    return npa.ones_like(x, dtype)


@public("ag.eye")
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    m = num_rows if num_columns is None else num_columns
    return apply("eye", n=int(num_rows), m=int(m), dtype=dtypes.as_dtype(dtype))


@public("ag.range")
def range(start, limit=None, delta=1, dtype=None, name=None):  # noqa: A001
    """ag.range(n), ag.range(start, limit, delta): tensor bounds are staged."""
    return npa.arange(start, limit, delta, dtype)


@public("ag.linspace")
def linspace(start, stop, num, name=None):
    return npa.linspace(start, stop, num)


@public("ag.shape")
def shape(x, out_type=dtypes.int64, name=None):
    return apply("shape", x)


@public("ag.size")
def size(x, out_type=dtypes.int64, name=None):
    return apply("size", x)


@public("ag.rank")
def rank(x, name=None):
    return convert_to_tensor(x).ndim


@public("ag.print")
def print(*inputs, sep=" ", end="\n", stream="stdout", flush=False):  # noqa: A001
    """Prints tensors on every call of a compiled function (eagerly: at once).

    Arguments that are not tensors or arrays (strings, Python numbers, other objects)
    are printed as Python prints them; their text is fixed when the function is traced.
    An f-string of traced values (staged_text.py) is formatted when the function runs.
    ``stream``: "stdout" or "stderr", the one ``sys`` holds when the function runs.
    """
    if stream not in ("stdout", "stderr"):
        raise ValueError(f"ag.print: stream must be 'stdout' or 'stderr', not {stream!r}")
    options = {} if (stream, flush) == ("stdout", False) else {"stream": stream,
                                                              "flush": builtins.bool(flush)}
    tensors, parts = [], []
    for a in inputs:
        if is_tensor_value(a):
            tensors.append(a)
            parts.append(None)
        elif isinstance(a, staged_text.StagedText):  # an f-string of traced values
            values, pieces = a.split()
            tensors += values
            parts.append(pieces)
        else:
            parts.append(builtins.str(a))
    if builtins.all(p is None for p in parts):
        return apply("print", *tensors, sep=sep, end=end, **options)
    return apply("print", *tensors, sep=sep, end=end, parts=tuple(parts), **options)


@public("ag.assert_")
def assert_(pred, message="assertion failed"):
    """A staged assertion: checked every call; raises AssertionError(message). An
    f-string of traced values is formatted when it fails, with that run's values."""
    if not is_symbolic(pred):
        if not bool(np.all(np.asarray(pred))):
            raise AssertionError(message)
        return None
    if pred.ndim:
        pred = reduce_all(pred)
    return check(pred, message)


def check(pred, message, error="AssertionError", original=None):
    """Stages the check of the 0-d bool ``pred``, raising ``error`` (a name of
    io.CHECK_ERRORS) with ``message`` (text, or a StagedText made when it fails); or, given
    ``original`` of NumPy's own class (``error`` its builtin base: check_errors.stand_in),
    a copy of that exception (partial_raise.py); an ``original`` of ``error`` itself is
    raised as the builtin, unless marked ``ag_exact`` (a user's exception whose arguments
    or cause the builtin would lose: user_raises.as_raised)."""
    attrs = {} if error == "AssertionError" else {"error": error}
    if original is not None and (type(original).__name__ != error
                                 or getattr(original, "ag_exact", False)):
        attrs["original"] = original
    if isinstance(message, staged_text.StagedText):
        values, pieces = message.split()
        return apply("assert", pred, *values, message=builtins.str(message), parts=pieces,
                     **attrs)
    return apply("assert", pred, message=builtins.str(message), **attrs)


# TensorFlow's spellings of the two devices there are (one of each kind: index 0 only)
_DEVICE_NAME = re.compile(r"/?(?:device:)?(cpu|gpu|cuda)(?::0)?", re.IGNORECASE)


@public("ag.device")
def device(device_name):
    """``with ag.device("cuda"):`` places the ops traced in the block (SPEC §2): each Node
    added meanwhile records the device, the innermost scope winning, ``None`` clearing an
    enclosing one. Placement is a request to the backend, not a semantic change: the cpu
    backend and the interpreter ignore it, and the cuda backend runs "cpu"-placed nodes on
    the host. Outside a trace it is accepted and does nothing (eager ops run on NumPy), so
    the same function runs as plain Python. Takes "cpu", "cuda" and TensorFlow's spellings
    ("/cpu:0", "/gpu:0", "gpu", "/device:GPU:0", "CPU:0", any case); anything else raises
    ``ValueError`` at once, at the user's ``with`` line."""
    return device_scope(canonical_device(device_name))


def canonical_device(device_name):
    """An ``ag.device`` argument as "cpu", "cuda" or None (see ``device``)."""
    if device_name is None:
        return None
    match = _DEVICE_NAME.fullmatch(device_name) if isinstance(device_name, str) else None
    if match is None:
        raise ValueError(
            f"ag.device: device_name must be 'cpu', 'cuda', a TensorFlow spelling of one "
            f"('/cpu:0', '/gpu:0', 'gpu', '/device:GPU:0', 'CPU:0'; any case, device 0 "
            f"only) or None; got {device_name!r}")
    return "cpu" if match.group(1).lower() == "cpu" else "cuda"


expose("ag.setitem", setitem)
