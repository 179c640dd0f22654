"""ag.cond and ag.while_loop (SPEC §3, explicit forms, usable with autograph=False).

Each behaviour three ways where it makes sense: the plain Python run (ag.cond and
ag.while_loop run as Python control flow on eager values), the interpreter, cpu.
"""
import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS, agree, assert_same


def graph_text(fn, *args):
    return str(ag.defun(fn, autograph=False, backend="interpreter")
               .get_concrete_function(*args).graph)


# --- ag.cond ---------------------------------------------------------------------------------

def piecewise(x):
    return ag.cond(np.sum(x) > 0, lambda: x * 2.0, lambda: -x + 1.0)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_cond_tensor_predicate_three_ways(sign):
    agree(piecewise, sign * np.arange(1.0, 4.0), autograph=False)


def nested_outputs(x, y):
    return ag.cond(x[0] > y[0],
                   lambda: {"a": (x, y), "b": x[0]},
                   lambda: {"a": (y, x), "b": y[0] * 2.0})


@pytest.mark.parametrize("first", [5.0, -5.0])
def test_cond_nested_outputs_three_ways(first):
    x = np.array([first, 1.0])
    agree(nested_outputs, x, np.zeros(2), autograph=False)


def test_cond_python_predicate_runs_one_branch_at_trace_time():
    traced = []

    def f(x, flag):
        return ag.cond(flag, lambda: traced.append("t") or x + 1.0,
                       lambda: traced.append("f") or x - 1.0)
    x = np.ones(2)
    g = ag.defun(f, autograph=False, backend="interpreter")
    assert_same(g(x, True), x + 1.0)
    assert traced == ["t"]
    assert_same(g(x, False), x - 1.0)
    assert traced == ["t", "f"]
    assert "cond" not in graph_text(f, x, True)


def promoting(x, i):
    return ag.cond(np.sum(x) > 0, lambda: x, lambda: i)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_cond_branch_dtypes_promote(backend, sign):
    x = sign * np.ones(3, np.float32)
    i = np.arange(3, dtype=np.int32)
    got = ag.defun(promoting, autograph=False, backend=backend)(x, i)
    want = (x if sign > 0 else i).astype(np.result_type(np.float32, np.int32))
    assert_same(got, want)


def weak_branch(x):
    return ag.cond(np.sum(x) > 0, lambda: x * 1.0, lambda: 0.0 * x)


def test_cond_weak_literal_keeps_dtype():
    agree(weak_branch, np.ones(2, np.float32), autograph=False)


def test_cond_mismatched_branches_are_value_errors():
    x = np.arange(3.0)
    with pytest.raises(ValueError, match="structure"):
        graph_text(lambda x: ag.cond(x[0] > 0, lambda: (x, x), lambda: x), x)
    with pytest.raises(ValueError, match="rank"):
        graph_text(lambda x: ag.cond(x[0] > 0, lambda: x, lambda: np.sum(x)), x)
    with pytest.raises(ValueError, match="scalar"):
        graph_text(lambda x: ag.cond(x > 0, lambda: x, lambda: x), x)


def test_cond_branch_shapes_relax():
    text = graph_text(lambda x: ag.cond(x[0] > 0, lambda: x, lambda: x[:2]), np.ones(3))
    assert "float64[?]" in text


def test_cond_needs_callables():
    with pytest.raises(TypeError):
        ag.cond(True, 1, 2)


# --- ag.while_loop ------------------------------------------------------------------------------

def doubling(x, limit):
    def cond(v, n):
        return np.sum(v) < limit

    def body(v, n):
        return v * 2.0 + 1.0, n + 1
    return ag.while_loop(cond, body, (x, 0))


@pytest.mark.parametrize("limit", [0.5, 100.0])
def test_while_tensor_predicate_three_ways(limit):
    agree(doubling, np.arange(3.0), np.float64(limit), autograph=False)


def capped(x, cap):
    return ag.while_loop(lambda v: np.sum(v) < 1e12, lambda v: v * 3.0, [x],
                         maximum_iterations=cap)


