"""Composite state: `d['s']`, `s.v`, `self.stats['n']` carried through staged ifs and loops.

The converter lists the composites a block writes (analysis/composites.py) beside the
names it assigns; `get_slot`/`set_slot` read and write each through the object that holds
it, so a staged `if` starts both branches from the value before it and writes the merged
value back into the same object, and a staged loop carries it as a loop variable: every
name and container that holds the object sees the change, as in Python (a dict handed to
the `if` as `d` and read afterwards as `e = d` included).

A composite whose base is not a dict, a list or a plain object (a NumPy array `out[0] =
v`, a tensor) is not one: the array machinery (mutation.py) carries those writes, and
`narrow` drops the position. So does the base itself when it is such a container: the
converter rebinds `d = ag__.setitem(d, ...)`, but the object stays the same, and carrying
it as a structure would merge it into a new dict that no other name holds. A dict the
state carries as a whole (a computed key, a helper, `d.update`) is copied per branch and
written back into the same dict (`refill`). `Watch` refuses what no state carries.
"""

import collections
import contextlib
import inspect
import sys
import types

import numpy as np

from autograph_lite import mutation
from autograph_lite.trace import context
from autograph_lite.autograph.runtime import (core, data, optional_items, trace_arrays,
                                              unset, where)
from autograph_lite.autograph.runtime.unset import Undefined


class _NotASlot:
    def __repr__(self):
        return "<not a composite>"


NOT_A_SLOT = _NotASlot()
# per narrow(): the composites read, in order: (id of the dict holding the item or
# attribute, key, id of the object, the base's text); the ids are None when the base is no
# container
_recording = []


def holds_slots(base, kind):
    """Whether `base[key]` (kind "item") or `base.key` ("attr") is state of its own."""
    if kind == "item":
        return isinstance(base, dict) or type(base) is list
    return ((hasattr(base, "__dict__") or bool(data.slot_names(type(base))))
            and not isinstance(base, data.NOT_OBJECTS) and not core.is_tensor(base)
            and not isinstance(base, unset.MaybeUnset))  # (a value: unset.py)


def get_slot(base, kind, key, name):
    """The value of the composite `name`: Undefined when the object has no such item or
    attribute yet (or its base is unset), NOT_A_SLOT when the base is no container."""
    try:
        obj = base()
    except (NameError, AttributeError, KeyError, IndexError, TypeError):
        obj = Undefined(name)    # (an unset base: the name reads as unset)
    if _recording:  # (what narrow() needs: the dict written, the key, the object, its base)
        base_text = name[:-len(f".{key}" if kind == "attr" else f"[{key!r}]")]
        held = holds_slots(obj, kind) and not isinstance(obj, Undefined)
        _recording[-1].append((id(obj) if held else None, key, id(obj) if held else None,
                               base_text))
    if isinstance(obj, Undefined) or not holds_slots(obj, kind):
        return Undefined(name) if isinstance(obj, Undefined) else NOT_A_SLOT
    if kind == "attr":
        if _set_through_descriptor(obj, key):
            return {k: v for k, v in vars(obj).items() if core.is_tensor_like(v)}
        return getattr(obj, key) if hasattr(obj, key) else Undefined(name)
    if isinstance(obj, dict):
        return obj[key] if key in obj else Undefined(name)
    return obj[key] if isinstance(key, int) and -len(obj) <= key < len(obj) else Undefined(name)


def set_slot(base, kind, key, value):
    """Writes `value` into the composite (in place); Undefined removes it again."""
    if value is NOT_A_SLOT:
        return
    if isinstance(value, Undefined):
        try:
            obj = base()
        except (NameError, AttributeError, KeyError, IndexError, TypeError):
            return
        if kind == "attr" and holds_slots(obj, kind) and key in data.attributes(obj):
            delattr(obj, key)
        elif isinstance(obj, dict):
            obj.pop(key, None)
        return
    obj = base()
    value = unset.stored(value, f"the attribute '{key}' of an object" if kind == "attr"
                         else f"the item {key!r} of a container")
    if kind == "attr" and _set_through_descriptor(obj, key):
        vars(obj).update(value)
    elif kind == "attr":
        setattr(obj, key, value)
    else:
        obj[key] = value


