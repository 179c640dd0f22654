"""autograph_lite/numpy_more.py against NumPy itself, three ways (plain NumPy, interpreter,
cpu; arguments compared, two calls each): ufunc.accumulate (add, multiply, maximum,
minimum), divmod, modf, fix, angle, union1d/intersect1d/setdiff1d, ediff1d, array_split/
hsplit/vsplit, compress/extract/delete, correlate (every pair of lengths and mode),
tensordot, vander, diagflat. One Function per group shares its kernels across the drawn
shapes (sizes relax)."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions
from ops_strategies import arrays, dtypes, examples, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def accumulates(x):
    return (np.add.accumulate(x), np.add.accumulate(x, axis=1),
            np.multiply.accumulate(x, axis=-1), np.maximum.accumulate(x),
            np.minimum.accumulate(x, axis=1), np.maximum.accumulate(x, 1, dtype=np.float64))


def ufunc_pairs(x, y):
    q, r = np.divmod(x, y)
    frac, whole = np.modf(x)
    return q, r, frac, whole, np.fix(x), np.angle(x), np.angle(y, deg=True)


def sets(a, b):
    return (np.union1d(a, b), np.intersect1d(a, b), np.intersect1d(a[:2], a, True),
            np.setdiff1d(a, b), np.setdiff1d(np.unique(a), b, assume_unique=True))


def pieces(x):
    return (np.ediff1d(x), np.ediff1d(x, to_end=[9, 8], to_begin=-1),
            tuple(np.array_split(x, 3)), tuple(np.array_split(x, [1, 2], axis=1)),
            tuple(np.hsplit(x, [1])), tuple(np.vsplit(x, [2])),
            np.compress(x[:, 0] > 0, x, axis=0), np.compress([True, False, True], x, axis=1),
            np.compress(x.ravel() > 0, x), np.extract(x > 0, x),
            np.delete(x, 1, axis=0), np.delete(x, [0, -1]), np.delete(x, slice(0, None, 2), 1),
            np.delete(x, x[:, 1] > 0, axis=0))


def products(a, b):
    m = np.outer(a, b[:3])                      # (len(a), 3)
    t = np.reshape(np.arange(24.0), (2, 3, 4))
    return (np.tensordot(m, b[:3], axes=1), np.tensordot(m, m, axes=([0], [0])),
            np.tensordot(a, b, axes=0), np.tensordot(t, t, axes=2),
            np.tensordot(t, m.T[:, :2] if a.shape[0] >= 2 else t[0], axes=([1, 0], [0, 1]))
            if a.shape[0] >= 2 else np.zeros(0),
            np.vander(a), np.vander(a, 3, increasing=True), np.vander(a, 0),
            np.diagflat(a), np.diagflat(m, k=-1))


def correlations(a, v):
    return (np.correlate(a, v), np.correlate(a, v, "same"), np.correlate(a, v, "full"),
            np.correlate(v, a, mode="same"))


def indices_and_reordering(i, j, x):
    return (np.ravel_multi_index((i, j), (4, 5)), np.ravel_multi_index((i, j), (4, 5), order="F"),
            np.ravel_multi_index((i + 7, j - 9), (4, 5), mode="wrap"),
            np.ravel_multi_index((i, j * 3), (4, 5), mode=("raise", "clip")),
            np.broadcast_arrays(x, x[:1], 2.0), np.broadcast_arrays(x[:, None], i),
            np.lexsort((x, i)), np.lexsort((j, i, x)),
            np.choose(i % 3, [x, -x, 7.0]), np.choose(j, [i, j * 2], mode="wrap"),
            np.choose(i, [x.astype(np.int8), 5], mode="clip"),
            np.trim_zeros(x), np.trim_zeros(x, "f"), np.trim_zeros(x, trim="B"),
            np.resize(x, (2, 3)), np.resize(x, 7), np.resize(x, 0))


def factor(a):
    return np.linalg.cholesky(a), np.linalg.cholesky(a, upper=True)


_FNS = {f.__name__: shared_functions(f) for f in
        (accumulates, ufunc_pairs, sets, pieces, products, correlations,
         indices_and_reordering)}


@examples(6)
@given(st.data())
def test_accumulate_matches_numpy(data):
    dt = data.draw(st.sampled_from([np.float64, np.int8, np.bool_]))
    x = data.draw(arrays(dt, shapes(2, min_side=1), nan=True))
    agree(accumulates, x, functions=_FNS["accumulates"], exact=True)


def test_ufunc_outer_matches_numpy():
    """ufunc.outer of any binary ufunc: result shape a.shape + b.shape (no ravel, unlike
    np.outer); a Python list and a scalar as the second operand."""
    agree(lambda x, m: (np.multiply.outer(x, x), np.subtract.outer(x, m),
                        np.greater.outer(m, x), np.power.outer(x, 2), np.add.outer(x, [1, 2]),
                        np.maximum.outer(m, m[0])),
          np.array([3.0, 1.0, 2.0]), np.arange(4.0).reshape(2, 2), exact=True)


@examples(6)
@given(st.data())
def test_divmod_modf_fix_angle_match_numpy(data):
    shape = data.draw(shapes(1, min_side=1))
    dt = data.draw(dtypes("float"))
    x = data.draw(arrays(dt, shape, nan=True))
    y = data.draw(arrays(dt, shape, lo=1, hi=9))
    agree(ufunc_pairs, x, y, functions=_FNS["ufunc_pairs"], exact=True)


def test_divmod_of_ints_and_angle_of_complex_match_numpy():
    agree(lambda x, y: np.divmod(x, y), np.array([7, -7, 0, 5], np.int32),
          np.array([2, 2, 3, -3], np.int32))
    agree(lambda z: (np.angle(z), np.angle(z, True), np.fix(z.real)),
          np.array([1 + 1j, -2 - 0.5j, 0j, -3 + 0j]))
    agree(lambda x: np.modf(x), np.array([np.inf, -np.inf, -0.0, -2.0, 2.5, np.nan]),
          exact=True)


@examples(6)
@given(st.data())
def test_sets_match_numpy(data):
    a = data.draw(arrays(np.int64, shapes(1, min_side=2, max_side=8), lo=0, hi=5))
    b = data.draw(arrays(np.int64, shapes(1, max_side=6), lo=0, hi=5))
    agree(sets, a, b, functions=_FNS["sets"], exact=True)


@examples(6)
@given(arrays(np.float64, shapes(2, min_side=3, max_side=5)))
def test_pieces_and_selections_match_numpy(x):
    agree(pieces, x, functions=_FNS["pieces"], exact=True)


def test_pieces_refuse_as_numpy():
    errors = []
    x = np.arange(6.0).reshape(2, 3)
    for fn in (lambda x: np.hsplit(x, 2), lambda x: np.delete(x, 5, axis=1),
               lambda x: np.compress([False, False, False, True], x, axis=1),
               lambda x: np.ediff1d(x, to_begin=1.5 + 0j), lambda x: np.vsplit(x[0], 1),
               lambda x: np.delete(x, np.array([True, False, True]), axis=0)):
        agree(fn, x, errors=errors)
    assert any("equal division" in m for _, _, m in errors)
    assert any("index 5 is out of bounds for axis 0 with size 3" in m for _, _, m in errors)
    assert any("to_begin" in m for _, _, m in errors)
    assert any("match the axis length of 2" in m for _, _, m in errors)


@examples(6)
@given(st.data())
def test_products_match_numpy(data):
    a = data.draw(arrays(np.float64, shapes(1, min_side=1, max_side=5)))
    b = data.draw(arrays(np.float64, shapes(1, min_side=3, max_side=5)))
    agree(products, a, b, functions=_FNS["products"], rtol=1e-9)


@pytest.mark.parametrize("dt", [np.float64, np.complex128])
def test_correlate_every_length_pair_and_mode(dt):
    calls = []
    rng = np.random.default_rng(5)
    for na in range(1, 6):
        for nv in range(1, 6):
            a, v = rng.normal(size=na).astype(dt), rng.normal(size=nv).astype(dt)
            if dt is np.complex128:
                a, v = a + 1j * rng.normal(size=na), v - 2j * rng.normal(size=nv)
            calls.append((a, v))
    agree(correlations, calls=calls, functions=shared_functions(correlations), rtol=1e-9)


@examples(6)
@given(st.data())
def test_indices_and_reordering_match_numpy(data):
    shape = data.draw(shapes(1, min_side=1, max_side=6))
    i = data.draw(arrays(np.int64, shape, lo=0, hi=3))
    j = data.draw(arrays(np.int64, shape, lo=0, hi=4))
    x = data.draw(arrays(np.int64, shape, lo=-1, hi=1)).astype(np.float64)  # zeros to trim
    agree(indices_and_reordering, i, j, x, functions=_FNS["indices_and_reordering"],
          exact=True)


def test_a_tensor_numpy_cannot_see_is_refused_at_the_users_line():
    def f(x):
        return np.block([x, x])  # (no staged form)
    with pytest.raises(TypeError, match=r"np\.block at .*test_numpy_more.py:\d+ has no staged "
                                        r"counterpart"):
        ag.defun(f, backend="interpreter")(np.ones(3))


def test_a_tensor_numpy_does_not_dispatch_on_reaches_the_staged_form():
    # NumPy's dispatcher looks into tuples, not lists: np.lexsort([x, -x]) went to NumPy's
    # own code, which refused the tensors (session 40: the staged np.lexsort takes them)
    agree(lambda x: np.lexsort([x, -x]),
          calls=[(np.array([3.0, 1.0, 2.0]),), (np.array([1.0, 1.0, 0.0]),)])


def test_index_modes_refuse_as_numpy():
    errors = []
    agree(lambda i: np.ravel_multi_index((i, i), (2, 3)), np.array([0, 2]), errors=errors)
    agree(lambda i: np.choose(i, [i, -i]), np.array([0, 2]), errors=errors)
    agree(lambda x: np.trim_zeros(x), calls=[(np.zeros(4),), (np.zeros(0),), (np.ones(2),)])
    messages = [m for _, _, m in errors]
    assert any("invalid entry in coordinates array" in m for m in messages), messages
    assert any("invalid entry in choice array" in m for m in messages), messages


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128])
def test_cholesky_matches_numpy(dt):
    rng = np.random.default_rng(3)
    calls = []
    for n in (1, 2, 4):
        m = rng.normal(size=(n, n)).astype(dt)
        if dt is np.complex128:
            m = m + 1j * rng.normal(size=(n, n))
        calls.append((m @ m.conj().T + n * np.eye(n, dtype=dt),))
    # not Hermitian: NumPy's lower factor reads the lower triangle, upper=True the upper one
    h = calls[-1][0]
    calls.append((h + 0.1 * np.triu(h[::-1], 1),))
    errors = []
    calls.append((-np.eye(2, dtype=dt),))
    agree(factor, calls=calls, functions=shared_functions(factor),
          rtol=1e-4 if dt is np.float32 else 1e-9, errors=errors)
    assert errors and all("Matrix is not positive definite" in m for _, _, m in errors)


def test_eager_calls_run_numpy():
    # outside a defun the same names run on eager tensors (ag ops) as NumPy's
    x = ag.constant([3.0, 1.0, 2.0])
    np.testing.assert_array_equal(np.maximum.accumulate(x), [3.0, 3.0, 3.0])
    assert np.union1d(x, [5.0]).tolist() == [1.0, 2.0, 3.0, 5.0]
    assert np.delete(x, 0).tolist() == [1.0, 2.0]
