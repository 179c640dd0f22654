"""lists: `l.append(x)` in a loop rebinds `l` via `ag__.list_append`."""

import collections
import functools

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.autograph.converters.lists import ListTransformer
from differential import agree

from .conftest import assert_equivalent, convert_only


def squares(n):
    out = []
    out.append(-1)
    for i in range(n):
        out.append(i * i)
    return out


def aliasing(n):
    a = []
    b = a
    for i in range(n):
        a.append(i)
    return b


def test_appends_to_local_names_are_rewritten():
    # also outside loops: a list a staged loop stacked (list_values.ListTensor) is a new
    # value after an append, and a Python list is returned as it is (identity kept, below)
    src = convert_only(squares, ListTransformer)
    assert "out = ag__.list_append(out, -1, 'out')" in src
    assert "out = ag__.list_append(out, i * i, 'out')" in src


def test_behaviour_keeps_list_identity():
    assert_equivalent(squares, [(0,), (4,)])
    assert_equivalent(aliasing, [(3,)])


SHARED = []


def appends_to_module_list_with_a_same_named_comprehension_variable(n):
    for i in range(n):
        SHARED.append(i)  # the module's list: appended in place, never rebound
    return [SHARED for SHARED in range(2)]  # a comprehension's own SHARED, not a local


def test_a_comprehension_variable_is_not_a_local_of_the_function():
    src = convert_only(appends_to_module_list_with_a_same_named_comprehension_variable,
                       ListTransformer)
    assert "SHARED.append(i)" in src and "list_append" not in src
    SHARED.clear()
    assert_equivalent(appends_to_module_list_with_a_same_named_comprehension_variable,
                      [(3,)])
    assert SHARED == [0, 1, 2] * 4  # two calls each, plain and converted, all appended


# -- a list appended to under a staged condition becomes a tensor list ----------------------
def peaks(x):
    found = []
    for i in range(1, len(x) - 1):      # unrolled at a small exact size, staged at a large one
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            found.append(i)
    return np.array(found, dtype=np.int64), len(found)


def branch_appends(x):
    rows = [x[0]]
    if x[1] > 0:                        # a staged `if` outside any loop
        rows.append(x[1])
    else:
        rows.append(x[2])
        rows.append(x[3] * 2.0)
    return np.array(rows), len(rows)


def mixed_items(x, n):
    items = [0.5]                       # a float first, then ints: NumPy's float64 array
    for i in range(n):
        if x[i] > 0:
            items.append(1)
        elif x[i] < -0.5:
            items.append(x[i])
    total = 0.0
    for v in items:
        total += v
    return total, np.array(items)


def test_peaks_collected_in_a_list_under_a_staged_if():
    agree(peaks, calls=[(np.array([0.0, 2, 1, 3, 0, 5, 4]),), (np.sin(np.arange(300.0) / 7),),
                        (np.arange(9.0),)], exact=True)


def test_a_staged_if_appending_different_rows():
    agree(branch_appends, calls=[(np.array([1.0, 2, 3, 4]),), (np.array([1.0, -2, 3, 4]),)],
          exact=True)


def test_list_dtype_is_numpys_for_all_items():
    agree(mixed_items, calls=[(np.array([1.0, -2, 3, 0.2, -0.7]), np.int64(5)),
                              (np.array([-1.0, 2]), np.int64(2))], exact=True)


def starts_float_appends_ints(n):
    out = [0.5]
    for i in range(n):                  # a staged loop (a tensor bound): ints appended
        out.append(i)
    return np.array(out)


def test_a_list_of_floats_appended_ints_in_a_staged_loop_stays_float():
    # (the buffer once took the appended row's int64, and 0.5 became 0)
    agree(starts_float_appends_ints, calls=[(np.int64(3),), (np.int64(0),)], exact=True)


def aliased(x):
    a = []
    b = a
    for i in range(len(x)):
        if x[i] > 0:
            a.append(x[i])
    return b


def appends_to_param(lst, x):
    for i in range(len(x)):
        if x[i] > 0:
            lst.append(x[i])
    return len(lst)


def caller_keeps_list(x):
    lst = [1.0]
    appends_to_param(lst, x)
    return lst


class _Log:
    pass


def held_by_containers(x):
    acc = []
    record = {"acc": acc}
    rows = [acc, []]
    log = _Log()
    log.items = (1, acc)
    for v in x:                         # staged: `record`, `rows` and `log` would not see
        acc.append(v)                   # the rows of the tensor list `acc` becomes
    return len(record["acc"]), len(rows[0]), len(log.items[1])


def held_by_callables_and_iterators(x):
    acc = []
    count = lambda items=acc: len(items)           # noqa: E731 - a default holds it
    later = functools.partial(len, acc)
    queue = collections.deque([acc])
    walk = iter([acc])
    table = list(range(30000))                     # (a big local scanned before `d`)
    d = {"acc": acc}
    for v in x:
        acc.append(v)
    return count(), later(), len(queue[0]), len(next(walk)), len(table), len(d["acc"])


def held_by_a_dict_appended_under_an_if(x):
    acc = []
    record = {"acc": acc}
    if x[0] > 0:                        # `acc` is not read after the `if`: `record` is
        acc.append(x[0])
    return len(record["acc"])


@pytest.mark.parametrize("fn,match", [
    (aliased, r"'a' is a Python list that the staged code at .*test_lists.py:\d+ appends "
              r"to, and 'b' holds the same list"),
    (caller_keeps_list, r"'lst' of caller_keeps_list\(\) holds the same list"),
    (held_by_containers, r"`log.items\[1\]`, `record\['acc'\]`, `rows\[0\]` holds the same"),
    (held_by_a_dict_appended_under_an_if, r"`record\['acc'\]` holds the same list"),
    (held_by_callables_and_iterators,
     r"`count.__defaults__\[0\]`, `d\['acc'\]`, `later.args\[0\]`, `queue\[0\]`, "
     r"`walk's sequence\[0\]` holds the same list"),
])
def test_a_list_another_name_holds_is_refused(fn, match):
    # the other name would not see the rows: refused, never a stale list
    for backend in ("interpreter", "cpu"):
        with pytest.raises(ValueError, match=match):
            ag.defun(fn, backend=backend)(np.array([1.0, -1.0, 2.0]))


def item_written(x):
    items = [1.0, 2.0]
    if x[0] > 0:
        items[0] = 5.0                  # a composite: carried as `items[0]` (slots.py)
    return items


def test_a_list_item_written_under_a_staged_if_takes_the_branch_taken():
    agree(item_written, np.ones(2))
    agree(item_written, -np.ones(2))


def _halve(z):
    z *= 0.5


