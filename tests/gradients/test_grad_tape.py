"""``ag.GradientTape`` (SPEC §5): eager ops and compiled calls recorded and swept backwards,
against finite differences; inside a traced function, the graph sweep; its errors."""
import numpy as np
import pytest

import autograph_lite as ag
from gradcheck import finite_difference

X = np.array([0.5, 1.0, 2.0])
B = np.array([1.0, -1.0, 0.5])


def model(x, b):
    return np.sum(np.tanh(x * b) * np.exp(-x)) + np.max(x * b) * 2.0


def test_eager_ops_match_finite_differences():
    x, b = ag.constant(X), ag.constant(B)
    with ag.GradientTape() as tape:
        tape.watch([x, b])
        y = model(x, b)
    gx, gb = tape.gradient(y, [x, b])
    np.testing.assert_allclose(np.asarray(gx), finite_difference(model, (X, B), 0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(gb), finite_difference(model, (X, B), 1), rtol=1e-6)


_COMPILED = ag.defun(lambda x, b: (np.sum(np.tanh(x * b) * np.exp(-x)), x * b))


def composed(x, b):
    s, p = _COMPILED(x, b)
    return s * 3.0 + np.sum(np.sin(p))


def plain(x, b):
    return np.sum(np.tanh(x * b) * np.exp(-x)) * 3.0 + np.sum(np.sin(x * b))


def test_a_compiled_call_is_one_entry_with_a_compiled_gradient():
    x, b = ag.constant(X), ag.constant(B)
    with ag.GradientTape(persistent=True) as tape:
        tape.watch([x, b])
        y = composed(x, b)
    for _ in range(2):  # persistent: twice; the gradient kernel is compiled once
        got = tape.gradient(y, {"x": x, "b": b})
        np.testing.assert_allclose(np.asarray(got["x"]), finite_difference(plain, (X, B), 0),
                                   rtol=1e-6)
        np.testing.assert_allclose(np.asarray(got["b"]), finite_difference(plain, (X, B), 1),
                                   rtol=1e-6)
    # two kernels: the forward returns what the backward reads (no transcendental function
    # is computed again there), the backward is traced and compiled once
    (split,) = _COMPILED._split.values()
    assert split.backward.experimental_get_tracing_count() == 1
    ops = {n.op for n in split.backward.get_concrete_function().graph.walk()}
    assert not ops & {"tanh", "exp", "sin", "cos"}, ops


def test_a_call_that_writes_its_argument_writes_it_once():
    # the forward kernel writes the caller's array; the backward reads the residuals
    calls = ag.Variable(0.0, trainable=False)

    @ag.defun
    def scale(x, out):
        out += x * 2.0                 # (twice would leave 4x)
        calls.assign_add(1.0)
        return np.sum(np.sin(out))
    x = ag.constant(X)
    out = np.zeros(3)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = scale(x, out)
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)), 2.0 * np.cos(2.0 * X),
                               rtol=1e-12)
    np.testing.assert_array_equal(out, 2.0 * X)
    assert float(calls.numpy()) == 1.0
    assert all(s is not None for s in scale._split.values())


def test_tape_inside_a_compiled_function():
    @ag.defun
    def step(x, b):
        pre = x * 10.0                   # before the tape: not recorded
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = model(x, b) + np.sum(pre)
        return tape.gradient(y, [x, b, pre])
    gx, gb, gpre = step(X, B)
    np.testing.assert_allclose(np.asarray(gx), finite_difference(model, (X, B), 0), rtol=1e-6)
    assert gb is None                    # not watched
    assert gpre is None                  # not watched either


def test_unwatched_unconnected_and_integer_sources_get_none():
    x, n, u = ag.constant(X), ag.constant(np.arange(3)), ag.constant(B)
    with ag.GradientTape() as tape:
        tape.watch([x, n, u])
        y = np.sum(x * n)
    gx, gn, gu = tape.gradient(y, [x, n, u])
    np.testing.assert_array_equal(np.asarray(gx), [0.0, 1.0, 2.0])
    assert gn is None and gu is None
    with ag.GradientTape() as tape:
        y = np.sum(x * x)
    assert tape.gradient(y, x) is None


def test_output_gradients_weight_the_targets():
    x = ag.constant(X)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=ag.constant(np.array([1.0, 0.0, -1.0])))
    np.testing.assert_array_equal(np.asarray(g), [1.0, 0.0, -4.0])


def test_non_persistent_tape_computes_once():
    x = ag.constant(X)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = np.sum(x)
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.gradient(y, x)


def test_errors():
    x = ag.constant(X)
    with ag.GradientTape() as tape:
        with pytest.raises(TypeError, match="takes tensors"):
            tape.watch(X)
        tape.watch(x)
        y = np.sum(np.interp(np.array([0.7, 1.2]), x, x * 2.0))
        with pytest.raises(RuntimeError, match="after the `with` block"):
            tape.gradient(y, x)
    with pytest.raises(NotImplementedError, match="sample points xp is not built yet"):
        tape.gradient(y, x)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = x > 1.0
    with pytest.raises(TypeError, match="floating"):
        tape.gradient(y, x)


