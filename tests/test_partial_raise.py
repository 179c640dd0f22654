"""A call that raises part-way leaves the caller's arrays and objects as plain Python does
(SPEC §3, partial_raise.py).

Python that writes `out[0] = ...` or binds `self.w = ...` and then fails an `assert`, or
raises, keeps the write and the binding. A kernel stores its writes and bindings at its
end; before session 37 a check that failed first lost them on the interpreter (every
write) and on cpu (a write not made in place, every binding), silently for a caller that
catches the error. Each test runs the oracle and both backends over calls that raise and
calls that do not, comparing every argument afterwards (tests/differential.py).
"""
import inspect

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS, agree

I64 = np.int64


def _line(fn, marker):
    lines, first = inspect.getsourcelines(fn)
    return f"{__file__}:{first + next(i for i, t in enumerate(lines) if marker in t)}"


def _raised(fn, calls):
    """agree() over ``calls``; the messages of the errors the backends raised."""
    errors = []
    agree(fn, calls=calls, exact=True, errors=errors)
    return [m for _, _, m in errors]


X = np.array([1.0, 2.0, 3.0])


# --- a staged check after writes into arguments ------------------------------------------
def fills_in_place_then_checks(out, x):
    out[0] = x.sum()                      # (in place on cpu)
    assert x.sum() > 10.0, "too small"    # the-check
    return out


def fills_a_new_value_then_checks(out, x):
    out[...] = x * 2.0                    # (x * 2 made apart, copied back at the end)
    assert x.sum() > 10.0, "too small"
    return x


def test_writes_before_a_failed_assert_reach_the_caller():
    texts = _raised(fills_in_place_then_checks, [(np.zeros(3), X), (np.zeros(3), X * 5.0)])
    assert texts == [f"too small (at {_line(fills_in_place_then_checks, 'the-check')})"] * len(
        BACKENDS)
    assert len(_raised(fills_a_new_value_then_checks,
                       [(np.zeros(3), X), (np.zeros(3), X * 5.0), (np.ones(3), -X)])) == \
        2 * len(BACKENDS)


def writes_in_a_loop_then_raises(out, x):
    for i in range(I64(3)):
        out[i] = x[i]
        if x[i] > 1.5:
            out[0] = -1.0
            raise IndexError("big")
    return out


def writes_in_a_branch_then_raises(out, x):
    if x[0] > 0:
        out[1] = 5.0
        raise ValueError("positive")      # (refused before session 37)
    return x


def writes_in_a_branch_then_asserts(out, x):
    if x[0] > 0:
        out[...] = out + x
        assert False, "positive"          # a Python assert on a staged path
    return x


@pytest.mark.parametrize("fn", [writes_in_a_loop_then_raises, writes_in_a_branch_then_raises,
                                writes_in_a_branch_then_asserts])
def test_writes_in_staged_regions_before_a_raise_reach_the_caller(fn):
    assert _raised(fn, [(np.zeros(3), X), (np.zeros(3), -X), (np.ones(3), X - 1.5)])


# --- a `raise` every run reaches, after writes: staged as the kernel's last op --------------
def writes_then_refuses_the_mode(out, x, mode):
    out[0] = x.sum()
    if mode == "bad":
        raise ValueError("bad mode")      # the-raise
    return out


def writes_then_asserts_a_shape(out, x):
    out[0] = x.sum()
    assert x.shape[0] == 7, "needs 7"
    return out


def refuses_the_mode_first(x, mode):
    if mode == "bad":
        raise ValueError("bad mode")
    return x * 2.0


def test_a_raise_every_run_reaches_after_a_write_is_raised_by_the_kernel():
    texts = _raised(writes_then_refuses_the_mode, [(np.zeros(3), X, "bad"),
                                                   (np.ones(3), -X, "bad")])
    assert set(texts) == {f"bad mode (at {_line(writes_then_refuses_the_mode, 'the-raise')})"}
    assert _raised(writes_then_asserts_a_shape, [(np.zeros(3), X), (np.zeros(3), X)])


def test_a_raise_before_anything_happens_is_raised_while_tracing():
    # nothing staged before it is seen by the caller: raised at once, nothing compiled
    f = ag.defun(refuses_the_mode_first)
    with pytest.raises(ValueError, match="bad mode"):
        f(X, "bad")
    assert f.experimental_get_tracing_count() == 0
    np.testing.assert_array_equal(f(X, "good"), X * 2.0)


