"""f-strings become `ag__.fstring(...)` of `ag__.formatted(value, conversion, spec)`, and
`"literal" % values` becomes `ag__.percent_format("literal", values)`
(runtime/text_formats.py; `"...".format(...)` is a call, staged by converted_call).

On Python values they build the same str; a traced value makes a StagedText that
`print` prints on every call (autograph_lite/staged_text.py), instead of the text of
its symbolic repr, fixed at trace time.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


class FStringTransformer(base.Base):
    def visit_JoinedStr(self, node):
        node = self.generic_visit(node)
        return templates.replace_as_expression("ag__.fstring(parts)", parts=list(node.values))

    def visit_BinOp(self, node):
        node = self.generic_visit(node)
        if isinstance(node.op, gast.Mod) and isinstance(node.left, gast.Constant) and \
                isinstance(node.left.value, str):
            return templates.replace_as_expression("ag__.percent_format(fmt, values)",
                                                   fmt=node.left, values=node.right)
        return node

    def visit_FormattedValue(self, node):
        node = self.generic_visit(node)
        spec = node.format_spec if node.format_spec is not None else gast.Constant("", None)
        return templates.replace_as_expression(
            "ag__.formatted(value, conversion, spec)", value=node.value,
            conversion=gast.Constant(node.conversion, None), spec=spec)
