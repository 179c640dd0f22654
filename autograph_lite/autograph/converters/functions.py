"""Function scopes: rejects what cannot be converted (generators, async) up front.

A generator's body cannot be split into the body functions that control flow needs,
and staging a `yield` has no meaning, so SPEC asks for NotImplementedError naming the
line; checking here, first, gives that error before any other rewrite runs.
"""

import gast

from autograph_lite.autograph.converters import base


class FunctionTransformer(base.Base):
    def visit_FunctionDef(self, node):
        for n in base.loop_local_stmts(node.body, (gast.Yield, gast.YieldFrom, gast.Await),
                                       stop=()):
            kind = "`await`" if isinstance(n, gast.Await) else "`yield` (a generator)"
            self.unsupported(n, kind)
        return self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node):
        self.unsupported(node, "an `async def` function")

    def visit_Lambda(self, node):
        for n in gast.walk(node.body):
            if isinstance(n, (gast.Yield, gast.YieldFrom)):
                self.unsupported(n, "`yield` (a generator)")
        return self.generic_visit(node)
