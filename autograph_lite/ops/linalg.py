"""np.linalg.solve, inv, det and cholesky: one op each, NumPy (LAPACK) as the eager kernel, an LU
with partial pivoting in the cpu runtime (backends/cpu_runtime.py says why not Numba's).

NumPy's types: integers and booleans are solved in float64, float32 and complex64 in their
own precision; the singular test is LAPACK's (an exactly zero pivot: "Singular matrix"),
and NaNs propagate instead of raising. The ops take one matrix; stacks of matrices (rank
> 2) are a vectorized_map of them (numpy_composites.py).
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType
from .registry import defop


def solve_dtype(*ts):
    """NumPy linalg's computation dtype: float64 for integers, else the inexact type."""
    dt = np.result_type(*[t.dtype for t in ts])
    if dt.kind in "iub":
        return dtypes.float64
    if dt == np.float16:
        raise NotImplementedError("np.linalg of float16 arrays (NumPy: array type float16 is "
                                  "unsupported in linalg) is not staged")
    return dt


def _matrix(t, what):
    if t.ndim != 2:
        if t.ndim > 2:
            raise NotImplementedError(f"np.linalg.{what} of a stack of matrices (rank "
                                      f"{t.ndim}) is not staged; loop over the matrices")
        raise np.linalg.LinAlgError(f"{t.ndim}-dimensional array given. Array must be at "
                                    f"least two-dimensional")
    n, m = t.shape
    if n is not None and m is not None and n != m:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def _solve_infer(in_types):
    a, b = in_types
    _matrix(a, "solve")
    if b.ndim not in (1, 2):
        raise NotImplementedError(f"np.linalg.solve with a rank-{b.ndim} right-hand side is "
                                  f"not staged")
    n, nb = a.shape[0], b.shape[0]
    if n is not None and nb is not None and n != nb:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {nb} is different from {n})")
    return [TensorType(solve_dtype(a, b), b.shape)]


def _one_matrix_infer(what, scalar):
    def infer(in_types):
        a = in_types[0]
        _matrix(a, what)
        dt = solve_dtype(a)
        return [TensorType(dt, () if scalar else a.shape)]
    return infer


def _call_lower(helper):
    def lower(em, node):
        return f"rt.{helper}({', '.join(em.name(v) for v in node.inputs)})"
    return lower


defop("solve", infer=_solve_infer, eager=lambda a, b: np.linalg.solve(a, b),
      lower=_call_lower("solve"),
      doc="np.linalg.solve(a, b): 2-D a, 1-D or 2-D b, in the result dtype")
defop("inv", infer=_one_matrix_infer("inv", False), eager=lambda a: np.linalg.inv(a),
      lower=_call_lower("inv"), doc="np.linalg.inv of a 2-D matrix")
defop("det", infer=_one_matrix_infer("det", True), eager=lambda a: np.linalg.det(a)[()],
      lower=_call_lower("det"), doc="np.linalg.det of a 2-D matrix")
defop("cholesky", infer=_one_matrix_infer("cholesky", False),
      eager=lambda a: np.linalg.cholesky(a), lower=_call_lower("cholesky"),
      doc="np.linalg.cholesky of a 2-D (Hermitian) positive-definite matrix: lower L")
