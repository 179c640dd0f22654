"""Python callbacks (SPEC §4): ag.py_func / ag.py_function eagerly, on the interpreter and
compiled, at their place in program order (straight-line, staged branches, staged loops).

Compiles are kept few: each cpu test compiles one or two small kernels.
"""
import math

import numpy as np
import pytest

import autograph_lite as ag
from differential import agree, assert_same


def defun(f, backend):
    return ag.defun(f, autograph=False, backend=backend)


class Counter:
    def __init__(self, fn=None):
        self.n = 0
        self.fn = fn

    def __call__(self, *args):
        self.n += 1
        return self.fn(*args) if self.fn else None


# the seed examples --------------------------------------------------------------------------
def log_huber(x, m):
    if abs(x) <= m:
        return x ** 2
    else:
        return m ** 2 * (1 - 2 * math.log(m) + math.log(x ** 2))


def test_log_huber_through_py_function(backend):
    def f(x, m):
        return ag.py_function(log_huber, [x, m], ag.float64)
    g = defun(f, backend)
    assert_same(g(np.float64(1.0), np.float64(2.0)), np.float64(1.0))
    want = 4.0 * (1 - 2 * math.log(2.0) + math.log(9.0))
    assert_same(g(np.float64(3.0), np.float64(2.0)), np.float64(want))
    assert g.experimental_get_tracing_count() == 1


def test_sinh_through_py_func_three_ways():
    def f(x):
        return ag.py_func(np.sinh, [x], ag.float64) * 2.0 + x

    def oracle(x):
        return np.sinh(x) * 2.0 + x
    x = np.linspace(-2, 2, 5)
    agree(f, x, oracle=oracle, autograph=False, independent=True)
    assert_same(f(x), oracle(x), what="eager")


# call counts -----------------------------------------------------------------------------------
def test_call_count_straight_line_and_order(backend):
    log = []

    def record(tag):
        def cb(x):
            log.append((tag, float(x)))
            return x + 1.0
        cb.__name__ = f"record_{tag}"
        return cb
    a, b = record("a"), record("b")

    def f(x):
        y = ag.py_func(a, [x], ag.float64)
        z = ag.py_func(b, [y * 10.0], ag.float64)
        ag.py_func(lambda v: log.append(("c", float(v))), [z], None)  # kept: a side effect
        return z
    g = defun(f, backend)
    assert_same(g(np.float64(1.0)), np.float64(21.0))
    assert log == [("a", 1.0), ("b", 20.0), ("c", 21.0)]
    g(np.float64(2.0))
    assert len(log) == 6


def test_call_count_in_taken_and_untaken_branch(backend):
    hit_t, hit_f = Counter(lambda x: x * 2.0), Counter(lambda x: x - 1.0)

    def f(x):
        return ag.cond(x > 0.0, lambda: ag.py_func(hit_t, [x], ag.float64),
                       lambda: ag.py_func(hit_f, [x], ag.float64))
    g = defun(f, backend)
    assert_same(g(np.float64(3.0)), np.float64(6.0))
    assert (hit_t.n, hit_f.n) == (1, 0)
    assert_same(g(np.float64(-3.0)), np.float64(-4.0))
    assert (hit_t.n, hit_f.n) == (1, 1)


def test_called_once_per_loop_iteration(backend):
    seen = []

    def step(i, acc):
        seen.append(int(i))
        return acc + i * 0.5

    def f(n, x):
        def body(i, acc):
            return i + 1, ag.py_func(step, [i, acc], ag.TensorSpec([3], ag.float64))
        return ag.while_loop(lambda i, acc: i < n, body, (np.int64(0), x))[1]
    g = defun(f, backend)
    out = g(np.int64(5), np.zeros(3))
    assert seen == [0, 1, 2, 3, 4]
    assert_same(out, np.full(3, 5.0))
    g(np.int64(0), np.zeros(3))
    assert len(seen) == 5


