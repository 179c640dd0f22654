"""`obj.attr = value` becomes `ag__.setattr_(obj, "attr", value)`: a property (or another
data descriptor) of the user's class runs its setter converted, as a method call does
(runtime/calls.py ``setattr_``); run by Python's own assignment, the setter saw symbolic
tensors (its `if v < 0:` a TypeError, its `isinstance(v, np.ndarray)` the other branch).
Anything else is Python's `setattr`. After control_flow, whose composites analysis reads
the attribute targets (runtime/slots.py carries what a setter writes), and which writes
them back through ``set_slot`` (its own call, not rewritten).
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class AttributeStoreTransformer(base.Base):
    def visit_Assign(self, node):
        node = self.generic_visit(node)
        if len(node.targets) != 1 or not isinstance(node.targets[0], gast.Attribute):
            return node
        target = node.targets[0]
        if isinstance(target.value, gast.Name) and target.value.id.startswith("ag__"):
            return node
        call = templates.replace("ag__.setattr_(obj, name, value)", obj=target.value,
                                 name=gast.Constant(value=target.attr, kind=None),
                                 value=node.value)
        call[0].ag_origin = getattr(node, "ag_origin", None)
        return call
