"""NumPy's axis and matrix functions (autograph_lite/numpy_matrices.py) against NumPy itself,
three ways (plain NumPy, interpreter, cpu; arguments compared, two calls each), bit for bit:
swapaxes, moveaxis, rot90 (views: a write through them reaches the array), triu/tril
(batches too), trace, diag, diagonal (NumPy's read-only view: it sees later writes into the
array, a write through it raises), cross (3- and 2-vectors), inner, vdot, kron. One
Function per test shares its kernels across the drawn shapes (sizes relax)."""
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import BACKENDS, agree, shared_functions
from ops_strategies import arrays, dtypes, examples, shapes

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def matrices(x, y):
    return (np.swapaxes(x, 0, 1), x.swapaxes(-1, 0), np.swapaxes(y, 0, 2),
            np.moveaxis(y, 0, -1), np.moveaxis(y, [0, 1], [2, 0]), np.moveaxis(x, -1, 0),
            np.rot90(x), np.rot90(x, 2), np.rot90(x, 3), np.rot90(x, -1, axes=(1, 0)),
            np.rot90(x, 4), np.rot90(y, 1, axes=(2, 0)),
            np.triu(x), np.tril(x), np.triu(x, 1), np.tril(x, -2), np.triu(y, -1),
            np.tril(y, 3), np.triu(x.ravel()), np.tril(x.ravel()[::2], 1),
            np.trace(x), np.trace(x, 1), x.trace(-2), np.trace(x, dtype=np.float32),
            np.diagonal(x), np.diagonal(x, 2), x.diagonal(-1), np.diag(x), np.diag(x, -9),
            np.diag(x.ravel()), np.diag(x.ravel()[::2], 2), np.diag(x.ravel(), -1),
            # stacks of matrices: the (axis1, axis2) planes, the other axes first
            np.diagonal(y), np.diagonal(y, 1, 1, 2), y.diagonal(-1, 2, 0),
            np.diagonal(y, 0, -1, -3), np.trace(y), np.trace(y, 1, 2, 1), y.trace(0, 0, 2),
            np.trace(y, -1, axis1=1, axis2=0, dtype=np.float64))


_MATRICES = shared_functions(matrices)


@pytest.mark.parametrize("family", ["bool", "int", "float"])
@examples(5)
@given(data=st.data())
def test_axes_triangles_and_diagonals_match_numpy(family, data):
    dt = data.draw(dtypes(family, narrowest=True))
    x = data.draw(arrays(dt, shapes(2)))
    y = data.draw(arrays(dt, shapes(3)))
    agree(matrices, x, y, functions=_MATRICES, exact=True)


def views(x):
    s = np.swapaxes(x, 0, 1)
    s[0, 1] = -1.0                    # NumPy's views: the writes reach x
    m = np.moveaxis(x, 1, 0)
    m[2, 0] += 10.0
    r = np.rot90(x)
    r[0, 0] = 99.0
    h = np.rot90(x, 2)
    h[0, 1] = 7.0
    d, t = np.diagonal(x, 1), x.diagonal()
    b = np.diagonal(np.stack([x, x * 2.0])[:, ::-1], 0, 2, 1)   # of a view of a stack
    x[0, 1] = 42.0                    # seen through the read-only diagonals
    x[1, 1] = 43.0
    return d, t * 1.0, np.diag(x), np.trace(x), r, h, b


def test_swapaxes_moveaxis_rot90_and_diagonal_are_views():
    agree(views, np.arange(12.0).reshape(3, 4), exact=True)


def write_into_diagonal(x):
    d = np.diagonal(x)
    d[0] = 1.0
    return d


def add_into_diag(x):
    d = np.diag(x)
    d += 1.0
    return d


@pytest.mark.parametrize("fn", [write_into_diagonal, add_into_diag])
def test_diagonal_is_read_only_as_numpy(fn):
    raised = []  # (agree checks that each side raised NumPy's exception type)
    agree(fn, np.ones((2, 3)), errors=raised)
    assert raised and all("read-only" in m for *_, m in raised), raised


def products(a, b, x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        two = (np.cross(a[..., :2], b[..., :2]), np.cross(a[..., :2], b),
               np.cross(a, b[..., :2]))
    return two + (np.cross(a, b), np.cross(a[0], b), np.cross(a.T, b.T, axisa=0, axisb=0),
                  np.cross(a.T, b, axisa=0, axisc=0), np.cross(a.T, b.T, axis=0),
                  np.inner(x, y), np.inner(x, 2), np.vdot(x, y), np.vdot(a, b),
                  np.kron(x, y), np.kron(a, b), np.kron(x, a), np.kron(a, y[:2]),
                  np.kron(x[0], a), np.kron(x, x[:0]))


_PRODUCTS = shared_functions(products)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(5)
@given(data=st.data())
def test_products_match_numpy(family, data):
    dt = data.draw(dtypes(family, narrowest=True))
    n, k = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 9))
    a, b = (data.draw(arrays(dt, (n, 3))) for _ in range(2))
    x, y = (data.draw(arrays(dt, (k,))) for _ in range(2))
    agree(products, a, b, x, y, functions=_PRODUCTS, exact=True)


def test_products_of_mixed_dtypes_and_booleans():
    def f(a, b, p):
        return np.cross(a, b), np.inner(a, b), np.vdot(p, p), np.kron(p, a), np.inner(p, p)
    agree(f, np.array([1, -2, 3], dtype=np.int8), np.array([0.5, 2.0, -1.0], np.float32),
          np.array([True, False, True]), exact=True)


