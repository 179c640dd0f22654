"""The single ordered list of converters; every ordering constraint is commented here."""

from autograph_lite.autograph.converters import (asserts, assignment_expressions, assignments,
                                                 attribute_loads, attribute_stores,
                                                 break_statements, call_trees,
                                                 conditional_expressions, container_reads,
                                                 continue_statements, control_flow, deletes,
                                                 directives, exceptions, fstrings, functions,
                                                 generators, lists, logical_expressions,
                                                 match_statements, raises, return_statements,
                                                 shapes, shared_names, subscript_loads,
                                                 subscripts, user_operators, variables,
                                                 with_statements)

CONVERTERS = (
    # First: reject generators/async before anything else rewrites them.
    functions.FunctionTransformer,
    # Before control_flow, which reads the options it leaves on loop nodes; before break,
    # so the directive is still the first statement of the body.
    directives.DirectivesTransformer,
    # `while (y := e) < t:` -> `while True: if not ((y := e) < t): break; ...`, and a
    # walrus first in an `and`/`or` test bound before it: after directives (the loop keeps
    # its options), before break (which converts that break) and logical_expressions.
    assignment_expressions.AssignmentExpressionTransformer,
    # `match` on values -> its `if`/`elif` chain: before break/return (their jumps are then
    # inside plain `if`s).
    match_statements.MatchTransformer,
    # break -> `break_ = True; continue`: must precede continue_statements.
    break_statements.BreakTransformer,
    # Before call_trees: the assert test's calls are then converted like any other.
    asserts.AssertTransformer,
    # `raise E` -> `raise ag__.user_raise(E)`: before call_trees, likewise.
    raises.RaiseTransformer,
    # `sum(e for v in xs if c)` -> `ag__.reduce_generator(sum, xs, lambda v: c, lambda v:
    # e)`: before call_trees (it converts the calls in the lambdas, and would wrap `sum`)
    # and logical_expressions (the `if`s' `and`).
    generators.GeneratorTransformer,
    # Removes every `continue` (also those break left behind).
    continue_statements.ContinueTransformer,
    # After break/continue (no jumps left in loops); adds loop tests and guards, so it
    # must precede control_flow and logical_expressions (its `not do_return`).
    return_statements.ReturnTransformer,
    # `del x` -> `x = ag__.deleted(x, 'x')`: an assignment, so before control_flow.
    deletes.DeleteTransformer,
    # `x.shape` -> `ag__.shape_of(x)`: before the subscript converters (they then see
    # `ag__.shape_of(x)[0]` as any other read) and before call_trees (which leaves ag__
    # calls alone).
    shapes.ShapeTransformer,
    # One assignment per target (`a[0] = b[0] = v`, `x[i], x[j] = ...`): before the
    # subscript rewrite, which handles a single subscript target.
    assignments.AssignmentSplitter,
    # Rebinding rewrites (`l = list_append(l, x)`, `x = setitem(x, i, v)`) must precede
    # control_flow so the rebound names become branch/loop state.
    lists.ListTransformer,
    subscripts.SubscriptTransformer,
    # `f(x)` -> `f(x); x = ag__.resolve(x)` (and the aliases of a written name): rebindings
    # too, so before control_flow; after subscripts (it reads their setitem/augassign);
    # sees the user's calls before call_trees wraps them.
    shared_names.SharedNamesTransformer,
    # After subscripts (the reads inside its setitem calls are converted too); skips the
    # `ag__.index[...]` it emits.
    subscript_loads.SubscriptLoadTransformer,
    # `g.u` (a read) -> `ag__.attribute(g, "u")`: after subscript_loads and subscripts (it leaves
    # alone the bases of their getitem/setitem calls), after shared_names (which reads
    # `v = g.u` as linking `v` to `g`); before call_trees, which then wraps the calls whose
    # arguments it resolved.
    attribute_loads.AttributeLoadTransformer,
    # `a, b = arrs` -> `a, b = ag__.resolved_items(arrs)`, and a comprehension's iterable
    # likewise: after attribute_loads (the value's reads are converted), before call_trees
    # (which then wraps the calls inside and leaves the ag__ call alone).
    container_reads.ContainerReadTransformer,
    # f-strings -> `ag__.fstring(...)`: before call_trees, which then converts the calls
    # inside their values and leaves the ag__ calls alone.
    fstrings.FStringTransformer,
    # `a * b`, `-a` -> `ag__.binary("*", a, b)`, `ag__.unary("-", a)`: the user's objects'
    # dunders run converted; after fstrings (`"%d" % v`), before call_trees (which then
    # converts the calls inside the operands and leaves the ag__ calls alone).
    user_operators.UserOperatorTransformer,
    # Wraps user calls; skips `ag__.*` calls made by the converters above.
    call_trees.CallTreeTransformer,
    # Guards `try` inside if/loops; before control_flow moves blocks into functions.
    exceptions.TryTransformer,
    # `with cm:` -> `with ag__.with_guard(cm):` (after call_trees, which converted the calls
    # of `cm`'s expression and leaves the ag__ call alone)
    with_statements.WithTransformer,
    # Needs the final set of assignments (from all rewrites above) for its analysis.
    control_flow.ControlFlowTransformer,
    # `obj.a = v` through the class's converted setter: after control_flow, whose
    # composites analysis reads attribute targets.
    attribute_stores.AttributeStoreTransformer,
    # Wraps reads of names control_flow bound to `Undefined` (so it must come after it).
    variables.VariableTransformer,
    # After control_flow, so loop tests/extra tests it emitted (`not break_ and ...`) and
    # expressions moved into body functions are converted too.
    conditional_expressions.ConditionalExpressionTransformer,
    logical_expressions.LogicalExpressionTransformer,
)


def convert_tree(node, ctx):
    """Runs every converter, in order, over a FunctionDef or Lambda node."""
    for converter in CONVERTERS:
        node = converter.transform(node, ctx)
    return node
