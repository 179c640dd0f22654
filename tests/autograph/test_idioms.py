"""NumPy idioms that must compile unchanged and stay one loop in the kernel (issue 3).

The collatz and RNN programs of examples/control_flow.py (also benchmarked), lists appended in staged
loops (kept as a row buffer, see autograph/runtime/data.py TensorList), large Python
`range` loops staged when their body stages ops, and the SPEC 3 alias error.
"""

import inspect
import os
import sys

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.autograph.runtime.loops import UNROLL_LIMIT

from differential import agree  # oracle vs interpreter vs cpu, arguments too

HERE = os.path.basename(__file__)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
from control_flow import collatz, rnn  # noqa: E402  the front-door example's programs


def _top_level_ops(f, *args):
    return [n.op for n in f.get_concrete_function(*args).graph.nodes]


def test_collatz_compiles_as_one_loop_nest():
    xs = np.array([1, 2, 3, 6, 7, 27, 97, 871] * 5, np.int64)  # 40 > UNROLL_LIMIT
    assert len(xs) > UNROLL_LIMIT
    agree(collatz, xs)
    f = ag.defun(collatz)
    assert _top_level_ops(f, xs).count("while_loop") == 1  # staged, not unrolled 40 times
    src = f.get_concrete_function(xs).source
    assert "rt.copy(" not in src  # the kernel allocates `out` itself and returns it
    np.testing.assert_array_equal(f(xs).numpy(), collatz(xs))


def test_rnn_list_is_a_row_buffer():
    rng = np.random.default_rng(0)
    T, H, I = 40, 8, 4
    args = (rng.standard_normal((T, I)), np.int64(T), rng.standard_normal((H, H)),
            rng.standard_normal((H, I)), rng.standard_normal(H) * 0.1, np.zeros(H))
    agree(rnn, *args)
    src = ag.defun(rnn).get_concrete_function(*args).source
    # appended in place with plain loops (no per-step concatenate, no generic helper)
    assert "grown" in src and "concatenate" not in src and "list_push" not in src


def test_zero_trip_rnn_raises_numpys_error_for_the_empty_stack():
    """np.stack of the empty list is NumPy's ValueError, as plain Python raises it (it gave
    an empty (0, 8) array before session 41, silently)."""
    rng = np.random.default_rng(1)
    args = (rng.standard_normal((0, 4)), np.int64(0), rng.standard_normal((8, 8)),
            rng.standard_normal((8, 4)), np.zeros(8), np.zeros(8))
    with pytest.raises(ValueError, match="need at least one array to stack"):
        rnn(*args)
    for backend in ("interpreter", "cpu"):
        f = ag.defun(rnn, backend=backend)
        with pytest.raises(ValueError, match="need at least one array to stack"):
            f(*args)
        one = (rng.standard_normal((1, 4)), np.int64(1)) + args[2:]
        assert f(*one).numpy().shape == (1, 8)  # (the same Function, a run that appends)


def grows_in_while(n):
    rows = []
    i = 0
    while i < n:  # no trip count: the buffer starts small and doubles
        rows.append(i * 0.5)
        i += 1
    return np.stack(rows)


def keeps_prefix_and_len(x):
    acc = [x[0], x[1]]
    for v in x[2:]:
        acc.append(v * 2)
        if len(acc) > 5:
            acc.append(v)
    return np.stack(acc)


def appends_in_one_branch(x):
    kept = [x[0]]
    for v in x:
        if v > 0:
            kept.append(v)
    return np.stack(kept)


def appends_rows_of_unknown_length(x, n):
    parts = []
    for i in range(n):
        parts.append(x[: i % 2 + 1] * 0 + x[0])  # rows of 1 or 2: np.stack must fail
    return np.stack(parts)


def nested_lists(m):
    outer = []
    for i in range(m):
        inner = []
        for j in range(m):
            inner.append(i * 10 + j)
        outer.append(np.stack(inner))
    return np.stack(outer)