def _set_through_descriptor(obj, key):
    """Whether ``obj.key = v`` runs a setter of the class (a property's, a descriptor's
    `__set__`, the class's own `__setattr__`) on an object with a `__dict__`. Its composite is then what that setter
    writes, the object's attributes: carried as a dict of them and written back into
    them, so the merged value does not go through the setter again (which would apply a
    transforming setter twice, `self._a = v + 1`, and run it on the runs that do not take
    the branch). Only its numbers and arrays are state: a setter that rebinds another
    kind of attribute (a string, a list) keeps the trace's (README)."""
    if not isinstance(getattr(obj, "__dict__", None), dict):
        return False
    if inspect.isfunction(getattr(type(obj), "__setattr__", None)):
        return True  # (the class's own __setattr__: what it writes, not what it is given)
    return hasattr(type(data.class_attribute(type(obj), key)), "__set__")


def is_composite(name):
    """Whether a state name is a composite's (`d['s']`, `s.v`), not a variable's or one of
    the runtime's own (`<loop counter>`)."""
    return not name.isidentifier() and not name.startswith("<")


def _is_holder(v):
    return holds_slots(v, "item") or holds_slots(v, "attr")


def narrow(get_state, set_state, names, nouts, loc, what="staged loop"):
    """(get_state, set_state, names, nouts) without the positions that are no state, each
    passed through as the object it holds (a trace that rebinds such a name to another
    object is refused: a staged `if` or loop carries items, not a choice between objects):
    - a composite on something that is not a container;
    - a dict some plain name of the state carries as a whole (`d[key] = v`, `fill(d)`:
      copied per branch, written back, conditionals.py and staged_loop.py): its other
      names, and its composites, which that carries too;
    - otherwise a container that composites stand for (the base, another name of it), and
      an object of the user's class (its attributes are the composites, or the watch's).
    In a staged loop (`what`) a composite with no value before it is an error: the loop
    may run zero times."""
    with _covered() as reads:
        init = get_state()
    composite = [i for i, n in enumerate(names) if is_composite(n)]
    base_obj = {i: reads[k][2] for k, i in enumerate(composite)}
    bases = {r[3] for i, r in zip(composite, reads) if i < nouts}
    carriers = {}
    for i, (name, v) in enumerate(zip(names, init)):
        if type(v) is dict and name not in bases and i not in base_obj:
            carriers.setdefault(id(v), i)
    shared = {id(v) for name, v in zip(names, init) if name in bases and _is_holder(v)}
    carried = {(r[0], r[1]) for r in reads if r[2] is not None and r[2] not in carriers}
    watch = Watch(carried, loc, what, _cells_of(set_state))
    keep, through = [], {}
    for i, (name, v) in enumerate(zip(names, init)):
        if v is NOT_A_SLOT or base_obj.get(i) in carriers:
            continue
        carrier = carriers.get(id(v))
        if _is_holder(v) and (carrier not in (None, i) or (carrier is None and id(v) in shared)
                              or data.is_users(v)):
            through[i] = carrier  # (None: the object itself, which no state can carry)
            continue
        if what == "staged loop" and i < nouts and i in base_obj and isinstance(v, Undefined):
            raise ValueError(f"'{name}' is set in the {what} at {loc} but has no value "
                             f"before it (the loop may run zero times); give it a value "
                             f"before the loop")
        keep.append(i)
    if len(keep) == len(names):
        return get_state, set_state, names, nouts, watch

    def get():
        state = get_state()
        for i, j in through.items():
            if i >= nouts and what != "staged loop":
                continue  # (dead after the `if`: `for j, b in enumerate(bins)`'s `b` in a
                # trip traced under a tensor `break`'s condition; session 53's probe)
            if state[i] is not (init[i] if j is None else state[j]):
                kind = type(init[i]).__name__
                said = (f"'{names[i]}', a {kind}, is rebound to another object in the "
                        f"{what} at {loc}" if j is None else f"'{names[j]}' or "
                        f"'{names[i]}' is rebound in the {what} at {loc} while its {kind} "
                        f"is written in place there")
                raise NotImplementedError(
                    f"{said}; a staged `if` or loop carries arrays and the items and "
                    f"attributes of objects, not a choice between two objects: write into "
                    f"one object, or rebind the name before the {what.split()[-1]}")
        return tuple(state[i] for i in keep)

    # (a composite carried inside its dict is not written on its own: set_slot skips it)
    rest = [NOT_A_SLOT if i in base_obj else v for i, v in enumerate(init)]

    def set_(values):
        state = list(rest)
        for i, v in zip(keep, values):
            state[i] = v
        for i, j in through.items():
            if j is not None:
                state[i] = state[j]
        set_state(tuple(state))

    return (get, set_, tuple(names[i] for i in keep), sum(1 for i in keep if i < nouts),
            watch)


