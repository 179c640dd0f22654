"""How deep the trace is inside staged regions (branches, loop bodies) autograph opened."""

import contextlib
import warnings

import numpy as np

from autograph_lite import errors, nest
from autograph_lite.autograph.runtime import where
from autograph_lite.ops import io
from autograph_lite.tensor import SymbolicTensor, Tensor
from autograph_lite.trace import context

_DEPTH = [0]
UNNAMED = "a staged `if` or loop"  # (where an exception left a region traced without a loc)


@contextlib.contextmanager
def region(loc=None):
    """Tracing a staged branch or loop body (of the statement at `loc`). An exception that
    leaves it is marked with where: raised there, it depends on tensor values (`caught`)."""
    _DEPTH[0] += 1
    try:
        yield
    except Exception as e:
        python_own(e)
        if getattr(e, "ag_staged_at", None) is None:
            try:
                e.ag_staged_at = loc or UNNAMED
            except AttributeError:  # an exception type without a __dict__: not marked
                pass
        raise
    finally:
        _DEPTH[0] -= 1


def active():
    """Whether a staged branch or loop body is being traced."""
    return _DEPTH[0] > 0


def global_write_guard(names, function=None):
    """First statement of a branch or loop body, or of a function (``function``: its
    name), that assigns module globals (`global COUNT; COUNT += 1`): where it is staged
    (the function called inside a staged block: `bump()` in a loop over a tensor), Python
    would change the module's variable on the runs that reach it, which a compiled
    function cannot do (it would keep the trace's value, silently): refused."""
    if _DEPTH[0]:
        block = (f"by the function '{function}' (at {where.caller()}), called inside a "
                 f"block that is staged" if function else
                 f"in the block starting at {where.caller()}, which is staged")
        raise NotImplementedError(
            f"the global '{names[0]}' is assigned {block} (inside an `if` or loop whose "
            f"condition is a tensor): a compiled function cannot change a module's "
            f"variable when it runs; return the value instead (or keep the condition a "
            f"Python value)")


def caught(exc):
    """The first statement of every converted `except` block (converters/exceptions.py).

    An exception raised while tracing a staged branch or loop body was raised on one path
    of a tensor-dependent choice that the trace cannot take: Python would raise it only
    when that path runs. Catching it at trace time would take the `except` block for
    every input, a silent difference, so that refuses (SPEC 3: what cannot be staged
    says so). Exceptions from plain Python code are caught as usual."""
    if getattr(exc, "ag_uncatchable", False) or _refusal(exc):
        raise exc  # (try_body's refusal: the `try` it names cannot be compiled at all)
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


# what Python's protocols raise and code probes with `try` (`hasattr`-like: a tensor's
# unstaged attribute is an AttributeError on purpose, tensor.UnstagedAttributeError)
_PROBES = (AttributeError, KeyError, StopIteration, StopAsyncIteration)


def _refusal(exc):
    """Whether ``exc`` is autograph_lite's own: raised by its code (its innermost frame
    one of ours), not marked as the user's, Python's or NumPy's own error (``python_own``,
    ``errors.numpy_error``): a refusal of what it does not stage (`x[True]`, `np.add.at`
    with a mask), which a user's `except IndexError:` / `except Exception:` would take
    for every input, a silent difference (session 46). It stays uncaught."""
    if getattr(exc, "ag_user_raise", False) or isinstance(exc, _PROBES):
        return False
    frame = _innermost_frame(exc)
    return frame is not None and frame.f_globals.get("__name__", "").startswith(
        "autograph_lite.")