@pytest.mark.parametrize("fn,args", [
    (grows_in_while, (np.int64(40),)),
    (grows_in_while, (np.int64(0),)),
    (keeps_prefix_and_len, (np.arange(9.0),)),
    (appends_in_one_branch, (np.array([-1.0, 2.0, -3.0, 4.0, 5.0]),)),
    (nested_lists, (np.int64(3),)),
], ids=["grow", "grow-zero-trip", "prefix-len", "one-branch", "nested"])
def test_staged_list_appends(fn, args):
    # (a zero-trip loop's np.stack([]) raises NumPy's ValueError, as plain Python does: it
    # gave an empty array before session 41)
    agree(fn, *args)


def test_staged_list_of_ragged_rows_raises():
    with pytest.raises(ValueError, match="same shape"):
        appends_rows_of_unknown_length(np.arange(3.0), 3)  # the oracle raises too
    for backend in ("interpreter", "cpu"):
        f = ag.defun(appends_rows_of_unknown_length, backend=backend)
        with pytest.raises(ValueError, match="same shape"):
            f(np.arange(3.0), np.int64(3))


def grows_vector_rows(x, n):
    rows = []
    i = 0
    while i < n:  # no trip count: starts with one row, doubles, copies rows each time
        rows.append(x * i)
        i += 1
    return np.stack(rows)


def grows_matrix_rows(x, n):
    rows = []
    i = 0
    while i < n:
        rows.append(x[:, None] * x[None, :] + i)
        i += 1
    return np.stack(rows)


@pytest.mark.parametrize("fn", [grows_vector_rows, grows_matrix_rows])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 9])
def test_growing_lists_of_array_rows(fn, n):
    x = np.array([1.0, -2.0, 0.5])
    agree(fn, x, np.int64(n))  # (n = 0: np.stack([]) raises, staged too since session 41)


def python_total(x):
    total = 0
    for i in range(UNROLL_LIMIT + 10):  # stages nothing: stays a Python int
        total += i
    return np.zeros(total % 7 + 1) + x


def needs_python_index(x):
    out = x * 0
    for i in range(UNROLL_LIMIT + 2):
        out = out + x[[i % 3]]  # a list index needs `i` as a Python int: unrolled
    return out


def test_large_python_range_stays_python_when_nothing_is_staged():
    x = np.float64(1.5)
    agree(python_total, x)
    assert ag.defun(python_total)(x).shape == ((sum(range(UNROLL_LIMIT + 10)) % 7) + 1,)


def test_large_python_range_unrolls_when_body_needs_python_index():
    agree(needs_python_index, np.array([1.0, 2.0, 3.0]))


def aliased_update(x, t):
    y = x * 1.0
    z = y
    y[0] = t  # the-update
    return z + y


def view_update(x, t):
    y = x * 1.0
    head = y[:2]
    y[0] = t  # the-update
    return head


def dead_alias_is_fine(x, t):
    y = x * 1.0
    z = y
    z[0] = t
    return z


def _line(fn, marker):
    lines, first = inspect.getsourcelines(fn)
    return f"{HERE}:{first + next(i for i, s in enumerate(lines) if marker in s)}"


@pytest.mark.parametrize("fn", [aliased_update, view_update, dead_alias_is_fine])
def test_update_through_one_name_is_seen_by_every_alias_and_view(fn):
    # SPEC 3: NumPy mutation semantics (was a ValueError before the box model)
    agree(fn, np.zeros(3), np.float64(2.0))


def update_after_branch(x, n):
    y = x
    for i in range(n):
        if x[0] > 100.0:
            y = y + 1.0
        y[1] = 5.0  # the-update
    return y


def test_write_into_a_value_a_staged_branch_may_have_taken_from_an_argument():
    # NumPy writes into the caller's `x` exactly on the trips before the branch first runs
    # (y is x until then): which buffer is written depends on run-time data, so the merge
    # carries a flag per buffer (mutation.py, "merges"). Was refused; the two inputs take
    # either path, and x[0] > 100 on the second call makes y a new array from the start.
    agree(update_after_branch, calls=[(np.zeros(3), np.int64(2)),
                                      (np.full(3, 200.0), np.int64(3)),
                                      (np.zeros(3), np.int64(0))], exact=True)


def reads_past_the_end(x, i):
    for j in range(i):
        x = x + 1.0
    return x[i]  # the-read


