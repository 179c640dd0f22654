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


SHARED = []


def appends_to_module_list_with_a_same_named_comprehension_variable(n):
    for i in range(n):
        SHARED.append(i)  # the module's list: appended in place, never rebound
    return [SHARED for SHARED in range(2)]  # a comprehension's own SHARED, not a local


def test_a_comprehension_variable_is_not_a_local_of_the_function():
    src = convert_only(appends_to_module_list_with_a_same_named_comprehension_variable,
                       ListTransformer)
    assert "SHARED.append(i)" in src and "list_append" not in src
    SHARED.clear()
    assert_equivalent(appends_to_module_list_with_a_same_named_comprehension_variable,
                      [(3,)])
    assert SHARED == [0, 1, 2] * 4  # two calls each, plain and converted, all appended
