"""`if_stmt` and `if_exp`: a Python `if` on Python values, `control.cond` on tensors.

Staging traces both branches from the same starting state. Each branch returns the
values of the variables that are live after the `if` (the first `nouts` of the state);
once both are traced, `_check_all` compares them and raises the SPEC errors that
name the variable and the `if`'s line, before the core sees mismatched branches.
"""

import numpy as np

from autograph_lite import control, mutation, nest, numpy_api, python_numbers
from autograph_lite.api import core as api
from autograph_lite.ops import dispatch
from autograph_lite.ir.graph import root_graph
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import (core, data, identities, list_values, logical,
                                              optional_items, slots, staging, trial, unset,
                                              user_raises, where)
from autograph_lite.autograph.runtime.unset import MaybeNone
from autograph_lite.autograph.runtime.variables import (ReturnedNone, Undefined,
                                                         UndefinedReturnValue, is_undefined)

def if_stmt(cond, body, orelse, get_state, set_state, names, nouts, deleted=()):
    """Runs `if cond: body() else: orelse()`, staged when `cond` is a symbolic tensor.
    `deleted`: the names a branch may `del` (they get a flag: unset.py)."""
    cond = list_values.truth(cond)  # (`if out:` of a staged list: not empty)
    if core.is_symbolic(cond):
        loc, init = where.caller(), tuple(get_state())
        try:
            slots.carrying_new_slots(
                lambda get_, set_, names_, nouts_: staged_if(
                    cond, body, orelse, get_, set_, names_, nouts_, loc, deleted),
                get_state, set_state, names, nouts)
        except Exception as e:
            if not _raises_in_one_branch(e, loc):
                raise
            # `if c: raise E(...)`: Python raises on the runs where `c` picks that branch
            # and runs the other branch on the rest. So: a check raising E when the
            # compiled function runs, then the other branch, unconditionally.
            set_state(init)
            user_raises.raise_when(cond if e.ag_branch else logical.not_(cond), e,
                                   body if e.ag_branch else orelse,
                                   (get_state, set_state, init), f"the staged `if` at {loc}",
                                   loc)
            unset.narrow_after(cond, not e.ag_branch)  # (`if x is None: raise`: x is set)
            (orelse if e.ag_branch else body)()
    elif cond:
        body()
    else:
        orelse()


def _raises_in_one_branch(e, loc):
    """Whether ``e`` is the exception of a user's `raise` traced directly in one branch of
    the staged `if` at ``loc`` (not in a staged region inside it, whose own condition
    decides). It is raised when the compiled function runs if it is of a type a kernel
    can raise and comes after no op with an effect and no write into an array from before
    the `if` (both of which Python does before it raises); else refused."""
    return (getattr(e, "ag_user_raise", False) and getattr(e, "ag_staged_at", None) == loc
            and hasattr(e, "ag_branch"))


def if_exp(cond, true_fn, false_fn):
    """`true_fn() if cond else false_fn()`, staged when `cond` is a symbolic tensor."""
    cond = list_values.truth(cond)
    if core.is_symbolic(cond):
        return choose(cond, true_fn, false_fn, "conditional expression", where.caller())
    return true_fn() if cond else false_fn()


def choose(cond, true_fn, false_fn, what, loc):
    """The staged value of `true_fn() if cond else false_fn()` (a conditional expression,
    the right operand of `and`/`or`: logical.py), ``cond`` a symbolic 0-d bool. An error
    Python or NumPy raises in one of them (`1 / k` of a Python 0, `float(v)` of a vector)
    is raised by the runs that evaluate it, as if_stmt's `raise` in one branch; the other
    one's value on the rest."""
    alive = _reachable()
    # (a change to the user's objects in one of them, `c.test(v)` doing `self.n += 1`,
    # would be made while tracing, for every run: no state carries it here, refused)
    watch = slots.Watch(set(), loc, what)
    chosen = []  # (the lists or dicts the two give: `(a if c else b).append(v)`)
    seen, optional = {}, []  # (what each gave; the stand-in where one gives None: below)

    def leaving(fn, which):  # (an array of trace time from before: the buffer it is)
        def run():
            try:
                with staging.region(loc), watch.active(), \
                        unset.narrowed(cond, which) as settled:
                    value = seen[which] = settled((fn(),))[0]
                    if optional:  # (`None if c else v`: (value, is_set), unset.py)
                        value = unset.flagged(value, trial.zeros_like(optional[0]), True)
            except Exception as e:
                if getattr(e, "ag_user_raise", False) and not hasattr(e, "ag_branch"):
                    e.ag_branch = which
                raise
            try:
                watch.check(loc, what)
            except slots.NewSlots as e:
                raise e.refusal from None
            if type(value) in (list, dict):
                if chosen and chosen[0] is not value and not (
                        type(value) is dict and type(chosen[0]) is dict):
                    _two_dicts(what, loc)(value, None, 0)  # (lists: no merge carries them)
                chosen.append(value)
            return data.leaving_region([value], [None], alive)[0]
        return run
    since = identities.mark()
    try:
        with where.located(what, loc):
            merged = control.cond(cond, leaving(true_fn, True), leaving(false_fn, False))
        if len(seen) == 2:  # (`b if cur is a else a`: which object, by the path)
            if seen[True] is seen[False] and not core.is_tensor_like(seen[True]):
                return seen[True]  # (`d if c else d`: that object; session 55's probe)
            identities.set_after_merge(merged, seen, cond, since)
            python_numbers.chosen_flag(cond, seen[True], seen[False], merged)
            merged = slots.dicts_kept(seen[True], seen[False], merged, seen[True],
                                      "its value", _two_dicts(what, loc))
        return merged
    except Exception as e:
        if _none_beside_a_value(seen) and not optional:
            optional.append(unset.value_of(next(
                v for v in seen.values() if not unset.is_none(v))))
            with where.located(what, loc):
                merged = control.cond(cond, leaving(true_fn, True), leaving(false_fn, False))
            return unset.unflagged(f"the value of the {what} at {loc}", merged, none=True)
        if not _raises_in_one_branch(e, loc):
            raise
        user_raises.raise_when(cond if e.ag_branch else logical.not_(cond), e,
                               true_fn if e.ag_branch else false_fn,
                               (lambda: (), lambda values: None, ()),
                               f"the {what} at {loc}", loc)
        unset.narrow_after(cond, not e.ag_branch)
        return (false_fn if e.ag_branch else true_fn)()


def _two_dicts(what, loc):
    """The refusal of a choice between two lists, or two dicts another name holds (also
    inside tuples: `(a, b) if c else (b, a)`, session 55's probe), as slots.dicts_kept's
    ``differ``: two dicts no name holds (`{"v": x[0]} if c else {"v": 0.0}`) are merged
    into the new one, which stands for either."""
    def differ(value, place, side):
        if type(value) is dict and not data.other_names(value, "<the value>"):
            return
        at = "" if place in (None, "its value") else f" (at {place.replace('its value', '')})"
        raise NotImplementedError(
            f"the {what} at {loc} chooses between two {type(value).__name__}s{at} by a "
            f"tensor: which object it is would be known only when the function runs, and "
            f"what is written into it would be lost; write an `if` statement that appends "
            f"to (or writes) each one")
    return differ


def _none_beside_a_value(seen):
    """Whether one side of a conditional expression gave None (or a MaybeNone) and the
    other a value a MaybeNone can hold (`None if s > 0 else s`: the staged cond refused the
    pair, and is staged again with each side giving (value, is_set), a zero standing in for
    the None)."""
    values = list(seen.values())
    return len(values) == 2 and any(v is None or isinstance(v, MaybeNone) for v in values) and (
        all(v is None or unset.none_beside("", v, trial.zeros_like) is not None
            for v in values)) and not all(v is None for v in values)


logical.CHOOSE = choose  # (`a and b`, `a or b` of a tensor `a`)


