"""`if`/`while`/`for` become calls of `ag__.if_stmt`/`while_stmt`/`for_stmt`.

Each statement's blocks move into body functions that share the enclosing function's
variables through `nonlocal`; `get_state`/`set_state` read and write those variables
as one tuple, which is how the runtime carries them through a staged cond or loop.
Every name the statement assigns is in that tuple (so Python semantics never change), and
so is every variable a function defined inside assigns through `nonlocal`, when the
statement calls something;
the first `nouts` of them are the ones that matter after it (branch outputs, or loop
variables: live into the loop or out of it), the rest are restored after staging.
A name not yet bound before the statement is first set to `ag__.Undefined('x')`, so
`nonlocal` has a binding and the runtime can say which branch left it unset.
Runs on the tree left by the break/continue/return converters (see liveness.py); each
statement's state is computed before its blocks are rewritten (the body functions of
nested statements are not the user's variables).
"""

import gast

from autograph_lite.autograph.analysis import activity, composites, liveness
from autograph_lite.autograph.converters import base, deletes, logical_expressions
from autograph_lite.autograph.pyct import templates

_STATE_FNS = """
def get_state():
    return state
def set_state(vars_):
    nonlocal names
    global gnames
    state = vars_
"""
_NO_STATE_FNS = """
def get_state():
    return ()
def set_state(vars_):
    pass
"""


def _closure_writes(fn_node):
    """The function's variables that functions defined in it assign (`nonlocal count`): a
    call in a statement may run one and change them, unseen by the statement's own
    assignments, so a staged branch or loop with a call carries them too."""
    inner = set()
    for sub in gast.walk(fn_node):
        if sub is not fn_node and isinstance(sub, (gast.FunctionDef, gast.AsyncFunctionDef)):
            inner |= activity.declared(sub, gast.Nonlocal)
    return inner & activity.writes(fn_node.body)


def _guard_global_writes(block, names, function):
    """``block`` with `ag__.global_write_guard` before each statement that assigns one of
    the module globals ``names`` (in the blocks of its `if`s, loops, `with`s and `try`s
    too, not in nested functions): a guard runs only where the assignment does (a lazily
    filled cache, `if _TABLE is None: _TABLE = ...`, reached when it is already full,
    assigns nothing)."""
    out = []
    for stmt in block:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            out.append(stmt)
            continue
        inner = [f for f in ("body", "orelse", "finalbody") if getattr(stmt, f, None)]
        for f in inner:
            setattr(stmt, f, _guard_global_writes(getattr(stmt, f), names, function))
        for handler in getattr(stmt, "handlers", []):
            handler.body = _guard_global_writes(handler.body, names, function)
        own = (activity.writes([stmt.target]) if isinstance(stmt, gast.For)
               else set() if inner else activity.writes([stmt]))
        if own & names:
            guard = templates.replace("ag__.global_write_guard(names, fn)",
                                      names=_str_tuple(sorted(own & names)),
                                      fn=gast.Constant(value=function, kind=None))
            guard[0].ag_origin = getattr(stmt, "ag_origin", None)
            out += guard
        out.append(stmt)
    return out


def _own_nonlocals(fn_node):
    """The names ``fn_node`` itself declares `nonlocal` (not its nested functions)."""
    out = set()
    stack = list(fn_node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Nonlocal):
            out |= set(n.names)
        elif not isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda,
                                gast.ClassDef)):
            stack.extend(gast.iter_child_nodes(n))
    return out


def _str_tuple(names):
    return gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in names], ctx=gast.Load())


class ControlFlowTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.globals = [set()]
        self.closure_writes = [set()]
        self.vars_name = ctx.namer.new("vars_")

    def visit_FunctionDef(self, node):
        liveness.analyze(node)
        nested = len(self.globals) > 1  # (a def inside the function converted)
        self.globals.append(activity.declared(node, gast.Global))
        self.closure_writes.append(_closure_writes(node))
        gwrites = activity.writes(node.body) & self.globals[-1]
        nwrites = sorted(activity.writes(node.body) & _own_nonlocals(node))
        if gwrites:  # (a helper called inside a staged block: refused, runtime/staging.py)
            node.body = _guard_global_writes(node.body, gwrites, node.name)
        node = self.generic_visit(node)
        self.globals.pop()
        self.closure_writes.pop()
        if nwrites:  # (called inside a staged block that cannot carry them: refused)
            guard = templates.replace(f"ag__.nonlocal_write_guard(names, lambda: "
                                      f"({', '.join(nwrites)},))", names=_str_tuple(nwrites))
            guard[0].ag_origin = getattr(node.body[0], "ag_origin", None)
            node.body = guard + node.body
            if nested:  # (the regions its def is traced in: runtime/slots.py)
                return [node] + templates.replace("ag__.defined_closure(fn)", fn=node.name)
        return node

    def visit_ClassDef(self, node):
        return node  # class bodies cannot hold `nonlocal` body functions

    def _state(self, node, modified, live, comps):
        """(names, nouts, init statements) for a statement assigning `modified` and writing
        the composites `comps` (`d['s']`, `s.v`: analysis/composites.py), which are always
        live (the object outlives the statement) and come right after the live names."""
        if self.closure_writes[-1] and any(isinstance(n, gast.Call) for n in gast.walk(node)):
            modified = modified | self.closure_writes[-1]  # (a call may run such a closure)
        modified = sorted(modified - self.globals[-1])
        outs = [n for n in modified if n in live]
        names = outs + [c.name for c in comps] + [n for n in modified if n not in live]
        src = "".join(f"{n} = ag__.Undefined({n!r})\n" for n in names
                      if n in modified and n not in node.ag_defined_in)
        return names, len(outs) + len(comps), templates.replace(src) if src else []

    def _state_fns(self, names, comps=()):
        get_state, set_state = self.ctx.namer.new("get_state"), self.ctx.namer.new("set_state")
        if comps:
            fns = self._composite_state_fns(names, comps, get_state, set_state)
        elif not names:
            fns = templates.replace(_NO_STATE_FNS, get_state=get_state, set_state=set_state,
                                    vars_=self.vars_name)
        else:
            fns = templates.replace(_STATE_FNS, get_state=get_state, set_state=set_state,
                                    vars_=self.vars_name, state=list(names), names=list(names),
                                    gnames=sorted(self.globals[-1]))
        fns[0].ag_state_fn = True  # its reads of undefined names are legitimate
        return fns, get_state, set_state

    def _composite_state_fns(self, names, comps, get_state, set_state):
        """get_state/set_state for a state holding composites: each is read and written
        through the object that holds it (runtime/slots.py), the names as usual."""
        by_name = {c.name: c for c in comps}
        reads, plain, writes = [], [], []
        for i, n in enumerate(names):
            if n in by_name:
                thunk, kind, key = composites.source(by_name[n])
                reads.append(f"ag__.get_slot({thunk}, {kind}, {key}, {n!r})")
                writes.append(f"    ag__.set_slot({thunk}, {kind}, {key}, {self.vars_name}[{i}])")
            else:
                reads.append(n)
                plain.append((i, n))
        src = f"def {get_state}():\n    return ({', '.join(reads)},)\n"
        src += f"def {set_state}({self.vars_name}):\n"
        if plain:
            src += f"    nonlocal {', '.join(n for _, n in plain)}\n"
            if self.globals[-1]:
                src += f"    global {', '.join(sorted(self.globals[-1]))}\n"
            src += (f"    {', '.join(n for _, n in plain)}, = "
                    f"{', '.join(f'{self.vars_name}[{i}]' for i, _ in plain)},\n")
        return templates.replace(src + "\n".join(writes) + "\n")

    def _body_fn(self, name, body, names, arg=None):
        gwrites = sorted(activity.writes(body) & self.globals[-1])
        if gwrites:  # (refused where the block is staged: runtime/staging.py)
            guard = templates.replace("ag__.global_write_guard(names)",
                                      names=_str_tuple(gwrites))
            guard[0].ag_origin = getattr(body[0], "ag_origin", None)
            body = guard + body
        template = "def fn(arg):\n    nonlocal names\n    global gnames\n    body"
        if arg is None:
            template = template.replace("arg", "")
        names = [n for n in names if n.isidentifier()]  # (not the composites: `d['s']`)
        return templates.replace(template, fn=name, arg=arg, names=names,
                                 gnames=sorted(self.globals[-1]), body=body or [gast.Pass()])

    def visit_Try(self, node):
        """A `try` whose body may stop before it binds a name (`y = x[5]` raising): the
        name is first bound to `ag__.Undefined('y')`, as before an `if`, so a staged
        statement in a handler, in `finally` or after the `try` reads it in its state and
        a read where it is still unset raises Python's UnboundLocalError (`ld`). Without,
        the state read raised a NameError of the body function (session 54)."""
        names = sorted(activity.writes(node.body) - node.ag_defined_in - self.globals[-1])
        node = self.generic_visit(node)
        if not names:
            return node
        src = "".join(f"{n} = ag__.Undefined({n!r})\n" for n in names)
        return templates.replace(src) + [node]

    def visit_If(self, node):
        modified = activity.writes(node.body + node.orelse)
        comps = composites.of(node.body + node.orelse)
        names, nouts, inits = self._state(node, modified, node.ag_live_out, comps)
        deleted = sorted(deletes.deleted_names(node.body + node.orelse) & set(names[:nouts]))
        fns, get_state, set_state = self._state_fns(names, comps)
        if_body, else_body = self.ctx.namer.new("if_body"), self.ctx.namer.new("else_body")
        node = self.generic_visit(node)
        fns += self._body_fn(if_body, node.body, names)
        fns += self._body_fn(else_body, node.orelse, names)
        template = "ag__.if_stmt(test, if_body, else_body, get_state, set_state, names, nouts)"
        if deleted:  # state a branch may `del` (runtime/unset.py)
            template = template[:-1] + ", deleted)"
        call = templates.replace(
            template, test=logical_expressions.mark_test(node.test), if_body=if_body,
            else_body=else_body,
            get_state=get_state, set_state=set_state, names=_str_tuple(names), nouts=nouts,
            deleted=_str_tuple(deleted))
        return inits + fns + call

    def _opts(self, node, deleted=(), held_iterable=None):
        keys, values = [], []
        if held_iterable:  # (a loop that may stop early over a name's iterable: loops.py)
            keys.append(gast.Constant(value="held", kind=None))
            values.append(gast.Constant(value=held_iterable, kind=None))
        if deleted:  # loop variables the body may `del` (runtime/unset.py)
            keys.append(gast.Constant(value="deleted", kind=None))
            values.append(_str_tuple(deleted))
        for kw in getattr(node, "ag_loop_options", []):
            keys.append(gast.Constant(value=kw.arg, kind=None))
            values.append(kw.value)
        if getattr(node, "ag_had_else", False):
            keys.append(gast.Constant(value="has_else", kind=None))
            values.append(gast.Constant(value=True, kind=None))
        return gast.Dict(keys=keys, values=values) if keys else None

    def visit_While(self, node):
        modified = activity.writes(node.body)
        comps = composites.of(node.body)
        names, nouts, inits = self._state(node, modified, node.ag_live_in | node.ag_live_out,
                                          comps)
        deleted = sorted(deletes.deleted_names(node.body) & set(names[:nouts]))
        fns, get_state, set_state = self._state_fns(names, comps)
        loop_test, loop_body = self.ctx.namer.new("loop_test"), self.ctx.namer.new("loop_body")
        node = self.generic_visit(node)
        fns += templates.replace("def loop_test():\n    return test", loop_test=loop_test,
                                 test=logical_expressions.mark_test(node.test))
        fns += self._body_fn(loop_body, node.body, names)
        call = templates.replace(
            "ag__.while_stmt(loop_test, loop_body, get_state, set_state, names, nouts, opts)",
            loop_test=loop_test, loop_body=loop_body, get_state=get_state,
            set_state=set_state, names=_str_tuple(names), nouts=nouts,
            opts=self._opts(node, deleted))
        return inits + fns + call

    def visit_For(self, node):
        modified = activity.writes(node.body) | activity.writes(node.target)
        comps = composites.of([node.target] + node.body)
        names, nouts, inits = self._state(node, modified, node.ag_live_in | node.ag_live_out,
                                          comps)
        deleted = sorted(deletes.deleted_names(node.body) & set(names[:nouts]))
        fns, get_state, set_state = self._state_fns(names, comps)
        loop_body, itr = self.ctx.namer.new("loop_body"), self.ctx.namer.new("itr")
        node = self.generic_visit(node)
        body = templates.replace("target = itr", target=node.target, itr=itr) + node.body
        fns += self._body_fn(loop_body, body, names, arg=itr)
        extra_test = None
        tests = getattr(node, "ag_extra_test", [])
        if tests:
            extra_test = self.ctx.namer.new("extra_test")
            test = tests[0] if len(tests) == 1 else gast.BoolOp(op=gast.And(), values=tests)
            fns += templates.replace("def extra_test():\n    return test",
                                     extra_test=extra_test, test=test)
        call = templates.replace(
            "ag__.for_stmt(iter_, extra_test, loop_body, get_state, set_state, names, nouts,"
            " opts)",
            iter_=node.iter, extra_test=extra_test, loop_body=loop_body, get_state=get_state,
            set_state=set_state, names=_str_tuple(names), nouts=nouts,
            opts=self._opts(node, deleted, tests and isinstance(node.iter, gast.Name)
                            and node.iter.id))
        return inits + fns + call