def test_run_time_error_in_compiled_code_names_the_users_line():
    f = ag.defun(reads_past_the_end, backend="cpu")
    assert f(np.zeros(4), np.int64(2)).numpy() == 2.0  # compiled and working
    with pytest.raises(IndexError) as e:
        f(np.zeros(4), np.int64(9))
    assert _line(reads_past_the_end, "the-read") in str(e.value)
    assert f(np.zeros(4), np.int64(3)).numpy() == 3.0  # and it keeps working


def prints_progress(x, n):
    for i in range(n):
        print("step", i, "x =", x, 2.5)
        x = x * 2.0
    return x


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_print_mixes_text_and_tensors_like_python(backend, capfd):
    x = np.array([1.0, 2.0])
    prints_progress(x, 2)
    want = capfd.readouterr().out
    ag.defun(prints_progress, backend=backend)(x, np.int64(2))
    assert capfd.readouterr().out == want  # printed on every call, as Python prints it


def prints_formatted(x, n):
    s = x * 0.0
    for i in range(n):
        s = s + x * i
        print(f"step {i}: s={s}, x={x!r}, rows {np.ones(2) * s[..., None]}", "and", s)
        print(f"{i:>4d}|{s[0] if s.ndim else s:+.2e}|{str(i)}|" + "tail")
    print(f"done {n}", str(s), repr(s))
    return s


@pytest.mark.parametrize("x", [np.float64(1.5), np.array([0.25, -2.0])])
def test_f_strings_of_traced_values_print_their_values_every_call(x):
    # (they printed the symbolic repr once, while tracing: `x=<ag.Tensor symbolic ...>`)
    agree(prints_formatted, calls=[(x, np.int64(2)), (x * 2, np.int64(3))], exact=True)


def prints_percent_and_str_format(x, n):
    i, s = 0, x * 0.0
    while i < n:
        s = s + x[i % 4]
        k = int(s * 8)
        print("step %d: %.4f %e|%10.2E|%-9.1f|%+g %08.3f%%" % (i, s, s, s * 1e20, s, s, s))
        print("%5d|%-5d|% d|%05d|%x|%#o|%X %i %u" % (k, k, k, k, k * 7 + 64, k + 64, k + 255,
                                                     s, -s))
        print("%s %r %a %10s|%-10s|%.2s %*d|%-*.*f" % (s, x[0], x[1], s, x[0], x[1], 4, k, 9,
                                                       2, s), "%(a)s-%(b).1f" % {"a": s, "b": k})
        print("{} {!r} {a:.2e} {0:>8} {:,}".format(s, x[1], k * 1000, a=s),
              "{0.real} {1[0]} {2}".format(s, x, [s, 1]), "%s" % [s, 2], "{:b}".format(k))
        i += 1
    return s


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_percent_and_str_format_of_traced_values_print_their_values_every_call(backend):
    # before: TypeError (Python's formatting asked the tensor for a number while tracing)
    agree(prints_percent_and_str_format, backends=(backend,), exact=True,
          calls=[(np.array([1.5, -2.25, 1024.5, 3.3e-5]), np.int64(2)),
                 (np.array([-0.5, 7.0, 0.0, 1e-9]), np.int64(5))])


def percent_x_of_a_float(x):
    print("%x" % x[0])


def percent_c(x):
    print("%c" % x[0])


def width_from_a_traced_value(x):
    print("{:{w}}".format(x[0], w=int(x[1])))


@pytest.mark.parametrize("fn, error, said", [
    (percent_x_of_a_float, TypeError, "an integer is required, not numpy.float64"),
    (percent_c, NotImplementedError, "`%c` directive"),
    (width_from_a_traced_value, TypeError, "inside a format spec")])
def test_formats_python_refuses_or_that_need_the_value_now_raise(fn, error, said):
    with pytest.raises(error, match=said):
        ag.defun(fn, backend="interpreter")(np.array([7.0, 3.0]))


def text_as_a_value(x):
    label = f"x = {x}"
    return x * len(label)


def returns_text(x):
    return f"{x:.2f}"


def percent_format(x):
    return x * len("%s" % x)


def array_with_a_spec(x):
    print(f"{x:.2f}")  # NumPy: TypeError, an array has no format spec
    return x