def dict_fate(start, given, now, name, loc, what):
    """What a branch or loop body did with a dict the state carries as a whole, given to
    it as ``given`` (holding the items ``start`` then) and left as ``now``: "kept" (the
    same dict, unwritten), "written" (the same dict, written in place) or "rebound" (the
    name holds another object). A body that wrote into it and rebound the name too is
    refused: the dict from before would keep the write in Python, which the merge of one
    name cannot say."""
    changed = given.keys() != start.keys() or any(given[k] is not start[k] for k in start)
    if now is given:
        return "written" if changed else "kept"
    if changed:
        raise NotImplementedError(
            f"'{name}' is written in place and then rebound in the {what} at {loc}; a "
            f"staged `if` or loop carries a dict's items or a new dict, not both: write "
            f"into a copy (dict(...)) or do not rebind the name there")
    return "rebound"


def key_orders(v, depth=0):
    """``v``'s dicts, lists and tuples as they are now, their other items None: what
    ``check_dict_order`` compares, kept while a trip writes the dicts in place."""
    if depth > 8:
        return None
    if type(v) in data.DICTS:
        return {k: key_orders(x, depth + 1) for k, x in v.items()}
    if type(v) in (tuple, list):
        return type(v)(key_orders(x, depth + 1) for x in v)
    return None


def check_dict_order(a, b, name, loc, what, sides, depth=0):
    """Refuses values ``a`` and ``b`` of ``name`` (the two branches of a staged `if`, what
    enters and leaves a staged loop's trip: ``sides``, how to say each) holding, at one
    place, dicts of the same keys in another order (`v = d.pop(k); d[k] = v`, `{"b": ..,
    "a": ..}` in one branch): the structures the core compares hold keys, not their order,
    and one order was kept on every path (session 52's probe: `list(d)` came out wrong)."""
    if depth > 8:
        return
    if type(a) in data.DICTS and type(b) in data.DICTS and a.keys() == b.keys():
        if list(a) != list(b):
            raise ValueError(
                f"'{name}' is a dict whose keys are in the order {list(a)} {sides[0]} and "
                f"{list(b)} {sides[1]} of the {what} at {loc}; a staged branch or loop "
                f"carries a dict's items, not their order, which would depend on a tensor: "
                f"keep its keys in one order on every path (sort them where it matters)")
        for k in a:
            check_dict_order(a[k], b[k], f"{name}[{k!r}]", loc, what, sides, depth + 1)
    elif type(a) in (tuple, list) and type(b) is type(a) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b)):
            check_dict_order(x, y, f"{name}[{k}]", loc, what, sides, depth + 1)


def refuse_shared_object(obj, kind, name, loc, what, set_state=None, state=None):
    """Refuses ``obj`` (a ``kind``: dict, list), one of the objects ``name`` may be after
    the staged ``what`` at ``loc`` (a branch's, what enters a loop, what a trip leaves),
    where another name or container holds it too (``data.other_names``, with the state
    ``state`` set where given). The region's merge makes ``name`` a new object: in Python
    it is that object on some runs, and a write through either name reaches the other
    there (session 55:
    `d = base` in one branch and `{...}` in the other, then `d["a"] = v`, left `base`
    unchanged)."""
    if set_state is not None:
        set_state(state)
    # (an item of the variable, `r[0]`: the variable holds it there, which is no other name)
    others = [o for o in data.other_names(obj, data.root_name(name)) if o != f"`{name}`"]
    if others:
        raise NotImplementedError(
            f"'{name}' is, on some runs, the {kind} that {', '.join(others)} also "
            f"{'holds' if len(others) == 1 else 'hold'} after the {what} at {loc}; the "
            f"{what} gives '{name}' one new {kind} on every run (which object Python's "
            f"'{name}' is would depend on a tensor), so a write through either name would "
            f"not reach the other as it does in Python; give '{name}' a copy "
            f"(`{kind}(...)`), or keep one {kind} and write its items")


