"""directives: `set_loop_options` as a loop's first statement becomes loop options."""

import autograph_lite.autograph as autograph
from autograph_lite.autograph.converters.directives import DirectivesTransformer

from .conftest import assert_equivalent, convert_only


def with_options(n):
    s = 0
    i = 0
    while i < n:
        autograph.set_loop_options(maximum_iterations=100)
        s += i
        i += 1
    return s


def test_directive_is_removed_and_kept_as_option():
    src = convert_only(with_options, DirectivesTransformer)
    assert "set_loop_options" not in src
    assert "{'maximum_iterations': 100}" in autograph.to_code(with_options)


def test_behaviour():
    assert_equivalent(with_options, [(0,), (5,)])
