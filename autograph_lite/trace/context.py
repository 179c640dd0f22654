"""The innermost Graph being traced, per thread (two threads may trace different Functions)."""
import threading
from contextlib import contextmanager

class _State(threading.local):
    graph = None  # a class default: reading it needs no getattr fallback (hot path)


_state = _State()


def current_graph():
    return _state.graph


def is_tracing():
    return _state.graph is not None


@contextmanager
def graph_scope(graph):
    """Makes ``graph`` the target of staged ops for the duration of the block."""
    prev = _state.graph
    _state.graph = graph
    try:
        yield graph
    finally:
        _state.graph = prev


@contextmanager
def eager_scope():
    """Runs ops eagerly even inside a trace (used by run_functions_eagerly and callbacks)."""
    prev = _state.graph
    _state.graph = None
    try:
        yield
    finally:
        _state.graph = prev
