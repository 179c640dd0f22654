"""logical_expressions: and/or/not become lazy `ag__.and_/or_/not_` calls."""

from autograph_lite.autograph.converters.logical_expressions import (
    LogicalExpressionTransformer)

from .conftest import assert_equivalent, convert_only


def logic(a, b, c):
    return (a and b or c, not a, a < b <= c, a < len([b]) < c)


def test_shape():
    src = convert_only(logic, LogicalExpressionTransformer)
    assert "ag__.or_(lambda: ag__.and_(lambda: a, lambda: b), lambda: c)" in src
    assert "ag__.not_(a)" in src
    assert "ag__.and_(lambda: a < b, lambda: b <= c)" in src
    assert "a < len([b]) < c" in src  # a call in the middle is not evaluated twice


def test_behaviour():
    assert_equivalent(logic, [(0, 1, 2), (1, 0, 2), (1, 2, 3), (3, 2, 1), ("", "x", 0)])
