"""The innermost Graph being traced, per thread (two threads may trace different Functions)."""
import threading
from contextlib import contextmanager

_state = threading.local()


def current_graph():
    return getattr(_state, "graph", None)


def is_tracing():
    return getattr(_state, "graph", None) is not None


@contextmanager
def graph_scope(graph):
    """Makes ``graph`` the target of staged ops for the duration of the block."""
    prev = getattr(_state, "graph", None)
    _state.graph = graph
    try:
        yield graph
    finally:
        _state.graph = prev


@contextmanager
def eager_scope():
    """Runs ops eagerly even inside a trace (used by run_functions_eagerly and callbacks)."""
    prev = getattr(_state, "graph", None)
    _state.graph = None
    try:
        yield
    finally:
        _state.graph = prev
