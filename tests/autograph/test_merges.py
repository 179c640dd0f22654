"""SPEC 3: an array a staged branch or loop may have taken from another name (mutation.py,
"merges"; autograph_lite/region_aliases.py).

After ``v = a if c else a * 2`` with a tensor ``c``, NumPy's ``v`` *is* ``a`` on the runs
where ``c`` holds: a write through either name is seen through the other on those runs
only. Each case runs both ways (calls that take each path), on plain Python, the
interpreter and cpu, comparing results and every argument afterwards. Before merges
carried their flags, the reads were silent wrong answers (``written_source_*``,
``two_results_*``, ``loop_*_read_after``) and the writes were refused.
"""

import numpy as np
import pytest

import autograph_lite as ag

from differential import agree

I64, F64 = np.int64, np.float64


def _calls(*preds):
    return [(np.arange(4.0), I64(p)) for p in preds]


def written_source_read_through_merge(a, c):
    if c > 0:
        v = a
    else:
        v = a * 2.0
    a[0] = 9.0              # NumPy: v sees it when c > 0
    return v + 0.0


def write_through_merge_reaches_argument(a, c):
    if c > 0:
        v = a
    else:
        v = a * 2.0
    v[1] = 5.0              # NumPy: writes the caller's a when c > 0
    return v + 0.0


def write_through_merged_view(a, c):
    if c > 0:
        v = a[1:]
    else:
        v = a[:3] * 2.0
    v[0] = 5.0
    v += 1.0
    return v + 0.0


def two_results_share_a_new_array(a, c):
    if c > 0:
        w = a * 2.0
        v = w               # v and w: one buffer on these runs
    else:
        w = a * 3.0
        v = a
    w[0] = 7.0
    v[2] = -1.0
    return v + 0.0, w + 0.0


def nested_merges(a, c):
    b = a * 1.0
    if c > 0:
        v = a
    else:
        v = b
    if c > 1:
        u = v               # u: a, b or a new array, through two merges
    else:
        u = v * 0.5
    u[3] = 4.0
    return a + 0.0, b, v + 0.0, u + 0.0


def loop_result_read_after(a, n):
    v = a
    for i in range(n):
        v = v * 2.0
    a[0] = 9.0              # NumPy: v sees it when the loop ran zero times
    return v + 0.0


def loop_variable_written_then_rebound(a, n):
    v = a
    for i in range(n):
        v[0] += 1.0         # the first trip writes the caller's a, later ones new arrays
        v = v * 2.0
    v[1] = -1.0
    return v + 0.0


def loop_variables_share(a, n):
    r1 = a * 1.0
    r2 = a * 2.0
    for i in range(n):
        r1[0] += 1.0        # from the second trip on, r2 sees it: r1 is r2
        t = r2 * 1.0
        r1 = t
        r2 = t
    return r1 + r2


def return_inside_loop_with_writes(a, n):
    r = a * 1.0
    k = 0
    while k < 3:
        k += 1
        r[k] -= 1.0
        if r[0] > n:
            return r        # the return value and r are one buffer on this path
        r -= 0.5
    return r * 2.0


def updated_buffer_still_read(a, n):
    v = a * 1.0
    w = a * 0.0
    for i in range(n):
        v[0] += 1.0         # in place: the buffer now holds w's value too ...
        w = v
        v = v * 2.0         # ... so v * 2 needs a new one (cpu wrote it into w's)
    return w, v


CASES = [
    (updated_buffer_still_read, _calls(0, 2)),
    (written_source_read_through_merge, _calls(1, -1)),
    (write_through_merge_reaches_argument, _calls(1, -1)),
    (write_through_merged_view, _calls(1, -1)),
    (two_results_share_a_new_array, _calls(1, -1)),
    (nested_merges, _calls(2, 1, 0)),
    (loop_result_read_after, _calls(0, 2)),
    (loop_variable_written_then_rebound, _calls(0, 1, 3)),
    (loop_variables_share, _calls(0, 1, 3)),
    (return_inside_loop_with_writes, _calls(-5, 100)),
]