# --- bindings into the objects the function is called with ---------------------------------
class Model:
    def __init__(self):
        self.w = np.arange(3.0)
        self.t = np.float64(0.25)
        self.steps = 0


def binds_then_raises(m, x):
    m.w = m.w + x                         # a new array bound
    m.steps += 1                          # a Python int changed
    if x[0] > 0:
        m.t = x[0]
        raise ValueError("positive")
    return x


def writes_held_then_checks(m, x):
    m.w[0] = 7.0                          # the object's array, written in place
    m.w *= 2.0
    m.t = x.sum()
    assert x.sum() < 0.0, "not negative"
    return x


@pytest.mark.parametrize("fn", [binds_then_raises, writes_held_then_checks])
def test_bindings_before_a_raise_stay_in_the_object(fn):
    assert _raised(fn, [(Model(), X), (Model(), -X), (Model(), X * 2.0)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_object_over_calls_that_raise_keeps_what_python_keeps(backend):
    f, mine, python = ag.defun(binds_then_raises, backend=backend), Model(), Model()
    for x in (X, -X, X, X * 2.0):
        for side, call in ((python, binds_then_raises), (mine, f)):
            try:
                call(side, x)
            except ValueError:
                pass
        np.testing.assert_array_equal(mine.w, python.w)
        assert (mine.t, mine.steps) == (python.t, python.steps)
        assert type(mine.steps) is int



def counts_then_checks_then_rebinds(m, x, n):
    m.steps += 1                          # a Python int of the signature, changed
    assert n != 0, "zero"
    if n > 2:
        m.steps = m.steps + n             # (a staged branch binds a tensor there)
    return x


def counts_then_raises(m, x, n):
    m.steps += 1
    raise ValueError("always")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [counts_then_checks_then_rebinds, counts_then_raises])
def test_a_python_number_bound_before_a_failed_check_stays_bound(backend, fn):
    """`m.steps += 1` then a failed check: Python keeps 2. The trace binds a tensor there
    later, so the number was no binding the trace kept, and a failed check carried nothing
    of it (random program "bounds" 70 and 227, session 39)."""
    f, mine, python = ag.defun(fn, backend=backend), Model(), Model()
    for n in (I64(0), I64(3), I64(0), I64(1)):
        for side, call in ((python, fn), (mine, f)):
            try:
                call(side, X, n)
            except (AssertionError, ValueError):
                pass
        assert mine.steps == python.steps and type(mine.steps) is type(python.steps)



class Weights:
    def __init__(self):
        self.w = np.arange(4.0) * 0.75 - 1.0


def computes_a_write_then_checks(m, x):
    y = m.w * 0.5                         # the value m.w gets below, computed first
    assert x.sum() > 0.0, "not positive"  # nothing written yet: m.w stays as it was
    m.w[...] = y
    return x


def reads_the_write_in_a_branch_then_raises(m, x):
    if (m.w * 0.5 + x[0])[1] > x[1]:      # (the same m.w * 0.5 as the write: one value)
        if x.sum() < 0.0:
            raise ValueError("negative")
    m.w *= 0.5
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [computes_a_write_then_checks,
                                reads_the_write_in_a_branch_then_raises])
def test_a_value_computed_for_a_later_write_does_not_reach_the_caller_before_it(backend, fn):
    """A failed check before the write leaves the array as it was: the cpu kernel computed
    `m.w * 0.5` into m.w's own buffer (the check carried no state, so no read of it held
    the buffer), and the interpreter stored the latest version it had computed (random
    programs "bounds" 361 and "raises" 275, session 39)."""
    f, mine, python = ag.defun(fn, backend=backend), Weights(), Weights()
    for x in (np.array([1.0, 2.0]), np.array([-1.0, -2.0]), np.array([3.0, -9.0])):
        for side, call in ((python, fn), (mine, f)):
            try:
                call(side, x)
            except (AssertionError, ValueError):
                pass
        np.testing.assert_array_equal(mine.w, python.w)


# --- variables, and what carries nothing -------------------------------------------------------
V = ag.Variable(np.zeros(3))


def assigns_then_checks(x):
    V.assign(V + x)
    assert x.sum() > 10.0, "too small"
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_variable_assigned_before_a_failed_check_keeps_the_value(backend):
    f = ag.defun(assigns_then_checks, backend=backend)
    V.assign(np.zeros(3))
    for k in range(2):
        with pytest.raises(AssertionError, match="too small"):
            f(X)
        np.testing.assert_array_equal(V.numpy(), X * (k + 1))



