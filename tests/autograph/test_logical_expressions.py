"""logical_expressions: and/or/not become lazy `ag__.and_/or_/not_` calls."""

from autograph_lite.autograph.converters.logical_expressions import (
    LogicalExpressionTransformer)

from .conftest import assert_equivalent, convert_only
from .three_way import agree


def logic(a, b, c):
    return (a and b or c, not a, a < b <= c, a < len([b]) < c)


def test_shape():
    src = convert_only(logic, LogicalExpressionTransformer)
    assert "ag__.or_(lambda: ag__.and_(lambda: a, lambda: b), lambda: c)" in src
    assert "ag__.not_(a)" in src
    assert "ag__.and_(lambda: a < b, lambda: b <= c)" in src
    # a call in the middle is evaluated once, and only after `a` (compare_chain)
    assert "ag__.compare_chain(a, ('Lt', 'Lt'), (lambda: len([b]), lambda: c))" in src


def test_behaviour():
    assert_equivalent(logic, [(0, 1, 2), (1, 0, 2), (1, 2, 3), (3, 2, 1), ("", "x", 0)])


def chain_with_calls(xs, log):
    def seen(v):
        log.append(v)
        return v
    return 0 < seen(xs[0]) <= seen(xs[1]) < 10, 3 > seen(xs[0]) in xs, seen(xs[1]) is not None


def test_chained_comparison_evaluates_each_operand_once_and_lazily():
    # (the log argument, compared after each call, shows which operands ran, in order)
    assert_equivalent(chain_with_calls, [([1, 2], []), ([5, 1], []), ([0, 3], []),
                                         ([2, 20], [])])


def membership(x, items):
    return x in items, x not in items, x in "abc" if isinstance(x, str) else x in {1: 2}


def test_membership_is_pythons_on_python_values():
    src = convert_only(membership, LogicalExpressionTransformer)
    assert "ag__.in_(x, items)" in src and "ag__.not_in(x, items)" in src
    assert_equivalent(membership, [(1, [1, 2]), (3, (1, 2)), ("b", "abc"), (2, [])])


def errors_in_the_right_operand(x, m, k):
    # NumPy's `-` of a bool array, Python's `1 / k` of a 0, `float()` of a vector: raised
    # by the runs that evaluate the right operand only
    first = x[0] > 0 and (-m).any()
    second = x[0] < 0 or 1 / k > 0
    third = x[0] > 0 and float(x) > 1
    return first, second, third


def test_errors_in_a_staged_right_operand_are_raised_by_the_runs_that_evaluate_it():
    import numpy as np
    m = np.array([True])
    raised = agree(errors_in_the_right_operand,
                   [(np.array([-1.0, 2.0]), m, 0), (np.array([-3.0]), m, 0),
                    (np.array([2.0]), m, 1), (np.array([-2.0]), m, 2)])
    assert any("boolean negative" in message for _, _, message in raised)


def tuples_ordered(x):
    return ((x[0], 1) < (x[1], 0), (x[0], 1) >= (x[1], 0), (x[0],) <= (x[0], x[1]),
            [x[0], 2] > [x[1], 1], (x[0], 1) < (x[0], 2))


def best_value_and_index(x):
    best = (x[0], 0)
    for i in range(1, len(x)):
        cand = (x[i], i)
        if cand < best:          # (the first smallest value, by its index)
            best = cand
    return best, max((v, i) for i, v in enumerate(x)), min((v, -i) for i, v in enumerate(x))


def test_tuples_holding_tensors_are_ordered_as_python_orders_them():
    """`(d, i) < best` asked a tensor's truth while tracing, a TypeError (session 49): the
    first pair that is not equal decides, else the lengths; `max`/`min` of such tuples
    pick the first that no later one beats."""
    import numpy as np
    agree(tuples_ordered, [(np.array([1.0, 1.0]),), (np.array([0.0, 1.0]),),
                           (np.array([2.0, np.nan]),), (np.array([np.nan, 1.0]),)])
    agree(best_value_and_index, [(np.array([3.0, 1.0, 1.0, 5.0]),),
                                 (np.array([2.0, 2.0, 0.5]),), (np.array([np.nan, 1.0, 3.0]),)])


