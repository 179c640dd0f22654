"""``np.vectorize`` and ``np.apply_along_axis`` on tensors, as ``ag.vectorized_map``s.

``np.vectorize(f)(x, y)``: ``f`` applied to every element of the broadcast
arguments, as one kernel (``ag.vectorized_map`` over the raveled elements, so ``f`` may
hold data-dependent ``if``/``while``/``for``: AutoGraph converts it), shaped back.

NumPy's rules kept: the arguments broadcast together; each call of ``f`` gets one element
of each (a NumPy scalar there, a 0-d tensor here); a tuple result is several outputs; the
outputs' dtypes are ``otypes`` when given (each result cast to it), else the dtype of the
result for the first element. That last rule makes NumPy's dtype depend on the first
element's path through ``f`` when its paths give different dtypes (``0 if a < 0 else a``
on floats: int64 when the first element is negative, its floats truncated); a traced
``f`` has one dtype for every element, so such an ``f`` (a branch or loop merge whose
dtype depends on the path, control.py's ``noting_path_dtypes``) is refused without
``otypes``. Size-0 arguments without ``otypes`` are NumPy's ValueError; without
``otypes`` NumPy calls ``f`` on the first elements once more, first (to learn the dtypes),
and so does the kernel (dead code unless ``f`` prints or calls back).
``excluded``, ``signature`` and keyword arguments are not staged (refused by name).

Reached from converted code (autograph/runtime/numpy_calls.py) when a vectorize object,
``np.vectorize(f)`` or ``@np.vectorize``, is called with a symbolic tensor.

``np.apply_along_axis(f, axis, arr, *args, **kwargs)``: ``f`` (converted) maps over the
1-D slices along ``axis`` (the axis moved last, the others raveled: one element each), its
result's dims placed at ``axis`` as NumPy places them; a tuple result is stacked, as
``np.asanyarray`` makes it one array. NumPy takes the dtype and shape of the first slice's
result for all, so a path-dependent dtype is refused as above; empty iteration dims are
NumPy's ValueError.
"""
import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import control, nest
from . import numpy_api as npa
from .numpy_composites import static_int
from .numpy_flat import value_of
from .numpy_matrices import moveaxis
from .numpy_more import broadcast_arrays
from .ops.dispatch import convert_to_tensor, size_of
from .ops.registry import public
from .python_numbers import check
from .tensor import SymbolicTensor
from .vectorized_map import map_spread


def _mapped(fn, elems, args=(), kwargs=None, what="np.vectorize"):
    """``map_spread``, refusing an ``fn`` whose result dtype depends on its path."""
    with control.noting_path_dtypes() as merges:  # (fn converted as any the user calls)
        result = map_spread(fn, elems, args, kwargs)
    if merges:
        raise NotImplementedError(
            f"{what} of {getattr(fn, '__name__', 'a function')}: the dtype of its result "
            f"depends on the path it takes ({merges[0]}), and NumPy gives the whole output "
            f"the dtype of the first element's result; "
            + ("pass otypes= (e.g. np.vectorize(f, otypes=[float])) or make every path "
               "give one dtype" if what == "np.vectorize" else
               "make every path give one dtype (a cast: float(...), .astype)"))
    return result


def _otypes(vec):
    if vec.otypes is None:
        return None
    return [np.dtype(t) for t in vec.otypes]


def call(vec, args, kwargs):
    """``vec(*args, **kwargs)`` for a ``np.vectorize`` object ``vec`` (see the module
    docstring)."""
    if kwargs or vec.excluded or vec.signature is not None:
        raise NotImplementedError("np.vectorize with keyword arguments, excluded= or "
                                  "signature= is not staged on tensors; pass the arguments "
                                  "by position (or use ag.vectorized_map)")
    if not args:
        raise TypeError("np.vectorize: the function needs at least one argument")
    otypes = _otypes(vec)
    xs = broadcast_arrays(*[value_of(a) if isinstance(a, SymbolicTensor)
                                else convert_to_tensor(a) for a in args])
    shape = xs[0].shape
    elems = tuple(npa.ravel(value_of(x)) for x in xs)
    if otypes is None:
        check(size_of(elems[0], 0) > 0,
              "cannot call `vectorize` on size 0 inputs unless `otypes` is set", "ValueError")

    if otypes is None:
        # (NumPy calls f on the first elements once more, first, to learn the output
        # dtypes: its prints and callbacks happen twice for them; a pure f's extra call
        # leaves the kernel as dead code)
        _mapped(vec.pyfunc, tuple(e[:1] for e in elems))
        result = _mapped(vec.pyfunc, elems)
    else:  # (each result cast to otypes: no path's dtype shows)
        result = map_spread(vec.pyfunc, elems)
    outs = list(result) if isinstance(result, tuple) else [result]
    if otypes is not None:
        if len(otypes) != len(outs):
            raise ValueError(f"Invalid number of outputs: np.vectorize's otypes has "
                             f"{len(otypes)} and the function returned {len(outs)}")
        outs = [npa.astype(o, t) if o.dtype != t else o for o, t in zip(outs, otypes)]
    outs = [npa.reshape(o, shape) for o in outs]
    return nest.pack_as(result, outs) if isinstance(result, tuple) else outs[0]


@public("np.apply_along_axis")
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    x = value_of(arr) if isinstance(arr, SymbolicTensor) else convert_to_tensor(arr)
    axis = normalize_axis_index(static_int(axis, "np.apply_along_axis's axis"), x.ndim)
    moved = moveaxis(x, axis, -1)
    outer = [size_of(moved, k) for k in range(x.ndim - 1)]
    for n in outer:
        check(n > 0, "Cannot apply_along_axis when any iteration dimensions are 0",
              "ValueError")
    rows = npa.reshape(value_of(moved), (npa.size_product(moved, range(x.ndim - 1)),
                                         size_of(moved, x.ndim - 1)))
    result = _mapped(func1d, (rows,), args, kwargs, "np.apply_along_axis")
    out = npa.stack(list(result), axis=1) if isinstance(result, tuple) else result
    dims = out.ndim - 1  # (the result's own dims, after the rows')
    out = npa.reshape(out, tuple(outer) + tuple(size_of(out, 1 + k) for k in range(dims)))
    order = (list(range(axis)) + list(range(len(outer), len(outer) + dims))
             + list(range(axis, len(outer))))
    return npa.transpose(out, tuple(order))