# --- found by the "raises" random grammar (seed 9) -------------------------------------------
def raises_in_an_inner_branch_before_a_return(x):
    acc = x * 0.0
    if x > 0.0:
        if x > 1.0:
            acc += 1.0
        else:
            assert not (1 >= 1), "checked"   # (a Python assert: it always fails here)
            return acc
    return acc


def test_a_raise_in_an_inner_branch_whose_other_branch_sets_nothing_waits_for_its_runs():
    """The inner `if`'s first branch left the return value unset, so the other branch was
    traced to name it, and its `assert` (or `raise`) raised while tracing, for every input
    (the same with `raise ValueError` before session 37)."""
    assert _raised(raises_in_an_inner_branch_before_a_return,
                   [(np.float64(0.5),), (np.float64(2.0),), (np.float64(-1.0),)])


# --- under a gradient tape ------------------------------------------------------------------
def fills_then_checks_a_loss(out, x):
    out[...] = x * 2.0
    loss = (x * x).sum()
    assert loss < 10.0, "big"
    return loss


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_recorded_call_that_raises_keeps_its_writes(backend):
    """Under one tape the call runs as a split gradient's forward kernel (residuals.py),
    traced apart from the function's own: its checks' plans are carried over to it."""
    f = ag.defun(fills_then_checks_a_loss, backend=backend)
    for value, fails in ((np.ones(3), False), (np.full(3, 3.0), True)):
        out, x = np.zeros(3), ag.constant(value)
        with ag.GradientTape() as tape:
            tape.watch(x)
            try:
                loss = f(out, x)
            except AssertionError:
                assert fails
        np.testing.assert_array_equal(out, value * 2.0)
        if not fails:
            np.testing.assert_array_equal(tape.gradient(loss, x).numpy(), value * 2.0)


# --- errors that are no `assert`: an index out of bounds, NumPy's shape errors -----------------
M = np.arange(6.0).reshape(2, 3)


def fills_then_reads_at(out, x, i):
    out[...] = x * 2.0                    # (made apart, copied back at the end)
    return x[i]                           # the-read


def fills_then_gathers(out, x, idx):
    out[...] = x + 1.0
    return x[idx].sum()


def fills_then_writes_at(out, x, i):
    out[...] = x * 2.0
    x[i] = 7.0
    return out


def fills_then_reads_two_arrays(out, m, r, c):
    out[...] = m[0] * 2.0
    return m[r, c]


def fills_then_masks(out, x, y):
    out[...] = x * 2.0
    return x[y > 0].sum()


def binds_then_reads_in_a_loop(m, x, idx):
    s = 0.0
    for k in range(len(idx)):
        m.steps += 1
        m.w = m.w + 1.0
        s += x[idx[k]]
    return s


def test_an_index_out_of_bounds_after_writes_keeps_them():
    """A run-time index out of bounds raised inside the kernel (cpu_runtime.index) and lost
    the writes it had not made in place and every binding (before session 38); where a
    failing check carries state, the index gets an explicit check first
    (advanced_index.check_index)."""
    texts = _raised(fills_then_reads_at, [(np.zeros(3), X, I64(1)), (np.zeros(3), X, I64(5)),
                                          (np.zeros(3), X, I64(-4))])
    where = _line(fills_then_reads_at, "the-read")
    assert set(texts) == {f"index 5 is out of bounds for axis 0 with size 3 (at {where})",
                          f"index -4 is out of bounds for axis 0 with size 3 (at {where})"}
    assert _raised(fills_then_gathers, [(np.zeros(3), X, np.array([0, 2])),
                                        (np.zeros(3), X, np.array([0, 4, 9]))])
    assert _raised(fills_then_writes_at, [(np.zeros(3), X, I64(2)), (np.zeros(3), X, I64(-4))])
    assert _raised(fills_then_reads_two_arrays, [(np.zeros(3), M, np.array([0, 1]),
                                                  np.array([1, 3]))])
    assert _raised(fills_then_masks, [(np.zeros(3), X, np.array([1.0, -1.0, 2.0])),
                                      (np.zeros(3), X, np.array([1.0, -1.0]))])
    assert _raised(binds_then_reads_in_a_loop, [(Model(), X, np.array([0, 2])),
                                                (Model(), X, np.array([0, 2, 5, 1]))])


def fills_by_index(out, x):
    for i in range(len(out)):
        out[i] = x[i] * 2.0
        out[i] += out[i]
    return out


