"""variables: reads of possibly-unset names become `ag__.ld(x)` (UnboundLocalError)."""

import pytest

import autograph_lite.autograph as autograph

from .conftest import assert_equivalent


def maybe(c):
    if c:
        y = 1
    return y


def test_shape_and_error():
    src = autograph.to_code(maybe)
    assert "return ag__.ld(y)" in src
    assert "return (y,)" in src  # get_state reads it as is
    with pytest.raises(UnboundLocalError, match="'y'"):
        autograph.convert(maybe)(False)
    assert_equivalent(maybe, [(True,), (False,)])
