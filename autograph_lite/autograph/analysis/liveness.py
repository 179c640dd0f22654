"""Liveness and definedness over one function body, annotated on its compound statements.

Runs after the break/continue/return converters, so bodies hold no jumps except the
function's final `return`; structured dataflow over the tree is then exact enough.
Annotations (sets of names) on each If/While/For/Try/With node (and `ag_live_out` on
each subscript assignment, for the alias check of converters/subscripts.py):
  ag_live_in:    names whose values the statement may read (live before it);
  ag_live_out:   names live after it;
  ag_defined_in: names possibly bound before it (a loop's body sees its own writes too).
Names read by closures defined in the function, and those it declares `nonlocal`, count
as live everywhere.
"""

import gast

from autograph_lite.autograph.analysis import activity

_COMPOUND = (gast.If, gast.While, gast.For, gast.Try, gast.With)


def analyze(fn_node):
    """Annotates the statements of a FunctionDef (not those of nested functions)."""
    # (a variable the function assigns through `nonlocal` is read by its owner afterwards)
    always = set(activity.declared(fn_node, gast.Nonlocal))
    called_now = _called_now(fn_node)
    for n in fn_node.body:
        for sub in gast.walk(n):
            if (isinstance(sub, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda))
                    and id(sub) not in called_now):
                always |= activity.reads(sub)  # (a lambda too: `g = lambda: k`, k rebound)
    _Liveness(always).block(fn_node.body, set())
    params = activity.arg_names(fn_node.args)
    params |= activity.declared(fn_node, gast.Nonlocal) | activity.declared(fn_node, gast.Global)
    _defined_block(fn_node.body, params)


# ag__ calls that call the lambdas the converters gave them within the statement (an
# assert's message, a generator's condition and item, a `try`'s exception types): what
# those read is read there, not by a closure that outlives it
_CALLS_NOW = frozenset(("assert_stmt", "reduce_generator", "try_body"))


def _called_now(fn_node):
    """ids of the lambdas that are arguments of _CALLS_NOW calls in ``fn_node``."""
    out = set()
    for n in gast.walk(fn_node):
        if (isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute)
                and isinstance(n.func.value, gast.Name) and n.func.value.id == "ag__"
                and n.func.attr in _CALLS_NOW):
            out.update(id(a) for a in n.args + [k.value for k in n.keywords]
                       if isinstance(a, gast.Lambda))
    return out


class _Liveness:
    def __init__(self, always):
        self.always = always

    def block(self, stmts, out):
        for s in reversed(stmts):
            out = self.stmt(s, out)
        return out

    def stmt(self, s, out):
        out = out | self.always
        if isinstance(s, _COMPOUND) or _is_subscript_store(s):
            s.ag_live_out = out
        if isinstance(s, gast.If):
            live = (activity.reads(s.test) | self.block(s.body, out)
                    | self.block(s.orelse, out))
        elif isinstance(s, gast.While):
            top = out | activity.reads(s.test) | self.block(s.orelse, out)
            top = self._fixpoint(s.body, top, lambda body_in: body_in)
            live = top
        elif isinstance(s, gast.For):
            target = activity.of(s.target)
            top = out | self.block(s.orelse, out)
            top |= activity.reads(getattr(s, "ag_extra_test", []))
            top = self._fixpoint(s.body, top,
                                 lambda body_in: (body_in - target.writes) | target.reads)
            live = top | activity.reads(s.iter)
        elif isinstance(s, gast.Try):
            fin = self.block(s.finalbody, out)
            handlers = set()
            for h in s.handlers:
                handlers |= self.block(h.body, fin) | activity.reads(h.type or [])
            live = self.block(s.body, self.block(s.orelse, fin) | handlers) | handlers
        elif isinstance(s, gast.With):
            items = activity.of(s.items)
            live = (self.block(s.body, out) - items.writes) | items.reads
        elif isinstance(s, (gast.Return, gast.Raise)):
            live = activity.reads(s)
        else:
            act = activity.of(s)
            live = (out - act.writes) | act.reads
        if isinstance(s, _COMPOUND):
            s.ag_live_in = live
        return live

    def _fixpoint(self, body, top, entry):
        while True:
            new = entry(self.block(body, top))
            if new <= top:
                return top
            top = top | new


def _is_subscript_store(s):
    targets = s.targets if isinstance(s, gast.Assign) else \
        [s.target] if isinstance(s, gast.AugAssign) else []
    return any(isinstance(t, gast.Subscript) for t in targets)


def _defined_block(stmts, defined):
    for s in stmts:
        defined = _defined_stmt(s, defined)
    return defined


def _defined_stmt(s, defined):
    if isinstance(s, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        return defined | {s.name}
    if not isinstance(s, _COMPOUND):
        return defined | activity.writes(s)
    s.ag_defined_in = defined
    if isinstance(s, gast.If):
        return _defined_block(s.body, defined) | _defined_block(s.orelse, defined)
    inner = defined | activity.writes(s)
    if isinstance(s, gast.Try):
        # the body runs in order from the top; a handler may start after any of its
        # statements, `else` after all of them, `finally` after any path
        after_body = _defined_block(s.body, defined)
        for h in s.handlers:  # (its `as` name; not all the handler writes: session 54)
            named = {h.name.id} if isinstance(h.name, gast.Name) else set()
            _defined_block(h.body, defined | activity.writes(s.body) | named)
        _defined_block(s.orelse, after_body)
        # (`finally` after any path: what the rest may bind, not its own writes, session 54)
        _defined_block(s.finalbody, defined | activity.writes(s.body + s.orelse)
                       | set().union(*(activity.writes(h) for h in s.handlers)))
        return inner
    if isinstance(s, gast.With):  # its body runs once, in order: a block, not a loop
        return _defined_block(s.body, defined | activity.writes(s.items))
    _defined_block(s.body, inner)
    _defined_block(getattr(s, "orelse", []), inner)
    return inner
