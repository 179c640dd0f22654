"""Multi-output loop nests (backends/emitter.py ``materialize_group``).

Elementwise values of one shape that are each needed as arrays (several uses, or
outputs) share one loop nest when their runtime sizes are provably equal. These tests
check the shape of the generated kernel and that the answers never change: static and
unknown sizes, broadcasting, and size mismatches that must still raise.
"""
import numpy as np
import pytest

import autograph_lite as ag
from differential import agree, assert_same


def _loops(src):
    return [ln.strip() for ln in src.splitlines() if ln.strip().startswith("for ")]


def newton_step_pair(x, a):
    d = (x * x - a) / (2.0 * x)
    return x - d, d


def test_newton_step_is_one_pass_with_two_outputs():
    x = np.linspace(1.0, 4.0, 7)
    a = np.full(7, 2.0)
    agree(newton_step_pair, x, a, autograph=False)
    src = ag.defun(newton_step_pair, autograph=False).get_concrete_function(x, a).source
    assert len(_loops(src)) == 1, src


def siblings(x, y):
    s = x * y
    return s + 1.0, s * s, x - y


def test_independent_outputs_of_one_shape_share_a_nest():
    x = np.arange(12.0).reshape(3, 4)
    y = np.linspace(-1, 1, 4)  # broadcast along rows
    agree(siblings, x, y, autograph=False)
    src = ag.defun(siblings, autograph=False).get_concrete_function(x, y).source
    assert len(_loops(src)) == 2, src  # one 2-deep nest for three outputs


def chained_unknown(x, y):
    d = x * 2.0
    e = y + d   # sizes agree only at run time (or y broadcasts)
    return d, e


CHAINED = {b: ag.defun(chained_unknown, autograph=False, backend=b,
                       input_signature=[ag.TensorSpec([None], np.float64)] * 2)
           for b in ("interpreter", "cpu")}


@pytest.mark.parametrize("n_y", [5, 1])
def test_unknown_sizes_fuse_only_when_provably_equal(n_y):
    x = np.arange(5.0)
    y = np.arange(n_y) + 0.5
    agree(chained_unknown, x, y, functions=CHAINED)


def test_unknown_size_mismatch_still_raises():
    x, y = np.arange(5.0), np.arange(3.0)
    with pytest.raises(ValueError):
        chained_unknown(x, y)
    agree(chained_unknown, x, y, functions=CHAINED)  # the same exception type


def mixed_dtypes(x, i):
    f = x * 0.5
    k = i * 3
    return f + 1.0, k - 1, f > 1.0


def test_members_keep_their_own_dtypes():
    x = np.arange(6.0)
    i = np.arange(6, dtype=np.int32)
    out = agree(mixed_dtypes, x, i, autograph=False)["cpu"]
    assert [t.dtype for t in out] == [np.float64, np.int32, np.bool_]


# --- results written into buffers nothing needs any more ------------------------------

def relax(x0, target):
    def cond(x, d):
        return np.max(np.abs(d)) > 1e-9

    def body(x, d):
        d = 0.5 * (x - target)
        return x - d, d
    x, _ = ag.while_loop(cond, body, (x0, np.ones_like(x0)))
    return x


def test_loop_updates_in_place_without_touching_the_callers_array():
    x0 = np.linspace(0.0, 3.0, 6)
    keep = x0.copy()
    target = np.full(6, 2.0)
    out = agree(relax, x0, target, autograph=False)["cpu"]
    np.testing.assert_allclose(out.numpy(), target, atol=1e-8)
    assert np.array_equal(x0, keep)  # the loop's buffer is a copy made once at entry
    src = ag.defun(relax, autograph=False).get_concrete_function(x0, target).source
    body = src[src.index("while True:"):]
    assert "rt.empty" not in body, src  # no allocation per trip
    assert "rt.copy(x0)" in src, src
    # the same from a strided view of the caller's array (rt.copy's element loop)
    big = np.linspace(0.0, 3.0, 12)
    keep = big.copy()
    out = agree(relax, big[::2], target, autograph=False)["cpu"]
    np.testing.assert_allclose(out.numpy(), target, atol=1e-8)
    assert np.array_equal(big, keep)


def adds_its_transpose(a):
    x = a * 2.0
    s = np.sum(x)
    return x + x.T + s  # x is dead after this, but x.T reads it at other indices


def test_no_in_place_write_through_a_view_of_an_input():
    a = np.arange(9.0).reshape(3, 3)
    agree(adds_its_transpose, a, autograph=False)


def shrink(x0):
    def cond(x, k):
        return k < 3

    def body(x, k):
        return x * 0.5 + 1.0, k + 1
    x, _ = ag.while_loop(cond, body, (x0, np.int64(0)))
    return x


