"""`l.append(x)` becomes `l = ag__.list_append(l, x)` (and `l.extend(xs)` list_extend;
`v = l.pop()` is `l, v = ag__.list_pop(l)`).

Rebinding the name makes the list an ordinary loop (or branch) variable: a Python list
stays a list appended in place (same object), and in a staged loop the runtime turns it
into a tensor list the core can carry as loop state. In a staged `if` the list is then
part of the branches' state, so each branch appends to its own copy and the two are
compared (conditionals.py) instead of the false branch seeing the true branch's append.

After the loop, too: a list a staged loop appended to is a tensor of its rows then
(list_values.ListTensor), which a later append extends by a row.
Only a name the function may rebind is rewritten: one of its own locals, or one it
declares `global`/`nonlocal`. A list from an enclosing function or the module is
appended to in place, as written (rebinding it would make it a local, unbound).
"""

import gast

from autograph_lite.autograph.analysis import activity
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


def _append_target(stmt):
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return None
    call = stmt.value
    f = call.func
    if (isinstance(f, gast.Attribute) and f.attr in ("append", "extend")
            and isinstance(f.value, gast.Name)
            and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], gast.Starred)):
        return f.value.id, f.attr
    return None


def _pop_target(value):
    """The list name of `name.pop()` / `name.pop(i)`, else None."""
    if not (isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute)):
        return None
    f = value.func
    if (f.attr == "pop" and isinstance(f.value, gast.Name) and len(value.args) <= 1
            and not value.keywords and not any(isinstance(a, gast.Starred)
                                               for a in value.args)):
        return f.value.id
    return None


# builtins a statement may call beside the pop it is moved before (they change nothing)
_PURE_CALLS = frozenset(("abs", "bool", "float", "int", "max", "min", "round"))
# where an expression may not run, or runs later: a pop inside is not moved out
_LAZY = (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp,
         gast.IfExp, gast.BoolOp, gast.NamedExpr)


def _inner_pop(stmt, rebindable):
    """The one `l.pop(...)` call of a rebindable `l` inside ``stmt`` that may run first
    (`out[st.pop()] = x[i]`, `best = max(best, st.pop())`): no other call there but pure
    builtins, no other read of `l`, nothing lazily evaluated; else None."""
    pops = [n for n in gast.walk(stmt) if _pop_target(n) in rebindable]
    if len(pops) != 1:
        return None
    call = pops[0]
    for n in gast.walk(stmt):
        if isinstance(n, _LAZY) or (
                isinstance(n, gast.Call) and n is not call
                and not (isinstance(n.func, gast.Name) and n.func.id in _PURE_CALLS)) or (
                isinstance(n, gast.Name) and n.id == call.func.value.id
                and n is not call.func.value):
            return None
    return call


class _Replace(gast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit(self, node):
        return self.new if node is self.old else super().visit(node)


class ListTransformer(base.BlockDepth, base.Base):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.rebindable = set()

    def visit_FunctionDef(self, node):
        outer, self.rebindable = self.rebindable, activity.local_names(node)
        node = super().visit_FunctionDef(node)
        self.rebindable = outer
        return node

    visit_Lambda = visit_FunctionDef

    def visit_Assign(self, node):
        """`v = l.pop()` becomes `l, v = ag__.list_pop(l, 'l')`: the list rebound, as an
        append rebinds it (a staged loop carries a stack it pops and pushes)."""
        name = _pop_target(node.value) if len(node.targets) == 1 else None
        if name is None or name not in self.rebindable:
            return self._pop_inside(node)
        new = templates.replace(f"l, v = ag__.list_pop(l, {name!r})", l=name,
                                v=self.visit(node.targets[0]))
        new[0].value.args.extend(self.visit(a) for a in node.value.args)
        return new

    def visit_AugAssign(self, node):
        """`t += l.pop()`, `x[l.pop()] += 1`: the item popped into a name of its own first
        (`_pop_inside`)."""
        return self._pop_inside(node)

    def visit_Return(self, node):
        return self._pop_inside(node)

    def _pop_inside(self, node):
        """``node`` with its one inner pop (``_inner_pop``) run first into a name of its
        own: `out[st.pop()] = x[i]` is `st, p = ag__.list_pop(st, 'st')` then `out[p] =
        x[i]` (Python pops before it stores; nothing else there sees the list)."""
        call = _inner_pop(node, self.rebindable)
        if call is None:
            return self.generic_visit(node)
        name, item = call.func.value.id, self.ctx.namer.new("popped")
        new = templates.replace(f"l, v = ag__.list_pop(l, {name!r})", l=name, v=item)
        new[0].value.args.extend(self.visit(a) for a in call.args)
        node = _Replace(call, gast.Name(id=item, ctx=gast.Load(), annotation=None,
                                        type_comment=None)).visit(node)
        return new + [self.generic_visit(node)]

    def visit_Expr(self, node):
        name = _pop_target(node.value)
        if name is not None and name in self.rebindable:
            new = templates.replace(f"l = ag__.list_pop(l, {name!r})[0]", l=name)
            new[0].value.value.args.extend(self.visit(a) for a in node.value.args)
            return new
        target = _append_target(node)
        if target is None or target[0] not in self.rebindable:
            return self._pop_inside(node)
        name, method = target
        return templates.replace(f"l = ag__.list_{method}(l, x, {name!r})", l=name,
                                 x=node.value.args[0])
