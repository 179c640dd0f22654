"""Variables that are None on some runs and a value on others (runtime/unset.py MaybeNone):
`idx = None`, then set under a tensor condition in a staged `if` or loop, the most common
refusal the probes met (sessions 47-49). Each function runs as plain Python (the oracle)
and through ag.defun on the interpreter and cpu backends, over calls that take both paths:
results (None where Python gives None), exceptions (Python's TypeError where None meets
an operator), and arguments after each call must agree (tests/differential.py)."""
import numpy as np
import pytest

import autograph_lite as ag
from differential import agree

NEG = (np.array([1.0, -2.0, 3.0, -4.0]),)
POS = (np.array([1.0, 2.0, 3.0]),)
FIRST = (np.array([-1.0, 7.0, 3.0]),)


def first_above(x, t):
    idx = None
    i = 0
    while i < x.shape[0]:
        if x[i] > t:
            idx = i
            break
        i += 1
    return idx


def test_index_found_or_none_is_returned_as_python_gives_it():
    agree(first_above, calls=[(np.array([1.0, 5.0, 3.0]), 2.0), (np.array([1.0, 2.0]), 4.0),
                              (np.array([9.0]), 0.0)])


def largest(x):
    best = None
    i = 0
    while i < x.shape[0]:
        if best is None or x[i] > best:  # (`or` of a staged `is None`: lazy, as Python's)
            best = x[i]
        i += 1
    return best


def test_running_best_starting_from_none():
    agree(largest, calls=[NEG, POS, (np.zeros(0),)])


def last_negative(x):
    """The last negative's index, or None (a helper's MaybeNone, handed to its caller)."""
    idx = None
    for i in range(x.shape[0]):
        if x[i] < 0:
            idx = i
    return idx


def checked_then_used(x):
    idx = None
    for i in range(x.shape[0]):
        if x[i] < 0:
            idx = i
    if idx is None:
        return 0.0
    return x[idx] * 2 + (idx == 1) - (idx != 3)


def test_used_after_an_is_none_test_returns_early():
    agree(checked_then_used, calls=[NEG, POS, FIRST])


def comparisons(x):
    idx = last_negative(x)
    return idx == 1, idx != 1, idx is None, idx is not None, None == idx


def test_equality_and_identity_with_none_are_pythons():
    agree(comparisons, calls=[NEG, POS, FIRST])


def arithmetic(x):
    idx = last_negative(x)
    idx += 1
    return idx * 2, int(idx), idx < 3


def test_arithmetic_on_none_raises_pythons_type_error_on_those_runs():
    errors = []
    agree(arithmetic, calls=[NEG, POS, FIRST], errors=errors)
    assert errors and all("'NoneType'" in message for _, _, message in errors)


def last_negative_and_count(x):
    idx = None
    count = 0
    for i in range(x.shape[0]):
        if x[i] < 0:
            idx = i
            count += 1
        elif x[i] > 2.5:
            idx = None  # (set back to None: a MaybeNone before this `if`)
    return idx, count


def test_reset_to_none_and_returned_in_a_tuple():
    agree(last_negative_and_count, calls=[NEG, POS, FIRST])


def _or_default(v, d):
    if v is None:
        return d
    return v * 10


def through_a_helper(x):
    idx = last_negative(x)
    return _or_default(idx, -5)


def test_given_to_the_users_helper_which_tests_it():
    agree(through_a_helper, calls=[NEG, POS])


def best_row(m, t):
    best = None
    for r in range(m.shape[0]):
        if m[r].sum() > t:
            best = m[r] * 2
    return best


def test_an_array_that_may_be_none():
    m = np.arange(6.0).reshape(3, 2)
    agree(best_row, calls=[(m, 4.0), (m, 40.0)])


def first_negative_position(m):
    pos = None
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] < 0 and pos is None:
                pos = i * 10 + j
    return pos


def test_nested_loops():
    agree(first_negative_position, calls=[(np.array([[1.0, -2.0], [-3.0, 4.0]]),),
                                          (np.ones((2, 2)),)])


def value_then_none(x):
    best = x[0]
    for i in range(x.shape[0]):
        if x[i] < 0:
            best = None
    return best


def test_a_value_set_to_none_by_a_branch():
    agree(value_then_none, calls=[NEG, POS])


