"""`continue` becomes a flag, and what follows it in the loop body is guarded by it.

`continue_ = False` starts each iteration; `continue` sets it, drops the unreachable
rest of its block, and every later statement up to the end of the body runs under
`if not continue_:`. The flag is local to one iteration, so it is never loop state.
Where a branch of an `if` ends in `continue`, the statements after the `if` become its
other branch instead (`if c: a; continue` / `b` is `if c: a` / `else: b`): the staged
`if` then merges what each path gives after the body's end (a dict gets the same key on
both paths), not a state one statement short.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import templates

_BLOCKS = (gast.If, gast.With, gast.Try)


def _has_continue(node):
    return any(True for _ in base.loop_local_stmts([node], gast.Continue))


def _ends_in_continue(stmts):
    """Whether the block's last statement is a `continue`: every path through it
    continues."""
    return bool(stmts) and isinstance(stmts[-1], gast.Continue)


class ContinueTransformer(base.Base):
    def _guard(self, stmts, flag):
        """Rewrites one block; returns (statements, whether it may set the flag)."""
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, gast.Continue):
                new = templates.replace("flag = True", flag=flag)
                base.fill_origin(new, getattr(s, "ag_origin", None))
                return out + new, True
            if isinstance(s, gast.If) and (_ends_in_continue(s.body)
                                           or _ends_in_continue(s.orelse)):
                # (`if c: ...; continue` then the rest: the rest is the other branch, so
                # the `if` merges what every path gives, `out[c] = v` on both: session 54,
                # the branches were merged before the rest, one key short, refused)
                ends, other = ("body", "orelse") if _ends_in_continue(s.body) else (
                    "orelse", "body")
                setattr(s, ends, self._guard(getattr(s, ends), flag)[0])
                setattr(s, other, self._guard(getattr(s, other) + stmts[i + 1:], flag)[0]
                        or [gast.Pass()])
                return out + [s], True
            if isinstance(s, _BLOCKS) and _has_continue(s):
                for field in ("body", "orelse", "finalbody"):
                    if getattr(s, field, None):
                        setattr(s, field, self._guard(getattr(s, field), flag)[0] or
                                [gast.Pass()])
                for h in getattr(s, "handlers", []):
                    h.body = self._guard(h.body, flag)[0] or [gast.Pass()]
                out.append(s)
                rest = self._guard(stmts[i + 1:], flag)[0]
                if rest:
                    guard = templates.replace("if not flag:\n    rest", flag=flag, rest=rest)
                    base.fill_origin(guard, getattr(rest[0], "ag_origin", None))
                    out += guard
                return out, True
            out.append(s)
        return out, False

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        if not any(_has_continue(s) for s in node.body):
            return node
        flag = self.ctx.namer.new("continue_")
        body, _ = self._guard(node.body, flag)
        node.body = templates.replace("flag = False", flag=flag) + body
        return node

    visit_For = visit_While = _visit_loop
