"""Where in the user's code a runtime operator was called from, for error messages."""

import sys

from autograph_lite.autograph.pyct import origin


def caller(depth=2):
    """'file:line' of the user statement behind the generated call `depth` frames up."""
    frame = sys._getframe(depth)
    while frame is not None:
        found = origin.lookup(frame.f_code.co_filename, frame.f_lineno)
        if found is not None:
            return f"{found[0]}:{found[1]}"
        if not origin._is_internal(frame.f_code.co_filename):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"
