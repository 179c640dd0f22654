"""`try` statements: a guard before those in staged code, a check in every `except`.

A `try` inside an `if`/`while`/`for` is preceded by `ag__.try_stmt_guard()`: Python
exceptions exist only while tracing, so a `try` in a staged branch or loop would
silently mean something else; SPEC asks for NotImplementedError naming its line. The
guard raises exactly when it runs inside a staged region; on Python values it does
nothing. Must run before control_flow, so the guard moves into the body functions.

Every `except` block starts with `ag__.caught(e)` (the handler gets a name if it has
none; a bare `except:` becomes `except BaseException as e:`, the same thing): an
exception raised while tracing a staged branch or loop (`raise` in one branch of a
tensor `if`, in a helper too) would be caught for every input, which Python does only
on that branch; `caught` refuses it (runtime/staging.py). `return` inside `try` is
return_statements.py's.

The body of a `try` with `except` blocks runs inside `with ag__.try_body(lambda: (E1,
...)):`, which refuses a body that staged ops those blocks would have to catch when the
compiled function runs (runtime/staging.py): Python's `try` exists only while tracing.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class TryTransformer(base.BlockDepth, base.Base):
    def visit_Try(self, node):
        node = self.generic_visit(node)
        if node.handlers:
            types = gast.Tuple(elts=[h.type for h in node.handlers], ctx=gast.Load())
            guarded = templates.replace("with ag__.try_body(lambda: types):\n    pass",
                                        types=types)[0]
            guarded.body = node.body
            guarded.ag_origin = getattr(node, "ag_origin", None)  # (the `try`'s line)
            node.body = [guarded]
        if not self.block_depth:
            return node
        return templates.replace("ag__.try_stmt_guard()") + [node]

    def visit_ExceptHandler(self, node):
        node = self.generic_visit(node)
        if node.type is None:
            node.type = gast.Name(id="BaseException", ctx=gast.Load(), annotation=None,
                                  type_comment=None)
        if node.name is None:
            node.name = gast.Name(id=self.ctx.namer.new("exc"), ctx=gast.Store(),
                                  annotation=None, type_comment=None)
        node.body = templates.replace("ag__.caught(e)", e=node.name.id) + node.body
        return node

    visit_TryStar = visit_Try
