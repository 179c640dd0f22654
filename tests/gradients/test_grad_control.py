"""Gradients through staged control flow (SPEC §5): a staged ``if`` is differentiated as
the branch taken, a staged loop by a reverse sweep over its recorded iterations (run-time
trip counts, ``break``, nested loops, rows written in place, lists appended and stacked),
and ``ag.vectorized_map`` by a map of its body's sweep, each against central finite
differences; a body with a side effect refuses."""
import numpy as np
import pytest

import autograph_lite as ag
from gradcheck import BACKENDS, check, finite_difference

RNG = np.random.default_rng(1)


def branchy(x, w):
    s = np.sum(x)
    if s > 0.0:                       # staged: s is a tensor
        y = np.exp(x) * w
        if np.max(x) > 1.0:
            y = y * x
    else:
        y = x * x - w
    z = np.where(x > 0.0, y, 2.0 * y)
    return np.sum(np.sin(z)) + s * np.sum(w)


def test_gradient_of_the_branch_taken():
    pos = (RNG.uniform(0.2, 1.5, 4), RNG.normal(size=4))
    neg = (-RNG.uniform(0.2, 1.5, 4), RNG.normal(size=4))
    small = (RNG.uniform(0.1, 0.2, 4), RNG.normal(size=4))
    check(branchy, calls=[pos, neg, small], wrt=(0, 1))


def reading_outer_values(x, k):
    a = np.cos(x)                     # computed before the branch, read inside it
    if k > 0:
        out = a * x
    else:
        out = a
    return np.sum(out * out)


def test_branch_reads_values_of_the_enclosing_code():
    x = RNG.normal(size=3)
    check(reading_outer_values, calls=[(x, np.int64(1)), (x, np.int64(-1))])


def loop(x, w, n):
    y, i = x, 0
    while i < n:                      # the trip count is known only at run time
        y = np.tanh(y * w) + x
        i += 1
    return np.sum(y ** 2)


def test_while_loop_with_a_run_time_trip_count():
    x, w = RNG.normal(size=3), RNG.normal(size=3)
    check(loop, calls=[(x, w, np.int64(5)), (x, w, np.int64(0)), (x * 0.5, w, np.int64(1)),
                       (x, w, np.int64(40))], wrt=(0, 1))


def test_loop_results_and_their_gradient_in_one_kernel():
    # the recording loop takes the forward loop's place: its results stay the user's
    def f(x, w, n):
        total = loop(x, w, n)
        return total, ag.gradients(total, [x, w])
    x, w = RNG.normal(size=3), RNG.normal(size=3)
    for backend in BACKENDS:
        fn = ag.defun(f, backend=backend)
        for n in (np.int64(3), np.int64(0)):
            total, (gx, gw) = fn(x, w, n)
            assert float(np.asarray(total)) == loop(x, w, n)
            np.testing.assert_allclose(np.asarray(gx), finite_difference(loop, (x, w, n), 0),
                                       rtol=1e-6, atol=1e-8)
            np.testing.assert_allclose(np.asarray(gw), finite_difference(loop, (x, w, n), 1),
                                       rtol=1e-6, atol=1e-8)


def loop_second_derivative(x, w, n):
    # a tape over a tape: the inner gradient's recording loop is differentiated in turn
    with ag.GradientTape() as outer:
        outer.watch(x)
        with ag.GradientTape() as inner:
            inner.watch(x)
            total = loop(x, w, n)
        g = inner.gradient(total, x)
        s = np.sum(g * np.cos(x))
    return s, outer.gradient(s, x)


def test_second_derivative_through_a_loop_of_many_trips():
    # the recording's stacks grow while it runs (a stack of them could not be stacked)
    x, w = RNG.normal(size=3), RNG.normal(size=3)
    first = ag.defun(loop_second_derivative, backend="interpreter")
    for backend in BACKENDS:
        fn = first if backend == "interpreter" else ag.defun(loop_second_derivative,
                                                             backend=backend)
        for n in (np.int64(6), np.int64(0), np.int64(3)):
            def s_of(x_):
                return float(np.asarray(first(x_, w, n)[0]))
            s, h = fn(x, w, n)
            np.testing.assert_allclose(np.asarray(h), finite_difference(s_of, (x,), 0),
                                       rtol=1e-5, atol=1e-8)


