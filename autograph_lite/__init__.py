"""autograph_lite: ordinary NumPy-style Python, compiled per signature with Numba.

``import autograph_lite as ag``; see SPEC.md for the contract. Importing this package does
not import Numba: the first compile does. The op names (``ag.add``, ``ag.reduce_sum``,
``ag.cond``, ``ag.py_func``, the ``ag.math``/``ag.nn``/``ag.random`` names) and the Tensor
methods are made from the op table by ``front_door.install()`` below.
"""
from . import dtypes
from .dtypes import (bool_, complex64, complex128, float16, float32, float64,  # noqa: F401
                     int8, int16, int32, int64, uint8, uint16, uint32, uint64)
from .tensor import Tensor, TensorSpec, is_tensor  # noqa: F401
from . import ops as _ops  # noqa: F401  (the op table: the entries claim their names)
from .ops.dispatch import constant, convert_to_tensor  # noqa: F401
from . import mutation as _mutation  # noqa: F401  (NumPy's aliasing, on the dispatcher)
from .variables import Variable  # noqa: F401  (state compiled code reads by reference)
from . import numpy_api as _numpy_api, numpy_composites as _composites  # noqa: F401
from . import python_numbers as _python_numbers  # noqa: F401  (Python's + - * ** / // %)
from . import (numpy_calculus as _calculus, numpy_matrices as _matrices,  # noqa: F401
               numpy_selection as _selection, numpy_statistics as _statistics)
from . import numpy_more as _more  # noqa: F401  (after the modules it composes)
from . import numpy_flat as _flat, numpy_spaces as _spaces  # noqa: F401  (x.flat, logspace)
from . import numpy_out as _out  # noqa: F401  (out= of functions that are not ufuncs)
from . import control as _control  # noqa: F401  (ag.cond, ag.while_loop)
from . import vectorized_map as _vectorized_map  # noqa: F401  (ag.vectorized_map)
from . import numpy_vectorize as _vectorize  # noqa: F401  (np.vectorize on tensors)
from . import gradients as _gradients  # noqa: F401  (grad rules; ag.gradients)
from .function import Function, defun, run_functions_eagerly, functions_run_eagerly  # noqa: F401
from .api import core as _core, math, nn, optimizers, random  # noqa: F401
from . import modules as _modules  # noqa: F401  (ag.Module, ag.optimizers.*)
from .api import callbacks as _callbacks  # noqa: F401  (ag.py_func, ag.py_function)
from . import front_door as _front_door

_front_door.install()
function = defun
__version__ = "0.1.0"


def __getattr__(name):
    # AutoGraph entry points live in their own package; imported on first use.
    if name in ("to_code", "to_graph", "do_not_convert", "set_loop_options"):
        from . import autograph
        return getattr(autograph, name)
    raise AttributeError(f"module 'autograph_lite' has no attribute {name!r}")