def above_until(x, t):
    lo = None
    i = 0
    s = 0.0
    while s < t:
        s += x[i % x.shape[0]]
        if s > 2:
            lo = s
        i += 1
    return lo, i


def test_set_in_a_while_loop_whose_test_is_a_tensor():
    agree(above_until, calls=[(np.array([1.0, 0.5]), 3.0), (np.array([0.1, 0.2]), 0.25)])


def printed(x):
    idx = last_negative(x)
    print(idx)


def truth(x):
    idx = last_negative(x)
    return 1 if idx else 0


def indexed(x):
    idx = last_negative(x)
    return x[idx]


@pytest.mark.parametrize("fn, what", [(printed, "passing it to print"),
                                      (truth, "its truth")])
def test_uses_that_treat_none_apart_are_refused_naming_the_variable(fn, what):
    with pytest.raises(NotImplementedError, match=f"'idx' is None on some runs.*{what}"):
        ag.defun(fn)(*NEG)


def test_an_index_that_is_none_at_run_time_is_refused_not_a_new_axis():
    f = ag.defun(indexed)
    assert float(f(*NEG)) == -4.0
    with pytest.raises(NotImplementedError, match="'idx' is None here.*np.newaxis"):
        f(*POS)  # (NumPy: x[None], a new axis)


def array_uses(m):
    b = None
    for r in range(m.shape[0]):
        if m[r, 0] > 1:
            b = m[r]
    return b[0] + len(b) - abs(-b[1]), -b, b.sum()


def test_an_array_that_may_be_none_raises_pythons_errors_where_it_is():
    m = np.arange(6.0).reshape(3, 2)
    errors = []
    agree(array_uses, calls=[(m,), (-m,)], errors=errors)
    assert errors and all("'NoneType'" in message for _, _, message in errors)


def smallest_with_ties(x):
    best = None
    i = 0
    while i < x.shape[0]:
        cand = (x[i], -i)
        if best is None or cand < best:  # (tuples ordered as Python orders them)
            best = cand
        i += 1
    if best is None:
        return -1.0, 0
    d, j = best
    return d, -j


def last_negative_cell(m):
    pos = None
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] < 0:
                pos = (i, j)
    return pos, (pos[0] if pos is not None else -1)


def test_a_tuple_that_may_be_none():
    agree(smallest_with_ties, calls=[NEG, POS, (np.array([2.0, 1.0, 1.0]),), (np.zeros(0),)])
    agree(last_negative_cell, calls=[(np.array([[1.0, -2.0], [3.0, 4.0]]),),
                                     (np.ones((2, 3)),)])


def safe_ratio(a, b):
    if b == 0:
        return None
    return a / b


def found_or_none(x, t):
    i = 0
    while i < x.shape[0]:
        if x[i] < 0:
            return None  # (a None returned, then a value, both in one staged loop)
        if x[i] > t:
            return i
        i += 1
    return -1


def test_a_function_returning_none_on_some_runs():
    agree(safe_ratio, calls=[(np.float64(1.0), np.float64(0.0)),
                             (np.float64(3.0), np.float64(2.0))])
    agree(found_or_none, calls=[(np.array([1.0, -2.0, 3.0]), 2.0),
                                (np.array([1.0, 2.0, 5.0]), 4.0), (np.array([1.0, 2.0]), 4.0)])


def none_or_total(x):
    s = x.sum()
    r = None if s > 0 else s
    return r, (-1.0 if r is None else r * 2)


def first_negative_or_falls_off(x):
    i = 0
    while i < x.shape[0]:
        if x[i] < 0:
            return x[i]
        i += 1
    # (falls off its end: None)


def test_a_conditional_expression_and_falling_off_the_end_give_none():
    agree(none_or_total, calls=[NEG, POS, FIRST])
    agree(first_negative_or_falls_off, calls=[NEG, POS, (np.zeros(0),)])


def total_or_none(x):
    s = x.sum()
    if s > 0:
        r = s * 2
    else:
        r = None  # (None in the second branch traced: the `if` is staged again, flagged)
    return r


def test_none_given_by_the_second_branch_only():
    agree(total_or_none, calls=[NEG, POS, FIRST])