def test_callback_in_a_staged_loop_condition_runs_as_often_as_in_python(backend):
    seen = []

    def test_(i):
        seen.append(int(i))
        return np.bool_(i < 4)

    i = 0  # the oracle: plain Python evaluates the test 5 times (the last one fails)
    while test_(i):
        i += 1
    want, seen[:] = list(seen), []

    def f(x):
        return ag.while_loop(lambda i: ag.py_func(test_, [i], ag.bool_), lambda i: i + 1, x)
    g = defun(f, backend)
    for _ in range(2):
        assert_same(g(np.int64(0)), np.int64(4))
        assert seen == want  # not once more outside the loop
        seen.clear()


def test_a_loop_condition_probed_with_python_values_runs_no_extra_callback(backend):
    """The loop starts from Python values, so its first test is evaluated to decide
    whether the loop stages; when it stages, what that probe staged must not stay in
    the function's graph (it ran the callback once more per call). Both the explicit
    ag.while_loop and an AutoGraph `while` statement."""
    seen = []

    def test_(i):
        seen.append(int(i))
        return np.bool_(i < 3)

    def explicit(x):
        n = ag.while_loop(lambda i: ag.py_func(test_, [i], ag.bool_), lambda i: (i + 1,),
                          (0,))[0]
        return x * n

    def statement(x):
        i = 0
        while ag.py_func(test_, [i], ag.bool_):
            i += 1
        return x * i

    for f, autograph in ((explicit, False), (statement, True)):
        g = ag.defun(f, autograph=autograph, backend=backend)
        for _ in range(2):
            assert_same(g(np.float64(2.0)), np.float64(6.0))
            assert seen == [0, 1, 2, 3], (f.__name__, seen)  # as plain Python: 4 tests
            seen.clear()


def test_a_result_nobody_uses_still_runs_the_callback(backend):
    log = []

    def note(x):
        log.append(float(x))
        return x

    def pair(x):
        return note(x), x * 2.0

    def f(x):
        ag.py_func(note, [x], ag.float64)  # for its side effect alone
        return ag.py_func(pair, [x + 1.0], [ag.float64, ag.float64])[1] + 1.0  # 1st unused
    g = defun(f, backend)
    assert_same(g(np.float64(2.0)), np.float64(7.0))
    assert log == [2.0, 3.0]


# Tout forms ------------------------------------------------------------------------------------
def _forms(x):
    one = ag.py_func(lambda a: a * 2.0, [x], ag.float64)
    pair = ag.py_func(lambda a: (a + 1.0, np.int32(7)), [x],
                      [ag.float64, ag.TensorSpec([], ag.int32)])
    tup = ag.py_func(lambda a: [a.sum()], [x], (ag.TensorSpec([], ag.float64),))
    none = ag.py_func(lambda a: None, [x], None)
    empty = ag.py_func(lambda a: None, [x], [])
    spec = ag.py_func(lambda a: np.stack([a, a]), [x], ag.TensorSpec([2, None], ag.float64))
    return one, pair, tup, none, empty, spec


def test_every_tout_form(backend):
    x = np.arange(3.0)
    want = (x * 2.0, [x + 1.0, np.int32(7)], [np.float64(3.0)], None, [], np.stack([x, x]))
    assert_same(list(_forms(x)), list(want), what="eager")
    got = defun(_forms, backend)(x)
    assert isinstance(got[1], list) and isinstance(got[2], list)
    assert_same(list(got), list(want), what=backend)


def test_python_scalars_and_lists_convert_to_tout():
    def f(x):
        return (ag.py_func(lambda a: 1, [x], ag.float32),
                ag.py_func(lambda a: [1.5, 2.5], [x], ag.TensorSpec([2], ag.float64)))
    assert_same(list(f(np.float32(1))), [np.float32(1), np.array([1.5, 2.5])])
    with pytest.raises(TypeError, match="does not convert to int64"):
        ag.py_func(lambda: 1.5, [], ag.int64)


