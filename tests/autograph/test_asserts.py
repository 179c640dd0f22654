"""asserts: `assert` becomes `ag__.assert_stmt` with a lazy message."""

from autograph_lite.autograph.converters.asserts import AssertTransformer

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