@pytest.mark.parametrize("fn,calls", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_merged_arrays_follow_numpy(fn, calls):
    agree(fn, calls=calls, exact=True)


def view_at_index_made_in_branch(a, c):
    if c > 0:
        k = c % 3
        v = a[k:]           # a view at an index the branch computed
    else:
        v = a * 2.0
    v[0] = 1.0
    return v


def test_write_through_a_view_at_an_index_made_in_a_branch_is_refused():
    # which elements of `a` the write reaches is a run-time value of the branch: refused
    # with the SPEC's error rather than answered wrong
    raised = []
    agree(view_at_index_made_in_branch, calls=_calls(1, -1), errors=raised,
          oracle=_refuses)
    assert raised and all("view" in msg and "'v'" in msg for _, _, msg in raised)


def _refuses(a, c):
    raise NotImplementedError("the oracle: this program is refused")


def stale_view_read_in_branch(a, c):
    y = a * 1.0
    z = y[1:]
    y[1] = 5.0
    if c > 0:
        s = z.sum()         # z is replayed inside the branch ...
    else:
        s = z.sum() * 2.0
    return z + s            # ... and again after it (was: the branch's value, an error)


def test_view_replayed_inside_a_branch_is_replayed_again_after_it():
    agree(stale_view_read_in_branch, calls=_calls(1, -1), exact=True)


def merge_read_in_a_loop_condition(a, n):
    r = a
    if n > 1:
        r = a * 2.0         # r: the older array or a new one
    a[3] = 10.0             # (so reading r selects between them)
    w = 0
    k = 1
    while w < 4 and r[3] < 9.0 + k:  # w, k: Python numbers, so the condition is probed
        w += 1                       # first (and found symbolic), then staged
        k = (k * 3) % 7
    return r, w, k


def test_a_merge_read_while_probing_a_loop_condition_is_read_again_when_staged():
    # the probe's nodes are dropped; the value it cached for r must not be used after
    # (was: a read of a value nothing computes, KeyError / "used before it was emitted")
    agree(merge_read_in_a_loop_condition, calls=_calls(0, 2), exact=True)


# A buffer a result reaches two ways, one option with both ways' runs (was: the second way's
# runs dropped, so `v[2] = -1` after this loop silently missed the caller's `a`).
def loop_of_branches_hands_back_an_older_array(a, n):
    v = a * 0.0
    i = 0
    while i < n:
        if 1.5 > i:         # v is a from the first trip on, by the branch, then by itself
            v = a
        i += 1
    v[2] = -1.0
    return v + 0.0


# A NumPy array of trace time from before a staged branch or loop, handed on as a result,
# is that array's buffer (was: a constant copy, so later writes into one name were missed
# through the other).
def trace_time_array_through_a_conditional_expression(a, c):
    t0 = np.arange(4.0)
    v = t0 if c > 0 else t0 * 2.0
    t0[0] = a[1]
    return v + 0.0


def trace_time_array_through_a_branch_then_written(a, c):
    t0 = np.arange(4.0)
    if c > 0:
        v = t0
    else:
        v = t0 * 2.0
    v[1] = a[2]
    return t0 + 0.0, v + 0.0


def trace_time_array_through_a_loop(a, n):
    t0 = np.arange(4.0)
    v = a * 1.0
    i = 0
    while i < n:
        v = t0
        i += 1
    t0[0] = a[3] * 3.0
    return v + 0.0


def trace_time_array_through_a_loop_of_branches(a, n):
    t0 = np.arange(4.0)
    i = 0
    v = t0 * 0.0
    while i < n:
        if a[1] > i:
            v = t0
        i += 1
    v[2] = -1.0
    return t0 + 0.0, v + 0.0


# A 0-d NumPy-array argument is an array: `a *= 2` writes the caller's, also in a staged
# loop and through a merge (was: a new value, the caller's array unchanged).
def zero_d_argument_updated_in_loop(s, n):
    i = 0
    while i < n:
        s *= 2.0
        i += 1
    return n


def zero_d_argument_updated_then_rebound_in_loop(s, n):
    i = 0
    while i < n:
        s *= 2.0            # the first trip writes the caller's s, later ones a new array
        s = s + 1.0
        i += 1
    return s


def zero_d_argument_through_a_merge(s, n):
    v = s if n > 0 else s * 3.0
    v += 1.0
    return v + 0.0


@pytest.mark.parametrize("fn, calls", [
    (loop_of_branches_hands_back_an_older_array, _calls(3, 0, 1)),
    (trace_time_array_through_a_conditional_expression, _calls(1, -1)),
    (trace_time_array_through_a_branch_then_written, _calls(1, -1)),
    (trace_time_array_through_a_loop, _calls(2, 0)),
    (trace_time_array_through_a_loop_of_branches, _calls(3, 0, 1)),
    (zero_d_argument_updated_in_loop, [(np.array(3.0), I64(3)), (np.array(1.5), I64(0))]),
    (zero_d_argument_updated_then_rebound_in_loop,
     [(np.array(3.0), I64(3)), (np.array(1.5), I64(0))]),
    (zero_d_argument_through_a_merge, [(np.array(3.0), I64(2)), (np.array(1.5), I64(0))]),
])
def test_buffers_reached_several_ways_follow_numpy(fn, calls):
    agree(fn, calls=calls, exact=True)


TABLE = np.arange(4.0)


def _calls_cx(*preds):
    return [(I64(p), F64(5.0)) for p in preds]


def _refuses_with_type_error(*args):
    raise TypeError("the oracle: this program is refused")


def captured_array_through_a_branch_read(c, x):
    v = TABLE if c > 0 else TABLE * 2.0
    return v * x


def captured_array_through_a_branch_written(c, x):
    v = TABLE if c > 0 else TABLE * 2.0
    v[0] = x                # NumPy writes the global on some runs: refused, naming it
    return v + 0.0


def test_a_captured_array_through_a_branch_is_read_and_refuses_writes():
    agree(captured_array_through_a_branch_read, calls=_calls_cx(1, -1), exact=True)
    raised = []
    agree(captured_array_through_a_branch_written, calls=_calls_cx(1, -1), exact=True,
          errors=raised, oracle=_refuses_with_type_error)
    assert raised and all("'TABLE'" in m and "captured" in m for _, _, m in raised)
    assert TABLE.tolist() == [0.0, 1.0, 2.0, 3.0]


# A name a conditional expression may have taken from a NumPy array of trace time, written:
# the array's other name is rebound after the write (shared_names follows both sides of
# `z = a if c else b`), so NumPy operators on it see the write on the runs that made it
# (random program 20222; was: the stale value of trace time).
def trace_time_array_written_through_a_conditional_expression(a, c):
    t0 = np.arange(4) * 0.25
    z = a * 0.5 if c > 0 else t0
    z += 1.0
    return np.sqrt(np.abs(t0)) + 0.0


def trace_time_array_written_through_a_conditional_expression_in_a_loop(a, c):
    t0 = np.arange(4) * 0.25
    for i in range(c + 2):
        z = a * 0.5 if c > 0 else t0
        z += 1.0
    return np.sqrt(np.abs(t0)) + 0.0


@pytest.mark.parametrize("fn", [trace_time_array_written_through_a_conditional_expression,
                                trace_time_array_written_through_a_conditional_expression_in_a_loop])
def test_writes_through_a_conditional_expression_reach_the_other_name(fn):
    agree(fn, calls=_calls(1, -1), exact=True)


# Random program 20124, minimized: the if arm leaves the return value unset, so the else
# arm was traced a second time only to name a one-sided variable, in the if arm's region:
# its `r0[i] += 1.0` stayed there and ran on the runs taking the if arm. That look-ahead is
# a scratch trace now (conditionals._name_one_sided).
def unreachable_return_after_breaks(a, c):
    r0 = a * 1.0
    for i in range(4):
        if c > i + 2:
            if c > 5:
                break
            else:
                break
            return c * 2, c         # unreachable in Python; traced under the break flags
        else:
            r0[i] += 1.0
    return r0, c


def test_unreachable_return_does_not_leak_the_other_branchs_write():
    agree(unreachable_return_after_breaks, calls=_calls(4, 1), exact=True)


# --- `is` of a merge (autograph/runtime/identities.py, session 53) ---------------------------

def which_one_after_an_if(a, b, x):
    src = a
    if x[0] > 0:
        src = b
    made = a * 2.0 if x[0] > 1 else a
    src[0] = 7.0
    return src is a, src is b, src is not a, made is a, made is b


def which_array_of_trace_time(x):
    a = np.zeros(2)
    b = np.ones(2)
    src = b if x[0] > 0 else a
    src[0] = 3.0
    return src is a, src is b, a, b


def toggles_between_two_buffers(x):
    a = np.zeros(2)
    b = np.ones(2)
    cur = a
    for v in x:
        if v > 0:
            cur = b if cur is a else a
        cur[1] += 1.0
    cur[0] = 5.0
    return a, b, cur is a


def ping_pong(u, n):
    a = u.copy()
    src, dst = u, a
    for _ in range(n):
        dst[1:-1] = 0.5 * (src[:-2] + src[2:])
        src, dst = dst, src
    if src is not u:
        u[:] = src
    return u, src is a, dst is u


@pytest.mark.parametrize("fn, calls", [
    (which_one_after_an_if, [(np.ones(2), np.zeros(2), np.array([p])) for p in
                             (1.0, -1.0, 2.0)]),
    (which_array_of_trace_time, [(np.array([p]),) for p in (1.0, -1.0)]),
    (toggles_between_two_buffers, [(np.array(v),) for v in
                                   ([1.0, 1.0, -1.0], [1.0, -1.0], [-1.0], [])]),
    (ping_pong, [(np.array([0.0, 5.0, 1.0, 9.0, 2.0]), I64(n)) for n in (3, 2, 0)]),
], ids=["after_an_if", "arrays_of_trace_time", "toggle_in_a_loop", "ping_pong"])
def test_is_of_a_merge_is_which_object_the_run_took(fn, calls):
    """`x is y` where a staged branch or loop chose which array `x` is: the condition that
    chose `y` (before session 53 it was always False: the merge is a new box, so the
    toggle always picked `b` and wrote into the wrong buffer, and the ping-pong copy ran
    on every run)."""
    agree(fn, calls=calls, exact=True)


def swaps_in_a_branch(a, b, x):
    src, dst = a, b
    if x[0] > 0:
        src, dst = b, a
    return src is dst, src is b, dst is a


def test_is_of_two_merges_of_earlier_arrays_only_is_exact():
    """Two variables one staged `if` swapped: neither can be an array made in a branch,
    so `src is dst` is staged (False), not refused."""
    agree(swaps_in_a_branch, calls=[(np.ones(2), np.zeros(2), np.array([p]))
                                    for p in (1.0, -1.0)], exact=True)


def compares_two_loop_variables(u, n):
    a = np.zeros_like(u)
    src, dst = u, a
    for _ in range(n):
        src, dst = dst, src
    return src is dst


def test_is_of_two_arrays_a_loop_made_is_refused_where_not_followed():
    import autograph_lite as ag
    with pytest.raises(NotImplementedError, match="`is` between arrays"):
        ag.defun(compares_two_loop_variables)(np.ones(2), I64(2))


# --- a merge of arrays of two dtypes (session 55's probe) --------------------------------
# `v = a if c else b` of a float64 `a` and an int32 `b` is a float64 merge; a write through
# `v` reaches `b` cast, and a read back must be `b`'s cast value on the runs where `v` is
# `b` (it read the uncast float64 value: 1.7 where NumPy gives 1.0, uint8 wrap-around and
# float32 rounding lost), and an in-place ufunc NumPy cannot cast into `b` raises there.
def written_then_read_through_a_mixed_merge(x, a, b):
    v = a if x[0] > 0 else b
    v[0] = x[1] * 1.7
    v[1] += 200
    v[1] += 200
    for i in range(x.shape[0]):
        a[0] = a[0] + v[0]
    return float(v[0]), float(v[1]), a, b   # (the merge dtype is documented: the values)


def cast_into_a_mixed_merge(x, a, b):
    v = a if x[0] > 0 else b
    v += 0.5
    return a, b


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32])
def test_a_merge_of_two_dtypes_reads_back_each_arrays_own_values(dtype):
    for x in (np.array([1.0, 1.0]), np.array([-1.0, 1.0])):
        agree(written_then_read_through_a_mixed_merge,
              calls=[(x, np.zeros(2), np.zeros(2, dtype)), (-x, np.ones(2), np.ones(2, dtype))])


