"""The composite targets a block writes: `d['s'] = v`, `s.v += v`, `self.stats['n'] += 1`.

A staged `if` or loop carries the names its blocks assign (control_flow.py). A write into
an item of a dict or list, or into an attribute of an object, changes no name: the object
is changed in place, so both branches of a staged `if` would see the first branch's write,
and a loop would keep only its trace's value. AutoGraph (TensorFlow's too) carries such a
target as a state variable of its own, a *composite*: read before the statement and
between branches, written back into the same object (runtime/slots.py), so every name that
holds the object sees the change, as in Python.

A composite is `base.attr` or `base[key]` with `base` a name with attributes and constant
items (`d`, `self.stats`, `params['layer']`) and `key` a literal int or str. The subscripts converter has already rewritten
`d[k] = v` on a local name into `d = ag__.setitem(d, k, v, ...)` and other targets into
`ag__.setitem_held(base, k, v, ...)`; those are read back here, and so is the
`ob = ag__.resolve(ob)` that follows a helper call (see `of`). A base the block rebinds
(`d = {...}`, `self.stats = {}`) gives no composite: which object is written then depends
on the path; nor does one the block writes by a computed key (`d[k] = v`): a dict is then
carried as a whole, by the name (runtime/slots.py `narrow`). A write the state does not
carry (a helper writing a dict held in a list) is found at run time (`slots.Watch`) and
refused.
"""

import gast

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_SETITEM = ("setitem", "setitem_held")


def _key(node):
    if (isinstance(node, gast.Constant) and type(node.value) in (int, str)):
        return node.value
    return None


def _dotted(node):
    """The text of a name with attributes and constant items (`d`, `self.stats`,
    `params['layer']`), or None."""
    parts = []
    while True:
        if isinstance(node, gast.Attribute):
            parts.append(f".{node.attr}")
            node = node.value
        elif isinstance(node, gast.Subscript) and _key(node.slice) is not None:
            parts.append(f"[{_key(node.slice)!r}]")
            node = node.value
        elif _is_ag_call(node, ("getitem",), 2) and _key(node.args[1]) is not None:
            parts.append(f"[{_key(node.args[1])!r}]")  # (a read subscript_loads rewrote)
            node = node.args[0]
        else:
            break
    if not isinstance(node, gast.Name):
        return None
    return node.id + "".join(parts[::-1])


def _is_ag_call(node, names, nargs):
    """Whether ``node`` is `ag__.<one of names>(...)` with at least ``nargs`` arguments."""
    return (isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute)
            and node.func.attr in names and isinstance(node.func.value, gast.Name)
            and node.func.value.id == "ag__" and len(node.args) >= nargs)


def _setitem_call(node):
    """(base node, key) of an `ag__.setitem(...)`/`ag__.setitem_held(...)` call."""
    if not _is_ag_call(node, _SETITEM, 3):
        return None
    return node.args[0], node.args[1]


def _is_resolve_of_itself(node):
    """`x = ag__.resolve(x)` (converters/shared_names.py, after a helper call): it rebinds
    `x` only when `x` holds a NumPy array, which has no composites."""
    return (len(node.targets) == 1 and isinstance(node.targets[0], gast.Name)
            and _is_ag_call(node.value, ("resolve",), 1)
            and isinstance(node.value.args[0], gast.Name)
            and node.value.args[0].id == node.targets[0].id)


class Composite:
    """`base.key` (kind "attr") or `base[key]` (kind "item"); `name` is how it is written."""
    __slots__ = ("base", "kind", "key", "name")

    def __init__(self, base, kind, key):
        self.base, self.kind, self.key = base, kind, key
        self.name = f"{base}.{key}" if kind == "attr" else f"{base}[{key!r}]"


class _Collector(gast.NodeVisitor):
    def __init__(self):
        self.found = {}        # name -> Composite
        self.rebound = set()   # dotted names the block assigns otherwise
        self.resolved = set()  # names the block rebinds to themselves, `x = ag__.resolve(x)`

    def _target(self, t):
        if isinstance(t, (gast.Tuple, gast.List)):
            for e in t.elts:
                self._target(e)
        elif isinstance(t, gast.Starred):
            self._target(t.value)
        elif isinstance(t, gast.Attribute):
            base = _dotted(t.value)
            if base is not None:
                self._add(Composite(base, "attr", t.attr))
            whole = _dotted(t)
            if whole is not None:
                self.rebound.add(whole)
        elif isinstance(t, gast.Name):
            self.rebound.add(t.id)

    def _add(self, c):
        self.found.setdefault(c.name, c)

    def _item(self, call):
        base, key = call
        text, k = _dotted(base), _key(key)
        if text is not None and k is not None:
            self._add(Composite(text, "item", k))
        elif text is not None:  # a computed key: the container is carried as a whole
            self.rebound.add(text)

    def visit_Assign(self, node):
        call = _setitem_call(node.value)
        if (call is not None and len(node.targets) == 1 and isinstance(node.targets[0], gast.Name)
                and isinstance(call[0], gast.Name) and call[0].id == node.targets[0].id):
            self._item(call)  # `d = ag__.setitem(d, k, v)`: d written in place, not rebound
        elif _is_resolve_of_itself(node):
            self.resolved.add(node.targets[0].id)  # (see `of`)
        else:
            for t in node.targets:
                self._target(t)
        self.visit(node.value)

    def visit_AugAssign(self, node):
        self._target(node.target)
        self.visit(node.value)

    def visit_AnnAssign(self, node):
        self._target(node.target)
        if node.value is not None:
            self.visit(node.value)

    def visit_Call(self, node):
        call = _setitem_call(node)
        if call is not None and node.func.attr == "setitem_held":
            self._item(call)
        self.generic_visit(node)

    def visit_For(self, node):
        self._target(node.target)
        for part in node.body + node.orelse:
            self.visit(part)
        self.visit(node.iter)

    def visit_Name(self, node):
        if isinstance(node.ctx, (gast.Store, gast.Del)):
            self.rebound.add(node.id)

    def generic_visit(self, node):
        if isinstance(node, _SCOPES):
            if isinstance(node, (gast.FunctionDef, gast.ClassDef)):
                self.rebound.add(node.name)
            return
        super().generic_visit(node)


def _rebinds(rebound, base):
    """Whether a name the block rebinds (or writes by a computed key) is `base` or a prefix
    of it (`self` of `self.stats`, `params` of `params['layer']`)."""
    return any(base == r or base.startswith(r + ".") or base.startswith(r + "[")
               for r in rebound)


def of(nodes):
    """The composites a list of statements writes, in first-write order, leaving out those
    whose base the statements rebind. `x = ag__.resolve(x)` (after a helper call that
    may write through `x`, or through a name linked to it) is the same object: an
    attribute of it stays a composite (an object cannot be carried as a whole), while
    `x[k]` does not: the dict `x` is then carried by its name, which also carries what the
    function writes into it, and what is written through another name of it (`al = st`)."""
    c = _Collector()
    for n in nodes:
        c.visit(n)
    return [x for x in c.found.values() if not _rebinds(c.rebound, x.base)
            and not (x.kind == "item" and x.base in c.resolved)]


def source(c):
    """(thunk, kind, key) as source text: the arguments of ag__.get_slot/set_slot."""
    return f"lambda: {c.base}", repr(c.kind), repr(c.key)