def list_beside_a_helper_call(x, n, s):
    # the helper may write through any name that holds an array, so the loop's names,
    # `hold` too, are its state (converters/shared_names.py): the list it never changes
    # stays the list, not a tensor list of its items (random program 1426)
    r = np.arange(4) * 0.5 + s
    hold = [0.5, s]
    f = r[n % 4]
    if n > 2:
        for e in x:
            if e > 1:
                _halve(r)
            f = hold[0]
    return f, hold[1], r


def test_a_list_a_staged_loop_leaves_as_it_was_stays_a_list():
    agree(list_beside_a_helper_call, np.array([0.5, 2.0, 3.0]), np.int64(4), 1.0)
    agree(list_beside_a_helper_call, np.array([0.5, 2.0, 3.0]), np.int64(1), 2.0)


def other_change(x):
    items = [1.0, 2.0]
    if x[0] > 0:
        items[0:1] = [5.0, 6.0]         # not an append: no tensor list can say it
    return items


def test_a_list_changed_otherwise_under_a_staged_if_is_refused():
    # (it looks like an item write beside an append, `counts[-1] += 1` / `counts.append(1)`,
    # which is staged: the slice write is what is refused, at its line)
    with pytest.raises(NotImplementedError, match="a slice or several items of a list .* "
                                                  "written at .*test_lists.py"):
        ag.defun(other_change, backend="interpreter")(np.ones(2))


def scalar_rows(x):
    s = x[0] * 2.0
    return s[None], s[None, None], np.expand_dims(s, 0)


def test_new_axes_on_a_scalar_tensor():
    agree(scalar_rows, np.array([1.5, 2.0]), exact=True)


def _appends(l, v):
    l.append(v)


def appends_in_a_helper(x):
    calls = []
    if x[0] > 0:
        _appends(calls, x[0])
    return len(calls)


def appends_in_a_closure(x):
    calls = []

    def note(v):
        calls.append(v)
    if x[0] > 0:
        note(x[0])
    return len(calls)


@pytest.mark.parametrize("fn, said", [(appends_in_a_helper, "holds the same list"),
                                      (appends_in_a_closure, "method call the conversion")])
def test_a_staged_list_appended_to_by_a_helper_or_closure_is_refused(fn, said):
    # (the branch's list is a tensor of its rows, a value: the helper's append gave a new
    # one the caller never saw, so len() was 0 on every run before session 45)
    with pytest.raises((ValueError, NotImplementedError), match=said):
        ag.defun(fn, backend="interpreter")(np.array([1.0]))


def truth_of_a_list_the_loop_appends_to(x):
    t = []
    n, first, near = 0, -1.0, 0
    for i in range(len(x)):
        if t:                                   # (empty on the first trips)
            n += 1
        if x[i] > 0 and not t:
            first = x[i]
        if t and i - t[-1] <= 1:
            near += 1
        if x[i] > 1:
            t.append(i)
    return n, first, near


def test_the_truth_of_a_list_a_staged_loop_appends_to_is_its_length():
    # (session 46: the loop's list, a tuple of buffer and length, was always true)
    agree(truth_of_a_list_the_loop_appends_to, calls=[
        (np.array([1.0, 2.0, 3.0]),), (np.array([-1.0, 2.0]),),
        (np.array([-1.0, -2.0, 4.0, 0.5]),)])


def appends_in_if_and_elif(sig):
    trades = []
    for i in range(len(sig)):
        if sig[i] == 1:
            trades.append(i)
        elif sig[i] == -1:          # (an append on one path of a staged `if` in a branch)
            trades.append(-i)
    return len(trades), sum(trades)


def test_one_list_appended_to_in_an_if_and_its_elif():
    # (refused as "a list in the true branch and a tensor in the false branch" where the
    # loop unrolled: the scratch traces saw equal placeholder rows; session 46)
    agree(appends_in_if_and_elif, calls=[(np.array([1, 0, -1]),), (np.array([1, 1, 0, -1]),),
                                         (np.array([0, 1]),)])


def image_pyramid(img, levels):
    out = [img]                 # (a list seeded with an argument of a relaxed size)
    cur = img
    for _ in range(levels):
        if cur.sum() < 1:
            break
        cur = cur * 0.5
        out.append(cur)
    return len(out), sum(o.sum() for o in out)


def test_a_list_seeded_with_a_relaxed_array_takes_rows_of_its_run_time_size():
    # (the staged list's rows had the stand-in size 0 of a scratch trace: session 46)
    agree(image_pyramid, calls=[(np.ones(3), 3), (np.ones(4), 2), (np.ones(5), 4)])


# -- a list read inside the staged loop that appends to it (session 47) ---------------------
def counts_what_it_saw(x):
    seen = []
    out = np.zeros(len(x))
    for i in range(len(x)):
        c = 0
        for s in seen:              # (was 2 trips always: the row buffer and the length)
            c += 1
        out[i] = c
        seen.append(x[i])
    return out


def sums_the_rows_so_far(V):
    basis = []
    out = np.zeros(V.shape[0])
    for i in range(V.shape[0]):
        t = 0.0
        for k, b in enumerate(basis):
            t += b.sum() * (k + 1)
        out[i] = t
        basis.append(V[i])
    return out


def seen_before(x):
    seen = []
    c = 0
    for i in range(len(x)):
        if x[i] in seen:
            c += 1
        seen.append(x[i])
    return c


def gram_schmidt(V):
    basis = []
    for v in V:
        w = v.copy()
        for b in basis:
            w = w - (v @ b) * b
        basis.append(w / np.linalg.norm(w))
    return np.array(basis)


def running_summary(x):
    seen = []
    out = np.zeros(len(x))
    for i in range(len(x)):
        seen.append(x[i])
        out[i] = sum(seen) + max(seen) - min(seen)
    return out


def test_a_list_read_in_the_loop_appending_to_it_gives_its_rows_so_far():
    """Iterating (`for`, `enumerate`, `in`) a list inside the staged loop that appends to
    it walked the loop's (buffer, length) pair: two items whatever the list held, on cpu
    rows of uninitialised memory (session 47)."""
    agree(counts_what_it_saw, calls=[(np.arange(4.0),), (np.arange(6.0),)], exact=True)
    agree(sums_the_rows_so_far, calls=[(np.arange(12.0).reshape(4, 3),), (np.ones((2, 2)),)],
          exact=True)
    agree(running_summary, calls=[(np.array([3.0, 1.0, 4.0, 1.0]),), (np.array([5.0, -2.0]),)],
          exact=True)
    agree(seen_before, calls=[(np.array([1.0, 2.0, 1.0, 3.0, 2.0]),),
                              (np.array([5.0, 5.0]),)], exact=True)
    agree(gram_schmidt, calls=[(np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0],
                                          [0.0, 1.0, 1.0]]),),
                               (np.array([[2.0, 0.0], [1.0, 1.0]]),)], rtol=1e-12)


