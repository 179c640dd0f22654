"""Initial values for staged loop variables that have none yet, or are Python lists.

A variable first set inside a staged loop (the return value `retval_`, a temporary used
after the loop) needs a typed initial value, and so does a list the loop appends to
(carried as one stacked tensor). As TF AutoGraph does, one iteration is traced into a
scratch graph that is then thrown away, with the other loop variables as symbolic
placeholders; the types it produces give zero placeholders. While that trial runs,
a staged `if` fills a variable set in only one branch with zeros (`active()`), since
the trial only asks what type a variable takes when it is set.
"""

import collections
import contextlib
import sys
import types

import numpy as np

from autograph_lite import contiguity, dtypes, mutation, numpy_api, python_numbers, tensor
from autograph_lite.ir import graph as graph_ir
from autograph_lite.ops import dispatch
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import (core, data, list_values, optional_items, slots,
                                              staging, trace_arrays, unset, where)
from autograph_lite.autograph.runtime.variables import ReturnedNone, Undefined, is_undefined

_DEPTH = [0]
# staged `if`s whose branches changed a Python list differently, in trial traces so far
# (conditionals._settle_lists): a Python loop whose one iteration does that must be staged
_LIST_SPLITS = [0]


def list_split():
    _LIST_SPLITS[0] += 1


def list_splits():
    """How many times a scratch trace merged a list its branches changed differently."""
    return _LIST_SPLITS[0]


def active():
    return _DEPTH[0] > 0


@contextlib.contextmanager
def _scratch_graph():
    g = graph_ir.Graph("autograph_trial", parent=context.current_graph())
    _DEPTH[0] += 1
    try:
        with context.graph_scope(g), mutation.scope() as log:
            try:
                yield g
            finally:
                log.restore()  # writes of the thrown-away iteration are undone too
    finally:
        _DEPTH[0] -= 1


def _rebuild(like, parts):
    return type(like)(*parts) if hasattr(like, "_fields") else tuple(parts)


def _placeholder_input(g, value):
    if value is None:  # (an item of a tuple None on some runs: optional_items.py)
        return None
    if isinstance(value, unset.MaybeNone):
        return unset.MaybeNone(value.name, _placeholder_input(g, value.value),
                               _placeholder_input(g, value.is_set))
    if isinstance(value, tuple):
        return _rebuild(value, [_placeholder_input(g, v) for v in value])
    if isinstance(value, dict):
        return {k: _placeholder_input(g, v) for k, v in value.items()}
    v = dispatch.as_value(g, value)
    param = g.add_input(v.type)
    contiguity.stand_in(param, v)  # (its layout, too)
    return list_values.keep_kind(value, tensor.SymbolicTensor(param))


def zeros_like(value):
    """A constant zero of the type of `value` (None sizes become 0); in a tuple, None for a
    None item and a MaybeNone that is None for one (optional_items.py)."""
    if value is None:
        return None
    if isinstance(value, unset.MaybeNone):
        return unset.MaybeNone(value.name, zeros_like(value.value), np.False_)
    if isinstance(value, tuple):
        return _rebuild(value, [zeros_like(v) for v in value])
    if isinstance(value, dict):
        return {k: zeros_like(v) for k, v in value.items()}
    if isinstance(value, (bool, int, float, complex)):
        return type(value)(0)
    if core.is_symbolic(value) and value.type.weak and not value.shape:
        # (one standing for a Python number, a range counter `return s` hands on: weak
        # too, so it promotes as Python's int with what it meets after the loop)
        return dtypes.weak_python_type(value.dtype)(0)
    return np.zeros(core.concrete_shape(value.shape or ()), dtype=value.dtype)


class _TrialList(list):
    """A list during the trial iteration: the body may index it with the traced loop
    index (`acc[i // 2]`), which the staged loop's TensorList supports too."""

    def __getitem__(self, index):
        if core.is_symbolic(index):
            item = numpy_api.stack(list(self))[index]
            if all(python_numbers.python_number(v) for v in self):
                return list_values.python_item(item)  # (a Python number, as the list's)
            return item
        return list.__getitem__(self, index)