# inputs are read-only; returning them is safe ----------------------------------------------------
def test_inputs_are_read_only(backend):
    def scribble(a):
        a[0] = 100.0
        return a

    def f(x):
        return ag.py_func(scribble, [x + 0.0], ag.float64)
    with pytest.raises(ValueError, match="read-only"):
        ag.py_func(scribble, [np.ones(2)], ag.float64)
    with pytest.raises(ValueError, match="read-only"):
        defun(f, backend)(np.ones(2))


def test_returning_an_input_or_view_is_copied(backend):
    def f(x):
        y = ag.py_func(lambda a: a, [x], ag.float64)
        z = ag.py_func(lambda a: a[::-1], [x], ag.float64)
        return y, z
    x = np.arange(4.0)
    y, z = defun(f, backend)(x)
    assert_same([y, z], [x, x[::-1]])
    y.numpy()[0] = 50.0
    z.numpy()[0] = 60.0
    assert_same(x, np.arange(4.0))


# errors -----------------------------------------------------------------------------------------
def test_wrong_count_dtype_and_shape_errors(backend):
    def f(x, which):
        cases = {
            "count": lambda: ag.py_func(lambda a: (a, a), [x], [ag.float64], name="cnt"),
            "dtype": lambda: ag.py_func(lambda a: a.astype(np.float32), [x], ag.float64),
            "shape": lambda: ag.py_func(lambda a: a[:2], [x], ag.TensorSpec([3], ag.float64),
                                        name="shp"),
            "rank": lambda: ag.py_func(np.sum, [x], ag.float64),
        }
        return cases[which]()
    g = defun(f, backend)
    x = np.ones(3)
    with pytest.raises(TypeError, match=r"'cnt'.*returned 2 values.*Tout=\[float64\]"):
        g(x, "count")
    with pytest.raises(TypeError, match=r"'<lambda>' output 0 \(Tout=float64\) has dtype "
                                        r"float32, expected float64"):
        g(x, "dtype")
    with pytest.raises(ValueError, match=r"'shp' output 0 \(Tout=float64\[3\]\) has shape "
                                         r"\(2,\), expected \(3,\)"):
        g(x, "shape")
    with pytest.raises(ValueError, match=r"'sum' output 0.*expected rank 1.*TensorSpec\(\[\]"):
        g(x, "rank")


def test_eager_errors_name_the_callback():
    with pytest.raises(TypeError, match=r"'two' returned 2 values, but Tout=float64 expects 1"):
        ag.py_func(lambda: (np.ones(1), np.ones(1)), [], ag.float64, name="two")
    with pytest.raises(TypeError, match="expects none"):
        ag.py_func(lambda: 1.0, [], None)
    with pytest.raises(ValueError, match="expected"):
        ag.numpy_function(lambda: np.ones(2), [], ag.TensorSpec([3], ag.float64))