def test_an_in_place_ufunc_into_a_mixed_merge_checks_each_arrays_cast():
    raised = []
    agree(cast_into_a_mixed_merge, calls=[(np.array([1.0]), np.zeros(2), np.zeros(2, np.int32)),
                                          (np.array([-1.0]), np.zeros(2), np.zeros(2, np.int32))],
          errors=raised)
    assert [m.split(" (at ")[0] for _, _, m in raised] == [
        "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with casting "
        "rule 'same_kind'"] * 2


def add_an_int_into_a_mixed_merge(x, a, b):
    v = a if x[0] > 0 else b
    v += 3                              # (uint8 + a Python int: uint8 in NumPy, no error)
    return a, b


def test_an_in_place_ufunc_into_a_mixed_merge_is_computed_in_each_arrays_dtype():
    # (session 55's second probe: the cast check took the merge's float64 result and
    # raised where NumPy, adding in uint8, does not)
    for b in (np.array([250, 3, 7], np.uint8), np.array([1, 2, 3], np.int32)):
        agree(add_an_int_into_a_mixed_merge,
              calls=[(np.array([1.0]), np.array([1.7, 2.5, -3.2]), b),
                     (np.array([-1.0]), np.array([1.7, 2.5, -3.2]), b)])


def python_ints_through_a_mixed_merge(a, b, c):
    v = a if c > 0 else b
    v[0] = 300                          # (an int32 holds it, a uint8 does not)
    v -= 300
    return a, b


