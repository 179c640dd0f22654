"""End-to-end smoke tests: eager ops, a compiled elementwise chain, a staged while loop."""
import numpy as np

import autograph_lite as ag
from differential import agree


def test_every_spec_dtype_is_an_ag_name():
    # SPEC §1's list: each is NumPy's dtype, and usable as a TensorSpec's and a cast's dtype
    names = ("float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
             "bool_ complex64 complex128").split()
    for name in names:
        assert getattr(ag, name) == np.dtype(name), name
        assert ag.TensorSpec([2], getattr(ag, name)).dtype == np.dtype(name)
    assert ag.cast(ag.constant([1.5, -2.0]), ag.complex64).dtype == np.complex64
    assert ag.cast(ag.constant([1, 2]), ag.uint16).numpy().tolist() == [1, 2]


def test_eager_ops_return_tensors():
    x = ag.constant([1.0, 2.0])
    y = x * 2.0 + np.sin(x)
    assert isinstance(y, ag.Tensor)
    np.testing.assert_allclose(y.numpy(), np.array([1.0, 2.0]) * 2 + np.sin([1.0, 2.0]))


def test_elementwise_chain_three_ways():
    def f(x, y):
        return np.tanh(x * y + 1.0) - np.abs(y) / 2.0
    agree(f, np.linspace(-1, 1, 7), np.arange(7.0), autograph=False)


def test_float32_stays_float32():
    def f(x):
        return x * 2.5 + 1.0
    agree(f, np.arange(4, dtype=np.float32), autograph=False)


def test_newton_while_loop_three_ways():
    def newton(a):
        def cond(x, d):
            return np.max(np.abs(d)) > 1e-10

        def body(x, d):
            d = (x * x - a) / (2.0 * x)
            return x - d, d
        x, _ = ag.while_loop(cond, body, (a, np.ones_like(a)))
        return x
    v = np.linspace(1, 100, 9)
    r = agree(newton, v, autograph=False)
    np.testing.assert_allclose(r["cpu"].numpy(), np.sqrt(v))
    # two passes per iteration: the max|d| reduction (four lanes plus a remainder loop),
    # and ONE loop that writes both x - d and d (a multi-output nest, backends/emitter.py)
    src = ag.defun(newton, autograph=False).get_concrete_function(v).source
    assert [ln.strip().startswith("for ") for ln in src.splitlines()].count(True) == 3, src