def second_through_a_broadcast(x, m):
    # the inner gradient sums over the axis `x` was broadcast along (`sum_to`), which the
    # outer gradient differentiates in turn
    with ag.GradientTape() as outer:
        outer.watch(x)
        with ag.GradientTape() as inner:
            inner.watch(x)
            total = np.sum(np.tanh(m * x) * m)
        s = np.sum(inner.gradient(total, x) * np.cos(x))
    return s, outer.gradient(s, x)


def test_second_derivative_through_a_broadcast_against_finite_differences():
    x, m = RNG.normal(size=3), RNG.normal(size=(2, 3))
    first = ag.defun(second_through_a_broadcast, backend="interpreter")
    for backend in BACKENDS:
        fn = first if backend == "interpreter" else ag.defun(second_through_a_broadcast,
                                                             backend=backend)
        for x_ in (x, x * 0.5):
            _, h = fn(x_, m)
            want = finite_difference(lambda v: float(np.asarray(first(v, m)[0])), (x_,), 0)
            np.testing.assert_allclose(np.asarray(h), want, rtol=1e-5, atol=1e-8)


def third_derivative_and_a_stacked_list(x, n):
    # three tapes over a loop (the second gradient's sums over broadcast axes are
    # differentiated: `sum_to`), and two over a loop that appends to a list it stacks
    with ag.GradientTape() as t3:
        t3.watch(x)
        with ag.GradientTape() as t2:
            t2.watch(x)
            with ag.GradientTape() as t1:
                t1.watch(x)
                y, ys = x, []
                for i in range(n):
                    y = y * x
                    ys.append(x * x)
                v = np.sum(y) + np.sum(np.stack(ys + [x]))
            s = np.sum(t1.gradient(v, x))
        h = t2.gradient(s, x)
        r = np.sum(h)
    return h, t3.gradient(r, x)


@pytest.mark.slow
def test_third_derivative_through_a_loop_and_second_through_a_stacked_list():
    x = np.array([0.5, 1.5])
    for backend in BACKENDS:
        fn = ag.defun(third_derivative_and_a_stacked_list, backend=backend)
        for n in (3, 1, 5):   # v = sum(x^(n+1)) + n sum(x^2) + sum(x)
            h, t = fn(x, np.int64(n))
            np.testing.assert_allclose(np.asarray(h), (n + 1) * n * x ** (n - 1) + 2 * n,
                                       rtol=1e-12)
            np.testing.assert_allclose(np.asarray(t), (n + 1) * n * (n - 1) * x ** max(n - 2, 0),
                                       rtol=1e-12)


def loop_with_break(x, w):
    acc = x * 0.0
    for i in range(10):               # a for over range with a staged break
        acc = acc + np.sin(x * w * float(i))
        if np.sum(acc) > 1.5:
            break
    return np.sum(acc * acc) + np.sum(w)


def test_for_loop_with_break():
    x, w = RNG.uniform(0.1, 0.3, 3), RNG.uniform(0.5, 1.0, 3)
    check(loop_with_break, calls=[(x, w), (x * 3.0, w), (x * 0.01, w)], wrt=(0, 1))


def converge(x, tol):
    # Newton's iteration for sqrt(x): the trip count depends on the values
    y = x * 1.0 + 1.0
    while np.max(np.abs(y * y - x)) > tol:
        y = 0.5 * (y + x / y)
    return np.sum(y)


def test_while_loop_whose_condition_reads_the_values():
    x = RNG.uniform(1.0, 4.0, 3)
    check(converge, calls=[(x, 1e-12), (x * 2.0, 1e-12)], rtol=1e-5)


def updates(x, n):
    out = np.zeros((n, 3))
    h = x
    for i in range(n):                # out[i] = ... inside a loop over range(tensor)
        h = np.cos(h) * x
        out[i] = h * float(i + 1)
    return np.sum(out ** 2)


def test_loop_writing_rows_of_an_array():
    x = RNG.normal(size=3)
    check(updates, calls=[(x, np.int64(4)), (x, np.int64(1))])