def refuse_shared(items, name, loc):
    """Refuses list ``items`` of variable ``name`` that staged code at ``loc`` changes
    (appends to) where another name or container holds it too (data.other_names), or
    the caller, who passed it (function.py ``caller_lists``)."""
    graph = context.current_graph()
    caller = graph_ir.root_graph(graph).caller_lists.get(id(items)) if graph else None
    if caller is not None and caller[0] is items:
        raise TypeError(
            f"'{name}' is the list the caller passed as '{caller[1]}', which the staged code "
            f"at {loc} appends to; a compiled Function cannot change the caller's Python "
            f"containers (the list would become a tensor of its rows the caller never "
            f"sees): return the new list instead (`{name} = list({name})` first), or pass "
            f"a NumPy array, which it writes into as NumPy does")
    others = data.other_names(items, name)
    if others:
        raise ValueError(
            f"'{name}' is a Python list that the staged code at {loc} appends to, and "
            f"{', '.join(others)} holds the same list: a list appended to in a staged "
            f"loop or `if` becomes a tensor, which the other name would not see; copy it "
            f"(b = list(a)) or keep one name for it")


def check_row(element, name, loc):
    """Refuses a row of tensors in a tuple or list, which a list that staged code appends
    to (one array per row) cannot hold."""
    if isinstance(element, (tuple, list)) and any(core.is_tensor_like(v) for v in element):
        raise NotImplementedError(
            f"'{name}' is a Python list that the staged code at {loc} appends a "
            f"{type(element).__name__} of tensors to; such a list holds one array per row: "
            f"append one array (`np.array((a, b))`, or `np.stack`) or keep one list per item")


def as_tensor_list(items, element, name, loc, capacity, rows=()):
    """The TensorList form of a list (data.py): its items, then the rows the loop appends.
    Its dtype is the one ``np.array`` gives the items, ``element`` and ``rows`` (other rows
    known to be appended) together, so no item is cast to a narrower type. A list that
    another name holds too is refused: that name would not see the rows."""
    refuse_shared(items, name, loc)
    check_row(element, name, loc)
    given = element is not None and core.is_tensor_like(element)
    if not given:
        if items:  # (a loop that only pops: a tuple row is refused as an appended one is)
            check_row(items[0], name, loc)
        if items and not core.is_symbolic(items[0]):
            element = np.asarray(items[0])
        elif items:
            element = items[0]
        else:
            raise ValueError(f"{where.named(name)} is an empty list before the staged "
                             f"loop at {loc} and the loop does not append a tensor to it; "
                             f"append tensors or give it a first element before the loop")
    values = (*items, element, *rows)
    # (an element taken from the items, a loop that only pops: their kind, not the array
    # made of the first; session 55's probe, `j = st.pop()` of a list of Python ints was
    # an int64, and `ans[j] = i - j` made `ans` int64s)
    kept = values if given else (*items, *rows)
    python = all(python_numbers.python_number(v) for v in kept)
    # (some Python numbers among NumPy ones, `st = [0.0]` then `st.append(x[i])`: a flag
    # per row says which, data.FlaggedRows)
    flagged = not python and any(python_numbers.python_flag(v) is not False for v in kept)
    # (np.array's dtype of the items: a Python int among uint8 items is an int64 there, not
    # weak; a list of Python numbers alone reads back Python numbers: PythonNumberRows)
    dtype = np.result_type(*[core.dtype_of(v) if core.is_tensor(v) else np.asarray(v).dtype
                             for v in values])
    shape = np.shape(element) if not core.is_tensor(element) else element.shape
    first = items[0] if items else None
    first_shape = tuple(first.shape) if core.is_tensor(first) else np.shape(first)
    if items and len(first_shape) == len(shape):
        # (a size the loop's rows know only at run time is the items' before it: `x[0:2]`
        # appended by a trip Python ran, then `x[i:i + 2]`; list_push checks the rows)
        # (and one the first item knows only at run time is its: the row's may be a
        # stand-in's 0, from a scratch trace)
        shape = tuple(None if i is None else d if d is not None else i
                      for d, i in zip(shape, first_shape))
    # (a size still unknown is the first item's at run time: `out = [x]` of a relaxed
    # `x`; its concrete 0 made rows of no elements. The row may be a scratch trace's)
    known = first if core.is_symbolic(first) and len(first.shape) == len(shape) else None
    dims = tuple(d if d is not None or known is None else dispatch.size_of(known, k)
                 for k, d in enumerate(shape))
    if flagged and not len(shape):
        data.refuse_widened(values, dtype, f"{where.named(name)} (a list the staged code at "
                                           f"{loc} appends to)")
    return data.new_tensor_list(items, dims, dtype, capacity, python,
                                flagged and not len(shape))


