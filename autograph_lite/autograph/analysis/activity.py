"""Which names a statement or block reads and writes, within one function scope.

Writes stop at nested scopes (functions, lambdas, comprehensions, classes): what those
assign is theirs. Reads go into nested functions, since a closure reads its free names
whenever it is called; names a nested scope binds itself are not reads.
"""

import gast

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


class Activity:
    __slots__ = ("reads", "writes")

    def __init__(self):
        self.reads = set()
        self.writes = set()


def arg_names(args):
    all_args = args.posonlyargs + args.args + args.kwonlyargs
    names = {a.id for a in all_args}
    names |= {a.id for a in (args.vararg, args.kwarg) if a is not None}
    return names


class _Collector(gast.NodeVisitor):
    def __init__(self):
        self.act = Activity()

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load):
            self.act.reads.add(node.id)
        elif isinstance(node.ctx, (gast.Store, gast.Del)):
            self.act.writes.add(node.id)

    def visit_AugAssign(self, node):
        if isinstance(node.target, gast.Name):
            self.act.reads.add(node.target.id)
        self.generic_visit(node)

    def _nested(self, node, bound, parts):
        inner = _Collector()
        for part in parts:
            inner.visit(part)
        self.act.reads |= inner.act.reads - inner.act.writes - bound

    def visit_FunctionDef(self, node):
        self.act.writes.add(node.name)
        for d in node.decorator_list + node.args.defaults + node.args.kw_defaults:
            if d is not None:
                self.visit(d)
        self._nested(node, arg_names(node.args), node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.act.writes.add(node.name)
        for d in node.decorator_list + node.bases:
            self.visit(d)
        self._nested(node, set(), node.body)

    def visit_Lambda(self, node):
        for d in node.args.defaults + node.args.kw_defaults:
            if d is not None:
                self.visit(d)
        self._nested(node, arg_names(node.args), [node.body])

    def _visit_comp(self, node):
        inner = _Collector()
        for gen in node.generators:
            inner.visit(gen)
        for part in ("elt", "key", "value"):
            if hasattr(node, part):
                inner.visit(getattr(node, part))
        self.act.reads |= inner.act.reads - inner.act.writes

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_comp

    def visit_Import(self, node):
        for alias in node.names:
            self.act.writes.add((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        # `except E as e` unbinds `e` when the handler ends: never state, so not a write.
        if node.type is not None:
            self.visit(node.type)
        for s in node.body:
            self.visit(s)

    def visit_Global(self, node):
        pass

    visit_Nonlocal = visit_Global


def of(nodes):
    """The Activity of a node or a list of nodes."""
    collector = _Collector()
    for n in nodes if isinstance(nodes, list) else [nodes]:
        collector.visit(n)
    return collector.act


def reads(nodes):
    return of(nodes).reads


def writes(nodes):
    return of(nodes).writes


def declared(fn_node, kind):
    """Names a function declares `global` (kind=gast.Global) or `nonlocal` in its body."""
    out = set()
    for n in gast.walk(fn_node):
        if isinstance(n, kind):
            out |= set(n.names)
    return out


def local_names(fn_node):
    """Names a function or lambda may rebind in its own scope: its parameters, what its
    body writes, and what it declares `global` or `nonlocal`."""
    body = fn_node.body if isinstance(fn_node.body, list) else [fn_node.body]
    return (arg_names(fn_node.args) | writes(body) | declared(fn_node, gast.Global)
            | declared(fn_node, gast.Nonlocal))
