"""How deep the trace is inside staged regions (branches, loop bodies) autograph opened."""

import contextlib

from autograph_lite.autograph.runtime import where

_DEPTH = [0]


@contextlib.contextmanager
def region(loc=None):
    """Tracing a staged branch or loop body (of the statement at `loc`). An exception that
    leaves it is marked with where: raised there, it depends on tensor values (`caught`)."""
    _DEPTH[0] += 1
    try:
        yield
    except Exception as e:
        if getattr(e, "ag_staged_at", None) is None:
            try:
                e.ag_staged_at = loc or "a staged `if` or loop"
            except AttributeError:  # an exception type without a __dict__: not marked
                pass
        raise
    finally:
        _DEPTH[0] -= 1


def caught(exc):
    """The first statement of every converted `except` block (converters/exceptions.py).

    An exception raised while tracing a staged branch or loop body was raised on one path
    of a tensor-dependent choice that the trace cannot take: Python would raise it only
    when that path runs. Catching it at trace time would take the `except` block for
    every input, a silent difference, so that refuses (SPEC 3: what cannot be staged
    says so). Exceptions from plain Python code are caught as usual."""
    seen, e = set(), exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        staged_at = getattr(e, "ag_staged_at", None)
        if staged_at is not None:
            raise NotImplementedError(
                f"the `except` at {where.caller()} catches {type(exc).__name__} "
                f"({exc}) raised inside the staged `if` or loop at {staged_at}: whether it "
                f"is raised depends on tensor values, which exist only when the compiled "
                f"function runs, and a compiled function cannot raise into Python's "
                f"`try`. Decide with Python values before the `try`, or check the "
                f"condition with `assert` (raised at run time)") from exc
        e = e.__cause__ or e.__context__


def try_stmt_guard():
    """Raises when a `try` is about to run inside a staged branch or loop (SPEC 3)."""
    if _DEPTH[0]:
        raise NotImplementedError(
            f"a `try` statement cannot be staged: the `try` at {where.caller()} is inside an "
            f"`if` or loop whose condition is a tensor; move it out of the staged block")
