"""One staged loop for `while` and `for`: state in, `control.while_loop`, state out.

The first `nouts` state values are loop variables; the rest (temporaries of the body)
are restored after the loop. Loop variables are made ready for the core first (see
trial.py: a Python list becomes a TensorList, a row buffer plus its length, and leaves
the loop as the stacked tensor; a variable with no value yet gets a zero placeholder of
the type one traced iteration gives it). The body's results are checked against its
inputs, so dtype and rank changes raise the SPEC errors naming the variable and the
loop's line.
"""

import numpy as np

from autograph_lite import control, mutation, python_numbers
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import (conditionals, core, data, identities,
                                              list_values, logical, optional_items, slots,
                                              staging, trial, unset, user_raises, where)
from autograph_lite.autograph.runtime.variables import is_undefined


def _prepare(values, names, loc):
    for name, v in zip(names, values):
        if not core.is_carriable(v):
            raise trial.not_tensor(name, v, loc, "before the loop")
    # a NumPy array entering the loop (`out = np.zeros(n)`) is allocated by the kernel; one
    # a tuple holds (`pr = (t0, z)`) enters as the same box as its other names (`t0`), so
    # the loop's writes through those are seen through the tuple (the alias analysis links
    # them): entered as a constant, the tuple kept the values of before the loop
    return [_entering(v, name) for v, name in zip(values, names)]


def _entering(v, name):
    if isinstance(v, np.ndarray):
        return data.entering_loop(v, name)
    if type(v) is tuple:
        items = [_entering(x, name) for x in v]
        return tuple(items) if any(a is not b for a, b in zip(items, v)) else v
    return v


def _is_weak(value):
    """A Python number, or a tensor standing for one (the weak placeholder an enclosing
    staged loop gives a Python-number variable): it adopts the dtype the body gives it,
    NumPy 2 style (`s = 0; for row in m: for v in row: s += v` is int32 for an int32 `m`,
    at every depth of the nest)."""
    if type(value) in (bool, int, float, complex):  # (np.float64 is a float, not weak)
        return True
    return core.is_symbolic(value) and value.type.weak


def changes_dtype(e):
    """Whether ``e`` is _check_body's refusal of a loop variable whose dtype a trip changes
    (`s = x[0]` of an int32 `x`, then `s = alpha * v + (1 - alpha) * s`): a staged `for`
    with a trip count known while tracing then runs its first trip by itself and stages the
    rest (loops.py ``_staged_for_peeling``)."""
    return getattr(e, "changes_dtype", False)


def _check_body(names, before, after, weak, loc):
    for name, b, a, w in zip(names, before, after, weak):
        if not core.is_carriable(a):
            raise trial.not_tensor(name, a, loc, "after an iteration")
        if w or not core.is_tensor(a):
            continue
        if core.dtype_of(a) != core.dtype_of(b):
            e = TypeError(f"{where.named(name)} changes dtype from {b.dtype} to {a.dtype} "
                          f"in the staged loop at {loc}; a loop variable must keep one "
                          f"dtype (cast it before the loop or in the body)")
            e.changes_dtype = True
            raise e
        if core.rank_of(a) != core.rank_of(b) and core.rank_of(b) is not None:
            raise ValueError(f"{where.named(name)} changes rank from {core.rank_of(b)} to "
                             f"{core.rank_of(a)} in the staged loop at {loc}; a loop variable "
                             f"may change its shape but not its rank")


def run(test, body, get_state, set_state, names, nouts, opts, loc):
    """Stages `while test(): body()` over the current state. A body every trip of which
    reaches a `raise` of the user's raises on the first trip: that is a check of the test
    on entry instead (user_raises.py), and the loop runs no trip (a test known True: the
    first trip up to the `raise`, then the raise, always)."""
    init = tuple(get_state())
    try:
        slots.carrying_new_slots(
            lambda get_, set_, names_, nouts_: _run(test, body, get_, set_, names_, nouts_,
                                                    opts, loc),
            get_state, set_state, names, nouts)
    except Exception as e:
        if not _raised_by_every_trip(e, loc):
            raise
        set_state(init)
        enters = test()
        if not core.is_symbolic(enters) and not enters:
            return
        # (a loop that surely runs a trip, `enters` True: that trip up to the raise, then
        # the raise, on every run that reaches the loop)
        user_raises.raise_when(enters, e, body, (get_state, set_state, init),
                               f"the staged loop at {loc}", loc)


