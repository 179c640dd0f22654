"""The runtime on symbolic tensors (needs the core): what SPEC 3 says is staged, is."""

import numpy as np
import pytest

import autograph_lite as ag
import autograph_lite.autograph as autograph
from autograph_lite.autograph.runtime import loops
from differential import agree


def graph_text(fn, *args):
    return str(ag.defun(fn).get_concrete_function(*args).graph)


def test_large_python_range_with_tensor_state_is_staged():
    n = loops.UNROLL_LIMIT + 68

    def f(x):
        s = x * 0
        for i in range(n):
            s = s + x * i
        return s
    assert float(ag.defun(f)(np.float64(1.0))) == sum(range(n))
    assert "while_loop" in graph_text(f, np.float64(1.0))


def test_small_python_range_is_unrolled():
    def f(x):
        for i in range(3):
            x = x + i
        return x
    assert float(ag.defun(f)(np.float64(1.0))) == 4.0
    assert "while_loop" not in graph_text(f, np.float64(1.0))


def test_large_range_falls_back_to_unrolling_when_i_must_be_python():
    # a list of tuples cannot be read with a tensor index (trace_arrays.py): i must be an int
    weights = [(float(k % 7), "w") for k in range(loops.UNROLL_LIMIT + 8)]

    def f(x):
        s = x * 0
        for i in range(len(weights)):
            s = s + x * weights[i][0]
        return s
    assert float(ag.defun(f)(np.float64(2.0))) == 2.0 * sum(w for w, _ in weights)
    assert "while_loop" not in graph_text(f, np.float64(2.0))


# SPEC 3, the unrolling budget: nested Python loops whose trip counts multiply are
# unrolled only while the staged ops stay within loops.UNROLL_BUDGET; beyond it the rest
# of a loop is staged (its first iteration, unrolled to measure it, stays).
def python_nest(a):
    s = a * 0.0
    for i in range(20):
        for j in range(20):
            for k in range(25):
                s = s + a * (i - j + k)
    return s


def small_nest(a):
    s = a * 0.0
    for i in range(4):
        for j in range(3):
            s = s + a * (i - j)
    return s


def ndindex_cells(a):
    s = a * 0.0
    for i, j, k in np.ndindex(30, 20, 6):
        s = s + a * (i + 2 * j - k)
    return s


def ndenumerate_table(a):
    t = np.arange(2400.0).reshape(40, 60) % 7.0
    s = a * 0.0
    for (i, j), v in np.ndenumerate(t):
        s = s + v * a + (i - j)
    return s


def small_ndindex(a):
    s = a * 0.0
    for i, j in np.ndindex((2, 3)):
        s = s + a * (i * 10 + j)
    return s


@pytest.mark.parametrize("fn, staged", [(python_nest, True), (small_nest, False),
                                        (ndindex_cells, True), (ndenumerate_table, True),
                                        (small_ndindex, False)])
def test_unrolling_budget_across_nests(fn, staged):
    agree(fn, calls=[(np.float64(1.0),), (np.float64(-0.5),)], exact=True)
    text = graph_text(fn, np.float64(1.0))
    assert ("while_loop" in text) == staged
    cf = ag.defun(fn).get_concrete_function(np.float64(1.0))
    assert len(cf.graph.nodes) < 200  # not 10,000 unrolled bodies


def ndenumerate_an_argument(x):
    for (i, j), v in np.ndenumerate(x):
        if v > 0:
            x[i, j] = v + i * 10 + j
        if i + 1 < x.shape[0]:
            x[i + 1, j] += v          # read by a later trip, as NumPy's iterator reads it
    return x


def test_ndenumerate_of_a_tensor_reads_each_element_when_its_trip_runs():
    # (session 47: NumPy was handed the tensor, "cannot be converted to a NumPy array")
    agree(ndenumerate_an_argument, calls=[(np.array([[1.0, -2.0], [3.0, 4.0], [0.5, -1.0]]),),
                                          (np.ones((30, 20)),)], exact=True)


def test_over_budget_loop_whose_body_needs_i_as_a_python_int_is_unrolled():
    rows = [(float(k % 5), "w") for k in range(12)]

    def f(x):
        s = x * 0.0
        for i in range(12):
            for j in range(12):
                for k in range(12):
                    s = s + x * rows[k][0] + (i - j)  # rows[k]: k must be a Python int
        return s
    agree(f, calls=[(np.float64(1.0),), (np.float64(2.0),)], exact=True)


