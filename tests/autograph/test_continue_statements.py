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


def skip_odd_later(n):
    s = 0
    for i in range(n):
        if i % 2:
            s -= 1
            if i > 5:
                continue
            s += 1
        s += i
        s *= 2
    return s


def test_rest_of_body_is_the_other_branch_of_an_if_ending_in_continue():
    src = convert_only(skip_odd, ContinueTransformer)
    assert "continue_ = False" in src
    assert "if i % 2:\n            continue_ = True\n        else:\n            s += i\n" \
           "            s *= 2" in src
    assert "if not continue_" not in src
    assert "continue\n" not in src


def test_rest_of_body_is_guarded():
    src = convert_only(skip_odd_later, ContinueTransformer)
    assert "if i > 5:\n                continue_ = True\n            else:\n" \
           "                s += 1" in src
    assert "if not continue_:\n            s += i\n            s *= 2" in src
    assert "continue\n" not in src


def test_guards_reach_outer_blocks():
    src = convert_only(nested_continue, ContinueTransformer)
    assert src.count("if not continue_:") == 1
    assert "if i % 3 == 0:\n                continue_ = True\n            else:\n" in src


def test_behaviour():
    assert_equivalent(skip_odd, [(0,), (5,)])
    assert_equivalent(nested_continue, [(0,), (4,), (10,)])
    assert_equivalent(skip_odd_later, [(0,), (5,), (9,)])


def keys_every_path_sets(x):
    out = {}
    res = ()
    for c in range(2):
        if x[c] > 0:
            out[c] = x[c] * 2
            res = res + (x[c],)
            continue
        out[c] = 0.0
        res = res + (0.0,)
    return out, res


def skips_at_two_depths(x):
    s = 0.0
    n = 0
    for i in range(x.shape[0]):
        if x[i] > 0:
            if x[i] > 5:
                continue
            s += x[i]
        else:
            n += 1
            continue
        s *= 1.5
        if s > 100:
            continue
        n += 2
    return s, n


def test_a_dict_or_tuple_every_path_extends_before_or_after_a_continue():
    """(session 54) `if c: out[k] = v; continue` then `out[k] = 0.0`: the staged `if`
    merged a dict with the key and one without (the rest ran after it, under the flag):
    refused; the rest is the `if`'s other branch now."""
    import numpy as np
    from .three_way import agree
    agree(keys_every_path_sets, [(np.array([1.0, -2.0]),), (np.array([-1.0, 3.0]),)])
    agree(skips_at_two_depths, [(np.array([1.0, -2.0, 7.0, 3.0]),),
                                (np.array([-1.0, 3.0, 90.0, 40.0]),), (np.zeros(0),)])