@pytest.mark.parametrize("cap", [0, 4])
def test_while_maximum_iterations_three_ways(cap):
    r = agree(capped, np.ones(2), np.int64(cap), autograph=False)
    assert_same(r["cpu"][0] if isinstance(r["cpu"], (list, tuple)) else r["cpu"],
                np.ones(2) * 3.0 ** cap)


def test_while_maximum_iterations_python_loop():
    out = ag.while_loop(lambda i: i < 100, lambda i: i + 1, [0], maximum_iterations=7)
    assert list(out) == [7]
    assert ag.while_loop(lambda i: i < 3, lambda i: i + 1, 0, maximum_iterations=7) == 3


def test_while_python_predicate_runs_at_trace_time():
    def f(x):
        return ag.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v), (0, 5))[1] * x
    text = graph_text(f, np.ones(2))
    assert "while_loop" not in text
    agree(f, np.ones(2), autograph=False)


def weak_counter(x):
    # a Python float starts the loop; the body makes it a float32 tensor: it adopts float32
    return ag.while_loop(lambda s: s < 10.0, lambda s: s + np.sum(x), (0.0,))


def test_while_weak_initial_value_adopts_the_body_dtype():
    agree(weak_counter, np.ones(3, np.float32), autograph=False)


def growing(x, n):
    return ag.while_loop(lambda v: ag.size(v) < n, lambda v: np.concatenate([v, v + 1.0]),
                         [x])


def test_while_shape_change_is_relaxed_three_ways():
    agree(growing, np.zeros(2), np.int64(10), autograph=False)
    assert "float64[?]" in graph_text(growing, np.zeros(2), np.int64(10))


def test_while_loop_variable_errors():
    x = np.arange(3.0)
    with pytest.raises(TypeError, match="dtype.*float64.*float32"):
        graph_text(lambda x: ag.while_loop(lambda v: np.sum(v) < 10,
                                           lambda v: v.astype(np.float32), [x]), x)
    with pytest.raises(ValueError, match="rank"):
        graph_text(lambda x: ag.while_loop(lambda v: np.sum(v) < 10,
                                           lambda v: np.sum(v), [x]), x)
    with pytest.raises(ValueError, match="structure"):
        graph_text(lambda x: ag.while_loop(lambda v: np.sum(v) < 10,
                                           lambda v: (v, v), [x]), x)
    with pytest.raises(TypeError, match="'hello'"):
        graph_text(lambda x: ag.while_loop(lambda v, s: np.sum(v) < 10,
                                           lambda v, s: (v + 1.0, s), (x, "hello")), x)


# --- dead results of regions (ir/passes/dce.py) ----------------------------------------------

def unread_branch_and_loop_values(x, n):
    spare = x[0]            # set in the branch below, never read afterwards
    i = 0
    total = x[0] * 0.0
    trips = x[0] * 0.0      # a loop variable only an unused value reads after the loop
    while i < n:
        if x[i % 3] > 0:
            total = total + x[i % 3]
            spare = x[1] * 2.0
        else:
            spare = x[2] - 1.0
        trips = trips + 1.0
        i += 1
    unused = trips * 2.0  # noqa: F841 - what the test is about
    return total


def test_unread_branch_results_and_loop_variables_are_dropped():
    args = (np.array([1.5, -2.0, 3.0]), np.int64(5))
    cf = ag.defun(unread_branch_and_loop_values, backend="interpreter").get_concrete_function(
        *args)
    loops = [n for n in cf.graph.walk() if n.op == "while_loop"]
    conds = [n for n in cf.graph.walk() if n.op == "cond"]
    # the loop keeps the counter and the sum (`trips` goes: only `unused` read it), and the
    # `if` keeps only the sum
    assert [len(n.outputs) for n in loops] == [2]
    assert max(len(n.outputs) for n in conds) == 1
    for n in loops + conds:
        assert [v.index for v in n.outputs] == list(range(len(n.outputs)))
        for r in n.regions:
            assert len(r.outputs) >= 1
    agree(unread_branch_and_loop_values, *args)
    agree(unread_branch_and_loop_values, np.array([-1.0, -2.0, -3.0]), np.int64(0))
