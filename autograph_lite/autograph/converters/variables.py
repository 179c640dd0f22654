"""Reads of variables that may be unset become `ag__.ld(x)`.

control_flow binds a variable to `Undefined('x')` before a statement that may set it,
and `del x` binds it to `ag__.deleted(...)` (deletes.py); `ld` raises the
UnboundLocalError Python would have raised when it is unset (at run time when a staged
loop decides it: runtime/unset.py). Only those variables are wrapped, and never inside
`get_state`, which must read them as is, nor the target of `augassign` (`x += 1`: the
operator on a MaybeUnset checks the read itself). A read from a nested function
of the user's (not a body function control_flow made) is `ag__.ld(x, True)`: Python
raises NameError for an unset variable of an enclosing function.
Must run after control_flow (which adds the bindings).
"""

import gast

from autograph_lite.autograph.analysis import activity
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates

_UNSETTING = ("Undefined", "deleted")


def _undefined_inits(node):
    names = set()
    for n in gast.walk(node):
        if (isinstance(n, gast.Assign) and isinstance(n.value, gast.Call)
                and base.is_ag_call(n.value) and n.value.func.attr in _UNSETTING):
            names.add(n.targets[0].id)
    return names


class VariableTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.names = None
        self.scopes = []  # local names of the user's nested functions around the node

    def visit_FunctionDef(self, node):
        if getattr(node, "ag_state_fn", False):
            return node
        if self.names is None:
            self.names = _undefined_inits(node) - self.ctx.namer.generated
            return self.generic_visit(node)
        if node.name in self.ctx.namer.generated:  # a body function: the same scope
            return self.generic_visit(node)
        self.scopes.append(activity.local_names(node))
        node = self.generic_visit(node)
        self.scopes.pop()
        return node

    def visit_Call(self, node):
        if base.is_ag_call(node) and node.func.attr in ("augassign", "augassign_attribute"):
            # `x op= v`: its read of x is the operator's (unset.MaybeUnset checks it)
            node.args[1:] = [self.visit(a) for a in node.args[1:]]
            return node
        return self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load) and self.names and node.id in self.names:
            if self.scopes and node.id not in self.scopes[-1]:
                return templates.replace_as_expression("ag__.ld(x, True)", x=node.id)
            return templates.replace_as_expression("ag__.ld(x)", x=node.id)
        return node