@pytest.mark.parametrize("fn, said", [
    (text_as_a_value, "used as a Python string"), (returns_text, "returns a string made"),
    (array_with_a_spec, "unsupported format string passed to numpy.ndarray"),
    (percent_format, "used as a Python string")])
def test_text_of_a_traced_value_used_as_a_string_is_refused(fn, said):
    # its text exists only when the function runs: a length or a string of the symbolic
    # repr would be a silent wrong answer (len(f"x = {x}") was 45)
    for backend in ("interpreter", "cpu"):
        with pytest.raises(TypeError, match=said):
            ag.defun(fn, backend=backend)(np.ones(2) if fn is array_with_a_spec
                                          else np.float64(1.5))


def rows_of_traced_length(x, m, n):
    rows = []
    for i in range(n):  # trip count known, row length m only at run time
        rows.append(x[:m] * i)
    return np.stack(rows)


@pytest.mark.parametrize("m", [0, 2, 4])
def test_list_rows_whose_size_is_unknown_while_tracing(m):
    agree(rows_of_traced_length, np.arange(1.0, 5.0), np.int64(m), np.int64(3))


def back_substitution(U, b):
    n = len(b)
    x = np.zeros(n)
    for i in reversed(range(n)):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    last = 0.0
    for row in reversed(U):
        last = last * 0.5 + row[0]
    return x, last


def test_reversed_range_and_rows_of_tensors():
    # (TypeError before: 'StagedRange' object is not reversible)
    U = np.triu(np.arange(1.0, 17.0).reshape(4, 4))
    agree(back_substitution, calls=[(U, np.arange(4.0)), (U[:3, :3] + 1.0, np.ones(3))],
          rtol=1e-12)


# --- session 37: names that were refused ---------------------------------------------------
def byte_counts(x):
    return x.itemsize * 100 + x.nbytes + x[1:].nbytes


def sorts_a_list_in_place(x):
    lst = [x[2], x[0], x[1]]
    if x[0] > 0:
        lst.sort(reverse=True)          # (Python compared tensors: a TypeError before)
    else:
        lst.sort(key=abs)
    order = [3, 1, 2]
    order.sort()                        # (Python values: Python's own sort)
    return lst[0] + 2 * lst[1] + 4 * lst[2], x[order[0]]


def contiguous(x, out):
    y = np.ascontiguousarray(x)         # x itself: the write below reaches x
    y[0] = 9.0
    z = np.ascontiguousarray(x[::2])    # a copy: the write stays there
    z[1] = 7.0
    w = np.ascontiguousarray(out)       # an argument: itself, or a copy where strided
    w += x
    return x, z, np.ascontiguousarray(x[1:], dtype=np.float32), w


def test_itemsize_nbytes_list_sort_and_ascontiguousarray_are_numpys():
    x = np.array([1.5, -2.0, 3.0, 0.5])
    agree(byte_counts, calls=[(x,), (x.astype(np.float32),)])
    agree(sorts_a_list_in_place, calls=[(x,), (-x,)])
    agree(contiguous, calls=[(x, np.zeros(4)), (x, np.zeros(8)[::2])])


def chunks_of_two(x, step):
    parts = []
    i = 0
    while i < x.shape[0]:   # (the first trip runs in Python: i is 0, then a tensor)
        parts.append(x[i:i + 2])
        i += step
    return len(parts), np.stack(parts)


def test_rows_of_a_run_time_size_after_one_of_a_known_size():
    """The first row (`x[0:2]`, appended by a trip Python ran) has a size known while
    tracing, the loop's (`x[i:i + 2]`) one known at run time: the buffer took the
    placeholder size 0 and the first row did not fit (a ValueError before session 41)."""
    agree(chunks_of_two, calls=[(np.arange(6.0), np.int64(2)), (np.arange(8.0), np.int64(2)),
                                (np.arange(4.0), np.int64(1))])


def smallest(x):
    best = None
    for v in x:
        if best is None or v < best:
            best = v
    return best


def best_row(m):
    best, at = None, -1
    for i, row in enumerate(m):
        s = row.sum()
        if best is None or s > best:
            best, at = s, i
    return best, at


