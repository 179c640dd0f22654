"""`try` statements: a guard before those in staged code, a check in every `except`.

A `try` inside an `if`/`while`/`for` is preceded by `ag__.try_stmt_guard()`: Python
exceptions exist only while tracing, so a `try` in a staged branch or loop would
silently mean something else; SPEC asks for NotImplementedError naming its line. The
guard raises exactly when it runs inside a staged region; on Python values it does
nothing. Must run before control_flow, so the guard moves into the body functions.

Every `except` block starts with `ag__.caught(e)` (the handler gets a name if it has
none; a bare `except:` becomes `except BaseException as e:`, the same thing): an
exception raised while tracing a staged branch or loop (`raise` in one branch of a
tensor `if`, in a helper too) would be caught for every input, which Python does only
on that branch; `caught` refuses it (runtime/staging.py). `return` inside `try` is
return_statements.py's.

The body of a `try` with `except` blocks runs inside `with ag__.try_body(lambda: (E1,
...)):`, which refuses a body that staged ops those blocks would have to catch when the
compiled function runs (runtime/staging.py): Python's `try` exists only while tracing.
So does the body of a `try` whose `finally` has effects (a write, a call, a `return`):
the block runs while tracing, and a run whose staged code raises would skip them.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates


_READS = ("getitem", "ld")  # (the converted forms that only read: `x[i]`, a name)


def _has_effects(stmts):
    """Whether a `finally` block does what a run that raised would have to see: anything
    but `pass` and assignments to local names of values that call nothing (a write, which
    the subscripts converter made `out = ag__.setitem(...)`, a call, a `return`, which
    would swallow the exception: return_statements.py made it assignments it marks)."""
    def reads_only(value):
        return all(isinstance(c.func, gast.Attribute) and isinstance(c.func.value, gast.Name)
                   and c.func.value.id == "ag__" and c.func.attr in _READS
                   for c in gast.walk(value) if isinstance(c, gast.Call))
    return any(not (isinstance(s, gast.Pass) or (
        isinstance(s, gast.Assign) and all(isinstance(t, gast.Name) for t in s.targets)
        and reads_only(s.value) and not getattr(s, "ag_return", False))) for s in stmts)


def _return_flag(stmts):
    """The name of the return flag (return_statements.py's `do_return`) a `return` in
    ``stmts`` sets, or None when they hold no `return`."""
    for s in stmts:
        for n in gast.walk(s):
            if (isinstance(n, gast.Assign) and getattr(n, "ag_return", False)
                    and isinstance(n.value, gast.Constant) and n.value.value is True):
                return n.targets[0].id
    return None


class TryTransformer(base.BlockDepth, base.Base):
    def visit_Try(self, node):
        node = self.generic_visit(node)
        if node.handlers:
            types = gast.Tuple(elts=[h.type for h in node.handlers], ctx=gast.Load())
            guarded = templates.replace("with ag__.try_body(lambda: types):\n    pass",
                                        types=types)[0]
            guarded.body = node.body
            guarded.ag_origin = getattr(node, "ag_origin", None)  # (the `try`'s line)
            node.body = [guarded]
        if node.finalbody and _has_effects(node.finalbody):
            # (the `finally` runs while tracing, after the body's trace: on a run where the
            # body's staged code raises, its effects would not happen; refused there)
            guarded = templates.replace(
                "with ag__.try_body(lambda: (BaseException,), 'finally'):\n    pass")[0]
            guarded.body = node.body
            guarded.ag_origin = getattr(node, "ag_origin", None)
            node.body = [guarded]
        flag = _return_flag(node.finalbody)
        if flag is not None:
            # a `return` in the `finally` discards the exception the body raised; it is
            # an assignment of the return flag now, so the `try` discards it explicitly
            outer = templates.replace(
                "try:\n    pass\nexcept BaseException as exc:\n"
                "    ag__.discarded_by_finally(exc, do_return)", do_return=flag,
                exc=self.ctx.namer.new("exc"))[0]
            outer.body = [node]
            node = outer
        if not self.block_depth:
            return node
        return templates.replace("ag__.try_stmt_guard()") + [node]

    def visit_ExceptHandler(self, node):
        node = self.generic_visit(node)
        if node.type is None:
            node.type = gast.Name(id="BaseException", ctx=gast.Load(), annotation=None,
                                  type_comment=None)
        if node.name is None:
            node.name = gast.Name(id=self.ctx.namer.new("exc"), ctx=gast.Store(),
                                  annotation=None, type_comment=None)
        node.body = templates.replace("ag__.caught(e)", e=node.name.id) + node.body
        return node

    visit_TryStar = visit_Try
