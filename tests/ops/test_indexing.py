"""getitem (ints, negative, steps, None, Ellipsis, tensor scalars, int-array gather,
1-D bool masks) and the functional setitem, against NumPy itself (ag.gather/ag.setitem
compared with NumPy indexing on a copy), every rank <= 3, contiguous and strided."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree
from ops_strategies import RANKS, Explored, arrays, examples, layouts, shapes


def _agree(f, *args, **kw):
    return agree(f, *args, autograph=False, independent=True, **kw)


def np_setitem(x, index, value):
    """The oracle of the functional ag.setitem: NumPy's assignment on a copy."""
    y = np.array(x, copy=True)
    y[index] = value
    return y


@st.composite
def basic_index(draw, shape):
    """A NumPy basic index for ``shape``: ints (maybe negative), slices with steps, None,
    Ellipsis."""
    parts, dims = [], list(shape)
    use_ellipsis = draw(st.booleans())
    for k, n in enumerate(dims):
        if use_ellipsis and k == len(dims) - 1 and draw(st.booleans()):
            parts.append(Ellipsis)
            break
        kind = draw(st.sampled_from(["int", "slice", "slice", "none"] if n else ["slice"]))
        if kind == "none":
            parts.append(None)
            kind = "slice"
        if kind == "int":
            parts.append(draw(st.integers(-n, n - 1)))
        else:
            lo = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
            hi = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
            step = draw(st.sampled_from([None, 1, 2, -1, -2]))
            parts.append(slice(lo, hi, step))
    return tuple(parts)


def test_basic_getitem():
    explored = Explored(rank=RANKS[1:])

    @examples(15)
    @given(st.data())
    def check(data):
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS[1:]))))
        x = data.draw(arrays(np.float64, shape))
        idx = data.draw(basic_index(shape))
        explored.note(rank=len(shape))
        _agree(lambda x, y: (x[idx], x[idx] * 2.0, y[idx] + 1), *layouts(x))
    check()
    explored.check()


def test_getitem_forms():
    x = np.arange(24.0).reshape(2, 3, 4) - 7
    _agree(lambda x: (x[-1], x[-1, -2, -3], x[:, 1:, ::-2], x[None], x[:, None, 1],
                      x[..., 1], x[..., None], x[0, ..., 1], x[::-1, ::2], x[1][2][3]), x)
    a = np.arange(6, dtype=np.int32)
    _agree(lambda a: (a[::2], a[::-1], a[-2:0:-2], a[10:], a[-100:2], a[1] * 3), a)


@given(st.data())
def test_tensor_scalar_index(data):
    n = data.draw(st.integers(1, 5))
    x = data.draw(arrays(np.float32, (n, 3)))
    i = np.int64(data.draw(st.integers(-n, n - 1)))
    j = np.int32(data.draw(st.integers(-n, n)))

    def f(x, i, j):
        return x[i], x[i, -1], x[j:], x[:j:2], x[i] * 2.5
    _agree(f, x, i, j)


def test_tensor_index_out_of_bounds_raises():
    with pytest.raises(IndexError):
        np.arange(3.0)[np.int64(3)]
    _agree(lambda x, i: x[i], np.arange(3.0), np.int64(3))  # the same exception type
    _agree(lambda x, i: x[i], np.arange(3.0), np.int64(-4))


@given(st.data())
def test_gather(data):
    shape = data.draw(shapes(data.draw(st.sampled_from((1, 2))), min_side=1))
    x = data.draw(arrays(np.int64, shape))
    n = shape[0]
    idx = data.draw(arrays(np.int64, shapes(data.draw(st.sampled_from((1, 2)))), lo=-n,
                           hi=n - 1))

    def f(x, i):
        return x[i], x[i] + 1, ag.gather(x, i), x[np.array([0, -1])]

    def oracle(x, i):
        return x[i], x[i] + 1, np.take(x, i, axis=0), x[np.array([0, -1])]
    _agree(f, x, idx, oracle=oracle)


def test_gather_other_axis_and_int32_indices():
    x = np.arange(24.0).reshape(2, 3, 4)
    _agree(lambda x, i: (x[:, i], ag.gather(x, i, axis=2), x[[0, 1]]), x,
           np.array([0, 2, -1], np.int32),
           oracle=lambda x, i: (x[:, i], np.take(x, i, axis=2), x[[0, 1]]))


@given(st.data())
def test_bool_mask(data):
    n = data.draw(st.integers(0, 5))
    x = data.draw(arrays(np.float64, (n,)))
    m = data.draw(arrays(np.bool_, (n,)))
    rows = data.draw(arrays(np.int32, (n, 2)))

    def f(x, m, rows):
        return x[m], x[x > 0], rows[m], x[m] * 2.0
    _agree(f, x, m, rows)


