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
- so is every NumPy number they hold (0-d), and every Python int or float a trace changed
  or the caller changes between calls (``bound_numbers``, ``changed_numbers``: weak 0-d,
  as a relaxed Python-number argument);
- the signature key holds their ``fingerprint``: each array's path, shape and dtype and
  each other value's path, type and (for other numbers, strings, bools and None) value, so
  a changed flag or a rebound array of another shape traces again;
- what a trace binds into them (`self.w = self.w - lr * g`, `self.t += 1`) is bound on
  every call, from extra outputs of the kernel (``rebound``, ``store``: the section below).
"""

import types

import numpy as np

from . import nest
from .tensor import EagerTensor, SymbolicTensor, Tensor

_LIMIT = 20000  # objects: past this the holders' state is too slow to look at (refused)
_SCALARS = (int, bool, str, type(None))
_LEAVES = frozenset(_SCALARS + (float, np.ndarray, EagerTensor))  # (never holders)
_NUMBERS = (np.number, np.bool_)  # NumPy scalars: held inputs, as arrays (0-d)
_EACH_PATH = _SCALARS + (float, np.ndarray, np.generic, Tensor)  # (yielded at every path)
_PLAIN = _LEAVES | {tuple, list, dict}
_DATA = []  # (autograph/runtime/data.py, imported on first use: it imports this package)


def _data():
    if not _DATA:
        from .autograph.runtime import data
        _DATA.append(data)
    return _DATA[0]


def is_holder(x):
    """A plain object of the user's own class (not a module, class, function or a
    library's object), with a `__dict__` or `__slots__`."""
    return type(x) not in _PLAIN and nest.kind(x) is None and _data().is_users(x)


def attributes(x):
    """(name, value) of an object's attributes (its slots' that are set, its `__dict__`'s)."""
    return list(_data().attributes(x).items())


def owner(python_function):
    """`self` of a method when it is a holder, else None."""
    obj = getattr(python_function, "__self__", None)
    return obj if obj is not None and is_holder(obj) else None


def holders(function, args):
    """[(selector, object)]: the user's objects among the arguments (and those of the bound
    methods passed), also inside the tuples, lists and dicts passed (selector: the position
    among the arguments' leaves, nest.flatten), and `self` of a method ("self":
    ``function._owner``)."""
    if all(type(a) in _LEAVES for a in args):  # (the common case, without flattening)
        out = []
    else:
        out = [(k, bound_self(a)) for k, a in enumerate(nest.flatten(args))
               if type(a) not in _PLAIN and is_holder(bound_self(a))]
    if function._owner is not None:
        out.append(("self", function._owner))
    return out


def bound_self(a):
    """The object of a bound method (a callback `integrate(model.f, ...)`: its state is the
    method's, read on every call as an argument's), else ``a`` itself."""
    if type(a) is types.MethodType:
        return a.__self__
    if type(a).__module__ == "autograph_lite.function" and getattr(a, "_owner", None) is not None:
        return a._owner  # (an `ag.defun(model.f)` passed: its object, read the same way)
    return a


def _walk(found):
    """(selector, steps, value) of everything reachable from the holders, each object
    once; steps are ("attr", name) or ("item", key)."""
    seen, stack = set(), [(sel, (), obj) for sel, obj in reversed(found)]
    while stack:
        sel, steps, x = stack.pop()
        if id(x) in seen and not isinstance(x, _EACH_PATH):
            continue  # (an array is yielded at each of its paths: ``arrays``, ``place``)
        seen.add(id(x))
        if len(seen) > _LIMIT:
            raise TypeError(f"an argument holds more than {_LIMIT} objects; a compiled "
                            f"function reads the state of the objects it is passed on each "
                            f"call, and this much is too slow to look at: pass the arrays "
                            f"it needs as arguments")
        yield sel, steps, x
        kind = _container(x, sel, steps)
        if kind:
            items = x.items() if kind is dict else enumerate(x)
            stack.extend((sel, steps + (("item", k),), v) for k, v in reversed(list(items)))
        elif is_holder(x):
            stack.extend((sel, steps + (("attr", k),), v)
                         for k, v in reversed(attributes(x)))


def _container(x, sel, steps):
    """dict, list or tuple: the container ``x`` is (nest.kind: a namedtuple is a tuple, an
    OrderedDict a dict); None for anything else; another subclass of them is refused (the
    walk would take it for an object with no attributes and miss the arrays it holds)."""
    kind = nest.kind(x)
    if kind is False:
        raise TypeError(f"'{path_text(sel, steps, ())}' is a {type(x).__name__}, a subclass of a "
                        f"Python container whose own behaviour a compiled function cannot "
                        f"keep while it reads and binds the arrays it holds; hold a plain "
                        f"dict, list or tuple (or a namedtuple) there")
    return kind


