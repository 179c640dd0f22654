"""Subscript reads become calls: `a[k]` (a load) becomes `ag__.getitem(a, k)`.

SPEC 1: a NumPy array that is a Python value while tracing (a global lookup table, a
closure's array, `v = np.zeros(5)` made in the body) may be indexed or sliced by a
symbolic tensor, as in NumPy. NumPy itself cannot do that: `ndarray[tensor]` asks the
tensor for `__index__`/`__array__`, which a symbolic tensor does not have. The runtime
`getitem` (runtime/trace_arrays.py) sees the actual values: on Python values it is
exactly `a[k]`; with a symbolic key into an ndarray it stages the array as a constant
of the graph and indexes that. Evaluation order (`a`, then `k`) is Python's.

Stores and deletes (`a[k] = v`, `del a[k]`) are not touched here (subscripts.py rewrites
stores); nor are annotations, which are not values, nor the `ag__.index[...]` builder
other converters emit. Runs after subscripts.py, so the reads inside its `setitem` calls
(`a[i][j] = v`: the `a[i]`) are converted too.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.converters.subscripts import _index_expr
from autograph_lite.autograph.pyct import templates


def _is_generated(value):
    """`ag__.x` (e.g. `ag__.index`): a builder of generated code, not a user value."""
    while isinstance(value, gast.Attribute):
        value = value.value
    return isinstance(value, gast.Name) and value.id == base.AG


def _mark_annotations(node):
    """Flags every subscript inside the annotations of a def (`a: list[int]`)."""
    args = node.args
    annotations = [a.annotation for a in args.posonlyargs + args.args + args.kwonlyargs
                   + [args.vararg, args.kwarg] if a is not None and a.annotation is not None]
    if node.returns is not None:
        annotations.append(node.returns)
    for ann in annotations:
        for n in gast.walk(ann):
            n.ag_annotation = True


class SubscriptLoadTransformer(base.Base):
    def visit_FunctionDef(self, node):
        _mark_annotations(node)
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        for n in gast.walk(node.annotation):
            n.ag_annotation = True
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        node = self.generic_visit(node)
        if (not isinstance(node.ctx, gast.Load) or getattr(node, "ag_annotation", False)
                or _is_generated(node.value)):
            return node
        return templates.replace_as_expression("ag__.getitem(a, k)", a=node.value,
                                               k=_index_expr(node.slice))