def marked_where_found(x):
    idx = last_negative(x)
    out = np.zeros_like(x)
    if idx is not None:  # (idx is its value in this branch: NumPy calls, stores, text)
        out[idx] = np.sqrt(idx + 1.0)
        print("found", idx, f"{idx}")
    return out, (idx if idx is not None else -1), x[:idx].sum()


def test_narrowed_by_is_not_none_and_slices_bounded_by_it():
    agree(marked_where_found, calls=[NEG, POS, FIRST])


def scaled_in_place(out, x):
    s = x.sum()
    scale = None
    if s > 2:
        scale = s
    if scale is not None:
        out += scale  # (into the caller's 0-d array)
    best = None
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            best = x[i:].copy()
    if best is not None:
        best[0] = 100.0
    return best


def test_writes_through_and_with_a_value_that_may_be_none():
    agree(scaled_in_place, calls=[(np.array(1.0), np.ones(3)), (np.array(1.0), np.zeros(3)),
                                  (np.array(2.0), np.ones(4))])


def none_first(x):
    if x.sum() > 2:
        r = None  # (unset before the `if`: None or the value after it, not unset)
    else:
        r = x[0]
    return r


def walk(nxt, start):
    cur = start
    steps = 0
    while cur is not None:
        if steps > nxt[cur] + 100:
            return steps
        steps += 1
        if nxt[cur] < 0:
            cur = None
        else:
            cur = nxt[cur]
    return -1


def dropped(x):
    cur = x[0]
    i = 1
    while i < x.shape[0]:
        if x[i] < 0:
            cur = None  # (a value before the loop, None after some trips)
        elif cur is None:
            cur = x[i]
        i += 1
    return cur


def repeats(x):
    prev, count = None, 0
    for v in x:
        if v == prev:  # (a tensor against None: False, as NumPy's)
            count += 1
        prev = v
    return count, x[0] == None, x != None  # noqa: E711


def test_none_set_first_late_or_compared():
    agree(none_first, calls=[NEG, POS, (-POS[0],)])
    agree(walk, calls=[(np.array([1, 2, -1]), np.int64(0)), (np.array([-1]), np.int64(0))])
    agree(dropped, calls=[NEG, POS, FIRST])
    agree(repeats, calls=[(np.array([1.0, 1.0, 2.0]),), (np.array([3.0, 2.0]),)])


class Holder:
    def __init__(self):
        self.v = None


def kept_on_an_object(h, x):
    if x.sum() > 2:
        h.v = x.sum()
    return 0


def formatted(x):
    return f"at {last_negative(x)}"


@pytest.mark.parametrize("fn, args, what", [
    (kept_on_an_object, (Holder(), POS[0]), "storing it in the attribute 'v'"),
    (formatted, NEG, "its text")])
def test_stores_and_text_that_would_hold_the_stand_in_are_refused(fn, args, what):
    # (the object kept the MaybeNone itself, and the text was its repr: session 50's probe)
    with pytest.raises(NotImplementedError, match=f"None on some runs.*{what}"):
        ag.defun(fn)(*args)


def last_two(x):
    prev, cur = None, None
    i = 0
    while i < x.shape[0]:
        prev, cur = cur, x[i]  # (prev gets a value from cur's on the second trip only)
        i += 1
    return prev, cur


def head_until(x, marks):
    k = None
    for i in range(marks.shape[0]):
        if marks[i] > 0:
            k = marks[i]
            break
    return x[:k].sum(), x[:k:-1].sum(), x[k:].sum()


def test_handed_on_between_two_variables_and_a_narrow_slice_bound():
    agree(last_two, calls=[(np.array([-1.0, 2.0, -3.0, -4.0]),), (np.array([1.0]),),
                           (np.zeros(0),), (np.array([5.0, 6.0]),)])
    x = np.arange(10.0)
    agree(head_until, calls=[(x, np.array([0, 3], np.int32)), (x, np.array([0, 0], np.int32)),
                             (x, np.array([5], np.int8))])


def guarded(x):
    idx = last_negative(x)
    found = (idx, x[idx]) if idx is not None else (-1, 0.0)  # (a tuple holding it)
    k = 7 if x.sum() > 3 else idx  # (beside a maybe-None value)
    total = 0
    for i in range(idx if idx is not None else 0):
        total += i
    if idx is not None and idx > 0:
        total += idx * 2
    if idx is None:
        raise ValueError("no negative")
    assert idx is not None
    return found, k, total, np.sqrt(idx + 1.0), (idx, x[idx])


