"""Subscript assignment rebinds the name: `x[i] = v` becomes `x = ag__.setitem(x, i, v)`.

Rebinding is what lets the update be staged: for a tensor, `setitem` returns a new
tensor (functional update) and the variable becomes ordinary branch/loop state; for a
list or NumPy array it assigns in place and returns the same object, so Python
semantics do not change. `m[i, j] += v` passes the operator (`'+='`) so the index is
evaluated once, as in Python. Slices in an index are built with `ag__.index[a:b, i]`.
Only names local to the function are rewritten (rebinding a global would make it local).

SPEC 3: on a symbolic tensor the update is a write into the array's storage
(mutation.py), so every other name and view of the array sees it, as in NumPy; the
rebinding then hands back the same tensor. The target's name is passed for messages.
`x op= v` on a local name becomes `x = ag__.augassign(x, v, op)`: Python's in-place
operator, except that a NumPy array made while tracing, updated inside a staged branch or
loop (or by a tensor), becomes a tensor first (runtime/data.py, `lift`). So does
`self.w op= v` (attributes of a name): Python's own statement would update the NumPy array
of trace time, not the box it may have become, and the write was lost.
"""

import copy

import gast

from autograph_lite.autograph.analysis import activity, liveness
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import parser, templates

_AUG_OPS = {gast.Add: "+=", gast.Sub: "-=", gast.Mult: "*=", gast.Div: "/=",
            gast.FloorDiv: "//=", gast.Mod: "%=", gast.Pow: "**=", gast.MatMult: "@=",
            gast.BitAnd: "&=", gast.BitOr: "|=", gast.BitXor: "^=", gast.LShift: "<<=",
            gast.RShift: ">>="}


def _index_expr(index):
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    if any(isinstance(p, gast.Slice) for p in parts):
        return templates.replace_as_expression("ag__.index[i]", i=index)
    return index


def _text(s):
    return gast.Constant(value=s, kind=None)


def _plain_chain(node):
    """`a.b.c`: attributes of a name, which reading twice does not change."""
    while isinstance(node, gast.Attribute):
        node = node.value
    return isinstance(node, gast.Name)


class SubscriptTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.locals = [set()]

    def visit_FunctionDef(self, node):
        self.locals.append(activity.local_names(node))
        liveness.analyze(node)
        node = self.generic_visit(node)
        self.locals.pop()
        return node

    def _target(self, target):
        if (isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name)
                and target.value.id in self.locals[-1]):
            return target.value.id, _index_expr(target.slice)
        return None, None

    def _held(self, target, value, op=None):
        """`rows[0][k] = v`, `self.a[k] += v`, `G[k] = v` (a global): the array written is
        not a local name, so nothing is rebound; `ag__.setitem_held` writes it (an array
        of trace time written with a tensor becomes a box, a captured one is refused)."""
        if not isinstance(target, gast.Subscript):
            return None
        n = _text(parser.unparse(target.value).strip())
        if op is None:
            return templates.replace("ag__.setitem_held(x, index, value, name=n)",
                                     x=target.value, index=_index_expr(target.slice),
                                     value=value, n=n)
        return templates.replace("ag__.setitem_held(x, index, value, op, name=n)",
                                 x=target.value, index=_index_expr(target.slice),
                                 value=value, op=_text(op), n=n)

    def visit_Assign(self, node):
        node = self.generic_visit(node)  # the same node, its ag_live_out kept
        if len(node.targets) != 1:
            return node
        name, index = self._target(node.targets[0])
        if name is None:
            return self._held(node.targets[0], node.value) or node
        return templates.replace("x = ag__.setitem(x, index, value, name=n)", x=name,
                                 index=index, value=node.value, n=_text(name))

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        t = node.target
        if isinstance(t, gast.Name) and t.id in self.locals[-1]:
            # `x op= v`: the runtime decides (an array of trace time written inside a
            # staged branch or loop must become a tensor first: runtime/data.py)
            return templates.replace("x = ag__.augassign(x, value, op, name=n)", x=t.id,
                                     value=node.value, op=_text(_AUG_OPS[type(node.op)]),
                                     n=_text(t.id))
        if isinstance(t, gast.Attribute) and _plain_chain(t):
            # `self.w op= v`: as a name's (an array the object holds may be a box by now,
            # runtime/data.py; Python's own would change the NumPy array of trace time)
            load = copy.deepcopy(t)
            load.ctx = gast.Load()
            return templates.replace("x = ag__.augassign_attribute(y, value, op, name=n)", x=t,
                                     y=load,
                                     value=node.value, op=_text(_AUG_OPS[type(node.op)]),
                                     n=_text(parser.unparse(load).strip()))
        name, index = self._target(t)
        if name is None:
            return self._held(t, node.value, _AUG_OPS[type(node.op)]) or node
        return templates.replace("x = ag__.setitem(x, index, value, op, name=n)", x=name,
                                 index=index, value=node.value,
                                 op=_text(_AUG_OPS[type(node.op)]), n=_text(name))