def fingerprint(found, numbers=frozenset()):
    """The signature-key part of the holders' state (module docstring); ``numbers``: the
    paths of the Python numbers that are inputs (``bound_numbers``), keyed by type."""
    parts = []
    for sel, steps, x in _walk(found):
        t = type(x)
        if (t is int or t is float) and (sel, steps) in numbers:
            parts.append((sel, steps, t, "input"))
        elif t is np.ndarray:
            parts.append((sel, steps, x.shape, x.dtype))
        elif _is_number(x):
            parts.append((sel, steps, t))  # (a 0-d input: its type is its dtype)
        elif t is float:
            parts.append((sel, steps, t, x.hex()))
        elif t in _SCALARS:
            parts.append((sel, steps, t, x))
        elif t is EagerTensor:
            parts.append((sel, steps, t, x._np.shape, x._np.dtype, x._np.tobytes()))
        elif isinstance(x, np.generic):
            parts.append((sel, steps, t, x.tobytes()))  # (np.str_, np.datetime64, ...)
        elif nest.kind(x) or is_holder(x):
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
    if isinstance(x, Tensor):  # (an ag.Variable: its == is elementwise; which one it is)
        return ("id", id(x))
    try:
        hash(x)
        return x
    except TypeError:
        return id(x)


def _is_number(x):
    return isinstance(x, _NUMBERS) and x.dtype.kind in "biufc"


def arrays(found, numbers=frozenset()):
    """[(selector, steps, array)] of the NumPy arrays (and NumPy numbers: `self.loss =
    err.sum()` leaves one, which a constant would make a trace per value) the holders hold,
    in walk order, each once (at its first path); and the Python numbers at the paths
    ``numbers`` (``bound_numbers``), each at its own path (small ints are one object)."""
    out, seen = [], set()
    for sel, steps, x in _walk(found):
        if type(x) in (int, float) and (sel, steps) in numbers:
            out.append((sel, steps, x))
        elif is_value(x) and id(x) not in seen:
            seen.add(id(x))
            out.append((sel, steps, x))
    return out


def place(found, boxes, numbers=None):
    """Puts the box each held array stands for (``boxes``: {id(array): box}) at every path
    that holds it, for the trace: code that reads it there, converted or not (an operator
    method of the user's class, run by Python: `self.w[0] + o`), reads the input, not the
    values of this call baked in. Returns what ``unplace`` puts back. (A tuple is
    immutable: the one a dict, list or object holds is replaced by a copy holding the boxes,
    and put back after; a NumPy number in it would otherwise be read as a constant.)"""
    placed, by_selector = [], dict(found)
    for sel, steps, x in list(_walk(found)):
        box = (numbers.get((sel, steps)) if numbers and type(x) in (int, float) else
               boxes.get(id(x)) if is_value(x) else _with_boxes(x, boxes, numbers, sel, steps)
               if isinstance(x, tuple) else None) if steps else None
        if box is None or box is x:
            continue
        holder, (kind, k) = fetch(by_selector, sel, steps[:-1]), steps[-1]
        if kind == "attr":  # (object's own: not the class's __setattr__, which a frozen
            object.__setattr__(holder, k, box)  # dataclass refuses, or one counting)
        elif isinstance(holder, (dict, list)):
            holder[k] = box
        else:
            continue
        placed.append((holder, kind, k, x, box))
    return placed


def _with_boxes(t, boxes, numbers, sel, steps):
    """Tuple ``t`` at ``steps`` with the boxes of the values it holds (in its tuples too)
    in their places, and of the Python numbers that are inputs (``numbers``: by path; `self.s
    = (w, k)` with k changing was baked in); ``t`` itself when it holds none."""
    items = []
    for i, v in enumerate(t):
        at = steps + (("item", i),)
        items.append(_with_boxes(v, boxes, numbers, sel, at) if isinstance(v, tuple) else
                     numbers[(sel, at)] if numbers and type(v) in (int, float) and (
                         sel, at) in numbers else
                     boxes.get(id(v), v) if is_value(v) else v)
    if all(a is b for a, b in zip(items, t)):
        return t
    return type(t)(*items) if type(t) is not tuple else tuple(items)  # (a namedtuple's)


def unplace(placed):
    """Puts the arrays (and tuples) back where ``place`` put their boxes and they still are
    (a path the trace bound to a new value keeps it: ``rebound``)."""
    for holder, kind, k, array, box in reversed(placed):
        if kind == "attr":
            if getattr(holder, k, None) is box:
                object.__setattr__(holder, k, array)
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


# --- values the trace binds into the objects (`self.w = self.w - lr * g`) ----------------
#
# A trace that binds an attribute (or a dict item, or an existing list item) of a holder to
# a new value holding arrays or traced tensors changes the object as every call must: the
# value's tensors become extra outputs of the graph, and each call binds the path to the
# value made of this call's outputs (``store``), as Python binds it on every call. The
# trace's own binding is put back (``put_back``) before the first call, which reads the
# state of before it. A Python number the trace changes (`self.t += 1`) is found by
# ``bound_numbers``: the trace is undone and done again with it as an input
# (function.py ``_trace``), so it is bound like the rest.

_MISSING = object()


def layout(found):
    """{(selector, steps): value} of everything the holders reach, before a trace (what
    ``rebound`` compares with; the values are kept, so an id is never reused)."""
    return {(sel, steps): x for sel, steps, x in _walk(found)}