def test_an_index_the_graph_proves_gets_no_explicit_check():
    f = ag.defun(fills_by_index, backend="cpu")
    source = f.get_concrete_function(np.zeros(3), X).source
    assert source.count("rt.index_ok(") == 1   # x[i] only: out[i] is proven (ir/bounds.py)
    assert source.count("raise rt.Partial_IndexError") == 1   # (x[i] read twice: one check)
    agree(fills_by_index, calls=[(np.zeros(3), X), (np.zeros(3), X[:2])])


def fills_then_adds(out, x, y):
    out[...] = x * 2.0
    return x + y                          # (shapes known while tracing)


def fills_then_reshapes(out, x):
    out[...] = x * 2.0
    return x.reshape(2, -1)


def adds_in_a_branch(x, y, c):
    if c > 0:
        return x + y
    return x


def adds(x, y):
    return x + y


def test_numpy_errors_known_while_tracing_wait_for_the_runs_that_reach_them():
    """NumPy's own error of the shapes (checked by asking NumPy, ops/dispatch._numpy_own)
    raised while tracing, before the writes that Python makes first, and in a staged
    branch for every input, also those that never take it; now it is raised by the runs
    that reach it."""
    assert _raised(fills_then_adds, [(np.zeros(3), X, X[:2]), (np.zeros(3), X, X[:2])])
    assert _raised(fills_then_reshapes, [(np.zeros(3), X), (np.zeros(3), X)])
    assert _raised(adds_in_a_branch, [(X, X[:2], I64(-1)), (X, X[:2], I64(1))])
    f = ag.defun(adds)
    with pytest.raises(ValueError, match="broadcast"):  # (nothing before it: while tracing)
        f(X, X[:2])
    assert f.experimental_get_tracing_count() == 0


def sums_on_an_axis_it_lacks(x):
    if x[0] > 0:
        return np.sum(x, axis=2)
    return x.sum()


def sorts_on_an_axis_it_lacks(x):
    if x[0] > 0:
        x.sort(axis=1)
    return x.sum()


def indexes_by_a_float(x):
    if x[0] > 0:
        return x[1.5] + x[np.array([0.0])]
    return x.sum()


def reshapes_by_a_float(x):
    if x[0] > 0:
        return x.reshape(1.5, -1)
    return x.sum()


def asks_where_of_two(x):
    if x[0] > 0:
        return np.where(x > 0, x)
    return x.sum()


def asks_a_percentile_past_100(x):
    if x[0] > 0:
        return np.percentile(x, 150) + np.histogram(x, bins=-1)[0].sum()
    return x.sum()


@pytest.mark.parametrize("fn", [sums_on_an_axis_it_lacks, sorts_on_an_axis_it_lacks,
                                indexes_by_a_float, reshapes_by_a_float, asks_where_of_two,
                                asks_a_percentile_past_100])
def test_numpy_errors_of_a_front_wait_for_the_runs_that_reach_them(fn):
    """An error our front of a NumPy function raises while tracing (an axis out of range,
    a float index, `np.where` of two arguments, a percentile past 100) is NumPy's own
    when NumPy raises one of its type on arguments of the same shapes and dtypes
    (numpy_api.numpy_raises_too): raised by the runs that reach it, NumPy's type and
    text; in a staged branch never taken, nothing (session 53's probe: every call
    raised)."""
    raised = _raised(fn, [(np.array([-1.0, 2.0, 3.0]),), (X[:3],), (-X[:3],)])
    assert raised and len(raised) == len(BACKENDS)


class Held:
    def __init__(self):
        self.w = np.arange(4.0)


def writes_in_loops_then_reads_a_constant_index(n, u, q, ob):
    for _ in range(n):
        for _e in u:
            u[n % 10 - 5] = 0.5
        ob.w *= 0.5
        assert q[-5] != 1.5e300, "read"   # q's size is known only at run time
    return u


def test_a_constant_index_into_a_size_of_run_time_after_writes_keeps_them():
    """`q[-5]` of an axis whose size the trace does not know is checked by the kernel
    (rt.index), which raised with no state: random program "bounds" 147 lost `u[1] = 0.5`
    on cpu, where the loops write a copy of `u` stored at the kernel's end (session 38)."""
    q = np.arange(4.0)
    assert _raised(writes_in_loops_then_reads_a_constant_index,
                   [(I64(2), np.array([2.5, -0.5, 3.75, 3.0]), q, Held()),
                    (I64(0), np.array([2.5, -0.5, 3.75, 3.0]), q[:2], Held())])


