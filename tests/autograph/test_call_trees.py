"""call_trees: calls become `ag__.converted_call(f, args, kwargs)`."""

from autograph_lite.autograph.converters.call_trees import CallTreeTransformer

from .conftest import assert_equivalent, convert_only


def helper(a, b=2, *rest, c=3, **kw):
    return a + b + c + len(rest) + len(kw)


def calls(x):
    args = (1, 2)
    kw = {"d": 4}
    return helper(x) + helper(x, *args, c=1, **kw)


def frame_builtins():
    return locals()


def test_shape():
    src = convert_only(calls, CallTreeTransformer)
    assert "ag__.converted_call(helper, (x,), None)" in src
    assert "ag__.converted_call(helper, (x, *args), {'c': 1, **kw})" in src
    src = convert_only(frame_builtins, CallTreeTransformer)
    assert "return locals()" in src  # builtins that read the caller's frame stay direct


def test_behaviour():
    assert_equivalent(calls, [(1,), (10,)])