class Boom(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def test_exception_from_a_compiled_loop_propagates_and_function_recovers(backend):
    def cb(i):
        if i == 3:
            raise Boom("bad step 3", 42)
        return i * 2

    def f(n):
        def body(i, s):
            return i + 1, s + ag.py_func(cb, [i], ag.int64)
        return ag.while_loop(lambda i, s: i < n, body, (np.int64(0), np.int64(0)))[1]
    g = defun(f, backend)
    with pytest.raises(Boom, match="bad step 3") as info:
        g(np.int64(5))
    if backend == "cpu":
        assert info.value.code == 42  # the very exception object
    assert_same(g(np.int64(3)), np.int64(6))
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        defun(lambda x: ag.py_func(lambda a: 1 / 0, [x], ag.float64), backend)(np.float64(1))


# stateful / stateless -------------------------------------------------------------------------
def test_stateless_calls_merge_and_unused_are_dropped(backend):
    pure, kept = Counter(lambda a: a * 3.0), Counter(lambda a: a * 3.0)

    def f(x):
        a = ag.py_func(pure, [x], ag.float64, stateful=False)
        b = ag.py_func(pure, [x], ag.float64, stateful=False)
        ag.py_func(pure, [x * 2.0], ag.float64, stateful=False)  # unused: dropped
        c = ag.py_func(kept, [x], ag.float64)
        d = ag.py_func(kept, [x], ag.float64)
        return a + b + c + d
    g = defun(f, backend)
    assert_same(g(np.arange(2.0)), np.arange(2.0) * 12.0)
    assert (pure.n, kept.n) == (1, 2)
    text = str(g.get_concrete_function(np.arange(2.0)).graph)
    assert text.count("py_func_stateless(") == 1 and text.count("py_func(") == 2


# py_function gets eager tensors -----------------------------------------------------------------
def test_py_function_receives_eager_tensors_and_may_use_ag_ops(backend):
    kinds = []

    def cb(x, y):
        kinds.append((type(x), type(y)))
        return ag.reduce_sum(x * y), ag.sqrt(x)

    def f(x, y):
        s, r = ag.eager_py_func(cb, [x, y], [ag.TensorSpec([], ag.float64), ag.float64])
        return s + 1.0, r
    x = np.array([1.0, 4.0])
    assert_same(list(defun(f, backend)(x, x)), [np.float64(18.0), np.array([1.0, 2.0])])
    eager = type(ag.constant(1.0))
    assert kinds == [(eager, eager)]


def test_graph_text_shows_the_callback():
    def my_callback(a):
        return a

    def f(x):
        return ag.py_func(my_callback, [x], ag.float64, name="step")
    text = str(defun(f, "interpreter").get_concrete_function(np.ones(2)).graph)
    assert "py_func(%x; func=my_callback, Tout=float64, name='step')" in text


def test_callbacks_work_under_autograph():
    def f(x):
        if x > 0.0:
            x = ag.py_func(lambda a: a + 1.0, [x], ag.float64)
        return x
    agree(f, np.float64(2.0))


def _doubled(v):
    return v * 2.0


def callbacks_in_and_after_a_loop(x, n):
    s = x * 0.0
    for i in range(n):
        s = ag.py_func(_doubled, [s + x * i], ag.float64)
        if i > 0:
            print("row", i, s)
    print("after", s)
    return ag.py_func(_doubled, [s], ag.float64)


@pytest.mark.parametrize("x", [np.float64(1.5), np.array([0.25, -2.0])])
def test_callbacks_and_prints_in_a_loop_and_after_it_compile(x):
    # objmode blocks written in the kernel, one in a loop or branch and one after it
    # reading an array, broke Numba's lowering ("Instruction does not dominate all uses",
    # numba#9574); each is a helper function of the kernel's module now (Emitter.objmode)
    agree(callbacks_in_and_after_a_loop, calls=[(x, np.int64(3)), (x * 2, np.int64(1))],
          exact=True)


# what a callback closes over -------------------------------------------------------------------
def scaled_by_closure(x, k):
    return ag.py_func(lambda v: v * k, [x], ag.float64)


def shifted_per_trip(x, k):
    s = x * 0.0
    for i in range(3):  # a Python loop: each callback sees its own `i`
        s = s + ag.py_func(lambda v: v * k + i, [x], ag.float64)
    return s


def centred(x, k):
    m = x.mean()  # a value of the trace, read by the callback when the kernel runs
    return ag.py_function(lambda v, c=k: v - m * c, [x], ag.float64)


def scaled_by_a_list(x):
    ms = [x.min(), x.max()]
    return ag.py_func(lambda v: v * ms[0], [x], ag.float64)


def through_a_closure(x, k):
    g = lambda v: v * k  # noqa: E731 - the closure the callback reaches k through
    return ag.py_func(lambda v: g(v) + 1, [x], ag.float64)


def counts_in_the_trace(x):
    n = 0

    def bump(v):
        nonlocal n
        n += 1
        return v + n
    return ag.py_func(bump, [x], ag.float64)


def test_a_callback_sees_what_it_closes_over_as_python_would():
    # before: `k` relaxed on its second value and the lambda read a finished trace's tensor
    # (ValueError); a lambda of a Python loop saw the loop's last `i` on every trip
    x = np.array([1.0, 2.0])
    calls = [(x, 2.0), (x, 3.0), (x * 2, 4.0)]
    for fn in (scaled_by_closure, shifted_per_trip, centred, through_a_closure):
        agree(fn, calls=calls, autograph=True)
    with pytest.raises(NotImplementedError, match="reads 'ms', a container holding tensors"):
        ag.defun(scaled_by_a_list)(x)
    # (its cell would count from call to call, where Python's starts at 0 on each call)
    with pytest.raises(NotImplementedError, match="assigns 'n' of the traced function"):
        ag.defun(counts_in_the_trace)(x)


# a callback that raises after the function changed state ---------------------------------------
class NotFinite(ValueError):
    def __init__(self, where):
        super().__init__(f"non-finite at {where}")
        self.where = where


def refuse_non_finite(v):
    if not np.isfinite(v).all():
        raise NotFinite(int(np.argmin(np.isfinite(v))))
    return v


class Stepper:
    def __init__(self):
        self.steps, self.w = 0, np.zeros(2)


def step_then_check(s, x, out):
    s.steps += 1
    s.w = s.w + x
    out[0] = out[0] + 1.0
    return ag.py_func(refuse_non_finite, [x], ag.float64) * 2


def check_each_trip(x, out, n):
    for i in range(n):
        out[i] = x[i] * 10.0
        ag.py_func(refuse_non_finite, [x[i:i + 1]], ag.float64)
    return out.sum()


def test_state_before_a_raising_callback_is_kept_as_python_keeps_it():
    # before: bindings into objects (and a cpu kernel's copy-backs) made before the callback
    # were lost when it raised: Python had counted the step
    for backend in ("interpreter", "cpu"):
        f = ag.defun(step_then_check, backend=backend)
        for fn, s in ((step_then_check, Stepper()), (f, Stepper())):
            out = np.zeros(1)
            for x in (np.ones(2), np.array([1.0, np.nan]), np.ones(2)):
                try:
                    fn(s, x, out)
                except NotFinite as e:
                    assert e.where == 1 and "non-finite at 1" in str(e)
            if fn is step_then_check:
                want = (s.steps, s.w.copy(), out.copy())
            else:
                assert (s.steps, out[0]) == (want[0], want[2][0]) and s.steps == 3
                np.testing.assert_array_equal(s.w, want[1])
        g = ag.defun(check_each_trip, backend=backend)
        x = np.array([1.0, 2.0, np.inf, 4.0])
        for fn in (check_each_trip, g):
            out = np.zeros(4)
            with pytest.raises(NotFinite):
                fn(x, out, np.int64(4))
            np.testing.assert_array_equal(out, [10.0, 20.0, np.inf, 0.0])


# what a callback sees of the function's own writes before it ----------------------------------
class Logged:
    def __init__(self):
        self.w, self.seen = np.array([1.0, 2.0]), []

    def log(self, v):
        self.seen.append(self.w.tolist())
        return v


def rebind_then_log(m, x, out):
    m.w = m.w - x                        # a binding Python makes now, before the callback
    out[0] = out[0] + 1.0                # a write into an argument
    y = ag.py_func(m.log, [x], ag.float64)
    m.w = m.w * 2.0                      # later bindings: after it, as in Python
    return y


def test_a_callback_sees_the_function_s_writes_and_bindings_before_it():
    # before: the bindings were made at the end of the call, so the callback saw m.w of
    # before the call
    for backend in ("interpreter", "cpu"):
        f = ag.defun(rebind_then_log, backend=backend)
        mine, python = Logged(), Logged()
        out_mine, out_python = np.zeros(1), np.zeros(1)
        for x in (np.ones(2), np.array([0.5, 0.25])):
            rebind_then_log(python, x, out_python)
            f(mine, x, out_mine)
        assert mine.seen == python.seen
        np.testing.assert_array_equal(mine.w, python.w)
        np.testing.assert_array_equal(out_mine, out_python)