def _reachable():
    graph = context.current_graph()
    return data.reachable_arrays(graph)


def _describe(x):
    if core.is_tensor(x) or hasattr(x, "dtype"):
        return f"a tensor of dtype {x.dtype} and rank {core.rank_of(x)}"
    if x is None:
        return "None"
    if type(x) in (str, bool, int, float):  # (`status = "converged"`: which)
        return f"the {type(x).__name__} {x!r}"
    return f"a {type(x).__name__}"


def _holds_a_list(v):
    """Whether ``v`` is a list a staged loop fills (its rows; a trial's list standing for
    it) or a tuple holding one."""
    if isinstance(v, (data.TensorList, list_values.ListTensor)) or (
            isinstance(v, list) and type(v) is not list):
        return True
    return optional_items.is_tuple(v) and any(_holds_a_list(x) for x in v)


def _check_pair(name, t, f, before, loc):
    t, f = unset.value_of(t), unset.value_of(f)
    if isinstance(t, UndefinedReturnValue) != isinstance(f, UndefinedReturnValue):
        which = "true" if isinstance(f, UndefinedReturnValue) else "false"
        other = "false" if which == "true" else "true"
        if isinstance(f if which == "true" else t, ReturnedNone):
            raise ValueError(
                f"the function returns None on some runs (a bare `return` or `return None` "
                f"under a staged `if` or loop) and a value on others (the `return` or `if` "
                f"at {loc}): which it returns would depend on a tensor, which a compiled "
                f"function cannot do; return a value of the same kind on every path (an "
                f"empty array, a flag with the result)")
        value = t if which == "true" else f
        if optional_items.holds_none(value):
            raise TypeError(
                f"the function returns a tuple holding None under the staged `if` at {loc} "
                f"on some runs and no such tuple (None: it may fall off its end) on "
                f"others: a result that may be None is carried only when it holds no None "
                f"itself (README, variables that are None on some runs); return a value or "
                f"a flag in place of the None item")
        if not core.is_carriable(value) and _holds_a_list(value):
            # (`return path` of a list the loop appends to: session 55's probe named a
            # `_TrialList`, or said "a tuple", which is carried)
            raise TypeError(
                f"the function returns a list a staged loop appends to (or a tuple holding "
                f"one) under the staged `if` at {loc} on some runs, and on the others goes "
                f"on to return later: a list a staged loop fills is carried as the tensor of "
                f"its rows, which a `return` from inside the loop cannot hand on; leave the "
                f"loop with `break` (and a flag) and return after it")
        if not core.is_carriable(value):  # (a string, a list: no tensor can stand for it)
            coded = (type(value) in (str, bytes, bool, int, float)
                     or isinstance(value, (list, dict, set)))
            raise TypeError(
                f"the function returns {_describe(value)} under the staged `if` at {loc} on "
                f"some runs, and on the others goes on to return later: a value returned "
                f"from inside a staged `if` or loop is carried as a number, an array or a "
                f"tuple, namedtuple or dict of them, which {_describe(value)} is not; "
                + ("return a number coding the answer instead" if coded else
                   "return its fields as a tuple or a namedtuple (typing.NamedTuple), and "
                   "make the object from them after the call"))
        raise ValueError(f"the `if` at {loc} returns a value only in its {which} branch; "
                         f"return a value in the {other} branch too")
    if isinstance(t, Undefined) != isinstance(f, Undefined):
        which = "true" if isinstance(f, Undefined) else "false"
        if not isinstance(before, Undefined):  # `del` in the other branch
            other = "false" if which == "true" else "true"
            raise ValueError(f"{where.named(name)} is deleted in the {other} branch of the "
                             f"staged `if` at {loc} but not in the {which} branch, and used "
                             f"after the `if`; a staged `if` cannot leave a variable set on "
                             f"one path only: delete it after the `if`, or in both branches")
        raise unset.SetOnOnePath(f"{where.named(name)} is set only in the {which} branch "
                                 f"of the `if` at {loc}; give it a value before the `if`")
    if t is f or (isinstance(t, Undefined) and isinstance(f, Undefined)):
        return
    if isinstance(t, (tuple, dict)) and core.is_carriable(t) and core.is_carriable(f):
        slots.check_dict_order(t, f, name, loc, "staged `if`",
                               ("in the true branch", "in the false one"))
        return  # structures: the core compares them leaf by leaf
    if (optional_items.is_tuple(t) and optional_items.is_tuple(f)
            and optional_items.carriable(t) and optional_items.carriable(f)
            and not optional_items.none_beside_value(t, f)):
        return  # (items None on some runs: MaybeNone items, carried flagged)
    if (optional_items.is_tuple(t) and optional_items.is_tuple(f) and len(t) == len(f)
            and not (optional_items.holds_none(t) or optional_items.holds_none(f))):
        for k, (a, b) in enumerate(zip(t, f)):  # (the item no staged `if` can carry)
            if not (optional_items.carriable(a) and optional_items.carriable(b)):
                _check_pair(f"{name}[{k}]", a, b, optional_items.at(before, (k,)), loc)
    if isinstance(t, tuple) and isinstance(f, tuple) and (optional_items.holds_none(t)
                                                          or optional_items.holds_none(f)):
        raise TypeError(f"{where.named(name)} is a tuple holding None in one branch of the "
                        f"staged `if` at {loc} and a tuple holding a value in its place in "
                        f"the other: a tuple that holds None on some runs is not carried yet "
                        f"(a single value that may be None is: README, variables that are "
                        f"None on some runs); keep the item in a variable of its own")
    if core.is_tensor_like(t) != core.is_tensor_like(f) or not core.is_tensor_like(t):
        none = ("; None is carried beside a number, an array or a tuple of them only, and "
                "only where the variable was None before the `if` or the first branch sets "
                "it to None (README: variables that are None on some runs)"
                if t is None or f is None else "")
        if none and (optional_items.holds_none(t) or optional_items.holds_none(f)):
            none = ("; a tuple that may be None is carried only when none of its items is "
                    "None itself: give the item a number (and a flag) instead")
        if type(t) is type(f) and not core.is_tensor_like(t) and (
                type(t) not in (str, bytes, bool, int, float, type(None))):
            # (`r = R(v, True)` / `r = R(-v, False)`, `[x[0], x[1]]` / `[x[1], x[0]]`: the
            # message read "a R ... and a R", session 54)
            kind = type(t).__name__
            raise TypeError(
                f"{where.named(name)} is a different {kind} object in each branch of the "
                f"staged `if` at {loc}: a staged `if` carries numbers, arrays, and tuples, "
                f"namedtuples and dicts of them (or one object both branches share), not "
                f"{'a list' if kind == 'list' else 'an object of a class'} made in each "
                f"branch; give its items as a tuple or a namedtuple (typing.NamedTuple), "
                f"or make the {kind} after the `if` from values the branches set")
        raise TypeError(f"{where.named(name)} is {_describe(t)} in the true branch and "
                        f"{_describe(f)} in the false branch of the `if` at {loc}; a staged "
                        f"`if` needs tensors (or the same Python object) in both branches: "
                        f"which one it holds would depend on a tensor (code a status as a "
                        f"number, and a missing value as a number with a flag){none}")
    # Different dtypes are fine: the core promotes them NumPy-style, as `np.where` would.
    if core.rank_of(t) != core.rank_of(f) and core.rank_of(t) is not None:
        raise ValueError(f"{where.named(name)} has rank {core.rank_of(t)} in the true "
                         f"branch but {core.rank_of(f)} in the false branch of the `if` at "
                         f"{loc}; both branches must give it the same rank")


