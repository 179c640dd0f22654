"""autograph_lite/contiguity.py claims "C-contiguous on every run" only where NumPy
guarantees it: a claim NumPy breaks would make a copy a view (a silent wrong answer).
These check the claims against NumPy itself."""
import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autograph_lite import contiguity
from autograph_lite.ops.indexing import encode_index

SHAPES = [(3, 4), (3, 1), (1, 4), (4,), (2, 3, 4), (2, 1, 4), (0, 4), (1, 1)]


def _slice(draw, n):
    start = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
    stop = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
    step = draw(st.sampled_from([None, 1, 1, 2, -1, 3]))
    return slice(start, stop, step)


@st.composite
def basic_indices(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    index = []
    for n in shape[:draw(st.integers(0, len(shape)))]:
        kind = draw(st.sampled_from(["int", "slice", "full", "new"]))
        if kind == "int":
            index.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            index.append(_slice(draw, n))
        elif kind == "full":
            index.append(slice(None))
        else:
            index += [None, slice(None)]
    if draw(st.booleans()) and index:
        index.insert(draw(st.integers(0, len(index))), Ellipsis)
    return shape, tuple(index)


@settings(max_examples=400, deadline=None)
@given(basic_indices())
def test_a_block_claimed_c_contiguous_is_c_contiguous_in_numpy(case):
    shape, index = case
    x = np.zeros(shape)
    try:
        view = x[index]
    except IndexError:
        return
    spec, _ = encode_index(index)
    if view.ndim and contiguity._selects_one_block(spec, x.ndim):
        assert view.flags.c_contiguous, (shape, index)


def test_claimed_blocks_include_the_common_ones():
    for index in [(1,), (slice(1, 3),), (1, slice(0, 2)), (Ellipsis,), ()]:
        assert contiguity._selects_one_block(encode_index(index)[0], 2), index
    for index in [(slice(None), slice(1, 3)), (slice(None, None, 2),), (Ellipsis, 0)]:
        assert not contiguity._selects_one_block(encode_index(index)[0], 2), index


# The facts behind layout="inputs" (ops/registry.py): with every array input C-contiguous,
# NumPy's result is C-contiguous, broadcasting and axes included.
def _results(a, b):
    yield a + b
    yield np.where(a > 0, a, b)
    yield np.clip(a, 0, 1)
    yield a.astype(np.float32)
    yield np.copy(a)
    for axis in range(a.ndim):
        for reduce in (np.sum, np.max, np.mean, np.prod, np.argmax, np.all, np.cumsum):
            if a.size or reduce in (np.sum, np.prod, np.all, np.cumsum):
                yield reduce(a, axis=axis)
        yield np.concatenate([a, a], axis=axis)
        yield np.stack([a, a], axis=axis)
    if a.ndim >= 2:
        yield a @ np.swapaxes(a, -1, -2).copy()


def test_numpy_results_of_c_contiguous_inputs_are_c_contiguous():
    for s1, s2 in itertools.product(SHAPES, SHAPES):
        a, b = np.ones(s1), np.ones(s2)
        try:
            np.broadcast_shapes(s1, s2)
        except ValueError:
            continue
        for r in _results(a, b):
            assert np.asarray(r).flags.c_contiguous, (s1, s2)