def nested(x, m):
    y = x
    for i in range(m):
        j = 0
        while j < i:
            y = y * 0.9 + np.sin(y)
            j += 1
    return np.sum(y)


def test_nested_loops():
    check(nested, calls=[(RNG.normal(size=2), np.int64(4)), (RNG.normal(size=2), np.int64(0))])


def test_loop_with_a_side_effect_refuses_naming_the_line():
    def f(x, n):
        i, y = 0, x
        while i < n:
            print(i)
            y = y * 2.0
            i += 1
        return ag.gradients(np.sum(y), [x])
    for backend in BACKENDS:
        with pytest.raises(NotImplementedError, match="'print'.*would run it again"):
            ag.defun(f, backend=backend)(np.ones(2), np.int64(3))


def rnn(w, xs, c):
    h = np.zeros(3)
    hs = []
    for x in xs:                      # staged: one step per row of xs
        h = np.tanh(w @ h + x)
        hs.append(h)                  # a staged list, stacked after the loop
    return np.sum(np.stack(hs) * c)


def test_lists_appended_in_a_loop_and_stacked():
    w, c = RNG.normal(size=(3, 3)) * 0.5, RNG.normal(size=(5, 3))
    check(rnn, calls=[(w, RNG.normal(size=(5, 3)), c), (w * 0.5, RNG.normal(size=(5, 3)), c)],
          wrt=(0, 1, 2))


def appends_some(x, w, n):
    kept = [x]                        # a first row before the loop
    y = x
    i = 0
    while i < n:                      # run-time trip count, appends under a staged if
        y = np.sin(y * w) + 0.5
        if np.sum(y) > 1.0:
            kept.append(y * float(i + 1))
        else:
            kept.append(-y)
        if len(kept) > 2:             # reads the list's rows while it grows
            y = y + 0.1 * np.sum(np.stack(kept)[-2])
        i += 1
    return np.sum(np.stack(kept) ** 2)


def test_lists_appended_under_branches_and_read_while_they_grow():
    x, w = RNG.uniform(0.2, 0.9, 2), RNG.uniform(0.5, 1.5, 2)
    check(appends_some, calls=[(x, w, np.int64(6)), (x, w, np.int64(0)), (-x, w, np.int64(3))],
          wrt=(0, 1))


def test_a_list_is_not_kept_once_per_iteration():
    # the backward loop reads the list's final buffer (rows only append), not a copy of the
    # buffer per iteration: its stacks are for the other loop variables
    def f(w, xs, c):
        return ag.gradients(rnn(w, xs, c), [w])
    cf = ag.defun(f).get_concrete_function(np.ones((3, 3)), np.ones((5, 3)), np.ones((5, 3)))
    loops = [n for n in cf.graph.walk() if n.op == "while_loop"]
    stacked = [t for n in loops for t in (v.type for v in n.outputs) if t.ndim == 3]
    assert not stacked, stacked   # a stack of (rows, 3) buffers would be rank 3


def grows(x, n):
    rows = [x, 2.0 * x, np.sin(x)]    # three rows before the loop (and room for 16)
    i = 0
    while i < n:                      # the buffer doubles as it fills
        rows.append(rows[-1] * x + float(i))
        i += 1
    return np.sum(np.stack(rows) ** 2)


def test_a_list_that_grows_in_the_loop():
    x = RNG.uniform(0.3, 0.9, 2)
    check(grows, calls=[(x * 0.1, np.int64(40)), (x, np.int64(0)), (x, np.int64(1))])


# -- vectorized_map: a map of the body's sweep ---------------------------------------------
def mapped_row(row, w):
    """One element's result: a data-dependent loop and branch, reading the captured w."""
    s = 0.0
    for j in range(row.shape[0]):
        if row[j] > 0.2:
            s += np.sin(row[j] * w[j])
        else:
            s -= row[j] ** 2
    return s * w[0] + np.sum(np.tanh(row))


def map_loss(x, w, mapped):
    return np.sum(mapped(lambda r: mapped_row(r, w), x) ** 2)


