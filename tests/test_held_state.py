"""The state of the user's objects a Function is called with (held_state.py): arrays they
hold are read on each call, and written as NumPy writes them; their other values are part
of the signature. Before session 35 a trace baked all of it in: `m.predict(x)` kept giving
the first call's result after `m.w = m.w * 2`, `m.lr = 0.1` or `m.w[0] = 5` (silently)."""

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS


class Model:
    def __init__(self):
        self.w = np.ones(3)
        self.lr = 0.5
        self.layers = {"b": [np.zeros(3), np.full(3, 2.0)]}

    def predict(self, x):
        return (self.w * x).sum() + self.layers["b"][1].sum()

    def update(self, g):
        self.w -= self.lr * g          # NumPy's in-place update of the caller's array
        self.layers["b"][0][1] = g[2]


def predict(m, x):
    return m.predict(x) * m.lr


X = np.arange(3.0)


def _oracle_predict(m, x):
    return ((m.w * x).sum() + m.layers["b"][1].sum()) * m.lr


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_argument_objects_state_is_read_on_every_call(backend):
    f, m = ag.defun(predict, backend=backend), Model()
    for change in (lambda: None,
                   lambda: m.w.__setitem__(0, 5.0),               # written in place
                   lambda: setattr(m, "w", m.w * 2),               # rebound, same shape
                   lambda: m.layers["b"][1].fill(-1.0),            # held deeper
                   lambda: setattr(m, "lr", 0.25)):                # a Python value
        change()
        assert float(f(m, X)) == pytest.approx(_oracle_predict(m, X))
    # the arrays are inputs (no new trace for new values); lr is a signature value
    assert f.experimental_get_tracing_count() == 2
    m.w = np.ones(4)                                               # another shape: a trace
    assert float(f(m, np.arange(4.0))) == pytest.approx(_oracle_predict(m, np.arange(4.0)))


class Stepper:
    def __init__(self):
        self.w = np.ones(3)
        self.scale = 2.0

    @ag.defun
    def apply(self, x):
        return (self.w * x).sum() * self.scale

    @ag.defun
    def update(self, g):
        self.w -= 0.5 * g


def test_a_method_reads_and_writes_the_state_of_self():
    s = Stepper()
    assert float(s.apply(X)) == pytest.approx(6.0)
    s.w = s.w * 2
    assert float(s.apply(X)) == pytest.approx(12.0)
    s.scale = 3.0
    assert float(s.apply(X)) == pytest.approx(18.0)
    kept = s.w
    s.update(X)                       # was refused: a write into an array self holds
    assert s.w is kept
    np.testing.assert_allclose(s.w, [2.0, 1.5, 1.0])
    assert float(s.apply(X)) == pytest.approx(3.0 * (1.5 + 2.0))


def test_writes_into_arrays_an_argument_object_holds_reach_them():
    m = Model()
    f = ag.defun(Model.update)
    b0 = m.layers["b"][0]
    f(m, X)
    np.testing.assert_allclose(m.w, 1.0 - 0.5 * X)
    assert m.layers["b"][0] is b0 and b0[1] == 2.0
    f(m, X)
    np.testing.assert_allclose(m.w, 1.0 - X)


def test_an_object_holding_a_traced_value_after_the_call_is_still_refused():
    class Box:
        def __init__(self):
            self.t = np.zeros(2)

    def keep(b, x):
        b.t = x * 2.0                 # a new value left in the object: not an array write
        return x

    with pytest.raises(TypeError, match="stores a traced value in 'b.t'"):
        ag.defun(keep, backend="interpreter")(Box(), X[:2])


def test_gradients_read_the_state_of_the_call():
    class Quad:
        def __init__(self):
            self.w = np.array([1.0, 2.0, 3.0])

        @ag.defun
        def f(self, x):
            s = 0.0
            for i in range(x.shape[0]):
                s += self.w[i] * x[i] ** 2
            return s

    def g(q, x):
        return (q.w * x * x).sum()

    q, G = Quad(), ag.defun(g)
    x = ag.constant(np.array([1.0, 0.5, 2.0]))
    for change in (lambda: None, lambda: setattr(q, "w", q.w * 10),
                   lambda: q.w.__setitem__(0, -1.0)):
        change()
        for call in (q.f, lambda x: G(q, x)):
            with ag.GradientTape() as tape:
                tape.watch(x)
                y = call(x)
            np.testing.assert_allclose(np.asarray(tape.gradient(y, x)), 2 * q.w * x.numpy())


