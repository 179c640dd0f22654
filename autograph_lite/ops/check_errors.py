"""The exceptions a staged check raises, plain and with the state of its point (a leaf
module: the ops, the cpu kernels' runtime and partial_raise.py all import it)."""

import threading

# The exceptions a staged check may raise: a failed `assert`, the read of a variable a
# staged loop or `del` may have left unset (autograph/runtime/variables.py), the ops' own
# checks, and a `raise` under a tensor condition (autograph/runtime/conditionals.py).
CHECK_ERRORS = {e.__name__: e for e in (
    AssertionError, UnboundLocalError, NameError, ZeroDivisionError, ValueError,
    OverflowError, IndexError, TypeError, KeyError, LookupError, RuntimeError,
    NotImplementedError, ArithmeticError, FloatingPointError, StopIteration, AttributeError,
    RecursionError, ImportError, ModuleNotFoundError, EOFError, BufferError, Exception)}
# (not OSError and its kind: OSError(a, b, c) keeps only (a, b) as its args, where a failed
# check's state travels; refused as the user's own classes are)


def is_check_error(e):
    """Whether a staged check can raise ``e``'s type (a builtin one of CHECK_ERRORS)."""
    return CHECK_ERRORS.get(type(e).__name__) is type(e)


def stand_in(e):
    """The name of the builtin error a staged check raises for ``e``: its own type's, or,
    for NumPy's own subclass of one (its UFuncTypeError, a TypeError), the nearest one it
    derives from, the call raising (a copy of) ``e`` itself once the check fails
    (partial_raise.py); None for any other exception (a kernel cannot raise it)."""
    if is_check_error(e):
        return type(e).__name__
    if (type(e).__module__ or "").split(".")[0] != "numpy":
        return None
    for base in type(e).__mro__[1:]:
        if CHECK_ERRORS.get(base.__name__) is base and base is not Exception:
            return base.__name__
    return None


class Partial(Exception):
    """A failed staged check with the state of its point of the program (partial_raise.py):
    ``args`` are (message, plan index, values); one subclass per error of CHECK_ERRORS, so
    one that escaped every handler is still the user's kind of error."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


# (module attributes: kernels raise them by name, ``rt.Partial_AssertionError``, and
# Numba's cache pickles them by module and name)
PARTIAL = {}
for _name, _error in CHECK_ERRORS.items():
    _cls = type(f"Partial_{_name}", (Partial, _error), {"__module__": __name__})
    globals()[_cls.__name__] = PARTIAL[_name] = _cls


# A callback that raises where the function holds state (ops/callback.py, guarded): its
# exception waits here while the kernel's check after the call hands the state back; the
# check's plan names ``CallbackRaised`` as its exception, and the call raises this one.
class _Raised(threading.local):
    exc = None


RAISED = _Raised()


class CallbackRaised:
    """The ``exception`` of a plan (partial_raise.py) whose check follows a guarded
    callback: the call raises the callback's own exception (``RAISED``)."""
