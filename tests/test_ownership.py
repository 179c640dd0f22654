"""The ownership analysis (backends/ownership.py): a kernel writes in place only into a
buffer it owns and that nothing reads afterwards.

Every program runs three ways on every input: plain Python/NumPy (the oracle), the
interpreter and the cpu backend, one Function per backend for all the inputs (a buffer
written in one call must not change the next). Results must agree in value and dtype, and
every argument must be left exactly as plain Python left it. The kernels are also read:
the in-place updates must survive (no copy or allocation per loop trip where the program
does not ask for one).
"""
import os
import sys

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS, agree
from ownership_seeds import SEEDS

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
from control_flow import collatz, rnn  # noqa: E402  the front-door example's programs
from newton_sqrt import newton_sqrt  # noqa: E402


def check_program(fn, inputs, rtol=1e-9, atol=1e-12):
    """Oracle vs interpreter vs cpu over ``inputs`` (a list of argument tuples), arguments
    afterwards included; returns the cpu Function (its kernel source is inspected)."""
    compiled = {b: ag.defun(fn, backend=b) for b in BACKENDS}
    with np.errstate(all="ignore"):
        agree(fn, calls=inputs, functions=compiled, rtol=rtol, atol=atol)
    return compiled["cpu"]


def in_loops(source, *needles):
    """The lines inside a loop of ``source`` that contain one of ``needles``."""
    found, stack = [], []
    for line in source.splitlines():
        indent = len(line) - len(line.lstrip())
        while stack and indent <= stack[-1]:
            stack.pop()
        text = line.strip()
        if stack and any(n in text for n in needles):
            found.append(text)
        if text.startswith(("while ", "for ")):
            stack.append(indent)
    return found


def source_of(f, *args):
    return f.get_concrete_function(*args).source


# --- the random programs that found the bugs ---------------------------------------------

@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_random_program_found_by_the_generator(seed):
    fn, inputs = SEEDS[seed]
    check_program(fn, inputs)


# --- rule 1: only the kernel's own buffers ------------------------------------------------

def hand_argument_back(q, c, n):
    v = q
    for i in range(n):
        v = v * 2.0                  # could be stored into v's buffer ...
        v = v if c > 0.0 else q      # ... but the body may hand the caller's q back
    return v


def test_a_branch_handing_an_argument_into_a_loop_variable():
    q = np.array([1.0, 2.0, 3.0])
    check_program(hand_argument_back, [(q, np.float64(-1.0), np.int64(3)),
                                       (q, np.float64(1.0), np.int64(3))])


def hand_argument_back_from_inner_loop(u, n):
    v = u * 1.0
    for i in range(n):
        for j in range(2):
            v = v * 0.5 + 1.0
        for j in range(n):
            v = u                    # an inner loop hands the argument back
    return v


def test_an_inner_loop_handing_an_argument_back():
    u = np.array([4.0, 8.0])
    check_program(hand_argument_back_from_inner_loop,
                  [(u, np.int64(0)), (u, np.int64(1)), (u, np.int64(3))])


TABLE = np.array([1.0, 2.0, 4.0])


def scale_table(x, n):
    t = TABLE                        # baked into the kernel: shared by every call
    for i in range(n):
        t = t * x                    # must not be stored into the constant's buffer
    return t


def pick_then_update(x, c):
    t = np.array([7.0, 8.0, 9.0]) if c > 0.0 else x * 1.0
    t[0] = -1.0                      # t may be the constant
    return t


def test_a_constant_buffer_is_never_written_and_calls_do_not_leak():
    check_program(scale_table, [(np.float64(2.0), np.int64(3))] * 2 + [(np.float64(3.0), 1)])
    x = np.array([1.0, 1.0, 1.0])
    check_program(pick_then_update, [(x, np.float64(1.0)), (x, np.float64(1.0)),
                                      (x, np.float64(-1.0))])
    np.testing.assert_array_equal(TABLE, [1.0, 2.0, 4.0])


CACHE = {"w": np.array([1.0, 2.0, 3.0, 4.0])}


def cached_weights(x):
    return CACHE["w"]                # the callback's own array, kept by its module


def scale_cached(x):
    w = ag.py_func(cached_weights, [x], ag.float64)
    w *= 2.0                         # NumPy's result of a py_func is a new array
    return w * x


def test_an_array_a_callback_returned_is_never_written():
    for backend in BACKENDS:
        f = ag.defun(scale_cached, backend=backend)
        for _ in range(2):
            np.testing.assert_array_equal(f(np.ones(4)).numpy(), [2.0, 4.0, 6.0, 8.0])
        np.testing.assert_array_equal(CACHE["w"], [1.0, 2.0, 3.0, 4.0])


