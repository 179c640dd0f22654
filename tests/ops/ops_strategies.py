"""Hypothesis strategies shared by the op-table tests: small shapes, few dtypes.

Compile time dominates: a new rank or dtype compiles a new kernel, a new length of the
same rank reuses it. So shapes vary freely (sizes 0..5, ranks 0..3) and dtypes come
from short lists.
"""
import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

FLOATS = (np.float32, np.float64)
INTS = (np.int32, np.int64)
NUMERIC = FLOATS + INTS
ALL = NUMERIC + (np.bool_,)

# every property test: few examples, no deadline (the first example of a rank compiles)
SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=5):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def elements(dtype, nan=False, lo=-100, hi=100):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        finite = st.floats(lo, hi, allow_nan=False, width=dtype.itemsize * 8)
        return st.one_of(finite, st.just(np.nan)) if nan else finite
    if dtype.kind == "b":
        return st.booleans()
    return st.integers(lo, hi)


def arrays(dtype, shape, nan=False, lo=-100, hi=100):
    """An array of ``dtype``; a 0-d shape gives a NumPy scalar (a 0-d tensor argument)."""
    def fix(a):
        return a[()] if a.ndim == 0 else a
    return hnp.arrays(np.dtype(dtype), shape, elements=elements(dtype, nan, lo, hi)).map(fix)


def broadcastable_pair(max_dims=3):
    """Two shapes that broadcast together (possibly of different ranks)."""
    return hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=max_dims,
                                             max_side=4).map(lambda r: r.input_shapes)
