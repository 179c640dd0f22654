"""`a[0] = b[-1] = v` and `x[i], x[j] = x[j], x[i]` become one assignment per target, so
the subscript rewrite (subscripts.py: `x = ag__.setitem(x, i, v)`) sees each write.

Python evaluates the value once, then assigns the targets from left to right, and an
index is evaluated when its target is assigned (`i, x[i] = 1, 5` writes `x[1]`, and
`x[i], i = 5, 1` writes `x[old i]`). The rewrite keeps that order: the value goes to a new
name; each target of a chain gets that name; an unpacking unpacks it into one new name
per element first (Python checks the count there), then assigns the elements' targets in
order (a nested tuple target recursively). Only assignments with a subscript among their
targets change; a starred target (`a, *x[1:] = ...`) is left as it is.
"""

import gast

from autograph_lite.autograph.converters import base


def _has_subscript(target):
    if isinstance(target, gast.Subscript):
        return True
    if isinstance(target, (gast.Tuple, gast.List)):
        return any(_has_subscript(e) for e in target.elts)
    return False


def _has_starred(target):
    return isinstance(target, (gast.Tuple, gast.List)) and any(
        isinstance(e, gast.Starred) or _has_starred(e) for e in target.elts)


def _name(name, ctx):
    return gast.Name(id=name, ctx=ctx, annotation=None, type_comment=None)


class AssignmentSplitter(base.Base):
    def visit_Assign(self, node):
        targets = node.targets
        if not any(_has_subscript(t) for t in targets) or any(_has_starred(t) for t in targets):
            return node
        if len(targets) == 1 and isinstance(targets[0], gast.Subscript):
            return node
        value = self.ctx.namer.new("assigned")
        out = [gast.Assign(targets=[_name(value, gast.Store())], value=node.value,
                           type_comment=None)]
        for t in targets:
            out += self._assign(t, value)
        for stmt in out:  # (the user's line, for the origin map and messages)
            for n in gast.walk(stmt):
                if not hasattr(n, "lineno") and "lineno" in n._attributes:
                    gast.copy_location(n, node)
        return out

    def _assign(self, target, value):
        """``target = value`` (a name holding the value) as single-target statements."""
        if not (isinstance(target, (gast.Tuple, gast.List)) and _has_subscript(target)):
            return [gast.Assign(targets=[target], value=_name(value, gast.Load()),
                                type_comment=None)]
        parts = [self.ctx.namer.new("assigned") for _ in target.elts]
        out = [gast.Assign(targets=[gast.Tuple(elts=[_name(p, gast.Store()) for p in parts],
                                               ctx=gast.Store())],
                           value=_name(value, gast.Load()), type_comment=None)]
        for element, part in zip(target.elts, parts):
            out += self._assign(element, part)
        return out
