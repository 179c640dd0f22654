"""subscripts: `x[i] = v` rebinds `x` via `ag__.setitem` (so it can be staged)."""

import numpy as np

from autograph_lite.autograph.converters.subscripts import SubscriptTransformer

from .conftest import assert_equivalent, convert_only

GLOBAL = [0, 0]


def updates(n):
    out = np.zeros((n, n))
    out[0] = 1.0
    out[1:, 0] = 2.0
    out[n - 1, n - 1] += 5.0
    GLOBAL[0] = n
    return out


def list_aug(xs):
    ys = list(xs)
    ys[0] += [9]
    return ys, xs


def test_shape():
    src = convert_only(updates, SubscriptTransformer)
    assert "out = ag__.setitem(out, 0, 1.0, name='out')" in src
    assert "out = ag__.setitem(out, ag__.index[1:, 0], 2.0, name='out')" in src
    assert "out = ag__.setitem(out, (n - 1, n - 1), 5.0, '+=', name='out')" in src
    assert "GLOBAL[0] = n" in src  # a global is not rebound


def test_behaviour():
    assert_equivalent(updates, [(2,), (4,)])
    assert_equivalent(list_aug, [([[1], [2]],)])  # += keeps in-place semantics
