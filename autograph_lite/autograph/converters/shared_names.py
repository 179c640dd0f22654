"""After a statement that may write into an array, the other names that may hold that
array are rebound: `w[0] = t` (with `w = r0[:-1]` earlier) is followed by
`r0 = ag__.resolve(r0)`, and `fill(buf, n)` by `buf = ag__.resolve(buf)`.

Why: a NumPy array the function made while tracing (`r0 = np.zeros(4)`) is a plain
Python value, folded at trace time. A write into it with a tensor, or inside a staged
branch or loop (also inside a helper it was passed to), makes it a tensor (a box,
mutation.py; runtime/data.py `lift`), and `resolve` hands that box to every name that
held the array, so their later reads, NumPy operators included, see the write as in
NumPy (SPEC 3). On anything else `resolve` returns the value itself. Rebinding also makes
the names branch/loop state (control_flow), so the write is carried out of the region.

Which names: the enclosing function's locals a nested def names, after a call of it
(`def put(i, v): buf[i] = v`, then `put(0, t)`), those a user function or method is called
with (`fill(buf, n)`, `opt.update(w, g)`: _calls_users_code; not Python builtins, `np.*` or
a list's `append`), the outputs a NumPy
call writes (`np.copyto(buf, t)`, `np.add(a, t, out=buf)`), the receiver of a method
that changes a dict (`d.update(...)`, `d.pop(k)`: the staged region then carries `d`), and
the names linked to the object a method is called on for its effect (`v = g.u`, then
`g.step(f)`, which may write `g.u`), and the names linked
to a written name by assignments of the function (`z = y`, `w = y[1:]`, `t = y.T`,
`m = y.reshape(2, 2)`, `box = [y]`, whose `box[0][k] = v` writes `y`), when they are
bound for sure at that point (assigned earlier in the same or an enclosing block, or
parameters). Only the function's own locals (not names
it declares `global`/`nonlocal`); only expression and assignment statements.
"""

import builtins

import gast

from autograph_lite.autograph.analysis import activity
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.ndarray_writes import WRITING_METHODS
from autograph_lite.autograph.pyct import templates

_WRITES = ("setitem", "augassign")


# NumPy functions that write into their first argument (and every ufunc's `at`:
# `np.add.at(y, idx, x)`)
_FIRST_WRITTEN = frozenset(("copyto", "putmask", "place", "put", "fill_diagonal",
                            "put_along_axis", "at"))


def _output_names(call, local):
    """The names a NumPy call writes into: `np.copyto(dst, ...)`, `np.putmask(a, ...)`,
    `np.add.at(a, ...)`, `np.add(a, b, out=o)` (`out=(o,)` too)."""
    outs = [k.value for k in call.keywords if k.arg == "out"]
    if isinstance(call.func, gast.Attribute) and call.func.attr in _FIRST_WRITTEN and call.args:
        outs.append(call.args[0])
    names = []
    for o in outs:
        for n in (o.elts if isinstance(o, gast.Tuple) else [o]):
            if isinstance(n, gast.Name) and n.id in local:
                names.append(n.id)
    return names


# methods that change a dict in place: `d.update(...)` rebinds `d` after it (a dict the
# statement's region then carries as a whole: runtime/slots.py), and those that write
# into an array: `a.sort()` rebinds `a` (the box it became: runtime/calls.py `_on_box`)
_DICT_WRITES = frozenset(("update", "setdefault", "pop", "popitem", "clear"))


def _receiver(call, local):
    """`d` of `d.update(...)`, `a` of `a.sort()` (also as `ag__.converted_call(d.update,
    ...)`), or None."""
    fn = call.func
    if base.is_ag_call(call) and fn.attr == "converted_call" and call.args:
        fn = call.args[0]
    if (isinstance(fn, gast.Attribute) and fn.attr in _DICT_WRITES | WRITING_METHODS
            and isinstance(fn.value, gast.Name) and fn.value.id in local):
        return fn.value.id
    return None


def _closure_reads(body, local):
    """{name of a def nested in ``body``: the enclosing function's locals it names}: a call
    of it may write the arrays they hold (`def put(i, v): buf[i] = v`)."""
    out = {}
    for st in body:
        for node in gast.walk(st):
            if isinstance(node, gast.FunctionDef):
                out[node.name] = sorted({n.id for n in gast.walk(node)
                                         if isinstance(n, gast.Name) and n.id in local
                                         and n.id != node.name}
                                        - activity.arg_names(node.args))
    return out


def _method_receiver(st):
    """`g` of a statement `g.step(f)` (a method called for its effect): the method may
    write arrays `g` holds, which names assigned from `g.u` hold too."""
    call = st.value if isinstance(st, gast.Expr) else None
    if (isinstance(call, gast.Call) and not base.is_ag_call(call)
            and isinstance(call.func, gast.Attribute)
            and isinstance(call.func.value, gast.Name)):
        return call.func.value.id
    return None


