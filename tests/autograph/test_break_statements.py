"""break_statements: `break` becomes a flag the loop tests."""

from autograph_lite.autograph.converters.break_statements import BreakTransformer

from .conftest import assert_equivalent, convert_only


def while_break(n):
    i = 0
    while i < n:
        if i == 3:
            break
        i += 1
    return i


def for_break_else(xs):
    for x in xs:
        if x < 0:
            break
    else:
        return "no negatives"
    return x


def nested_break(n):
    s = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            s += j
        if s > 10:
            break
    return s


def test_while_test_checks_flag_first():
    src = convert_only(while_break, BreakTransformer)
    assert "break_ = False" in src
    assert "while not break_ and i < n:" in src
    assert "break_ = True\n            continue" in src
    assert "break\n" not in src


def test_for_else_becomes_guarded_block():
    src = convert_only(for_break_else, BreakTransformer)
    assert "if not break_:\n        return 'no negatives'" in src
    assert "else:" not in src


def test_nested_loops_get_their_own_flags():
    src = convert_only(nested_break, BreakTransformer)
    assert "break_ = False" in src and "break__1 = False" in src


def test_behaviour():
    assert_equivalent(while_break, [(0,), (2,), (10,)])
    assert_equivalent(for_break_else, [([1, 2],), ([1, -2, 3],), ([],)])
    assert_equivalent(nested_break, [(0,), (3,), (8,)])


# -- a value set just before a `break` on a tensor, in a `while` on Python values (session 47)
import numpy as np  # noqa: E402

from .three_way import agree  # noqa: E402


def hits_zero(y0, x):
    t = 0.0                      # Python numbers: the first trip ran as Python, and its
    y = y0                       # staged `if` refused `t_hit` as set on one path only
    while t < 1.0:
        y = y - 0.1
        t += 0.1
        x[0] += 1.0
        if y < 0:
            t_hit = t
            break
    return t_hit, x


def event_time(y0):
    t, y = 0.0, y0
    while True:
        y = y - 0.25
        t += 0.5
        if y < 0:
            when = t
            break
    return when


def test_a_value_set_before_a_break_is_read_after_a_while_on_python_values():
    """The loop is staged from its start, where such a variable carries a flag; a run that
    leaves the loop without setting it raises Python's UnboundLocalError."""
    agree(hits_zero, [(np.float64(0.35), np.zeros(2)), (np.float64(100.0), np.zeros(2)),
                      (np.float64(0.05), np.zeros(2))])
    agree(event_time, [(np.float64(0.3),), (np.float64(2.0),)])
