"""conditional_expressions: `a if c else b` becomes `ag__.if_exp` with lazy branches."""

from autograph_lite.autograph.converters.conditional_expressions import (
    ConditionalExpressionTransformer)

from .conftest import assert_equivalent, convert_only


def clamp(x):
    return 0 if x < 0 else (10 if x > 10 else x)


def lazy(xs):
    return xs[0] if xs else None


def test_shape():
    src = convert_only(clamp, ConditionalExpressionTransformer)
    assert "ag__.if_exp(x < 0, lambda: 0, lambda: ag__.if_exp(x > 10, lambda: 10, lambda: x))" \
        in src


def test_behaviour():
    assert_equivalent(clamp, [(-5,), (5,), (50,)])
    assert_equivalent(lazy, [([],), ([3],)])
