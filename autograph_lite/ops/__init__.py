"""The op table (registry.py) and its entries, one module per family."""
from .registry import OPS, OpDef, defop, lookup  # noqa: F401
from . import elementwise, reduce, shape, indexing, creation, random, control, io  # noqa: F401,E402
from . import adjoint, callback, linalg, lists, signal, sorting, vmap  # noqa: F401,E402
from .dispatch import apply  # noqa: F401,E402
