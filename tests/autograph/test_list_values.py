"""A list a staged loop appended to keeps the list's operators after the loop
(autograph/runtime/list_values.py): it is held as the tensor of its rows, which answered
`out + [0.0]`, `out * 2` and `out == [...]` as an array would, silently (a value added to
every item, every item doubled, an array of bools), where Python concatenates, repeats and
compares the lists."""
import re

import numpy as np
import pytest

import autograph_lite as ag

from .three_way import agree


def appended(x):
    out = []
    for v in x:           # staged: x is a tensor
        if v > 0:
            out.append(v)
    return out


def concatenated_and_repeated(x):
    out = appended(x)
    more = out + [0.5]
    front = [2.5] + out
    both = out + out
    out += [7.0]
    return np.array(more), np.array(front), np.array(both), np.array(out), np.array(out * 2)


def compared_and_tested(x):
    out = appended(x)
    empty = []
    for v in x:
        if v > 100.0:
            empty.append(v)
    first = out[0] if out else -1.0
    return (out == [1.0, 3.0], out != [1.0, 3.0], out == 1.0, not empty, len(out), first,
            isinstance(out, list), np.array(out[1:] + [9.0]))


def appended_after_and_again(x):
    out = appended(x)
    out.append(99.0)                # after the loop
    out.extend([4.0, 5.0])
    for v in x:                     # and in another staged loop
        if v < 0:
            out.append(v)
            out = out + [v * 10]
    return np.array(out), len(out)


def as_arrays(x):
    out = appended(x)
    a = np.array(out)
    return (a + 1.0, np.asarray(out) * 2, out + np.ones(len(out)), sum(out), np.mean(out),
            np.max(out), np.array(out * np.int64(2)))


def refused_arithmetic(x):
    out = appended(x)
    return out - 1.0


def test_a_staged_list_concatenates_and_repeats_as_a_list():
    agree(concatenated_and_repeated, [(np.array([1.0, -2.0, 3.0]),),
                                      (np.array([-1.0, 0.5, 2.0, 4.0]),)])


def test_a_staged_list_compares_and_tests_as_a_list():
    agree(compared_and_tested, [(np.array([1.0, -2.0, 3.0]),), (np.array([3.0, 1.0]),),
                                (np.array([0.5, 2.0, -1.0, 8.0]),)])


def test_appends_after_the_loop_and_in_a_later_loop():
    agree(appended_after_and_again, [(np.array([1.0, -2.0, 3.0]),),
                                     (np.array([-1.0, -0.5]),)])


def test_array_operations_on_a_staged_list_are_numpys():
    agree(as_arrays, [(np.array([1.0, -2.0, 3.0]),), (np.array([2.0, 5.0]),)])


def test_arithmetic_python_refuses_on_a_list_raises():
    raised = agree(refused_arithmetic, [(np.array([1.0, -2.0, 3.0]),),
                                        (np.array([2.0, 5.0]),)])
    assert raised and all("unsupported operand type(s) for -: 'list' and 'float'" in m
                          for _, _, m in raised), raised


def popped_in_a_sum(x):
    out = appended(x)
    return len(out) + out.pop()                 # list-method


def popped(x):
    out = appended(x)
    last = out.pop()
    out.pop()
    first = out.pop()
    return last, first, len(out), np.array(out)


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_a_list_method_with_no_staged_form_is_refused_naming_it(backend):
    """`out.pop()` after the staged loop that filled `out` raised a raw AttributeError
    ('ListTensor' object has no attribute 'pop'), naming a class the user never wrote;
    inside an expression it has no staged form still (session 54), and says which has."""
    f = ag.defun(popped_in_a_sum, backend=backend)
    with pytest.raises(TypeError, match=r"list\.pop\(\) at .*test_list_values.py:\d+ of a "
                                        r"list filled by a staged loop .* on a line of its own"):
        f(np.array([1.0, -2.0, 3.0]))


def test_a_list_a_staged_loop_filled_pops_its_last_items():
    """(session 54) `out.pop()` on a line of its own (`v = out.pop()`, `out.pop()`, `return
    out.pop()`): the list is the view of its other rows; an empty one raises Python's
    IndexError on the runs that pop it."""
    agree(popped, [(np.array([1.0, -2.0, 3.0, 4.0]),), (np.array([1.0, 2.0, 3.0]),),
                   (np.array([1.0, -2.0, 3.0]),)])


def printed(x):
    out = appended(x)
    print(out)                                  # [np.float64(1.0), np.float64(3.0)]
    print("kept", out, f"{out}", repr(out), [out, 1])
    rows = []
    for v in x:
        rows.append(np.array([v, -v]))
    print(rows)                                 # [array([ 1., -1.]), ...]
    return len(out)


