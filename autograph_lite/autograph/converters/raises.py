"""`raise E(...)` becomes `raise ag__.user_raise(E(...))` (`from` kept; a bare `raise` stays).

Why: an exception the user's `raise` throws while a staged branch is traced is raised on
one path of a tensor condition only. `user_raise` marks it as the user's own (not an error
of the machinery), so that a staged `if` can raise it when the compiled function runs, on
that path, instead of at trace time for every input (runtime/conditionals.py). Before
call_trees, which then converts the calls inside the exception's arguments.
"""

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class RaiseTransformer(base.Base):
    def visit_Raise(self, node):
        node = self.generic_visit(node)
        if node.exc is not None:
            node.exc = templates.replace_as_expression("ag__.user_raise(exc)", exc=node.exc)
        return node
