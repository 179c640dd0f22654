"""How deep the trace is inside staged regions (branches, loop bodies) autograph opened."""

import contextlib

from autograph_lite.autograph.runtime import where

_DEPTH = [0]


@contextlib.contextmanager
def region():
    _DEPTH[0] += 1
    try:
        yield
    finally:
        _DEPTH[0] -= 1


def try_stmt_guard():
    """Raises when a `try` is about to run inside a staged branch or loop (SPEC 3)."""
    if _DEPTH[0]:
        raise NotImplementedError(
            f"a `try` statement cannot be staged: the `try` at {where.caller()} is inside an "
            f"`if` or loop whose condition is a tensor; move it out of the staged block")
