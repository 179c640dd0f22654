"""The state of the objects a Function is called with: what a trace baked in of them, and
the arrays they hold, which are the kernel's inputs on every call.

Why: a NumPy program passes its state in objects (`step(model, x)`, or `self` of a
`@ag.defun` method), and changes it between calls (`model.w -= lr * g`, `model.lr = 0.1`,
`model.w = new_w`). A trace reads that state as Python values. Were the object only its
identity in the signature key, the kernel would keep using the values of the first trace:
a silent wrong answer on every later call (before session 35: `m.predict(x)` gave the same
result after `m.w = m.w * 2`).

So, for the user's objects among the arguments and `self` (the *holders*; not globals or
closures, whose arrays SPEC 2 bakes in as Numba does):
- every NumPy array they hold (through attributes, dicts, lists and tuples, as
  autograph/runtime/data.py ``reach`` walks) is an extra input of the graph, fetched by its
  path on each call, so the kernel reads its current values, and a write into it reaches
  the array, as in NumPy (function.py, concrete.py);
- the signature key holds their ``fingerprint``: each array's path, shape and dtype and
  each other value's path, type and (for numbers, strings, bools and None) value, so a
  changed scalar attribute or a rebound array of another shape traces again.
"""

import numpy as np

from . import nest
from .tensor import EagerTensor

_LIMIT = 20000  # objects: past this the holders' state is too slow to look at (refused)
_SCALARS = (int, bool, str, type(None))
_LEAVES = frozenset(_SCALARS + (float, np.ndarray, EagerTensor))  # (never holders)
_PLAIN = _LEAVES | {tuple, list, dict}
_DATA = []  # (autograph/runtime/data.py, imported on first use: it imports this package)


def is_holder(x):
    """A plain object of the user's own class (not a module, class, function or a
    library's object)."""
    if type(x) in _PLAIN:
        return False
    if not _DATA:
        from .autograph.runtime import data
        _DATA.append(data)
    data = _DATA[0]
    return data.is_users(x) or (
        bool(_slots(type(x))) and not isinstance(x, data.NOT_OBJECTS)
        and type(x).__module__.split(".")[0] not in data._FOREIGN)


def _slots(cls):
    """The `__slots__` names of ``cls`` and its bases (a class without a `__dict__`)."""
    names = []
    for c in cls.__mro__:
        slots = c.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [n for n in slots if n != "__dict__"]
    return names


def _attributes(x):
    """(name, value) of an object's attributes: its `__dict__`'s, then its slots' that are
    set."""
    items = list(vars(x).items()) if hasattr(x, "__dict__") else []
    return items + [(n, getattr(x, n)) for n in _slots(type(x)) if hasattr(x, n)]


def owner(python_function):
    """`self` of a method when it is a holder, else None."""
    obj = getattr(python_function, "__self__", None)
    return obj if obj is not None and is_holder(obj) else None


def holders(function, args):
    """[(selector, object)]: the user's objects among the arguments, also inside the
    tuples, lists and dicts passed (selector: the position among the arguments' leaves,
    nest.flatten), and `self` of a method ("self": ``function._owner``)."""
    if all(type(a) in _LEAVES for a in args):  # (the common case, without flattening)
        out = []
    else:
        out = [(k, a) for k, a in enumerate(nest.flatten(args))
               if type(a) not in _PLAIN and is_holder(a)]
    if function._owner is not None:
        out.append(("self", function._owner))
    return out


def _walk(found):
    """(selector, steps, value) of everything reachable from the holders, each object
    once; steps are ("attr", name) or ("item", key)."""
    seen, stack = set(), [(sel, (), obj) for sel, obj in reversed(found)]
    while stack:
        sel, steps, x = stack.pop()
        if id(x) in seen and not isinstance(x, _SCALARS + (float, np.ndarray)):
            continue  # (an array is yielded at each of its paths: ``arrays``, ``place``)
        seen.add(id(x))
        if len(seen) > _LIMIT:
            raise TypeError(f"an argument holds more than {_LIMIT} objects; a compiled "
                            f"function reads the state of the objects it is passed on each "
                            f"call, and this much is too slow to look at: pass the arrays "
                            f"it needs as arguments")
        yield sel, steps, x
        if type(x) in (dict, list, tuple):
            items = x.items() if type(x) is dict else enumerate(x)
            stack.extend((sel, steps + (("item", k),), v) for k, v in reversed(list(items)))
        elif is_holder(x):
            stack.extend((sel, steps + (("attr", k),), v)
                         for k, v in reversed(_attributes(x)))