# -- refusals: NumPy's errors, and what is not staged ------------------------------------------
@pytest.mark.parametrize("fn,error,match", [
    (lambda x: np.swapaxes(x, 0, 2), np.exceptions.AxisError, "out of bounds"),
    (lambda x: np.moveaxis(x, [0, 1], [0]), ValueError, "same number of elements"),
    (lambda x: np.moveaxis(x, [0, 0], [0, 1]), ValueError, "repeated axis in `source`"),
    (lambda x: np.rot90(x, 1, axes=(0, 0)), ValueError, "Axes must be different"),
    (lambda x: np.rot90(x, 1, axes=(0, 3)), ValueError, "out of range"),
    (lambda x: np.rot90(x, 1, axes=(0,)), ValueError, "len\\(axes\\) must be 2"),
    (lambda x: np.rot90(x[0]), ValueError, "Axes must be different"),
    (lambda x: np.diag(x[None]), ValueError, "Input must be 1- or 2-d"),
    (lambda x: np.cross(x, x), ValueError, "incompatible dimensions for cross product"),
    (lambda x: np.cross(x[0, 0], x[0]), ValueError, "zero dimension"),
    (lambda x: np.inner(x[0], x[0, :3]), ValueError, "not aligned"),
    (lambda x: np.vdot(x, x[0]), ValueError, "cannot reshape array of size 4"),
])
def test_numpys_errors(fn, error, match):
    with pytest.raises(error, match=match):
        fn(np.ones((2, 4)))           # (NumPy's own)
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.ones((2, 4)))


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: np.rot90(x, x[0, 0].astype(np.int64)), TypeError, "np.rot90's k"),
    (lambda x: np.triu(x, x[0, 0].astype(np.int64)), TypeError, "np.triu's k"),
    (lambda x: np.swapaxes(x, x[0, 0].astype(np.int64), 0), TypeError, "np.swapaxes's axis1"),
    (lambda x: np.diagonal(x, 0, 1, 1), ValueError, "axis1 and axis2 cannot be the same"),
    (lambda x: np.diagonal(x, 0, 2, 0), ValueError, "axis1: axis 2 is out of bounds"),
    (lambda x: np.trace(x[0]), ValueError, "at least two dimensions"),
    (lambda x: np.triu(x[0, 0]), ValueError, "0-d array"),
])
def test_what_is_not_staged_is_refused_naming_it(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.ones((2, 4)))


def dots(a, b):
    return np.dot(a, b), a.dot(b)


def test_dot_of_stacks_sums_over_the_last_and_second_to_last_axes_as_numpy():
    """np.dot of two arrays of rank >= 3 pairs every leading axis of both (shape
    a.shape[:-1] + b.shape[:-2] + b.shape[-1:]); it was matmul's, which pairs them as
    batches: (2, 3, 5) where NumPy gives (2, 3, 2, 5), silently (session 40)."""
    f = {b: ag.defun(dots, backend=b) for b in BACKENDS}
    for sa, sb in [((2, 3, 4), (2, 4, 5)), ((4, 2, 3), (5, 3, 2)), ((3,), (2, 3, 4)),
                   ((2, 3, 4), (4, 5))]:
        a = np.arange(np.prod(sa), dtype=float).reshape(sa)
        b = np.arange(np.prod(sb), dtype=float).reshape(sb)
        agree(dots, calls=[(a, b), (a - 1.0, b * 0.5)], functions=f, exact=True)
    agree(lambda x: (np.dot(2, x), np.dot(x, 2.5)),  # (NumPy's dot makes 2 an int64 array)
          calls=[(np.ones(3, np.int8),), (np.arange(3, dtype=np.int8),)], exact=True)
    errors = []
    agree(dots, calls=[(np.ones(3), np.ones(3)), (np.ones(2), np.ones(3))], errors=errors)
    assert any("shapes (2,) and (3,) not aligned: 2 (dim 0) != 3 (dim 0)" in m
               for _, _, m in errors), errors


def test_inner_of_arrays_of_any_rank_is_numpys():
    """(refused for rank > 1 before session 40) the sum over both last axes, every other
    axis kept; unaligned sizes: NumPy's ValueError in its words."""
    rng = np.random.default_rng(3)
    for sa, sb in [((2, 3, 4), (2, 5, 4)), ((3, 4), (5, 4)), ((4,), (2, 3, 4))]:
        a, b = rng.normal(size=sa), rng.normal(size=sb)
        agree(np.inner, calls=[(a, b), (a * 2.0, b - 1.0)], rtol=1e-12)
    errors = []
    agree(np.inner, calls=[(np.ones((3, 4)), np.ones((5, 4))),
                           (np.ones((2, 3, 4)), np.ones((2, 5, 3)))], errors=errors)
    assert any("shapes (2,3,4) and (2,3,5) not aligned: 4 (dim 2) != 3 (dim 1)" in m
               for _, _, m in errors), errors


def writes_diagonal_when_large(x, t):
    d = np.diagonal(x)
    for i in range(d.shape[0]):
        if d[i] > t:
            d[i] = t
    b = np.broadcast_to(x[0], (2, x.shape[1]))
    if x[0, 0] > 10 * t:
        b[0, 0] = 1.0
    return d.sum() + b.sum()


def test_a_write_into_a_read_only_view_raises_on_the_runs_that_reach_it():
    """(session 54's probe) a write through np.diagonal's or np.broadcast_to's read-only
    view under a staged `if` raised NumPy's read-only error on every call, also those whose
    branch never writes; NumPy raises where the write runs."""
    raised = []
    agree(writes_diagonal_when_large, calls=[(np.eye(3), 2.0), (np.eye(3), 0.5),
                                             (np.eye(3) * 0.1, 0.005), (np.zeros((2, 2)), 1.0)],
          errors=raised)
    assert raised and all("read-only" in m for *_, m in raised), raised
    assert {c[1] for _, c, _ in raised} == {0.5, 0.005}, raised  # (not calls 0, 3)
