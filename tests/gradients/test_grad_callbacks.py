"""``py_function`` is once-differentiable (SPEC §4, §5): the gradient replays the tape
recorded while its body ran (the body runs once per call); ``py_func`` has no gradient."""
import numpy as np
import pytest

import autograph_lite as ag
from gradcheck import BACKENDS, finite_difference

CALLS = []


def log_huber(x, m):
    CALLS.append(1)
    return ag.where(np.abs(x) <= m, x ** 2, m ** 2 * (1 - 2 * np.log(m) + np.log(x ** 2)))


def plain(x):
    m = 2.0
    return np.sum(np.where(np.abs(x) <= m, x ** 2,
                           m ** 2 * (1 - 2 * np.log(m) + np.log(x ** 2)))) * 3.0


def through_callback(x):
    y = ag.py_function(log_huber, [x, 2.0], ag.float64)
    s = np.sum(y) * 3.0
    return s, ag.gradients(s, x)[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_gradient_replays_the_recorded_body(backend):
    f = ag.defun(through_callback, backend=backend)
    for x in (np.array([0.5, 3.0, -4.0]), np.array([-1.5, 2.5, 0.1])):
        CALLS.clear()
        s, g = f(x)
        assert len(CALLS) == 1                  # the body ran once, for both passes
        assert float(np.asarray(s)) == pytest.approx(plain(x))
        np.testing.assert_allclose(np.asarray(g), finite_difference(plain, (x,), 0), rtol=1e-6)


def test_eager_tape_records_the_body():
    x0 = np.array([0.5, 3.0, -4.0])
    x = ag.constant(x0)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = np.sum(ag.py_function(log_huber, [x, 2.0], ag.float64)) * 3.0
    np.testing.assert_allclose(np.asarray(tape.gradient(y, x)),
                               finite_difference(plain, (x0,), 0), rtol=1e-6)
    with ag.GradientTape() as tape:            # Tout is still checked
        tape.watch(x)
        with pytest.raises(TypeError, match="expects 2"):
            ag.py_function(log_huber, [x, 2.0], [ag.float64, ag.float64])


def test_py_func_has_no_gradient():
    def f(x):
        y = ag.py_func(lambda a: a * 2.0, [x], ag.float64)
        return ag.gradients(np.sum(y) + np.sum(x), [x])[0]
    for backend in BACKENDS:
        np.testing.assert_array_equal(np.asarray(ag.defun(f, backend=backend)(np.ones(2))),
                                      [1.0, 1.0])   # only the direct path


# -- inside staged loops and branches: the body runs once per forward call ------------------
def cube(x):
    CALLS.append(1)
    return x ** 3 + np.sin(x)


def plain_cube(x):
    return x ** 3 + np.sin(x)


def looped(x, n, m, call):
    """A nest of loops (trip counts n, m) and a branch around ``call``: plain for the
    oracle, ``ag.py_function`` of ``cube`` under ag.defun."""
    s = x * 1.0
    for i in range(n):
        for j in range(m):
            s = call(s * 0.5) + s * 0.25
        if np.sum(s) > 2.0:
            s = call(s * 0.1)
        s += 0.1          # (an in-place update of the loop variable the calls read)
    return s


def staged_looped(x, n, m):
    s = looped(x, n, m, lambda v: ag.py_function(cube, [v], ag.float64))
    return s, ag.gradients(np.sum(s), x)[0]


def calls_of(x, n, m):
    count = []

    def counting(v):
        count.append(1)
        return plain_cube(v)
    looped(x, n, m, counting)
    return len(count)


_LOOPED = {b: ag.defun(staged_looped, backend=b) for b in BACKENDS}


@pytest.mark.parametrize("backend", BACKENDS)
def test_gradient_through_loops_and_branches_runs_the_body_once_per_call(backend):
    def oracle(x, n, m):
        return np.sum(looped(x, n, m, plain_cube))
    for x, n, m in ((np.array([0.3, -0.2]), 3, 1), (np.array([0.5, 0.4]), 2, 3),
                    (np.array([0.3, -0.2]), 0, 2)):
        CALLS.clear()
        before = x.copy()
        s, g = _LOOPED[backend](x, np.int64(n), np.int64(m))
        assert len(CALLS) == calls_of(x, n, m)  # (the branch is taken in some iterations)
        np.testing.assert_array_equal(x, before)
        np.testing.assert_allclose(np.asarray(s), looped(x, n, m, plain_cube), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(g), finite_difference(oracle, (x, n, m), 0),
                                   rtol=1e-5, atol=1e-8)
    assert _LOOPED[backend].experimental_get_tracing_count() == 1


def test_a_function_with_two_results_for_equal_inputs_refuses_its_loop_gradient():
    count = [0]

    def noisy(x):
        count[0] += 1
        return x + count[0]

    def f(x, n):
        s = x * 1.0
        for i in range(n):
            s = s + ag.py_function(noisy, [x], ag.float64)  # equal inputs every iteration
        return ag.gradients(np.sum(s), x)[0]
    for backend in BACKENDS:
        g = ag.defun(f, backend=backend)
        with pytest.raises(RuntimeError, match=r"'noisy' \(at .*test_grad_callbacks.py:\d+\) "
                                               r"returned different results for equal"):
            g(np.ones(2), np.int64(3))
        # one call: no ambiguity (the recordings of one call do not meet the next's)
        np.testing.assert_array_equal(np.asarray(g(np.ones(2), np.int64(1))), [2.0, 2.0])