def fingerprint(found):
    """The signature-key part of the holders' state (module docstring)."""
    parts = []
    for sel, steps, x in _walk(found):
        t = type(x)
        if t is np.ndarray:
            parts.append((sel, steps, x.shape, x.dtype))
        elif t is float:
            parts.append((sel, steps, t, x.hex()))
        elif t in _SCALARS:
            parts.append((sel, steps, t, x))
        elif t is EagerTensor:
            parts.append((sel, steps, t, x._np.shape, x._np.dtype, x._np.tobytes()))
        elif isinstance(x, np.generic):
            parts.append((sel, steps, t, x.tobytes()))
        elif t in (dict, list, tuple) or is_holder(x):
            parts.append((sel, steps, t))  # (its items and attributes follow)
        else:  # (a function, a set, a library's object: itself, or what it holds)
            parts.append((sel, steps, t, _identity(x)))
    return tuple(parts)


def _identity(x):
    """What tells another value of a non-plain attribute apart: the value itself when
    hashable (`np.tanh` vs `np.sin`), a frozen copy of a set, else its id."""
    if type(x) is set:
        try:
            return frozenset(x)
        except TypeError:
            pass
    try:
        hash(x)
        return x
    except TypeError:
        return id(x)


def arrays(found):
    """[(selector, steps, array)] of the NumPy arrays the holders hold, in walk order, each
    once (at its first path)."""
    out, seen = [], set()
    for sel, steps, x in _walk(found):
        if type(x) is np.ndarray and id(x) not in seen:
            seen.add(id(x))
            out.append((sel, steps, x))
    return out


def place(found, boxes):
    """Puts the box each held array stands for (``boxes``: {id(array): box}) at every path
    that holds it, for the trace: code that reads it there, converted or not (an operator
    method of the user's class, run by Python: `self.w[0] + o`), reads the input, not the
    values of this call baked in. Returns what ``unplace`` puts back. (A tuple keeps its
    array, which the converted code's reads resolve: mutation.hold.)"""
    placed, by_selector = [], dict(found)
    for sel, steps, x in list(_walk(found)):
        box = boxes.get(id(x)) if type(x) is np.ndarray and steps else None
        if box is None:
            continue
        holder, (kind, k) = fetch(by_selector, sel, steps[:-1]), steps[-1]
        if kind == "attr":
            setattr(holder, k, box)
        elif type(holder) in (dict, list):
            holder[k] = box
        else:
            continue
        placed.append((holder, kind, k, x, box))
    return placed


def unplace(placed):
    """Puts the arrays back where ``place`` put their boxes and they still are (a name the
    trace rebound to a new value keeps it: Function._check_nothing_stored refuses that)."""
    for holder, kind, k, array, box in reversed(placed):
        if kind == "attr":
            if getattr(holder, k, None) is box:
                setattr(holder, k, array)
        elif holder[k] is box:
            holder[k] = array


def fetch(by_selector, sel, steps):
    """The value at ``steps`` from the holder ``sel`` (``by_selector``: dict(holders(...))
    of this call)."""
    x = by_selector[sel]
    for kind, k in steps:
        x = getattr(x, k) if kind == "attr" else x[k]
    return x


def path_text(sel, steps, names):
    """`m.w`, `self.layers[0]`: the path for a message or an input's hint (``names``: the
    arguments' leaves', Function._leaf_names)."""
    text = ("self" if sel == "self" else names[sel] if sel < len(names)
            else f"argument #{sel}")
    for kind, k in steps:
        text += f".{k}" if kind == "attr" else f"[{k!r}]"
    return text


def changed_path(before, after, names):
    """The path of the first value that differs between two fingerprints, for a message
    (``names``: the parameters', naming the top-level arguments)."""
    parts = ([a for a, b in zip(before, after) if a != b] or list(before[len(after):])
             or list(after[len(before):]))
    return path_text(parts[0][0], parts[0][1], names) if parts else "its state"
