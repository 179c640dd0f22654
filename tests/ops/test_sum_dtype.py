"""`np.sum(x, dtype=...)` and `np.mean(x, dtype=...)` in a float dtype other than x's: the op's
own accumulation dtype (numpy_api._reduce), the elements cast as they are summed, as
NumPy's; its gradient is in the input's dtype."""
import numpy as np

import autograph_lite as ag
from differential import agree, shared_functions


def cast_sums(x):
    return np.sum(x, dtype=np.float64), np.mean(x, dtype=np.float64), np.mean(x)


CAST = shared_functions(cast_sums)


def test_sums_in_another_dtype_agree_with_numpy():
    rng = np.random.default_rng(12)
    agree(cast_sums, calls=[(rng.random(n).astype(np.float32),) for n in (9, 1000)],
          functions=CAST)
    agree(cast_sums, calls=[(rng.integers(-2 ** 40, 2 ** 40, n),) for n in (5, 1000)],
          functions=CAST)


def test_a_sum_in_another_dtype_differentiates_in_the_input_dtype():
    x = np.linspace(0.5, 2.0, 5, dtype=np.float32)
    for fn, want in ((lambda v: np.sum(v * v, dtype=np.float64), 2 * x),
                     (lambda v: np.mean(v, dtype=np.float64), np.full(5, 0.2, np.float32))):
        for backend in ("interpreter", "cpu"):
            g = ag.defun(lambda v: ag.gradients(fn(v), v)[0], backend=backend)(x)
            assert g.dtype == np.float32
            np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)
