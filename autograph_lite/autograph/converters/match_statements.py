"""`match` on values becomes the `if`/`elif` chain it means, so a subject that is a tensor
is matched by staged branches (Python's `match` would ask the tensor's truth while
tracing: a TypeError).

    match k:                        subject_ = k
        case 0: A                   if subject_ == 0: A
        case 1 | 2 as j: B    ->    elif subject_ == 1 or subject_ == 2: j = subject_; B
        case n if n > 5: C          else: n = subject_
        case _: D                         if n > 5: C
                                          else: D

The subject is evaluated once. Patterns: literals (`==`, as Python compares them), `None`/
`True`/`False` (`is`, as Python's; logical_expressions makes it `ag__.is_`: a Python bool
of a tensor is True or False), `|` of those, `as` names and captures (bound when the
pattern matched, before the guard, as CPython binds them), guards, `_`, and classes
without keyword patterns (`case float():`, `case np.ndarray():`, `case int(n):` of the
builtin classes that match themselves): `ag__.isinstance_`, which answers for a tensor
what its value is in plain NumPy. A `match` with any other pattern (sequences, mappings,
keyword class patterns) is left to Python, which runs it while tracing (a tensor is no
sequence or mapping, as an ndarray is not, so those answer as for its value); one with a
class pattern it runs on a subject that holds no tensor (``ag__.matched_by_python``:
Python's class tests on a tensor fail silently). Must precede break_statements and
return_statements (the branches' jumps are then converted as any `if`'s).
"""

import copy

import gast

from autograph_lite.autograph.converters import base


def _name(subject):
    """The subject's reader: a new expression for it on each call (a node is not shared)."""
    return lambda: gast.Name(subject, gast.Load(), None, None)


def _item(at, k):
    return lambda: gast.Subscript(value=at(), slice=gast.Constant(value=k, kind=None),
                                  ctx=gast.Load())


def _ag(attr):
    return gast.Attribute(value=gast.Name(base.AG, gast.Load(), None, None), attr=attr,
                          ctx=gast.Load())


def _test(pattern, at):
    """The expression testing ``pattern`` on the subject ``at()`` reads, None when the
    pattern always matches, or False when it is not one of the handled kinds."""
    if isinstance(pattern, gast.MatchValue):
        return gast.Compare(left=at(), ops=[gast.Eq()], comparators=[pattern.value])
    if isinstance(pattern, gast.MatchSingleton):
        return gast.Compare(left=at(), ops=[gast.Is()],
                            comparators=[gast.Constant(value=pattern.value, kind=None)])
    if isinstance(pattern, gast.MatchOr):
        parts = [_test(p, at) for p in pattern.patterns]
        if any(p is False or p is None for p in parts) or any(
                _binding(p, at) for p in pattern.patterns):
            return False  # (an alternative that always matches, or binds: left to Python)
        return gast.BoolOp(op=gast.Or(), values=parts)
    if isinstance(pattern, gast.MatchAs):
        return None if pattern.pattern is None else _test(pattern.pattern, at)
    if isinstance(pattern, gast.MatchClass) and _class_kind(pattern):
        return gast.Call(func=_ag("isinstance_"), args=[at(), pattern.cls], keywords=[])
    if isinstance(pattern, gast.MatchSequence) and not any(
            isinstance(p, gast.MatchStar) for p in pattern.patterns):
        # (`case (0, n):` of a tuple holding tensors: Python's sequence test, its length,
        # then each item's, lazily: `and` keeps an item unread where an earlier one failed)
        items = [_test(p, _item(at, k)) for k, p in enumerate(pattern.patterns)]
        if any(t is False for t in items):
            return False
        shape = gast.Call(func=_ag("sequence_of_length"),
                          args=[at(), gast.Constant(value=len(items), kind=None)], keywords=[])
        tests = [shape] + [t for t in items if t is not None]
        return tests[0] if len(tests) == 1 else gast.BoolOp(op=gast.And(), values=tests)
    return False


# the builtin classes whose one positional pattern matches the subject itself (`int(n)`)
_SELF_MATCHING = {"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list",
                  "set", "str", "tuple"}


def _class_kind(pattern):
    """Whether a class pattern is one converted: no keyword patterns, and no positional one
    but a capture of the subject by a builtin class that matches itself."""
    if pattern.kwd_patterns:
        return False
    if not pattern.patterns:
        return True
    only = pattern.patterns[0]
    return (len(pattern.patterns) == 1 and isinstance(pattern.cls, gast.Name)
            and pattern.cls.id in _SELF_MATCHING and isinstance(only, gast.MatchAs)
            and only.pattern is None)


def _binding(pattern, at):
    """The statements binding the pattern's names (`as`, captures, a sequence's items)."""
    if isinstance(pattern, gast.MatchAs):
        inner = _binding(pattern.pattern, at) if pattern.pattern is not None else []
        if pattern.name is None:
            return inner
        return inner + [gast.Assign(targets=[gast.Name(pattern.name, gast.Store(), None, None)],
                                    value=at())]
    if isinstance(pattern, gast.MatchClass) and pattern.patterns:  # (`int(n)`: n, itself)
        return _binding(pattern.patterns[0], at)
    if isinstance(pattern, gast.MatchSequence):
        return [s for k, p in enumerate(pattern.patterns) for s in _binding(p, _item(at, k))]
    return []


class MatchTransformer(base.Base):
    def visit_Match(self, node):
        node = self.generic_visit(node)
        subject = self.ctx.namer.new("subject_")
        at = _name(subject)
        tests = [_test(case.pattern, at) for case in node.cases]
        if any(t is False for t in tests) and not any(
                isinstance(p, gast.MatchClass) for case in node.cases
                for p in gast.walk(case.pattern)):
            return node  # (sequences, mappings, captures: Python's answer is a tensor's too)
        if any(t is False for t in tests):  # (a class test Python would give the tensor
            node.subject = gast.Call(       # object: refused where the subject holds one)
                func=_ag("matched_by_python"), args=[node.subject], keywords=[])
            return node
        chain = []  # (the statements after the cases that come later: the `else`)
        for case, test in zip(reversed(node.cases), reversed(tests)):
            body = list(case.body)
            if case.guard is not None:
                if test is None:  # (a capture with a guard: bound, then the guard asked)
                    chain = _binding(case.pattern, at) + [
                        gast.If(test=case.guard, body=body, orelse=chain)]
                    continue
                # (the later cases follow a failed guard too: a copy of them there)
                body = [gast.If(test=case.guard, body=body, orelse=copy.deepcopy(chain))]
            body = _binding(case.pattern, at) + body
            chain = body if test is None else [gast.If(test=test, body=body, orelse=chain)]
        assign = gast.Assign(targets=[gast.Name(subject, gast.Store(), None, None)],
                             value=node.subject)
        return base.placed([assign] + chain, node)
