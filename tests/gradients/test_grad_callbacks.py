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


def test_py_function_inside_a_staged_branch_refuses():
    def f(x):
        if np.sum(x) > 0:
            y = ag.py_function(log_huber, [x, 2.0], ag.float64)
        else:
            y = x
        return ag.gradients(np.sum(y), x)
    with pytest.raises(NotImplementedError, match="'py_function'.*would run it again"):
        ag.defun(f, backend="interpreter")(np.ones(2))
