"""The base of every converter, and the context they share.

Flow: `pipeline.convert_tree` parses the user function into gast, then calls each
converter's `transform(node, ctx)` in the order of `pipeline.CONVERTERS`. A converter
is a gast.NodeTransformer with `visit_X` methods that return replacement nodes built
from `pyct.templates`. `Base.visit` copies the origin (user file:line) of each visited
node onto every new node it returns, so generated code always maps back to the line
the user wrote. Converters pass facts to later ones as `ag_*` attributes on nodes
(e.g. a loop's `ag_extra_test`), never through global state.
"""

import gast

from autograph_lite.autograph.pyct import naming

AG = "ag__"  # the name under which generated code sees `autograph.operators`


class Context:
    """What converters share for one conversion: the namer, the source file, options."""

    def __init__(self, namer: naming.Namer, filename: str, options=None):
        self.namer = namer
        self.filename = filename
        self.options = options or {}


def fill_origin(nodes, origin):
    """Sets `ag_origin` on new nodes (those without one), not descending into old ones."""
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        n = stack.pop()
        if not isinstance(n, gast.AST) or getattr(n, "ag_origin", None) is not None:
            continue
        n.ag_origin = origin
        for _, child in gast.iter_fields(n):
            if isinstance(child, list):
                stack.extend(child)
            else:
                stack.append(child)


def location(node):
    origin = getattr(node, "ag_origin", None)
    return f"{origin[0]}:{origin[1]}" if origin else "<unknown>"


class Base(gast.NodeTransformer):
    """A converter: override `visit_X`; call `transform(node, ctx)` to run it."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    @classmethod
    def transform(cls, node, ctx):
        return cls(ctx).visit(node)

    def visit(self, node):
        origin = getattr(node, "ag_origin", None)
        result = super().visit(node)
        if origin is not None and result is not None:
            fill_origin(result, origin)
        return result

    def visit_block(self, stmts):
        """Visits a list of statements, splicing in lists that visitors return."""
        out = []
        for s in stmts:
            r = self.visit(s)
            if isinstance(r, list):
                out.extend(r)
            elif r is not None:
                out.append(r)
        return out

    def unsupported(self, node, what):
        raise NotImplementedError(f"{what} is not supported by autograph_lite "
                                  f"(at {location(node)})")


class BlockDepth:
    """Mixin for a `Base` converter that rewrites statements only inside an `if`, `while` or
    `for` (those that may be staged): `self.block_depth` counts the ones around the visited
    node, within its own function (a nested function or lambda starts again at 0)."""

    block_depth = 0

    def _visit_block_stmt(self, node):
        self.block_depth += 1
        node = self.generic_visit(node)
        self.block_depth -= 1
        return node

    visit_If = visit_While = visit_For = _visit_block_stmt

    def visit_FunctionDef(self, node):
        depth, self.block_depth = self.block_depth, 0
        node = self.generic_visit(node)
        self.block_depth = depth
        return node

    visit_Lambda = visit_FunctionDef


def placed(stmts, node):
    """``stmts`` (new statements standing for ``node``), each new node in them given
    ``node``'s place in the source; the user's own nodes keep theirs. Returns ``stmts``."""
    for stmt in stmts:
        for n in gast.walk(stmt):
            if "lineno" in n._attributes and not hasattr(n, "lineno"):
                gast.copy_location(n, node)
    return stmts


def is_ag_call(call):
    """True for calls of generated helpers: `ag__.something(...)`."""
    f = call.func
    return (isinstance(f, gast.Attribute) and isinstance(f.value, gast.Name)
            and f.value.id == AG)


def loop_local_stmts(stmts, kinds, stop=(gast.For, gast.While, gast.AsyncFor)):
    """Yields nodes of `kinds` under stmts, not entering nested loops or scopes."""
    stop = stop + (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
    stack = list(reversed(stmts))
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            yield n
        if isinstance(n, stop):
            continue
        for _, child in gast.iter_fields(n):
            if isinstance(child, list):
                stack.extend(c for c in reversed(child) if isinstance(c, gast.AST))
            elif isinstance(child, gast.AST):
                stack.append(child)