def test_objects_inside_the_containers_passed_are_read_too():
    def f(cfg, x):
        return (cfg["model"].w * x).sum() + cfg["k"]

    m = Model()
    F = ag.defun(f)
    assert float(F({"model": m, "k": 1.0}, X)) == pytest.approx(4.0)
    m.w[2] = 10.0
    assert float(F({"model": m, "k": 1.0}, X)) == pytest.approx(22.0)


def test_an_unhashable_object_such_as_a_dataclass_is_passed_and_read():
    import dataclasses

    @dataclasses.dataclass
    class Params:                     # eq=True makes it unhashable (was refused)
        w: np.ndarray
        act: object = np.tanh

    def f(p, x):
        return p.act(p.w * x)

    p, F = Params(np.ones(3)), ag.defun(f)
    np.testing.assert_allclose(F(p, X).numpy(), np.tanh(X))
    p.act = np.sin                    # another function: another trace
    p.w[1] = 3.0
    np.testing.assert_allclose(F(p, X).numpy(), np.sin(p.w * X))


def test_state_that_changes_on_every_call_is_named_by_the_retrace_warning():
    class Logged:
        def __init__(self):
            self.w = np.ones(3)
            self.history = []

        @ag.defun(backend="interpreter")
        def f(self, x):
            return (self.w * x).sum()

    m = Logged()
    with pytest.warns(UserWarning, match=r"state of an object it is called with keeps "
                                         r"changing \(self.history\[\d\]\)"):
        for _ in range(8):
            m.history.append(float(m.f(X)))
    assert m.history == [3.0] * 8   # (ones . arange(3))


def test_an_object_with_slots_is_read_too():
    class Slotted:
        __slots__ = ("w", "k")

        def __init__(self):
            self.w, self.k = np.ones(3), 2.0

    def f(s, x):
        return (s.w * x).sum() * s.k

    s, F = Slotted(), ag.defun(f)
    assert float(F(s, X)) == pytest.approx(6.0)
    s.w[0], s.k = 4.0, 3.0
    assert float(F(s, X)) == pytest.approx(9.0)


def test_a_write_into_one_of_two_held_arrays_that_share_memory_is_refused():
    class Grid:
        def __init__(self):
            self.u = np.zeros(5)
            self.inner = self.u[1:-1]     # a view the object keeps

    def bump(g, f):
        g.inner += f
        return g.u.sum()

    with pytest.raises(ValueError, match="'g.inner' and 'g.u' share memory .* held by an "
                                         "object"):
        ag.defun(bump, backend="interpreter")(Grid(), np.ones(3))
    g = Grid()                          # reading both is fine
    read = ag.defun(lambda g, f: (g.inner * f).sum() + g.u[0], backend="interpreter")
    g.u[:] = 2.0
    assert float(read(g, np.ones(3))) == pytest.approx(8.0)


def test_exporting_a_function_that_reads_an_objects_arrays_is_refused(tmp_path):
    f = ag.defun(predict)
    cf = f.get_concrete_function(Model(), X)
    with pytest.raises(ValueError, match=r"cannot export predict: it reads the arrays of an "
                                         r"object it is called with \(m.w"):
        cf.export(str(tmp_path / "m.py"))


class Shifted:
    def __init__(self, w):
        self.w = w

    def __add__(self, other):          # run by Python's `+`, not converted
        return self.w[0] + other


def test_an_operator_method_python_runs_reads_the_call_s_arrays():
    # the trace puts the input box where the object holds the array (held_state.place):
    # `self.w[0]` read by NumPy itself in the unconverted method was baked before
    f = ag.defun(lambda v, x: v + x, backend="interpreter")
    v = Shifted(np.ones(3))
    np.testing.assert_allclose(f(v, X).numpy(), 1.0 + X)
    v.w[0] = 10.0
    np.testing.assert_allclose(f(v, X).numpy(), 10.0 + X)
    assert type(v.w) is np.ndarray     # the object's array is back after the trace


def test_a_method_under_an_input_signature_reads_self_too():
    class Sig:
        def __init__(self):
            self.w, self.k = np.ones(3), 1.0

        @ag.defun(input_signature=[ag.TensorSpec([None], np.float64)], backend="interpreter")
        def f(self, x):
            return (self.w * x).sum() * self.k

    s = Sig()
    assert float(s.f(X)) == pytest.approx(3.0)
    s.w, s.k = np.full(3, 2.0), 3.0
    assert float(s.f(X)) == pytest.approx(18.0)
    s.w = np.ones(4)                   # another shape of a held array: traced again
    assert float(s.f(np.arange(4.0))) == pytest.approx(18.0)