def _innermost_frame(e):
    """The frame ``e`` was raised in (the last of its traceback), or None."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame if tb is not None else None


def discarded_by_finally(exc, returned):
    """An exception the body of a `try` raised while tracing, its `finally` run: discarded
    (Python's rule) when the `finally` returned (``returned``: the return flag), unless
    it is not the user's own (a refusal of ours, a name the trace lost): that would hide
    code that was not compiled (converters/exceptions.py)."""
    caught(exc)
    if not (returned and python_own(exc)):
        raise exc


def try_stmt_guard():
    """Raises when a `try` is about to run inside a staged branch or loop (SPEC 3)."""
    if _DEPTH[0]:
        raise NotImplementedError(
            f"a `try` statement cannot be staged: the `try` at {where.caller()} is inside an "
            f"`if` or loop whose condition is a tensor; move it out of the staged block")


@contextlib.contextmanager
def try_body(handler_types, clause="except"):
    """Around the body of a `try` with `except` blocks (converters/exceptions.py).

    A staged op of the body runs when the compiled function runs, after the trace, where
    Python's `try` no longer exists: an index out of bounds, a failed `assert`, shapes
    that do not broadcast, np.linalg's LinAlgError, anything a py_func raises, would
    leave the compiled function where plain Python takes the `except` block, a silent
    difference. So a body that staged ops, under `except` blocks that catch what those
    may raise (``io.may_raise``; anything, for a callback), is refused, naming the
    `try`'s line."""
    at = where.caller(3)  # (past contextlib's frame: the converted function's `with`)
    graph = context.current_graph()
    mark = len(graph.nodes) if graph is not None else 0
    yield
    if graph is None:
        return
    raising = set().union(*(io.may_raise(n) for n in graph.nodes[mark:]))
    if not raising:
        return
    # (a handler catching a subclass of what a callback raises may catch it too)
    risky = [t for t in _flatten(handler_types())
             if any(issubclass(e, t) or e is BaseException for e in raising)]
    if risky and clause == "finally":
        error = NotImplementedError(
            f"the `finally` of the `try` at {at} runs while tracing, after the code it "
            f"guards; that code (staged, on tensors) may raise only when the compiled "
            f"function runs (an index out of bounds, a failed `assert`, shapes that do not "
            f"broadcast, a callback's exception), and on such a run the `finally` block's "
            f"writes, calls or `return` would not happen: move the `try` around the call "
            f"of the compiled function, or do them before the guarded code")
        error.ag_uncatchable = True
        raise error
    if risky:
        error = NotImplementedError(
            f"the `try` at {at} catches {risky[0].__name__}, which the code it guards "
            f"(staged, on tensors) may raise only when the compiled function runs (an "
            f"index out of bounds, a failed `assert`, shapes that do not broadcast, a "
            f"callback's exception), where no Python `try` exists: check the condition "
            f"with tensor ops instead (`np.where`, a staged `if`), or move the `try` "
            f"around the call of the compiled function")
        error.ag_uncatchable = True
        raise error


def _harmless_exit(cm):
    """Whether ``cm``'s exit does nothing a run that raised would have to see."""
    kind = type(cm)
    return (isinstance(cm, (contextlib.nullcontext, np.errstate, warnings.catch_warnings))
            or (kind.__module__, kind.__name__) == ("autograph_lite.gradients.tape",
                                                    "GradientTape")  # (no import: a circle)
            or getattr(cm, "func", None) is getattr(context.device_scope, "__wrapped__", None))


class with_guard:
    """``with ag__.with_guard(cm) as v:`` (converters/with_statements.py): ``cm`` entered
    and exited as Python does, while tracing; a body that staged code which may raise only
    when the compiled function runs (``io.may_raise``) is refused unless ``cm``'s exit is
    harmless: on such a run its `__exit__` would not run (nor suppress the error)."""

    def __init__(self, cm):
        self.cm = cm

    def __enter__(self):
        self.at = where.caller(2)
        self.graph = context.current_graph()
        self.mark = len(self.graph.nodes) if self.graph is not None else 0
        self.harmless = _harmless_exit(self.cm)  # (before: a generator's forgets its func)
        return dunder(self.cm, "__enter__")()

    def __exit__(self, kind, value, tb):
        if kind is None and self.graph is not None:
            refusal = self._refusal()
            if refusal is not None:
                dunder(self.cm, "__exit__")(None, None, None)
                error = NotImplementedError(refusal)
                error.ag_uncatchable = True
                raise error
        return dunder(self.cm, "__exit__")(kind, value, tb)

    def _refusal(self):
        """Why the block that staged the graph's nodes since ``mark`` cannot be compiled
        under ``cm``, or None."""
        staged = self.graph.nodes[self.mark:]
        if not self.harmless and set().union(*(io.may_raise(n) for n in staged)):
            return (f"the `with` at {self.at}: its block's code (staged, on tensors) may "
                    f"raise only when the compiled function runs (an index out of bounds, a "
                    f"failed `assert`, shapes that do not broadcast, a callback's "
                    f"exception), and on such a run the context manager's `__exit__`, which "
                    f"ran while tracing, would not run (nor suppress the error); move the "
                    f"`with` around the call of the compiled function")
        if staged and _raising_errstate(self.cm):
            return (f"the `with np.errstate(...)` at {self.at} asks NumPy to raise (or call) "
                    f"on a floating-point error in code that is staged (on tensors): the "
                    f"compiled function's arithmetic gives inf/nan as Numba's does and never "
                    f"raises FloatingPointError; test the values instead (`if not np.all("
                    f"np.isfinite(y)): raise FloatingPointError(...)`)")
        return None


def dunder(obj, name):
    """The bound call of ``type(obj).name`` (looked up on the class, as Python's `with` and
    operators do), None where the class has none: a user's own function runs as converted
    code, as a method call does (its `if`s on tensors staged, its `isinstance` of the
    values'), anything else as it is (runtime/user_operators.py, ``with_guard``)."""
    method = getattr(type(obj), name, None)
    if method is None:
        return None
    if USER_METHOD(type(obj), name) is not None:
        return lambda *args: CONVERTED_CALL(method, (obj,) + args)
    return lambda *args: method(obj, *args)


# calls.converted_call and calls.user_method, installed by calls.py (which imports this)
CONVERTED_CALL = USER_METHOD = None


def _raising_errstate(cm):
    """Whether ``cm`` is an `np.errstate` that makes some floating-point error raise or
    call a function (NumPy's own attributes: all=, divide=, over=, under=, invalid=)."""
    return isinstance(cm, np.errstate) and any(
        getattr(cm, f"_{k}", None) in ("raise", "call")
        for k in ("all", "divide", "over", "under", "invalid"))


def _flatten(types):
    out = []
    for t in types if isinstance(types, tuple) else (types,):
        if isinstance(t, tuple):
            out += _flatten(t)
        elif isinstance(t, type) and issubclass(t, BaseException):
            out.append(t)
    return out


def user_raise(exc):
    """The exception of a user's `raise` (converters/raises.py) or failed Python `assert`,
    marked as the user's own, with whether it was raised inside a staged branch or loop
    body (``ag_staged``): a staged region raises it on the runs that reach it
    (user_raises.py), the trace of the function itself on every run (function.py)."""
    if isinstance(exc, type) and issubclass(exc, BaseException):
        exc = exc()
    if isinstance(exc, BaseException):
        try:
            exc.ag_user_raise = True
            exc.ag_staged = _DEPTH[0] > 0
        except AttributeError:  # (an exception type without a __dict__: not marked)
            pass
    return exc


errors.MARK_RAISED = user_raise


def matched_by_python(subject):
    """The subject of a `match` Python runs while tracing that has class patterns it could
    not convert (converters/match_statements.py: inside sequences, mappings or `|`, or
    with keywords): refused where it holds a traced value, whose class Python would test
    as the tensor object's (`case (float(), _):` would never match, silently)."""
    if any(isinstance(v, SymbolicTensor) for v in nest.flatten(subject)):
        at = errors.user_location()
        raise NotImplementedError(
            f"a `match`{f' at {at}' if at else ''} with class patterns inside sequence, "
            f"mapping, `|` or keyword patterns on a value that holds a tensor is not staged "
            f"(Python would test the tensor object's class, not its value's); match on "
            f"literals, captures, `case float():`-style classes, or Python values")
    return subject


# what Python raises itself on trace-time values is raised by the runs that reach it, as
# a user's `raise` is (not the refusals of autograph_lite, nor a name the trace lost)
_NOT_PYTHONS = (NotImplementedError, UnboundLocalError, RecursionError)


def python_own(e):
    """Whether ``e`` is the user's own error: a `raise` of theirs, a failed Python
    `assert`, or an error Python or NumPy raised on the trace's Python values (marked where
    it is raised: trace_arrays.getitem, calls.converted_call); or raised by Python in the
    user's converted code itself (`1 / k` of a Python int 0, `a, b = (1, 2, 3)`), found
    by its innermost frame, and marked so now: the same code on the same values raises it
    in plain Python, on the runs that reach it (a staged branch taken, a loop's trip)."""
    if getattr(e, "ag_user_raise", False):
        return True
    if not _markable(e):
        return False
    frame = _innermost_frame(e)
    if frame is None or not errors.is_generated(frame.f_code.co_filename):
        return False
    return getattr(user_raise(e), "ag_user_raise", False)


def pythons_error(e, values, ours=1):
    """``e`` raised by Python or NumPy called on ``values`` (the trace's Python values: no
    tensor among them, nor an autograph_lite frame under the first ``ours`` of its
    traceback, the caller's) from the user's code: marked as the user's own
    (``python_own``). Returns ``e``."""
    if (not _markable(e) or getattr(e, "ag_user_raise", False)
            or any(isinstance(v, Tensor) for v in nest.flatten(values))):
        return e
    tb = e.__traceback__
    for _ in range(ours):
        tb = tb.tb_next if tb is not None else None
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__", "").startswith("autograph_lite."):
            return e
        tb = tb.tb_next
    return user_raise(e)


def _markable(e):
    """Whether ``e`` may be marked as Python's own: not a refusal of ours, a name the trace
    lost, a region's exception already placed, or a `try` we refused."""
    return not (isinstance(e, _NOT_PYTHONS) or hasattr(e, "ag_staged_at")
                or getattr(e, "ag_uncatchable", False))
