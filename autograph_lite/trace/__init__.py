"""Tracing: the stack of Graphs being built, and turning Python values into graph Values."""
from .context import current_graph, graph_scope, is_tracing  # noqa: F401