def _flags_as_tests(cond, traced, final):
    """A variable one branch sets to True and the other to False (the `continue_`, `break_`
    and `do_return` flags of `if v is None: continue`, a user's `found = True`) is `cond`
    itself after the `if`, or its negation: when `cond` tests a MaybeNone, so does it
    (unset.py), and `if not continue_:`, which guards the rest of the loop body, narrows
    `v` to its value there, as Python's `v` is. One set to True where the other keeps a
    test (a second `if w is None: continue`) is `cond or` that test, and narrows both."""
    narrowing = unset.narrowing
    for t, f, v in zip(traced[True], traced[False], final):
        if not core.is_symbolic(v) or t is f:
            continue
        # v is `cond and t or not cond and f`: where it holds (or fails), what must have
        # held (or failed) too, when one side is a Python bool
        holds = (narrowing(cond, True) + narrowing(t, True) if f is False
                 else narrowing(cond, False) + narrowing(f, True) if t is False else ())
        fails = (narrowing(cond, False) + narrowing(f, False) if t is True
                 else narrowing(cond, True) + narrowing(t, False) if f is True else ())
        if bool(holds) != bool(fails):
            unset.narrows(v, holds or fails, bool(holds))


def _staged_positions(values):
    """Positions the core must merge: tensor-like values, tuples of them whose items may be
    None (optional_items.py; the rest must be identical)."""
    return [i for i, v in enumerate(values) if optional_items.carriable(v)]


def staged_if(cond, body, orelse, get_state, set_state, names, nouts, loc, deleted=()):
    get_state, set_state, names, nouts, watch = slots.narrow(get_state, set_state, names,
                                                             nouts, loc, "staged `if`")
    before = get_state()
    init, relisted = _lists_as_tensor_lists(before, body, orelse, get_state, set_state, names,
                                            nouts, loc)
    if init is not before:
        set_state(init)
    alive = _reachable()
    flag = {i for i, n in enumerate(names[:nouts]) if n in deleted}
    traced, order, fates, raw = {}, [], {}, {}
    made = {}  # (positions of lists a branch made: merged as tuples, _lists_made)
    copies = {}  # (id of each branch's copy of a state value -> that value: _dicts_after)
    rebound = {}  # (lists whose items are written that a branch rebinds: _rebound)
    # Names of the values given to the core, for its errors: known only once a branch has
    # run, and the core reads them after both, so each branch refills this same list.
    staged_names = []
    optional = []  # (paths that may be None after the `if`: _flag_optional)
    forced = {}  # (paths the first branch flags: a None given late, _FlaggedLate)
    since = identities.mark()  # (arrays made before the branches: `is` after it)
    known = known_numbers(loc, names[:nouts])  # (a Python number in one branch only)
    numbers = list(known)  # (this attempt's: a nested `if` of the same line may add some)
    # (arrays a branch hands on as a merge made inside it: which earlier one, an int)
    coded = known_numbers(loc, names[:nouts], "objects", identities.Record)
    codes = coded.attempt()

    def trace(which):
        # Each branch starts from its own copy of the lists and arrays: one mutated in
        # place (append, item assignment) must not carry the true branch's values into
        # the false branch's trace.
        given = tuple(trial.copy_for_trial(v) for v in init)
        copies[which] = {id(g): v for g, v in zip(given, init) if g is not v}
        set_state(given)
        try:
            with staging.region(loc), mutation.scope() as log, watch.active(), \
                    unset.narrowed(cond, which) as settled:
                (body if which else orelse)()
                set_state(settled(get_state()))
        except Exception as e:
            if getattr(e, "ag_user_raise", False) and not hasattr(e, "ag_branch"):
                e.ag_branch = which  # (if_stmt)
            raise
        watch.check(loc, "staged `if`")
        raw[which] = get_state()
        after = _lists_begun_again(raw[which][:nouts], init)
        fates[which] = {i: slots.dict_fate(init[i], given[i], v, names[i], loc, "staged `if`")
                        for i, v in enumerate(after) if type(init[i]) is dict}
        after = _unchanged_as_original(after, init)
        rebound[which] = _rebound(after, given, relisted)
        traced[which] = _items_as_tuples(after, relisted)
        made[which] = _lists_made(traced[which], given, init, relisted, nouts)
        traced[which] = tuple(tuple(v) if i in made[which] else v
                              for i, v in enumerate(traced[which]))

    def branch(which):
        def run():
            trace(which)
            order.append(which)
            _placeholder_return_value(which, traced, body, orelse, get_state, set_state, init,
                                      names, alive)
            if (not which) not in traced:
                _name_one_sided(which, traced, orelse if which else body, get_state,
                                set_state, init, names, flag, loc, cond)
            if len(traced) == 2:
                late = _nones_given_late(traced, order, init, forced)
                if late:
                    raise _FlaggedLate(late)
                _settle_lists(traced, init, names, loc)
                _lists_rebound(made, rebound, raw, traced, init, names, loc, set_state)
                if trial.active():
                    _fill_one_sided(traced)
                _returning_none(traced, init)
                _optional_nones(traced, order, init, names, forced)
                _check_all(traced, names, init, flag, loc)
                late = [p for i in range(nouts) for p in number_paths(
                    i, traced[True][i], traced[False][i], _python_on_one_path)
                    if p not in numbers]
                if late:
                    raise PythonLate(late)
                if identities.asked_in(body):
                    codes.check(traced, nouts, since)
            first, optional[:] = _flagged(traced[order[0]], init, flag, forced)
            positions = _staged_positions(first)
            staged_names[:] = _leaf_names([first[i] for i in positions],
                                          [names[i] for i in positions]) + [
                f"<'{number_name(names, p)}' is a Python number>" for p in numbers] + [
                f"<which array '{names[i]}' holds>" for i in codes.positions]
            mine, _ = _flagged(traced[which], init, flag, {p: forced.get(p) for p in optional})
            # an array of trace time from before the `if`, handed on: the buffer it is
            return tuple(data.leaving_region([mine[i] for i in positions],
                                             [names[i] for i in positions], alive)) + tuple(
                python_flag_value(number_at(traced[which], p)) for p in numbers) + codes.of(
                traced[which])
        return run

    while True:
        try:
            with where.located("staged `if`", loc):
                merged = control.cond(cond, branch(True), branch(False),
                                      output_names=staged_names)
            break
        except _FlaggedLate as e:  # (staged again, the first branch flagging them)
            forced.update(e.positions)
            traced.clear(), order.clear(), fates.clear()
            set_state(init)
        except PythonLate as e:  # (staged again, each branch saying which it gives)
            known.extend(p for p in e.positions if p not in known)
            numbers[:] = known
            traced.clear(), order.clear(), fates.clear()
            set_state(init)
        except identities.ObjectsLate as e:  # (the same, an int for which array)
            if not e.mine(coded):
                raise
            e.grow(coded)
            codes = coded.attempt()
            traced.clear(), order.clear(), fates.clear()
            set_state(init)
        except _ListLate as e:  # (staged again, the list a tensor list in both)
            k = e.position
            init = tuple(init[:k]) + (trial.as_tensor_list(init[k], e.row, names[k], loc, 1,
                                                           [e.row]),) + tuple(init[k + 1:])
            traced.clear(), order.clear(), fates.clear()
            set_state(init)
        except ValueError as e:  # (the core's, of the whole state: the variable named)
            if len(traced) == 2 and str(e).startswith(control.DIFFERENT_STRUCTURES):
                _name_structure_difference(traced, names, loc)
            raise
    final = list(_flagged(traced[order[0]], init, flag, forced)[0])
    for i, v in zip(_staged_positions(final), merged):
        final[i] = v
    final = [_unflagged(name, v, (i,) in optional) for i, (name, v) in enumerate(zip(names,
                                                                                    final))]
    n_codes = len(codes.positions)
    flags = merged[len(merged) - len(numbers) - n_codes:len(merged) - n_codes]
    for p, is_python in zip(numbers, flags):
        mark_python(number_at(final, p), is_python)
    for i, v in enumerate(final):
        identities.set_after_merge(v, {True: traced[True][i], False: traced[False][i]},
                                   cond, since)
    codes.attach(final, merged[len(merged) - n_codes:], since)
    _flags_as_tests(cond, traced, final)
    # A dict neither branch rebound (each wrote into its own copy, or left it) is, in
    # Python, the dict from before the `if`, which other names may hold: it takes the
    # merged items in place (the merge packs a new dict). If one branch wrote into it and
    # the other rebound the name, which dict it is depends on the path: refused.
    for i, fate in fates[True].items():
        both = {fate, fates[False][i]}
        if both == {"written", "rebound"}:
            raise NotImplementedError(
                f"'{names[i]}' is written in place in one branch of the staged `if` at "
                f"{loc} and rebound in the other; which dict it is after the `if` would "
                f"depend on the branch taken: write into a copy (dict(...)) instead")
        if "rebound" not in both and final[i] is not init[i]:
            final[i] = slots.refill(init[i], final[i])
    _dicts_after(raw, copies, init, final, names, nouts, loc, set_state)
    for i in made[True] | rebound[True]:  # (a new list after the `if`, as a branch's was)
        same = i in made[True] and raw[True][i] is raw[False][i]
        final[i] = raw[True][i] if same else list(final[i])
    # a list made a tensor list for the `if` leaves it as its stacked rows (as from a loop);
    # one whose items the branches wrote takes the merged items in place (its aliases see
    # them, as in Python)
    final = [v.listed() if isinstance(v, data.TensorList)
             and type(b) is list else list_values.keep_kind(b, v)
             for v, b in zip(final, before)]
    for i in relisted:
        if i not in rebound[True]:
            before[i][:] = final[i]
            final[i] = before[i]
    set_state(tuple(final) + tuple(init[nouts:]))


