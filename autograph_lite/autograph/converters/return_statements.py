"""Single exit: `return x` becomes `retval_ = x; do_return = True`, and what may follow a
return runs under `if not do_return:`; the function ends in `return ag__.retval(retval_)`.
The value is computed before the flag is set, as Python does: in `try: return f()
except E: pass`, a `f()` that raises leaves the function still running (no return).

A function that may fall off its end (return None there) gets
`ag__.UndefinedReturnValue(falls_off=True)` and ends in `ag__.retval(retval_, do_return)`,
which refuses to return a value on some tensor-dependent paths and None on others; in
one that always ends in a return, a staged `if` may fill the return value a branch
leaves unset (conditionals.py), since `do_return` is then False on that path.

Two steps. First, `if c: return a` followed by more statements moves them into the
`else` (and the mirror case), so a staged `if` sees the return value set in both
branches. Second, the remaining returns become assignments to the two flags; loops
containing a return get `not do_return` in their test (`ag_extra_test` for `for`), so
a staged loop carries both flags as loop state. Must run after break/continue
conversion (they leave no jumps behind) and before control_flow.
"""

import gast

from autograph_lite.autograph.converters import base
from autograph_lite.autograph.converters.break_statements import add_extra_test
from autograph_lite.autograph.pyct import templates

_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def _never_falls_off(block, returns_only=False):
    """True when no path through the block reaches its end (returns, raises, loops forever);
    with `returns_only`, when every path ends in a return.

    `while True` stands for a loop without break (break conversion ran before and leaves
    a flag in the test of a loop that breaks).
    """
    for s in block:
        if isinstance(s, gast.If):
            ends = (_never_falls_off(s.body, returns_only)
                    and _never_falls_off(s.orelse, returns_only))
        elif returns_only:
            ends = isinstance(s, gast.Return)
        else:
            ends = (isinstance(s, (gast.Return, gast.Raise))
                    or (isinstance(s, gast.While) and isinstance(s.test, gast.Constant)
                        and s.test.value is True))
        if ends:
            return True
    return False


def _sub_blocks(s):
    blocks = [getattr(s, f) for f in _BLOCK_FIELDS if getattr(s, f, None)]
    return blocks + [h.body for h in getattr(s, "handlers", [])]


def _move_tails(stmts):
    """`if c: return a` + rest -> `if c: return a else: rest` (recursively)."""
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, (gast.FunctionDef, gast.ClassDef, gast.AsyncFunctionDef)):
            out.append(s)
            continue
        rest, moved = stmts[i + 1:], False
        if isinstance(s, gast.If):
            body = _never_falls_off(s.body, returns_only=True)
            orelse = _never_falls_off(s.orelse, returns_only=True)
            if rest and body != orelse:
                if body:
                    s.orelse = s.orelse + rest
                else:
                    s.body = s.body + rest
                moved = True
            moved = moved or (body and orelse)
        for block in _sub_blocks(s):
            block[:] = _move_tails(block)
        out.append(s)
        if moved or isinstance(s, gast.Return):
            return out
    return out


class ReturnTransformer(base.Base):
    def visit_FunctionDef(self, node):
        node = self.generic_visit(node)
        returns = list(base.loop_local_stmts(node.body, gast.Return, stop=()))
        if not returns or (len(returns) == 1 and node.body[-1] is returns[0]):
            return node
        self.do_return = self.ctx.namer.new("do_return")
        self.retval = self.ctx.namer.new("retval_")
        moved = _move_tails(node.body)
        falls_off = not _never_falls_off(moved)
        body, _ = self._rewrite(moved)
        init = ("do_return = False\nretval_ = ag__.UndefinedReturnValue(falls_off=True)"
                if falls_off else "do_return = False\nretval_ = ag__.UndefinedReturnValue()")
        end = ("return ag__.retval(retval_, do_return)" if falls_off
               else "return ag__.retval(retval_)")
        node.body = (templates.replace(init, do_return=self.do_return, retval_=self.retval)
                     + body
                     + templates.replace(end, do_return=self.do_return, retval_=self.retval))
        base.fill_origin(node.body[-1:], getattr(node, "ag_origin", None))
        return node

    def _subs(self, **kw):
        return dict(do_return=self.do_return, retval_=self.retval, **kw)

    def _rewrite(self, stmts):
        """Rewrites one block; returns (statements, whether it may return)."""
        out = []
        for i, s in enumerate(stmts):
            if isinstance(s, gast.Return):
                value = s.value if s.value is not None else gast.Constant(value=None, kind=None)
                new = templates.replace("retval_ = value\ndo_return = True",
                                        **self._subs(value=value))
                base.fill_origin(new, getattr(s, "ag_origin", None))
                for a in new:  # (a `return`: an effect where a `finally` holds it)
                    a.ag_return = True
                return out + new, True
            may = False
            if not isinstance(s, (gast.FunctionDef, gast.ClassDef, gast.AsyncFunctionDef)):
                for block in _sub_blocks(s):
                    new, m = self._rewrite(block)
                    block[:] = new or [gast.Pass()]
                    may = may or m
            if may and isinstance(s, gast.While):
                s.test = templates.replace_as_expression("not do_return and test",
                                                         **self._subs(test=s.test))
            elif may and isinstance(s, gast.For):
                add_extra_test(s, templates.replace_as_expression("not do_return",
                                                                  **self._subs()))
            out.append(s)
            if may:
                rest, _ = self._rewrite(stmts[i + 1:])
                if rest:
                    guard = templates.replace("if not do_return:\n    rest",
                                              **self._subs(rest=rest))
                    base.fill_origin(guard, getattr(rest[0], "ag_origin", None))
                    out += guard
                return out, True
        return out, False