# Session 51's probe: a test on a list's length or truth that is False on the first trip of
# a staged loop (the list is empty, or short, before it) decided code that runs on later
# trips only; the loop was typed from the first trip, so what that code set (the return
# value, another list's rows) was not carried, and a zero or an empty list came back,
# silently (trial._later_trips traces a second trip with the list as the loop carries it)
def first_drop(x):
    hist = []
    for i in range(x.shape[0]):
        if hist and x[i] < hist[-1]:
            return i
        hist.append(x[i])
    return -1


def doubled_after_the_first(x):
    window = []
    out = []
    for i in range(x.shape[0]):
        window.append(x[i])
        if len(window) >= 2:
            out.append(x[i] * 2)
    return np.array(out, dtype=np.float64)


def partial_sum_once_long(x):
    f = [0.0]
    for i in range(x.shape[0]):
        if len(f) > 2 and x[i] < 0:
            return f[-1]
        f.append(f[-1] + x[i])
    return -1.0


@pytest.mark.parametrize("fn", [first_drop, doubled_after_the_first, partial_sum_once_long])
def test_a_list_test_that_holds_on_later_trips_only(fn):
    agree(fn, calls=[(np.array([1.0, 3.0, 2.0, 5.0]),), (np.array([0.0, 1.0, 1.5, 7.0]),),
                     (np.array([-1.0, 2.0, -3.0, 4.0, 5.0]),), (np.array([2.0]),)])


# Run-length encoding: one branch writes the list's last item (`counts[-1] += 1`), the
# other appends; refused before (the list-as-stack advice, which did not fit), in an
# unrolled loop and in a staged one. An item of a list carried as a row buffer is one row
# of it (TensorList.written), at Python's index (negative from the length; out of range,
# NumPy's IndexError of the rows)
def run_lengths(x):
    vals = [x[0]]
    counts = [1]
    for i in range(1, x.shape[0]):
        if x[i] == vals[-1]:
            counts[-1] += 1
        else:
            vals.append(x[i])
            counts.append(1)
    return np.array(vals), np.array(counts), counts[-1]


def run_maxima(x, k):
    runs = [x[0], x[0]]
    for i in range(1, x.shape[0]):
        if x[i] > x[i - 1]:
            runs[k] = max(runs[k], x[i])
        else:
            runs.append(x[i])
    return np.array(runs), len(runs)


def test_an_item_written_beside_an_append_is_a_row_of_the_list():
    agree(run_lengths, calls=[(np.array([1.0, 1.0, 2.0, 2.0, 2.0, 3.0]),),
                              (np.array([4.0, 4.0, 4.0]),), (np.array([5.0]),),
                              (np.repeat(np.arange(14.0), 3),)])  # (40 trips: staged)
    agree(run_maxima, calls=[(np.array([1.0, 3.0, 2.0, 5.0, 6.0, 1.0]), -1),
                             (np.array([3.0, 2.0, 1.0]), 0), (np.array([1.0, 2.0]), 1),
                             (np.array([1.0, 2.0, 1.0]), 3), (np.array([1.0, 0.0]), -4)])


def test_an_item_write_that_would_change_the_lists_kind_is_refused():
    def halves(x):
        counts = [1]
        for i in range(1, x.shape[0]):
            if x[i] > 0:
                counts[-1] += 0.5  # (Python's list holds 1.5: int rows cannot)
            else:
                counts.append(1)
        return counts[-1]
    for backend in ("interpreter", "cpu"):
        with pytest.raises(TypeError, match=r"carries as int64 rows cannot take a float64 "
                                            r"item at .*test_lists.py"):
            ag.defun(halves, backend=backend)(np.array([1.0, -1.0, 2.0]))


# Session 52's probe: a list the caller passed, appended to under a staged `if` or in a
# staged loop, became a tensor list its name was rebound to, and the caller's list stayed
# empty, silently (an append Python ran at trace time was refused as SPEC §3 says)
def appends_to_the_callers_list(x, out):
    for i in range(x.shape[0]):
        if x[i] > 0:
            out.append(x[i])
    return 0


def appends_to_a_copy(x, out):
    out = list(out)
    for i in range(x.shape[0]):
        if x[i] > 0:
            out.append(x[i])
    return np.array(out)


def test_a_callers_list_appended_to_in_staged_code_is_refused():
    for x in (np.array([1.0, -2.0, 3.0]), np.linspace(-1.0, 1.0, 40)):  # (unrolled, staged)
        with pytest.raises(TypeError, match=r"'out' is the list the caller passed as 'out', "
                                            r"which the staged code at .*test_lists.py"):
            ag.defun(appends_to_the_callers_list, backend="interpreter")(x, [])
    agree(appends_to_a_copy, calls=[(np.linspace(-1.0, 1.0, 40), [0.5]),
                                    (np.array([1.0, -2.0]), [])])


# Helper session 52's "trips" grammar: a list a staged loop appends to inside one branch of
# a staged `if` (the other leaves it) was refused ('a tensor ... in the true branch and a
# list in the false branch'; '_TrialList' inside an outer staged loop): the `if` now
# carries it as a tensor list, as for `if c: out.append(v)`
def fills_when_asked(a, n):
    h = [0]
    if a > n:
        for j in range(a):
            h.append(j)
    return len(h), sum(h)


def fills_in_an_outer_loop(x, n):
    h = []
    for i in range(n):
        if x[i] > 0:
            for j in range(i):
                h.append(x[j])
    return len(h), np.array(h, dtype=np.float64)


def test_a_list_a_staged_loop_appends_to_in_one_branch():
    i64 = np.int64
    agree(fills_when_asked, calls=[(i64(3), i64(2)), (i64(0), i64(1)), (i64(4), i64(0))])
    agree(fills_in_an_outer_loop, calls=[(np.array([1.0, -1.0, 2.0, 3.0]), i64(4)),
                                         (np.linspace(-1.0, 1.0, 40), i64(40))])


def rows_so_far_when_asked(b, n):
    h = []
    for i in range(b):
        h.append(i)
        if n > i:
            return np.array(h, dtype=np.float64)
    return np.array(h, dtype=np.float64)


def test_np_array_of_the_list_inside_the_loop_appending_to_it():
    # (session 52, the trips grammar: np.array saw the row buffer and the length, two
    # tensors, "all tensors must have the same rank, got (None,), ()")
    i64 = np.int64
    agree(rows_so_far_when_asked, calls=[(i64(3), i64(2)), (i64(3), i64(0)), (i64(0), i64(0))])


# (session 52, the trips grammar) a list bound to a new list in one branch of a staged `if`
# (a run begun again) beside an append in the other: refused, a list beside the rows
def longest_rising_run(x):
    run = [x[0]]
    best = 1
    for i in range(1, x.shape[0]):
        if x[i] < x[i - 1]:
            run = [x[i]]
        else:
            run.append(x[i])
        best = max(best, len(run))
    return best, np.array(run)


def restarted(a, n):
    h = []
    for i in range(n):
        if a > i:
            h = []
        h.append(i)
    return len(h)


