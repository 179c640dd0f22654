"""Every public name, made from the op table's ``PUBLIC`` (ops/registry.py) and nothing else.

An op entry lists its names (``names=("np.add", "ag.add", "ag.math.add",
"Tensor.__add__", "Tensor.__radd__", "Tensor.__iadd__")``) and a front function claims
its own with ``@public``. ``install()`` (run once, at the end of the package's import)
turns them into:
- the ``ag``, ``ag.math``, ``ag.nn`` and ``ag.random`` names: a one-op name is
  ``f(*tensors, name=None)`` (TensorFlow's signature), a front is itself;
- the Tensor methods, operators and properties (tensor.py is a bottom-layer data class):
  ``__rX__`` swaps the operands, ``__iX__`` writes in place (mutation.augmented) and is
  attached to symbolic tensors only (an ``ag.Tensor`` is immutable, as in TensorFlow).
NumPy's protocol tables (``np.*``) are read from the same table by numpy_api.py.
See docs/architecture.md, "Adding an op".
"""
import functools
import operator
import sys

import numpy as np

from . import mutation
from .numpy_api import call_front
from .ops.dispatch import apply
from .ops.registry import NAMESPACES, PUBLIC
from .tensor import SymbolicTensor, Tensor


def op_function(op, attr):
    """``ag.<attr>``/``ag.math.<attr>`` for one op: ``f(*tensors, name=None)``."""
    def fn(*tensors, name=None):
        return apply(op, *tensors)
    fn.__name__ = fn.__qualname__ = attr
    fn.__doc__ = f"The op {op!r} on the tensors (ops/ table), as TensorFlow's {attr}."
    return fn


def _binary_operator(attr):
    """``"__add__"`` for ``__radd__``/``__iadd__`` (a Python binary operator's reflected
    or in-place form), else None."""
    base = "__" + attr[3:]
    return base if attr[:3] in ("__r", "__i") and hasattr(operator, base) else None


def op_method(op, attr):
    """The Tensor operator ``attr`` for one op."""
    form = attr[:3] if _binary_operator(attr) else ""
    if form == "__r":
        def method(x, o):
            return apply(op, o, x)
    elif form == "__i":
        def method(x, o):
            return mutation.augmented(x, op, o)
    elif attr in ("__eq__", "__ne__"):
        ne = attr == "__ne__"

        def method(x, o):
            if o is None:  # (NumPy's: nothing equals None, elementwise; `t.count(None)`
                # of a tuple of tensors, whose C code calls this, raised on dtype object):
                # known while tracing where the shape is
                if None not in x.shape:
                    return np.full(x.shape, ne)[()]
                return apply("logical_or" if ne else "logical_and", apply("equal", x, x), ne)
            return apply(op, x, o)
    else:
        def method(x, *operands):
            return apply(op, x, *operands)
    method.__name__ = method.__qualname__ = attr
    return method


def public_object(entry):
    """What a public name is bound to: the front itself, or the function made for its op."""
    if entry.impl is not None:
        return entry.impl
    attr = entry.name.rsplit(".", 1)[1]
    return (op_method if entry.name.startswith("Tensor.") else op_function)(entry.op, attr)


def _at_user_line(front, attr):
    """A Tensor method as the np.* fronts are called (numpy_api.array_function): its
    refusal names the user's line, ``out=`` takes the NumPy function's rule
    (numpy_out.py: ``m.sum(axis=0, out=acc)``), a keyword it does not take is refused by
    name."""
    func, name = getattr(np, attr, None), f"x.{attr}"

    @functools.wraps(front)
    def method(*args, **kwargs):
        return call_front(front, func, args, kwargs, name)
    return method


INSTALLED = {}  # public name -> (the class or module, attribute, the object bound there)


def install():
    """Binds every ``ag.*`` and ``Tensor.*`` name of the table (idempotent)."""
    for name, entry in PUBLIC.items():
        if name.startswith("np.") or name in INSTALLED:
            continue  # (numpy_api.py reads the np names itself)
        obj = public_object(entry)
        if name.startswith("Tensor."):
            attr = name[len("Tensor."):]
            if entry.impl is not None and callable(obj) and not attr.startswith("__"):
                obj = _at_user_line(obj, attr)
            owner = SymbolicTensor if attr[:3] == "__i" and _binary_operator(attr) else Tensor
        else:
            prefix, module = next((p, m) for p, m in NAMESPACES.items()
                                  if m and name.startswith(p))
            owner, attr = sys.modules[module], name[len(prefix):]
        setattr(owner, attr, obj)
        INSTALLED[name] = (owner, attr, obj)
