"""`if`/`while`/`for` become calls of `ag__.if_stmt`/`while_stmt`/`for_stmt`.

Each statement's blocks move into body functions that share the enclosing function's
variables through `nonlocal`; `get_state`/`set_state` read and write those variables
as one tuple, which is how the runtime carries them through a staged cond or loop.
Every name the statement assigns is in that tuple (so Python semantics never change);
the first `nouts` of them are the ones that matter after it (branch outputs, or loop
variables: live into the loop or out of it), the rest are restored after staging.
A name not yet bound before the statement is first set to `ag__.Undefined('x')`, so
`nonlocal` has a binding and the runtime can say which branch left it unset.
Runs on the tree left by the break/continue/return converters (see liveness.py); each
statement's state is computed before its blocks are rewritten (the body functions of
nested statements are not the user's variables).
"""

import gast

from autograph_lite.autograph.analysis import activity, liveness
from autograph_lite.autograph.converters import base, deletes
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


def _str_tuple(names):
    return gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in names], ctx=gast.Load())


class ControlFlowTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.globals = [set()]
        self.vars_name = ctx.namer.new("vars_")

    def visit_FunctionDef(self, node):
        liveness.analyze(node)
        self.globals.append(activity.declared(node, gast.Global))
        node = self.generic_visit(node)
        self.globals.pop()
        return node

    def visit_ClassDef(self, node):
        return node  # class bodies cannot hold `nonlocal` body functions

    def _state(self, node, modified, live):
        """(names, nouts, init statements) for a statement assigning `modified`."""
        modified = sorted(modified - self.globals[-1])
        outs = [n for n in modified if n in live]
        names = outs + [n for n in modified if n not in live]
        src = "".join(f"{n} = ag__.Undefined({n!r})\n" for n in names
                      if n not in node.ag_defined_in)
        return names, len(outs), templates.replace(src) if src else []

    def _state_fns(self, names):
        get_state, set_state = self.ctx.namer.new("get_state"), self.ctx.namer.new("set_state")
        if not names:
            fns = templates.replace(_NO_STATE_FNS, get_state=get_state, set_state=set_state,
                                    vars_=self.vars_name)
        else:
            fns = templates.replace(_STATE_FNS, get_state=get_state, set_state=set_state,
                                    vars_=self.vars_name, state=list(names), names=list(names),
                                    gnames=sorted(self.globals[-1]))
        fns[0].ag_state_fn = True  # its reads of undefined names are legitimate
        return fns, get_state, set_state

    def _body_fn(self, name, body, names, arg=None):
        template = "def fn(arg):\n    nonlocal names\n    global gnames\n    body"
        if arg is None:
            template = template.replace("arg", "")
        return templates.replace(template, fn=name, arg=arg, names=list(names),
                                 gnames=sorted(self.globals[-1]), body=body or [gast.Pass()])

    def visit_If(self, node):
        modified = activity.writes(node.body + node.orelse)
        names, nouts, inits = self._state(node, modified, node.ag_live_out)
        deleted = sorted(deletes.deleted_names(node.body + node.orelse) & set(names[:nouts]))
        fns, get_state, set_state = self._state_fns(names)
        if_body, else_body = self.ctx.namer.new("if_body"), self.ctx.namer.new("else_body")
        node = self.generic_visit(node)
        fns += self._body_fn(if_body, node.body, names)
        fns += self._body_fn(else_body, node.orelse, names)
        template = "ag__.if_stmt(test, if_body, else_body, get_state, set_state, names, nouts)"
        if deleted:  # state a branch may `del` (runtime/unset.py)
            template = template[:-1] + ", deleted)"
        call = templates.replace(
            template, test=node.test, if_body=if_body, else_body=else_body,
            get_state=get_state, set_state=set_state, names=_str_tuple(names), nouts=nouts,
            deleted=_str_tuple(deleted))
        return inits + fns + call

    def _opts(self, node, deleted=()):
        keys, values = [], []
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
        names, nouts, inits = self._state(node, modified, node.ag_live_in | node.ag_live_out)
        deleted = sorted(deletes.deleted_names(node.body) & set(names[:nouts]))
        fns, get_state, set_state = self._state_fns(names)
        loop_test, loop_body = self.ctx.namer.new("loop_test"), self.ctx.namer.new("loop_body")
        node = self.generic_visit(node)
        fns += templates.replace("def loop_test():\n    return test", loop_test=loop_test,
                                 test=node.test)
        fns += self._body_fn(loop_body, node.body, names)
        call = templates.replace(
            "ag__.while_stmt(loop_test, loop_body, get_state, set_state, names, nouts, opts)",
            loop_test=loop_test, loop_body=loop_body, get_state=get_state,
            set_state=set_state, names=_str_tuple(names), nouts=nouts,
            opts=self._opts(node, deleted))
        return inits + fns + call

    def visit_For(self, node):
        modified = activity.writes(node.body) | activity.writes(node.target)
        names, nouts, inits = self._state(node, modified, node.ag_live_in | node.ag_live_out)
        deleted = sorted(deletes.deleted_names(node.body) & set(names[:nouts]))
        fns, get_state, set_state = self._state_fns(names)
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
            opts=self._opts(node, deleted))
        return inits + fns + call