def dicts_kept(a, b, merged, keep, name, differ, canon=lambda v, side: v):
    """``merged`` (what a staged region's merge made of a value that was ``a`` on one path
    and ``b`` on the other) with every dict that is one object on both (``a`` is ``b``
    there) made that dict again, ``keep``'s object at the same place (``a``'s for an `if`,
    the loop's entry value for a loop), holding the merged items: the merge packs new
    dicts, and a write through the name after it must reach that dict (session 55's
    probe: `a = d` in both branches, or `state = (params, n + 1)` in a loop, then
    `a["s"] = v` left `d` unchanged). Where the two are different dicts, ``differ(dict,
    place, side)`` is called for each (``refuse_shared_object``: nested ones too, `r =
    (d,)` / `(e,)`). Tuples, namedtuples and dicts are walked where both sides are such,
    alike. ``canon(value, side)``: the object a side's value stands for (a branch's copy of
    a dict of the state: the dict itself)."""
    a, b, keep = canon(a, 0), canon(b, 1), canon(keep, 0)
    if type(a) is dict and type(b) is dict:
        if a is not b:
            differ(a, name, 0)
            differ(b, name, 1)
        if type(merged) is not dict or a.keys() != b.keys() or merged.keys() != a.keys():
            return merged
        keep = keep if type(keep) is dict and keep.keys() == a.keys() else a
        items = {k: dicts_kept(a[k], b[k], merged[k], keep[k], f"{name}[{k!r}]", differ,
                               canon) for k in merged}
        if a is not b:
            merged.update(items)
            return merged
        if merged is keep:
            return keep
        keep.clear()
        keep.update(items)
        return keep
    if (optional_items.is_tuple(a) and optional_items.is_tuple(b) and len(a) == len(b)
            and optional_items.is_tuple(merged) and len(merged) == len(a)):
        keep = keep if optional_items.is_tuple(keep) and len(keep) == len(a) else a
        items = [dicts_kept(x, y, m, k, f"{name}[{i}]", differ, canon)
                 for i, (x, y, m, k) in enumerate(zip(a, b, merged, keep))]
        if all(x is m for x, m in zip(items, merged)):
            return merged
        return type(merged)(*items) if hasattr(merged, "_fields") else tuple(items)
    return merged


def note_origins(packed, original, out):
    """Records in ``out`` {id of each dict in ``packed``: the dict at its place in
    ``original``}, walking tuples and dicts alike in both (a staged loop's variables,
    packed anew from its placeholders, and their values before the loop)."""
    if type(packed) is dict and type(original) is dict and packed.keys() == original.keys():
        out[id(packed)] = original
        for k in packed:
            note_origins(packed[k], original[k], out)
    elif (optional_items.is_tuple(packed) and optional_items.is_tuple(original)
          and len(packed) == len(original)):
        for x, y in zip(packed, original):
            note_origins(x, y, out)


def refill(original, new):
    """``original`` (a dict from before a staged region) holding the items of ``new`` (the
    dict the region's merge or loop made): the object every other name sees."""
    original.clear()
    original.update(new)
    return original


@contextlib.contextmanager
def _covered():
    _recording.append([])
    try:
        yield _recording[-1]
    finally:
        _recording.pop()


class NewSlots(Exception):
    """Raised by ``Watch.check``: the trace of a staged region changed items or attributes
    of the user's containers that its state does not carry (a method, `acc.add(v)`, doing
    `self.count += 1`), each a number or tensor before and after, so the region can carry
    them: it traces again with them as composites of its own (``carrying_new_slots``)."""

    def __init__(self, slots, refusal):
        super().__init__(str(refusal))
        self.slots, self.refusal = slots, refusal


