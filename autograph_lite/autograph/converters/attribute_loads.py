"""An attribute read whose value is used (`self.u + 1`, `np.sum(g.u)`, `v = g.u`) becomes
`ag__.attribute(self, "u")`: an array an object holds sees the writes made into it, and a
property of the user's class runs converted (runtime/calls.py).

A NumPy array the function made while tracing (`self.u = np.zeros(n)` in a constructor)
becomes a box (mutation.py; runtime/data.py `lift`) when it is written with a tensor or
inside a staged branch or loop, and the array stands for that box for the rest of the
trace. A local name that holds it is rebound (shared_names.py) and a subscript read
resolves its item (runtime/trace_arrays.py `getitem`), but an object's attribute still
holds the NumPy array itself: read as it is, NumPy would compute with the values of trace
time, the write lost, silently (`g.u[1:-1] += f[1:-1]` then `g.u.sum()` was the sum of
zeros; a `while g.u.sum() < 1` loop ran to its cap). `attribute` gives the box where there
is one, and the value itself otherwise.

Not wrapped: a method looked up (`g.u.sum` in `g.u.sum()`: runtime/calls.py
`converted_call` resolves the array the method is bound to), the base of a further
attribute (`g.u.T`: its result is resolved), the target of a read or write the runtime
resolves itself (`ag__.getitem(g.u, k)`, `ag__.setitem_held(g.u, ...)`; the composites
analysis reads those bases as written), and attributes of the modules code names by
convention (`np.pi`, `math.inf`), which hold no array a trace made.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates

_MODULES = frozenset(("np", "numpy", "math", "cmath", "ag", "scipy", "itertools",
                      "functools", "operator", "random", "builtins", "numba", "sys", "os"))
# ag__ helpers that resolve their first argument themselves (and whose base the
# composites analysis reads)
_SELF_RESOLVING = frozenset(("getitem", "setitem", "setitem_held", "augassign",
                             "augassign_attribute", "index"))


def _root(node):
    while isinstance(node, (gast.Attribute, gast.Subscript)):
        node = node.value
    return node


class AttributeLoadTransformer(base.Base):
    def visit_Call(self, node):
        if isinstance(node.func, gast.Attribute):
            node.func.ag_method = True  # (a method looked up, not a value read)
        if base.is_ag_call(node) and node.func.attr in _SELF_RESOLVING and node.args:
            node.args[0].ag_resolved = True
        return self.generic_visit(node)

    def visit_Attribute(self, node):
        node.value.ag_method = True  # (the base of a further attribute)
        node = self.generic_visit(node)
        root = _root(node)
        if (not isinstance(node.ctx, gast.Load) or getattr(node, "ag_method", False)
                or getattr(node, "ag_resolved", False)
                or (isinstance(root, gast.Name) and (root.id in _MODULES
                                                     or root.id == base.AG))):
            return node
        return templates.replace_as_expression("ag__.attribute(a, n)", a=node.value,
                                               n=gast.Constant(value=node.attr, kind=None))
