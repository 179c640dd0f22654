"""`with cm as v:` -> `with ag__.with_guard(cm) as v:` (runtime/staging.py).

The context manager's `__enter__` and `__exit__` run while tracing: a run of the compiled
function whose staged code raises never reaches them, so an `__exit__` that would have
suppressed the error (`contextlib.suppress`) or done something (a counter, a write) is
skipped. The guard refuses a block whose body staged code that may raise when the function
runs, unless its manager is one whose exit does nothing a run could see
(``staging.HARMLESS_EXITS``: `ag.device`, `ag.GradientTape`, `np.errstate`,
`warnings.catch_warnings`, `contextlib.nullcontext`).
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class WithTransformer(base.Base):
    def visit_With(self, node):
        node = self.generic_visit(node)
        for item in node.items:
            if not _ours(item.context_expr):  # (the `try` converter's `ag__.try_body`)
                item.context_expr = templates.replace_as_expression(
                    "ag__.with_guard(cm)", cm=item.context_expr)
        return node


def _ours(expr):
    """A `with` the converters wrote (`with ag__.try_body(...)`), not the user's."""
    return (isinstance(expr, gast.Call) and isinstance(expr.func, gast.Attribute)
            and isinstance(expr.func.value, gast.Name) and expr.func.value.id == "ag__"
            and expr.func.attr == "try_body")
