"""continue_statements: `continue` sets a flag; the rest of the body is guarded."""

from autograph_lite.autograph.converters.continue_statements import ContinueTransformer

from .conftest import assert_equivalent, convert_only


def skip_odd(n):
    s = 0
    for i in range(n):
        if i % 2:
            continue
        s += i
        s *= 2
    return s


def nested_continue(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i > 2:
            if i % 3 == 0:
                continue
            s += 100
        s += i
    return s


def test_rest_of_body_is_guarded():
    src = convert_only(skip_odd, ContinueTransformer)
    assert "continue_ = False" in src
    assert "if i % 2:\n            continue_ = True" in src
    assert "if not continue_:\n            s += i\n            s *= 2" in src
    assert "continue\n" not in src


def test_guards_reach_outer_blocks():
    src = convert_only(nested_continue, ContinueTransformer)
    assert src.count("if not continue_:") == 2


def test_behaviour():
    assert_equivalent(skip_odd, [(0,), (5,)])
    assert_equivalent(nested_continue, [(0,), (4,), (10,)])
