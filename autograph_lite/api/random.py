"""ag.random: normal and uniform samples, fresh on every call; set_seed seeds every backend."""
import numpy as np

from .. import dtypes
from ..ops import creation, dispatch, registry


@registry.public("ag.random.normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    if seed is not None:
        set_seed(seed)
    static, dyn = creation.split_shape(shape)
    return dispatch.apply("random_normal", mean, stddev, *dyn, shape=static,
                          dtype=dtypes.as_dtype(dtype))


@registry.public("ag.random.uniform")
def uniform(shape, minval=0.0, maxval=1.0, dtype=dtypes.float32, seed=None, name=None):
    if seed is not None:
        set_seed(seed)
    static, dyn = creation.split_shape(shape)
    return dispatch.apply("random_uniform", minval, maxval, *dyn, shape=static,
                          dtype=dtypes.as_dtype(dtype))


@registry.public("ag.random.set_seed")
def set_seed(seed):
    """Seeds NumPy's global generator (eager, interpreter), Numba's (cpu kernels) and the
    cuda backend's device generator (another stream: cuda.CudaEmitter.drawn)."""
    np.random.seed(seed)
    from ..backends import cpu_runtime, cuda_config
    cpu_runtime.seed(seed)
    cuda_config.RNG_SEED.update(seed=int(seed), version=cuda_config.RNG_SEED["version"] + 1)