# The budget holds for a `while` whose test stays a Python value (it measures what its
# iterations staged, its trip count being unknown) and for a NumPy array of trace time
# iterated over its rows (counted, as a range is). Random program 6779 (numpy grammar):
# a Python `while` over Python `for`s over trace-time arrays unrolled 5,450 ops, and its
# first call spent 518 s in Numba.
def python_while_nest(a):
    s = a * 0.0
    i = 0
    while i < 30:
        j = 0
        while j < 20:
            s = s + a * (i - j)
            j += 1
        i += 1
    return s, i


def while_true_break(a):
    s = a * 0.0
    k = 0
    while True:
        s = s * 0.5 + a * k
        k += 1
        if k > 400:
            break
    return s, k


def rows_of_a_table(a):
    table = np.linspace(0.0, 1.0, 120)
    s = a * 0.0
    for w in table:
        s = s + a * w
    return s


def table_written_while_iterated(a):
    r = np.arange(60.0)
    s = a * 0.0
    for e in r:
        s = s + e * a
        r[-1] = s  # the last row, read by the last iteration, is the one written here
    return s, r


def while_over_table_rows(a):
    t = np.arange(12.0).reshape(4, 3)
    s = a * 0.0
    k = 0
    while k < 50:
        for row in t:
            s = s + np.sum(row) * a
        k += 1
    return s


def enumerate_rows(a):
    table = np.linspace(0.0, 1.0, 240).reshape(120, 2)
    s = a * 0.0
    for i, (w, v) in enumerate(table, 3):
        s = s * 0.5 + a * w - v * i
    for k, j in enumerate(range(100, 400, 3)):
        s = s + a * (k - j)
    first = next(enumerate(table))  # (an iterator, as enumerate's)
    return s, first[0], first[1], len(list(enumerate(range(5))))


@pytest.mark.parametrize("fn", [python_while_nest, while_true_break, rows_of_a_table,
                                table_written_while_iterated, while_over_table_rows,
                                enumerate_rows])
def test_unrolling_budget_for_python_whiles_and_trace_time_arrays(fn):
    agree(fn, calls=[(np.float64(1.0),), (np.float64(-0.5),)], exact=True)
    cf = ag.defun(fn, backend="interpreter").get_concrete_function(np.float64(1.0))
    assert "while_loop" in str(cf.graph)
    assert len(cf.graph.nodes) < 300  # not hundreds of unrolled bodies


def test_python_while_over_budget_that_needs_python_values_is_unrolled():
    rows = [(float(k % 5), "w") for k in range(300)]

    class Node:
        def __init__(self, v, nxt):
            self.v, self.next = v, nxt

    chain = None
    for k in range(300):
        chain = Node(float(k % 3), chain)

    def f(x):
        s = x * 0.0
        k = 0
        while k < 300:
            s = s + x * rows[k][0]  # rows[k]: k must be a Python int
            k += 1
        node = chain
        while node is not None:  # an object: no tensor can carry it
            s = s * 0.5 + node.v * x
            node = node.next
        return s, k
    agree(f, calls=[(np.float64(1.0),), (np.float64(2.0),)], exact=True)


def test_python_while_else_over_budget():
    def f(x):
        s = x * 0.0
        k = 0
        while k < 300:
            s = s + x * k
            k += 1
        else:
            s = s + 1.0
        return s, k
    agree(f, calls=[(np.float64(1.0),), (np.float64(2.0),)], exact=True)


def test_a_trial_iteration_prints_nothing(capsys):
    def f(x):
        out = np.zeros(40)
        for i in range(40):           # over UNROLL_LIMIT: one trial iteration asks first
            print("row", i) if i == 0 else None
            out[i] = x * i
        return out
    ag.defun(f, backend="interpreter")(np.float64(1.0))
    assert capsys.readouterr().out.count("row 0") == 1


def test_large_range_over_a_list_of_numbers_is_staged():
    # a list of numbers read with the staged index is a constant table, as in NumPy
    weights = [float(k % 7) for k in range(loops.UNROLL_LIMIT + 8)]

    def f(x):
        s = x * 0
        for i in range(len(weights)):
            s = s + x * weights[i]
        return s
    assert float(ag.defun(f)(np.float64(2.0))) == 2.0 * sum(weights)
    assert "while_loop" in graph_text(f, np.float64(2.0))


