"""`if_stmt` and `if_exp`: a Python `if` on Python values, `control.cond` on tensors.

Staging traces both branches from the same starting state. Each branch returns the
values of the variables that are live after the `if` (the first `nouts` of the state);
once both are traced, `_check_all` compares them and raises the SPEC errors that
name the variable and the `if`'s line, before the core sees mismatched branches.
"""

from autograph_lite.autograph.runtime import core, staging, trial, where
from autograph_lite.autograph.runtime.variables import Undefined, UndefinedReturnValue

def if_stmt(cond, body, orelse, get_state, set_state, names, nouts):
    """Runs `if cond: body() else: orelse()`, staged when `cond` is a symbolic tensor."""
    if core.is_symbolic(cond):
        staged_if(cond, body, orelse, get_state, set_state, names, nouts, where.caller())
    elif cond:
        body()
    else:
        orelse()


def if_exp(cond, true_fn, false_fn):
    """`true_fn() if cond else false_fn()`, staged when `cond` is a symbolic tensor."""
    if core.is_symbolic(cond):
        loc = where.caller()
        try:
            return core.control().cond(cond, true_fn, false_fn)
        except (TypeError, ValueError) as e:
            if loc in str(e):
                raise
            raise type(e)(f"{e} (in the conditional expression at {loc})") from e
    return true_fn() if cond else false_fn()


def _describe(x):
    if core.is_tensor(x) or hasattr(x, "dtype"):
        return f"a tensor of dtype {x.dtype} and rank {core.rank_of(x)}"
    return f"a {type(x).__name__}"


def _check_pair(name, t, f, loc):
    if isinstance(t, UndefinedReturnValue) != isinstance(f, UndefinedReturnValue):
        which = "true" if isinstance(f, UndefinedReturnValue) else "false"
        other = "false" if which == "true" else "true"
        raise ValueError(f"the `if` at {loc} returns a value only in its {which} branch; "
                         f"return a value in the {other} branch too")
    if isinstance(t, Undefined) != isinstance(f, Undefined):
        which = "true" if isinstance(f, Undefined) else "false"
        raise ValueError(f"'{name}' is set only in the {which} branch of the `if` at {loc}; "
                         f"give it a value before the `if`")
    if t is f or (isinstance(t, Undefined) and isinstance(f, Undefined)):
        return
    if isinstance(t, (tuple, dict)) and core.is_carriable(t) and core.is_carriable(f):
        return  # structures: the core compares them leaf by leaf
    if core.is_tensor_like(t) != core.is_tensor_like(f) or not core.is_tensor_like(t):
        raise TypeError(f"'{name}' is {_describe(t)} in the true branch and {_describe(f)} "
                        f"in the false branch of the `if` at {loc}; a staged `if` needs "
                        f"tensors (or the same Python object) in both branches")
    # Different dtypes are fine: the core promotes them NumPy-style, as `np.where` would.
    if core.rank_of(t) != core.rank_of(f) and core.rank_of(t) is not None:
        raise ValueError(f"'{name}' has rank {core.rank_of(t)} in the true branch but "
                         f"{core.rank_of(f)} in the false branch of the `if` at {loc}; both "
                         f"branches must give it the same rank")


def _staged_positions(values):
    """Positions the core must merge: tensor-like values (the rest must be identical)."""
    return [i for i, v in enumerate(values) if core.is_carriable(v)]


def staged_if(cond, body, orelse, get_state, set_state, names, nouts, loc):
    init = get_state()
    traced, order = {}, []

    def trace(which):
        set_state(init)
        with staging.region():
            (body if which else orelse)()
        traced[which] = tuple(get_state()[:nouts])

    def branch(which):
        def run():
            trace(which)
            order.append(which)
            if (not which) not in traced and any(
                    isinstance(v, (Undefined, UndefinedReturnValue)) for v in traced[which]):
                trace(not which)  # only to name the branch that sets the variable
            if len(traced) == 2:
                if trial.active():
                    _fill_one_sided(traced)
                _check_all(traced, names, loc)
            return tuple(traced[which][i] for i in _staged_positions(traced[order[0]]))
        return run

    try:
        merged = core.control().cond(cond, branch(True), branch(False),
                                     output_names=_staged_names(names, traced, order))
    except (TypeError, ValueError) as e:
        if loc in str(e):
            raise
        raise type(e)(f"{e} (in the staged `if` at {loc})") from e
    final = list(traced[order[0]])
    for i, v in zip(_staged_positions(final), merged):
        final[i] = v
    set_state(tuple(final) + tuple(init[nouts:]))


def _staged_names(names, traced, order):
    """Names of the values given to the core (computed lazily: known after a branch)."""
    class Names:
        def __len__(self):
            return len(self._list())

        def __getitem__(self, i):
            return self._list()[i]

        def _list(self):
            return [names[i] for i in _staged_positions(traced[order[0]])] if order else []
    return Names()


def _fill_one_sided(traced):
    """Trial mode (see trial.py): a value set in one branch only gets zeros in the other."""
    for which in (True, False):
        out = list(traced[which])
        for i, (mine, other) in enumerate(zip(out, traced[not which])):
            if (isinstance(mine, (Undefined, UndefinedReturnValue))
                    and core.is_carriable(other)):
                out[i] = trial.zeros_like(other)
        traced[which] = tuple(out)


def _check_all(traced, names, loc):
    for name, t, f in zip(names, traced[True], traced[False]):
        _check_pair(name, t, f, loc)