def copy_for_trial(v):
    """A loop or branch state value a trial trace may mutate without touching the real one."""
    if isinstance(v, list):
        return list(v)
    if type(v) is dict:  # (written in place by item: conditionals.py writes it back)
        return dict(v)
    if isinstance(v, np.ndarray):
        # a write at trace time mutates a NumPy array: keep the real one intact. While
        # tracing, the copy stands for the original (a write inside a staged region makes
        # the original a tensor, mutation.py `lifted`), or is the tensor it already became
        graph = context.current_graph()
        if graph is None:
            return v.copy()
        box = trace_arrays.resolve(v)
        if box is not v:
            return box
        return mutation.copy_of(v, graph)
    return v


def scratch_run(values, run, get_state, set_state, restore, start=None, nodes=None):
    """The state `run()` leaves when traced once into a thrown-away scratch graph `g` from
    copies of the state `values` (or from the state `start(g)`, when given); the caller's
    state is set to `restore` afterwards. `nodes`: a list that gets the number of ops the
    run staged (those of branches and loops included). Errors propagate: the caller
    decides what not knowing means. What the run changed in the objects the code reaches
    (`self.v = ...` of a method it calls: a scratch tensor) is put back."""
    before = slots.reachable(sys._getframe(1))
    try:
        with _scratch_graph() as g, slots.scratch(before):
            set_state(start(g) if start else tuple(copy_for_trial(v) for v in values))
            with staging.region():
                run()
            if nodes is not None:
                nodes.append(staged_ops(g.nodes))
            return get_state()
    finally:
        before.restore()
        set_state(restore)


def staged_ops(nodes):
    """How many ops ``nodes`` stage, those of their branches and loops included."""
    return sum(1 + sum(staged_ops(r.nodes) for r in node.regions) for node in nodes)


def _trace_one_iteration(values, body, get_state, set_state, rest, nouts):
    """The loop values after one iteration of `body` from placeholders of `values` (None
    when the body reads a variable before setting it); the state is `values + rest` again
    afterwards."""
    def start(g):
        trial = tuple(_TrialList(v) if isinstance(v, list)
                      else _placeholder_input(g, v)
                      if optional_items.carriable(v) or isinstance(v, unset.MaybeNone)
                      else v for v in values)
        return trial + tuple(rest)

    before, data.APPENDS_SEEN[0] = data.APPENDS_SEEN[0], {}
    try:
        after = scratch_run((), body, get_state, set_state, tuple(values) + tuple(rest), start)
    except UnboundLocalError:
        return None
    finally:
        _APPENDED.clear()
        _APPENDED.update(data.APPENDS_SEEN[0])
        data.APPENDS_SEEN[0] = before
    return after[:nouts]


# (the rows the last trial trip appended, by list name: the kind of a list's rows where
# the trip also popped them, `ops.append(t); ops.pop()`, and left it as it was; session
# 56's probe: refused as "the loop does not append a tensor to it")
_APPENDED = {}


def iteration_cost(item, body, get_state, set_state, nouts):
    """(Whether one iteration of `body(item)` turns a loop variable into a symbolic tensor,
    how many ops it stages); (False, 0) when that cannot be known (see iteration_stages)."""
    values, nodes, splits = tuple(get_state()), [], _LIST_SPLITS[0]
    try:
        after = scratch_run(values, lambda: body(item), get_state, set_state, values,
                            nodes=nodes)
    except Exception:  # noqa: BLE001 - any failure: unroll as plain Python would
        return False, 0
    # (a list appended to under a staged condition: a list of tensors the loop carries)
    return (any(core.is_symbolic(v) for v in after[:nouts]) or _LIST_SPLITS[0] > splits,
            nodes[0])


def iteration_stages(item, body, get_state, set_state, nouts):
    """Whether one iteration of `body(item)` turns a loop variable into a symbolic tensor.

    The question a large Python `range` loop asks before unrolling: the NumPy idiom
    `out = np.empty(n); for i in range(n): ... out[i] = traced` starts with Python
    values only, yet every iteration stages ops. The iteration is traced into a scratch
    graph with copies of the state (arrays and lists are mutated in place) and thrown
    away; the real state is restored. Any error means "do not know": the caller unrolls,
    which raises the real error where it belongs.
    """
    return iteration_cost(item, body, get_state, set_state, nouts)[0]


def _new_element(before, after):
    """A row the trial iteration appended to a list: found in the list, or in what an
    inner staged loop made of it (a TensorList, or its stacked tensor)."""
    if isinstance(after, list):
        return after[len(before)] if len(after) > len(before) else None
    if isinstance(after, data.TensorList):
        after = after.buffer
    if core.is_tensor(after) and core.rank_of(after):
        # (a value of the thrown-away scratch graph: only its row type may be used)
        return np.zeros(core.concrete_shape(after.shape[1:]), after.dtype)
    return None


