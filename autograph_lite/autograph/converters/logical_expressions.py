"""`a and b`, `a or b`, `not a` become `ag__.and_/or_/not_` with lazy operands.

Later operands are lambdas, so Python short-circuiting is kept exactly, and a tensor
operand can be combined lazily (staged) by the runtime. Single comparisons stay as
they are (tensors overload them); chained ones (`a < b < c`) become an `and_`, or, where
a middle operand is more than a name (`0 < a[i] < n`), `ag__.compare_chain`, which
evaluates each operand once. `x in a` becomes `ag__.in_(x, a)` (`not in`: `not_in`):
NumPy's `(a == x).any()` staged for a tensor `a`; `a is b` becomes `ag__.is_(a, b)` (`is
not`: `is_not`): a tensor that stands for a Python bool is True or False by its value.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class LogicalExpressionTransformer(base.Base):
    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        fn = "ag__.and_" if isinstance(node.op, gast.And) else "ag__.or_"
        # (a test, `if c and rows and x < rows[-1]:`: only its truth is read, so an
        # operand that is a Python list may stand for its truth where the rest is staged)
        test = ", test=True" if getattr(node, "ag_test", False) else ""
        expr = node.values[-1]
        for value in reversed(node.values[:-1]):
            expr = templates.replace_as_expression(f"{fn}(lambda: a, lambda: b{test})",
                                                   a=value, b=expr)
        return expr

    def visit_Compare(self, node):
        """`a < b < c` -> `and_(lambda: a < b, lambda: b < c)` when the middle operands are
        plain names or constants (evaluating them twice is then harmless), also as the
        variables converter spells a name that may be unset (`ag__.ld(b)`); otherwise
        `compare_chain(a, ('Lt', 'Lt'), (lambda: b, lambda: c))`."""
        node = self.generic_visit(node)
        if len(node.ops) < 2:
            if isinstance(node.ops[0], (gast.In, gast.NotIn)):  # (`x in a`: runtime/logical)
                fn = "ag__.in_" if isinstance(node.ops[0], gast.In) else "ag__.not_in"
                return templates.replace_as_expression(f"{fn}(a, b)", a=node.left,
                                                       b=node.comparators[0])
            fn = _CALLED.get(type(node.ops[0]))  # (`bool(t) is True`, `(i, j) == (0, 0)`)
            if fn is not None and (fn.startswith("ag__.is") or _sequence(node.left)
                                   or _sequence(node.comparators[0])):
                return templates.replace_as_expression(f"{fn}(a, b)", a=node.left,
                                                       b=node.comparators[0])
            return node
        if all(_plain(c) for c in node.comparators[:-1]):
            lefts = [node.left] + node.comparators[:-1]
            parts = [gast.Compare(left=left, ops=[op], comparators=[right])
                     for left, op, right in zip(lefts, node.ops, node.comparators)]
            return self.visit_BoolOp(gast.BoolOp(op=gast.And(), values=parts))
        names = [f"x{k}" for k in range(len(node.comparators))]
        ops = ", ".join(repr(type(op).__name__) for op in node.ops)
        lazy = ", ".join(f"lambda: {n}" for n in names)
        return templates.replace_as_expression(
            f"ag__.compare_chain(left, ({ops},), ({lazy},))", left=node.left,
            **dict(zip(names, node.comparators)))

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_as_expression("ag__.not_(a)", a=node.operand)
        return node


def mark_test(node):
    """Marks the `and`/`or` expressions whose value is only tested for its truth (an
    `if`/`while`/`assert`/conditional expression's test, through `and`, `or` and `not`:
    the converters of those statements call this before they wrap the test). Returns
    ``node``."""
    if isinstance(node, gast.BoolOp):
        node.ag_test = True
        for value in node.values:
            mark_test(value)
    elif isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.Not):
        mark_test(node.operand)
    return node


_CALLED = {gast.Is: "ag__.is_", gast.IsNot: "ag__.is_not", gast.Eq: "ag__.eq",
           gast.NotEq: "ag__.ne"}


def _sequence(node):
    """Whether an operand of `==` may be a tuple or list: a display, or anything but a
    constant (a name, a call: `x.tolist()`); `a == 0` of two numbers stays Python's."""
    return not isinstance(node, gast.Constant)


def _plain(node):
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    return (isinstance(node, gast.Call) and base.is_ag_call(node) and node.func.attr == "ld"
            and len(node.args) == 1 and isinstance(node.args[0], gast.Name))