def steps(x):
    prev, total = None, 0.0
    for v in x:
        if prev is not None:
            total += abs(v - prev)
        prev = v
    return total, prev


def test_a_none_the_first_trip_replaces_is_the_loops_first_trip():
    """`best = None` before a staged `for` was refused (loop state that cannot be a tensor,
    session 47): with the trip count known while tracing the first trip is traced by itself
    (it sees the None, as Python's) and the rest staged; no trip leaves the None. A count
    known only at run time falls back to the exact sizes (each length traces)."""
    agree(smallest, calls=[(np.array([3.0, 1.0, 2.0]),), (np.array([5.0]),),
                           (np.array([4.0, -1.0, 7.0, -3.0]),), (np.zeros(0),)], exact=True)
    agree(best_row, calls=[(np.arange(6.0).reshape(3, 2),), (-np.arange(8.0).reshape(4, 2),)],
          exact=True)
    agree(steps, calls=[(np.array([3.0, 1.0, 2.0]),), (np.array([5.0, 6.0, 2.0]),)],
          exact=True)


def doubled_codes(x):
    return np.fromiter((int(c) * 2 for c in x), dtype=np.int64, count=len(x))


def shifted(x):
    return np.fromiter((v + 0.5 for v in x), np.float32)


def test_fromiter_of_tensor_items():
    # (session 47: NumPy was handed the symbolic items, "cannot be used as a Python int")
    agree(doubled_codes, calls=[(np.array([1, 2, 3]),), (np.array([4, 5], np.int8),)],
          exact=True)
    agree(shifted, calls=[(np.arange(3.0),), (np.arange(5.0),)], exact=True)


def ema_over_the_rest(x, alpha):
    s = x[0]                     # (an int32 seed: the first trip makes it float64)
    for v in x[1:]:
        s = alpha * v + (1 - alpha) * s
    return s


def ema_series(x, alpha):
    s = x[0]
    out = [s]
    for i, v in enumerate(x[1:]):
        s = alpha * v + (1 - alpha) * s
        out.append(s)
        if s > 100:
            break
    return np.array(out), i


def widened_twice(x):
    s = x[0]                     # (int8, then int16 on the first trip, float64 on the next)
    for v in x[1:]:
        s = s * np.int16(2) if s.dtype == np.int8 else s + 0.5
    return s


def test_a_variable_whose_first_trip_changes_its_dtype_is_the_loops_first_trip():
    """An EMA over `x[1:]` seeded with an int32 `x[0]` was refused ('changes dtype') where
    the `range` form compiled (session 49): with the trip count known while tracing the
    first trip runs by itself and the rest is staged with the dtype it gave."""
    x = np.array([1, 5, 2, 8, 3], dtype=np.int32)
    agree(ema_over_the_rest, calls=[(x, 0.5), (x[:2], 0.25), (x[:1], 0.75), (x[:3], 0.5)])
    agree(ema_series, calls=[(x, 0.5), (x * 50, 0.5)])
    with pytest.raises(TypeError, match="'s' changes dtype from int16 to float64"):
        ag.defun(widened_twice, backend="interpreter")(np.arange(4, dtype=np.int8))


def first_pair_then_the_rest(x):
    it = enumerate(x * 2.0)
    i0, v0 = next(it)
    rest = [i * v for i, v in it]
    return i0, v0, sum(rest), next(zip(x, x + 1))


def looped_after_next(x):
    it = enumerate(x)
    next(it)
    s = x[0] * 0
    for i, v in it:
        s = s + i * v
    return s


def test_next_of_an_enumerate_or_zip_of_tensors():
    """`next(enumerate(t))` of a tensor was a TypeError at run time (session 49: met once
    a NumPy array made while tracing was read as the box a staged loop made it); the
    items after it are the iterator's rest, as Python's. A staged `for` over an iterator
    next() advanced is refused (it would read from the start)."""
    agree(first_pair_then_the_rest, calls=[(np.arange(4.0),), (np.array([2.0, -1.0]),)])
    with pytest.raises(NotImplementedError, match="iterator that next\\(\\) advanced before"):
        ag.defun(looped_after_next, backend="interpreter")(np.arange(40.0))