def new_rows(before, after):
    """[a row of the kind a staged loop appended to list ``before``], where ``after`` is
    what it made of it (a TensorList, or the tensor of its rows); else None."""
    if not isinstance(after, (data.TensorList, list_values.ListTensor)):
        return None
    row = _new_element(before, after)
    return [row] if row is not None else None


def _untouched(before, after):
    """Whether the trial iteration left a list as it found it: the same list object (the
    body's names for it are state only because a helper call may have written through
    them, converters/shared_names.py), no item appended, removed or replaced."""
    return (isinstance(after, _TrialList) and len(after) == len(before)
            and all(a is b for a, b in zip(after, before)))


def not_tensor(name, value, loc, when):
    """The refusal of a loop variable that holds a value no loop can carry (staged_loop.py
    checks what enters and leaves a trip; initial_values, an atom a trip changes)."""
    if isinstance(value, (collections.deque, set)):  # (changed in place: no name rebound)
        kind = type(value).__name__
        return NotImplementedError(
            f"the staged loop at {loc} changes the {kind} {where.named(name)} in place; no "
            f"staged loop carries a {kind}, and the change would happen once, while "
            f"tracing, for all trips: keep such values in a NumPy array (a ring buffer "
            f"`win = np.zeros(w)`, `win[i % w] = v`, or `seen = np.zeros(n, bool)`)")
    return TypeError(f"{where.named(name)} is a loop variable of the staged loop at "
                     f"{loc}, but {when} it holds a {type(value).__name__}, which cannot be "
                     f"a tensor; give it a tensor (or number) value")


def passes_through(before, value):
    """Whether initial_values left the loop value ``value`` (from ``before``) as the Python
    list itself, or as the Python atom itself (``_atom``): the loop does not carry it, and
    the name keeps it."""
    return (isinstance(before, list) or _atom(before)) and value is before


# Python values no loop can carry, which a name may hold unchanged through a staged loop:
# the converter rebinds the names a call is given (`score(cfg, name, v)`: `name =
# ag__.resolve(name)`, converters/shared_names.py), which makes them loop variables; one
# that one traced iteration leaves as the very object it was is not carried (session 49:
# a str passed to a helper or method in a staged `while` was refused as loop state)
_ATOMS = (str, bytes, type(None), types.FunctionType, types.BuiltinFunctionType,
          types.MethodType, types.ModuleType, type, range, slice)


def _atom(value):
    return isinstance(value, _ATOMS)


def _gets_value(value):
    return core.is_carriable(unset.value_of(value)) and not isinstance(value, dict)


def _nones_handed_on(values, traced, body, get_state, set_state, rest, nouts):
    """`traced` (one trip's values), where a variable None before the loop that one trip
    leaves None may get a value on a later trip from another that the first trip gave one
    (`prev = cur; cur = x[i]`, both None before): traced again from those values, until no
    more get one (session 50: `prev` was taken for None throughout, silently)."""
    if traced is None:
        return traced
    for _ in range(len(values)):
        nones = [i for i, v in enumerate(values[:nouts]) if v is None]
        grown = [i for i in nones if _gets_value(traced[i])]
        stayed = [i for i in nones if unset.is_none(traced[i])]
        if not grown or not stayed:
            return traced
        again = list(values)
        for i in grown:
            again[i] = zeros_like(unset.value_of(traced[i]))
        later = _trace_one_iteration(tuple(again), body, get_state, set_state, rest, nouts)
        newly = [i for i in stayed if later is not None and _gets_value(later[i])]
        if not newly:
            return traced
        traced = list(traced)
        for i in newly:
            traced[i] = later[i]
    return traced


