"""`del x` becomes `x = ag__.deleted(x, 'x')`: the name is unset afterwards, as in Python.

A real `del` of a variable that a staged branch or loop shares through `nonlocal` would
leave the body functions without a binding to carry; an assignment of `Undefined` keeps
the name an ordinary variable of the state, so a later read raises the
UnboundLocalError Python raises (now, or at run time when a staged loop decides whether
the `del` ran: runtime/unset.py). `deleted` reads the value first, as `del` fails on an
unset name. Variables read after a `del` get the read check (variables.py finds the
`ag__.deleted` bindings). `del a[i]`, `del obj.attr` and names declared `global` or
`nonlocal` keep Python's own `del`. Must run before control_flow (the assignment makes
`x` state of the statements around it); control_flow tells the runtime which state
variables a branch or loop body may delete (`deleted_names`), so a staged `if` or loop
carries a flag for them from the start.
"""

import gast

from autograph_lite.autograph.analysis import activity
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class DeleteTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.declared = [set()]

    def visit_FunctionDef(self, node):
        self.declared.append(activity.declared(node, gast.Global)
                             | activity.declared(node, gast.Nonlocal))
        node = self.generic_visit(node)
        self.declared.pop()
        return node

    def visit_Delete(self, node):
        out = []  # one statement per target, in order: `del a, b` deletes a, then b
        for target in node.targets:
            if isinstance(target, gast.Name) and target.id not in self.declared[-1]:
                out += templates.replace("x = ag__.deleted(x, name)", x=target.id,
                                         name=gast.Constant(value=target.id, kind=None))
            else:
                out.append(gast.Delete(targets=[target]))
        return out


def deleted_names(stmts):
    """Names `del`eted (now `x = ag__.deleted(...)`) in `stmts`, outside nested scopes."""
    names = set()
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            continue
        if (isinstance(n, gast.Assign) and isinstance(n.value, gast.Call)
                and base.is_ag_call(n.value) and n.value.func.attr == "deleted"):
            names.add(n.targets[0].id)
        for _, child in gast.iter_fields(n):
            if isinstance(child, list):
                stack.extend(c for c in child if isinstance(c, gast.AST))
            elif isinstance(child, gast.AST):
                stack.append(child)
    return names
