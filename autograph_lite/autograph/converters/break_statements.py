"""`break` becomes a flag: `break_ = True; continue`, and the loop tests the flag.

The flag is checked before the loop test (`while not break_ and test`) or, for `for`
loops, kept as `ag_extra_test` for control_flow, so a staged loop can carry it as loop
state. The `continue` left behind is removed by continue_statements (which must run
after this). A loop's `else` block becomes `if not break_: ...` after the loop; the
loop is marked `ag_had_else` so a staged loop can reject it as SPEC asks.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


def add_extra_test(node, expr):
    node.ag_extra_test = getattr(node, "ag_extra_test", []) + [expr]


class BreakTransformer(base.Base):
    def _replace_breaks(self, stmts, flag):
        class Replacer(base.Base):
            def visit_Break(_, node):
                return templates.replace("flag = True\ncontinue", flag=flag)

            def _stop(_, node):
                return node

            visit_For = visit_While = visit_FunctionDef = visit_Lambda = _stop
            visit_ClassDef = visit_AsyncFunctionDef = _stop

        return Replacer(self.ctx).visit_block(stmts)

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        orelse = node.orelse
        node.orelse = []
        if orelse:
            node.ag_had_else = True
        if not any(True for _ in base.loop_local_stmts(node.body, gast.Break)):
            return [node] + orelse
        flag = self.ctx.namer.new("break_")
        node.body = self._replace_breaks(node.body, flag)
        if isinstance(node, gast.While):
            node.test = templates.replace_as_expression("not flag and test", flag=flag,
                                                        test=node.test)
        else:
            add_extra_test(node, templates.replace_as_expression("not flag", flag=flag))
        out = templates.replace("flag = False", flag=flag) + [node]
        if orelse:
            out += templates.replace("if not flag:\n    orelse", flag=flag, orelse=orelse)
        return out

    visit_For = visit_While = _visit_loop
