"""autograph_lite: ordinary NumPy-style Python, compiled per signature with Numba.

``import autograph_lite as ag``; see SPEC.md for the contract. Importing this package does
not import Numba: the first compile does.
"""
from . import dtypes
from .dtypes import (bool_, float16, float32, float64, int8, int16, int32, int64,  # noqa: F401
                     uint8)
from .tensor import Tensor, TensorSpec, constant, convert_to_tensor, is_tensor  # noqa: F401
from . import ops as _ops  # noqa: F401  (registers the op table)
from . import numpy_composites as _composites  # noqa: F401  (registers np.roll, np.var, ...)
from .control import cond, while_loop  # noqa: F401
from .function import Function, defun, run_functions_eagerly, functions_run_eagerly  # noqa: F401
from .api import math, nn, random  # noqa: F401
from .api.callbacks import eager_py_func, numpy_function, py_func, py_function  # noqa: F401
from .api.core import (abs, add, argmax, argmin, assert_, cast, clip_by_value,  # noqa: F401
                       concat, cumsum, divide, equal, exp, expand_dims, eye, fill, floordiv,
                       gather, greater, greater_equal, less, less_equal, linspace,
                       logical_and, logical_not, logical_or, matmul, maximum, minimum,
                       multiply, negative, not_equal, ones, ones_like, print, range, rank,
                       reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
                       reduce_prod, reduce_sum, reshape, setitem, shape, sign, size, split,
                       sqrt, square, squeeze, stack, subtract, transpose, where, zeros,
                       zeros_like)

function = defun
__version__ = "0.1.0"


def __getattr__(name):
    # AutoGraph entry points live in their own package; imported on first use.
    if name in ("to_code", "to_graph", "do_not_convert", "set_loop_options"):
        from . import autograph
        return getattr(autograph, name)
    raise AttributeError(f"module 'autograph_lite' has no attribute {name!r}")
