"""`a if test else b` becomes `ag__.if_exp(test, lambda: a, lambda: b)`.

Both branches stay lazy: Python evaluates one, a staged condition traces both.
"""

from autograph_lite.autograph.converters import base, logical_expressions
from autograph_lite.autograph.pyct import templates


class ConditionalExpressionTransformer(base.Base):
    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        return templates.replace_as_expression(
            "ag__.if_exp(test, lambda: body, lambda: orelse)",
            test=logical_expressions.mark_test(node.test), body=node.body, orelse=node.orelse)