def is_value(x):
    """A NumPy array or number (a value of the trace's that a call makes again)."""
    return type(x) is np.ndarray or _is_number(x)


def _holds_values(x):
    """Whether ``x`` is, or holds in its tuples, lists and dicts, a NumPy array or number
    or a tensor."""
    return any(isinstance(v, Tensor) or is_value(v) for v in _leaves(x))


def rebound(found, before, names, plain=False):
    """[(selector, steps, value)]: the topmost paths of the holders that the trace bound to
    another value holding arrays or tensors (``before``: ``layout`` of before it). A value
    appended to a list, or a user's object made by the trace that holds a tensor, is
    refused: the compiled function could not add or make it on every call. ``plain``: also
    those bound to another Python scalar (or tuple of them: `self.c += 1` of an int of the
    signature), which a failed check binds as Python leaves them (partial_raise.py), though
    a later staged region binds a tensor there, so the trace does not keep them."""
    out, changed, by_selector = [], [], dict(found)
    for sel, steps, x in _walk(found):
        old = before.get((sel, steps), _MISSING)
        if old is x or any(s == sel and steps[:len(t)] == t for s, t in changed):
            continue
        changed.append((sel, steps))
        path = path_text(sel, steps, names)
        for leaf in _leaves(x):
            if is_holder(leaf) and holds_traced(leaf):
                raise TypeError(f"'{path}' is bound to a new object that holds traced values: "
                                f"the compiled function cannot make it on every call; bind "
                                f"the arrays themselves (or a tuple, list or dict of them)")
        if not (_holds_values(x) or plain and _is_plain(x)):
            continue
        parent = fetch(by_selector, sel, steps[:-1]) if steps else None
        if old is _MISSING and isinstance(parent, list):
            listed = path_text(sel, steps[:-1], names)
            what = "a traced value" if _holds_values(x) else f"a value ({x!r:.40})"
            raise TypeError(f"{what} is added to the list '{listed}' of an object "
                            f"the function is called with: the compiled function "
                            f"would add it once, while tracing, and Python adds one on every "
                            f"call; return the values and append them after the call")
        if not isinstance(parent, (dict, list)) and (not steps or steps[-1][0] != "attr"):
            continue  # (a tuple's item: its tuple is new, and bound above)
        out.append((sel, steps, x))
    return out


def _is_plain(x):
    """Whether ``x`` is a Python scalar (float included), or a tuple of them."""
    return all(type(v) in _SCALARS or type(v) is float for v in _leaves(x)) and (
        not isinstance(x, (list, dict)))


def _leaves(x):
    """The leaves of ``x`` through its tuples, lists and dicts."""
    if nest.kind(x):
        return [y for v in (x.values() if isinstance(x, dict) else x) for y in _leaves(v)]
    return [x]


def holds_traced(obj):
    """Whether a traced tensor is among what ``obj`` reaches."""
    return any(isinstance(x, SymbolicTensor) for _, _, x in _walk([(0, obj)]))


def bound_numbers(found, before):
    """{(selector, steps)}: the paths where the trace bound a Python int or float to another
    of its type (`self.t += 1`, `self.total += loss_value`): state Python changes on every
    call, which the next traces carry as inputs (weak 0-d), and each call binds, instead of
    a side effect of the trace (issue #31362 of TensorFlow: "Python code runs only on the
    first call"). A bool (a flag) stays a value of the signature."""
    out = set()
    for sel, steps, x in _walk(found):
        old = before.get((sel, steps), _MISSING)
        if type(x) in (int, float) and type(old) is type(x) and old != x:
            out.add((sel, steps))
    return out


def changed_numbers(before, after):
    """{(selector, steps)}: the paths of the Python ints and floats whose values differ
    between two fingerprints of one state otherwise (the same paths, types and arrays);
    empty when anything else differs."""
    if len(before) != len(after):
        return set()
    out = set()
    for a, b in zip(before, after):
        if a == b:
            continue
        if a[:3] != b[:3] or len(a) != 4 or a[2] not in (int, float) or a[3] == "input":
            return set()
        out.add(a[:2])
    return out


def put_back(found, before, paths):
    """Binds each of ``paths`` ([(selector, steps)]) to its value of ``before`` again (or
    removes it, where it was not there)."""
    by_selector = dict(found)
    for sel, steps in reversed(paths):
        holder, (kind, k) = fetch(by_selector, sel, steps[:-1]), steps[-1]
        old = before.get((sel, steps), _MISSING)
        if kind == "attr":
            delattr(holder, k) if old is _MISSING else setattr(holder, k, old)
        elif old is _MISSING:
            del holder[k]
        else:
            holder[k] = old


def store(found, updates, values):
    """Binds each update's path (``updates``: [(selector, steps, structure)]) to its value
    of this call (``values``: one list of leaves per update, in the structure's order)."""
    by_selector = dict(found)
    for (sel, steps, structure), leaves in zip(updates, values):
        value = leaves[0] if structure is None else nest.pack_as(structure, leaves)
        holder, (kind, k) = fetch(by_selector, sel, steps[:-1]), steps[-1]
        if kind == "attr":
            setattr(holder, k, value)
        else:
            holder[k] = value