def test_a_list_begun_again_in_one_branch():
    agree(longest_rising_run, calls=[(np.array([1.0, 2.0, 0.5, 0.7, 0.9, 1.5, 0.1]),),
                                     (np.linspace(-1.0, 1.0, 40),), (np.array([3.0]),)])
    agree(restarted, calls=[(np.int64(3), np.int64(5)), (np.int64(0), np.int64(4)),
                            (np.int64(9), np.int64(0))])


# (session 52, trips seed 392) the same inside a branch that `_lists_as_tensor_lists` traces
# in a scratch graph (where it does not look): the inner `if` is staged again with the
# list a tensor list (conditionals._ListLate); refused as a tensor beside a list before
def appends_in_a_nested_branch(a, b, x):
    k = (a + np.sum(np.stack([a, b]))) % 7
    h = []
    if x < 5.0:
        if len(h) >= 2 and h[-1] > h[-2]:
            pass
        elif x > b:
            for i in range(k % 5):
                h.append(k)
        if h and b < h[-1]:
            b = b + 1
    return b, (h[-1] if h else -1), len(h)


def test_a_list_a_staged_loop_appends_to_in_a_nested_branch():
    i64, f64 = np.int64, np.float64
    agree(appends_in_a_nested_branch, calls=[(i64(0), i64(0), f64(0.0)),
                                             (i64(3), i64(-2), f64(1.5)),
                                             (i64(3), i64(6), f64(-2.5)),
                                             (i64(4), i64(-3), f64(9.0))])


# (session 52, trips seeds 304 and 308) `h and h[-1] != v` where `h` is a list a staged
# region carries with no row yet (a length known while tracing): `and` took the tensor
# list's truth for a tuple's, always True, and read `h[-1]` of no rows (IndexError, then
# an internal error)
def guarded_last(a, b, n):
    h = []
    for i in range(n):
        if (i % 5) != b:
            pass
        else:
            if (h and h[-1] != (n + i)) or (b > 2):
                b = b - 1
            for j in range(a):
                h.append(i)
    return len(h), b


def test_the_truth_of_an_empty_carried_list_in_and():
    i64 = np.int64
    agree(guarded_last, calls=[(i64(3), i64(0), i64(6)), (i64(2), i64(1), i64(12)),
                               (i64(0), i64(0), i64(0))])


# Session 54: `v = stack.pop()` (a statement of its own: converters/lists.py rebinds the
# list) in staged loops and branches; refused before ("list.pop() of a list that a staged
# loop carries as a row buffer"), so iterative DFS, quicksort, bracket matching and the
# monotonic-stack algorithms needed a NumPy array and a `top` index.
def next_greater(x):
    out = np.full(x.shape[0], -1.0)
    stack = []
    for i in range(x.shape[0]):
        while stack and x[stack[-1]] < x[i]:
            j = stack.pop()
            out[j] = x[i]
        stack.append(i)
    return out, len(stack)


def balanced(code):
    stack = []
    for c in code:
        if c == 1:
            stack.append(c)
        elif c == 2:
            if not stack:
                return False
            stack.pop()
    return len(stack) == 0


def reached_by_dfs(adj, start):
    seen = np.zeros(adj.shape[0], np.bool_)
    stack = [start]
    count = 0
    while stack:
        v = stack.pop()
        if seen[v]:
            continue
        seen[v] = True
        count += 1
        for w in range(adj.shape[0]):
            if adj[v, w] and not seen[w]:
                stack.append(w)
    return count


def quicksorted(a):
    a = a.copy()
    stack = [0, a.shape[0] - 1]
    while stack:
        hi = stack.pop()
        lo = stack.pop()
        if lo >= hi:
            continue
        p, i = a[hi], lo
        for j in range(lo, hi):
            if a[j] < p:
                a[i], a[j] = a[j], a[i]
                i += 1
        a[i], a[hi] = a[hi], a[i]
        stack.extend((lo, i - 1, i + 1, hi))
    return a


def popped_in_a_branch_or_past_the_end(x):
    s = [10, 20, 30]
    v = s.pop() if x[0] > 5 else 0
    if x[0] > 0:
        v += s.pop()
    rows = []
    for e in x:
        if e > 0:
            rows.append(e)
    total = 0.0
    while total < 5.0:
        total += rows.pop()  # (IndexError where the positives sum to less: Python's)
    return v, len(s), total


def lower_hull(p):
    lower = []
    for i in range(p.shape[0]):
        while len(lower) >= 2 and ((lower[-1][0] - lower[-2][0]) * (p[i, 1] - lower[-2][1])
                                   - (lower[-1][1] - lower[-2][1]) * (p[i, 0] - lower[-2][0])
                                   <= 0):
            lower.pop()
        lower.append(p[i])
    return np.array(lower)


def test_a_stack_pops_in_staged_loops_and_branches():
    agree(next_greater, [(np.array([2.0, 1.0, 3.0, 0.5, 4.0]),), (np.array([5.0, 4.0]),),
                         (np.zeros(0),)])
    agree(balanced, [(np.array([1, 1, 2, 2]),), (np.array([1, 2, 2, 1]),),
                     (np.array([1, 1, 2]),)])
    adj = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]], np.bool_)
    agree(reached_by_dfs, [(adj, 0), (adj, 3)])
    agree(quicksorted, [(np.array([3.0, 1.0, 2.0, 5.0, 4.0]),), (np.array([1.0]),),
                        (np.array([2.0, 2.0, 1.0, -1.0]),)])
    agree(popped_in_a_branch_or_past_the_end, [(np.array([6.0, 2.0]),), (np.array([1.0, -1.0]),),
                                               (np.array([-1.0, 9.0]),)])
    pts = np.array([[0.0, 0.0], [1.0, -1.0], [2.0, 0.5], [3.0, -2.0], [4.0, 1.0]])
    agree(lower_hull, [(pts,), (pts[:2],), (pts[::-1].copy(),)])


def pops_a_row_then_writes_it(x):
    rows = []
    for i in range(x.shape[0]):
        if x[i, 0] > 0:
            rows.append(x[i].copy())
    v = rows.pop()
    v[0] = 5.0  # the-write
    return v


def _doubled_pop(st):
    v = st.pop()
    return v * 2


def pops_in_a_helper(x):
    st = []
    for v in x:
        if v > 0:
            st.append(v)
    out = 0.0
    while st:
        out += _doubled_pop(st)
    return out


def largest_rectangle(h):
    st = []
    best = 0.0
    for i in range(h.shape[0]):
        start = i
        while st and st[-1][1] > h[i]:
            s, hh = st.pop()
            best = max(best, hh * (i - s))
            start = s
        st.append((start, h[i]))
    return best


