"""``x.flat`` (numpy_flat.py): reads, writes through it (into arguments, through a
transposed view, of NumPy arrays made while tracing), NumPy's repeating of the written
values, iteration that sees the body's writes, and NumPy's errors. Each three ways (plain
NumPy, interpreter, cpu; the arguments after the call compared, two calls each).
Before: UnstagedAttributeError (``.flat`` had no staged form)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions

M = np.arange(6.0).reshape(2, 3)


def reads_and_writes(m, k):
    m.flat[k] = 7.0
    t = m.T                            # a transposed view: flat is its C order, not m's
    t.flat[k - 1] = -1.0
    return (m.flat[k + 1], m.flat[-1], t.flat[1:4], t.flat[np.array([[0, 1], [2, 3]])],
            m.flat[np.array([True, False, True, False, False, True])])


def test_reads_and_writes_into_the_argument_and_through_a_view():
    agree(reads_and_writes, M.copy(), np.int64(4), exact=True)


def repeats(a, b):
    a.flat[1:5] = np.array([1.0, 2.0])   # shorter: repeats
    a.flat[[0, 2]] = [7.0, 8.0, 9.0]     # longer: cut
    a.flat[b] = 0.5                      # a boolean array of a's size
    a.flat[3:] = np.zeros(0)             # empty: writes nothing
    return a


def test_values_repeat_along_the_positions_as_numpys():
    agree(repeats, np.zeros(6), np.array([False, True, False, False, False, True]),
          exact=True)


def iterates(m):
    s, k = 0.0, 0
    for v in m.flat:                     # a staged loop reading each element when reached
        s = s * 0.5 + v
        if k + 1 < m.size:
            m.flat[k + 1] += v           # seen by the next trip, as NumPy's iterator
        k += 1
    return s, m, [i * v for i, v in enumerate(m[0].flat)]


def test_iteration_sees_the_writes_of_the_body():
    agree(iterates, M.T.copy(order="F").T, exact=True)  # (a transposed argument: C order)
    agree(iterates, M.copy(), exact=True)


def assigned_and_copied(m, x):
    c = m.flat.copy()                    # a copy: writing it leaves m
    c[0] = 5.0
    m.flat = x                           # every position
    v = np.zeros((2, 2))
    v.flat[len(m.flat) % 4] = x          # a NumPy array of trace time written by a tensor
    v.flat[1] += x
    i = np.zeros(3, np.int32)
    i.flat[1] = x                        # cast as NumPy casts (unsafe)
    return c, m, v, v.flat[int(x) % 4], i


def test_assignment_copies_and_numpy_arrays_of_trace_time():
    agree(assigned_and_copied, M.copy(), np.float64(2.5), exact=True)


def one_position(a, k):
    return a.flat[k]


def two_values_at_one_position(a):
    a.flat[1] = np.array([1.0, 2.0])


def mask_of_another_size(a):
    a.flat[np.array([True, False])] = 0.0


def test_numpys_errors():
    raised = []
    agree(one_position, calls=[(np.arange(4.0), np.int64(4))] * 2, errors=raised)
    agree(two_values_at_one_position, calls=[(np.arange(4.0),)] * 2, errors=raised)
    agree(mask_of_another_size, calls=[(np.arange(4.0),)] * 2, errors=raised)
    text = " ".join(m for *_, m in raised)
    assert len(raised) == 12 and "out of bounds" in text and "single item" in text and \
        "boolean index did not match" in text, raised


def test_an_immutable_tensor_says_so():
    with pytest.raises(TypeError, match="immutable"):
        ag.constant(M).flat[0] = 1.0


def repeats_at(a, start, stop, step, v):
    a.flat[start:stop:step] = v          # bounds known only at run time
    return a


STORE = shared_functions(repeats_at)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(0, 7), st.integers(-7, 7), st.integers(1, 3),
       st.integers(0, 3))
def test_property_slices_and_values(rows, start, stop, step, n):
    a = np.arange(rows * 2.0).reshape(rows, 2)
    agree(repeats_at, a, np.int64(start), np.int64(stop), np.int64(step), np.arange(float(n)),
          functions=STORE, exact=True)


def test_a_value_empty_only_at_run_time_writes_nothing():
    # (after the first call the value's size is relaxed: a size of 0 is then a staged case)
    calls = [(np.arange(6.0), np.int64(1), np.int64(5), np.int64(1), np.arange(float(n)))
             for n in (2, 3, 0, 1)]
    agree(repeats_at, calls=calls, functions=STORE, exact=True)


def puts(x, k, n):
    np.put(x, 0, [7.0, 8.0])             # one position: the first value
    x.put([1, -1, k], [9.0, 8.0])        # repeated along the positions, -1 the last
    made = np.zeros(4)
    for i in range(n):                    # into an array made while tracing, by tensors
        np.put(made, [i], [x[i] * 2.0])
    np.put(x, [0], np.zeros(0))           # an empty value writes nothing
    return made


def put_past_the_end(x, k):
    np.put(x, [k], [1.0])
    return x


def test_np_put_is_a_write_through_flat_positions_as_numpys():
    # (was TypeError: no staged np.put); an index past the end: NumPy's IndexError
    agree(puts, calls=[(np.arange(6.0), np.int64(3), np.int64(4)),
                       (np.arange(6.0), np.int64(-2), np.int64(2))])
    agree(put_past_the_end, calls=[(np.arange(3.0), np.int64(2)), (np.arange(3.0), np.int64(3))])


def put_modes(x, idx, v):
    np.put(x, idx[:2], v, mode="wrap")
    x.put(idx, v * 2.0, mode="clip")
    return x


def put_then_past_the_end(x, idx, v):
    x.put(idx, v)                          # positions before a bad one are written
    return x


def flat_then_past_the_end(x, idx):
    x.flat[idx] = 1.0                      # so are x.flat's
    return x


def test_np_put_modes_and_the_writes_before_a_bad_position_as_numpys():
    """mode="wrap"/"clip" were refused; with mode="raise" NumPy writes position by position
    and raises at the first one out of range keeping the writes before it, where the
    staged put wrote nothing (session 47)."""
    agree(put_modes, calls=[(np.zeros(5), np.array([1, 9, -7]), np.array([5.0, 6.0])),
                            (np.zeros((2, 3)), np.array([0, -2, 40, 3]), np.array([1.0]))])
    agree(put_then_past_the_end,
          calls=[(np.zeros(5), np.array([1, 9, 2]), np.array([1.0, 2.0])),
                 (np.zeros(5), np.array([0, -2, 3]), np.array([3.0])),
                 (np.zeros(5), np.array([4, 1, -6, 0]), np.array([3.0, 4.0, 5.0]))])
    agree(flat_then_past_the_end, calls=[(np.zeros(3), np.array([0, 5])),
                                         (np.zeros((2, 2)), np.array([[3, 1], [9, 0]]))])


def put_nothing(x, ind):
    np.put(x, ind[ind > 10], 1.0)          # a filter that may leave no position
    x.flat[ind[ind > 10]] = 2.0
    return x


def put_into_a_strided_view(x, ind, v):
    np.put(x[::2], ind, v)                 # NumPy puts into a copy: nothing on an error
    return x


def test_np_put_of_no_position_and_into_a_view_that_is_not_contiguous():
    """(session 47's partial writes took the argmax of an empty mask: ValueError; and a
    non-contiguous target kept the writes before a bad position, where NumPy's put into a
    copy writes back nothing)"""
    agree(put_nothing, calls=[(np.zeros(5), np.array([1, 2])), (np.zeros(5), np.array([0, 3]))])
    agree(put_into_a_strided_view,
          calls=[(np.zeros(6), np.array([0, 1, 7]), np.array([1.0, 2.0, 3.0])),
                 (np.zeros(6), np.array([0, 1]), np.array([1.0, 2.0]))])