def fills_then_slices_by(out, x, step):
    out[0] = x.sum()
    return x[::step]                      # step 0: ValueError at run time


def fills_then_joins(out, x, n):
    out[0] = x.sum()
    return np.concatenate([np.zeros((n, 2)), np.zeros((3, n))], axis=1)


def fills_then_stacks(out, x, n):
    out[0] = x.sum()
    return np.stack([x[:n], x[1:]])


def fills_then_makes_an_identity(out, x, n):
    out[0] = x.sum()
    return np.eye(n - 2, 3).sum() + np.tri(3, n - 2).sum()   # (np.tri: empty if n < 2)


@pytest.mark.parametrize("fn", [fills_then_slices_by, fills_then_joins, fills_then_stacks,
                                fills_then_makes_an_identity])
def test_errors_of_sizes_known_only_at_run_time_keep_the_writes_before_them(fn):
    """A slice step of 0, arrays that do not join, a negative np.eye size, where the value
    is a tensor: the kernel's own error (Numba's slice, np.concatenate) raised with no
    state, so cpu lost `out[0] = ...` (session 40); np.eye of a negative traced size gave
    an empty matrix, where NumPy raises. Now each is a staged check with NumPy's words."""
    texts = _raised(fn, [(np.zeros(3), X, I64(3)), (np.zeros(3), X, I64(0)),
                         (np.zeros(3), X, I64(2))])
    assert texts and all(("step cannot be zero" in t or "must match exactly" in t
                          or "same shape" in t or "negative dimensions" in t) for t in texts)


def test_a_join_mismatch_known_while_tracing_is_numpys_error_in_its_words():
    def joins(out, x, c):
        out[0] = x.sum()
        if c > 0:
            return np.concatenate([np.zeros((2, 2)), np.zeros((3, 3))], axis=1)
        return x
    texts = _raised(joins, [(np.zeros(3), X, I64(-1)), (np.zeros(3), X, I64(1))])
    assert texts == ["all the input array dimensions except for the concatenation axis must "
                     "match exactly, but along dimension 0, the array at index 0 has size 2 "
                     f"and the array at index 1 has size 3 (at {_line(joins, 'concatenate')})"
                     ] * len(BACKENDS)


def fills_then_splits(out, x, n):
    out[0] = x.sum()
    return np.split(x[:n], 2)             # an odd n: not an equal division


def fills_then_counts_by(out, x, n):
    out[0] = x.sum()
    s = 0
    for i in range(0, 5, n - 2):          # n == 2: range() arg 3 must not be zero
        s += i
    return s


@pytest.mark.parametrize("fn", [fills_then_splits, fills_then_counts_by])
def test_python_and_numpy_errors_the_kernel_skipped_raise_after_the_writes(fn):
    """np.split of a run-time size into unequal parts gave parts of `n // 2` on cpu, and a
    staged range of step 0 an empty loop on both backends, where Python raises (session
    40): silent wrong answers. Now staged checks, raised after the writes before them."""
    texts = _raised(fn, [(np.zeros(3), X, I64(2)), (np.zeros(3), X, I64(3)),
                         (np.zeros(3), X, I64(0))])
    assert texts and all(("equal division" in t or "must not be zero" in t) for t in texts)


def fills_then_returns_a_view_then_fails(out, x, n):
    out[0] = x.sum()                      # (in place now; a copy of `out` stored at the end
    view = out[::2]                       # before session 40, because a view of it is
    return view, np.full(n - 5, 1.0)      # returned): np.full's own error, in the kernel


def test_a_written_argument_whose_view_is_returned_keeps_the_write_when_the_kernel_raises():
    """The kernel wrote `out` in place only when no result held its buffer, else a copy
    of all of `out` it stored at its end, which an error raised inside the kernel (not a
    staged check: a negative size here) lost. Now the write is in place and the view is
    copied when the kernel returns (backends/cpu.py ``_unshared``), as it was before
    anyway: a result never shares the caller's memory."""
    texts = _raised(fills_then_returns_a_view_then_fails,
                    [(np.zeros(3), X, I64(7)), (np.zeros(3), X, I64(2))])
    assert texts and all("negative dimensions" in t for t in texts)
    out = np.zeros(3)
    view, _ = ag.defun(fills_then_returns_a_view_then_fails, backend="cpu")(out, X, I64(7))
    assert not np.shares_memory(np.asarray(view), out)


