"""np.vectorize on tensors (numpy_vectorize.py): the function, converted by AutoGraph,
applied to every element of the broadcast arguments as one kernel, with NumPy's rules for
outputs and dtypes. Before: TypeError (NumPy's vectorize converted the symbolic tensor)."""
import numpy as np
import pytest

import autograph_lite as ag

from .three_way import agree

X = np.array([0.3, -1.2, 2.5, 0.0, 4.1, -0.7])
Y = np.array([1.0, 2.0, -3.0, 0.5, 0.25, 7.0])


def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@np.vectorize
def clipped_below(a, lo):
    if a < lo:
        return lo
    return a


def uses(x, y, ns):
    return (np.vectorize(lambda a, b: a if a > b else b)(x, y),  # a lambda with a branch
            np.vectorize(collatz_steps)(ns),                      # a while loop per element
            clipped_below(x, 0.0), clipped_below(x[:, None], y[None, :3]),  # broadcast
            np.vectorize(lambda a: (a * 2, a > 0))(x),            # a tuple: two outputs
            np.vectorize(lambda a: a * 2.7, otypes=[np.int32])(ns),  # cast to otypes
            np.vectorize(lambda a, b: a * b)(x[0], 3.0),          # 0-d: a 0-d array
            np.vectorize(lambda a: a * 2, otypes=[float])(x[:0]))  # empty with otypes


def test_agrees_with_numpy():
    agree(uses, [(X, Y, np.arange(1, 30)), (Y, X, np.arange(7, 11))])


def path_dependent(x):
    return np.vectorize(lambda a: 0 if a < 0 else a)(x)


def test_a_dtype_that_depends_on_the_path_needs_otypes():
    # NumPy: int64 when the first element is negative (the floats truncated), else
    # float64; a compiled function has one dtype, so it refuses and says what to pass
    with pytest.raises(NotImplementedError, match=r"depends on the path it takes .* pass "
                                                  r"otypes="):
        ag.defun(path_dependent)(X)
    fixed = ag.defun(lambda x: np.vectorize(lambda a: 0 if a < 0 else a, otypes=[float])(x))
    np.testing.assert_array_equal(fixed(X).numpy(), np.maximum(X, 0.0))


def empty(x):
    return np.vectorize(lambda a: a * 2)(x)


def test_size_0_without_otypes_is_numpys_error():
    raised = agree(empty, [(X[:0],), (X[:0].copy(),)])
    assert raised and all("size 0 inputs unless `otypes`" in m for *_, m in raised), raised


def positive_sum(r):
    s = 0.0
    for v in r:             # a staged loop with a branch, per slice
        if v > 0:
            s += v
    return s


def along_axis(m, a3):
    return (np.apply_along_axis(np.sum, 1, m), np.apply_along_axis(positive_sum, 0, m),
            np.apply_along_axis(lambda r: (r.sum(), r.max()), 1, m),   # a tuple: stacked
            np.apply_along_axis(lambda r: r[:2] * 2, 0, m),            # dims at the axis
            np.apply_along_axis(lambda r: np.outer(r, r), 1, m),
            np.apply_along_axis(lambda r: r[:2], 1, a3),
            np.apply_along_axis(lambda r, k: r.sum() * k, 1, m, 2.0))  # extra arguments


def no_rows(m):
    return np.apply_along_axis(np.sum, 1, m[:0])


def test_apply_along_axis_agrees_with_numpy():
    # before: "no staged counterpart"
    m = np.arange(12.0).reshape(3, 4) - 5.0
    agree(along_axis, [(m, np.arange(24.0).reshape(2, 3, 4)),
                       (-m, np.arange(24.0).reshape(2, 3, 4) % 5)])
    raised = agree(no_rows, [(m,), (m * 2,)])
    assert raised and all("iteration dimensions are 0" in msg for *_, msg in raised), raised
    with pytest.raises(NotImplementedError, match="depends on the path it takes"):
        ag.defun(lambda m: np.apply_along_axis(lambda r: 0 if r[0] < 0 else r[0], 1, m))(m)


def noisy(a):
    print("at", a)
    return a * 2


def prints_in_vectorize(x):
    return np.vectorize(noisy)(x), np.vectorize(noisy, otypes=[float])(x[:2])


def test_the_first_element_is_called_twice_without_otypes_as_numpy_does():
    # NumPy calls f on the first element once more, first, to learn the dtypes: its print
    # shows twice (once with otypes given); a pure f's extra call is dead code
    agree(prints_in_vectorize, [(np.array([1.0, 2.0, 3.0]),), (np.array([-1.0, 0.5, 4.0]),)])