def test_while_turns_staged_when_its_condition_becomes_a_tensor():
    def newton_sqrt(x):
        tol = 1e-10
        d = tol + 1.0
        y = x
        while d >= tol:
            y_new = 0.5 * (y + x / y)
            d = np.abs(y_new - y)
            y = y_new
        return y
    agree(newton_sqrt, calls=[(np.float64(v),) for v in (2.0, 9.0, 1e6)], exact=True)
    assert abs(float(ag.defun(newton_sqrt)(np.float64(9.0))) - 3.0) < 1e-9
    assert "while_loop" in graph_text(newton_sqrt, np.float64(2.0))


def test_tensor_range_loop_with_break_and_return():
    def f(x, n):
        acc = x * 0
        for i in range(n):
            if acc > 10:
                break
            acc = acc + x
        while acc > 0:
            acc = acc - 3
            if acc < 2:
                return acc
        return acc + 100
    agree(f, calls=[(np.float64(x), np.int64(n)) for x, n in [(4.0, 10), (1.0, 2), (0.0, 3)]])


def test_for_over_tensor_with_unknown_length():
    def f(x):
        s = 0.0
        for row in x:
            s = s + np.sum(row)
        return s, len(x)
    g = ag.defun(f, input_signature=[ag.TensorSpec([None, 2], ag.float64)])
    x = np.arange(6.0).reshape(3, 2)
    s, n = g(x)
    assert float(s) == 15.0 and int(n) == 3


def test_list_append_in_staged_loop_then_stack():
    def f(x, n):
        rows = []
        for i in range(n):
            rows.append(x * float(i))
        return np.stack(rows), ag.stack(rows)
    a, b = ag.defun(f)(np.ones(2), np.int64(3))
    expected = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_allclose(a.numpy(), expected)
    np.testing.assert_allclose(b.numpy(), expected)


def test_numpy_idiom_empty_then_setitem():
    def f(x):
        out = np.empty(len(x))  # len: the size known only at run time (None in the spec)
        for i in range(len(x)):
            out[i] = x[i] * 2
        return out
    g = ag.defun(f, input_signature=[ag.TensorSpec([None], ag.float64)])
    np.testing.assert_allclose(g(np.arange(4.0)).numpy(), np.arange(4.0) * 2)


def test_builtins_on_tensors():
    def f(x):
        return (int(x[0]), float(x[1]), bool(x[2]), abs(x[0]), max(x[0], x[1]), min(x),
                sum(x), isinstance(x, np.ndarray), isinstance(x[0], float))
    out = ag.defun(f)(np.array([-1.5, 2.0, 0.0]))
    assert [float(v) for v in out[:7]] == [-1.0, 2.0, 0.0, 1.5, 2.0, -1.5, 0.5]
    assert bool(out[7]) is True and bool(out[8]) is True


def test_logical_operators_are_lazy_on_tensors():
    def f(x):
        y = x > 0 and 10 / x > 2
        z = not x > 0 or x < 100
        return y, z
    y, z = ag.defun(f)(np.float64(4.0))
    assert bool(y) is True and bool(z) is True


def test_staged_print_runs_every_call(capfd):
    def f(x):
        print(x)
        return x
    g = ag.defun(f)
    g(np.float64(1.0))
    g(np.float64(2.0))
    out = capfd.readouterr().out
    assert "1" in out and "2" in out


def test_converted_function_runs_on_eager_tensors():
    def f(x):
        if x > 0:
            x = x * 2
        return x
    assert float(autograph.convert(f)(ag.constant(3.0))) == 6.0


def matches_later_trips(x):
    out = np.full(x.shape[0], -1.0)
    stack = []
    for i in range(x.shape[0]):
        while stack and x[stack[-1]] < x[i]:   # (the first trip: a Python False)
            j = stack.pop()
            out[j] = x[i]
        stack.append(i)
    return out


def grows_after_the_first_trip(a):
    s = a * 0.0
    for i in range(300):
        if i > 0:
            s = s + a * i
    return s


def test_a_long_range_whose_first_trip_stages_nothing_is_staged_past_the_budget():
    """(session 54) a long loop was unrolled whole where its first trip staged nothing (a
    stack still empty; `if i > 0`): a staged `while` per trip (a RecursionError at 10,000
    trips); it is staged from the first trip that stages anything."""
    x = np.random.default_rng(0).random(300)
    agree(matches_later_trips, calls=[(x,), (x[:7],)])
    for fn, arg in ((matches_later_trips, x), (grows_after_the_first_trip, np.float64(2.0))):
        cf = ag.defun(fn).get_concrete_function(arg)
        assert len(list(cf.graph.walk())) < 200
    agree(grows_after_the_first_trip, calls=[(np.float64(1.0),), (np.float64(-0.5),)])