def _python_map(fn, x):
    return np.array([fn(r) for r in x])


_MAPPED = {b: ag.defun(lambda x, w: ag.gradients(map_loss(x, w, ag.vectorized_map), [x, w]),
                       backend=b) for b in BACKENDS}


@pytest.mark.parametrize("backend", BACKENDS)
def test_gradient_through_vectorized_map_of_elements_and_captured_values(backend):
    # row i of x's gradient is element i's; w, read by every element, sums theirs
    for x, w in ((RNG.normal(size=(5, 3)), RNG.normal(size=3)),
                 (RNG.normal(size=(5, 3)), RNG.normal(size=3))):
        xs, ws = x.copy(), w.copy()
        gx, gw = _MAPPED[backend](x, w)
        np.testing.assert_array_equal(x, xs)
        np.testing.assert_array_equal(w, ws)
        for k, g in ((0, gx), (1, gw)):
            want = finite_difference(map_loss, (x, w, _python_map), k)
            np.testing.assert_allclose(np.asarray(g), want, rtol=1e-5, atol=1e-8)
    # one signature: one trace, and on a compiled backend the relaxed trace that the
    # first one's reading of the row count asks for (function.py _relax_read_sizes)
    assert _MAPPED[backend].experimental_get_tracing_count() == (
        1 if backend == "interpreter" else 2)


def pair(e):
    a, b = e
    return np.sin(a) * b, a - b


def test_tape_records_an_eager_vectorized_map_of_a_tuple():
    # the map runs as a compiled call with one tuple argument: one tape entry, whose
    # gradient is the compiled map of the body's sweep; the unused result gets none
    xa, ya = RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2))
    x, y = ag.constant(xa), ag.constant(ya)
    with ag.GradientTape() as tape:
        tape.watch([x, y])
        p, q = ag.vectorized_map(pair, (x, y))
        loss = np.sum(p * p)
    gx, gy = tape.gradient(loss, [x, y])
    np.testing.assert_allclose(np.asarray(gx), 2 * np.sin(xa) * ya * np.cos(xa) * ya,
                               rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gy), 2 * np.sin(xa) ** 2 * ya, rtol=1e-12)


def test_tape_keeps_a_compiled_call_s_other_arguments():
    # strings, dicts of tensors and Python numbers among a compiled call's arguments: the
    # gradient's trace is called with them as they were given
    @ag.defun
    def f(x, mode, d, k):
        return np.sum(x * d["a"]) * k if mode == "train" else np.sum(x)
    x = ag.constant(np.arange(3.0))
    for mode, want in (("train", [0.0, 4.0, 8.0]), ("eval", [1.0, 1.0, 1.0])):
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = f(x, mode, {"a": x}, 2.0)
        np.testing.assert_array_equal(np.asarray(tape.gradient(y, x)), want)


@pytest.mark.slow
@pytest.mark.parametrize("fn,args,wrt", [
    (branchy, (RNG.normal(size=4), RNG.normal(size=4)), (0, 1)),
    (loop_with_break, (RNG.normal(size=4), RNG.normal(size=4)), (0, 1)),
    (updates, (RNG.normal(size=3), np.int64(2)), (0,)),
    (rnn, (RNG.normal(size=(3, 3)) * 0.5, RNG.normal(size=(4, 3)), np.int64(4)), (0, 1)),
], ids=["if", "break", "rows written", "stacked list"])
def test_a_tape_over_a_compiled_call_agrees_through_control_flow(fn, args, wrt):
    # the call runs as the split forward kernel; the tape's gradient is the backward kernel
    # on its residuals (gradients/residuals.py): finite differences, two calls
    f = ag.defun(fn)
    for call in range(2):
        given = [ag.constant(a) if k in wrt else a for k, a in enumerate(args)]
        with ag.GradientTape() as tape:
            tape.watch([given[k] for k in wrt])
            y = f(*given)
        for k, g in zip(wrt, tape.gradient(y, [given[k] for k in wrt])):
            np.testing.assert_allclose(np.asarray(g), finite_difference(fn, list(args), k),
                                       rtol=1e-5, atol=1e-7)
    assert all(s is not None for s in f._split.values())
