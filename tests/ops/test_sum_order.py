"""Float sums in NumPy's order, bit for bit (ops/reduce.py `_pairwise_sum`).

NumPy adds a float array in blocks of at most 128 elements, 8 lanes each, splitting a
longer run in two; a reduction that casts adds per buffer of 8,192 elements. A kernel that
added from left to right differed from NumPy in the last bits (`x.sum()`, `np.mean`,
`np.var`/`np.std` built on them: a float32 mean of 1,001 elements was 1 ulp off), which the
suite's tolerances hid; here every result is compared exactly.
"""
import numpy as np
import pytest

import autograph_lite as ag
from differential import agree, shared_functions

# sizes at the edges of the order: below 8 (one lane), 8 lanes, a block of 128, the first
# split, several levels of splits, and a buffer's 8,192 for casting sums
SIZES = (0, 1, 7, 8, 9, 127, 128, 129, 136, 257, 1001, 8193, 20011)


def _wide(rng, shape, dtype):
    """Values over twelve decades, so that any other order of additions shows."""
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-6, 6, shape)).astype(dtype)


def vector_sums(x):
    return (x.sum(), np.mean(x), np.var(x), x.std(), np.sum(x * x + 1.0),
            np.sum(x, keepdims=True), np.add.reduce(x))


def cast_sums(x):
    return np.sum(x, dtype=np.float64), np.mean(x, dtype=np.float64), np.mean(x)


VECTOR = shared_functions(vector_sums)
CAST = shared_functions(cast_sums)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_vector_sums_are_numpys_bit_for_bit(dtype):
    rng = np.random.default_rng(11)
    agree(vector_sums, calls=[(_wide(rng, n, dtype),) for n in SIZES], functions=VECTOR,
          exact=True)


def test_sums_that_cast_add_per_buffer_as_numpy_does():
    # float32 and int64 elements summed in float64: NumPy casts 8,192 at a time and adds
    # each buffer's pairwise sum to the result (one pairwise sum of all differs past 8,192)
    rng = np.random.default_rng(12)
    agree(cast_sums, calls=[(_wide(rng, n, np.float32),) for n in (9, 8192, 8193, 20011)],
          functions=CAST, exact=True)
    agree(cast_sums, calls=[(rng.integers(-2 ** 60, 2 ** 60, n),) for n in (5, 8193, 20011)],
          functions=CAST, exact=True)


def matrix_sums(m):
    return (m.sum(), np.mean(m), m.sum(axis=-1), m.mean(axis=1), m.sum(axis=0),
            np.var(m, axis=-1), np.sum(m, keepdims=True), m.sum(axis=-1, keepdims=True),
            ((m - 1.0) ** 2).mean(axis=-1), m[:, 1:].sum(axis=1), m[1:, ::2].sum(axis=-1),
            m.T.sum())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matrix_sums_are_numpys_bit_for_bit(dtype):
    # all of a C array: one run over its elements; its last axis (also of a sliced view,
    # or of an elementwise expression): one run per row; axis 0: row after row, as
    # NumPy's loop adds them. (All of an elementwise expression of rank 2, `m.std()`,
    # stays a fused loop in index order: README.)
    rng = np.random.default_rng(13)
    agree(matrix_sums, calls=[(_wide(rng, s, dtype),) for s in ((3, 5), (7, 129), (37, 300),
                                                                 (2, 9000))], exact=True)


def test_a_sum_in_another_dtype_differentiates_in_the_input_dtype():
    x = np.linspace(0.5, 2.0, 5, dtype=np.float32)
    for fn, want in ((lambda v: np.sum(v * v, dtype=np.float64), 2 * x),
                     (lambda v: np.mean(v, dtype=np.float64), np.full(5, 0.2, np.float32))):
        for backend in ("interpreter", "cpu"):
            g = ag.defun(lambda v: ag.gradients(fn(v), v)[0], backend=backend)(x)
            assert g.dtype == np.float32
            np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)
