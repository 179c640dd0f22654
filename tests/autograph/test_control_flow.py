"""control_flow: if/while/for become `ag__.if_stmt/while_stmt/for_stmt` with state closures."""

import autograph_lite.autograph as autograph

from .conftest import assert_equivalent


def branch(x):
    y = 0
    if x > 0:
        t = x * 2
        y = t + 1
    else:
        y = -x
    return y


def loop(n):
    s = 0
    i = 0
    while i < n:
        tmp = i * 2
        s += tmp
        i += 1
    return s


def for_loop(xs):
    total = 0
    for k, x in enumerate(xs):
        total += k * x
    return total


def first_defined_in_loop(n):
    for i in range(n):
        last = i * 3
    return last


def test_if_shape():
    src = autograph.to_code(branch)
    assert "def get_state():\n        return (y, t)" in src
    assert "def set_state(vars_):\n        nonlocal y, t\n        y, t = vars_" in src
    assert "def if_body():\n        nonlocal y, t" in src
    assert ("ag__.if_stmt(ag__.compare('>', x, 0), if_body, else_body, get_state, set_state, "
            "('y', 't'), 1)") in src
    assert "t = ag__.Undefined('t')" in src  # bound before, so `nonlocal t` is legal


def test_while_shape_loop_vars_first():
    src = autograph.to_code(loop)
    assert "def loop_test():\n        return ag__.compare('<', i, n)" in src
    assert ("ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('i', 's', 'tmp'), 2,"
            " None)") in src


def test_for_shape():
    src = autograph.to_code(for_loop)
    assert "def loop_body(itr):" in src and "k, x = itr" in src
    assert "ag__.for_stmt(ag__.converted_call(enumerate, (xs,), None), None, loop_body" in src


def test_behaviour():
    assert_equivalent(branch, [(2,), (-2,)])
    assert_equivalent(loop, [(0,), (4,)])
    assert_equivalent(for_loop, [([],), ([3, 4, 5],)])
    assert_equivalent(first_defined_in_loop, [(3,), (0,)])  # 0 trips: UnboundLocalError


def test_globals_and_nonlocals_are_declared_not_carried():
    counter = [0]

    def outer(n):
        hits = 0

        def bump(k):
            nonlocal hits
            for _ in range(k):
                if k > 1:
                    hits += 1
            return hits
        return bump(n), counter
    assert_equivalent(outer, [(0,), (3,)])
