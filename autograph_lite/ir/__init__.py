"""The traced program: Graph, Node, Value and TensorType (see graph.py)."""
from .types import TensorType  # noqa: F401
from .graph import Graph, Node, Value  # noqa: F401