class Watch:
    """The dicts, lists and objects' attributes the user's converted code can reach when a
    staged branch or loop body begins (its frames' locals and the globals they name, and
    what those hold), with their items then. A trace of the body that changes one of them
    otherwise than through the composites the state carries (`covered`) changed a Python
    object on one path, or once for every trip, which the compiled code cannot do on the
    paths it takes: `check` puts the items back and asks the region to carry them
    (NewSlots) when each is a number or tensor before and after, else refuses (a helper
    appending to a list, `d[k] = v` adding a key)."""

    def __init__(self, covered, loc=None, what="staged loop", cells=frozenset()):
        self.covered, self.loc, self.what = covered, loc, what.replace("staged ", "")
        self.cells = cells  # (ids of the closure cells its state writes: nonlocal_write_guard)
        self.snapshot = reachable(sys._getframe(1))
        self.seen = self.snapshot.seen

    @contextlib.contextmanager
    def active(self):
        """``with watch.active():`` around a trace of the region's body (``advancing``)."""
        _WATCHING.append(self)
        try:
            yield
        finally:
            _WATCHING.remove(self)

    def check(self, loc, what):
        bag = self.snapshot.changed_bag()
        if bag is not None:
            self.snapshot.restore()
            raise NotImplementedError(
                f"the {what} at {loc} changes the set or deque '{bag}' in place; no staged "
                f"branch or loop carries one, and the change would happen once, while "
                f"tracing, for all paths and trips: "
                f"keep such values in a NumPy array (`seen = np.zeros(n, bool)`, "
                f"`seen[k] = True`) or change it outside the {what}")
        changed, became, grown = [], None, None
        for key, (c, path, before, owner, kind) in self.seen.items():
            now = dict(data.items_of(c))
            if type(c) in data.DICTS and before.keys() == now.keys() and \
                    list(before) != list(now):  # (a dict's order, no item carries it)
                self.snapshot.restore()
                raise NotImplementedError(
                    f"the {what} at {loc} reorders the dict '{path}' (`d.pop(k)` then "
                    f"`d[k] = v`, `move_to_end`, `popitem`): no staged branch or loop "
                    f"carries a dict's order, and the change would happen once, while "
                    f"tracing, for all paths and trips: keep the order in a NumPy array "
                    f"(of keys or positions) or change it outside the {what}")
            for k in sorted(set(before) | set(now), key=repr):
                if (key, k) not in self.covered and (
                        k not in before or k not in now or before[k] is not now[k]) and not (
                        k in before and k in now and _handed_over(before[k], now[k])):
                    slot = f"{path}{k}" if path.endswith(".") else f"{path}[{k!r}]"
                    carriable = (k in before and k in now and core.is_tensor_like(before[k])
                                 and core.is_tensor_like(now[k]) and is_composite(slot))
                    changed.append((owner, kind, k, slot, carriable))
                    if type(c) is list and k not in before and grown is None and \
                            not _held_by_a_module(path):  # (a module's list: storing one
                        grown = path                      # back would rebind it)
                    if k in before and k in now and not carriable and is_composite(slot) \
                            and not core.is_tensor_like(before[k]) \
                            and core.is_tensor_like(now[k]):
                        became = (slot, type(before[k]).__name__)
        if not changed:
            return
        self.snapshot.restore()
        slot = next((c[3] for c in changed if not c[4]), changed[0][3])
        if became is not None:  # (a lazily made state: `if self.m is None: self.m = ...`)
            raise NotImplementedError(
                f"the {what} at {loc} makes '{became[0]}' an array where it held a "
                f"{became[1]} before (a value made on the first trip, as `if self.m is "
                f"None: self.m = np.zeros_like(w)`): state the {what} carries must hold "
                f"an array of its shape before it too; make it before the {what}")
        if grown is not None and not grown.isidentifier():  # (`hist["S"].append(s)`)
            raise NotImplementedError(
                f"the {what} at {loc} appends to the list '{grown}', which a container or "
                f"object holds; a staged branch or loop carries the lists its own names "
                f"hold, not those: append to a local list (`s_hist = []` before, "
                f"`s_hist.append(s)` inside) and store it after the {what} "
                f"(`{grown} = s_hist`)")
        refusal = NotImplementedError(
            f"the {what} at {loc} changes '{slot}' in place where AutoGraph cannot "
            f"carry it (inside a called function or a method of the object, or "
            f"by a method such as .append/.update of a container the {what} does "
            f"not name); the change would happen on every path, or once for all "
            f"trips: write it in the branch or loop itself as `name[constant] = "
            f"...` or `name.attr = ...`, or have the function return the new value")
        if all(c[4] for c in changed):
            raise NewSlots([c[:4] for c in changed], refusal)
        raise refusal


def _handed_over(before, now):
    """Whether an item went from a NumPy array of trace time to the box it became
    (data.lift hands the box to the containers that held the array: a list a staged
    branch makes a row buffer copies `st = [np.zeros(2)]`'s first item so; session 56's
    probe refused it as a change the branch made in place)."""
    return isinstance(before, np.ndarray) and not isinstance(now, np.ndarray) and \
        trace_arrays.resolve(before) is now