def _later_trips(values, traced, names, late, body, get_state, set_state, rest, nouts,
                 loc, capacity):
    """`traced` (one trip's values), traced again where a trip changes what the first trip
    traced decided in Python: a variable (or an item of a tuple) None on some trips and a
    value on others (None before the loop and given a value by a trip, `prev = None ...
    prev = x[j]`, or a value a trip may set to None, `late`), or a list a trip appends to
    (its length and truth, `if hist and x[i] < hist[-1]:`, `if len(window) >= k:`). The
    first trip saw them as they are before the loop, so code under such a test (`if prev is
    not None and x[j] < prev: return j`, `d.append(x[j] - prev)`) ran on no path of it,
    and what only that code sets (the return value, a list's rows) looked unset by the
    loop: lost, silently (session 51's probes). The second trip sees each as the loop will
    carry it (a MaybeNone whose flag is a placeholder, a TensorList of placeholder rows and
    length), so both sides of those tests are traced."""
    if traced is None:
        return traced

    def maybe(path, v, after):
        path = tuple(path)
        if v is None and _gets_value(after):
            return unset.MaybeNone(optional_items.item_name(names[path[0]], path[1:]),
                                   zeros_like(unset.value_of(after)), np.False_)
        if path in late and v is not None and optional_items.carriable(v):
            return unset.MaybeNone(optional_items.item_name(names[path[0]], path[1:]), v,
                                   np.True_)
        return v
    again = [optional_items.map_items(lambda p, v, a, i=i: maybe((i,) + p, v, a), values[i],
                                      traced[i], stop={p[1:] for p in late if p[0] == i})
             for i in range(len(values))]
    for i, v in enumerate(values):
        element = _new_element(v, traced[i]) if isinstance(v, list) else None
        if element is not None and core.is_tensor_like(element):  # (a list that grows)
            again[i] = as_tensor_list(v, element, names[i], loc, capacity)
    if all(a is b for a, b in zip(again, values)):
        return traced
    later = _trace_one_iteration(tuple(again), body, get_state, set_state, rest, nouts)
    if later is None:
        return traced
    # (a list the first trip appended to keeps that trip's row: its items' kind, Python
    # numbers or not, PythonNumberRows, is read from it)
    return [t if isinstance(v, list) and isinstance(t, list) and len(t) > len(v) else a
            for v, t, a in zip(values, traced, later)]


def initial_values(values, names, body, get_state, set_state, rest, nouts, loc, capacity=16,
                   late=()):
    """Loop values the core can carry: undefined ones and lists replaced (see above; one the
    loop never sets stays undefined, and a list one iteration leaves as it was stays the
    list: staged_loop leaves both out of the loop);
    `capacity` is the number of rows a list's buffer has room for at first (a `for`
    loop's trip count); `late`: paths (optional_items.py) of values a trip may set to None
    (staged_loop._NoneLate)."""
    need = [i for i, v in enumerate(values)
            if is_undefined(v) or isinstance(v, list) or _atom(v)
            or optional_items.holds_none(v, raw=True)]
    if not need:
        return list(values)
    traced = _trace_one_iteration(values, body, get_state, set_state, rest, nouts)
    traced = _nones_handed_on(values, traced, body, get_state, set_state, rest, nouts)
    traced = _later_trips(values, traced, names, late, body, get_state, set_state, rest,
                          nouts, loc, capacity)
    out = list(values)
    for i in need:
        # (set by an inner staged loop: its type is that of the value, unset.py)
        after = unset.value_of(traced[i]) if traced is not None else Undefined(names[i])
        if isinstance(values[i], list) and _untouched(values[i], after):
            continue  # (the same list, as it was: passed through, see passes_through)
        if optional_items.is_tuple(values[i]):  # (holding None: optional_items.py)
            out[i] = optional_items.typed_nones(names[i], values[i], after, zeros_like)
            continue
        if unset.is_none(values[i]) and core.is_carriable(after) and not isinstance(after,
                                                                                  dict):
            out[i] = zeros_like(unset.value_of(after))  # (None on some runs: unset.MaybeNone)
            continue
        if _atom(values[i]):
            if after is values[i] or traced is None:
                continue  # (the same atom: passed through)
            raise not_tensor(names[i], values[i], loc, "before the loop")
        if isinstance(values[i], list):
            element = _new_element(values[i], after)
            if element is None and core.is_tensor_like(_APPENDED.get(names[i])):
                element = _APPENDED[names[i]]  # (appended, then popped: its kind)
            out[i] = as_tensor_list(values[i], element, names[i], loc, capacity)
        elif traced is not None and is_undefined(after):
            # the loop never sets it (e.g. an unreachable `return`): not carried; a `return`
            # of None on some trips (`if x[i] < 0: return None`) leaves it None wherever
            # the function returns from the loop, which a later `return` of a value must
            # not hide behind a placeholder (conditionals._check_pair refuses the merge)
            if isinstance(after, ReturnedNone):
                out[i] = after
            continue
        elif is_undefined(after) or not optional_items.carriable(after):
            raise ValueError(f"'{names[i]}' has no value before the staged loop at {loc} and "
                             f"the loop needs one; give it a value before the loop")
        else:  # (items of a tuple None on some runs: MaybeNone items, optional_items.py)
            out[i] = optional_items.placeholder(names[i], after, zeros_like)
    return out
