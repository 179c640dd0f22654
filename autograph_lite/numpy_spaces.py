"""``np.logspace`` and ``np.geomspace`` on tensors (a traced count, or traced bounds),
NumPy's own steps op for op on top of ``np.linspace`` (numpy_api.py), so the samples are
NumPy's bit for bit:

- ``logspace``: ``base ** linspace(start, stop, num, endpoint)``, then ``dtype``;
- ``geomspace``: the bounds cast to NumPy's dtype (at least float64: NumPy promotes with a
  0-d float64 array), rotated to positive by their sign, ``logspace`` of their ``log10``,
  the first and (``endpoint``) last samples replaced by the bounds themselves, rotated
  back. A zero bound is NumPy's ValueError (a staged check when it is traced).

A count that is a tensor reaches here from ``np.logspace(0.0, 2.0, n)`` through
autograph/runtime/numpy_calls.py (NumPy dispatches on no argument then).
"""
import numpy as np

from . import dtypes
from . import numpy_api as npa
from .ops.dispatch import convert_to_tensor
from .ops.registry import public
from .python_numbers import check
from .tensor import SymbolicTensor, Tensor


def _scalar(v, what):
    """``v`` when it is one number (a Python or NumPy number, a 0-d tensor); arrays of
    bounds are NumPy's broadcast-along-``axis`` form, not staged here."""
    if isinstance(v, Tensor) and v.ndim == 0 or isinstance(v, (int, float, np.number)) \
            and not isinstance(v, (bool, np.bool_)):
        return v
    raise NotImplementedError(f"{what} must be one number on tensors (arrays of bounds "
                              f"or bases are not staged); got {type(v).__name__}")


def _dtype(v):
    return v.dtype if isinstance(v, Tensor) else np.asarray(v).dtype


@public("np.logspace")
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    if axis != 0:
        raise NotImplementedError("np.logspace: axis is not supported on tensors")
    start, stop = _scalar(start, "np.logspace's start"), _scalar(stop, "np.logspace's stop")
    base = _scalar(base, "np.logspace's base")
    y = npa.linspace(start, stop, num, endpoint)
    out = np.power(base, y)
    return out if dtype is None else npa.astype(out, dtype)


@public("np.geomspace")
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    if axis != 0:
        raise NotImplementedError("np.geomspace: axis is not supported on tensors")
    start, stop = _scalar(start, "np.geomspace's start"), _scalar(stop, "np.geomspace's stop")
    # (NumPy's: the bounds as 0-d arrays, float(num) (weak) and a 0-d array of ``dtype``,
    # float64 when it is None)
    dt = np.result_type(_dtype(start), _dtype(stop), 1.0,
                        np.float64 if dtype is None else dtypes.as_dtype(dtype))
    if dt.kind == "c":
        raise NotImplementedError("np.geomspace of complex bounds is not staged")
    start = npa.astype(convert_to_tensor(start), dt)
    stop = npa.astype(convert_to_tensor(stop), dt)
    zero = (start == 0) | (stop == 0)
    check(~zero if isinstance(zero, SymbolicTensor) else not zero,
          "Geometric sequence cannot include zero", "ValueError")
    sign = np.sign(start)
    start, stop = start / sign, stop / sign
    result = logspace(np.log10(start), np.log10(stop), num, endpoint, 10.0, dt)
    k = npa.arange(num)
    result = npa.where(k == 0, start, result)
    if endpoint:
        result = npa.where((k == num - 1) & (k > 0), stop, result)
    result = result * sign
    return result if dtype is None else npa.astype(result, dtypes.as_dtype(dtype))
