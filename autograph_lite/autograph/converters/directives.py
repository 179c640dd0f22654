"""`ag.set_loop_options(...)` as the first statement of a loop body becomes loop options.

The call is removed from the body and its keywords are kept on the loop node as
`ag_loop_options`; control_flow passes them to `for_stmt`/`while_stmt`. Matching is by
the called name (`set_loop_options`, however it is reached), as in TF AutoGraph.
"""

import gast

from autograph_lite.autograph.converters import base

_NAME = "set_loop_options"


def _is_directive(stmt):
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return False
    f = stmt.value.func
    name = f.attr if isinstance(f, gast.Attribute) else getattr(f, "id", None)
    return name == _NAME


class DirectivesTransformer(base.Base):
    def _visit_loop(self, node):
        node = self.generic_visit(node)
        if node.body and _is_directive(node.body[0]):
            call = node.body[0].value
            if call.args:
                self.unsupported(call, "positional arguments to set_loop_options")
            node.ag_loop_options = call.keywords
            node.body = node.body[1:] or [gast.Pass()]
        return node

    visit_For = visit_While = _visit_loop