def _raised_by_every_trip(e, loc):
    """Whether ``e`` is a user's `raise` traced directly in this loop's body (not in a
    staged region inside it, whose own condition decides): its trace (``loc``) or the
    trial iteration before it (an unnamed region) let it out."""
    return (getattr(e, "ag_user_raise", False) and not hasattr(e, "ag_branch")
            and getattr(e, "ag_staged_at", None) in (loc, staging.UNNAMED))


def _run(test, body, get_state, set_state, names, nouts, opts, loc):
    get_state, set_state, names, nouts, watch = slots.narrow(get_state, set_state, names,
                                                             nouts, loc)
    init = tuple(get_state())
    rest = init[nouts:]
    names = names[:nouts]
    deleted = opts.get("deleted", ())
    # (a plain value, or an item of a tuple, the body may set to None: staged again with
    # it flagged, _NoneLate; paths of optional_items.py)
    late = set()
    # (positions a Python number on entry and a NumPy one after a trip)
    known = conditionals.known_numbers(loc, names)
    # (the arrays from before it its variables hand on: identities.LoopObjects)
    objects = conditionals.known_numbers(loc, names, "objects", identities.Record)
    while True:
        # (typed again once `late` grows: code under its None test runs on later trips)
        values = trial.initial_values(init[:nouts], names, body, get_state, set_state, rest,
                                      nouts, loc, opts.get("trip_count", 16), late)
        # a variable the loop never sets (still undefined), or a list it leaves as it was,
        # is not carried: it keeps its value
        carried = [k for k, v in enumerate(values)
                   if not is_undefined(v) and not trial.passes_through(init[k], v)]
        # one that may be unset after an iteration (it was before, or the body may `del`
        # it) carries a staged flag beside its value (unset.py); so does one None before
        # it, or on some runs (MaybeNone), or that a trip may set to None (`late`)
        flags = [k for k in carried if unset.is_unset_kind(init[k]) or names[k] in deleted
                 or unset.may_be_none(init[k]) or (k,) in late]
        try:
            final = _stage(test, body, get_state, set_state, names, opts, loc, init, values,
                           carried, flags, watch, late, list(known), objects)[:nouts]
            break
        except _NoneLate as e:
            late.add(e.path)
            set_state(init)
        except conditionals.PythonLate as e:
            known.extend(p for p in e.positions if p not in known)
            set_state(init)
        except identities.ObjectsLate as e:
            if not e.mine(objects):
                raise
            e.grow(objects)
            set_state(init)
    # lists this loop turned into TensorLists leave it as the stacked tensor
    # (not those it passed through, nor an outer loop's TensorList: that loop stacks it)
    final = tuple(f.listed()
                  if isinstance(v, list) and isinstance(f, data.TensorList)
                  else list_values.keep_kind(v, f) for v, f in zip(init, final))
    set_state(final + rest)


def _loop_reachable():
    graph = context.current_graph()
    return mutation.loop_reachable(graph)


def _is_set_before(value):
    if isinstance(value, unset.MaybeUnset):
        return value.is_set
    return np.bool_(not unset.is_unset_kind(value) and not unset.is_none(value))


class _NoneLate(Exception):
    """The body sets a loop variable with a plain value before the loop to None (on some
    runs: `cur = x[0]`, then `if x[i] < 0: cur = None`), or an item of one (`path`, of
    optional_items.py): the loop is staged again with it carried as a MaybeNone (its flag
    True at entry)."""

    def __init__(self, path):
        super().__init__(path)
        self.path = path


def _item_paths(values, carried, late):
    """{position: the paths in it of the tuple items carried flagged}: MaybeNone items
    before the loop (None ones too: trial.initial_values gave them a stand-in), and those
    `late` names."""
    out = {}
    for k in carried:
        paths = {p for p in late if len(p) > 1 and p[0] == k}
        if optional_items.is_tuple(values[k]):
            paths |= {(k,) + p for p, e in optional_items.items(values[k])
                      if isinstance(e, unset.MaybeNone)}
        if paths:
            out[k] = paths
    return out


def _with_flagged_items(k, v, paths):
    """Loop value `v` of position `k` with the items at `paths` as (value, is_set)."""
    return optional_items.map_items(
        lambda p, e: unset.Flagged(e.value, e.is_set) if isinstance(e, unset.MaybeNone)
        else unset.Flagged(e, True) if (k,) + p in paths else e, v,
        stop={p[1:] for p in paths})