def _lists_made(after, given, init, relisted, nouts):
    """The positions of a branch's state that hold a list of numbers and arrays the branch
    made (`r = [x[0], x[1]]`): not the list it was given, nor one that begins with the
    items of the list from before (appended to: a trial's copy, data.py). Merged as
    the tuple of its items where the other branch made one too (``_lists_rebound``)."""
    if trial.active():  # (a trial run's lists are filled alike: _fill_one_sided)
        return set()
    return {i for i, v in enumerate(after[:nouts])
            if type(v) is list and i not in relisted and v is not given[i]
            and v is not init[i] and not isinstance(init[i], data.TensorList)
            and not (isinstance(init[i], list) and _same_items(v[:len(init[i])], init[i]))
            and core.is_carriable(tuple(v))}


def _lists_rebound(made, rebound, raw, traced, init, names, loc, set_state):
    """Lists made in each branch, and a list whose items the branches write that one of
    them binds to another list (session 55; refused before), are merged item by item
    into a new list, which stands for each branch's where no other name holds one of
    them (then a write through that name would reach it on some runs: refused). A list
    made in one branch only is refused by ``_check_pair``, as before."""
    for i in rebound[True] | rebound[False]:
        for which in (True, False):  # (the list from before where a branch did not rebind)
            lst = raw[which][i] if i in rebound[which] else init[i]
            slots.refuse_shared_object(lst, "list", names[i], loc, "staged `if`", set_state,
                                       raw[which])
    rebound[True] = rebound[False] = rebound[True] | rebound[False]
    for i in made[True] ^ made[False]:
        for which in (True, False):
            traced[which] = tuple(list(v) if k == i and k in made[which] else v
                                  for k, v in enumerate(traced[which]))
    both = made[True] & made[False]
    for which in (True, False):
        made[which] = both
    for i in both:
        if raw[True][i] is raw[False][i]:  # (one list on both paths, `a, k = l, 1`: itself)
            continue
        if len(raw[True][i]) != len(raw[False][i]):
            raise TypeError(
                f"{where.named(names[i])} is a list of {len(raw[True][i])} items in the "
                f"true branch and of {len(raw[False][i])} in the false branch of the staged "
                f"`if` at {loc}: its length would depend on a tensor; give both lists the "
                f"same length (or append to one list made before the `if`)")
        for which in (True, False):
            slots.refuse_shared_object(raw[which][i], "list", names[i], loc, "staged `if`",
                                       set_state, raw[which])


def _dicts_after(raw, copies, init, final, names, nouts, loc, set_state):
    """Each variable's dicts after the `if` (slots.dicts_kept): one dict object on both
    paths is that dict again, with the merged items; where they are different dicts
    (one branch rebound the name, or an item of a tuple or dict), the merge's new one
    stands for either, refused where another name holds one of them, which in Python a
    write through either name would reach on the runs of that branch. A branch's copy of
    a dict of the state (each branch writes its own: ``copies``) is that dict."""
    def canon(v, side):
        return copies[side == 0].get(id(v), v)

    originals = {id(v) for which in (True, False) for v in copies[which].values()}

    def differ(d, place, side):  # (a dict of the state: its names hold it, as before)
        slots.refuse_shared_object(d, "dict", place, loc, "staged `if`", set_state,
                                   init if id(d) in originals else raw[side == 0])
    for i in range(nouts):
        final[i] = slots.dicts_kept(raw[True][i], raw[False][i], final[i],
                                    canon(raw[True][i], 0), names[i], differ, canon)


def _lists_as_tensor_lists(init, body, orelse, get_state, set_state, names, nouts, loc):
    """The state with each Python list that the branches append different rows to (or pop
    its last items from) made a TensorList (data.py), as a staged loop makes one: `if x[i]
    > 0: peaks.append(i)`.
    The branches are traced once each into scratch graphs (trial.py) to see what they do
    to the lists; lists changed otherwise than by appending tensors are left as they are
    (`_settle_lists` names the difference)."""
    lists = [i for i, v in enumerate(init[:nouts]) if type(v) is list]
    # (a list not read after the `if` under its name: only another holder could see what
    # a branch appends, `d = {"acc": acc}`, which a staged `if` cannot show it)
    dead = [i for i, v in enumerate(init[nouts:], nouts) if type(v) is list]
    if not (lists or dead) or trial.active():
        return init, ()
    graph = context.current_graph()
    try:
        # A branch that writes an array of trace time makes it a tensor for both branches
        # (mutation.py): when the second makes one the first read, the first's run is
        # stale (it may stage a loop on it now, and append under it: random program
        # 200881), so the runs are done again until they make no new box.
        for _ in range(3):
            boxes, splits = mutation.lifts(graph), trial.list_splits()
            after = [trial.scratch_run(init, branch, get_state, set_state, init)
                     for branch in (body, orelse)]
            if mutation.lifts(graph) == boxes:
                break
        # (a staged region inside a branch that appends on one of its own paths, `elif c:
        # out.append(i)`, leaves the list with placeholder rows in a scratch trace, which
        # may equal the other branch's: such a list is appended to differently too)
        split = trial.list_splits() > splits
    except Exception:  # noqa: BLE001 - the real trace raises the real error
        return init, ()
    for i in dead:
        if any(not (isinstance(a[i], list) and _same_items(a[i], init[i])) for a in after):
            trial.refuse_shared(init[i], names[i], loc)
    out, relisted = list(init), []
    for i in lists:
        orig, grown = init[i], [a[i] for a in after]
        if _items_written(orig, grown):
            relisted.append(i)
            continue
        appended = [_appended_rows(orig, g) for g in grown]
        # (a staged loop in a branch hands the list on as the tensor of its rows, their
        # number known when it runs: `if c: for j in ...: h.append(j)`; refused as a
        # tensor beside a list before session 52): rows of its kind, how many unknown
        appended = [trial.new_rows(orig, g) if a is None else a
                    for a, g in zip(appended, grown)]
        if None in appended or (all(isinstance(g, list) for g in grown)
                                and _same_items(*grown) and not split):
            continue
        rows = appended[0] + appended[1]
        popped = any(_popped(orig, g) for g in grown)
        if (rows or popped) and all(core.is_tensor_like(v) for v in orig):
            out[i] = trial.as_tensor_list(orig, rows[0] if rows else None, names[i], loc,
                                          max(0, max(len(g) if isinstance(g, list)
                                                     else len(orig) + 1 for g in grown)
                                              - len(orig)), rows)
    return (tuple(out) if out != list(init) else init), tuple(relisted)


