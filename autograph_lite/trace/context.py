"""The innermost Graph being traced, per thread (two threads may trace different Functions)."""
import threading
from contextlib import contextmanager

class _State(threading.local):
    graph = None  # a class default: reading it needs no getattr fallback (hot path)


_state = _State()

# How many reasons there are, in any thread, not to take a Function's call fast path (open
# graph scopes, eager mode). The fast path reads one list item instead of a thread-local;
# when this is non-zero every call takes the slow path, which checks the calling thread's
# own state exactly. Changed under a lock: a lost update would leave the fast path enabled
# inside a trace (a nested defun would run its kernel at trace time).
fast_path_blockers = [0]
_blockers_lock = threading.Lock()


def block_fast_path(delta):
    with _blockers_lock:
        fast_path_blockers[0] += delta


def current_graph():
    return _state.graph


def is_tracing():
    return _state.graph is not None


@contextmanager
def graph_scope(graph):
    """Makes ``graph`` the target of staged ops for the duration of the block."""
    prev = _state.graph
    _state.graph = graph
    block_fast_path(1)
    try:
        yield graph
    finally:
        _state.graph = prev
        block_fast_path(-1)


@contextmanager
def eager_scope():
    """Runs ops eagerly even inside a trace (used by run_functions_eagerly and callbacks)."""
    prev = _state.graph
    _state.graph = None
    try:
        yield
    finally:
        _state.graph = prev
