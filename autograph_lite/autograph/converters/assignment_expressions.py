"""Assignment expressions (`:=`) in tests, bound where Python binds them.

A `while` whose test assigns (`while (y := f(x)) < tol:`) becomes `while True:` whose
body first checks the test and leaves: `if not ((y := f(x)) < tol): <else>; break`.

The test of a staged loop is traced inside a function of its own (control_flow.py), where
the walrus would bind a local that the loop, and the code after it, never see (a
NameError, or a stale value); as a statement of the body the assignment is loop state like
any other. Python's `while/else` runs the `else` exactly when the test fails, which is
where the check now runs it, before leaving (a `break` of the body still skips it); an
`else` holding a `break`/`continue` of an enclosing loop runs after the loop instead, where
a flag set by the failed test says so (inside, its jumps would leave the wrong loop). Must
precede break_statements, which turns the new `break` into a flag.

In an `if` test (those above included) the first operand of an `and`/`or` chain that
assigns, which Python evaluates first anyway, is bound to a name by a statement before the
`if`: the logical converter puts every operand of `and`/`or` into a lambda, where the
walrus would bind a name of the lambda's own (`while (w := w + 1) <= 3 and x[w] > 0`). A
walrus in a later operand (evaluated only sometimes) is left as written.
"""

import gast

from autograph_lite.autograph.converters import base


def _assigns(test):
    return any(isinstance(n, gast.NamedExpr) for n in gast.walk(test))


def _jumps_out(stmts):
    return any(True for _ in base.loop_local_stmts(stmts, (gast.Break, gast.Continue)))


def _name(name, ctx):
    return gast.Name(name, ctx, None, None)


class AssignmentExpressionTransformer(base.Base):
    def _hoisted(self, test):
        """(statements, test): ``test`` with the first operand of each `and`/`or` chain
        that assigns bound to a new name by the statements."""
        if isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not):
            pre, test.operand = self._hoisted(test.operand)
            return pre, test
        if isinstance(test, gast.BoolOp):
            pre, first = self._hoisted(test.values[0])
            if _assigns(first):
                name = self.ctx.namer.new("operand_")
                pre = pre + [gast.Assign(targets=[_name(name, gast.Store())], value=first)]
                first = _name(name, gast.Load())
            test.values[0] = first
            return pre, test
        return [], test

    def visit_If(self, node):
        node = self.generic_visit(node)
        if not _assigns(node.test):
            return node
        pre, node.test = self._hoisted(node.test)
        return base.placed(pre + [node], node)

    def visit_While(self, node):
        node = self.generic_visit(node)
        if not _assigns(node.test):
            return node
        before, after, on_exit = [], [], []
        if node.orelse and _jumps_out(node.orelse):
            # (`else: break` of an outer loop: run after the loop, where the failed test
            # was noted, so its jumps still leave the loop they name)
            failed = self.ctx.namer.new("test_failed_")
            before = [gast.Assign(targets=[_name(failed, gast.Store())],
                                  value=gast.Constant(value=False, kind=None))]
            on_exit = [gast.Assign(targets=[_name(failed, gast.Store())],
                                   value=gast.Constant(value=True, kind=None))]
            after = [gast.If(test=_name(failed, gast.Load()), body=list(node.orelse),
                             orelse=[])]
        else:
            on_exit = list(node.orelse)
        leave = gast.If(test=gast.UnaryOp(op=gast.Not(), operand=node.test),
                        body=on_exit + [gast.Break()], orelse=[])
        pre, leave.test = self._hoisted(leave.test)
        loop = gast.While(test=gast.Constant(value=True, kind=None),
                          body=pre + [leave] + list(node.body), orelse=[])
        for attr in ("ag_loop_options",):  # (the directive converter's, kept on the loop)
            if hasattr(node, attr):
                setattr(loop, attr, getattr(node, attr))
        return base.placed(before + [loop] + after, node)