def test_what_a_staged_pop_cannot_follow_is_refused():
    """A popped row of arrays is a copy (the row buffer's), where Python's pop gives the
    array appended, which other names may hold: a write into it is refused."""
    with pytest.raises(NotImplementedError, match="a write into an array popped at"):
        ag.defun(pops_a_row_then_writes_it, backend="interpreter")(np.ones((2, 2)))
    # (rows that are tuples: the row advice, not a NumPy conversion error of the loop that
    # only pops, session 54's probe)
    with pytest.raises(NotImplementedError, match="appends a tuple of tensors to; such a "
                                                  "list holds one array per row"):
        ag.defun(largest_rectangle, backend="interpreter")(np.array([2.0, 1.0, 5.0, 6.0]))
    # (a helper's pop: the caller's name would not see it; the message said "appending")
    with pytest.raises(ValueError, match=r"'st' of pops_in_a_helper\(\) holds the same "
                                         r"list: popping it here would not change"):
        ag.defun(pops_in_a_helper, backend="interpreter")(np.array([1.0, 2.0]))


def pops_in_the_else_branch(x):
    st = []
    for v in x:
        if v > 0:
            st.append(v)
        else:
            st.pop()
    return len(st)


def evaluates_rpn(tok, val):
    st = []
    for i in range(tok.shape[0]):
        if tok[i] == 0:
            st.append(val[i])
        else:
            b = st.pop()
            a = st.pop()
            st.append(a + b)
    return st.pop()


def pops_while_a_count_and_the_list_last(x):
    st = []
    for v in x:
        if v > 0:
            st.append(v)
    k = 0
    while k < 10 and st:
        v = st.pop()
        k += 1
    while st:
        v = st.pop()
        if v > 1:
            break
    return k, len(st)


def pops_inside_expressions(x):
    out = np.full(x.shape[0], -1.0)
    stack = []
    best = 0
    for i in range(x.shape[0]):
        while stack and x[stack[-1]] < x[i]:
            out[stack.pop()] = x[i]
        if x[i] < 0.5 and stack:
            best = max(best, stack.pop())
        stack.append(i)
    return out, best


def test_a_pop_inside_a_statement_runs_before_it():
    """(session 54) `out[stack.pop()] = x[i]`, `best = max(best, stack.pop())`: the one pop
    of a statement that reads the list nowhere else and calls nothing but pure builtins
    runs first, into a name of its own (converters/lists._inner_pop)."""
    agree(pops_inside_expressions, [(np.array([2.0, 1.0, 3.0, 0.25, 4.0]),),
                                    (np.array([5.0, 0.1, 4.0]),)])


def test_a_stack_empty_while_tracing_pops_on_the_runs_that_push_first():
    """(session 54's probe) a pop in a staged branch raised IndexError on valid input: the
    list traced (the one trip typing the loop) was the empty Python list of before the
    loop; `while k < 10 and st:` of a list a staged loop filled was refused ('rank 1 in
    the true branch and 0 in the false'), as was `while st:` left by a `break`."""
    agree(pops_in_the_else_branch, [(np.array([3.0, -1.0]),), (np.array([5.0, 4.0, -1.0]),),
                                    (np.array([-1.0]),)])
    agree(evaluates_rpn, [(np.array([0, 0, 1, 0, 1]), np.array([2.0, 3.0, 0.0, 9.0, 0.0])),
                          (np.array([0, 1]), np.array([1.0, 0.0]))])
    agree(pops_while_a_count_and_the_list_last, [(np.array([5.0, -5.0, 2.0]),),
                                                 (np.array([0.0]),)])


# Session 55: a list made in each branch of a staged `if`, or a list one branch rebinds
# (`best = [v, i]`) while the other keeps or writes it, is merged item by item into a new
# list; refused before ("a different list object in each branch", "binds the name to
# another list"). Where another name holds one of them, refused: a write through it would
# reach the list Python's name is on some runs.
def made_in_each_branch(x):
    if x[0] > 0:
        r = [x[0], x[1]]
    else:
        r = [x[1], x[0]]
    r.append(x[2])
    return r[0] - r[1] + r[2], len(r)


def views_made_in_each_branch(x):
    if x[0] > 0:
        r = [x[:2], x[1:3]]
    else:
        r = [x[1:3], x[:2] * 2.0]
    r[0][0] = 100.0                     # the argument's on the runs of the true branch
    return r[0] + r[1]


def best_so_far(x):
    best = [x[0], 0]
    for i in range(3):                  # (a Python loop: a staged one returns the rows)
        if x[i] > best[0]:
            best = [x[i], i]
    return best


def rebound_or_written(x):
    best = [x[0], 0]
    if x[1] > 0:
        best = [x[1], 1]
    else:
        best[1] = 7
    return best


def test_a_list_made_or_rebound_in_a_branch_is_merged_item_by_item():
    calls = [(np.array([1.0, 2.0, 3.0]),), (np.array([-1.0, 2.0, 3.0]),),
             (np.array([1.0, -2.0, 3.0]),)]
    for fn in (made_in_each_branch, views_made_in_each_branch, best_so_far,
               rebound_or_written):
        agree(fn, calls=calls)


def rebound_while_another_name_holds_it(x):
    best = [x[0], 0]
    alias = best
    for i in range(3):
        if x[i] > best[0]:
            best = [x[i], i]
    alias[0] = -5.0
    return best, alias


def one_list_under_two_names(x):
    if x[0] > 0:
        r = [x[0], x[1]]
        h = r
    else:
        r = [x[1], x[0]]
        h = r
    r.append(1.0)
    return len(h)


def made_of_two_lengths(x):
    if x[0] > 0:
        r = [x[0], x[1]]
    else:
        r = [x[1]]
    return len(r)


@pytest.mark.parametrize("fn, error, match", [
    (rebound_while_another_name_holds_it, NotImplementedError,
     r"'best' is, on some runs, the list that 'alias' also holds after the staged `if` at "
     r".*; the staged `if` gives 'best' one new list on every run"),
    (one_list_under_two_names, NotImplementedError,
     r"'h' is, on some runs, the list that 'r' also holds after the staged `if` at "),
    (made_of_two_lengths, TypeError,
     r"'r' is a list of 2 items in the true branch and of 1 in the false branch of the "
     r"staged `if` at .*: its length would depend on a tensor"),
])
def test_a_list_merge_another_name_would_see_is_refused(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.array([1.0, 2.0, 3.0]))


# Session 55's probe: a `for` over a list whose body appends to it under a tensor
# condition (a BFS written `for u in order: ... order.append(v)`) visited the items the
# list held when the loop began; Python's loop visits the appended ones too. Refused,
# pointing at the loop by index, which is staged and agrees.
def for_over_a_growing_list(x):
    items = [0]
    for u in items:
        if x[u] >= 0:
            items.append(x[u])
    return len(items)


def enumerate_of_a_growing_list(x):
    vals = [x[0]]
    for i, v in enumerate(vals):
        if v > 1 and i < 5:
            vals.append(v / 2)
    return len(vals)