def loop_over_a_view(x, n):
    v = x[1:]
    for i in range(n):
        v = v + 1.0                  # the first trip reads the caller's memory
    return v


def transpose_then_scale(m):
    t = m.T
    t = t * 2.0
    return t, m.T


def test_views_of_arguments_are_never_written():
    x = np.arange(5.0)
    check_program(loop_over_a_view, [(x, np.int64(0)), (x, np.int64(2))])
    check_program(transpose_then_scale, [(np.arange(6.0).reshape(2, 3),)])


# --- rule 2: nothing reads the old value afterwards, fused reads included ----------------

def fused_read_after_write(u, n):
    v = u * 1.0
    s = u * 0.0
    for i in range(n):
        # `u - u` (one value: it is used twice) is stored before the sum that reads
        # `v * 0.5` is computed: it must not be stored into v's buffer
        v = v * 0.5 + (u - u)
        s = s + (u - u)
    return v, s


def test_a_fused_expression_reads_its_inputs_where_it_is_computed():
    u = np.array([1.0, -2.0, 3.0])
    check_program(fused_read_after_write, [(u, np.int64(2)), (u, np.int64(3))])


# --- rule 3: no other value that may share the buffer is still needed --------------------

def read_what_may_be_the_target(x, c, n):
    v = x * 1.0
    w = v
    for i in range(n):
        w = v if c > 0.0 else w      # w may be v's buffer ...
        v = v + w                    # ... while this reads it
    return v, w


def test_a_node_does_not_write_a_buffer_a_branch_result_may_share():
    x = np.array([1.0, 2.0])
    check_program(read_what_may_be_the_target,
                  [(x, np.float64(1.0), np.int64(3)), (x, np.float64(-1.0), np.int64(3))])


def shift_in_place(x):
    y = x * 1.0
    y[1:] = y[:-1]                   # overlapping source: Numba copies it first, as NumPy
    return y


def test_an_overlapping_assignment_stays_in_place():
    f = check_program(shift_in_place, [(np.arange(5.0),), (np.arange(3.0),)])
    assert "rt.copy(" not in source_of(f, np.arange(5.0))


# --- loops: the in-place updates survive ------------------------------------------------

def escape_count(zr, zi, cr, ci, lim, cutoff):
    count = 0
    while ((zr * zr + zi * zi) < (lim * lim)) and count < cutoff:
        zr, zi = zr * zr - zi * zi + cr, 2 * zr * zi + ci
        count += 1
    return count


def julia(cr, ci, n, bound, lim, cutoff):
    out = np.empty((n, n), np.uint32)
    grid = np.linspace(-bound, bound, n)
    for i, x in enumerate(grid):
        for j, y in enumerate(grid):
            out[i, j] = escape_count(x, y, cr, ci, lim, cutoff)
    return out


def test_nested_loops_fill_the_outer_loops_array_in_place():
    # the inner loop's array comes from the outer loop, which made it: no copy per trip
    f64 = np.float64
    args = (f64(0.3), f64(0.5), 12, f64(1.5), f64(10.0), f64(30.0))
    f = check_program(julia, [args])
    assert in_loops(source_of(f, *args), "rt.copy(", ".copy()", "rt.empty(") == []


def fill_lower_triangle(n):
    m = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            m[i, j] = i * n + j
    return m


def return_early(x, limit):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0
        if out[i] > limit:
            return out               # the return value takes out's buffer only when
    return out                       # the loop stops: the next trip never sees it


def test_loops_update_in_place_without_a_copy_per_trip():
    f = check_program(fill_lower_triangle, [(np.int64(4),), (np.int64(0),)])
    assert in_loops(source_of(f, np.int64(4)), "rt.copy(", "rt.empty(") == []


def test_a_return_of_the_array_the_loop_writes_needs_no_copy_per_trip():
    # `return out` gives "the return value is out's buffer" a loop-carried flag that only
    # the exiting path sets: the body's update of the return value after its write into
    # out never runs (ownership_flow._false_in_trips), so out is written in place. (With
    # 4 elements this passed only because the loop was unrolled.)
    x = np.arange(40.0)   # (beyond the unrolling budget: a staged loop)
    f = check_program(return_early, [(x, np.float64(4.0)), (x, np.float64(100.0)),
                                     (x[:3].copy(), np.float64(3.0))])
    assert in_loops(source_of(f, x, np.float64(4.0)), "rt.copy(", "rt.empty(") == []


def argument_or_new(x, c):
    r = x if c > 0 else x * 2.0      # the caller's array on some runs, a new one on others
    return r


def constant_or_new(x, c):
    r = np.ones(3)                   # (made by the kernel: a new buffer each call)
    if c > 0:
        r = x * 2.0
    return r