# Library namespaces whose functions run as they are (never the user's converted code):
# `np.abs(w)` hands `w` to no code that could write it (NumPy's own writers: _output_names)
_LIBRARIES = frozenset(("np", "numpy", "math", "cmath", "scipy", "sp", "ag", "random",
                        "itertools", "functools", "operator", "collections", "time", "os",
                        "sys", "re", "string", "json", "warnings", "copy"))
# methods of Python's containers and strings that keep or compare their arguments, never
# write into them (`out.append(w)`: rebinding `w` after it would gain nothing)
_KEEPING_METHODS = frozenset(("append", "extend", "insert", "add", "appendleft", "extendleft",
                              "get", "setdefault", "index", "count", "remove", "discard",
                              "join", "format", "put", "startswith", "endswith"))


def _calls_users_code(fn, local):
    """Whether a call of ``fn`` may run the user's converted code with its arguments: a
    function named by a bare name that is not a Python builtin (`fill(buf, n)`), or a method
    or attribute function (`opt.update(w, g)`, `self.step(w)`, `helpers.fill(w)`) that is
    not a library's (`np.abs(w)`) nor a container's keeping method (`out.append(w)`)."""
    if isinstance(fn, gast.Name):
        return fn.id in local or not hasattr(builtins, fn.id)
    if not isinstance(fn, gast.Attribute) or fn.attr in _KEEPING_METHODS:
        return False
    root = fn
    while isinstance(root, gast.Attribute):
        root = root.value
    return isinstance(root, gast.Name) and (root.id in local or root.id not in _LIBRARIES)


def _passed_names(value, local):
    names = []
    for call in gast.walk(value):
        if isinstance(call, gast.Call):
            names += [n for n in _output_names(call, local) if n not in names]
            receiver = _receiver(call, local)
            if receiver is not None and receiver not in names:
                names.append(receiver)
        if not (isinstance(call, gast.Call) and not base.is_ag_call(call)
                and _calls_users_code(call.func, local)):
            continue
        for a in call.args + [k.value for k in call.keywords]:
            if (isinstance(a, gast.Name) and a.id in local and a.id not in names
                    and a.id != getattr(call.func, "id", None)):
                names.append(a.id)
    return names


# NumPy functions whose result may be a view of their first argument
_VIEW_FUNCTIONS = frozenset(("reshape", "ravel", "squeeze", "expand_dims", "transpose",
                             "swapaxes", "moveaxis", "asarray", "atleast_1d", "atleast_2d",
                             "atleast_3d", "split", "array_split"))


def _is_view_function(fn):
    return (isinstance(fn, gast.Attribute) and fn.attr in _VIEW_FUNCTIONS
            and isinstance(fn.value, gast.Name) and fn.value.id in ("np", "numpy"))


def _source_name(value):
    """`y` for `y`, `y[...]`, `y.T`, `y.reshape(...)`, `np.ravel(y)` (what may share y's
    buffer), also as the call converter spells them (`ag__.converted_call(y.reshape,
    ...)`, `ag__.converted_call(np.ravel, (y,), None)`)."""
    while True:
        if isinstance(value, gast.Name):
            return value.id
        if isinstance(value, gast.Call) and base.is_ag_call(value) and \
                value.func.attr == "converted_call" and len(value.args) >= 2:
            fn, args = value.args[0], value.args[1]
            args = args.elts if isinstance(args, gast.Tuple) else []
            value = args[0] if _is_view_function(fn) and args else fn
        elif isinstance(value, gast.Call) and _is_view_function(value.func) and value.args:
            value = value.args[0]
        elif isinstance(value, gast.Call) and base.is_ag_call(value) and \
                value.func.attr in ("getitem", "attribute") and value.args:
            value = value.args[0]
        elif isinstance(value, (gast.Subscript, gast.Attribute)):
            value = value.value
        elif isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute):
            value = value.func.value
        else:
            return None


def _sources(value):
    """The names whose buffer ``value`` may be: `_source_name`, and each side of a
    conditional expression (`z = a if c else b`, `ag__.if_exp(c, lambda: a, lambda: b)`)."""
    if isinstance(value, gast.IfExp):
        return _sources(value.body) + _sources(value.orelse)
    if (isinstance(value, gast.Call) and base.is_ag_call(value) and value.func.attr == "if_exp"
            and len(value.args) == 3):
        return [n for fn in value.args[1:] if isinstance(fn, gast.Lambda)
                for n in _sources(fn.body)]
    src = _source_name(value)
    return [] if src is None else [src]


def _written(stmt):
    """The name an `x = ag__.setitem(x, ...)` / `ag__.augassign` statement writes, or the
    name holding the array an `ag__.setitem_held(box[0], ...)` statement writes (`box`)."""
    v = getattr(stmt, "value", None)
    if (isinstance(stmt, gast.Assign) and isinstance(v, gast.Call) and base.is_ag_call(v)
            and v.func.attr in _WRITES and isinstance(stmt.targets[0], gast.Name)):
        return stmt.targets[0].id
    if _is_held_write(stmt) and v.args:
        return _source_name(v.args[0])
    return None


