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

The logical and conditional-expression converters put the operands of `and`/`or` and
the arms of `a if c else b` into lambdas, where a walrus would bind a name of the
lambda's own (lost, or a NameError). So where such an expression that assigns is a
statement's whole test or value (an `if` or `while` test, `x = ...`, `return ...`, an
expression statement, operands of those nested likewise), it becomes statements before
it: the first operand of an `and`/`or` chain, which Python evaluates first anyway, is
bound to a name (`while (w := w + 1) <= 3 and x[w] > 0`); a later one that assigns is
evaluated under an `if` on the chain's value so far (`__op = a` then `if __op: __op = ((k
:= e) > 3)`: short-circuiting kept, and a staged `if` carries `k` like any name); `(y :=
a) if c else (y := b)` becomes an `if`/`else` binding one name. A walrus anywhere else in
such an expression (`f(x and (k := e))`, a chained comparison) is refused by name once
the function is lowered, and in a generator that `sum`/`any`/`all` reduces by that
converter (`refuse_walrus`): before session 45 it bound nothing, silently. In a lambda's
body it stays as written (it binds the lambda's own name, which nothing after it reads).
"""

import copy

import gast

from autograph_lite.autograph.converters import base


def _assigns(test):
    return any(isinstance(n, gast.NamedExpr) for n in gast.walk(test))


def _lazy_assigns(expr):
    """Whether an `and`/`or` chain or a conditional expression in ``expr`` assigns."""
    return any(isinstance(n, (gast.BoolOp, gast.IfExp)) and _assigns(n)
               for n in gast.walk(expr))


def refuse_walrus(converter, node, what):
    """Raises where ``node`` (a converter's lazily evaluated expression) still assigns."""
    for n in gast.walk(node):
        if isinstance(n, gast.NamedExpr):
            converter.unsupported(n, f"an assignment expression (:=) inside {what} (assign "
                                     f"the name in a statement before it)")


_NOT_WHOLE = "that is not a statement's whole test or value"


def _lazy_parts(node):
    """(part, what) for each expression of ``node`` that a later converter evaluates in a
    lambda of its own: the operands of `and`/`or`, the arms of `a if c else b`, and the
    operands of a chained comparison."""
    if isinstance(node, gast.BoolOp):
        return [(v, f"an `and`/`or` {_NOT_WHOLE}") for v in node.values]
    if isinstance(node, gast.IfExp):
        return [(v, f"a conditional expression {_NOT_WHOLE}")
                for v in (node.body, node.orelse)]
    if isinstance(node, gast.Compare) and len(node.ops) > 1:
        return [(v, "a chained comparison") for v in [node.left] + node.comparators]
    return []


def _walk_outside_lambdas(node):
    """The nodes under ``node``, not entering a lambda (its walrus binds the lambda's own
    name, which nothing after it reads: left as Python runs it)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in gast.iter_child_nodes(n) if not isinstance(c, gast.Lambda))


def _assign(name, value):
    return gast.Assign(targets=[_name(name, gast.Store())], value=value, type_comment=None)


def _jumps_out(stmts):
    return any(True for _ in base.loop_local_stmts(stmts, (gast.Break, gast.Continue)))


def _name(name, ctx):
    return gast.Name(name, ctx, None, None)


class AssignmentExpressionTransformer(base.Base):
    def _hoisted(self, test):
        """(statements, test): ``test`` with the `and`/`or` chains and conditional
        expressions that assign made statements (module docstring)."""
        if isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not):
            pre, test.operand = self._hoisted(test.operand)
            return pre, test
        if isinstance(test, gast.BoolOp) and any(_assigns(v) for v in test.values[1:]):
            return self._chain(test)
        if isinstance(test, gast.BoolOp):
            pre, first = self._hoisted(test.values[0])
            if _assigns(first):
                name = self.ctx.namer.new("operand_")
                pre = pre + [_assign(name, first)]
                first = _name(name, gast.Load())
            test.values[0] = first
            return pre, test
        if isinstance(test, gast.IfExp) and (_assigns(test.body) or _assigns(test.orelse)):
            name = self.ctx.namer.new("value_")
            pre, cond = self._hoisted(test.test)
            arms = [self._hoisted(arm) for arm in (test.body, test.orelse)]
            return pre + [gast.If(test=cond, body=arms[0][0] + [_assign(name, arms[0][1])],
                                  orelse=arms[1][0] + [_assign(name, arms[1][1])])], \
                _name(name, gast.Load())
        return [], test

    def _chain(self, test):
        """`a and b and c` with a later operand that assigns: `__op = a`, then `if __op:
        __op = b`, nested, `__op` its value (`or`: `if not __op`)."""
        name = self.ctx.namer.new("operand_")
        guard = (_name(name, gast.Load()) if isinstance(test.op, gast.And)
                 else gast.UnaryOp(op=gast.Not(), operand=_name(name, gast.Load())))
        inner = []
        for operand in reversed(test.values):
            pre, value = self._hoisted(operand)
            inner = pre + [_assign(name, value)] + (
                [gast.If(test=guard, body=inner, orelse=[])] if inner else [])
            guard = copy.deepcopy(guard)
        return inner, _name(name, gast.Load())

    def _statement(self, node):
        """An assignment, `return` or expression statement whose value assigns inside an
        `and`/`or` chain or a conditional expression: those made statements before it."""
        node = self.generic_visit(node)
        if node.value is None or not _lazy_assigns(node.value):
            return node
        pre, node.value = self._hoisted(node.value)
        return base.placed(pre + [node], node)

    visit_Assign = visit_AugAssign = visit_AnnAssign = visit_Return = visit_Expr = _statement

    def visit_FunctionDef(self, node):
        """After lowering, a walrus left where a later converter's lambda would take it is
        refused by name (module docstring)."""
        node = self.generic_visit(node)
        for n in _walk_outside_lambdas(node):
            for part, what in _lazy_parts(n):
                refuse_walrus(self, part, what)
        return node

    def visit_Lambda(self, node):
        return node  # (left as Python runs it: _walk_outside_lambdas)

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
