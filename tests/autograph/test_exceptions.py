"""exceptions: a `try` inside an if/loop gets a guard that rejects it when staged."""

import autograph_lite.autograph as autograph

from .conftest import assert_equivalent


def guarded(xs):
    s = 0
    for x in xs:
        try:
            s += 10 // x
        except ZeroDivisionError:
            s -= 1
    try:
        return s
    finally:
        s = 0


def test_shape():
    src = autograph.to_code(guarded)
    assert src.count("ag__.try_stmt_guard()") == 1  # only the one inside the loop


def test_behaviour():
    assert_equivalent(guarded, [([1, 0, 5],), ([],)])
