"""``ag.Variable``, ``ag.Module`` and ``ag.optimizers`` (SPEC §5): variables captured by
reference (never baked), assignments inside compiled code that persist, creation on the
first trace only, gradients with respect to variables eagerly, through compiled calls and
inside a compiled train step."""
import numpy as np
import pytest

import autograph_lite as ag
from gradcheck import BACKENDS, finite_difference

X = np.array([0.3, -0.7, 1.1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_counter_created_on_the_first_trace_counts_over_calls(backend):
    @ag.defun(backend=backend)
    def counter():
        c = ag.Variable(0.0)
        c.assign_add(1.0)
        return c.read_value()
    assert [float(np.asarray(counter())) for _ in range(3)] == [1.0, 2.0, 3.0]
    assert counter.tracing_count == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_captured_variable_is_read_and_written_by_reference(backend):
    v = ag.Variable(np.ones(3), name="v")
    f = ag.defun(lambda x: np.sum(v.assign(v * x)), backend=backend)
    assert float(np.asarray(f(X))) == pytest.approx(np.sum(X))
    np.testing.assert_array_equal(v.numpy(), X)
    v.assign(np.full(3, 2.0))                 # an eager write is seen by the next call
    assert float(np.asarray(f(X))) == pytest.approx(2.0 * np.sum(X))
    np.testing.assert_array_equal(v.numpy(), 2.0 * X)
    assert f.tracing_count == 1               # (captured, not baked: no retrace)


@pytest.mark.parametrize("backend", BACKENDS)
def test_variables_passed_as_arguments_are_written_in_place(backend):
    f = ag.defun(lambda a, x: a.assign_add(x) * 1.0, backend=backend)
    u, w = ag.Variable(np.zeros(3)), ag.Variable(np.ones(3))
    for _ in range(2):
        f(u, X)
        f(w, X)          # the same kernel: each call writes the variable it was given
    np.testing.assert_allclose(u.numpy(), 2 * X)
    np.testing.assert_allclose(w.numpy(), 1 + 2 * X)
    with ag.GradientTape() as tape:
        y = np.sum(ag.defun(lambda a: np.sin(a) * 1.0, backend=backend)(u))
    np.testing.assert_allclose(np.asarray(tape.gradient(y, u)), np.cos(2 * X), rtol=1e-12)


SHARED = ag.Variable(np.array([1.0, 2.0]), name="shared")


def _assign_in_branch(x):
    if np.sum(x) > 0:          # a staged `if`: the variable's first use is in its branch
        SHARED.assign_add(x)
    return SHARED.read_value()


def _assign_in_loop(x, n):
    for i in range(n):         # a staged loop: first used in its body
        SHARED.assign(SHARED * 0.5 + x)
    return np.sum(x)


def _assign_in_loop_by_hand(v, x, n):
    for i in range(n):
        v = v * 0.5 + x
    return v


@pytest.mark.parametrize("backend", BACKENDS)
def test_assignments_inside_staged_branches_and_loops_persist(backend):
    # before: a variable first used inside the staged region was not its state (KeyError
    # on the interpreter, "used before it was emitted" on cpu)
    f, g = ag.defun(_assign_in_branch, backend=backend), ag.defun(_assign_in_loop,
                                                                    backend=backend)
    for x in (X[:2], -X[:2], X[1:]):
        start = SHARED.numpy()
        np.testing.assert_allclose(np.asarray(f(x)), start + x if x.sum() > 0 else start)
        np.testing.assert_allclose(SHARED.numpy(), start + x if x.sum() > 0 else start)
    for n in (2, 0, 3):
        start = SHARED.numpy()
        g(X[:2], np.int64(n))
        np.testing.assert_allclose(SHARED.numpy(), _assign_in_loop_by_hand(start, X[:2], n))


def test_returning_a_variable_returns_its_value_and_reads_see_assignments():
    v = ag.Variable(1.0)

    @ag.defun
    def f():
        before = v.read_value()
        v.assign_sub(0.25)
        return before, v
    before, after = f()
    assert float(np.asarray(before)) == 1.0 and float(np.asarray(after)) == 0.75
    assert not isinstance(after, ag.Variable)
    assert float(v.numpy()) == 0.75


def test_assignment_errors():
    v = ag.Variable(np.zeros(2), name="v")
    with pytest.raises(ValueError, match="shape \\(3,\\) to the variable 'v' of shape \\(2,\\)"):
        v.assign(np.ones(3))
    with pytest.raises(ValueError, match="of shape"):
        ag.defun(lambda: v.assign(np.ones(3)))()
    with pytest.raises(NotImplementedError, match="initial value must be known"):
        ag.defun(lambda x: ag.Variable(x))(np.ones(2))


def model(w, b, x):
    return np.sum(np.tanh(w * x) + b * b)


def test_tape_watches_trainable_variables_it_reads():
    w, b = ag.Variable(np.array([1.0, 2.0, -1.0])), ag.Variable(0.5)
    frozen = ag.Variable(np.ones(3), trainable=False)
    with ag.GradientTape() as tape:
        y = model(w, b, X) + np.sum(frozen)
    gw, gb, gf = tape.gradient(y, [w, b, frozen])
    args = (w.numpy(), np.asarray(b.numpy()), X)
    np.testing.assert_allclose(np.asarray(gw), finite_difference(model, args, 0), rtol=1e-6)
    np.testing.assert_allclose(float(np.asarray(gb)), 1.0 * 3 * 0.0 + 2 * 0.5 * 3, rtol=1e-6)
    assert gf is None                          # not trainable: not watched


def test_gradient_through_a_compiled_call_that_captures_variables():
    w, b = ag.Variable(np.array([1.0, 2.0, -1.0])), ag.Variable(0.5)
    f = ag.defun(lambda x: model(w, b, x))
    with ag.GradientTape() as tape:
        y = f(X) * 2.0
    gw, gb = tape.gradient(y, [w, b])
    args = (w.numpy(), np.asarray(b.numpy()), X)
    np.testing.assert_allclose(np.asarray(gw), 2.0 * finite_difference(model, args, 0),
                               rtol=1e-6)
    np.testing.assert_allclose(float(np.asarray(gb)), 2.0 * 3.0, rtol=1e-6)


class Dense(ag.Module):
    def __init__(self, n_in, n_out, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w = ag.Variable(rng.normal(size=(n_in, n_out)) / np.sqrt(n_in), name="w")
        self.b = ag.Variable(np.zeros(n_out), name="b")

    def __call__(self, x):
        return x @ self.w + self.b


class MLP(ag.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 8, 0), Dense(8, 1, 1)]
        self.config = {"scale": ag.Variable(1.0, trainable=False)}

    @ag.defun
    def call(self, x, training):
        h = np.tanh(self.layers[0](x))
        if training:                           # a Python flag: one trace per value
            h = h * self.config["scale"]
        return self.layers[1](h)[:, 0]


def test_module_tracks_variables_through_attributes_lists_and_dicts():
    m = MLP()
    assert len(m.variables) == 5 and len(m.trainable_variables) == 4
    assert len(m.submodules) == 2


@pytest.mark.parametrize("optimizer", [ag.optimizers.SGD(1.0), ag.optimizers.SGD(0.5, 0.9),
                                       ag.optimizers.Adam(0.05)])
def test_compiled_train_step_lowers_the_loss(optimizer):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(128, 2))
    y = (x[:, 0] * x[:, 1] > 0).astype(float)
    m = MLP()

    @ag.defun
    def train_step(x, y):
        with ag.GradientTape() as tape:
            logits = m.call(x, True)
            loss = np.mean(np.logaddexp(0.0, logits) - y * logits)
        grads = tape.gradient(loss, m.trainable_variables)
        optimizer.apply_gradients(zip(grads, m.trainable_variables))
        return loss
    before = [v.numpy() for v in m.trainable_variables]
    losses = [float(np.asarray(train_step(x, y))) for _ in range(60)]
    assert losses[-1] < 0.85 * losses[0], losses[::10]
    assert train_step.tracing_count == 1
    assert all(not np.array_equal(a, v.numpy()) for a, v in zip(before, m.trainable_variables))


def test_one_sgd_step_matches_the_hand_computed_update():
    w = ag.Variable(np.array([1.0, 2.0, -1.0]))
    opt = ag.optimizers.SGD(0.1)

    @ag.defun
    def step(x):
        with ag.GradientTape() as tape:
            loss = np.sum((w * x) ** 2)
        (g,) = tape.gradient(loss, [w])
        opt.apply_gradients([(g, w)])
        return loss
    w0 = w.numpy()
    step(X)
    np.testing.assert_allclose(w.numpy(), w0 - 0.1 * 2 * w0 * X * X, rtol=1e-12)
    with pytest.raises(TypeError, match="ag.Variable"):
        opt.apply_gradients([(np.ones(3), np.ones(3))])


def test_train_mlp_example_matches_numpy_by_hand(capsys):
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train_mlp.py")
    spec = importlib.util.spec_from_file_location("train_mlp_example", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    example.main(steps=12)   # asserts the parameters equal the hand-derived NumPy step's
    out = capsys.readouterr().out
    assert "accuracy" in out and "step   11" in out, out


def _fill_squares(a, out):
    for i in range(len(a)):
        out[i] = a[i] * a[i]
    return np.sum(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_gradient_of_a_function_that_writes_its_argument_in_a_loop(backend):
    # before (cpu): a check the gradient staged carried the written argument's state, a
    # value of the forward loop it was placed before ("used before it was emitted")
    g = ag.defun(lambda a, out: ag.gradients(_fill_squares(a, out), [a])[0], backend=backend)
    for a in (np.array([1.0, 2.0, 3.0]), np.array([0.5, -2.0])):
        out = np.zeros(len(a))
        np.testing.assert_allclose(np.asarray(g(a, out)), 2 * a)
        np.testing.assert_allclose(out, a * a)


def test_snapshots_of_a_variable_do_not_follow_its_assignments():
    # before: np.array(w), ag.constant(w), w[0], w.T, w.reshape and w's rows were views of
    # its buffer (a `best = np.array(w)` checkpoint followed training), and writing into
    # np.array(t) changed the immutable tensor t
    w = ag.Variable(np.zeros((2, 2)))
    snaps = [np.array(w), ag.constant(w), w[0], w.T, w.reshape(-1), next(iter(w))]
    t = ag.constant([1.0, 2.0])
    a = np.array(t)
    a[0] = 99.0
    w.assign(np.ones((2, 2)))
    for s in snaps:
        assert not np.asarray(s).any()
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])
    assert np.shares_memory(np.asarray(w), w._np)  # (asarray may alias, as of an ndarray)


class _Trainer:
    def __init__(self, optimizer):
        self.w, self.opt = ag.Variable(np.ones(2)), optimizer

    def step(self):
        self.opt.apply_gradients([(ag.constant(np.ones(2)), self.w)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_optimizer_s_learning_rate_is_read_on_every_call(backend):
    # before: ag's optimizers were no objects of the user's, so a compiled step baked the
    # learning rate of its first call
    t = _Trainer(ag.optimizers.SGD(0.1))
    step = ag.defun(_Trainer.step, backend=backend)
    for lr in (0.1, 0.01, 0.001):
        t.opt.learning_rate = lr
        before = t.w.numpy()
        step(t)
        np.testing.assert_allclose(before - t.w.numpy(), lr)


_SGD = ag.optimizers.SGD(0.1)


def _train_step(w, x):
    with ag.GradientTape() as tape:
        loss = np.sum((x * w) ** 2)
    _SGD.apply_gradients([(tape.gradient(loss, w), w)])
    return loss


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_variable_passed_as_an_argument_is_watched_and_updated(backend):
    # before: apply_gradients refused the traced variable ("got a SymbolicVariable"), and
    # the tape did not watch it (a None gradient, which apply_gradients skips)
    w, x = ag.Variable(np.ones(2)), np.array([1.0, 2.0])
    step = ag.defun(_train_step, backend=backend)
    for _ in range(2):
        want = w.numpy() - 0.1 * 2 * x * x * w.numpy()
        step(w, x)
        np.testing.assert_allclose(w.numpy(), want)


_W = ag.Variable(np.array([1.0, -3.0]))


def _constrained_step(x):
    _W.assign(np.clip(_W, -1.0, 1.0))       # a constraint, then a tape step
    with ag.GradientTape() as tape:
        loss = np.sum((x * _W) ** 2)
    _W.assign_sub(0.1 * tape.gradient(loss, _W))
    for _ in range(2):                       # two more steps in the same trace
        g = ag.gradients(np.sum((x * _W) ** 2), [_W])[0]
        _W.assign_sub(0.1 * g)


@pytest.mark.parametrize("backend", BACKENDS)
def test_gradients_with_respect_to_a_variable_assigned_in_the_trace(backend):
    # before: the gradient was with respect to the value as the call began, through the
    # assignments: None after a constraint before the tape (the update silently skipped),
    # second-order terms from an earlier step's update; now each read's value, as in
    # TensorFlow, where an assignment is no differentiable op
    x = np.array([1.0, 2.0])
    _W.assign(np.array([1.0, -3.0]))
    ag.defun(_constrained_step, backend=backend)(x)
    w = np.clip(np.array([1.0, -3.0]), -1.0, 1.0)
    for _ in range(3):
        w = w - 0.1 * 2 * x * x * w
    np.testing.assert_allclose(_W.numpy(), w)


class _Dot(ag.Module):
    def __init__(self):
        super().__init__()
        self.w = ag.Variable(np.ones(3))

    def __call__(self, x):
        return x @ self.w


@pytest.mark.parametrize("backend", BACKENDS)
def test_replacing_a_module_s_variable_between_calls(backend):
    # before: the state's fingerprint compared the two variables with ==, elementwise
    # ("the truth value of an array ... is ambiguous")
    m, x = _Dot(), np.ones(3)
    f = ag.defun(_Dot.__call__, backend=backend)
    assert float(f(m, x)) == 3.0
    m.w = ag.Variable(np.full(3, 2.0))      # a checkpoint restored by a new variable
    assert float(f(m, x)) == 6.0


_V = ag.Variable(np.ones(2))


def _fit(x, n_steps):
    for _ in range(n_steps):                 # a staged loop: n_steps is a tensor
        with ag.GradientTape() as tape:
            loss = np.sum((x * _V) ** 2)
        _V.assign_sub(0.1 * tape.gradient(loss, _V))
    return _V.read_value()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_training_loop_staged_in_the_compiled_function(backend):
    # before: the body read the variable's loop state, no source of the tape's: a None
    # gradient ("internal error: the staged loop raised TypeError once only")
    x = np.array([1.0, 2.0])
    for n in (3, 0, 2):
        _V.assign(np.ones(2))
        want = np.ones(2)
        for _ in range(n):
            want = want - 0.1 * 2 * x * x * want
        np.testing.assert_allclose(np.asarray(ag.defun(_fit, backend=backend)(x, np.int64(n))),
                                   want)


_U = ag.Variable(np.array([2.0, -3.0]))


def _clip_under_a_staged_if(flag):
    with ag.GradientTape() as tape:
        if flag > 0:
            _U.assign(np.clip(_U, -1.0, 1.0))
        loss = np.sum(_U ** 2)
    return tape.gradient(loss, _U)


def _halve_in_a_staged_loop(n):
    with ag.GradientTape() as tape:
        i = 0
        while i < n:
            _U.assign(_U * 0.5)
            i += 1
        loss = np.sum(_U * _U)
    return tape.gradient(loss, _U)


@pytest.mark.parametrize("backend", BACKENDS)
def test_reads_after_a_staged_region_that_assigns_are_fresh_reads(backend):
    # before: the region's result was no value the variable was given: the sweep went
    # back through the clip (a zero gradient) or the halvings (scaled by 0.5 a trip)
    for flag in (1, 0):
        _U.assign(np.array([2.0, -3.0]))
        g = ag.defun(_clip_under_a_staged_if, backend=backend)(np.int64(flag))
        np.testing.assert_allclose(np.asarray(g), 2 * _U.numpy())
    for n in (1, 3):
        _U.assign(np.array([2.0, -3.0]))
        g = ag.defun(_halve_in_a_staged_loop, backend=backend)(np.int64(n))
        np.testing.assert_allclose(np.asarray(g), 2 * _U.numpy())


class _Holder:
    v = None


def _make_and_add(h, x):
    if h.v is None:
        h.v = ag.Variable(np.zeros(2))   # bound into the object; the function returns None
    h.v.assign_add(x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_returned_variables_frozen_arguments_and_intermediate_sources(backend):
    w = ag.Variable(np.array([1.0, 2.0]))
    # a returned variable is its value: not a view a later assign changes (cpu aliased it
    # after an assign in the call, the interpreter for a plain `return w`)
    r = ag.defun(lambda: w.assign(w * 10.0), backend=backend)()
    s = ag.defun(lambda: w, backend=backend)()
    w.assign(np.zeros(2))
    np.testing.assert_array_equal(r.numpy(), [10.0, 20.0])
    np.testing.assert_array_equal(s.numpy(), [10.0, 20.0])
    # a call that binds a variable it makes and returns nothing (cpu: 'NoneType' error)
    h, f = _Holder(), ag.defun(_make_and_add, backend=backend)
    for _ in range(2):
        f(h, np.array([1.0, 2.0]))
    np.testing.assert_array_equal(h.v.numpy(), [2.0, 4.0])

    # a trainable=False variable argument is not watched; a tensor computed inside the
    # tape is (TensorFlow's answers: None, and the gradient)
    def grads(v, x):
        with ag.GradientTape() as tape:
            tape.watch(x)
            h = x * 2.0
            loss = np.sum(v * v) + np.sum(h * h)
        return tape.gradient(loss, [v, h])
    frozen = ag.Variable(np.array([3.0, 4.0]), trainable=False)
    gv, gh = ag.defun(grads, backend=backend)(frozen, np.array([1.0, 3.0]))
    assert gv is None
    np.testing.assert_array_equal(np.asarray(gh), [4.0, 12.0])
