"""Every grad rule of the op table (autograph_lite/gradients/rules.py) against central
finite differences in float64, through ``ag.gradients`` in a compiled function, on both
backends, two calls each (gradcheck.py). Each test function combines many ops with
distinct weights, so a swapped or missing term shows, in few kernels."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph_lite as ag
from gradcheck import BACKENDS, check, gradient_function

RNG = np.random.default_rng(0)


def unary(x):
    u = x - 0.5                       # in (-0.4, 0.4): away from the kinks at 0
    terms = [np.sin(x), np.cos(x), np.tan(x), np.exp(x), np.expm1(x), np.exp2(x), np.log(x),
             np.log2(x), np.log10(x), np.log1p(x), np.sqrt(x), np.cbrt(x), np.square(x),
             np.reciprocal(x), np.arcsin(x), np.arccos(x), np.arctan(x), np.sinh(x),
             np.cosh(x), np.tanh(x), np.arcsinh(x), np.arctanh(x), np.arccosh(x + 1.5),
             ag.nn.sigmoid(x), ag.nn.relu(u), np.abs(u), np.fabs(u), -x, +x, np.deg2rad(x),
             np.rad2deg(x), np.radians(x), np.degrees(x), 1.0 / x, x ** 3, np.floor(x) * x,
             np.sign(u) * x, np.float_power(x, 2.5), np.maximum(u, 0.0), np.ceil(x) * x,
             np.trunc(x * 3.0) * x, np.rint(x * 3.0) * x, np.positive(x),
             math.exp(np.sum(x) * 0.1)]  # (math.* on a tensor: a weak NumPy op)
    total = 0.0
    for k, t in enumerate(terms):
        total = total + (k + 1) * np.sum(t)
    return total


def test_unary_rules():
    check(unary, RNG.uniform(0.1, 0.9, (3, 4)))


def binary(a, b):
    # b broadcasts along a's rows: its gradient is summed over them
    terms = [a + b, a - b, a * b, a / b, a ** b, b ** 2.0, np.maximum(a, b), np.minimum(a, b),
             np.arctan2(a, b), np.hypot(a, b), np.logaddexp(a, b), np.logaddexp2(a, b),
             np.where(a > 0.5, a, b * 3.0), np.clip(a, 0.3, 0.7) * b, np.fmax(a, b),
             np.fmin(a, b), np.copysign(a, b - 0.8), np.fmod(a * 5.0, b), np.mod(a * 5.0, b)]
    total = 0.0
    for k, t in enumerate(terms):
        total = total + (k + 1) * np.sum(np.sin(t))
    return total


def test_binary_rules_with_broadcasting():
    a = RNG.uniform(0.1, 0.9, (3, 4))
    b = np.array([0.15, 0.45, 0.6, 0.85])  # no ties with a: the kinks are away
    check(binary, a, b, wrt=(0, 1))


def reductions(x):
    return (np.sum(np.sum(x, axis=0) ** 2) + np.sum(np.mean(x, axis=1, keepdims=True) * x)
            + 2.0 * np.sum(np.max(x, axis=0)) + 3.0 * np.min(x) + np.sum(np.cumsum(x, axis=1) ** 2)
            + np.sum(np.cumsum(x) * np.arange(12.0)) + np.mean(x) * np.sum(x, axis=(0, 1)))


def test_reduction_rules():
    check(reductions, RNG.normal(size=(3, 4)))


def test_max_shares_the_gradient_among_ties():
    def f(x):
        return np.max(x) * 6.0
    got = check(f, np.array([1.0, 3.0, 3.0, 2.0]), calls=[(np.array([1.0, 3.0, 0.0, 2.0]),)])
    x = np.array([1.0, 3.0, 3.0, 2.0])
    for backend in BACKENDS:
        (g,) = gradient_function(f, (0,), backend)(x)
        np.testing.assert_array_equal(np.asarray(g), [0.0, 3.0, 3.0, 0.0])  # as TensorFlow
    assert got


def shapes(x, i):
    top, bottom = np.split(x, 2, axis=0)
    parts = [np.reshape(x, (-1,)) * np.arange(24.0), x.T * 2.0, np.expand_dims(x, 1),
             np.squeeze(x[:, :1, :]), np.concatenate([x, 2.0 * x], axis=2),
             np.stack([x, x * x], axis=1), top * 3.0 - bottom, np.broadcast_to(x[0], (5, 3, 4)),
             x[1:, ::2, 1], x[i], x[1, 2][x[1, 2] > 0.0], x[..., -1] ** 2,
             np.transpose(x, (2, 0, 1))[1]]
    total = 0.0
    for k, t in enumerate(parts):
        total = total + (k + 1) * np.sum(np.sin(t))
    y = x * 1.0
    y[0, 1] = 5.0                     # a write: the overwritten elements get no gradient
    y[1, :, 2] = x[0, :, 0] * 3.0     # and the written value gets the gradient of the slice
    return total + np.sum(y * y)


def test_shape_and_indexing_rules():
    check(shapes, RNG.normal(size=(2, 3, 4)), np.int64(1))


def gathered(table, idx):
    # an embedding lookup: repeated and negative indices, a 2-D index array
    rows = table[idx]
    return np.sum(np.tanh(rows) * np.arange(1.0, 1.0 + rows.size).reshape(rows.shape))


def test_gather_rows_with_repeated_indices():
    check(gathered, RNG.normal(size=(5, 3)), np.array([[0, 4], [4, -1], [2, 2]]))
    check(lambda v, i: np.sum(v[i] ** 2), np.arange(4.0), np.array([1, 1, -1]))


def products(a, b, v, w, t):
    return (np.sum(np.sin(a @ b)) + np.sum((v @ b) ** 2) + np.sum(np.cos(a @ w)) + (v @ v) * 2.0
            + np.sum(np.tanh(t @ b)) + np.sum(a.T @ a))


def test_matmul_rules():
    check(products, RNG.normal(size=(3, 4)), RNG.normal(size=(4, 2)), RNG.normal(size=4),
          RNG.normal(size=4), RNG.normal(size=(2, 3, 4)), wrt=(0, 1, 2, 3, 4))


def test_float32_sources_get_float32_gradients():
    def f(x, y):
        return np.sum(x * y)
    got = gradient_function(f, (0, 1), "cpu")(np.ones(3, np.float32), np.arange(3.0))
    assert np.asarray(got[0]).dtype == np.float32 and np.asarray(got[1]).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(got[0]), [0.0, 1.0, 2.0])


# sizes relax: one kernel serves every size of a rank, the broadcast axes read at run time
def broadcast(a, b):
    return np.sum(np.exp(a * b) + a / (b + 2.0))


_BROADCAST = {b: gradient_function(broadcast, (0, 1), b) for b in BACKENDS}


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_broadcast_gradients_for_any_sizes(data):
    n = data.draw(st.sampled_from([1, 2, 5]))
    m = data.draw(st.sampled_from([1, 3]))
    k = data.draw(st.sampled_from([1, 3]))
    a = data.draw(st.lists(st.floats(-1, 1), min_size=n * m, max_size=n * m))
    b = data.draw(st.lists(st.floats(-1, 1), min_size=k, max_size=k))
    a, b = np.array(a).reshape(n, m), np.array(b)
    if m != k and 1 not in (m, k):
        return
    check(broadcast, a, b, wrt=(0, 1), functions=_BROADCAST)


def test_python_scalar_and_unconnected_and_integer_sources():
    def f(x, n, z):
        y = np.sum(x * x) * 2.0
        return ag.gradients(y, [x, n, z, x])
    for backend in BACKENDS:
        gx, gn, gz, gx2 = ag.defun(f, backend=backend)(np.arange(3.0), np.arange(3),
                                                       np.ones(2))
        np.testing.assert_array_equal(np.asarray(gx), [0.0, 4.0, 8.0])
        np.testing.assert_array_equal(np.asarray(gx2), np.asarray(gx))
        assert gn is None and gz is None


def test_grad_ys_and_several_targets():
    def f(x):
        a, b = x * 2.0, np.sin(x)
        return ag.gradients([a, b], x, grad_ys=[np.array([1.0, 0.0, 2.0]), None])
    for backend in BACKENDS:
        (g,) = ag.defun(f, backend=backend)(np.arange(3.0))
        np.testing.assert_allclose(np.asarray(g), [2.0, 0.0, 4.0] + np.cos(np.arange(3.0)))


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: ag.gradients(np.sum(x > 0), [x]), TypeError, "floating"),
    (lambda x: ag.gradients(np.sum(x), [3.0]), TypeError, "must be a tensor"),
])
def test_refusals(fn, error, match):
    for backend in BACKENDS:
        with pytest.raises(error, match=match):
            ag.defun(fn, backend=backend)(np.ones(3))


def test_outside_a_trace_is_an_error():
    with pytest.raises(RuntimeError, match="inside an ag.defun"):
        ag.gradients(ag.constant(1.0), [ag.constant(2.0)])


# the elementwise rules over drawn shapes: the binary ones (broadcasting) at ranks 0 and 1,
# sizes relaxing (one kernel per rank); the unary ones at rank 0 (0-d values are scalars
# in a kernel: another code path than test_unary_rules' arrays)
_UNARY = {b: gradient_function(unary, (0,), b) for b in BACKENDS}
_BINARY = {b: gradient_function(binary, (0, 1), b) for b in BACKENDS}


@pytest.mark.parametrize("rank", [0, 1])
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_elementwise_rules_over_drawn_shapes(rank, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    values = st.floats(0.1, 0.9)
    a = np.array(data.draw(st.lists(values, min_size=int(np.prod(shape)),
                                    max_size=int(np.prod(shape))))).reshape(shape)
    b = np.array(data.draw(st.lists(st.sampled_from([0.15, 0.45, 0.6, 0.85]),
                                    min_size=shape[-1] if rank else 1,
                                    max_size=shape[-1] if rank else 1)))
    if rank == 0:
        b = b[0]
    ratio = a * 5.0 / b
    if (np.any(np.abs(a[..., None] - np.reshape(b, (-1,))) < 0.02)
            or np.any(np.min(np.abs(a[..., None] - np.array([0.3, 0.5, 0.7])), -1) < 0.02)
            or np.any(np.abs(ratio - np.round(ratio)) < 0.02)
            or np.any(np.abs(a * 6.0 - np.round(a * 6.0)) < 0.02)):  # (trunc, rint of 3a)
        return   # (too near a kink or a jump (max, abs, clip, where, fmod) to difference)
    if rank == 0:
        check(unary, a, functions=_UNARY, calls=[(a,)])
    check(binary, a, b, wrt=(0, 1), functions=_BINARY, calls=[(a, b)])


def products_of_rows(x):
    # zeros on purpose: the rule must not divide by the product
    return (np.sum(np.prod(x, axis=1) * np.arange(1.0, 4.0)) + 2.0 * np.prod(x[0])
            + np.sum(np.prod(x, axis=(0, 1), keepdims=True)) + np.sum(np.prod(x, axis=0) ** 2))


@pytest.mark.parametrize("zeros", [0, 1, 2])
def test_product_rule_is_exact_where_elements_are_zero(zeros):
    x = RNG.uniform(0.5, 1.5, (3, 4))
    x[0, 1:1 + zeros] = 0.0   # one zero, then two in one row
    check(products_of_rows, x)


def linear_algebra(a, b, c):
    return (np.sum(np.linalg.inv(a) * np.arange(9.0).reshape(3, 3)) + 3.0 * np.linalg.det(a)
            + np.sum(np.linalg.solve(a, b) ** 2) + np.sum(np.linalg.solve(a, c) * c))


def test_inverse_determinant_and_solve_rules():
    a = RNG.normal(size=(3, 3)) + 3.0 * np.eye(3)
    check(linear_algebra, a, RNG.normal(size=3), RNG.normal(size=(3, 2)), wrt=(0, 1, 2))


def factorized(a, w):
    lo = np.linalg.cholesky(a)
    return np.sum(lo * w) + np.sum(np.linalg.cholesky(a, upper=True) ** 2 * w.T)


def test_cholesky_rule_matches_finite_differences_of_each_entry():
    # NumPy's cholesky reads the lower triangle only: the upper entries' gradient is 0,
    # the rule's too (not the symmetric one), so central differences per entry agree
    m = RNG.normal(size=(4, 4))
    check(factorized, m @ m.T + 4.0 * np.eye(4), RNG.normal(size=(4, 4)))


def test_complex_linear_algebra_gradients_refuse():
    @ag.defun
    def f(a):
        return ag.gradients(np.linalg.det(a), a)
    with pytest.raises(NotImplementedError, match="det of a complex tensor"):
        f(np.eye(2) * (1 + 1j))


# -- several index arrays, take_along_axis, np.add.at (ops/advanced_index.py) -------------
def scattered(a, b):
    r, c = np.array([0, 2, 2, 1]), np.array([1, 0, 0, 3])
    a = a * 1.0
    np.add.at(a, (r, c), b * b)
    return (a * a).sum()


def test_gradients_through_flat_positions():
    r, c = np.array([0, 2, 2, 1]), np.array([1, 0, 0, 3])
    check(lambda a: (a[r, c] ** 2).sum() + np.take_along_axis(a, np.argsort(a, axis=1),
                                                                axis=1)[:, -1].sum(),
          np.random.default_rng(3).normal(size=(3, 4)))

    check(scattered, np.random.default_rng(3).normal(size=(3, 4)), np.random.default_rng(3).normal(size=4), wrt=(0, 1))


def test_gradients_of_index_arrays_on_other_axes_and_of_assignments():
    rng = np.random.default_rng(4)
    i, j = np.array([2, 0, 2]), np.array([1, 1, 1])  # (2, 1) twice

    def reads(a):  # an index array after a slice, after an int, beside a slice
        return ((a[:, i] ** 2).sum() + (a[1, :, j] * a[0, :, j]).sum()
                + np.sin(a[1:, i[:2], j[:2]]).sum())

    def writes(a, v):  # repeated positions: only the last write's value reaches the result
        b = a * 1.0
        b[i, j] = v * v
        b[:, i] = np.cos(b[:, i])
        b[1:, 0] = v[:2]
        return (b * b).sum()
    check(reads, rng.normal(size=(3, 4, 5)))
    check(writes, rng.normal(size=(3, 4)), rng.normal(size=3), wrt=(0, 1))


def test_gradient_of_sort_along_any_axis():
    rng = np.random.default_rng(5)
    w = rng.normal(size=(3, 4))
    check(lambda a: (np.sort(a, axis=1) * w).sum() + (np.sort(a, axis=0)[-1] ** 2).sum()
          + np.sort(a, axis=None)[-3:].sum() + np.median(a), rng.normal(size=(3, 4)))


def test_gradient_of_cumprod_is_exact_at_zeros():
    a = np.array([[1.5, 0.0, -2.0, 0.5], [0.0, 0.0, 3.0, 1.1], [0.7, -1.2, 0.9, 2.0]])
    w = np.random.default_rng(6).normal(size=(3, 4))
    check(lambda a: (np.cumprod(a, axis=1) * w).sum() + (np.cumprod(a, axis=0)[-1] ** 2).sum()
          + np.cumprod(a)[5:].sum(), a)


def test_relaxed_sizes_stage_no_sum_for_inputs_that_cannot_broadcast():
    # an elementwise op's array input whose other inputs are 0-d (or itself) has the
    # output's shape whatever the sizes, as has a reduction's gradient broadcast back to
    # its input: no sum_to for them (each is a loop nest to compile)
    def f(x, s):
        return ag.gradients(np.sum(np.tanh(np.sin(x) * 2.0 - 1.0) / s), [x, s])
    g = ag.defun(f, input_signature=[ag.TensorSpec([None, None], ag.float64),
                                     ag.TensorSpec([], ag.float64)])
    ops = [n.op for n in g.get_concrete_function().graph.walk()]
    assert "sum_to" not in ops, ops
    x = RNG.uniform(0.1, 0.9, (2, 3))
    check(lambda x, s: np.sum(np.tanh(np.sin(x) * 2.0 - 1.0) / s), x, np.float64(1.5),
          wrt=(0, 1))


def _broadcast_product(a, b):
    return np.sum(np.sin(a * b) + a)


_RELAXED_BROADCAST = {b: ag.defun(
    lambda a, v: ag.gradients(_broadcast_product(a, v), [a, v]), backend=b,
    input_signature=[ag.TensorSpec([None, None], ag.float64), ag.TensorSpec([None], ag.float64)])
    for b in BACKENDS}


def test_broadcast_gradients_with_sizes_known_only_at_run_time():
    # one kernel for every size: which axes were broadcast is read at run time (sum_to)
    calls = [(RNG.normal(size=(3, 1)), RNG.normal(size=4)), (RNG.normal(size=(2, 3)),
             RNG.normal(size=1)), (RNG.normal(size=(1, 1)), RNG.normal(size=5)),
             (RNG.normal(size=(2, 4)), RNG.normal(size=4))]
    check(_broadcast_product, wrt=(0, 1), functions=_RELAXED_BROADCAST, calls=calls)
    assert all(f.experimental_get_tracing_count() == 1 for f in _RELAXED_BROADCAST.values())


def reductions_along_axes(x):
    """The reduction and cumulative-sum rules along every axis of a drawn shape (no size
    baked into the kernel, so after the sizes relax every shape shares one kernel; sort and
    cumprod along any axis have tests of their own)."""
    total = np.sum(x) * 0.0
    for ax in range(x.ndim):          # (x.ndim is a Python number: unrolled)
        k = float(ax + 1)
        total = total + k * (np.sum(np.sin(np.sum(x, axis=ax))) + np.sum(np.max(x, axis=ax))
                             - 2.0 * np.sum(np.min(x, axis=ax, keepdims=True))
                             + np.sum(np.cos(np.mean(x, axis=ax)))
                             + np.sum(np.prod(x, axis=ax)) + np.sum(np.cumsum(x, axis=ax) ** 2))
    return total


_ALONG_AXES = {b: gradient_function(reductions_along_axes, (0,), b) for b in BACKENDS}


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_reduction_rules_along_every_axis_of_drawn_shapes(rank, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 16)))
    n = int(np.prod(shape))
    # distinct values (max and min have no ties) in (0.2, 1.2)
    x = (0.2 + (rng.permutation(n) + rng.uniform(0.3, 0.7, n)) / n).reshape(shape)
    check(reductions_along_axes, x, functions=_ALONG_AXES, calls=[(x,)])


# -- complex tensors: TensorFlow's convention, dL/dx + i dL/dy -------------------------------
def complex_terms(z, w, x):
    """A real target of complex z and w (and real x reaching complex values): holomorphic
    ops (the rules conjugate their derivative), abs/real/imag/conj, reductions, shapes,
    indexing and products."""
    u = z * w + x                     # (x real: its gradient is the real part)
    terms = [np.abs(u), np.real(np.exp(z)), np.imag(np.sin(z) / w), np.abs(np.log(w)) ** 2,
             np.real(np.conj(z) * z), np.imag(z ** 2 * np.sqrt(w)), np.abs(np.tanh(z)),
             np.real(np.cumsum(u) * 1j), np.abs(np.prod(z.reshape(2, 2), axis=0)),
             np.real(np.sum(u.reshape(2, 2).T @ w.reshape(2, 2))),
             np.imag(np.stack([z, w])[:, 1:3] ** 3), np.abs(np.reciprocal(w) - np.mean(z)),
             np.real(np.where(x > 0.0, z, w) * np.cos(w)), np.abs(np.power(w, z))]
    total = 0.0
    for k, t in enumerate(terms):
        total = total + (k + 1) * np.sum(t)
    return total


def test_complex_gradients_match_differences_of_both_parts():
    z = RNG.normal(size=4) + 1j * RNG.normal(size=4)
    w = RNG.uniform(0.5, 1.5, 4) + 1j * RNG.uniform(-0.5, 0.5, 4)
    x = RNG.normal(size=4)
    got = check(complex_terms, z, w, x, wrt=(0, 1, 2))
    for backend, grads in got.items():
        assert [np.asarray(g).dtype for g in grads] == [np.complex128] * 2 + [np.float64]


def test_complex_cumprod_and_linear_algebra_gradients_refuse():
    for what, fn in (("np.cumprod", lambda z: np.abs(np.cumprod(z))),
                     ("np.linalg.inv", lambda z: np.abs(np.linalg.inv(z.reshape(2, 2))))):
        with pytest.raises(NotImplementedError, match=f"{what} of a complex tensor"):
            ag.defun(lambda z: ag.gradients(np.sum(fn(z)), z), backend="interpreter")(
                np.ones(4) * (1 + 1j))


# -- the shape, indexing, product, sorting and linear algebra rules over drawn shapes ---------
# (sizes relax after the second shape: one kernel then serves every later one)
def shape_ops(x):
    """The shape and indexing rules on a rank-3 shape of any sizes >= 2."""
    first, rest = np.split(x, [1], axis=0)
    parts = [np.reshape(x, (-1,)), x.T * 2.0, np.expand_dims(x, 1),
             np.squeeze(x[:, :1, :], axis=1), np.concatenate([x, 2.0 * x], axis=2),
             np.stack([x, x * x], axis=1), first * 3.0 - rest[:1], rest, x[1:, ::2, -1],
             x[..., -1] ** 2, np.transpose(x, (2, 0, 1))[1], x[:, -1:, 1:]]
    total = 0.0
    for k, t in enumerate(parts):
        total = total + (k + 1) * np.sum(np.sin(t))
    y = x * 1.0
    y[0, 1] = 5.0                     # overwritten elements get no gradient
    y[-1, :, 0] = x[0, :, -1] * 3.0   # the written value gets the slice's
    return total + np.sum(y * y)


def sorted_and_cumulative(a, w):
    return ((np.sort(a, axis=1) * w).sum() + (np.sort(a, axis=0)[-1] ** 2).sum()
            + np.sort(a, axis=None)[-2:].sum() + (np.cumprod(a, axis=1) * w).sum()
            + (np.cumprod(a, axis=0)[-1] ** 2).sum() + np.median(a))


def solved(a, b, c, w):
    return (np.sum(np.linalg.inv(a) * w) + 3.0 * np.linalg.det(a)
            + np.sum(np.linalg.solve(a, b) ** 2) + np.sum(np.linalg.solve(a, c) * c))


_DRAWN = {name: {b: gradient_function(fn, wrt, b) for b in BACKENDS} for name, fn, wrt in (
    ("shape_ops", shape_ops, (0,)), ("products", products, (0, 1, 2, 3, 4)),
    ("sorted", sorted_and_cumulative, (0,)), ("solved", solved, (0, 1, 2)),
    ("factorized", factorized, (0,)))}


def _sizes(data, n, low=1, high=4):
    return tuple(data.draw(st.lists(st.integers(low, high), min_size=n, max_size=n)))


def _values(data, shape, low=-1.0, high=1.0):
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 16)))
    return rng.uniform(low, high, shape)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_shape_indexing_and_product_rules_over_drawn_shapes(data):
    x = _values(data, _sizes(data, 3, low=2))
    check(shape_ops, x, functions=_DRAWN["shape_ops"], calls=[(x,)])
    m, k, n, p = _sizes(data, 4)
    args = (_values(data, (m, k)), _values(data, (k, n)), _values(data, k), _values(data, k),
            _values(data, (p, m, k)))
    check(products, *args, wrt=(0, 1, 2, 3, 4), functions=_DRAWN["products"], calls=[args])


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_sort_cumprod_and_linear_algebra_rules_over_drawn_shapes(data):
    shape = _sizes(data, 2, low=2)
    n = int(np.prod(shape))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 16)))
    a = ((rng.permutation(n) + rng.uniform(0.3, 0.7, n)) / n + 0.5).reshape(shape)  # no ties
    w = rng.normal(size=shape)
    check(sorted_and_cumulative, a, w, functions=_DRAWN["sorted"], calls=[(a, w)])
    k = data.draw(st.integers(1, 4))
    m = rng.normal(size=(k, k))
    spd = m @ m.T + k * np.eye(k)
    args = (spd, rng.normal(size=k), rng.normal(size=(k, 2)), rng.normal(size=(k, k)))
    check(solved, *args, wrt=(0, 1, 2), functions=_DRAWN["solved"], calls=[args])
    check(factorized, spd, args[3], functions=_DRAWN["factorized"], calls=[(spd, args[3])])


def stacked_solved(a, b):
    return (np.sum(np.linalg.det(a) ** 2) + np.sum(np.linalg.solve(a, b) ** 2)
            + np.sum(np.linalg.inv(a)[:, 0]))


def test_linear_algebra_of_stacks_of_matrices():
    # a stack is a vectorized_map of the 2-D op: its gradient is the map's
    m = RNG.normal(size=(2, 3, 3))
    check(stacked_solved, m + 3.0 * np.eye(3), RNG.normal(size=(2, 3, 2)), wrt=(0, 1))


def running_and_signal(x, v, h):
    """Running extremes (the gradient goes to the element that reached each one first),
    convolutions in every mode, heaviside's value at 0, floor division (no gradient) and a
    complex number whose imaginary part is written."""
    return (np.sum(np.maximum.accumulate(x, axis=1) * np.arange(12.0).reshape(3, 4))
            + np.sum(np.minimum.accumulate(x, axis=0) ** 2)
            + np.sum(np.sin(np.convolve(x[0], v))) + np.sum(np.convolve(v, x[1], "same") ** 2)
            + np.sum(np.convolve(x[2], v[:2], "valid") * 3.0)
            + np.sum(np.heaviside(np.floor(x * 3.0) - 1.0, h) * x)
            + np.sum(np.floor_divide(x, 0.3) * x) + np.sum(np.abs(_with_imag(x[0], v[:4])) ** 2))


def _with_imag(re, im):
    c = re * (1.0 + 0.0j)
    c.imag[:] = im * 2.0          # a write through the imaginary part's view
    return c


def test_running_extreme_convolution_and_step_rules():
    # distinct values away from the steps at multiples of 1/3 and 0.3
    x = RNG.permutation(12).reshape(3, 4) / 12.0 + 0.01
    check(running_and_signal, x, RNG.normal(size=5), np.float64(0.7), wrt=(0, 1, 2))


SAMPLES = np.array([0.0, 0.5, 1.5, 2.0])


def interpolated(x, fp, lo, hi):
    return (np.sum(np.interp(x, SAMPLES, fp) * np.arange(1.0, 1.0 + x.size).reshape(x.shape))
            + np.sum(np.interp(x[0], SAMPLES, fp, left=lo, right=hi) ** 2)
            + np.interp(x[1, 0], SAMPLES[:1], fp[:1]))


def test_interp_rule_in_x_fp_and_the_end_values():
    # inside, beyond both ends and on one sample point only (the kinks are not differenced)
    x = np.array([[-0.3, 0.2, 0.7, 1.9, 2.4], [0.52, 1.0, 2.1, 1.6, 0.05]])
    check(interpolated, x, np.array([1.0, -0.5, 2.0, 0.3]), np.float64(-2.0),
          np.float64(4.0), wrt=(0, 1, 2, 3))
    # at a sample point: the slope of the segment to its right (0 at the last one)
    (g,) = gradient_function(lambda x: np.sum(np.interp(x, SAMPLES, SAMPLES ** 2)), (0,),
                             "interpreter")(np.array([0.5, 2.0]))
    np.testing.assert_allclose(np.asarray(g), [2.0, 0.0])
