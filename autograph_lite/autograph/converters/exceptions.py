"""A `try` inside an `if`/`while`/`for` is preceded by `ag__.try_stmt_guard()`.

Python exceptions exist only while tracing, so a `try` in a staged branch or loop would
silently mean something else; SPEC asks for NotImplementedError naming its line. The
guard raises exactly when it runs inside a staged region; on Python values it does
nothing. Must run before control_flow, so the guard moves into the body functions.
"""

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class TryTransformer(base.BlockDepth, base.Base):
    def visit_Try(self, node):
        node = self.generic_visit(node)
        if not self.block_depth:
            return node
        return templates.replace("ag__.try_stmt_guard()") + [node]

    visit_TryStar = visit_Try