def positives(x):
    items = []
    for v in x:
        if v > 0:
            items.append(v)
    return items                         # (the tensor of its rows)


def for_over_rows_a_loop_appended(x):
    items = positives(x)
    for v in items:
        if v > 2:
            items.append(v - 2)
    return len(items)


def worklist_by_index(x):
    items = positives(x)
    k = 0
    while k < len(items):
        v = items[k]
        k += 1
        if v > 2:
            items.append(v - 2)
    return len(items)


@pytest.mark.parametrize("fn, name", [(for_over_a_growing_list, "items"),
                                      (enumerate_of_a_growing_list, "vals"),
                                      (for_over_rows_a_loop_appended, "items")])
def test_a_for_over_a_list_its_body_appends_to_is_refused(fn, name):
    x = np.array([1, 2, -1, 0]) if fn is for_over_a_growing_list else np.array([8.0, 3.0])
    with pytest.raises(NotImplementedError, match=(
            rf"the `for` at .* iterates the list '{name}', which its body appends to under "
            rf"a tensor condition: Python's loop visits the appended items too, .* loop by "
            rf"index instead")):
        ag.defun(fn, backend="interpreter")(x)


def test_a_worklist_looped_by_index_agrees():
    agree(worklist_by_index, calls=[(np.array([1.0, 3.0, 5.0, -1.0]),),
                                    (np.array([-1.0]),), (np.array([9.0]),)])


def returns_the_rows_from_inside_the_loop(steps, bound):
    x = 0
    path = [x]
    for s in steps:
        x += s
        path.append(x)
        if abs(x) >= bound:
            return path, True
    return path, False


def test_a_list_a_staged_loop_fills_returned_from_inside_it_is_refused_by_kind():
    # (session 55's probe: the message said "which a tuple is not", or named a _TrialList)
    with pytest.raises(TypeError, match=(
            r"the function returns a list a staged loop appends to \(or a tuple holding "
            r"one\) under the staged `if` at .* leave the loop with `break` \(and a flag\) "
            r"and return after it")):
        ag.defun(returns_the_rows_from_inside_the_loop, backend="interpreter")(
            np.array([1, 1, 1, -1]), 3)


def peek_while_pushing(x, k):
    st = []
    out = 0.0
    for v in x:
        if v > 0:
            st.append(v)
        if v > -5:
            out += st[-1] + st[k]        # (a constant and a staged index)
    return out


def test_an_item_of_a_list_a_staged_loop_carries_is_read_at_pythons_index():
    # session 55: read from the row buffer at the index Python's list takes (it read a view
    # of the rows first), with Python's IndexError where it is out of range
    x = np.array([1.0, 2.0, -1.0, 3.0])
    raised = []
    agree(peek_while_pushing, calls=[(x, np.int64(0)), (x, np.int64(-2)), (x, np.int64(1)),
                                     (x, np.int64(-9)), (-x, np.int64(0)),
                                     (x[2:], np.int64(0))], errors=raised)
    assert {m.split(" (at ")[0] for _, _, m in raised} == {"list index out of range"}


def daily_temperatures(t):
    ans = [0] * len(t)
    st = []
    for i in range(len(t)):
        while st and t[i] > t[st[-1]]:
            j = st.pop()                 # (a Python int, as pushed: `i` of the range)
            ans[j] = i - j
        st.append(i)
    return t[:1] + ans[0] * 60           # (int8 + a Python int: int8, wrapping)


def test_a_pop_off_a_list_of_python_ints_is_a_python_int():
    # session 55's probe: a loop that only pops typed the rows by the array of the first
    # item, an int64, so `ans[j] = i - j` made `ans` int64s and `t[:1] + ans[0] * 60` int64
    agree(daily_temperatures, calls=[(np.array([120, 127], np.int8),),
                                     (np.array([5, 1, 7], np.int8),),
                                     (np.array([3], np.int8),)])


def one_list_on_both_paths(x):
    items = [0.0, 1.0]
    if x[0] > 0:
        a, k = items, 1
    else:
        a, k = items, 2
    a[0] = 7.0                           # (the list itself on every run)
    return items[0], k


def test_one_list_bound_in_both_branches_stays_that_list():
    # (session 55's probe: refused as "the list that 'items' also holds")
    agree(one_list_on_both_paths, calls=[(np.array([1.0]),), (np.array([-1.0]),)])


# --- lists of Python and NumPy numbers: a flag per row (session 56) ------------------------

def sentinel_read_in_the_loop(x):
    st = [0.0]
    r = 0.0
    for i in range(len(x)):
        if x[i] > 0:
            st.append(x[i])
        r = 2.0 / st[-1]
    return r


def sentinel_popped_after_the_loop(x):
    st = [0.0]
    out = 0.0
    for i in range(len(x)):
        if x[i] > 0:
            st.append(x[i])
        elif len(st) > 1:
            out = out + st.pop()
    return 1.0 / st.pop() + out


def python_ints_written_beside_numpy_ones(x):
    st = [0, 1]
    for i in range(len(x)):
        if x[i] > 0:
            st.append(x[i])
        else:
            st[-1] += 1
    return 10 // st[-1], 10 // st[0]


def sentinel_read_by_a_later_loop(x):
    st = [0.0]
    for i in range(len(x)):
        if x[i] > 0:
            st.append(x[i])
    s = 0.0
    for k in range(len(st)):
        s = s + 1.0 / st[k]
    return s


def monotonic_stack_under_a_sentinel(x):
    st = [0]
    i = 0
    while i < len(x):
        while len(st) > 1 and st[-1] < x[i]:
            st.pop()
        st.append(x[i])
        i += 1
    return 100 // st[0] + 100 // st[-1]


@pytest.mark.parametrize("fn, calls", [
    (sentinel_read_in_the_loop, [(np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, 2.0]),)]),
    (sentinel_popped_after_the_loop, [(np.array([1.0, -2.0, 3.0]),), (np.array([2.0, -1.0]),),
                                      (np.array([-2.0, -1.0]),)]),
    (python_ints_written_beside_numpy_ones, [(np.array([1, -2, 3]),), (np.array([-1, 2]),)]),
    (sentinel_read_by_a_later_loop, [(np.array([1.0, -2.0]),), (np.array([-1.0, -2.0]),)]),
    (monotonic_stack_under_a_sentinel, [(np.array([3, 1, 2]),), (np.array([1, 2, 3]),)]),
])
def test_a_python_number_among_numpy_rows_keeps_pythons_arithmetic(fn, calls):
    """`st = [0.0]`, then `st.append(x[i])` in a staged loop: the list becomes a row buffer
    of one dtype, and its Python 0.0 came back a NumPy float64, so `1.0 / st[-1]` gave inf
    (or 1.0 / inf = 0 ...) where Python raises ZeroDivisionError (README listed it as a
    known difference; session 56's probe: four of these five differed on both backends).
    A flag per row says which rows are Python numbers (data.FlaggedRows), read with the
    item, carried through later branches and loops, and after the loop with the list."""
    raised = []
    with np.errstate(all="ignore"):
        agree(fn, calls=calls, exact=True, errors=raised)
    assert raised and {m.split(" (at ")[0] for _, _, m in raised} <= {
        "float division by zero", "integer division or modulo by zero"}, raised