def _lists_begun_again(values, init):
    """``values`` (a branch's) where a list a staged loop carries (a TensorList before the
    `if`: the TensorList of the new items, in the buffer of before; or the tensor of its
    rows after a staged region: that kind) is bound to a new list (`run = []`, `run =
    [x[i]]`: a run begun again), as the other branch's is (session 52, the trips grammar:
    refused, a list beside the loop's rows)."""
    out = list(values)
    for i, (v, before) in enumerate(zip(values, init)):
        if type(v) is not list or not all(core.is_tensor_like(x) for x in v):
            continue
        if isinstance(before, data.TensorList):
            rows = before.emptied()
            for x in v:
                rows = rows.pushed(x)
            out[i] = rows
        elif isinstance(before, list_values.ListTensor):  # (one a Python loop left: the
            out[i] = before[:0] + v                       # tensor of its rows, that kind)
    return tuple(out)


def _items_written(orig, grown):
    """Whether the branches left list ``orig`` (as ``grown``) of its length, with items
    written differently, each of them a tensor or number before and after (`hold[0] =
    v` in one branch): the `if` merges its items, as a tuple's (`_items_as_tuples`)."""
    if not all(isinstance(g, list) and len(g) == len(orig) for g in grown) or \
            _same_items(*grown):
        return False
    return all(core.is_tensor_like(a) and core.is_tensor_like(b) and core.is_tensor_like(o)
               for o, a, b in zip(orig, *grown) if not (a is o and b is o))


def _items_as_tuples(after, relisted):
    """A branch's state with each list whose items the branches write (``relisted``) as
    the tuple of its items, which the core merges item by item."""
    out = list(after)
    for i in relisted:
        out[i] = tuple(after[i])
    return tuple(out)


def _rebound(after, given, relisted):
    """The positions of ``relisted`` (lists whose items the branches write) a branch
    binds to another list of the same length (`best = [v, i]` where the other writes or
    keeps `best`): merged as tuples too, into a new list (``_lists_rebound``)."""
    return {i for i in relisted
            if after[i] is not given[i] and not _same_items(after[i], given[i])}


def _appended_rows(orig, grown):
    """The tensors list ``grown`` appended to the items of ``orig`` (whose items it may
    have written with tensors: `counts[-1] += 1` beside `counts.append(1)`, which the
    TensorList's item write stages), or pushed after popping some of them; None when it
    changed otherwise."""
    if not isinstance(grown, list):
        return None
    if len(grown) >= len(orig) and all(
            a is b or (core.is_tensor_like(a) and core.is_tensor_like(b))
            for a, b in zip(orig, grown)):
        rows = grown[len(orig):]
    else:  # (its last items popped, then rows pushed: `b = st.pop(); a = st.pop();
        # st.append(a + b)`, session 54; the TensorList's pops and pushes stage them)
        kept = next((k for k, (a, b) in enumerate(zip(orig, grown)) if a is not b),
                    min(len(orig), len(grown)))
        rows = grown[kept:]
    return rows if all(core.is_tensor_like(v) for v in rows) else None


def _popped(orig, grown):
    """Whether a branch took items off list ``orig`` (its result ``grown`` does not start
    with all of them)."""
    return isinstance(grown, list) and not (
        len(grown) >= len(orig) and all(a is b for a, b in zip(orig, grown)))


def _flag_unset(values, init, deleted):
    """A variable unset before the `if` (or maybe unset: unset.py), or one a branch may
    `del` (positions `deleted`), leaves the branches with a flag saying whether it is set,
    (value, is_set): a branch that sets it gives True, one that leaves it unset at run
    time gives its flag, one that deletes it False (with a stand-in value). A branch
    leaving a variable unset before the `if` plainly unset keeps `Undefined` (the SPEC's
    one-branch error, `_check_pair`)."""
    out = list(values)
    for i, v in enumerate(values):
        if i in deleted and isinstance(v, Undefined) and not isinstance(init[i], Undefined):
            stand_in = unset.stand_in(unset.value_of(init[i]))
            if stand_in is not None:
                out[i] = unset.Flagged(stand_in, np.False_)
        elif isinstance(v, MaybeNone):
            continue  # (None or a value: _flag_optional; `r = None` where r was unset)
        elif (unset.is_unset_kind(init[i]) or i in deleted) and (
                isinstance(v, unset.MaybeUnset)
                or (optional_items.carriable(v) and not unset.is_unset_kind(v))):
            out[i] = unset.flagged(v)
    return tuple(out)


def _leaf_names(values, names):
    """The name of each leaf the core sees (a flag: "<'x' is set>"), for its errors."""
    out = []
    for v, name in zip(values, names):
        if isinstance(v, unset.Flagged):
            out += [name] * len(nest.flatten(v.value)) + [f"<'{name}' is set>"]
        else:
            out += [name] * len(nest.flatten(v))
    return out


def _same_items(a, b, apart=()):
    """Whether lists ``a`` and ``b`` hold the same items, but for positions ``apart``."""
    return len(a) == len(b) and all(x is y or k in apart
                                    for k, (x, y) in enumerate(zip(a, b)))


def _carried_items(names, name, n):
    """The positions of list ``name`` (of length ``n``) that the `if` carries as items
    of their own (`hold[0]`: analysis/composites.py), merged as tensors and set into the
    list after it (set_slot), when the list itself is carried too (a helper may write
    through it: `hold = ag__.resolve(hold)`)."""
    return {k for k in range(n) if f"{name}[{k!r}]" in names or f"{name}[{k - n!r}]" in names}


def _unchanged_as_original(values, init):
    """A branch's copy of a list or array that it left as it was is the original again.
    An array is its own original's copy (``trial.copy_for_trial``), whichever variable
    holds it: after `v1 = v0` in a branch, ``v1`` is ``v0``'s buffer, not ``v1``'s even
    when the two hold equal values (random program 3449: both np.ones(5) * 0.5)."""
    out = list(values)
    graph = context.current_graph()
    for i, (v, orig) in enumerate(zip(values, init)):
        if v is orig:
            continue
        if isinstance(orig, list) and isinstance(v, list) and _same_items(v, orig):
            out[i] = orig
        elif type(orig) is dict and type(v) is dict and list(v) == list(orig) and all(
                v[k] is orig[k] for k in orig):  # (in its order: a reordered one, refused)
            out[i] = orig
        elif isinstance(v, np.ndarray):
            source = mutation.original(v, graph)
            if source is not v and (v.dtype == source.dtype and v.shape == source.shape and
                                    np.array_equal(v, source,
                                                   equal_nan=v.dtype.kind in "fc")):
                out[i] = source
    return tuple(out)


