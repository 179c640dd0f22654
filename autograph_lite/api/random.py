"""ag.random: normal and uniform samples, fresh on every call; set_seed seeds every backend."""
import numpy as np

from .. import dtypes
from ..ops.creation import split_shape
from ..ops.dispatch import apply


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    if seed is not None:
        set_seed(seed)
    static, dyn = split_shape(shape)
    return apply("random_normal", mean, stddev, *dyn, shape=static,
                 dtype=dtypes.as_dtype(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=dtypes.float32, seed=None, name=None):
    if seed is not None:
        set_seed(seed)
    static, dyn = split_shape(shape)
    return apply("random_uniform", minval, maxval, *dyn, shape=static,
                 dtype=dtypes.as_dtype(dtype))


def set_seed(seed):
    """Seeds NumPy's global generator (eager, interpreter) and Numba's (compiled kernels)."""
    np.random.seed(seed)
    from ..backends import cpu_runtime
    cpu_runtime.seed(seed)