def min_max_beyond_the_dtype(x):
    v = min(x[0], 250)                   # (an int8 is always below 250: the int8 itself)
    w = max(x[0], 300)                   # (always 300: the Python int)
    best = -10 ** 9
    for i in range(1, len(x)):
        best = max(best, x[i] - x[i - 1])
    return v + v, w * 2, best


def largest_rectangle(h):
    st = []
    best = 0
    for i in range(len(h)):
        while st and h[st[-1]] > h[i]:
            height = h[st.pop()]
            width = i if not st else i - st[-1] - 1
            best = max(best, height * width)
        st.append(i)
    return best


def test_min_max_of_an_int_beyond_the_dtype_and_a_stack_of_python_ints():
    """Session 56's probe: `min(i8[0], 250)` was an int64 of both (`v + v` 200 where
    Python's int8 wraps to -56); Python picks the int8 itself, or the Python int, known
    while tracing since the int is beyond every int8. And a stack of indices that a staged
    `while` popped, then `st.append(i)`, read its items as int64s, so the largest-rectangle
    loop's `best` changed dtype (refused)."""
    with np.errstate(all="ignore"):
        agree(min_max_beyond_the_dtype, calls=[(np.array([100, 3, 90], np.int8),),
                                               (np.array([-100, 7], np.int8),)])
    agree(largest_rectangle, calls=[(np.array([2, 1, 5, 6, 2, 3], np.int32),),
                                    (np.array([6, 2, 5, 4, 5, 1, 6], np.int32),)])


def extremes_of_three_and_by_key(x, k):
    if k == 0:
        return max(x[0], -1000, 5) * 2   # (-1000 never wins: max(x[0], 5))
    if k == 1:
        return max(x[0], 1000, key=abs)  # (compared as Python ints, not wrapped to int8)
    if k == 2:
        return min(x[0], x[1], 300) + x[0]
    v = True                             # (a Python bool beside a NumPy int: Python's int
    if x[0] > 0:                         # arithmetic on the runs it is the bool)
        v = x[0]
    return v * 200


def test_min_max_of_three_by_key_and_a_python_bool_beside_numpy_ints():
    """Session 56's third probe: `max(x[0], -1000, 5)` of an int8 was an int64 (no wrap
    after it), `max(x[0], 1000, key=abs)` wrapped 1000 into the int8, and `v = True` merged
    with a uint8 took the uint8's arithmetic on the runs it is Python's bool."""
    x = np.array([100, 27], np.int8)
    with np.errstate(all="ignore"):
        for k in range(4):  # (k == 3: NumPy's OverflowError, 200 in int8, on the runs
            raised = []     # where `v` is the int8; Python's 200 where it is the bool)
            agree(lambda x: extremes_of_three_and_by_key(x, k), errors=raised,
                  calls=[(x,), (np.array([120, -3], np.int8),)] + (
                      [(np.array([0, 1], np.int8),)] if k == 3 else []))
            assert len(raised) == (4 if k == 3 else 0), raised


def max_of_a_relaxed_number_and_a_narrow_item(c, x):
    return max(c, x[0]) * 2


def test_max_of_a_relaxed_python_number_beside_a_narrow_numpy_number():
    """Session 56's probe: a relaxed (weak) Python float beside a float32 item made `max`
    a float32 inf for 1e300; a relaxed int beyond an int32 raised NumPy's OverflowError
    where Python returns the int. Compared as Python compares them, the pick is exact or
    refused on its run."""
    y = np.array([1.5, 2.0], np.float32)
    f = ag.defun(max_of_a_relaxed_number_and_a_narrow_item)
    for c in (1.0, 2.0, 2.5, 0.5):                       # (relaxed from the second call)
        assert float(f(c, y)) == max(c, y[0]) * 2
    with pytest.raises(NotImplementedError, match="cannot hold exactly"):
        f(1e300, y)
    x = np.array([5, 6], np.int32)
    g = ag.defun(max_of_a_relaxed_number_and_a_narrow_item)
    assert [int(g(n, x)) for n in (3, 10, -2 ** 40)] == [10, 20, 10]
    with pytest.raises(NotImplementedError, match="cannot hold exactly"):
        g(2 ** 40, x)