def _items_flagged_after(k, v, entered, paths):
    """Loop value `v` of position `k` after a trip, with the items at `paths` as (value,
    is_set); where one is None, the value it `entered` the trip with stands in."""
    def item(p, e, s):
        if (k,) + p not in paths:
            return e
        return unset.flagged(e, stand_in=s.value if isinstance(s, unset.Flagged) else None,
                             none=True)
    return optional_items.map_items(item, v, entered, stop={p[1:] for p in paths})


def _items_late(k, v, before, paths):
    """A `_NoneLate` for the first item of `v` (position `k`, after a trip) that is None or
    a MaybeNone where the loop carries a plain value (`before`)."""
    if not optional_items.is_tuple(v):
        return None
    for p, e in optional_items.items(v):
        if (k,) + p in paths:
            continue
        b = optional_items.at(before, p)
        if isinstance(e, unset.MaybeNone) or (
                unset.is_none(e) and b is not optional_items.NOTHING
                and optional_items.carriable(b) and b is not None):
            return _NoneLate((k,) + p)
    return None


def _stage(test, body, get_state, set_state, names, opts, loc, init, values, carried, flags,
           watch, late=(), numbers=(), objects=None):
    """Stages the loop; returns the state after it. `flags`: positions carried with a flag
    saying whether the variable is set (the flags are extra loop variables); `late`: those
    of them that hold a value before the loop but may be None after a trip; `numbers`:
    positions carried with a flag saying whether the variable is a Python number (one on
    entry that a trip may make a NumPy number: `total = 0.0`, `total += x[i]` on some
    trips; python_numbers.python_flag); `objects`: the record of which arrays from before
    the loop its variables may hold (identities.LoopObjects: an int beside each)."""
    nouts = len(names)
    rest = init[nouts:]
    numbers = [p for p in numbers if (p if isinstance(p, int) else p[0]) in carried]
    names_c = [names[k] for k in carried] + [f"<'{names[k]}' is set>" for k in flags] + [
        f"<'{conditionals.number_name(names, p)}' is a Python number>" for p in numbers]
    items = _item_paths(values, carried, late)
    start = [_with_flagged_items(k, unset.value_of(values[k]), items.get(k, ()))
             for k in carried]
    values_c = _prepare(start, names_c, loc) + [_is_set_before(init[k]) for k in flags] + [
        conditionals.python_flag_value(conditionals.number_at(init, p)) for p in numbers]
    slot = {k: i for i, k in enumerate(carried)}
    held = identities.LoopObjects(objects or identities.Record(), carried,
                                  {k: values_c[slot[k]] for k in carried},
                                  identities.asked_in(body))
    names_c += [f"<which array '{names[k]}' holds>" for k in held.positions]
    values_c += held.initial()
    weak = [_is_weak(init[k]) for k in carried] + [False] * (len(flags) + len(numbers)
                                                              + len(held.positions))
    extra = len(carried) + len(flags) + len(numbers)  # (where held's ints begin)
    in_place, kept = set(), {}  # (kept: k -> whether every trip left that dict as it was)
    trip = [None, None]  # (the state the last traced trip began with and left)

    def full(vs, after=False):
        state = list(values)
        for k, v in zip(carried, vs):
            state[k] = list_values.keep_kind(init[k], v)
            if k in items:
                state[k] = optional_items.unflagged(names[k], state[k])
        for k, is_set in zip(flags, vs[len(carried):]):
            kind = (unset.MaybeNone if unset.may_be_none(init[k]) or (k,) in late
                    else unset.MaybeUnset)
            state[k] = kind(names[k], vs[slot[k]], is_set)
        for p, is_python in zip(numbers, vs[len(carried) + len(flags):]):
            conditionals.mark_python(conditionals.number_at(state, p), is_python)
        held.attach(state, vs[extra:], carried, after)
        return list(state) + list(rest)

    narrow = set()  # (variables the test rules None out of: `while cur is not None:`)

    def cond(*vs):
        state = full(vs)
        set_state(state)
        c = test()
        xs = unset.narrowing(c, True)
        narrow.clear()
        narrow.update(k for k, v in enumerate(state) if any(v is x for x in xs))
        return logical.as_bool(c)

    def loop_body(*vs):
        state = full(vs)
        for k in narrow:  # (a trip runs only where the test held: they are set in it)
            state[k].is_set = True
        set_state(state)
        trip[0] = list(state)  # (what the trip began with: _dicts_after)
        items_before = {k: dict(vs[slot[k]]) for k in carried if type(init[k]) is dict}
        orders = {k: slots.key_orders(vs[slot[k]]) for k in carried}
        with staging.region(loc), watch.active():
            body()
        watch.check(loc, "staged loop")
        state = get_state()
        trip[1] = list(state)
        for k in carried:  # (a dict's order, which no loop variable carries)
            slots.check_dict_order(orders[k], slots.key_orders(state[k]), names[k], loc,
                                   "staged loop", ("before a trip", "after it"))
        for k in carried:  # a dict the body wrote in place (not one it made): see below
            if type(init[k]) is dict:
                fate = slots.dict_fate(items_before[k], vs[slot[k]], state[k], names[k], loc,
                                       "staged loop")
                if fate != "rebound":
                    in_place.add(k)
                kept[k] = kept.get(k, True) and fate == "kept"
        # an array of trace time from before the loop, handed back: the buffer it is
        out = data.leaving_region([state[k] for k in carried],
                                  [names[k] for k in carried], _loop_reachable())
        for k in carried:
            if k not in flags and (isinstance(state[k], unset.MaybeNone) or (
                    unset.is_none(state[k]) and core.is_tensor_like(values[k]))):
                raise _NoneLate((k,))
            e = k not in flags and _items_late(k, state[k], values[k], items.get(k, ()))
            if e:
                raise e
            if (isinstance(state[k], unset.MaybeNone) and unset.is_unset_kind(init[k])
                    and names[k] not in opts.get("deleted", ())):
                raise NotImplementedError(
                    f"'{names[k]}' has no value before the staged loop at {loc} and may be "
                    f"None after a trip of it: whether it is unset (the loop may run no "
                    f"trip) or None would depend on a tensor; set it to None before the loop")
        for k, paths in items.items():
            out[slot[k]] = _items_flagged_after(k, out[slot[k]], vs[slot[k]], paths)
        out_flags = []
        for k in flags:
            pair = unset.flagged(state[k], stand_in=vs[slot[k]],
                                 none=unset.may_be_none(init[k]) or (k,) in late)
            out[slot[k]] = pair.value
            out_flags.append(pair.is_set)
        late_numbers = [p for k in carried for p in conditionals.number_paths(
            k, init[k], state[k], conditionals.python_late) if p not in numbers]
        if late_numbers:
            raise conditionals.PythonLate(late_numbers)
        codes = held.after_trip(carried, {k: vs[slot[k]] for k in carried}, state,
                                vs[extra:])
        out = tuple(out) + tuple(out_flags) + tuple(
            conditionals.python_flag_value(conditionals.number_at(state, p))
            for p in numbers) + tuple(codes)
        _check_body(names_c, vs, out, weak, loc)
        return out

    with where.located("staged loop", loc):
        final = control.while_loop(cond, loop_body, tuple(values_c),
                                          maximum_iterations=opts.get("maximum_iterations"),
                                          loop_var_names=names_c)
    out = list(full(final, after=True))  # (the flagged variables are MaybeUnset now)
    # A dict carried as a structure comes out of the loop as a new dict; one the body
    # only wrote into (`d[key] += v`) is the dict from before the loop in Python, which
    # other names may hold (`e = d`): it takes the new items in place.
    # One no trip wrote (a helper given it only reads it: `model(params, x[i])`, which
    # makes it loop state, converters/shared_names.py) is the dict from before, its items
    # as they were (session 52: refilled with the loop's tensors, the caller's dict
    # argument looked written, and the call was refused).
    for k in in_place:
        out[k] = init[k] if kept[k] else slots.refill(init[k], out[k])
    _dicts_after(trip, init, out, [k for k in carried if k not in in_place], names, loc,
                 set_state)
    return tuple(out)


def _dicts_after(trip, init, out, positions, names, loc, set_state):
    """Each variable's dicts after the loop (slots.dicts_kept): one that every trip hands
    on as it got it (`state = (params, n + 1)`) is the dict from before the loop, with the
    loop's items; one a trip replaces (`d = {...}`, a swap of two in a tuple) makes the
    loop's new dict stand for the one from before (on runs of no trip) and the one a trip
    leaves: refused where another name holds either. ``trip``: the state the last traced
    trip began with (the dicts the loop packed from its variables) and left."""
    begin, end = trip
    if begin is None:  # (no trip traced: nothing to compare)
        return
    origins = {}  # (a dict the loop packed -> the one from before it at that place)
    for k in positions:
        slots.note_origins(begin[k], init[k], origins)

    def canon(v, side):
        return origins.get(id(v), v)

    def differ(d, place, side):
        slots.refuse_shared_object(d, "dict", place, loc, "staged loop", set_state,
                                   init if side == 0 else end)
    for k in positions:
        out[k] = slots.dicts_kept(begin[k], end[k], out[k], init[k], names[k], differ, canon)