def _settle_lists(traced, init, names, loc):
    """A Python list the branches change (in place, on their own copies).

    Both made the same change: the original list takes it, as in Python. Different
    changes cannot be staged (a list's items and length are Python values, not tensors),
    so that is an error, except in a trial trace (trial.py), which only asks what type
    the items take: there the list gets zero placeholders of the items the branches
    changed or added.
    """
    for i, (t, f) in enumerate(zip(traced[True], traced[False])):
        orig = init[i]
        staged = [rows for rows in (trial.new_rows(orig, v) for v in (t, f))
                  if rows is not None] if isinstance(orig, list) else []
        if len(staged) == 1 and any(isinstance(v, list) for v in (t, f)):
            # (a staged loop in one branch made it the tensor of its rows, the other left
            # it a list, where `_lists_as_tensor_lists` did not see it: in a trial, or
            # nested in a branch it traced: staged again, the list a tensor list)
            trial.list_split()
            raise _ListLate(i, staged[0][0])
        if not (isinstance(orig, list) and isinstance(t, list) and isinstance(f, list)):
            continue
        elif t is f:
            continue
        elif _same_items(t, f, _carried_items(names, names[i], len(orig))):
            merged = list(t)  # (an item carried on its own is set after the `if`)
        elif trial.active():
            trial.list_split()
            merged = []
            for k in range(max(len(t), len(f))):
                if k < len(t) and k < len(f) and t[k] is f[k]:
                    merged.append(t[k])
                else:
                    item = t[k] if k < len(t) else f[k]
                    merged.append(trial.zeros_like(item) if core.is_carriable(item) else item)
        else:
            for row in (t if len(t) > len(f) else f)[len(orig):]:
                trial.check_row(row, names[i], loc)  # (what the advice below misses)
            how = (f"its length is {len(t)} in the true branch and {len(f)} in the false one"
                   if len(t) != len(f) else "its items differ between the branches")
            raise ValueError(
                f"'{names[i]}' is a Python list that the branches of the staged `if` at "
                f"{loc} change differently ({how}); a list cannot depend on a tensor "
                f"condition: append to it in a staged loop (where it becomes a tensor "
                f"list), or keep the values in tensors (np.where, ag.cond); a stack "
                f"whose branches append and pop by name (`stack.append(v)`, `v = "
                f"stack.pop()` on a line of its own) is staged where every item is a "
                f"number or an array")
        if not trial.active():
            orig[:] = merged
            merged = orig
        traced[True] = traced[True][:i] + (merged,) + traced[True][i + 1:]
        traced[False] = traced[False][:i] + (merged,) + traced[False][i + 1:]


def _placeholder_return_value(which, traced, body, orelse, get_state, set_state, init,
                              names, alive):
    """A placeholder return value for a branch of a staged `if` that did not return.

    A `return` nested in a staged `if` (`if a: (if b: return x)` + more code) sets the
    return value in one branch only. The other branch did not return (`do_return` stays
    False there), so its return value is never read when the function always ends in a
    `return` (`falls_off` is False, see return_statements.py): a zero of the type of the
    other branch's value stands for it. When the other branch is not traced yet, it is
    traced once into a scratch graph (as a loop's trial iteration is, trial.py) to learn
    that type, from the state its real trace will see: the arrays of trace time this
    branch hands on are boxes by then (`data.leaving_region`), so a Python condition on
    one there is staged, and may lead to a `return` (seed 98831 of the random programs).
    In a trial trace too (a scratch trace of a branch or of a loop's iteration): there
    `_fill_one_sided` fills what is one-sided once both are traced, but a false branch
    that returns where the true branch did not would come too late for the true branch,
    whose results are handed over first (seed 1482 of the "numpy" grammar).
    """
    mine = traced[which]
    slots = [i for i, v in enumerate(mine) if _placeholder_wanted(v)]
    if not slots:
        return
    other = traced.get(not which)
    if other is None:
        def start(_):
            data.leaving_region(list(mine), names[:len(mine)], alive)
            return tuple(trial.copy_for_trial(v) for v in init)
        try:
            other = trial.scratch_run(init, orelse if which else body, get_state, set_state,
                                      tuple(mine) + tuple(init[len(mine):]), start)
        except Exception:  # noqa: BLE001 - no placeholder: the real trace raises the real error
            return
    filled = list(mine)
    for i in slots:
        if optional_items.carriable(other[i]):
            filled[i] = optional_items.placeholder(names[i], other[i], trial.zeros_like)
    traced[which] = tuple(filled)


def _returning_none(traced, init):
    """A branch that returns None (`if x[i] < 0: return`) while the other goes on (or
    returns None too): the return value is ReturnedNone on both paths, None wherever the
    function returns (the other path's own later `return` must give None too: a value is
    refused where it merges with it)."""
    t, f = list(traced[True]), list(traced[False])
    for i, pair in enumerate(zip(t, f)):
        if not isinstance(init[i], UndefinedReturnValue) or not all(
                v is None or isinstance(v, UndefinedReturnValue) for v in pair):
            continue
        if any(v is None or isinstance(v, ReturnedNone) for v in pair):
            t[i] = f[i] = next((v for v in pair if isinstance(v, ReturnedNone)),
                               None) or ReturnedNone()
    traced[True], traced[False] = tuple(t), tuple(f)


def _fill_one_sided(traced):
    """Trial mode (see trial.py): a value set in one branch only gets zeros in the other."""
    for which in (True, False):
        out = list(traced[which])
        for i, (mine, other) in enumerate(zip(out, traced[not which])):
            other = unset.value_of(other)
            if is_undefined(mine) and core.is_carriable(other):
                out[i] = trial.zeros_like(other)
        traced[which] = tuple(out)


def _placeholder_wanted(v):
    """Whether ``v``, a branch's return value, may take the other branch's placeholder: no
    value returned there, in a function that never falls off its end (not a None
    returned: ReturnedNone)."""
    return (isinstance(v, UndefinedReturnValue) and not v.falls_off
            and not isinstance(v, ReturnedNone))


def _nones_beside(name, v, other):
    """`v` with _none_beside of each None item beside the item of `other` there
    (optional_items.py); _none_beside of `v` itself when it is no tuple."""
    return optional_items.map_items(
        lambda p, a, b: a if b is optional_items.NOTHING
        else _none_beside(optional_items.item_name(name, p), a, b), v, other)


def _none_beside(name, v, other):
    """`v` of one branch, a None (or a None returned) where the other branch gives a tensor:
    a MaybeNone that is None (unset.py), as `idx = None ... if x[i] < 0: idx = i` leaves
    it."""
    if unset.is_none(v) and not isinstance(other, UndefinedReturnValue):
        beside = unset.none_beside(name, other, trial.zeros_like)
        return v if beside is None else beside
    return v


class _ListLate(Exception):
    """A list one branch made the tensor of its rows (a staged loop appended to it) and the
    other left a list (`_settle_lists`): staged_if stages the `if` again with the list at
    ``position`` a TensorList of rows like ``row``."""

    def __init__(self, position, row):
        super().__init__(position)
        self.position, self.row = position, row


def _python_on_one_path(t, f):
    """Whether a variable is a Python number after one branch and a NumPy number after the
    other (`total = 0.0`, then `total += x[i]` in one branch): the merge is the NumPy
    number's dtype, and a flag says on which runs it is Python's (python_numbers.py: `/`,
    `//`, `%` by zero raise there). Of a list of numbers (a ListTensor), whether either
    path's has rows that are Python numbers (list_values.with_row_flags): the flags are
    carried as the number's is."""
    if _a_list(t) or _a_list(f):
        return t is not f and _mixed_lists(t, f)
    if t is f or not all(_a_number(v) for v in (t, f)):
        return False
    on_t, on_f = python_numbers.python_flag(t), python_numbers.python_flag(f)
    return on_t is not on_f


def number_paths(i, a, b, differ, path=()):
    """Where variable ``i``'s values ``a`` and ``b`` (the two branches', or before and
    after a loop's trip) hold numbers that ``differ(a_item, b_item)`` (Python's on one
    only): ``i`` itself, or a path ``(i, key, ...)`` into the tuples and dicts both hold
    alike (`st = (0.0, 1.0)`, then `st = (x[0], 1.0)` in one branch: session 55's probe,
    the item's flag was lost and `1.0 / st[0]` gave inf where Python raises)."""
    if optional_items.is_tuple(a) and optional_items.is_tuple(b) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b)):
            yield from number_paths(i, x, y, differ, path + (k,))
    elif type(a) is dict and type(b) is dict and a.keys() == b.keys():
        for k in a:
            yield from number_paths(i, a[k], b[k], differ, path + (k,))
    elif differ(a, b):
        yield (i,) + path if path else i


