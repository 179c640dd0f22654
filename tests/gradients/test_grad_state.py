"""Gradients of compiled calls that change state: an array argument written in place, an
ag.Variable assigned, the arrays and attributes of an object passed in (or `self`).

A call's gradient that computes the forward again (the one-kernel gradient: under nested
tapes, or for a call with objects among its arguments, gradients/tape.py) runs after the
call. Before session 36 it read the state the call had left (`loss = (self.w * x * x).sum();
self.w *= 2` gave the gradient of the doubled w) and wrote it a second time (w doubled
twice, a variable assigned twice): silently. Each test compares with the gradient computed
by hand and with the state plain Python leaves."""

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS

X = np.array([1.0, 0.5, 2.0])
W = np.array([1.0, 2.0, 3.0])


class Model:
    def __init__(self):
        self.w = W.copy()
        self.calls = 0

    def step(self, x):
        loss = (self.w * x * x).sum()
        self.w *= 2.0
        return loss


def step(m, x):
    return m.step(x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_call_writing_an_objects_array_differentiates_the_values_it_read(backend):
    f = ag.defun(step, backend=backend)
    m, x = Model(), ag.constant(X)
    for k in range(3):
        w = m.w.copy()
        with ag.GradientTape() as tape:
            tape.watch(x)
            loss = f(m, x)
        np.testing.assert_allclose(np.asarray(tape.gradient(loss, x)), 2 * w * X)
        np.testing.assert_allclose(np.asarray(loss), (w * X * X).sum())
        np.testing.assert_array_equal(m.w, 2 * w)  # written once per call, as in Python


def test_a_method_writing_self_differentiates_the_values_it_read():
    class Net(Model):
        @ag.defun
        def traced_step(self, x):
            self.calls += 1  # the object's state: once per call, not per gradient
            return self.step(x)

    m, x = Net(), ag.constant(X)
    for k in range(3):
        w = m.w.copy()
        with ag.GradientTape(persistent=True) as tape:
            tape.watch(x)
            loss = m.traced_step(x)
        for again in range(2):  # (a persistent tape: each gradient reads the same state)
            np.testing.assert_allclose(np.asarray(tape.gradient(loss, x)), 2 * w * X)
        np.testing.assert_array_equal(m.w, 2 * w)
    assert m.calls == 3  # (as Python counts; the gradients' traces changed nothing)


def _nested_tapes_see_the_state_of_before_each_call(call, state):
    """Two calls of ``call(x)`` (which doubles the state ``state()`` reads, after reading it)
    under an outer and an inner tape: first and second gradients of the state read, and
    the state doubled once per call."""
    x = ag.constant(X)
    for k in range(2):
        before = np.array(state())
        with ag.GradientTape() as outer:
            outer.watch(x)
            with ag.GradientTape() as inner:
                inner.watch(x)
                loss = call(x)
            g = inner.gradient(loss, x)
        np.testing.assert_allclose(np.asarray(g), 2 * before * X)
        np.testing.assert_allclose(np.asarray(outer.gradient(g, x)), 2 * before)
        np.testing.assert_array_equal(state(), 2 * before)  # written once per call


def test_nested_tapes_over_a_call_that_assigns_a_variable():
    v = ag.Variable(W.copy())

    @ag.defun(backend="interpreter")
    def f(x):
        loss = (v * x * x).sum()
        v.assign(v * 2.0)
        return loss

    _nested_tapes_see_the_state_of_before_each_call(f, v.numpy)


def test_nested_tapes_over_a_call_that_writes_an_array_argument():
    @ag.defun(backend="interpreter")
    def f(x, w):
        loss = (w * x * x).sum()
        w *= 2.0
        return loss

    w = W.copy()
    _nested_tapes_see_the_state_of_before_each_call(lambda x: f(x, w), lambda: w)


def _product(x, w):
    return (x * x * w).sum()


class Holder:
    def __init__(self):
        self.w = W.copy()


def _held_product(h, x):
    return (x * x * h.w).sum()


_PRODUCT = ag.defun(_product, backend="interpreter")
_HELD = ag.defun(_held_product, backend="interpreter")


@pytest.mark.parametrize("how,state", [
    (how, state) for how in ("eager", "call", "call under nested tapes")
    for state in ("array", "variable", "object's array")
    if (how, state) != ("eager", "object's array")])  # (eagerly it is the array it is)
def test_state_the_caller_writes_after_the_call_does_not_reach_its_gradient(how, state):
    """`y = (x * x * w).sum(); w *= 10; tape.gradient(y, x)` is 2 x w of the w read: the
    tape keeps copies of the NumPy arrays and variables an entry read (before session 36 it
    kept the caller's buffers, and gave 10 times the gradient)."""
    x = ag.constant(X)
    w = ag.Variable(W.copy()) if state == "variable" else W.copy()
    h = Holder()
    if how == "eager":
        run = lambda: _product(x, w)  # noqa: E731 - eager ops on the tensor
    elif state == "object's array":
        run = lambda: _HELD(h, x)  # noqa: E731
    else:
        run = lambda: _PRODUCT(x, w)  # noqa: E731
    with ag.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with ag.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = run()
        if how != "call under nested tapes":
            outer = None
        if state == "variable":
            w.assign(w * 10.0)
        elif state == "array":
            w *= 10.0
        else:
            h.w *= 10.0
        g = tape.gradient(y, x)
    np.testing.assert_allclose(np.asarray(g), 2 * W * X)
    if outer is not None:
        np.testing.assert_allclose(np.asarray(outer.gradient(g, x)), 2 * W)


def test_a_constant_is_not_a_view_of_the_array_it_was_made_from():
    a = W.copy()
    c, t = ag.constant(a), ag.convert_to_tensor(a)
    a[0] = 9.0
    np.testing.assert_array_equal(c.numpy(), W)
    np.testing.assert_array_equal(t.numpy(), W)