def test_a_staged_list_prints_as_python_prints_a_list():
    # (printed the array, `[1. 3.]`, where Python prints the list of its items' reprs)
    agree(printed, [(np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, -2.0]),)])


def _add_one(items):
    items.append(1.0)


def appended_by_a_helper(x):
    out = appended(x)
    _add_one(out)          # Python appends to the caller's list
    return len(out)


def appended_through_an_alias(x):
    out = appended(x)
    kept = out
    out.append(1.0)        # `kept` is the same list in Python
    return len(kept)


def test_a_staged_list_another_name_holds_is_refused_where_appended():
    # (the helper's or the alias's append would be lost: the staged list is a value)
    for fn, other in ((appended_by_a_helper, "'out' of appended_by_a_helper()"),
                      (appended_through_an_alias, "'kept'")):
        for backend in ("interpreter", "cpu"):
            with pytest.raises(ValueError, match=re.escape(other) + ".* holds the same list"):
                ag.defun(fn, backend=backend)(np.array([1.0, -2.0, 3.0]))


# --- a staged list holds copies: writes Python's list would see are refused ----------------
def rows_written_through(x, n):
    rows = []
    for i in range(n):
        rows.append(x[i])
    rows[0][0] = -1.0                       # Python: writes x[0, 0]


def base_written_after(x, n):
    rows = []
    for i in range(n):
        rows.append(x[i])
    x[0, 0] = 100.0                         # Python: rows[0] sees it
    return rows[0]


def appended_then_written(x, n):
    hist = []
    for i in range(n):
        hist.append(x)
        x += 1.0                            # Python: every row is the final x


def written_then_appended(x, n):
    hist = []
    for i in range(n):
        x += 1.0                            # (the next trip changes the rows before)
        hist.append(x)
    return np.stack(hist)


def made_appended_then_written(x, n):
    rows = []
    for i in range(n):
        row = np.zeros(2)
        rows.append(row)
        row[0] = i                          # Python: the row in the list sees it


@pytest.mark.parametrize("fn,match", [
    (rows_written_through, "a write through an item of a list"),
    (base_written_after, r"a write into an array that `rows\.append` at .*test_list_values"),
    (appended_then_written, r"a write into an array that `hist\.append`"),
    (written_then_appended, r"`hist\.append` at .* appends an array that the staged loop's"),
    (made_appended_then_written, r"a write into an array that `rows\.append`"),
])
@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_writes_a_python_list_of_the_arrays_would_see_are_refused(fn, match, backend):
    """A staged list copies each array appended into its row buffer, where Python's list
    holds the array itself: a later write into that array (or through an item) changed it
    in Python and not in the list, silently (before session 41)."""
    with pytest.raises(NotImplementedError, match=match):
        ag.defun(fn, backend=backend)(np.arange(6.0).reshape(3, 2), np.int64(2))


def rows_kept_apart(x, n):
    rows, fresh, vals, y = [], [], [], x[:, 1].copy()
    for i in range(n):
        rows.append(x[i])                   # views, never written after: the copies agree
        fresh.append(x[i] * 2.0)
        row = np.zeros(2)
        row[0] = i                          # written before it is appended
        fresh.append(row)
        vals.append(y[i])                   # a number: NumPy's is a copy too
        y[i] += 1.0
    s = np.stack(fresh)
    s[0, 0] = 9.0                           # a new array: writable
    fresh[0] = x[0] + 10.0                  # replacing an item
    return np.stack(rows), s, np.array(fresh), np.array(vals), y


def test_lists_of_views_and_new_arrays_that_are_not_written_after_agree():
    agree(rows_kept_apart, [(np.arange(6.0).reshape(3, 2), np.int64(2)),
                            (np.arange(8.0).reshape(4, 2), np.int64(4))])


def append_pairs(x):
    out = []
    for v in x:
        if v > 0:
            out.append((v, v * 2))  # the-append
    return len(out)


def test_appending_tuples_in_a_staged_loop_says_what_to_append():
    # before: "the loop does not append a tensor to it", which it does, in a tuple
    with pytest.raises(NotImplementedError, match="appends a tuple of tensors to; such a "
                                                  "list holds one array per row"):
        ag.defun(append_pairs)(np.array([1.0, -1.0, 2.0]))


def count_by_residue(x):
    counts = [0, 0, 0]
    for v in x:
        counts[v % 3] += 1  # the-write
    return counts


def test_a_python_list_written_at_a_run_time_index_says_to_use_an_array():
    # before: the tensor's own "cannot be used as a Python int", at no line of the user's
    with pytest.raises(TypeError, match="'counts' at .* is a Python list written at an index "
                                        "known only when the compiled function runs"):
        ag.defun(count_by_residue)(np.array([1, 2, 3, 4, 5]))


