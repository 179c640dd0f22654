"""What AutoGraph's runtime asks of a value: is it a tensor (symbolic: staged), can a
staged cond or loop carry it, its dtype and rank. The runtime imports the core's modules
directly (the core never imports AutoGraph at module level: ``autograph_lite/__init__.py``
loads it on first use, so the core is complete by then)."""

import numbers

import numpy as np

from autograph_lite import dtypes, storage
from autograph_lite.tensor import is_symbolic, is_tensor  # noqa: F401  (the runtime's names)


def is_tensor_like(x):
    """Values a staged cond/loop can carry: tensors, arrays, NumPy and Python numbers."""
    return is_tensor(x) or isinstance(x, (np.ndarray, np.generic, numbers.Number))


def is_carriable(x):
    """Tensor-like values and tuples/dicts of them: what cond/while_loop can carry."""
    if isinstance(x, tuple):
        return all(is_carriable(v) for v in x)
    if isinstance(x, dict):
        return all(is_carriable(v) for v in x.values())
    return is_tensor_like(x)


# The iterators over a Python sequence (each walks a list it holds: `iter([acc])`), and
# with them those over ranges and dicts: finite, so a zip may take their items at once.
SEQUENCE_ITERATORS = (type(iter([])), type(iter(())), type(reversed([])))
FINITE_ITERATORS = SEQUENCE_ITERATORS + (reversed, type(iter(range(0))), type(iter({})),
                                         type(iter({}.values())), type(iter({}.items())))


def dtype_of(x):
    return getattr(x, "dtype", None)


def rank_of(x):
    if isinstance(x, numbers.Number):
        return 0
    return getattr(x, "ndim", None)


def concrete_shape(shape):
    """`shape` with unknown (None) sizes as 0: the shape of a stand-in value of its type."""
    return tuple(0 if d is None else d for d in shape)


def numpy_type(x):
    """The type a symbolic tensor's value has when the function runs as plain NumPy code:
    np.ndarray for an array, and for a 0-d tensor the NumPy scalar type of its dtype
    (indexing, reductions and ufuncs of NumPy give scalars), except a 0-d array passed as
    an argument, which stays an ndarray; a weak 0-d tensor stands for a Python number
    (a relaxed Python argument, `len`, a range counter), whose type it is."""
    if rank_of(x) != 0:
        return np.ndarray
    kind = np.dtype(x.dtype).kind
    if x.type.weak and kind in "biufc":
        return dtypes.weak_python_type(x.dtype)
    if storage.is_argument_itself(x):
        return np.ndarray
    return np.dtype(x.dtype).type


def type_name(x):
    """The name Python's errors give the type ``x`` has in the plain run (`numpy.float64`,
    `float` for a Python number, `list`)."""
    t = numpy_type(x) if is_symbolic(x) else type(x)
    return f"numpy.{t.__name__}" if t.__module__ == "numpy" else t.__name__