def test_setitem_basic():
    explored = Explored(rank=RANKS[1:])

    @examples(15)
    @given(st.data())
    def check(data):
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS[1:]))))
        dt = data.draw(st.sampled_from([np.float64, np.int32, np.float32, np.bool_]))
        x = data.draw(arrays(dt, shape))
        idx = data.draw(basic_index(shape))
        explored.note(rank=len(shape))

        def f(x):
            y = ag.setitem(x, idx, 7)
            z = ag.setitem(y, idx, y[idx] * 2)
            return y, z, x  # x itself stays unchanged (functional update)

        def oracle(x):
            y = np_setitem(x, idx, 7)
            z = np_setitem(y, idx, y[idx] * 2)
            return y, z, x
        _agree(f, layouts(x)[-1], oracle=oracle)
    check()
    explored.check()


def test_setitem_forms():
    a = np.arange(6.0)
    x3 = np.arange(24.0).reshape(2, 3, 4)
    s = np_setitem
    _agree(lambda x: (ag.setitem(x, 1, 5.0), ag.setitem(x, -1, 5), x), a,
           oracle=lambda x: (s(x, 1, 5.0), s(x, -1, 5), x))
    _agree(lambda x, v: ag.setitem(x, slice(1, 3), v), a, np.array([9.0, 8.0]),
           oracle=lambda x, v: s(x, slice(1, 3), v))
    _agree(lambda x: (ag.setitem(x, (slice(None), 1), 0.5), ag.setitem(x, (Ellipsis, 0), -1.0),
                      ag.setitem(x, (1, None), np.ones((1, 4)))), x3,
           oracle=lambda x: (s(x, (slice(None), 1), 0.5), s(x, (Ellipsis, 0), -1.0),
                             s(x, (1, None), np.ones((1, 4)))))
    _agree(lambda x, v: ag.setitem(x, 0, v), x3[0], np.ones(4, np.float32),
           oracle=lambda x, v: s(x, 0, v))
    _agree(lambda x, i: ag.setitem(x, i, 3.0), a, np.int64(-2), oracle=lambda x, i: s(x, i, 3.0))
    _agree(lambda x, i, v: (ag.setitem(x, i, 0.0), ag.setitem(x, i, v)), a,
           np.array([0, 3]), np.array([7.0, 8.0]),
           oracle=lambda x, i, v: (s(x, i, 0.0), s(x, i, v)))
    _agree(lambda x: (ag.setitem(x, x > 2, 0.0), ag.setitem(x, slice(None, None, -2), -1.0)), a,
           oracle=lambda x: (s(x, x > 2, 0.0), s(x, slice(None, None, -2), -1.0)))
    _agree(lambda x: (ag.setitem(x, 0, 7), ag.setitem(x, 1, 7.9)), np.arange(3, dtype=np.int32),
           oracle=lambda x: (s(x, 0, 7), s(x, 1, 7.9)))
    _agree(lambda x: ag.setitem(x, (), 3.0), np.float64(1), oracle=lambda x: s(x, (), 3.0)[()])


# -- out-of-bounds array indices and masks of the wrong length raise NumPy's IndexError -------
# (Numba's array indexing does not check: it read past the array or used the shorter mask)
def gather_rows(x, i):
    return x[i] * 1.0


def scatter_rows(x, i):
    y = x.copy()
    y[i] = -1.0
    return y


def masked(x, m):
    return x[m] * 1.0


def masked_write(x, m):
    x[m] = 7.0  # (into the caller's array: NumPy checks before writing anything)
    return x.sum()


def first_row(x):
    return np.triu(x[0])  # x[0] of a size known only at run time


def _numpy_error(fn, *args):
    with pytest.raises(IndexError) as e:
        fn(*[np.array(a, copy=True) for a in args])
    return str(e.value)


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_bad_indices_raise_numpys_index_error(backend):
    x = np.arange(12.0).reshape(4, 3)
    cases = [(gather_rows, np.array([0, 4])), (gather_rows, np.array([[1], [-5]])),
             (scatter_rows, np.array([3, 9])), (masked, np.array([True, False])),
             (masked_write, np.array([True, False, True]))]
    for fn, index in cases:
        f = ag.defun(fn, backend=backend)
        ok = np.array([True, False, True, True]) if index.dtype == bool else np.array([0, -1])
        np.testing.assert_array_equal(np.asarray(f(x.copy(), ok)), fn(x.copy(), ok))
        want = _numpy_error(fn, x, index)
        with pytest.raises(IndexError, match=rf"^{want}[ \n]\(at .*test_indexing\.py:\d+\)$"):
            f(x.copy(), index)
    f = ag.defun(first_row, backend=backend)
    for shape in [(2, 3), (3, 2), (1, 4)]:  # sizes relax: x[0] is checked at run time
        np.testing.assert_array_equal(np.asarray(f(np.ones(shape))), np.triu(np.ones(shape)[0]))
    with pytest.raises(IndexError, match=r"index 0 is out of bounds for axis 0 with size 0"):
        f(np.zeros((0, 1)))


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_mask_length_is_checked_when_sizes_are_known_at_run_time_only(backend):
    specs = [ag.TensorSpec([None, 3], ag.float64), ag.TensorSpec([None], ag.bool_)]
    x = np.arange(12.0).reshape(4, 3)
    for fn in (masked, masked_write):
        f = ag.defun(fn, backend=backend, input_signature=specs)
        ok = np.array([True, False, False, True])
        np.testing.assert_array_equal(np.asarray(f(x.copy(), ok)), fn(x.copy(), ok))
        for bad in (np.array([True, False]), np.ones(6, bool)):
            arg = x.copy()
            want = _numpy_error(fn, x, bad)
            with pytest.raises(IndexError, match=rf"^{want}[ \n]\(at .*test_indexing\.py:\d+\)$"):
                f(arg, bad)
            np.testing.assert_array_equal(arg, x)  # nothing written before the check