def number_at(state, p):
    """The item of ``state`` at ``number_paths``' ``p`` (a position, or a path)."""
    if isinstance(p, int):
        return state[p]
    v = state[p[0]]
    for k in p[1:]:  # (a path another trace learnt: a value of no such item is no number)
        if optional_items.is_tuple(v) and isinstance(k, int) and k < len(v):
            v = v[k]
        elif type(v) is dict and k in v:
            v = v[k]
        else:
            return None
    return v


def number_name(names, p):
    """The variable or item at ``p``, as the user writes it (`st[0]`, `d['s']`)."""
    if isinstance(p, int):
        return names[p]
    return names[p[0]] + "".join(f"[{k!r}]" for k in p[1:])


def known_numbers(loc, names, kind="numbers", make=list):
    """The positions of the variables a staged `if` (loop) at ``loc`` over ``names`` found
    a Python number on one path only (PythonLate), kept for the rest of the function's
    trace: one nested in a region traced again (an outer loop staged again for its own
    flag) starts with them, or each level would double the traces of the levels inside.
    (``kind``/``make``: another such record, a loop's LoopObjects' one.)"""
    table = root_graph(context.current_graph()).__dict__.setdefault("_learnt", {})
    key = (kind, loc, tuple(names))
    if key not in table:
        table[key] = make()
    return table[key]


def python_late(before, after):
    """Whether a loop variable a Python number (on some runs) when it enters a trip is a
    NumPy number (on some runs) after it: staged_loop carries a flag beside it (a list
    with Python-number rows: one per row)."""
    if _a_list(before) or _a_list(after):
        return _mixed_lists(before, after)
    return (python_numbers.python_flag(before) is not False and _a_number(after)
            and python_numbers.python_flag(after) is not True)


def _a_number(v):
    if core.is_symbolic(v):
        return v.type.ndim == 0 and v.dtype.kind in "iuf"
    return type(v) in (int, float, bool)  # (a Python bool beside a NumPy int: `True - 2`)


def python_flag_value(v):
    """The flag a staged region carries for ``v`` (a number, or a list's one per row)."""
    if _a_list(v):
        flags = list_values.row_flags(v)
        return (numpy_api.zeros((dispatch.size_of(v, 0),), bool) if flags is None
                else flags)
    flag = python_numbers.python_flag(v)
    return np.bool_(flag) if isinstance(flag, bool) else flag


def mark_python(v, flag):
    """``v`` after a staged region, Python's where the carried ``flag`` holds (one per
    row: the tensor of a list's rows, made a ListTensor again after the region)."""
    if getattr(flag, "ndim", 0) == 1:  # (a list passed on unchanged, the object from
        # before the region, keeps the flags it has: the same rows, and readable after)
        return v if getattr(v, "_python_when", None) is not None else \
            list_values.with_row_flags(v, flag)
    return python_numbers.with_python_flag(v, flag)


def _a_list(v):
    """A list of numbers a staged region made the tensor of its rows (a ListTensor)."""
    return isinstance(v, list_values.ListTensor) and v.ndim == 1


def _mixed_lists(a, b):
    """Whether lists ``a`` and ``b`` (the two paths', or before and after a trip) are
    lists of numbers some rows of which are Python's: their flags carried per row."""
    return (all(_a_list(v) for v in (a, b)) and not all(
        isinstance(v, list_values.PythonNumbersList) for v in (a, b)) and any(
        list_values.has_row_flags(v) for v in (a, b)))


class PythonLate(Exception):
    """A variable is a Python number after one branch and not after the other (positions),
    or after a staged loop's trip and not before it: the `if` (loop) is staged again with
    a flag per such variable beside the branches' results (the loop's variables)."""

    def __init__(self, positions):
        super().__init__(positions)
        self.positions = positions


class _FlaggedLate(Exception):
    """The second branch traced gives None (or a MaybeNone) where the first gave a plain
    value, which it handed the core without a flag (`if s > 0: r = s else: r = None`; `if
    idx is None: r = -1 else: r = idx`): staged_if stages the `if` again, the first branch
    flagging `positions`, paths of optional_items.py (MaybeNone)."""

    def __init__(self, positions):
        super().__init__(positions)
        self.positions = positions


def _nones_given_late(traced, order, init, forced):
    """{path (optional_items.py): its stand-in} where the second branch traced gives None
    and the first a value it handed the core without a flag (the stand-in None: the
    first's value stands in), or where the first gave None, unflagged, and the second a
    value, or a MaybeNone (zeros of it stand in; the scratch trace of _name_one_sided or
    _placeholder_return_value saw None there too). See _FlaggedLate."""
    first, second = traced[order[0]], traced[not order[0]]
    late = {}

    def item(i, path, f, v, before):
        if (i,) + path in forced or f is optional_items.NOTHING:
            return f
        if ((unset.is_none(v) or isinstance(v, MaybeNone))
                and not unset.may_be_none(before) and not isinstance(f, MaybeNone)
                and f is not None and unset.none_beside("", f, trial.zeros_like) is not None):
            late[(i,) + path] = None
        elif (f is None and not isinstance(before, MaybeNone) and v is not None
              and unset.none_beside("", v, trial.zeros_like) is not None):
            late[(i,) + path] = trial.zeros_like(unset.value_of(v))
        return f
    for i, (f, v) in enumerate(zip(first, second)):
        if _whole(i, f, init, forced):
            item(i, (), f, v, init[i])
        else:
            optional_items.map_items(lambda p, *fvb, i=i: item(i, p, *fvb), f, v, init[i])
    return late


def _whole(i, first, init, forced):
    """Whether variable `i` is carried flagged as a whole (it may be None itself), not item
    by item: what it was before the `if`, the first branch's value of it, or `forced`."""
    return (unset.may_be_none(init[i]) or isinstance(first, MaybeNone) or (i,) in forced
            or not optional_items.is_tuple(first))


def _given_first(values, names, forced):
    """The first branch's values with each None at a path `forced` gives a stand-in for (a
    None it gave where the second gives a value: _nones_given_late) a MaybeNone that is
    None."""
    def item(i, path, v):
        stand_in = forced.get((i,) + path)
        if v is not None or stand_in is None:
            return v
        return MaybeNone(optional_items.item_name(names[i], path), stand_in, np.False_)
    return tuple(optional_items.map_items(lambda p, v, i=i: item(i, p, v), v)
                 for i, v in enumerate(values))


def _optional_nones(traced, order, init, names, forced):
    """Both branches traced: a None in one where the other gives a tensor becomes a
    MaybeNone that is None, when the first branch traced hands the core this variable (or
    this item of a tuple: optional_items.py) with a flag (it was None or a MaybeNone before
    the `if`, or the first branch's value is a MaybeNone, or `forced` flags it); otherwise
    the first branch's plain tensor leaves no room for a flag, and the pair is refused
    (_check_pair)."""
    for which in order:  # (`idx = None` in a branch, where it was a MaybeNone before)
        traced[which] = tuple(
            optional_items.map_items(
                lambda p, v, b, i=i: _none_beside(optional_items.item_name(names[i], p), v, b)
                if isinstance(b, MaybeNone) else v, v, init[i])
            for i, v in enumerate(traced[which]))
    traced[order[0]] = _given_first(traced[order[0]], names, forced)
    first, second = traced[order[0]], traced[not order[0]]
    done = list(second)

    def item(i, path, v, f, before):
        if unset.is_none(v) and (unset.may_be_none(before) or isinstance(f, MaybeNone)
                                 or (i,) + path in forced):
            return _none_beside(optional_items.item_name(names[i], path), v, f)
        return v
    for i, (f, v) in enumerate(zip(first, second)):
        if _whole(i, f, init, forced):
            done[i] = item(i, (), v, f, init[i])
        else:
            done[i] = optional_items.map_items(lambda p, *vfb, i=i: item(i, p, *vfb), v, f,
                                               init[i])
    traced[not order[0]] = tuple(done)