def rows_after_an_array_of_trace_time(x):
    st = [np.zeros(2)]
    if x[0] > 0:
        st.append(x[0] * np.ones(2))
    for i in range(len(x)):
        if x[i] > 1:
            st.append(x[i] * np.arange(2.0))
    return np.array(st), len(st)


def test_a_list_whose_first_item_is_an_array_of_trace_time_takes_rows_in_a_branch():
    """`st = [np.zeros(2)]` then `st.append(...)` under a staged `if`: making the list a row
    buffer turns its NumPy array into the box it stands for, in the list too, which the
    branch's watch took for a change made in place and refused ("changes 'st[1]' in
    place", session 56's probe; `st = [x[:2] * 0]` was staged)."""
    x = np.array([1.0, -2.0, 3.0])
    agree(rows_after_an_array_of_trace_time, calls=[(x,), (-x,), (x * 2,)])


def pushed_and_popped_each_trip(tok):
    ops = []
    for t in tok:
        if t == 12:
            ops.append(t)
        else:
            ops.append(t + 1)
        ops.pop()
    return len(ops)


def shunting_yard_sums(tok):
    nums = []
    ops = []
    i = 0
    n = len(tok)
    while i < n:
        t = tok[i]
        if t < 10:
            v = 0
            while i < n and tok[i] < 10:
                v = v * 10 + int(tok[i])
                i += 1
            nums.append(v)
            continue
        if t == 12:                      # "(": a Python int among the int32 tokens
            ops.append(12)
        elif t == 13:                    # ")"
            while ops[-1] != 12:
                ops.pop()
                b = nums.pop()
                a = nums.pop()
                nums.append(a + b)
            ops.pop()
        else:
            ops.append(t)
        i += 1
    return nums[0]


def test_lists_of_a_parser_pushed_and_popped_in_staged_loops():
    """Session 56's probes: a trip that appends under a staged `if` and pops again left the
    list as it was, so the trial trip saw no row and refused ("does not append a tensor");
    and a shunting-yard parser (`ops` holds the Python int 12 among int32 tokens) hit
    this session's row flags read from a branch already traced."""
    tok = np.array([12, 1, 10, 2, 13], np.int32)
    agree(pushed_and_popped_each_trip, calls=[(tok,), (tok[::-1].copy(),)])
    agree(shunting_yard_sums, calls=[(tok,), (np.array([12, 3, 10, 4, 10, 5, 13], np.int32),)])


def sentinel_rows_written_reversed_summed(x, k):
    st = [1.0]
    for i in range(len(x)):
        if x[i] > 1:
            st.append(x[i] - 2.0)
    if k == 0:
        st[-1] = 0.0                     # (a Python 0.0 over a NumPy row)
        return 1.0 / st[-1]
    if k == 1:
        st[0] = 0.0
        st.reverse()                     # (each row's flag goes with it)
        return 1.0 / st[-1]
    if k == 2:
        st[0] = 0.0
        return 1.0 / sum(st)             # (Python's only where every item is)
    st[0] = 0.0
    return 1.0 / max(st)                 # (the first item that ties the maximum)


def written_in_a_branch(x):
    st = [1.0]
    for i in range(len(x)):
        if x[i] > 1:
            st.append(x[i])
    if x[0] < 5:
        st[-1] = 0.0
    return 1.0 / st[-1]


def test_row_flags_follow_item_writes_reverse_sum_and_max():
    """Session 56's second probe: writing a Python number over a NumPy row kept the NumPy
    flag, reverse() kept the flags in place, and sum()/max() ignored them (inf where
    Python raises ZeroDivisionError). A write inside a staged `if` of a list from before
    it, whose flags would then depend on the path, is refused."""
    for k in range(4):
        raised = []
        with np.errstate(all="ignore"):
            agree(lambda x: sentinel_rows_written_reversed_summed(x, k), errors=raised,
                  calls=[(np.array([0.0, 2.0]),), (np.array([0.0, 3.0, 2.0]),),
                         (np.array([0.0, 0.0]),), (np.array([0.0, 1.5]),)])
        assert {m.split(" (at ")[0] for _, _, m in raised} == {"float division by zero"}, k
    for backend in ("interpreter", "cpu"):
        with pytest.raises(NotImplementedError, match="written inside a staged `if` or loop"):
            ag.defun(written_in_a_branch, backend=backend)(np.array([0.0, 2.0]))


def bools_and_big_ints_among_numpy_rows(x, k):
    b = [True]
    n = [2 ** 62, 2 ** 62]
    f = [0.0]
    for v in x:
        if v > 0:
            b.append(v > 1)
            n.append(np.int64(v))
            f.append(v)
    if k == 0:
        return b[-1] + b[0]              # (NumPy's bool beside Python's: NumPy's `or`)
    if k == 1:
        return sum(n)                    # (Python's ints grow: OverflowError, not a wrap)
    return f == f, f[:1] + f[1:] == f    # (two staged lists: one bool, no recursion)


def test_bool_items_big_int_sums_and_list_equality_among_flagged_rows():
    """Session 56's third probe: a NumPy bool item plus a Python bool item was refused as
    "a Python int"; `sum` of Python ints past int64 wrapped; `==` of two staged lists
    recursed until RecursionError; `del st[-1]` named an internal class."""
    calls = [(np.array([3.0]),), (np.array([-3.0]),), (np.array([0.5]),)]
    agree(lambda x: bools_and_big_ints_among_numpy_rows(x, 2), calls=calls)
    raised = []
    agree(lambda x: bools_and_big_ints_among_numpy_rows(x, 0), calls=calls[:1] + calls[2:])
    agree(lambda x: bools_and_big_ints_among_numpy_rows(x, 1), calls=calls[:1] + calls[2:],
          errors=raised)  # (Python's own OverflowError: a NumPy item meets the big int)
    assert len(raised) == 4, raised
    for backend in ("interpreter", "cpu"):
        with pytest.raises(OverflowError, match=r"Python int \+ overflowed int64"):
            ag.defun(lambda x: bools_and_big_ints_among_numpy_rows(x, 1),
                     backend=backend)(np.array([-3.0]))

        def deleted(x):
            st = [0.0]
            for v in x:
                if v > 0:
                    st.append(v)
            del st[-1]
            return len(st)
        with pytest.raises(NotImplementedError, match="`del` of an item at .* has no staged"):
            ag.defun(deleted, backend=backend)(np.array([3.0]))


