"""`x.shape` (a read) becomes `ag__.shape_of(x)`: NumPy's shape, with a staged size where
the trace knows it only at run time.

A symbolic tensor's `.shape` has `None` for such a size (SPEC §1; the library reads it so),
and user code compares it as NumPy's int: `if x.shape[0] == 3` was False on every run of a
trace whose sizes had relaxed, whatever the length (a silent wrong answer), and a returned
`x.shape` held `None`. `shape_of` gives NumPy's tuple instead (runtime/builtins_.py), so
the comparison is staged like any other on a tensor. On anything that is not a symbolic
tensor it is `x.shape` itself. Writes (`x.shape = ...`) keep Python's attribute store.
Runs before the subscript converters, which then see `ag__.shape_of(x)[0]` as any read.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class ShapeTransformer(base.Base):
    def visit_Attribute(self, node):
        node = self.generic_visit(node)
        if node.attr != "shape" or not isinstance(node.ctx, gast.Load):
            return node
        return templates.replace_as_expression("ag__.shape_of(x)", x=node.value)