def _flagged(values, init, deleted, like=None):
    """A branch's values as the core takes them: items of tuples that may be None flagged
    (_flag_optional), then variables that may be unset (_flag_unset), then variables that
    may be None. Returns (values, the paths flagged as may be None)."""
    values, items = _flag_optional(values, init, like, items=True)
    values, whole = _flag_optional(_flag_unset(values, init, deleted), init, like)
    return values, items | whole


def _unflagged(name, v, whole):
    """The variable after the `if`, from the core's merge of `_flagged` values (`whole`: it
    was flagged as may be None itself)."""
    if isinstance(v, unset.Flagged):
        v = unset.Flagged(optional_items.unflagged(name, v.value), v.is_set)
    return optional_items.unflagged(name, unset.unflagged(name, v, whole))


def _flag_optional(values, init, like=None, items=False):
    """Variables (`items`: items of tuples, paths of optional_items.py) that may be None
    leave the branches as (value, is_set) (unset.Flagged): those that were None or a
    MaybeNone before the `if`, or are a MaybeNone now, or that the first branch traced
    (`like`) handed on so. Returns (values, those paths)."""
    out, optional = list(values), set()

    def item(path, v, before):
        if not (unset.may_be_none(before) or isinstance(v, MaybeNone)
                or (like is not None and path in like)):
            return v
        if unset.is_none(v) and isinstance(before, MaybeNone):
            # (`idx = None` in this branch)
            v = MaybeNone(before.name, trial.zeros_like(before.value), np.False_)
        elif v is None and like is not None and like.get(path) is not None:
            v = MaybeNone("", like[path], np.False_)  # (None given first: _FlaggedLate)
        if isinstance(v, (MaybeNone, unset.Flagged)) or (
                core.is_carriable(v) and not unset.is_unset_kind(v) and v is not None):
            optional.add(path)
            return unset.flagged(v, none=True)
        return v
    for i, v in enumerate(values):
        if _whole(i, v, init, () if like is None else like) == items:
            continue
        if items:
            out[i] = optional_items.map_items(
                lambda p, *vb, i=i: item((i,) + p, *vb), v, init[i],
                stop={p[1:] for p in like or () if p[0] == i})
        else:
            out[i] = item((i,), v, init[i])
    return tuple(out), optional


def _name_one_sided(which, traced, other_branch, get_state, set_state, init, names,
                    deleted, loc, cond=None):
    """The first branch traced left a variable unset: the SPEC's error names the branch
    that sets it, so the other branch is looked at now, before the core sees an unset
    output. It is traced into a thrown-away scratch graph (trial.scratch_run): traced in
    the current branch's region, its writes into arrays from before the `if` would stay
    in this branch (the other branch's `r0[i] += 1` applied on runs taking this one)."""
    mine = traced[which]
    unset_here = {i for i, v in enumerate(mine)
                  if is_undefined(v) or (v is None and not isinstance(init[i], MaybeNone))}
    # (a tuple holding None: its None items typed, beside the other's values; the real
    # trace of the other branch is checked against this one as every pair is)
    items_here = {i for i, v in enumerate(mine) if optional_items.holds_none(v, raw=True)}
    if not unset_here | items_here:
        return
    try:  # (narrowed as the other branch is: `if i is None: return None`, `return i, x[i]`)
        with unset.narrowed(cond, not which) as settled:
            other = settled(trial.scratch_run(init, other_branch, get_state, set_state,
                                              tuple(mine) + tuple(init[len(mine):])))
    except Exception as e:
        if getattr(e, "ag_user_raise", False) or not unset_here:
            return  # the other branch raises (if_stmt stages it): it hands nothing on; (or
            # only None items were to be typed: the real trace raises what it raises)
        raise
    other = _unchanged_as_original(other[:len(mine)], init)
    # (a return value this branch lacks where the other may return one: the placeholder
    # _placeholder_return_value gives, when its own scratch trace of the other branch saw
    # no return, an array of trace time it hands on being a box only by now: seed 9886
    # of the "numpy" grammar)
    mine = traced[which] = tuple(
        optional_items.placeholder(names[i], o, trial.zeros_like)
        if _placeholder_wanted(v) and optional_items.carriable(o)
        else _nones_beside(names[i], v, o) for i, (v, o) in enumerate(zip(mine, other)))
    pair = {which: mine, (not which): other}
    if trial.active():
        _fill_one_sided(pair)
        traced[which] = pair[which]
    _returning_none(pair, init)
    _check_all(pair, names, init, deleted, loc, only=unset_here)


def _name_structure_difference(traced, names, loc):
    """Raises the error of the first variable whose tuple or dict the branches left of
    another structure (`path = path + (i,)` in one, `d.popitem()`), naming it."""
    for name, t, f in zip(names, traced[True], traced[False]):
        found = _first_difference(name, unset.value_of(t), unset.value_of(f))
        if found is not None:
            path, a, b = found
            raise ValueError(
                f"'{path}' is {_structure(a)} in the true branch and {_structure(b)} in the "
                f"false branch of the staged `if` at {loc}; a staged `if` carries a tuple of "
                f"one length and a dict of one set of keys (their items, as tensors), and "
                f"which it holds would depend on a tensor: keep the values in a NumPy "
                f"array with a count (`vals = np.zeros(n); k = 0`), or give it the "
                f"same items on every path") from None


def _first_difference(name, a, b, depth=0):
    """(path, a, b) of the first place where ``a`` and ``b`` are tuples or dicts of
    different structures, or None."""
    kinds = (tuple, list, dict)
    if depth > 8 or not (isinstance(a, kinds) or isinstance(b, kinds)):
        return None
    if type(a) is not type(b) or len(a) != len(b) or (
            isinstance(a, dict) and a.keys() != b.keys()):
        return name, a, b
    keys = list(a) if isinstance(a, dict) else range(len(a))
    for k in keys:
        found = _first_difference(f"{name}[{k!r}]", a[k], b[k], depth + 1)
        if found is not None:
            return found
    return None


def _structure(x):
    if isinstance(x, dict):
        return f"a dict with the keys {sorted(x, key=repr)}"
    if isinstance(x, (tuple, list)):
        return f"a {type(x).__name__} of {len(x)} item{'s' if len(x) != 1 else ''}"
    return _describe(x)


def _check_all(traced, names, init, deleted, loc, only=None):
    for i, (name, t, f, before) in enumerate(zip(names, traced[True], traced[False], init)):
        if only is not None and i not in only:
            continue
        if (i in deleted and isinstance(t, Undefined) != isinstance(f, Undefined)
                and not isinstance(before, Undefined)
                and unset.stand_in(unset.value_of(before)) is not None):
            continue  # deleted in one branch: flagged (`_flag_unset`)
        _check_pair(name, t, f, before, loc)


def assert_stmt(test, msg=None):
    """`assert test, msg()` (converters/asserts.py): now on Python values; for a symbolic
    test, on every call, and with a message, the staged `if not test: raise
    AssertionError(msg())`, since Python's message is lazy: computed only on the runs where
    the assert fails (it may index what only a failure makes valid, `w[w < 0][0]`, or
    write an array)."""
    test = list_values.truth(test)  # (of an array: NumPy's truth, not all of it)
    if core.is_symbolic(test) and msg is None:
        # (Python's AssertionError() has no arguments: the check raises a copy of one, the
        # line in a note, not a text a user's `e.args` would read; session 54)
        at = where.caller()
        bare = AssertionError()
        bare.ag_exact = True
        bare.add_note(f"(assertion failed at {at})")
        api.check(test, f"assertion failed at {at}", original=bare)
        unset.narrow_after(test, True)  # (`assert x is not None`: x is set from here)
    elif core.is_symbolic(test):
        def failed():
            raise staging.user_raise(AssertionError(msg()))
        if_stmt(logical.not_(test), failed, lambda: None, lambda: (), lambda _: None, (), 0)
    elif not test:  # (the user's own: raised where the runs that reach it raise)
        raise staging.user_raise(AssertionError(msg()) if msg is not None
                                 else AssertionError())