def same_dict_chosen_by_a_conditional_expression(x):
    d = {"v": 1.0}
    e = {"v": 2.0}
    r = d if x[0] > 0 else d           # (that dict on every run)
    s = (e, 1) if x[0] > 0 else (e, 2)
    r["v"] = 5.0
    s[0]["v"] = x[0]
    return d["v"], e["v"], r is d


def test_python_ints_written_through_a_mixed_merge_raise_numpys_overflow_there():
    # (session 55's second probe: they wrapped in the array that could not hold them)
    raised = []
    for c in (1.0, -1.0):
        agree(python_ints_through_a_mixed_merge,
              calls=[(np.array([1, 2], np.int32), np.array([250, 3], np.uint8), c)] * 2,
              errors=raised)
    assert {m.split("(at ")[0].strip() for _, _, m in raised} == {
        "Python integer 300 out of bounds for uint8"}


def test_a_conditional_expression_of_one_dict_is_that_dict():
    # (session 55's second probe: a new dict, so the writes were lost)
    agree(same_dict_chosen_by_a_conditional_expression,
          calls=[(np.array([1.0]),), (np.array([-1.0]),)])


def fresh_dicts_chosen_by_a_conditional_expression(x):
    r = {"v": x[0]} if x[0] > 0 else {"v": 0.0}   # (no other name holds either)
    r["w"] = 1.0
    return r["v"] + r["w"]


def a_named_dict_chosen_by_a_conditional_expression(x):
    d = {"v": 1.0}
    r = d if x[0] > 0 else {"v": 0.0}
    r["v"] = 5.0
    return d["v"]


def test_a_conditional_expression_of_two_fresh_dicts_is_merged_and_of_a_named_one_refused():
    # (session 55: both were refused; the `if` statement of the fresh ones compiled)
    agree(fresh_dicts_chosen_by_a_conditional_expression,
          calls=[(np.array([1.0]),), (np.array([-1.0]),)])
    with pytest.raises(NotImplementedError, match="chooses between two dicts by a tensor"):
        ag.defun(a_named_dict_chosen_by_a_conditional_expression,
                 backend="interpreter")(np.array([1.0]))
