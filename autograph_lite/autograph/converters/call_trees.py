"""Every call `f(a, *b, k=c, **d)` becomes `ag__.converted_call(f, (a, *b), {'k': c, **d})`.

The runtime then decides per call: convert a user function, dispatch a builtin to its
staged form (`len`, `range`, `print`, ...), or call library code as it is. Calls of
generated helpers (`ag__.*`) and of builtins that inspect the caller's frame
(`super`, `locals`, ...) stay as they are; `super()` gets its explicit arguments.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates

_FRAME_BUILTINS = {"super", "locals", "globals", "vars", "eval", "exec", "dir"}


class CallTreeTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.first_args = []

    def visit_FunctionDef(self, node):
        args = node.args.posonlyargs + node.args.args
        self.first_args.append(args[0].id if args else None)
        node = self.generic_visit(node)
        self.first_args.pop()
        return node

    def visit_Call(self, node):
        node = self.generic_visit(node)
        if base.is_ag_call(node):
            return node
        if (isinstance(node.func, gast.Name) and node.func.id == "super" and not node.args
                and self.first_args and self.first_args[-1]):
            # Zero-argument super() finds its class through the `__class__` cell that only
            # a class body creates; the converted method gets that cell from the original.
            return templates.replace_as_expression("super(__class__, self_)",
                                                   self_=self.first_args[-1])
        if isinstance(node.func, gast.Name) and node.func.id in _FRAME_BUILTINS:
            return node
        args = gast.Tuple(elts=node.args, ctx=gast.Load())
        if node.keywords:
            kwargs = gast.Dict(
                keys=[None if k.arg is None else gast.Constant(value=k.arg, kind=None)
                      for k in node.keywords],
                values=[k.value for k in node.keywords])
        else:
            kwargs = None
        return templates.replace_as_expression("ag__.converted_call(f, args, kwargs)",
                                               f=node.func, args=args, kwargs=kwargs)
