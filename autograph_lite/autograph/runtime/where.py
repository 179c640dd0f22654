"""Where in the user's code a runtime operator was called from, for error messages."""

import sys

from autograph_lite.autograph.pyct import origin


def caller(depth=2):
    """'file:line' of the user statement behind the generated call `depth` frames up."""
    return origin.user_location(sys._getframe(depth))
