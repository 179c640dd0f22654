"""`assert test, msg` becomes `ag__.assert_stmt(test, lambda: msg)`.

The message stays lazy, as in Python (evaluated only when the assert fails); the
runtime decides whether the check runs now (Python value) or on every call (tensor).
"""

from autograph_lite.autograph.converters import base, logical_expressions
from autograph_lite.autograph.pyct import templates


class AssertTransformer(base.Base):
    def visit_Assert(self, node):
        node = self.generic_visit(node)
        logical_expressions.mark_test(node.test)
        if node.msg is None:
            return templates.replace("ag__.assert_stmt(test)", test=node.test)
        return templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test,
                                 msg=node.msg)