def test_guards_narrow_after_them():
    agree(guarded, calls=[NEG, POS, FIRST, (np.array([10.0, -1.0]),)])


def asserted_on_some_runs(x):
    idx = last_negative(x)
    if x.sum() > 100:
        assert idx is not None  # (narrows idx inside this branch only)
    return idx


def test_a_guard_inside_a_staged_branch_narrows_only_there():
    # (it narrowed for the rest of the trace: the runs not taking the branch returned the
    # stand-in 0 where Python returns None, silently)
    agree(asserted_on_some_runs, calls=[NEG, POS, (np.array([200.0, 2.0]),)])


def compared_with_none(x):
    idx = last_negative(x)
    if idx != None:  # noqa: E711 (a test that narrows, as `is not None`)
        return np.sqrt(idx + 1.0)
    return -1.0


def test_equality_with_none_narrows_as_identity_does():
    agree(compared_with_none, calls=[NEG, POS])


def tuple_holding_none(x):
    r = (1, None)
    if x.sum() > 0:
        r = (2, x[0])
    v = r[1]  # (the item: a MaybeNone of its own, runtime/optional_items.py)
    if v is not None:
        return v * 2, r
    return -1.0, r


def returns_none_in_one_return_only(x):
    if x[0] > 0:
        return (x[0], None)
    return (x[1], x[2])


def best_pair_in_a_staged_loop(x):
    best = (0.0, None)
    i = 0
    while i < x.shape[0]:
        if x[i] > best[0]:
            best = (x[i], i)
        i += 1
    return best


def pair_with_previous_returned_from_a_loop(x):
    prev = None  # (None in the pair on the first trip, a value on later ones)
    i = 0
    while i < x.shape[0]:
        if x[i] < 0:
            return (i, prev)
        prev = x[i]
        i += 1
    return (-1, prev)


def nested_items(x):
    r = ((x[0], None), None)
    if x[1] > 0:
        r = ((x[1], 1), x[2])
    return r


@pytest.mark.parametrize("fn", [tuple_holding_none, returns_none_in_one_return_only,
                                best_pair_in_a_staged_loop,
                                pair_with_previous_returned_from_a_loop, nested_items])
def test_items_of_a_tuple_that_are_none_on_some_runs(fn):
    agree(fn, calls=[NEG, POS, FIRST, (np.array([2.0, -1.0, 5.0]),)])


def tuple_or_none_holding_none(x):
    best = None
    if x[0] > 0:
        best = (x[0], None)
    return best


def test_a_tuple_that_may_be_none_holding_none_is_refused_saying_so():
    with pytest.raises(TypeError, match="a tuple that may be None is carried only when none "
                                        "of its items is None itself"):
        ag.defun(tuple_or_none_holding_none)(*POS)


def square_roots_where_both_given(x, y):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        v = None
        w = None
        if x[i] > 0:
            v = x[i]
        if y[i] > 0:
            w = y[i]
        if v is not None and w is not None:  # (narrows both: unset.joined)
            out[i] = np.sqrt(v) + np.sqrt(w)
        elif v is None or w is None:
            out[i] -= 1.0
    return out


def skipping_missing_values(x, y):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        v = x[i] if x[i] > 0 else None
        w = y[i] if y[i] > 0 else None
        if v is None:
            continue  # (the rest of the body runs where v is not None)
        if w is None:
            continue
        out[i] = np.sqrt(v) * np.sqrt(w)
    return out


def flag_set_where_given(x, y):
    v = None
    if x[0] > 0:
        v = x[0]
    found = False
    if v is not None:
        found = True
    if found:
        return np.sqrt(v)
    return -2.0


def linked_walk(x, nxt):
    cur = None
    if x.shape[0] > 0 and x[0] > 0:
        cur = 0
    total = 0.0
    while cur is not None:  # (a trip runs where cur is not None: narrowed in the body)
        total += np.sqrt(x[cur]) + np.sqrt(cur)
        if nxt[cur] > cur:
            cur = nxt[cur]
        else:
            cur = None
    return total


