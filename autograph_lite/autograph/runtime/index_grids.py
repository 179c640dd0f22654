"""`np.mgrid[...]` / `np.ogrid[...]` with bounds that are tensors (`np.mgrid[0:n, 0:n]` of
a relaxed `n`, `np.mgrid[-1:1:complex(0, n)]`), staged as NumPy's nd_grid computes them.

NumPy's own `nd_grid.__getitem__` runs Python arithmetic (`math.ceil`, `int(step)`) on the
bounds: given tensors it raised an AttributeError deep in NumPy, which the trace kept as
the user's error and raised on every call (session 49). Here the same steps are ops: each
axis's size (`ceil((stop - start) / step)`, or the point count of a complex step), the
dtype NumPy's `result_type` of all bounds gives, `arange` per axis times step plus start,
then the dense grid (mgrid: the axes broadcast against each other and stacked) or the
open one (ogrid: each axis shaped to broadcast).
"""
import numpy as np

from autograph_lite import numpy_api
from autograph_lite.autograph.runtime import core


def _np(func, *args, **kwargs):
    return numpy_api.array_function(func, args, kwargs)


def _is_complex(step):
    if core.is_symbolic(step):
        return step.dtype.kind == "c"
    return isinstance(step, (complex, np.complexfloating))


def _axis(part):
    """(size, start, step, the values for result_type) of one slice of the key."""
    if type(part) is not slice:
        raise TypeError(f"np.mgrid/np.ogrid take slices (`0:n`, `-1:1:5j`), not "
                        f"{type(part).__name__}")
    start = 0 if part.start is None else part.start
    step = 1 if part.step is None else part.step
    if _is_complex(step):
        count = _np(np.abs, step)
        size = _np(np.floor, count).astype(np.int64) if core.is_symbolic(count) else int(count)
        spacing = (part.stop - start) / (size - 1.0)
        one = size == 1
        step_value = _np(np.where, one, 1.0, spacing) if core.is_symbolic(one) else (
            1 if one else spacing)
        return size, start, step_value, [start, part.stop, count]
    size = _np(np.ceil, (part.stop - start) / step)
    size = _np(np.maximum, size, 0).astype(np.int64)
    return size, start, step, [start, part.stop, step]


def grid(sparse, key):
    """``np.ogrid[key]`` (sparse) or ``np.mgrid[key]`` with tensors among its bounds."""
    if type(key) is not tuple:  # (one slice: an arange, as NumPy's one-axis path)
        size, start, step, values = _axis(key)
        typ = numpy_api.result_type(0, *values)
        return _np(np.arange, size, dtype=typ) * step + start
    axes = [_axis(p) for p in key]
    typ = numpy_api.result_type(0, *[v for a in axes for v in a[3]])
    sizes = [a[0] for a in axes]
    out = []
    for k, (size, start, step, _) in enumerate(axes):
        shape = [1] * len(axes)
        shape[k] = -1
        values = _np(np.reshape, _np(np.arange, size, dtype=typ) * step + start, tuple(shape))
        out.append(values if sparse else _np(np.broadcast_to, values, tuple(sizes)))
    return tuple(out) if sparse else _np(np.stack, out)
