"""`sum(e for v in xs if c)` (and `any`, `all`, `max`, `min`) becomes
`ag__.reduce_generator(sum, xs, lambda v: c, lambda v: e)`, and a list comprehension with
an `if`, `[e for v in xs if c]`, `ag__.filtered_list(xs, lambda v: c, lambda v: e)`.

Why: Python runs a generator expression by itself, so its `if` on a tensor cannot be
staged (a TypeError) and its loop over a tensor unrolls, one op per element and a trace
per length. As a call to the runtime, the reduction is a `for` loop with an `if` in it
(runtime/generators.py), staged like the user's own. Only one `for` clause whose target is
a name or a flat tuple of names (`for a, b in zip(u, w)`: the lambdas take the tuple's
items); anything else stays a generator. Whether `sum` is the builtin is decided when it
runs: a function of the user's named `sum` gets the generator. The filtered list is the
loop `out = []; for v in xs: if c: out.append(e)` (its length depends on the tensor `if`,
which a comprehension Python runs by itself cannot stage: a TypeError before session 57);
one without an `if` stays Python's comprehension. Before call_trees (which
then converts the calls inside the lambdas) and logical_expressions (the `if`s' `and`).
"""

import gast

from autograph_lite.autograph.converters import assignment_expressions, base
from autograph_lite.autograph.pyct import templates

EXTREMES = ("max", "min")  # (with `default=`; with `key=` they stay generators)
REDUCTIONS = ("sum", "any", "all") + EXTREMES


def _params(target):
    if isinstance(target, gast.Name):
        return [target.id], False
    if isinstance(target, gast.Tuple) and target.elts and all(
            isinstance(e, gast.Name) for e in target.elts):
        return [e.id for e in target.elts], True
    return None, False


def _one_clause(gen):
    """(its parameter names, whether they unpack a tuple, the test or None) of a
    comprehension of one `for` clause whose target is a name or a flat tuple of names; None
    for any other."""
    if len(gen.generators) != 1 or gen.generators[0].is_async:
        return None
    comp = gen.generators[0]
    names, unpack = _params(comp.target)
    if names is None:
        return None
    test = (gast.BoolOp(op=gast.And(), values=list(comp.ifs)) if len(comp.ifs) > 1
            else comp.ifs[0] if comp.ifs else None)
    return names, unpack, test


class GeneratorTransformer(base.Base):
    def visit_ListComp(self, node):
        node = self.generic_visit(node)
        clause = _one_clause(node)
        if clause is None or clause[2] is None:
            return node
        names, unpack, test = clause
        assignment_expressions.refuse_walrus(self, node, "a filtered list comprehension")
        params = ", ".join(names)
        return templates.replace_as_expression(
            f"ag__.filtered_list(it, lambda {params}: t, lambda {params}: e, unpack={unpack})",
            it=node.generators[0].iter, t=test, e=node.elt)

    def visit_Call(self, node):
        node = self.generic_visit(node)
        f = node.func
        if not (isinstance(f, gast.Name) and f.id in REDUCTIONS
                and all(k.arg == "default" for k in node.keywords)
                and (not node.keywords or f.id in EXTREMES)
                and 1 <= len(node.args) <= (2 if f.id == "sum" else 1)
                and isinstance(node.args[0], gast.GeneratorExp)):
            return node
        gen = node.args[0]
        clause = _one_clause(gen)
        if clause is None or any(isinstance(a, gast.Starred) for a in node.args):
            return node
        names, unpack, test = clause
        comp = gen.generators[0]
        assignment_expressions.refuse_walrus(self, gen, f"a generator that {f.id}() reduces")
        params = ", ".join(names)
        cond = (templates.replace_as_expression(f"lambda {params}: t", t=test)
                if test is not None else gast.Constant(value=None, kind=None))
        elt = templates.replace_as_expression(f"lambda {params}: e", e=gen.elt)
        call = templates.replace_as_expression(
            f"ag__.reduce_generator(fn, it, cond, elt, unpack={unpack})", fn=f, it=comp.iter,
            cond=cond, elt=elt)
        call.args += node.args[1:]  # (sum's start)
        call.keywords += node.keywords  # (max's and min's default)
        return call
