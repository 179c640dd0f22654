"""Several integer arrays in one index (``a[rows, cols]``, ``oh[np.arange(n), k] = 1``),
NumPy's placement of an array index's dims, and the functions built on flat positions:
``np.take_along_axis``, ``np.put_along_axis``, ``np.fill_diagonal``, ``np.add.at`` /
``np.subtract.at``. Each three ways (plain NumPy, interpreter, cpu; arguments after the
call compared), reads and writes, into arguments and through views; the errors NumPy
gives. (Their gradients: tests/gradients/test_grad_rules.py.)"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions

RNG = np.random.default_rng(7)
A3 = RNG.normal(size=(4, 5, 6))
R = np.array([0, 3, -1, 2])
C = np.array([1, 4, 0, -2])


def reads(a, r, c):
    return (a[r, c], a[r, :, c], a[:, r, c], a[r[:, None], c[None, :]], a[1:3, r, c],
            a[r, c, 0], a[r, 0, c], a[None, r, c], a[..., r % 5, c], a[r, c, 1:4:2],
            a[::-1, r, c + 1], a[r[1:2], c[1:2]])


def test_several_index_arrays_read_as_numpy():
    agree(reads, A3, R, C, exact=True)


def test_one_index_array_with_integers_takes_numpys_place():
    # NumPy puts the array's dims first when an integer separates it from... itself:
    # a[0, :, i] is (len(i), 5); Numba's result had this shape while the graph said (5, len)
    def f(a, i):
        b = a[None] * 1.0
        return (a[0, :, i], a[:, i, 0], a[i, :, 1], a[1, i, :], b[0, 0, :, i],
                b[:, 0, i, None, 2], a[0, :, i].T + 1.0)
    agree(f, A3, np.array([1, 0, 3, 3, 2]), exact=True)


def writes(a, r, c, v):
    a[r, c] = 7.0                          # rows and columns, a value broadcast
    a[r[:2], :, c[:2]] = v[:5]             # apart: the arrays' dims first
    a[1:, r[1:], c[1:]] += 1               # after a slice, augmented
    a[r[:, None], c[None, :2], 3] = -v[:2]  # broadcast index arrays
    return a.sum()


def test_several_index_arrays_write_into_the_argument():
    agree(writes, A3, R, C, np.arange(6.0))


def writes_with_new_axes(a, r, c, v):
    a[r, None, c] = v[:5]                    # None between the arrays: their dims first
    a[None, r[:2], c[:2]] += 1.0             # None before them
    a[r[2:], c[2:], None] = -v[:1]           # None after them, a value broadcast
    np.add.at(a, (None, r, c), 2.0)          # unbuffered, repeated positions included
    return a.sum()


def mismatched_write(a, r):
    a[r, None, r] = np.ones((2, 3))


def test_several_index_arrays_with_new_axes_write_into_the_argument():
    agree(writes_with_new_axes, A3, R, C, np.arange(6.0))
    raised = []  # (a value of the wrong shape: NumPy's ValueError on each side)
    agree(mismatched_write, calls=[(A3, R)] * 2, errors=raised)
    assert raised and all("shape mismatch" in m for *_, m in raised), raised


def test_a_repeated_position_keeps_the_last_value_and_views_see_the_write():
    def f(m, r, c):
        t = m.T                  # a write through a transposed view reaches m
        t[c, r] = np.arange(4.0)
        w = m[1:]
        m[r, c] += 10            # repeated (r, c) pairs: += adds once, as NumPy
        return w.copy(), m[r, c]
    agree(f, np.zeros((4, 5)), np.array([1, 1, 2, 1]), np.array([3, 3, 0, 3]), exact=True)


def test_one_hot_and_a_staged_loop():
    def onehot(k, n):
        oh = np.zeros((k.shape[0], n), np.int32)
        oh[np.arange(k.shape[0]), k] = 1
        return oh

    def walk(g, steps):
        r, c = np.array([0, 1]), np.array([2, 3])
        for s in range(steps):
            g[r, c] += s
            r = (r + 1) % g.shape[0]
        return g
    agree(onehot, np.array([3, 0, 0, 2, 1]), 4, exact=True)
    agree(walk, np.zeros((3, 4)), np.int64(5), exact=True)



def lists_of_tensors(u, m, i, j, b):
    u[[0, 0, i]] += 1                        # a list holding a tensor: np.array of it
    m[[i, j], 1] = 9.0                       # beside an integer, written
    return (u[[i, 0, i]] * 2, m[[0, j], [i, 1]], u[[True, b, False, True]])


def test_lists_holding_tensors_index_as_the_arrays_numpy_makes_of_them():
    # before: TypeError (the list was handed to NumPy, which cannot convert a tensor)
    agree(lists_of_tensors, np.zeros(4), np.arange(12.0).reshape(3, 4), np.int64(2),
          np.int64(1), np.bool_(True), exact=True)
    raised = []  # (an index out of bounds: NumPy's IndexError on every side)
    agree(lists_of_tensors, calls=[(np.zeros(4), np.zeros((3, 4)), np.int64(7),
                                    np.int64(0), np.bool_(False))] * 2, errors=raised)
    assert raised and all("out of bounds" in m for *_, m in raised), raised

RELAXED = shared_functions(lambda a, r, c: a[r, c])


@pytest.mark.parametrize("n", [2, 3, 5])
def test_sizes_known_only_at_run_time(n):
    a = np.arange(30.0).reshape(5, 6)
    agree(lambda a, r, c: a[r, c], a, np.arange(n) % 5, (np.arange(n) * 4) % 6,
          functions=RELAXED, exact=True)


def test_errors_are_numpys_at_the_users_line():
    errors = []
    a = np.arange(20.0).reshape(4, 5)

    def read(a, r, c):
        return a[r, c]

    def write(a, r, c, v):
        a[r, c] = v

    for args in [(a, np.array([0, 4]), np.array([0, 1])),      # past the end of axis 0
                 (a, np.array([0, 1]), np.array([0, -6])),     # before the start of axis 1
                 (a, np.array([0, 1, 2]), np.array([0, 1]))]:  # arrays that do not broadcast
        agree(read, *args, errors=errors)
        agree(write, *args, 1.0, errors=errors)
    agree(write, a, np.array([0, 1]), np.array([0, 1]), np.ones(3), errors=errors)
    messages = {m.split(" (at")[0] for _, _, m in errors}
    assert messages >= {"index 4 is out of bounds for axis 0 with size 4",
                        "index -6 is out of bounds for axis 1 with size 5"}, messages
    assert any(m.startswith("shape mismatch: indexing arrays could not be broadcast")
               for m in messages), messages
    assert any(m.startswith("shape mismatch: value array of shape (3,)") for m in messages)
    assert all("test_advanced_index.py" in m for _, _, m in errors), errors


PROPERTY = shared_functions(
    lambda a, i, j: (a[i, j], a[i, :, j % a.shape[2]], a[:, i % a.shape[1], i % a.shape[2]]))


@given(st.data())
def test_property_two_arrays_and_a_slice(data):
    shape = data.draw(st.tuples(*[st.integers(1, 4)] * 3))
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    m = data.draw(st.integers(1, 4))
    idx = [np.array(data.draw(st.lists(st.integers(-n, n - 1), min_size=m, max_size=m)))
           for n in shape[:2]]
    agree(lambda a, i, j: (a[i, j], a[i, :, j % a.shape[2]], a[:, i % a.shape[1], i % a.shape[2]]),
          a, *idx, functions=PROPERTY, exact=True)


# -- take_along_axis / put_along_axis --------------------------------------------------------
def test_take_along_axis():
    def f(a, i, i0):
        order = np.argsort(a, axis=1)
        return (np.take_along_axis(a, order, axis=1), np.take_along_axis(a, i, axis=-1),
                np.take_along_axis(a, i0, axis=0), np.take_along_axis(a, i[:, :1], 1),
                np.take_along_axis(a, i0[0], axis=None))
    a = RNG.normal(size=(4, 5))
    agree(f, a, RNG.integers(-5, 5, size=(4, 3)), RNG.integers(0, 4, size=(2, 5)), exact=True)


def test_put_along_axis_writes_the_argument():
    def f(a, i, v):
        np.put_along_axis(a, i, v, axis=1)
        np.put_along_axis(a, np.array([[1, 0, 3, 3, -1]]), -1.0, axis=0)
        b = a[::2]
        np.put_along_axis(b, np.array([[0], [1]]), 9.0, axis=1)
        return a
    agree(f, np.zeros((4, 5)), RNG.integers(0, 5, size=(4, 2)), np.arange(8.0).reshape(4, 2))

    def flat(a, i):
        np.put_along_axis(a, i, 5, axis=None)
    agree(flat, np.zeros((2, 3), np.int32), np.array([0, 5, -2]))


def test_along_axis_errors():
    errors = []
    agree(lambda a, i: np.take_along_axis(a, i, axis=1), np.ones((2, 3)), np.array([0, 1]),
          errors=errors)
    agree(lambda a, i: np.take_along_axis(a, i, axis=None), np.ones((2, 3)),
          np.zeros((1, 1), np.int64), errors=errors)
    agree(lambda a, i: np.take_along_axis(a, i, axis=1), np.ones((2, 3)),
          np.array([[0.5]]), errors=errors)
    assert len(errors) == 12, errors  # (each: two calls on two backends)


# -- fill_diagonal -------------------------------------------------------------------------
def test_fill_diagonal():
    def f(sq, tall, wide, cube, v):
        np.fill_diagonal(sq, 7)
        np.fill_diagonal(tall, v, wrap=True)   # every 4th row after the first diagonal
        np.fill_diagonal(wide, v)              # an array value repeats along the diagonal
        np.fill_diagonal(cube, 2.9)            # cast as NumPy casts: to 2
        np.fill_diagonal(sq[::2, ::2], -1)     # through a strided view
    agree(f, np.zeros((5, 5)), np.zeros((7, 3)), np.zeros((3, 5)),
          np.zeros((3, 3, 3), np.int32), np.array([1.0, 2.0]))


def test_fill_diagonal_in_a_distance_matrix():
    def knn(x):
        d = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
        np.fill_diagonal(d, np.inf)
        return np.argsort(d, axis=1)[:, :2], d.min(axis=1)
    agree(knn, RNG.normal(size=(6, 2)))


def test_fill_diagonal_errors():
    errors = []
    agree(lambda a: np.fill_diagonal(a, 1), np.zeros(3), errors=errors)
    agree(lambda a: np.fill_diagonal(a, 1), np.zeros((2, 2, 3)), errors=errors)
    assert len(errors) == 8, errors


# -- add.at / subtract.at --------------------------------------------------------------------
def test_add_at():
    def f(a, i, b, g, r, c, h):
        np.add.at(a, i, b)                     # repeated and negative positions add up
        np.subtract.at(a, i[:2], 1)
        np.add.at(g, (r, c), 1)                # a 2-D histogram
        np.add.at(g, (slice(None), c[:2]), h)  # a slice and an array
        np.add.at(g[1:], 0, 5)                 # through a view, no array: g[1] += 5
        return a, g
    agree(f, np.zeros(5), np.array([0, 1, 1, 4, -1]), np.arange(5.0),
          np.zeros((3, 4), np.int64), np.array([0, 0, 2, 0]), np.array([1, 1, 3, 1]),
          np.array([[1], [2], [3]]), exact=True)


def test_add_at_rows_float32_and_a_loop():
    def f(acc, rows, x):
        for k in range(x.shape[0] // 2):
            np.add.at(acc, rows[k:k + 2], x[k:k + 2])
        return acc
    agree(f, np.zeros((3, 2), np.float32), np.array([0, 2, 2, 1, 0]),
          RNG.normal(size=(5, 2)))


def test_add_at_casts_as_numpy_and_checks_bounds():
    errors = []
    agree(lambda a, i: np.add.at(a, i, np.array([1.5, -0.5, 2.7])), np.ones(3, np.int64),
          np.array([0, 1, 1]), exact=True)  # the sum cast back however it loses
    agree(lambda a, i: np.add.at(a, i, 1.0), np.zeros(3), np.array([3]), errors=errors)
    assert len(errors) == 4, errors
    assert all("index 3 is out of bounds for axis 0 with size 3" in m for _, _, m in errors)


def segment_extremes(vals, seg, n, a, r, c):
    hi, lo, prod = np.full(n, -np.inf), np.full(n, np.inf), np.ones(n)
    np.maximum.at(hi, seg, vals)               # NaN propagates, as np.maximum's
    np.minimum.at(lo, seg, vals)
    np.multiply.at(prod, seg, vals)
    np.fmax.at(a, (r, c), 7)                   # int into int8: cast back
    np.minimum.at(a, r, np.int16(-300))        # wraps, as NumPy's unsafe cast
    return hi, lo, prod, a


def test_maximum_minimum_multiply_at_as_numpys():
    """(session 47: only add/subtract.at were staged; the combination is the ufunc's own
    scalar form, cast back into the array's dtype as NumPy's unbuffered loop does)"""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # (NumPy's on NaN)
        agree(segment_extremes,
              calls=[(np.array([1.0, 5.0, np.nan, -2.0]), np.array([0, 0, 1, 2]), 3,
                      np.zeros((2, 3), np.int8), np.array([0, 1, 0]), np.array([2, 2, 2])),
                     (np.array([3.0, -1.0]), np.array([1, -1]), 3, np.ones((2, 3), np.int8),
                      np.array([1]), np.array([0]))], exact=True)


def gradient_through_maximum_at(x):
    out = np.zeros(2)
    np.maximum.at(out, np.array([0, 0, 1]), x)
    return ag.gradients(np.sum(out), [x])[0]


def test_the_gradient_of_maximum_at_is_refused():
    with pytest.raises(NotImplementedError, match="gradient of np.maximum.at"):
        ag.defun(gradient_through_maximum_at, backend="interpreter")(np.ones(3))


def test_add_at_a_mask_and_ix_cross_products():
    """A mask in np.add.at selects as indexing does (its positions; refused before session
    46), and np.ix_ of traced index arrays (and masks) makes the open mesh."""
    def f(x, m, a, r, c):
        np.add.at(x, m, 1)
        np.add.at(a, (m[:3], c[:2]), 2.0)
        block = a[np.ix_(r, c)]
        a[np.ix_(r[:1], c)] = 0.0
        return x, block, a[np.ix_(m[:3], m[:4])].sum()
    agree(f, np.zeros(5), np.array([True, False, True, True, False]),
          np.arange(12.0).reshape(3, 4), np.array([0, 2]), np.array([1, 3]), exact=True)


def test_numpy_arrays_made_while_tracing_take_tensor_writes():
    # NumPy dispatches np.add.at and np.fill_diagonal on the written array alone
    def f(i, j, v):
        counts = np.zeros((3, 3), np.int64)
        np.add.at(counts, (i, j), 1)
        d = np.zeros((3, 3))
        np.fill_diagonal(d, v.sum())
        return counts, d
    agree(f, np.array([0, 2, 2]), np.array([1, 1, 1]), np.arange(3.0))


# -- boolean masks over some of the axes: NumPy's nonzero coordinates ---------------------------
def test_a_mask_over_the_first_axes_reads_and_writes():
    def recolor(img):
        bright = img.sum(axis=2) > 380          # (H, W) over an (H, W, 3) image
        out = img.copy()
        out[bright] = [255, 0, 0]
        return out, img[bright], img[..., 0][bright], img[:, img[0] > 100]

    def bump(a, m):
        a[m] += 1.5
        b = a[1:]
        b[m[1:]] *= 2.0                         # through a view of the argument
        return a[m]
    agree(recolor, RNG.integers(0, 255, size=(4, 5, 3)).astype(np.uint8), exact=True)
    agree(bump, RNG.normal(size=(3, 4, 2)), RNG.random((3, 4)) > 0.5)


MASKED = shared_functions(lambda a, m: a[m].sum(axis=0))


@pytest.mark.parametrize("shape", [(3, 4), (5, 2)])
def test_a_mask_over_the_first_axes_with_sizes_known_at_run_time(shape):
    a = RNG.normal(size=shape + (2,))
    agree(lambda a, m: a[m].sum(axis=0), a, RNG.random(shape) > 0.4, functions=MASKED)


def test_a_mask_that_does_not_cover_its_axes_is_numpys_index_error():
    errors = []
    agree(lambda a, m: a[m], np.zeros((3, 4, 2)), np.ones((3, 3), bool), errors=errors)
    agree(lambda a, m: a[m].sum(axis=0), np.zeros((3, 4, 2)), np.ones((3, 3), bool),
          errors=errors, functions=MASKED)  # (relaxed sizes: checked when the call runs)
    assert len(errors) == 8
    assert all("boolean index did not match indexed array along axis 1" in m
               for _, _, m in errors), errors


ADD_AT = shared_functions(lambda a, i, j, b: (np.add.at(a, (i, j), b), a)[1])
ALONG = shared_functions(lambda a, k: np.take_along_axis(a, k, axis=1))


@given(st.data())
def test_property_add_at_repeats_and_take_along_axis(data):
    rows, cols = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    m = data.draw(st.integers(1, 9))
    i = np.array(data.draw(st.lists(st.integers(-rows, rows - 1), min_size=m, max_size=m)))
    j = np.array(data.draw(st.lists(st.integers(-cols, cols - 1), min_size=m, max_size=m)))
    b = np.array(data.draw(st.lists(st.floats(-4, 4, width=32), min_size=m, max_size=m)))
    a = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols)
    agree(lambda a, i, j, b: (np.add.at(a, (i, j), b), a)[1], a, i, j, b, functions=ADD_AT,
          exact=True)  # (every position's values added in index order, as NumPy's)
    k = np.array(data.draw(st.lists(st.integers(-cols, cols - 1), min_size=rows * 2,
                                    max_size=rows * 2))).reshape(rows, 2)
    agree(lambda a, k: np.take_along_axis(a, k, axis=1), a, k, functions=ALONG, exact=True)