def test_a_result_that_may_be_the_kernels_own_is_copied_only_when_it_is_not():
    # the copy that keeps the caller from getting its argument (or a constant every call
    # shares) back is made only on the runs where the result overlaps one of them
    x = np.arange(40.0)
    f = check_program(return_early, [(x, np.float64(4.0)), (x, np.float64(100.0))])
    assert "rt.may_alias(" in source_of(f, x, np.float64(4.0))
    for fn in (argument_or_new, constant_or_new):
        a = np.arange(3.0)
        check_program(fn, [(a, np.float64(1.0)), (a, np.float64(-1.0)), (a, np.float64(1.0))])
        f = ag.defun(fn)
        for c in (1.0, -1.0, 1.0):
            a = np.arange(3.0)
            r = np.asarray(f(a, np.float64(c)))
            assert not np.shares_memory(r, a)
            np.testing.assert_array_equal(r, fn(a, c))
            r[...] = -7.0                # the caller owns its result: no later call sees it
            np.testing.assert_array_equal(a, np.arange(3.0))
    assert "rt.may_alias(" in source_of(ag.defun(argument_or_new), a, np.float64(1.0))


def break_with_the_array(x, limit):
    out = np.zeros(x.shape[0])
    res = np.ones(2)
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0
        if out[i] > limit:
            res = out                # out's buffer, from the exiting trip on
            break
    out[0] = -1.0                    # so res sees this write where the loop broke
    return res, out


def test_a_break_with_the_array_the_loop_writes_keeps_the_alias_after_the_loop():
    x = np.arange(40.0)
    f = check_program(break_with_the_array, [(x, np.float64(4.0)), (x, np.float64(100.0)),
                                             (x[:5].copy(), np.float64(1.0))])
    assert in_loops(source_of(f, x, np.float64(4.0)), "rt.copy(", "rt.empty(") == []


def test_newton_collatz_and_the_rnn_keep_their_in_place_updates():
    a = np.array([2.0, 9.0, 0.25])
    f = check_program(newton_sqrt.python_function, [(a,), (a * 4.0,)])
    src = source_of(f, a)
    assert in_loops(src, "rt.copy(", "rt.empty(") == [] and "rt.copy(a)" in src
    xs = np.array([1, 6, 27], np.int64)
    f = check_program(collatz, [(xs,), (xs[:2],)])
    assert in_loops(source_of(f, xs), "rt.copy(", "rt.empty(") == []
    rng = np.random.default_rng(0)
    args = (rng.standard_normal((6, 3)), np.int64(6), rng.standard_normal((4, 4)),
            rng.standard_normal((4, 3)), rng.standard_normal(4), np.zeros(4))
    f = check_program(rnn, [args, args])
    src = source_of(f, *args)
    # per trip: the two products (BLAS), nothing else; the list's buffer grows by doubling
    assert in_loops(src, "rt.copy(") == []
    assert [line for line in in_loops(src, "rt.empty(") if "grown" not in line] == []


# --- session 55: a carried storage that agrees with its merge's buffers --------------------

def next_greater_element(x):
    out = np.full(x.shape[0], -1.0)
    stack = []
    for i in range(x.shape[0]):
        while stack and x[stack[-1]] < x[i]:     # the inner loop carries the stack's buffer
            out[stack.pop()] = x[i]
        stack.append(i)                          # pushed in place: no copy per outer trip
    return out


def test_a_stack_pushed_after_an_inner_popping_loop_is_pushed_in_place():
    x = np.array([2.0, 1.0, 3.0, 0.5, 4.0, 4.0, 1.0])
    f = check_program(next_greater_element, [(x,), (x[::-1].copy(),), (x[:1].copy(),)])
    # the outer loop's first trip used to select the buffer made before the loop by a
    # flag, on every trip, so the analysis saw it read after each push: a copy per trip
    assert in_loops(source_of(f, x), "rt.copy(") == []


def write_both_names(a, c, n):
    v = a if c > 0.0 else a * 2.0   # v: a's buffer on the runs where c > 0
    i = 0
    while i < n:
        v[1] += 1.0                 # reaches a too where v is a
        a[0] += 10.0                # reaches v only where v is a: v is out of step here
        i += 1
        j = 0
        while j < i:
            v[2] += a[0]            # reads a's write through v
            j += 1
    return v


def test_a_loop_variable_whose_other_buffer_is_written_by_another_name_sees_it():
    a = np.arange(4.0)
    check_program(write_both_names, [(a, np.float64(1.0), np.int64(3)),
                                     (a, np.float64(-1.0), np.int64(3)),
                                     (a, np.float64(1.0), np.int64(0))])
