"""`a op b`, `-a`, `+a`, `~a`, `a < b` become `ag__.binary("op", a, b)` / `ag__.unary("op",
a)` / `ag__.compare("<", a, b)` (runtime/user_operators.py): Python's operator itself on
tensors, arrays and numbers, and on the user's objects their dunder methods run as
converted code (as a method call's is), where Python's own machinery would run them
unconverted. Operations of constants alone
(`2 ** 10`, `-1`) stay as written. After fstrings (`"%d" % v` is its formatting call) and
before call_trees (which converts the calls inside the operands and leaves these alone).
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates

_BINARY = {gast.Add: "+", gast.Sub: "-", gast.Mult: "*", gast.Div: "/", gast.FloorDiv: "//",
           gast.Mod: "%", gast.Pow: "**", gast.MatMult: "@", gast.BitAnd: "&",
           gast.BitOr: "|", gast.BitXor: "^", gast.LShift: "<<", gast.RShift: ">>"}
_UNARY = {gast.USub: "-", gast.UAdd: "+", gast.Invert: "~"}
_ORDER = {gast.Lt: "<", gast.LtE: "<=", gast.Gt: ">", gast.GtE: ">="}  # (`==`/`!=`:
# logical_expressions' ag__.eq/ne, which compare through the runtime too)


def _constant(node):
    return isinstance(node, gast.Constant) or (
        isinstance(node, gast.UnaryOp) and isinstance(node.operand, gast.Constant))


def _text(op):
    return gast.Constant(value=op, kind=None)


class UserOperatorTransformer(base.Base):
    def visit_BinOp(self, node):
        node = self.generic_visit(node)
        if _constant(node.left) and _constant(node.right):
            return node
        return templates.replace_as_expression("ag__.binary(op, a, b)", a=node.left,
                                               b=node.right, op=_text(_BINARY[type(node.op)]))

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if type(node.op) not in _UNARY or _constant(node.operand):
            return node
        return templates.replace_as_expression("ag__.unary(op, a)", a=node.operand,
                                               op=_text(_UNARY[type(node.op)]))

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]) not in _ORDER or (
                _constant(node.left) and _constant(node.comparators[0])):
            return node  # (a chain: logical_expressions' compare_chain)
        return templates.replace_as_expression("ag__.compare(op, a, b)", a=node.left,
                                               b=node.comparators[0],
                                               op=_text(_ORDER[type(node.ops[0])]))