def none_among_tensors(x):
    # (each item `is None` or `== None`, as Python scans: a tensor equals None nowhere)
    return None in (x[0], 1), None in [x[0], x[1]], x[0] in (None, 2.0)


def none_counted_among_tensors(x):
    # (tuple.count/index and list.remove compare in C, through the Tensor's `==`: NumPy's
    # answer, nothing equals None, elementwise; a TypeError on dtype object before session 52)
    t = (x[0], None, x[1])
    rest = [x[0], None, x]
    rest.remove(None)
    return t.count(None), t.index(None), len(rest), x == None, x != None  # noqa: E711


def test_none_searched_among_tensors_is_not_found():
    import numpy as np
    agree(none_among_tensors, [(np.array([1.0, 2.0]),), (np.array([2.0, 0.0]),)])
    agree(none_counted_among_tensors, [(np.array([1.0, 2.0]),), (np.array([np.nan, 0.0]),)])


def counts_drops_after_positives(x):
    hist = []
    v = 0
    for i in range(x.shape[0]):
        if x[i] > 0 and hist and x[i] < hist[-1]:
            v += 1
        while x[i] > 5.0 and (hist and hist[-1] > 100.0):
            hist.append(0.0)
        hist.append(x[i])
    return v


def test_a_list_in_a_tested_and_stands_for_its_truth():
    """(session 52, the trips grammar) `if c and hist and x[i] < hist[-1]:` with `c` staged:
    the `and` of the list came back as the list where it was empty, which a staged choice
    cannot hold beside a bool (refused: 'different structures'); in a test only the truth
    is read (converters/logical_expressions.mark_test)."""
    import numpy as np
    agree(counts_drops_after_positives, [(np.array([1.0, 3.0, 2.0, -1.0, 0.5]),),
                                         (np.linspace(-1.0, 1.0, 40),)])


def waits_while_list_is_empty(x, n):
    h = []
    w = 0
    if x > 0:
        while w < 4 and (h and n < h[-1]):
            w += 1
        if n > 1:
            h.append(n)
    return w, (h[-1] if h else -1)


def loops_over_a_list_a_branch_carries(x, n):
    h = []
    w = 0
    if x > 0:
        while w < 3 and x > 0 and (h and n < h[-1]):
            w += 1
        while h:
            w += 10
            h.pop()
        if n > 1:
            h.append(n)
    return w


def test_a_list_a_staged_branch_carries_is_false_while_empty():
    """(session 54, trips seed 527) a list appended to in a staged `if` is traced again as
    a row buffer (data.TensorList, a tuple): tested empty in a `while` before the append,
    its `and` gave the tuple, whose Python truth is always True: the loop ran its 4 trips
    where Python's runs none (silently); beside a staged operand the same `and` was
    refused ('different structures'). A test reads the list's length now."""
    import numpy as np
    calls = [(np.float64(1.0), np.int64(3)), (np.float64(-1.0), np.int64(0)),
             (np.float64(2.0), np.int64(0))]
    agree(waits_while_list_is_empty, calls)
    agree(loops_over_a_list_a_branch_carries, calls)


def differs_when_both_given(a, n):
    p, q = None, None
    v = 0
    if a > n:
        p = a
    if p is not None and q is not None:  # (q is None on every path: never true)
        v = p - q
    if q is None or p > 100:
        v += 1
    return v


def test_a_tested_and_whose_python_operand_decides_is_that_value():
    """(session 52, the trips grammar) the staged `and` traced its true branch, where `q`
    is None, and `p - q` raised on None ("dtype object is not supported")."""
    import numpy as np
    agree(differs_when_both_given, [(np.int64(3), np.int64(2)), (np.int64(0), np.int64(1))])