def _held_names(value):
    """The names a list, tuple or dict display holds (`box = [t0, r0]`)."""
    if isinstance(value, (gast.List, gast.Tuple, gast.Set)):
        items = value.elts
    elif isinstance(value, gast.Dict):
        items = value.values
    else:
        return []
    return [n for item in items for n in ([item.id] if isinstance(item, gast.Name)
                                          else _held_names(item))]


def _is_held_write(stmt):
    v = getattr(stmt, "value", None)
    return (isinstance(stmt, gast.Expr) and isinstance(v, gast.Call) and base.is_ag_call(v)
            and v.func.attr == "setitem_held")


def _pairs(target, value):
    """(name, value) of an assignment, `a, b = x, y` pairwise."""
    if isinstance(target, gast.Name):
        return [(target, value)]
    if (isinstance(target, gast.Tuple) and isinstance(value, gast.Tuple)
            and len(target.elts) == len(value.elts)):
        return [p for t, v in zip(target.elts, value.elts) for p in _pairs(t, v)]
    return []


def _tuple_sources(value, local):
    """The names a write into which rebinds a name assigned ``value``, which may be a tuple
    holding their arrays: `(u, g.w)` holds u's and g's; `make(u)` may return one with u."""
    if isinstance(value, gast.Tuple):
        return {_source_name(item) for item in value.elts} & local
    return set(_passed_names(value, local))


class _Links:
    """Names linked by assignments that may share a buffer (union-find), and the names a
    list, tuple or dict display assigned to a name holds (`box = [y]`: a write through
    `box[0]` writes `y`; kept apart, so that only such writes rebind them)."""

    def __init__(self, fn_node, local):
        self.parent, self.held, self.tuples = {}, {}, {}
        for node in gast.walk(fn_node):
            if (isinstance(node, gast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], gast.Name)):
                held = [n for n in _held_names(node.value) if n in local]
                if held:
                    self.held.setdefault(node.targets[0].id, []).extend(held)
            if isinstance(node, gast.Assign) and len(node.targets) == 1:
                for target, value in _pairs(node.targets[0], node.value):
                    for n in _tuple_sources(value, local) if target.id in local else ():
                        self.tuples.setdefault(n, []).append(target.id)
        for node in gast.walk(fn_node):
            if (isinstance(node, gast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], gast.Name) and _written(node) is None):
                for src in _sources(node.value):
                    if src in local and node.targets[0].id in local:
                        self.union(src, node.targets[0].id)

    def find(self, n):
        while self.parent.get(n, n) != n:
            n = self.parent[n]
        return n

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)

    def group(self, n):
        root = self.find(n)  # (a root is only a value in ``parent``, never a key)
        names = set(self.parent) | set(self.parent.values())
        return {m for m in names if self.find(m) == root} | {n}


class SharedNamesTransformer(base.Base):
    def visit_FunctionDef(self, node):
        body = node.body if isinstance(node.body, list) else [node.body]
        local = ((activity.arg_names(node.args) | activity.writes(body))
                 - activity.declared(node, gast.Global) - activity.declared(node, gast.Nonlocal))
        links = _Links(node, local)
        self.closures = getattr(self, "closures", [])
        self.closures.append(_closure_reads(body, local))
        node.body = self._block(node.body, activity.arg_names(node.args), local, links)
        self.closures.pop()
        return node

    def _block(self, stmts, bound, local, links):
        out, bound = [], set(bound)
        for st in stmts:
            if isinstance(st, gast.FunctionDef):
                out.append(self.visit(st))
                continue
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(st, field, None), list):
                    setattr(st, field, self._block(getattr(st, field), bound, local, links))
            for h in getattr(st, "handlers", ()):
                h.body = self._block(h.body, bound, local, links)
            out.append(st)
            if isinstance(st, (gast.Expr, gast.Assign)):
                out += self._rebind(st, bound, local, links)
            if isinstance(st, gast.Assign):
                bound |= {n.id for t in st.targets for n in gast.walk(t)
                          if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        return out

    def _rebind(self, st, bound, local, links):
        passed = _passed_names(st.value, local)
        names = list(passed)
        for call in gast.walk(st.value):  # `put(i, v)`, a nested def writing `buf`
            if isinstance(call, gast.Call) and isinstance(call.func, gast.Name):
                names += [n for n in self.closures[-1].get(call.func.id, ())
                          if n in bound and n not in names]
        obj = _method_receiver(st)
        if obj is not None and obj in local:  # `g.step(f)`: what `v = g.u` took from g
            names += [n for n in sorted(links.group(obj)) + links.tuples.get(obj, [])
                      if n != obj and n in bound and n not in names]
        written = _written(st)
        if _is_held_write(st):  # `box[0][k] = v`: the names `box = [y, ...]` put in box
            names += [n for n in links.held.get(written, ()) if n in bound and n not in names]
        for w in passed + ([written] if written else []):
            for n in sorted(links.group(w)) + links.tuples.get(w, []):
                if n != written and n in bound and n not in names:
                    names.append(n)
        return [templates.replace("x = ag__.resolve(x)", x=n)[0] for n in names]