def test_narrowed_in_the_body_of_a_while_loop_on_it():
    agree(linked_walk, calls=[(np.array([1.0, 4.0, 9.0]), np.array([1, 2, -1])),
                              (np.array([-1.0]), np.array([-1])),
                              (np.array([4.0, 1.0]), np.array([-1, 0]))])


def flag_cleared_where_missing(x, y):
    v = None
    if x[0] > 0:
        v = x[0]
    ok = y[0] > 0
    if v is None:
        ok = False  # (ok is `not (v is None) and ok` now: where it holds, v is set)
    if ok:
        return np.sqrt(v)
    return -3.0


TWO_ROWS = [(np.array([1.0, -2.0, 3.0, 4.0]), np.array([1.0, 2.0, -3.0, 4.0])),
            (np.array([-1.0]), np.array([1.0])), (np.array([4.0]), np.array([9.0]))]


@pytest.mark.parametrize("fn", [square_roots_where_both_given, skipping_missing_values,
                                flag_set_where_given, flag_cleared_where_missing])
def test_narrowed_by_tests_joined_and_by_continue(fn):
    agree(fn, calls=TWO_ROWS)


def either_may_be_given(x, y):
    v = None
    w = None
    if x[0] > 0:
        v = x[0]
    if y[0] > 0:
        w = y[0]
    if v is None and w is None:
        return -1.0
    return np.sqrt(v)  # (v may still be None here: not narrowed)


def test_a_test_that_does_not_rule_none_out_does_not_narrow():
    with pytest.raises(NotImplementedError, match="'v' is None on some runs"):
        ag.defun(either_may_be_given)(*TWO_ROWS[0])


# Session 51's probe: code under a None test that runs only on later trips of a staged loop
# (the first trip sees the variable as it is before the loop) set values the loop did not
# carry: the return value and a list's rows were lost, silently (trial._later_trips)
def first_descent(x):
    prev = None
    for j in range(x.shape[0]):
        if prev is not None and x[j] < prev:
            return j
        prev = x[j]
    return -1


def steps_between(x):
    d = []
    prev = None
    for j in range(x.shape[0]):
        if prev is not None:
            d.append(x[j] - prev)
        prev = x[j]
    return len(d), np.array(d)


def trip_after_it_became_none(x):
    cur = x[0]
    for i in range(x.shape[0]):
        if cur is None:
            return i
        if x[i] < 0:
            cur = None
    return -1


def repeat_of_the_best(x):
    best = (0.0, None)
    for i in range(x.shape[0]):
        if best[1] is not None and x[i] == best[0]:
            return (best[1], i)
        if x[i] > best[0]:
            best = (x[i], i)
    return (-1, -1)


def first_cell_above(a, t):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] > t:
                return (i, j), a[i, j]  # (the pair is None on the other path)
    return None, None


LATER_TRIPS = [(np.array([1.0, 3.0, 2.0]),), (np.array([1.0, 3.0, 4.0, 20.0, 0.5]),),
               (np.array([5.0, 5.0, -1.0, 2.0]),), (np.array([2.0]),)]


@pytest.mark.parametrize("fn", [first_descent, steps_between, trip_after_it_became_none,
                                repeat_of_the_best])
def test_code_under_a_none_test_that_runs_on_later_trips_only(fn):
    agree(fn, calls=LATER_TRIPS)


def test_a_pair_that_is_none_on_some_paths():
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    agree(first_cell_above, calls=[(m, 2.5), (m, 10.0), (np.ones((3, 1)), 0.5)])


def same_first_negative(x, y):
    a = last_negative(x)
    b = last_negative(y)
    return a == b, a != b  # (None equals None only; values compare)


def test_two_values_that_may_be_none_compared():
    neg, pos = NEG[0], POS[0]
    agree(same_first_negative, calls=[(neg, neg), (neg, pos), (pos, pos), (pos, neg),
                                      (neg, np.array([-1.0, 5.0]))])


def found_as_a_dict(x):
    idx = last_negative(x)
    if idx is not None:
        res = {"i": idx, "v": x[idx]}  # (a dict made where idx is known set)
    else:
        res = {"i": -1, "v": 0.0}
    return res["i"], res["v"]


def test_a_dict_made_where_the_value_is_narrowed():
    agree(found_as_a_dict, calls=[NEG, POS, FIRST])
