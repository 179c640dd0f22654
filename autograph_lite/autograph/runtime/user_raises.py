"""A user's `raise` met while tracing a staged region: raised when the function runs.

Python raises on the runs that reach the `raise`; a trace reaches it on every input. Where
a staged region decides by a tensor whether the `raise` runs, that decision is staged:
- `if c: raise E(...)` in a staged `if` (conditionals.if_stmt): when `c` picks that
  branch, the branch up to the `raise`, then E; the other branch afterwards, for all runs;
- `raise E(...)` reached by every trip of a staged loop's body (staged_loop.run): the
  first trip raises, so when the loop's test holds on entry, that trip up to the `raise`,
  then E; the loop itself runs no trip.
"Up to the `raise`" is the region traced again inside a staged branch of its own (a cond
with nothing after it), whose last op is a check that fails with the user's exception:
its type, its text (made when it fails from that run's values, when the message holds
traced values: `ValueError(f"bad {v}")`), the line of the user's `raise`. What the region
does first (a print, a callback, a check) happens first, as in Python.
What the region wrote into the caller's arrays and bound into its objects before the
`raise` stays, as in Python: the check carries that state (partial_raise.py). Refused
(NotImplementedError) for exception classes of the user's own (a kernel raises builtin
exceptions only)."""

import copy

from autograph_lite import control, errors, mutation
from autograph_lite.api import core as api
from autograph_lite.ops import check_errors
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import logical, staging, text, trial


def raised_at(e):
    """'file:line' of the user's `raise` that threw ``e`` (its innermost frame)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return errors.user_location(frame=tb.tb_frame) if tb is not None else None


def as_raised(e, at):
    """What a staged check raises for the user's exception ``e``: ``e`` itself (the check
    raises the builtin of its type, its text made then and naming the line ``at``), or,
    where that text would lose what Python's exception carries (arguments other than one
    string, a KeyError, a StopIteration, `raise ... from cause`), a copy of ``e`` to raise
    as it is, its args and cause kept and the line in a note. Not where an argument holds
    traced values (its text is made when it fails)."""
    args = e.args
    # (one string that is its text: a KeyError's text is the key's repr, `'key'`, which a
    # builtin made again from the text would take as its key: args ("'key' (at ...)",))
    plain = (len(args) == 1 and isinstance(args[0], str) and str(e) == args[0]
             and not isinstance(e, StopIteration))  # (its args[0] is its `.value`)
    if (plain and e.__cause__ is None) or any(text.holds(a) for a in args):
        return e
    exact = copy.copy(e)
    exact.__cause__ = e.__cause__
    exact.ag_exact = True
    if at:
        exact.add_note(f"(raised at {at})")
    return exact


class _Staged(Exception):
    """The region up to the `raise` is staged, its check too; what it wrote is undone."""


def raise_when(raises, e, region, state, what, loc):
    """Stages: when ``raises`` (a 0-d bool), ``region()`` run from the state ``state``
    (``(get_state, set_state, values)``) up to the user's `raise`, which threw ``e`` the
    first time, then that exception. ``what``: the staged statement, for a refusal."""
    name = check_errors.stand_in(e)
    if name is None:
        raise NotImplementedError(
            f"the `raise` of {type(e).__name__} in {what} cannot wait until the compiled "
            f"function runs: a compiled function raises only builtin exceptions (not OSError "
            f"and its kind); check the condition with Python values, or raise a builtin "
            f"exception") from e
    get_state, set_state, values = state

    def up_to_the_raise():
        set_state(tuple(trial.copy_for_trial(v) for v in values))  # (lists appended to)
        try:
            with staging.region(loc), mutation.scope():
                try:
                    region()
                except Exception as again:  # noqa: BLE001 - the same trace: the same `raise`
                    if not (staging.python_own(again) and type(again) is type(e)):
                        raise
                    # (staged where the region's writes are seen: the check carries them)
                    at = raised_at(again)
                    api.check(logical.not_(raises), text.exception_text(again), name,
                              as_raised(again, at))
                    graph = context.current_graph()
                    graph.nodes[-1].loc = at or graph.nodes[-1].loc
                    raise _Staged() from None  # (the scope then undoes the writes)
        except _Staged:
            return
        finally:
            set_state(values)
        raise RuntimeError(f"internal error: {what} raised {type(e).__name__} once only")

    control.cond(raises, up_to_the_raise, lambda: None)