def pops_the_front(x):
    q = []
    for v in x:
        if v > 0:
            q.append(v)
    v = q.pop(0)
    return v, len(q), q[-1] if q else -1.0


def bfs_distances(adj, s):
    n = adj.shape[0]
    dist = np.full(n, -1)
    dist[s] = 0
    q = [s]
    while q:
        u = q.pop(0)
        for v in range(n):
            if adj[u, v] and dist[v] < 0:
                dist[v] = dist[u] + 1
                q.append(v)
    return dist


def pops_at(x, k):
    q = []
    for v in x:
        if v > 0:
            q.append(v * 2)
    first = q.pop(k)
    second = q.pop(-2)
    return first, second, len(q), q[0], q[-1]


def pops_rows_from_the_front(x):
    q = []
    for i in range(x.shape[0]):
        q.append(x[i] * 2.0)
    total = np.zeros(x.shape[1])
    while len(q) > 1:
        a = q.pop(0)
        total = total + a
    return total, q[0]


def queue_of_python_and_numpy_numbers(x):
    q = [0.0, 1.0]
    for v in x:
        if v > 0:
            q.append(v)
    head = q.pop(0)
    second = q.pop(0)
    total = 0.0
    for t in q:
        total += 1.0 / t
    return head + 1, second, total


def pops_and_the_flags_move_with_the_rows(x, k):
    q = [x[0] * 0.0 + 1.0, 0.0]
    for v in x:
        if v > 0:
            q.append(v)
    q.pop(k)
    return 1.0 / q[0], len(q)


def pops_an_array_index_after_the_loop(x):
    q = []
    for v in x:
        q.append(v + 1)
    out = []
    i = 0
    while q:
        v = q.pop(i % len(q))
        out.append(v)
        i += x.shape[0]
    return out[0], out[-1], len(out), sum(out)


def test_pop_of_any_index_moves_the_later_rows_down():
    """`q.pop(0)` of a list a staged loop or branch carries (a BFS queue), `pop(k)` of an
    index known while tracing or at run time, negative from the end, rows of arrays, a
    list of Python and NumPy numbers (each row keeps its flag): Python's list, the rows
    after k moving down one (refused before session 57); Python's IndexError where the
    list is empty or k out of range, on the runs that pop it."""
    errors = []
    agree(pops_the_front, calls=[(np.array([1.0, -2.0, 3.0, 4.0]),),
                                 (np.array([5.0, 6.0]),), (np.array([-1.0]),)], errors=errors)
    assert errors and all("pop from empty list" in e[2] for e in errors)
    adj = np.random.default_rng(0).random((6, 6)) > 0.6
    agree(bfs_distances, calls=[(adj, 0), (adj, 3), (adj.T.copy(), 5)])
    errors = []
    x = np.array([1.0, 2.0, -3.0, 4.0, 5.0])
    agree(pops_at, calls=[(x, 0), (x, 2), (x, -1), (x, 3), (x, 7), (x, -5), (x[:1], 0)],
          errors=errors)
    assert any("pop index out of range" in e[2] for e in errors)
    assert all("pop index out of range" in e[2] or "pop from empty list" in e[2]
               for e in errors)
    agree(pops_rows_from_the_front, calls=[(np.arange(6.0).reshape(3, 2),),
                                           (np.ones((1, 3)),)])
    agree(queue_of_python_and_numpy_numbers, calls=[(np.array([-1.0, 2.0]),),
                                                    (np.array([3.0]),), (np.array([-1.0]),)])
    errors = []
    agree(pops_and_the_flags_move_with_the_rows, calls=[
        (np.array([2.0, -1.0]), 1), (np.array([2.0, -1.0]), 0), (np.array([3.0, 4.0]), 2)],
        errors=errors)
    assert len(errors) == 2 and all(e[2].startswith("float division by zero") for e in errors)
    agree(pops_an_array_index_after_the_loop, calls=[(np.array([1, 2, 3, 4]),),
                                                     (np.array([7, 8, 9]),)])


def reads_the_filled_list(x, k):
    q = []
    for v in x:
        if v > 0:
            q.append(v)
    return q[k]


def test_an_item_out_of_range_of_a_filled_list_is_pythons_index_error():
    """`q[k]` after the staged loop that filled `q`, out of its range on some runs: Python's
    "list index out of range" (NumPy's text, naming an axis and a size, before session
    57's probe)."""
    errors = []
    x = np.array([1.0, -2.0, 3.0])
    agree(reads_the_filled_list, calls=[(x, 1), (x, -3), (x, 2), (x, -1), (-x, 0), (-x, 1)],
          errors=errors)
    assert len(errors) == 6 and all(e[2].startswith("list index out of range")
                                    for e in errors)


def float32_after_a_python_float(x):
    q = [0.5]
    for v in x:
        q.append(v)
    return q[-1] * 3


def float32_after_a_python_int(x):
    q = [0]
    for v in x:
        if v > 0:
            q.append(v)
    return q[-1] * 3


@pytest.mark.parametrize("fn,arg,dt", [
    (float32_after_a_python_float, np.array([0.1], np.float32), "float32"),
    (float32_after_a_python_int, np.array([0.3, -1.0], np.float32), "float32")])
def test_a_list_of_python_numbers_and_narrower_numpy_floats_is_refused(fn, arg, dt):
    """Its rows are np.array's dtype of all items (float64 beside a Python number), so a
    float32 item read back was multiplied in float64, where Python's product is float32's
    (probe G, session 57): refused, naming the dtype and the way out (int items are exact
    in int64 rows: the README's known difference)."""
    for backend in ("interpreter", "cpu"):
        with pytest.raises(NotImplementedError, match=f"holds Python numbers and NumPy {dt} "
                                                      f"numbers: .* np.{dt}"):
            ag.defun(fn, backend=backend)(arg)


def mean_of_the_kept(x):
    kept = [v for v in x if v > 0]
    return sum(kept) / len(kept)


def mean_of(x):
    return sum(x) / len(x)


def test_sum_of_a_list_or_array_empty_on_a_run_is_pythons_int_zero():
    """Python's `sum` of no item is its start, the int 0, so `sum(d) / len(d)` raises
    ZeroDivisionError where the float64 0.0 gave nan (probe H, session 57): the sum is a
    Python number on the runs where the list (or an array of a size known only then) is
    empty."""
    errors = []
    agree(mean_of_the_kept, calls=[(np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, -2.0]),),
                                   (np.array([4.0]),)], errors=errors)
    assert len(errors) == 2 and all("division by zero" in e[2] for e in errors)
    errors = []
    agree(mean_of, calls=[(np.array([1.0, 2.0, 4.0]),), (np.array([3.0, 5.0]),),
                          (np.zeros(0),), (np.array([1.5]),)], errors=errors)
    assert len(errors) == 2 and all("division by zero" in e[2] for e in errors)
