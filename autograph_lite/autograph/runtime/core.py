"""Late access to the core (tensors, control flow, ops), so autograph imports without it.

`autograph_lite/__init__.py` may import this package while it is itself importing, so
nothing from the core is imported at module level. Until the core exists every value
is a Python value and all these helpers answer "not a tensor".
"""

import importlib
import numbers
import sys

import numpy as np

_TRIED = set()


def _module(name):
    """The module if it is (or can be) imported; a failed import is tried only once, later
    calls just look in sys.modules (the core may be imported after us)."""
    mod = sys.modules.get(name)
    if mod is None and name not in _TRIED:
        _TRIED.add(name)
        try:
            mod = importlib.import_module(name)
        except ImportError:
            mod = None
    return mod


def module(name):
    return _module(name)


def tensor_module():
    return _module("autograph_lite.tensor")


def is_symbolic(x):
    mod = tensor_module()
    return mod is not None and mod.is_symbolic(x)


def is_tensor(x):
    mod = tensor_module()
    return mod is not None and mod.is_tensor(x)


def control():
    mod = _module("autograph_lite.control")
    if mod is None:
        raise RuntimeError("autograph_lite.control is missing: cannot stage control flow")
    return mod


def ag():
    """The public `autograph_lite` namespace (ops such as ag.cast, ag.print)."""
    return _module("autograph_lite")


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


def dtype_of(x):
    return getattr(x, "dtype", None)


def rank_of(x):
    if isinstance(x, numbers.Number):
        return 0
    return getattr(x, "ndim", None)


def concrete_shape(shape):
    """`shape` with unknown (None) sizes as 0: the shape of a stand-in value of its type."""
    return tuple(0 if d is None else d for d in shape)