def _held_by_a_module(path):
    """Whether the first name of ``path`` (`user_module.REG`) is a module the user's
    converted code holds."""
    root = path.split(".", 1)[0].split("[", 1)[0]
    for f in data.converted_frames(sys._getframe(1)):
        value = f.f_locals.get(root, f.f_globals.get(root))
        if value is not None:
            return isinstance(value, types.ModuleType)
    return False


def reachable(frame):
    """A Snapshot of what the user's converted code can reach from ``frame`` outwards: its
    frames' locals and the globals they name, and the module and closure variables of the
    user's functions those hold (a helper's, a callback's). Past the scan limit with the
    functions', the frames' own alone."""
    roots = []
    for f in data.converted_frames(frame):
        roots += [(v, k) for k, v in f.f_locals.items() if not k.startswith("ag__")]
        names = data.global_names(f.f_code)
        found = [(f.f_globals[k], k) for k in names if k in f.f_globals]
        roots += found + data.module_attributes(found, names)
    helpers = [v for v, _ in roots if isinstance(v, types.FunctionType)]
    snapshot = Snapshot(roots + _helpers_roots(helpers))
    return snapshot if snapshot.complete else Snapshot(roots)


def _helpers_roots(functions):
    """[(object, name)] the module variables and closure variables of the user's functions
    that ``functions`` hold or reach through theirs (`bump(k)` doing `COUNTS[k] += 1` on
    its module's dict): what a helper called in a staged region may change in place."""
    roots = []
    for f, (scope, cells) in data.functions_reached(functions).items():
        roots += data.roots_of(f, scope, cells)
    return roots


class Snapshot:
    """The items of the dicts and lists and the attributes of the user's objects reachable
    from ``roots`` ([(object, name)]), to put back where a trace that changed them is
    dropped (a staged region traced again, a trace that failed: function.py); also the
    contents of its sets and deques (``bags``: no state carries them) and its iterators
    (whose position cannot be looked at: ``advancing``); and the attributes of the user's
    classes and functions it reaches (``owners``)."""

    def __init__(self, roots, scopes=()):
        self.seen, self.bags, self.iterators = {}, {}, {}
        self.owners = {}  # (`Stats.n = v`: the classes' and functions' attributes too)
        # (the module variables of ``scopes``, [(globals, names)]: `global LAST; LAST = v`)
        self.bindings = [(g, k, g.get(k, _UNBOUND)) for g, names in scopes for k in names]
        self.complete = True
        for x, path in reach_all(roots, self.owners):
            if path is None:  # (past the limit; a None value is a value)
                self.seen, self.bags, self.iterators = {}, {}, {}  # (too much: not checked)
                self.complete = False
                return
            if type(x) in data.DICTS or type(x) is list:
                self.seen[id(x)] = (x, path, dict(data.items_of(x)), x, "item")
            elif data.is_users(x):
                attributes = data.attributes(x)
                self.seen[id(x)] = (attributes, path + ".", dict(attributes.items()), x, "attr")
            elif type(x) in _BAGS:
                self.bags[id(x)] = (x, path, list(x))
            elif hasattr(type(x), "__next__") and not core.is_tensor(x):
                self.iterators[id(x)] = (x, path)

    def changed_bag(self):
        """The name of a set or deque whose contents changed since, or None."""
        for x, path, before in self.bags.values():
            if len(x) != len(before) or (set(x) != set(before) if type(x) is set else
                                         any(a is not b for a, b in zip(x, before))):
                return path
        return None

    def restore(self):
        for scope, k, v in self.bindings:
            if scope.get(k, _UNBOUND) is not v:
                if v is _UNBOUND:
                    del scope[k]
                else:
                    scope[k] = v
        for c, _, before, _, _ in self.seen.values():
            if type(c) is list:
                c[:] = [before[k] for k in range(len(before))]
            else:
                c.clear()
                c.update(before)
        for x, _, before in self.bags.values():
            x.clear()
            x.extend(before) if type(x) is collections.deque else x.update(before)
        for owner, before in self.owners.values():
            for k in _own_attributes(owner).keys() - before.keys():
                delattr(owner, k)
            for k, v in before.items():
                if vars(owner).get(k, self) is not v:
                    setattr(owner, k, v)


