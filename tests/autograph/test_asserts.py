"""asserts: `assert` becomes `ag__.assert_stmt` with a lazy message."""

import numpy as np

from autograph_lite.autograph.converters.asserts import AssertTransformer
from differential import agree

from .conftest import assert_equivalent, convert_only

CALLS = []


def checked(x):
    assert x > 0, CALLS.append(x) or f"bad {x}"
    assert x < 100
    return x


def test_shape():
    src = convert_only(checked, AssertTransformer)
    assert "ag__.assert_stmt(x > 0, lambda: CALLS.append(x) or f'bad {x}')" in src
    assert "ag__.assert_stmt(x < 100)" in src


def test_message_is_lazy_and_behaviour_matches():
    CALLS.clear()
    assert_equivalent(checked, [(5,), (-1,), (200,)])
    assert CALLS == [-1, -1]  # evaluated only when the assert fails (once per run)


def _written_by_message(out):
    out[0] = -1.0
    return "failed"


def staged_assert_messages(w, out):
    # a staged test's message is computed on the runs where it fails only: on the others
    # it would index what is not there (`w[w < 0][0]`) or write `out`
    assert np.all(w >= 0), f"negative weight {w[w < 0][0]}"
    assert w[0] < 10.0, _written_by_message(out)
    for i in range(len(w)):
        assert w[i] < 5.0, f"{w[i]} then {w[i + 1]}"
    return w / np.sum(w)


def test_a_staged_assert_computes_its_message_only_when_it_fails():
    calls = [(np.array([1.0, 2.0]), np.zeros(1)), (np.array([1.0, -2.0, 4.0]), np.zeros(1)),
             (np.array([3.0, 2.0, 1.0]), np.zeros(1)), (np.array([12.0, 2.0]), np.zeros(1)),
             (np.array([1.0, 7.0]), np.zeros(1))]
    errors = []
    agree(staged_assert_messages, calls=calls, errors=errors)
    by_call = {tuple(args[0]): m for _, args, m in errors}
    line = _line("negative weight")
    assert by_call[(1.0, -2.0, 4.0)] == f"negative weight -2.0 (at {__file__}:{line})"
    assert "index 2 is out of bounds" in by_call[(1.0, 7.0)], errors
    assert set(by_call) == {(1.0, -2.0, 4.0), (12.0, 2.0), (1.0, 7.0)}, errors


def _line(text):
    with open(__file__) as f:
        return next(i for i, line in enumerate(f, 1) if text in line and "assert" in line)


def container_messages(x):
    assert x.sum() > 0, (x[0], "low")           # a tuple of traced values, made on failure
    if x[0] > 5.0:
        raise ValueError([x[0], x[1]], "high")
    return x


def test_a_message_holding_traced_values_in_a_container_is_that_run_s():
    # (it printed the tensors' symbolic reprs, `<ag.Tensor symbolic ...>`)
    errors = []
    agree(container_messages, calls=[(np.array([-1.0, -3.0]),), (np.array([7.0, 2.0]),),
                                     (np.array([1.0, 2.0]),)], errors=errors)
    texts = {m.split(" (at")[0] for _, _, m in errors}
    assert texts == {"(np.float64(-1.0), 'low')",
                     "([np.float64(7.0), np.float64(2.0)], 'high')"}, errors


def message_of_a_loop_variable(x, n):
    if x[0] > 0:                                # staged: `i` is set in this branch only
        for i in range(n):
            assert x[i] < 10.0, f"too big at {i}: {x[i]}"
    return x * 2.0


def test_a_message_reading_a_loop_variable_does_not_keep_it_alive_after_the_if():
    # (the message's lambda counted as a closure that outlives the statement, so `i` was
    # live after the `if`: "'i' is set only in the true branch", random program 731)
    agree(message_of_a_loop_variable, calls=[(np.array([1.0, 2.0, 3.0]), np.int64(3)),
                                             (np.array([-1.0, 2.0]), np.int64(2)),
                                             (np.array([1.0, 20.0]), np.int64(2))])