SHRINK = ag.defun(shrink, autograph=False,
                  input_signature=[ag.TensorSpec([None, None], np.float64)])


@pytest.mark.parametrize("shape", [(2, 3), (1, 4), (0, 2)])
def test_unknown_sizes_reuse_buffers_only_after_a_run_time_check(shape):
    x0 = np.arange(float(np.prod(shape))).reshape(shape)
    keep = x0.copy()
    assert_same(SHRINK(x0), shrink(x0))
    assert np.array_equal(x0, keep)


# --- max/min into one scalar: branch-free select plus a NaN flag ------------------------

def extremes(x):
    return np.max(np.abs(x)), np.min(x * 2.0), np.max(x, axis=0)


@pytest.mark.parametrize("where", [None, 0, 5, 11])
def test_max_min_propagate_nan_like_numpy(where):
    x = np.linspace(-3.0, 2.0, 12).reshape(4, 3)
    if where is not None:
        x.flat[where] = np.nan
    agree(extremes, x, autograph=False)


@pytest.mark.parametrize("n", [1, 3, 4, 5, 8, 11])
@pytest.mark.parametrize("nan_at", [None, 0, -1, 2])
def test_four_lane_max_min_match_numpy_for_every_remainder(n, nan_at):
    x = np.linspace(-2.0, 3.0, n)[::-1].copy()
    if nan_at is not None and -n <= nan_at < n:
        x[nan_at] = np.nan
    agree(extremes_1d, x, autograph=False)
    agree(extremes_1d, x.astype(np.float32), autograph=False)


def extremes_1d(x):
    return np.max(np.abs(x)), np.min(x - 1.0)


def test_four_lane_reduction_of_nothing_raises_like_numpy():
    f = ag.defun(extremes_1d, autograph=False)
    with pytest.raises(ValueError, match="zero-size array"):
        f(np.zeros(0))


# --- a loop's test after its body: integer reductions join the body's loop nest ------

def count_newton(a):
    def cond(x, d):
        return np.sum(np.abs(d) > 1e-12) > 0  # how many elements still move

    def body(x, d):
        d = (x * x - a) / (2.0 * x)
        return x - d, d
    x, _ = ag.while_loop(cond, body, (a, np.ones_like(a)), maximum_iterations=60)
    return x


def test_counting_test_is_computed_in_the_body_pass():
    a = np.linspace(1.0, 50.0, 9)
    out = agree(count_newton, a, autograph=False)["cpu"]
    np.testing.assert_allclose(out.numpy(), np.sqrt(a), rtol=1e-12)
    src = ag.defun(count_newton, autograph=False).get_concrete_function(a).source
    loop = src[src.index("while "):]
    # one nest per trip: the body's outputs and the count for the next test
    assert len(_loops(loop)) == 1, src


def test_rotated_loop_runs_the_same_trips():
    calls = []

    def trips(x0, n):
        def cond(i, x):
            return np.sum(x > 0.5) > n

        def body(i, x):
            return i + 1, x * 0.5
        return ag.while_loop(cond, body, (np.int64(0), x0))

    x0 = np.linspace(1.0, 64.0, 10)
    for n in (np.int64(0), np.int64(3), np.int64(20)):
        want = trips(x0, n)
        got = ag.defun(trips, autograph=False)(x0, n)
        assert int(got[0]) == int(want[0])
        assert_same(got[1], want[1])
        calls.append(int(got[0]))
    assert calls[-1] == 0  # a test false from the start: zero trips


# --- a branch may hand back a caller's array: its buffer is not the kernel's to reuse ----

def cond_passes_argument(x):
    y = ag.cond(np.sum(x) > 0, lambda: x, lambda: x * 2.0)
    return y * 3.0 + 1.0  # y is dead here, but on one path it is the caller's x


def branch_passes_argument(x):
    if np.sum(x) > 0:
        y = x
    else:
        y = x * 2.0
    return y * 3.0 + 1.0


@pytest.mark.parametrize("fn", [cond_passes_argument, branch_passes_argument])
def test_a_branch_result_that_may_be_an_argument_is_not_overwritten(fn):
    agree(fn, calls=[(np.arange(4.0),), (-np.arange(4.0),)], autograph=fn is not
          cond_passes_argument)


def hands_back_an_argument(q, n):
    v = q * 1.0
    for i in range(n):
        v = v * 0.5 + 1.0  # the loop's own buffer, updated in place ...
        v = v if i % 2 == 0 else q  # ... until a branch hands the caller's q back into v
    return v


def test_a_loop_variable_a_branch_made_an_argument_is_not_updated_in_place():
    agree(hands_back_an_argument, np.arange(4.0), np.int64(5))
