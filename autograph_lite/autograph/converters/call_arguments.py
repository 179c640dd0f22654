"""After a statement that calls a user function with local variables as arguments, each
of those variables is rebound: `fill(buf, n)` is followed by `buf = ag__.resolve(buf)`.

Why: a helper may write into an array it is passed, inside one of its own staged loops
or branches. A NumPy array the function made while tracing (`buf = np.zeros(5)`) then
becomes a tensor (a box, mutation.py) inside the helper, and `resolve` hands the caller
that box, so its later reads see the helper's writes, as in NumPy (SPEC 3). On anything
else `resolve` returns the value itself. Rebinding also makes the name branch/loop state
(control_flow), so a helper's write inside a staged `if` is carried out of it.

Only calls of a bare name that is not a Python builtin (`print`, `len`, ...) are
followed (a user function; methods and `np.*` do not hand arrays to converted code),
only expression and assignment statements, and only the function's own locals (not
names it declares `global`/`nonlocal`).
"""

import builtins

import gast

from autograph_lite.autograph.analysis import activity
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


def _passed_names(value, local):
    names = []
    for call in gast.walk(value):
        if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Name)):
            continue
        if call.func.id not in local and hasattr(builtins, call.func.id):
            continue
        for a in call.args + [k.value for k in call.keywords]:
            if (isinstance(a, gast.Name) and a.id in local and a.id not in names
                    and a.id != call.func.id):
                names.append(a.id)
    return names


class CallArgumentTransformer(base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.locals = [set()]

    def visit_FunctionDef(self, node):
        body = node.body if isinstance(node.body, list) else [node.body]
        self.locals.append((activity.arg_names(node.args) | activity.writes(body))
                           - activity.declared(node, gast.Global)
                           - activity.declared(node, gast.Nonlocal))
        node = self.generic_visit(node)
        self.locals.pop()
        return node

    def _follow(self, node):
        node = self.generic_visit(node)
        names = _passed_names(node.value, self.locals[-1])
        if not names:
            return node
        return [node] + [templates.replace("x = ag__.resolve(x)", x=n)[0] for n in names]

    visit_Expr = _follow
    visit_Assign = _follow
