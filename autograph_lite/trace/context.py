"""The innermost Graph being traced and the open device placement, per thread (two threads
may trace different Functions, each in its own ``ag.device`` scopes)."""
import threading
from contextlib import contextmanager


class _State(threading.local):
    graph = None  # a class default: reading it needs no getattr fallback (hot path)
    device = None  # the innermost ``ag.device`` scope's device: None, "cpu" or "cuda"


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


def current_device():
    """The device the nodes traced now are placed on: None (unplaced), "cpu" or "cuda"
    (Graph.add_node records it on each Node; the cuda backend reads ``node.device``)."""
    return _state.device


@contextmanager
def device_scope(name):
    """Places the nodes traced in the block on ``name`` (None, "cpu" or "cuda"; already
    canonical)."""
    prev = _state.device
    _state.device = name
    try:
        yield
    finally:
        _state.device = prev
