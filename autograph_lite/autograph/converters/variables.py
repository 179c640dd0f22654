"""Reads of variables that may still hold `ag__.Undefined` become `ag__.ld(x)`.

control_flow binds a variable to `Undefined('x')` before a statement that may set it;
`ld` raises the UnboundLocalError Python would have raised when it was never set. Only
those variables are wrapped, and never inside `get_state`, which must read them as is.
Must run after control_flow (which adds the bindings).
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


def _undefined_inits(node):
    names = set()
    for n in gast.walk(node):
        if (isinstance(n, gast.Assign) and isinstance(n.value, gast.Call)
                and base.is_ag_call(n.value) and n.value.func.attr == "Undefined"):
            names.add(n.targets[0].id)
    return names


class VariableTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.names = None

    def visit_FunctionDef(self, node):
        if getattr(node, "ag_state_fn", False):
            return node
        if self.names is None:
            self.names = _undefined_inits(node) - self.ctx.namer.generated
        return self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load) and self.names and node.id in self.names:
            return templates.replace_as_expression("ag__.ld(x)", x=node.id)
        return node
