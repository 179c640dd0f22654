"""Random ops: shape and dtype, fresh values each call, set_seed reproducibility."""
import numpy as np
import pytest

import autograph_lite as ag

BACKENDS = ("interpreter", "cpu")
KINDS = ("normal", "uniform")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [ag.float32, ag.float64])
def test_random_shape_dtype_fresh_and_seeded(backend, kind, dtype):
    fn = getattr(ag.random, kind)

    def f(x):
        return fn((2, 3), dtype=dtype) + x, fn((), dtype=dtype), fn([4], dtype=dtype)
    g = ag.defun(f, autograph=False, backend=backend)
    zero = np.zeros((), dtype)
    a, s, v = g(zero)
    assert (a.shape, a.dtype, s.shape, s.dtype, v.shape) == ((2, 3), dtype, (), dtype, (4,))
    b = g(zero)[0]
    assert not np.array_equal(a.numpy(), b.numpy()), "same values on two calls"
    ag.random.set_seed(1234)
    c = [t.numpy() for t in g(zero)]
    ag.random.set_seed(1234)
    d = [t.numpy() for t in g(zero)]
    for p, q in zip(c, d):
        np.testing.assert_array_equal(p, q)
    if kind == "uniform":
        assert (a.numpy() >= 0).all() and (a.numpy() < 1).all()
    assert g.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_tensor_shape_and_parameters(backend):
    def f(n):
        return (ag.random.normal((n, 2), mean=10.0, stddev=0.01, dtype=ag.float64),
                ag.random.uniform((n,), minval=-2.0, maxval=-1.0))
    g = ag.defun(f, autograph=False, backend=backend)
    for n in (0, 3, 1000):
        x, u = g(np.int64(n))
        assert x.shape == (n, 2) and x.dtype == ag.float64
        assert u.shape == (n,) and u.dtype == ag.float32
        if n:
            assert abs(float(np.mean(x.numpy())) - 10.0) < 0.1
            assert (u.numpy() >= -2).all() and (u.numpy() < -1).all()
    assert g.experimental_get_tracing_count() == 1


def test_random_calls_are_not_merged():
    def f():
        return ag.random.normal((3,)), ag.random.normal((3,))
    for backend in BACKENDS:
        a, b = ag.defun(f, autograph=False, backend=backend)()
        assert not np.array_equal(a.numpy(), b.numpy())


def test_random_eager():
    ag.random.set_seed(0)
    a = ag.random.uniform((2, 2), dtype=ag.float64)
    ag.random.set_seed(0)
    b = ag.random.uniform((2, 2), dtype=ag.float64)
    assert isinstance(a, ag.Tensor) and a.dtype == ag.float64
    np.testing.assert_array_equal(a.numpy(), b.numpy())
