"""lists: `l.append(x)` in a loop rebinds `l` via `ag__.list_append`."""

from autograph_lite.autograph.converters.lists import ListTransformer

from .conftest import assert_equivalent, convert_only


def squares(n):
    out = []
    out.append(-1)
    for i in range(n):
        out.append(i * i)
    return out


def aliasing(n):
    a = []
    b = a
    for i in range(n):
        a.append(i)
    return b


def test_only_loop_appends_are_rewritten():
    src = convert_only(squares, ListTransformer)
    assert "out.append(-1)" in src
    assert "out = ag__.list_append(out, i * i)" in src


def test_behaviour_keeps_list_identity():
    assert_equivalent(squares, [(0,), (4,)])
    assert_equivalent(aliasing, [(3,)])