# Boolean masks of the array's own shape and 2+ dims (`img[img > 200] = 255`): the True
# elements in C order, as NumPy picks them (ops/indexing.py ``_whole_mask``: a 1-D mask over
# the raveled array). Found refused by a probe of fresh scientific kernels (session 18).
def saturate(img):
    img = img.copy()
    img[img > 200] = 255
    return img, img[img > 100].mean(), img[img < 0]


def julia_alive(z, c, n):
    alive = np.abs(z) < 2
    for _ in range(n):
        z[alive] = z[alive] ** 2 + c   # writes the caller's array, as NumPy does
        alive = np.abs(z) < 2
    return alive.sum()


def through_views(a):
    a[a < 0.5] = 0.0
    v = a.T
    v[v > 0.8] = np.arange(12.0)[: int((v > 0.8).sum())]  # a value per True element
    return a.sum(), a[a > 0.0]


def test_a_zero_d_boolean_index_is_refused_clearly():
    """x[True] adds an axis of length 1 (x[False]: 0) in NumPy: not staged, and said so
    (the message was about masks of 2 or more dims)."""
    for index in (True, np.bool_(False)):
        with pytest.raises(IndexError, match="a 0-d boolean index"):
            ag.defun(lambda x: x[index], backend="interpreter")(np.ones(3))


def test_whole_array_masks_read_and_write_as_numpy():
    img = np.arange(0, 240, 20, dtype=np.int32).reshape(3, 4)
    agree(saturate, calls=[(img,), (img.T * 2,), (np.zeros((2, 2, 2), np.int32),)])
    grid = np.linspace(-1.5, 1.5, 6)[:, None] + 1j * np.linspace(-1, 1, 5)[None, :]
    agree(julia_alive, calls=[(grid, 0.3 + 0.2j, np.int64(4)),
                              (grid * 0.5, -0.4 + 0.6j, np.int64(6))])
    rng = np.random.default_rng(3)
    agree(through_views, calls=[(rng.random((4, 4)),), (rng.random((3, 5)),)])


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_whole_array_mask_shapes_are_checked(backend):
    f = ag.defun(masked, backend=backend)
    with pytest.raises(IndexError, match="along axis 0; size of axis is 3 but size of"):
        f(np.ones((3, 4)), np.ones((2, 6), bool))  # (sizes known while tracing)
    specs = [ag.TensorSpec([None, None], ag.float64), ag.TensorSpec([None, None], ag.bool_)]
    for fn in (masked, masked_write):
        g = ag.defun(fn, backend=backend, input_signature=specs)
        x = np.arange(12.0).reshape(3, 4)
        ok = x % 3 == 0
        np.testing.assert_array_equal(np.asarray(g(x.copy(), ok)), fn(x.copy(), ok))
        arg = x.copy()
        with pytest.raises(IndexError, match=r"did not match indexed array along axis 0 "
                                             r"\(at .*test_indexing\.py:\d+\)"):
            g(arg, np.ones((2, 6), bool))  # (at run time: the same number of elements)
        np.testing.assert_array_equal(arg, x)


def reads_and_writes_at_unsigned(x, i):
    y = x.copy()
    y[i] = 5.0
    return x[i], x.reshape(2, 2)[i % 2, 0], y


def test_an_unsigned_scalar_index():
    """A uint64 index failed to compile on cpu (its negative fix-up, `i + n` with an
    int64 size, is a float in Numba) before session 41; past int64, NumPy's
    OverflowError."""
    agree(reads_and_writes_at_unsigned, calls=[
        (np.arange(4.0), np.uint64(1)), (np.arange(4.0), np.uint64(3)),
        (np.arange(4.0), np.uint64(7)), (np.arange(4.0), np.uint64(2 ** 64 - 1)),
        (np.arange(4.0), np.uint32(2))])