def _cells_of(fn, depth=4):
    """The ids of the closure cells ``fn`` (a region's set_state, or a wrapper of one)
    reaches: the variables of the converted frames its state writes back."""
    out = set()
    for cell in getattr(fn, "__closure__", None) or ():
        out.add(id(cell))
        if depth and data.is_filled(cell) and callable(cell.cell_contents):
            out |= _cells_of(cell.cell_contents, depth - 1)
    return frozenset(out)


# id(cell) -> (cell, the Watches active when a function closing over it was defined)
_DEFINED_IN = {}


def defined_closure(fn):
    """After the converted `def` of a function that assigns `nonlocal` variables: the
    staged regions being traced then (a region opened later must carry its cells)."""
    if len(_DEFINED_IN) > 10000:
        _DEFINED_IN.clear()
    for cell in fn.__closure__ or ():
        _DEFINED_IN[id(cell)] = (cell, tuple(_WATCHING))
    return fn


def nonlocal_write_guard(names, cells):
    """First statement of a function that assigns the `nonlocal` variables ``names``
    (``cells``: a lambda closing over them). Called inside a staged branch or loop body
    opened after the function was defined, whose state does not carry the variable (a
    counter of a closure made by a factory: `inc = make_counter()`, then `inc()` in a loop
    over a tensor), Python changes the variable on every trip and path, the trace once:
    refused."""
    for name, cell in zip(cells.__code__.co_freevars, cells.__closure__ or ()):
        defined = _DEFINED_IN.get(id(cell))
        before = defined[1] if defined is not None and defined[0] is cell else ()
        for watch in _WATCHING:
            if watch not in before and id(cell) not in watch.cells:
                raise NotImplementedError(
                    f"the variable '{name}' is assigned through `nonlocal` by a function "
                    f"(at {where.caller()}) called inside the staged {watch.what} at "
                    f"{watch.loc}, which does not carry it (the variable belongs to the call "
                    f"of another function, a factory's): it would change once, while "
                    f"tracing, for every path and trip; keep the count in the function you "
                    f"compile (a variable, or an object passed to it), or return it")


_BAGS = (set, collections.deque)
_UNBOUND = object()  # (a module variable the trace made: removed again)
_WATCHING = []  # the Watches of the staged regions being traced, outermost first


# the Snapshots of the scratch traces running (trial.scratch_run): what they reach of
# before them must not change where it cannot be put back (``advancing``)
_SCRATCH = []


@contextlib.contextmanager
def scratch(snapshot):
    """``with scratch(reachable(frame)):`` around a scratch trace that is thrown away."""
    _SCRATCH.append(snapshot)
    try:
        yield
    finally:
        _SCRATCH.remove(snapshot)


def _holding(table, obj):
    """The entry {id: (object, path, ...)} ``table`` has for ``obj`` itself, or None."""
    held = table.get(id(obj))
    return held if held is not None and held[0] is obj else None


def advancing(it, how="next()"):
    """Refuses `next(it)` (`it.__next__()`, `it.send(v)`) inside a staged branch or loop of
    an iterator from before it: Python would advance it on every trip, the trace advances it
    once (every trip would get the same item); and inside a scratch trace (trial.py), which
    could not put it back (session 52: a loop unrolled after a trial trip took every item
    one late, silently). ``how`` = "set.pop()": ``it`` is a set, whose next pop a pop put
    back does not give back (CPython keeps where the last one took its item)."""
    for snapshot in _SCRATCH:
        held = _holding(snapshot.bags if how == "set.pop()" else snapshot.iterators, it)
        if held is not None:
            raise NotImplementedError(
                f"{how} at {where.caller(3)} takes an item of '{held[1]}', made before the "
                f"loop, in a trace of one trip that is thrown away, which could not give "
                f"it back")
    for watch in _WATCHING:
        if how == "set.pop()":
            held = _holding(watch.snapshot.bags, it)
            if held is not None:
                raise NotImplementedError(
                    f"set.pop() at {where.caller(3)} takes an item of the set '{held[1]}', "
                    f"made before the staged {watch.what} at {watch.loc}; no staged branch "
                    f"or loop carries a set, and the change would happen once, while "
                    f"tracing, for all paths and trips: keep such values in a NumPy array "
                    f"or change it outside the {watch.what}")
            continue
        held = _holding(watch.snapshot.iterators, it)
        if held is not None:
            why = ("every branch is traced, so it would advance as if each ran; take "
                   "the item before the `if` (`item = next(it)`) where both branches may "
                   "use it" if watch.what == "`if`" else
                   "it would advance once, while tracing, and every trip would get the same "
                   "item; index a list or array with the loop's counter instead (`items[i]`)")
            raise NotImplementedError(
                f"next() at {where.caller(3)} advances the iterator '{held[1]}', made before "
                f"the staged {watch.what} at {watch.loc}: {why}")


