"""Where in the user's code a runtime operator was called from, for error messages."""

import sys
from contextlib import contextmanager

from autograph_lite.autograph.pyct import origin


def caller(depth=2):
    """'file:line' of the user statement behind the generated call `depth` frames up."""
    return origin.user_location(sys._getframe(depth))


@contextmanager
def located(what, loc):
    """A TypeError/ValueError raised while the core stages ``what`` (e.g. "staged `if`")
    names the user's line ``loc`` once: '... (in the staged `if` at file:line)'."""
    try:
        yield
    except (TypeError, ValueError) as e:
        if loc in str(e) or getattr(e, "ag_user_raise", False):  # (the user's: as it is)
            raise
        try:
            again = type(e)(f"{e} (in the {what} at {loc})")
        except Exception:  # noqa: BLE001 - (NumPy's casting errors take more arguments)
            raise e from None
        raise again from e


def named(name):
    """A state name as an error message shows it: `'x'`, or for the variable the return
    converter makes (`retval_`, `retval_[1]`: converters/return_statements.py) "the return
    value" (session 54: messages named `'retval_'`)."""
    base = name.split("[", 1)[0]
    if base.rstrip("_0123456789") == "retval":
        rest = name[len(base):]
        return f"the return value{' item ' + rest if rest else ''}"
    return f"'{name}'"
