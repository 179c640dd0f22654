"""The value an unpacking assignment unpacks (`a, b = arrs`) and the iterable a
comprehension walks (`[v * 2 for v in d.values()]`) become `ag__.resolved_items(...)`:
the arrays the list, tuple or dict view holds that became boxes are read as those boxes.

Why: a NumPy array the function made while tracing becomes a box (mutation.py;
runtime/data.py `lift`) when a staged branch or loop writes into it, and stands for that
box for the rest of the trace. A container made before the write still holds the NumPy
array (inside a staged region it is not handed the box: runtime/data.py `_hand_over`), so
unpacked or walked as it is, its items would be the values of trace time and the write
lost, silently (`arrs[0][i] += t` in a staged loop, then `a, b = arrs; a + b`). A `for`
loop Python runs resolves its items itself (runtime/loops.py `_items`), and so do reading
builtins and NumPy functions given a container (runtime/calls.py `converted_call`).
`resolved_items` returns anything else as it is. An unpacking of a tuple display
(`a, b = b, a`) is left alone: its names are rebound after writes (shared_names.py).
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


def _resolved(node):
    return templates.replace_as_expression("ag__.resolved_items(x)", x=node)


class ContainerReadTransformer(base.Base):
    def visit_Assign(self, node):
        node = self.generic_visit(node)
        if (any(isinstance(t, (gast.Tuple, gast.List)) for t in node.targets)
                and not isinstance(node.value, (gast.Tuple, gast.List))):
            node.value = _resolved(node.value)
        return node

    def visit_comprehension(self, node):
        node = self.generic_visit(node)
        node.iter = _resolved(node.iter)
        return node