def carrying_new_slots(stage, get_state, set_state, names, nouts, tries=4):
    """``stage(get_state, set_state, names, nouts)`` (a staged `if` or loop), traced again
    with the items and attributes its trace changed out of sight (NewSlots) carried as
    composites of its own, read before the region and written back after it. Each trace
    runs in a mutation scope: an abandoned one's writes into arrays are undone."""
    for attempt in range(tries):
        init = tuple(get_state())
        try:
            with mutation.scope():
                out = stage(get_state, set_state, names, nouts)
            graph = context.current_graph()
            if graph is not None and graph.parent is None:
                data.hand_over_lifted(graph)
            return out
        except NewSlots as more:
            set_state(init)
            if attempt == tries - 1:
                raise more.refusal from None
            get_state, set_state, names, nouts = _with_slots(get_state, set_state, names,
                                                             nouts, more.slots)


def _with_slots(get_state, set_state, names, nouts, new):
    """The state with the composites ``new`` ([(object, kind, key, name)]) added to its
    outputs."""
    k = len(new)

    def get():
        state = tuple(get_state())
        return (state[:nouts] + tuple(get_slot(lambda o=o: o, kind, key, name)
                                      for o, kind, key, name in new) + state[nouts:])

    def set_(values):
        set_state(tuple(values[:nouts]) + tuple(values[nouts + k:]))
        for (o, kind, key, _), v in zip(new, values[nouts:nouts + k]):
            set_slot(lambda o=o: o, kind, key, v)

    return (get, set_, tuple(names[:nouts]) + tuple(n for *_, n in new) + tuple(names[nouts:]),
            nouts + k)


def stored_tensor(roots):
    """The path of a symbolic tensor that a dict, list, tuple or object of the user's holds,
    searching from ``roots`` ([(object, name)]: what outlives a trace), or None. A trace
    that leaves one there (`self.t += v`) changed the object once, with a value that exists
    only inside the compiled function."""
    for x, path in reach_all(roots):
        if core.is_symbolic(x):
            return path
    return None


def reach_all(roots, owners=None):
    """``data.reach``, and on through the attributes of the user's classes and functions it
    meets (`Outer.Inner.v`, `K.cache['k']`, `helper.memo[0]`), each object once;
    ``owners`` (a dict, given) gets {id: (class or function, its attributes)} of those."""
    seen = set()
    owners = {} if owners is None else owners
    while roots:
        more = []
        for x, path in data.reach(roots):
            if path is None:  # (past data.reach's limit: said once, then no more)
                yield x, path
                return
            if id(x) in seen:
                continue
            seen.add(id(x))
            yield x, path
            for owner, at in _owners(x, path):
                if id(owner) not in owners:
                    owners[id(owner)] = (owner, _own_attributes(owner))
                    more += [(v, f"{at}.{k}") for k, v in owners[id(owner)][1].items()]
        roots = more


def _owners(x, path):
    """[(class or function, path)]: ``x`` when it is a class of the user's or a function,
    and the class of an object of the user's."""
    out = [(x, path)] if isinstance(x, types.FunctionType) else []
    for owner, at in ((x, path), (type(x), f"type({path})")):
        if isinstance(owner, type) and owner.__module__.split(".")[0] not in data.FOREIGN:
            out.append((owner, at))
    return out


def _own_attributes(owner):
    return {k: v for k, v in list(vars(owner).items()) if not k.startswith("__")}


def arrays_in(roots):
    """[(array, path)]: the NumPy arrays reachable from ``roots`` as `stored_tensor` walks
    (a class's attributes too: `K.buf[0] = v` of a class attribute `buf`)."""
    return [(x, path) for x, path in reach_all(roots) if isinstance(x, np.ndarray)]