def _describe(v):
    if hasattr(v, "ndim"):              # a duck-typed helper: an array or a list?
        return v.ndim
    return -1


def asked_its_attributes(x):
    out = appended(x)
    return (_describe(out), hasattr(out, "shape"), hasattr(out, "count"),
            getattr(out, "dtype", None) is None, hasattr(out, "append"))


def array_method_of_a_list(x):
    out = appended(x)
    return out.sum()                            # Python: a list has no `sum`


def sorted_in_place(x):
    out = appended(x)
    out.sort()                                  # a list's (its function: sort_in_place)
    return np.array(out)


def test_a_staged_list_has_a_list_s_attributes_not_an_array_s():
    # (hasattr(out, "ndim") was True and `out.sum()` summed: code that tells lists from
    # arrays took the array's path, silently)
    calls = [(np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, 2.0]),)]
    agree(asked_its_attributes, calls)
    agree(array_method_of_a_list, calls)
    agree(sorted_in_place, calls)


def copied_then_appended(x):
    out = appended(x)
    c = out.copy()                              # list.copy: a list (it was an array)
    c.append(5.0)
    return len(c), len(out)


def made_a_tuple(x):
    out = appended(x)
    return tuple(out)


def sorted_names(x):
    scores = {"a": x[0], "b": x[1], "c": x[2]}
    return sorted(scores, key=lambda k: scores[k])


def test_a_staged_list_copies_as_a_list_and_refuses_what_needs_its_length():
    agree(copied_then_appended, [(np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, 2.0]),)])
    for backend in ("interpreter", "cpu"):
        with pytest.raises(TypeError, match=r"a list filled by a staged loop at .*"
                                            r"test_list_values.py:\d+ is iterated by Python"):
            ag.defun(made_a_tuple, backend=backend)(np.array([1.0, -2.0, 3.0]))
        # (the names' order would be known only when it runs: it crashed inside sorted)
        with pytest.raises(NotImplementedError, match=r"sorted\(\) of str items by keys known "
                                                      r"only when the function runs \(at "):
            ag.defun(sorted_names, backend=backend)(np.array([1.0, -2.0, 3.0]))


def last_deleted(x):
    out = []
    for v in x:
        if len(out) >= 1 and out[-1] > v:
            del out[-1]                         # as out.pop(): no staged form
        out.append(v)
    return np.array(out)


def test_del_of_an_item_of_a_staged_list_is_refused_naming_it():
    # (a raw "'TensorList' object doesn't support item deletion")
    for backend in ("interpreter", "cpu"):
        with pytest.raises(NotImplementedError, match=r"`del` of an item \(at .*"
                                                      r"test_list_values.py:\d+\) of a list"):
            ag.defun(last_deleted, backend=backend)(np.array([3.0, 1.0, 2.0]))


def fibonacci(n):
    f = [0, 1]
    for i in range(2, n + 1):            # staged once n is relaxed
        f.append(f[i - 1] + f[i - 2])
    return f[n], sum(f), 10 // f[n - 10]


def prefix_sums(x):
    c = [0]                              # a Python 0, then uint8 items: np.array's int64
    for i in range(len(x)):
        c.append(x[i])
    return c[0] - 1, np.array(c)


def test_a_list_of_python_ints_keeps_pythons_checks():
    """(its items were int64s: fibonacci(93) wrapped to a negative number, `sum` of it
    wrapped, `10 // f[k]` of a zero item gave 0); a Python number among NumPy items makes
    the list np.array's dtype (`[0]` then uint8 items: int64)"""
    raised = agree(fibonacci, [(12,), (20,), (10,)])
    assert raised and all("integer division or modulo by zero" in m for *_, m in raised)
    for backend in ("interpreter", "cpu"):
        f = ag.defun(fibonacci, backend=backend)
        f(12), f(20)
        with pytest.raises(OverflowError, match=r"Python int \+ overflowed int64.*"
                                                r"test_list_values.py"):
            f(93)                        # (Python's int grows past int64: refused)
    agree(prefix_sums, [(np.array([200, 100], np.uint8),), (np.array([1, 2, 3], np.uint8),)])


def path_back_to_the_root(parent, k):
    path = []
    while k >= 0:
        path.append(k)
        k = parent[k]
    also = path
    path.reverse()
    return np.array(path), np.array(also), len(path)


def test_reverse_of_a_staged_list_is_in_place():
    """`path.reverse()` after the `while` that filled it (a path rebuilt from parents):
    the rows in the other order, seen through every name of the list (refused before
    session 53)."""
    agree(path_back_to_the_root, [(np.array([-1, 0, 1, 1]), np.int64(3)),
                                  (np.array([-1, 0, 0]), np.int64(0))])
