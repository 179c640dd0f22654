"""Items of a tuple that are None on some runs and a value on others.

`return i, best` where `best` may be None, `best = (0.0, None)` and then `best = (x[i], i)`
in a staged loop, `if c: return (x[0], None)` beside `return (x[1], x[2])`: each such item
is a MaybeNone of its own (unset.py) inside the tuple, which a staged `if` or loop carries
as a flagged leaf, unset.Flagged (value, is_set), exactly as it carries a variable that may
be None (docs/architecture.md, "Variables that are None on some runs"). An item that is
None on every path stays None: the core passes equal Python values through a cond.

A path names an item: the position of the variable in the construct's state, then an
index per level of tuple; `(i,)` is the variable itself. The functions below walk a value
and the values beside it (the other branch's, the one before the construct) item by item
(`map_items`), so the rules for a variable and for an item are written once.
"""

import numpy as np

from autograph_lite.autograph.runtime import core, unset
from autograph_lite.autograph.runtime.unset import Flagged, MaybeNone

# No item at this path beside the one looked at: the other value is no tuple there (or a
# shorter one, which the core refuses on its own).
NOTHING = object()


def is_tuple(v):
    """A tuple whose items are carried one by one: a plain tuple or a user's namedtuple,
    not the package's own tuples (the core's (value, is_set) pair, a TensorList)."""
    return type(v) is tuple or (isinstance(v, tuple) and hasattr(type(v), "_make")
                                and hasattr(v, "_fields"))


def _item(v, k):
    return v[k] if is_tuple(v) and k < len(v) else NOTHING


def at(v, path):
    """The item of `v` at `path` (NOTHING where `v` has none there)."""
    for k in path:
        v = _item(v, k)
    return v


def _rebuild(like, items):
    if all(a is b for a, b in zip(items, like)):
        return like
    return type(like)(*items) if hasattr(like, "_fields") else tuple(items)


def map_items(fn, v, *beside, path=(), stop=()):
    """`v` with `fn(path, item, *the items of beside at that path)` in place of each item
    that is no tuple, at any depth; `fn((), v, *beside)` when `v` is no tuple. A tuple is
    an item too where a value beside it is None or a MaybeNone there (`return (i, j), v`
    beside `return None, None`: the pair may be None), or at the paths `stop` names."""
    if not is_tuple(v) or path in stop or any(b is None or isinstance(b, MaybeNone)
                                              for b in beside):
        return fn(path, v, *beside)
    return _rebuild(v, [map_items(fn, e, *(_item(b, k) for b in beside), path=path + (k,),
                                  stop=stop)
                        for k, e in enumerate(v)])


def items(v, path=()):
    """(path, item) for each item of `v` that is no tuple, at any depth."""
    if not is_tuple(v):
        return [(path, v)]
    return [pair for k, e in enumerate(v) for pair in items(e, path + (k,))]


def holds_none(v, raw=False):
    """Whether tuple `v` holds None (`raw`: None itself) or a MaybeNone among its items."""
    return is_tuple(v) and any(e is None or (not raw and isinstance(e, MaybeNone))
                               for _, e in items(v))


def carriable(v):
    """Whether a staged `if` or loop can carry `v`: a value the core carries, or a tuple of
    such whose items may also be None or a MaybeNone."""
    if not is_tuple(v):
        return core.is_carriable(v)
    return all(e is None or (isinstance(e, MaybeNone) and core.is_carriable(e.value))
               or core.is_carriable(e) for _, e in items(v))


def none_beside_value(a, b):
    """Whether tuples `a` and `b` hold None at a path where the other holds something else:
    a pair no carried item can stand for."""
    pairs = []
    map_items(lambda p, x, y: pairs.append((x, y)), a, b)
    return any((x is None) != (y is None) for x, y in pairs if y is not NOTHING)


def item_name(name, path):
    """The item as the user writes it: `best[1]`."""
    return name + "".join(f"[{k}]" for k in path)


def unflagged(name, v):
    """`v` after a construct: each (value, is_set) item the value where it is known set,
    None where it is known unset, else a MaybeNone (unset.unflagged)."""
    return map_items(lambda p, e: unset.unflagged(item_name(name, p), e, True)
                     if isinstance(e, Flagged) else e, v)


def placeholder(name, value, zeros_like):
    """Zeros of the type of `value`, standing where a value is never read (the return value
    before a staged loop that may return, or in a branch that does not return), with each
    item of a tuple that is None, or a MaybeNone, a MaybeNone that is None: its stand-in the
    zeros of its value, or Python's False, weak and below every dtype: it takes the type a
    path, or a later trip of a loop, gives the item (`prev = cur` handed on)."""
    def item(path, e):
        if e is None:
            return MaybeNone(item_name(name, path), False, np.False_)
        return zeros_like(e)  # (of a MaybeNone: one that is None, trial.zeros_like)
    return map_items(item, value)


def typed_nones(name, v, after, zeros_like):
    """`v`, a tuple the loop carries, with each None item a MaybeNone that is None, whose
    stand-in is the zeros of what one trip gives that item (`after`), or Python's False
    (see placeholder)."""
    def item(path, e, a):
        if e is not None:
            return e
        a = unset.value_of(a)
        stand_in = (zeros_like(a) if a is not NOTHING and a is not None
                    and core.is_carriable(a) else False)
        return MaybeNone(item_name(name, path), stand_in, np.False_)
    return map_items(item, v, after)