def binds_then_adds(m, x, y):
    m.t = x.sum()
    m.steps += 1
    m.w[0] = -1.0
    return x * 2.0 + y                    # the-add


def test_operands_of_run_time_sizes_that_do_not_broadcast_keep_the_state_before_them():
    """The kernel's own broadcast of sizes known only at run time raised with no state: the
    bindings before it were lost (before session 41). Where a failing check carries state,
    the sizes get an explicit check first, in NumPy's words (dispatch._check_broadcast)."""
    texts = _raised(binds_then_adds, [(Model(), X, X), (Model(), X[:2], X),
                                      (Model(), X, X[:1]), (Model(), X[:2], X[:2] * 3.0),
                                      (Model(), np.ones(4), X[:2])])
    where = _line(binds_then_adds, "the-add")
    assert set(texts) == {f"operands could not be broadcast together with shapes (2,) (3,)  "
                          f"(at {where})", f"operands could not be broadcast together with "
                                           f"shapes (4,) (2,)  (at {where})"}, texts


def binds_then_takes_extremes(m, x, y):
    m.t = x.sum()
    m.steps += 1
    return y.max() + np.argmin(y) + y.reshape(2, -1).min(axis=1)   # the-extremes


def binds_then_allocates(m, x, n):
    m.t = x.sum()
    m.steps += 1
    return np.zeros((n, 2)).sum() + np.full(n, 2.0)   # the-allocation


def test_empty_reductions_and_negative_sizes_keep_the_state_before_them():
    """An empty axis of np.max/np.argmin and a negative size of np.zeros were raised by the
    kernel itself, losing the bindings before them (before session 41); now checks staged
    first (the ops' ``checks``), or NumPy's own error where the size is known while
    tracing."""
    texts = _raised(binds_then_takes_extremes, [
        (Model(), X, np.arange(4.0)), (Model(), X, np.arange(6.0)), (Model(), X, X[:0]),
        (Model(), X, np.arange(8.0)), (Model(), X, X[:0])])
    where = _line(binds_then_takes_extremes, "the-extremes")
    assert set(texts) == {f"zero-size array to reduction operation maximum which has no "
                          f"identity (at {where})"}, texts
    texts = _raised(binds_then_allocates, [(Model(), X, I64(2)), (Model(), X, I64(-1)),
                                           (Model(), X, I64(0))])
    where = _line(binds_then_allocates, "the-allocation")
    assert set(texts) == {f"negative dimensions are not allowed (at {where})"}, texts


def binds_then_multiplies(m, x, a, b):
    m.t = x.sum()
    m.steps += 1
    return a @ b                          # the-product


def binds_then_ranges(m, x, step):
    m.t = x.sum()
    return np.arange(0.0, 3.0, step)      # the-range


def test_matmul_sizes_and_a_zero_arange_step_keep_the_state_before_them():
    """matmul's inner sizes known only at run time and np.arange's step were checked by the
    kernel itself, which lost the bindings before them (before session 41)."""
    texts = _raised(binds_then_multiplies, [
        (Model(), X, np.ones((2, 3)), np.ones(3)), (Model(), X, np.ones((2, 4)), np.ones(4)),
        (Model(), X, np.ones((2, 3)), np.ones(5))])
    assert {t.split(" (at")[0] for t in texts} == {
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
        "signature (n?,k),(k,m?)->(n?,m?) (size 5 is different from 3)"}, texts
    texts = _raised(binds_then_ranges, [(Model(), X, np.float64(0.5)),
                                        (Model(), X, np.float64(0.0))])
    assert texts and all("Maximum allowed size exceeded" in t for t in texts), texts


def writes_then_ors_a_bool_array(c, n):
    flags = np.zeros(3, np.bool_)         # a NumPy array of trace time
    c[n % 3] = 0                          # staged: n is traced
    flags |= 1                            # NumPy's UFuncTypeError, on the values of trace time
    return flags


def test_numpys_error_on_an_array_of_trace_time_keeps_the_writes_before_it():
    """`flags |= 1` raised NumPy's error while tracing, before the write into `c` was
    staged: the caller's array stayed unwritten (random "dtypes" seed 1398, session 41).
    Now it is NumPy's own error, raised by the runs that reach it, after the write."""
    texts = _raised(writes_then_ors_a_bool_array,
                    [(np.array([-3, 7, 7], np.int16), I64(1)),
                     (np.array([-3, 7, 7], np.int16), I64(2))])
    assert texts and all("Cannot cast ufunc 'bitwise_or' output" in t for t in texts), texts