def test_a_split_call_runs_a_callback_once_per_iteration():
    calls = []

    def cube(v):
        calls.append(1)
        return v ** 3

    @ag.defun
    def f(x, n):
        s = x * 1.0
        for i in range(n):
            s = ag.py_function(cube, [s * 0.5], ag.float64) + s
        return np.sum(s)

    def plain(x):
        s = x * 1.0
        for i in range(3):
            s = (s * 0.5) ** 3 + s
        return np.sum(s)
    x = ag.constant(X)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = f(x, np.int64(3))
    assert len(calls) == 3
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)), finite_difference(plain, (X,), 0),
                               rtol=1e-6)
    assert len(calls) == 3                      # the backward replays its recordings


def test_nested_tapes_differentiate_a_compiled_call_s_gradient():
    # two tapes keep the call: its gradient reads the inputs (the outer tape tracks them)
    h = ag.defun(lambda x: np.sum(np.sin(x) * x))
    x = ag.constant(X)
    with ag.GradientTape() as outer:
        outer.watch(x)
        with ag.GradientTape() as inner:
            inner.watch(x)
            y = h(x)
        g = inner.gradient(y, x)
        z = np.sum(g)
    np.testing.assert_allclose(np.asarray(g), np.sin(X) + X * np.cos(X), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(outer.gradient(z, x)),
                               2 * np.cos(X) - X * np.sin(X), rtol=1e-12)


def _iterated(x):
    a, b, c = x
    return sum(v * v for v in x) + a * b * c


def _numpy_forms(x):
    return (np.sum(np.power(x, 3.0)) + np.sum(np.conjugate(x) * x)
            + np.sum(np.add.accumulate(x) * x) + np.sum(np.maximum.accumulate(x))
            + np.sum(np.multiply.outer(x, x)) + np.sum(np.diag(x, 1) * np.arange(16.0)
                                                    .reshape(4, 4)) + sum(x))


@pytest.mark.parametrize("fn", [_iterated, _numpy_forms])
def test_eager_iteration_and_numpy_forms_are_recorded(fn):
    # before: iterating an eager tensor gave rows the tape never saw (gradient None), and
    # np.power / np.conjugate / ufunc.accumulate / ufunc.outer ran NumPy's own (a constant
    # to the tape: None, or half of the gradient); np.diag of one crashed
    x0 = np.array([0.5, -1.5, 2.0])
    x = ag.constant(x0)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    np.testing.assert_allclose(float(y), fn(x0), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)),
                               finite_difference(fn, (x0,), 0), rtol=1e-6)


def test_a_gradient_that_would_run_a_callback_again_is_refused():
    # a loop over x.shape[0]: the split kernels (traced for any size) cannot serve it, and
    # the one-kernel gradient computed the forward again: the callback ran twice per call
    log = []

    @ag.defun
    def loss(w, x):
        total = 0.0
        for i in range(x.shape[0]):
            total = total + (w[i] * x[i]) ** 2
            ag.py_func(lambda v: log.append(float(v)), [total], None)
        return total
    w = ag.constant([1.0, 2.0])
    with ag.GradientTape() as tape:
        tape.watch(w)
        y = loss(w, np.array([3.0, 4.0]))
    assert log == [9.0, 73.0] and float(y) == 73.0
    with pytest.raises(NotImplementedError, match="'py_func' .* would run a second time"):
        tape.gradient(y, w)
    assert log == [9.0, 73.0]


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_a_split_call_keeps_weak_constants_weak(backend):
    # before: the backward kernel got `2` of `x ** 2` as an int64 input of its own (a
    # residual), so `2 * x` was float64 where the graph said float32 (interpreter: error)
    f = ag.defun(lambda x: np.sum(np.tanh(x) ** 2 + x ** 2), backend=backend)
    x = ag.constant(np.array([0.1, 0.2, 0.3], np.float32))
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = np.asarray(tape.gradient(y, x))
    x64 = np.array([0.1, 0.2, 0.3], np.float32).astype(np.float64)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, 2 * np.tanh(x64) / np.cosh(x64) ** 2 + 2 * x64, rtol=1e-5)


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_a_split_call_keeps_what_it_read_when_the_caller_writes_after(backend):
    # before (interpreter): the residuals were the caller's own array and variable buffer,
    # which the caller then wrote: the gradient saw zeros
    a, b = ag.Variable(np.array([1.0, 2.0])), ag.Variable(np.array([3.0, 4.0]))
    x = np.array([3.0, 4.0])
    f = ag.defun(lambda: np.sum(a * b), backend=backend)
    g = ag.defun(lambda x_: np.sum(a * x_), backend=backend)
    with ag.GradientTape(persistent=True) as tape:
        y1, y2 = f(), g(x)
    b.assign(np.zeros(2))
    x[:] = 0.0
    np.testing.assert_array_equal(np.asarray(tape.gradient(y1, a)), [3.0, 4.0])
    np.testing.assert_array_equal(np.asarray(tape.gradient(y2, a)), [3.0, 4.0])
