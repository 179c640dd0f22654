"""subscripts: `x[i] = v` rebinds `x` via `ag__.setitem` (so it can be staged)."""

import numpy as np
import pytest

import autograph_lite as ag

from autograph_lite.autograph.converters.subscripts import SubscriptTransformer

from .conftest import assert_equivalent, convert_only
from .three_way import agree

GLOBAL = [0, 0]


def updates(n):
    out = np.zeros((n, n))
    out[0] = 1.0
    out[1:, 0] = 2.0
    out[n - 1, n - 1] += 5.0
    GLOBAL[0] = n
    return out


def list_aug(xs):
    ys = list(xs)
    ys[0] += [9]
    return ys, xs


def test_shape():
    src = convert_only(updates, SubscriptTransformer)
    assert "out = ag__.setitem(out, 0, 1.0, name='out')" in src
    assert "out = ag__.setitem(out, ag__.index[1:, 0], 2.0, name='out')" in src
    assert "out = ag__.setitem(out, (n - 1, n - 1), 5.0, '+=', name='out')" in src
    # a global is not rebound: written where it is, by the runtime
    assert "ag__.setitem_held(GLOBAL, 0, n, name='GLOBAL')" in src


def test_behaviour():
    assert_equivalent(updates, [(2,), (4,)])
    assert_equivalent(list_aug, [([[1], [2]],)])  # += keeps in-place semantics


# An array held by a list, a dict or an object's attribute is written where it is
# (`ag__.setitem_held`): with a tensor it becomes a buffer of the kernel, as a local one
# does, and later reads through the container see the writes (was: TypeError "a symbolic
# tensor cannot be converted to a NumPy array").
class _State:
    def __init__(self):
        self.v = np.arange(4.0)


def held_arrays_written_with_tensors(n, x):
    rows = [np.ones(3)]
    d = {"acc": np.zeros(2)}
    s = _State()
    rows[0][n % 3] = x
    i = 0
    while i < n:
        d["acc"][i % 2] += x * i
        s.v[(i + 1) % 4] -= x
        i += 1
    return rows[0], d["acc"], s.v


def held_then_read_by_numpy(a, n):
    t0 = np.arange(4) * 0.25
    box = [t0]
    box[0][1] = float(np.sum(a > 0.5)) + n
    return np.abs(t0) + 0.0       # t0 is rebound after the write through box (shared_names)


def test_arrays_held_in_containers_are_written_with_tensors():
    agree(held_arrays_written_with_tensors,
          [(np.int64(0), np.float64(1.0)), (np.int64(5), np.float64(-2.5))])
    agree(held_then_read_by_numpy, [(np.arange(4.0), np.int64(1)), (np.ones(4), np.int64(-3))])


TABLE = np.zeros(3)


def writes_a_global_array(i, x):
    TABLE[i % 3] = x
    return x


def test_a_global_array_written_with_a_tensor_is_refused_naming_it():
    f = ag.defun(writes_a_global_array)
    with pytest.raises(TypeError, match="'TABLE' .* captured from a global"):
        f(np.int64(1), np.float64(2.0))
    assert not TABLE.any()  # the global is untouched


# Chained and unpacking assignments with subscript targets (converters/assignments.py):
# one write per target, in Python's order (was: "'SymbolicTensor' object does not support
# item assignment" from the generated code, no user line).
def chained_ends(out):
    out[0] = out[-1] = 0.0
    return out.sum()


def swaps(x, i, j):
    x[i], x[j] = x[j], x[i]
    k, x[k] = 1, 7.0       # k is assigned before x[k]'s index is evaluated
    x[k], k = 9.0, 2       # x[old k], then k
    (a, x[0]), b = (x[3], 5.0), x[k]
    return x, a, b


def row_swap(m):
    m[0], m[1] = m[1], m[0]   # views: NumPy leaves both rows equal to the old row 1
    return m


def swaps_in_a_loop(x, n):
    i = 0
    while i < n:
        x[i], x[i + 1] = x[i + 1], x[i] * 2.0
        i += 1
    return x


def test_chained_and_unpacking_assignments_write_every_subscript_in_order():
    agree(chained_ends, [(np.ones(5),), (np.arange(4.0),)])
    agree(swaps, [(np.arange(5.0), 0, 4), (np.arange(6.0), 2, 5)])
    agree(row_swap, [(np.arange(6.0).reshape(3, 2),), (np.arange(8.0).reshape(4, 2),)])
    agree(swaps_in_a_loop, [(np.arange(6.0), np.int64(3)), (np.arange(4.0), np.int64(2))])


def test_an_unpacking_count_mismatch_is_pythons_error():
    def bad(x):
        x[0], x[1] = x[0], x[1], x[2]
        return x
    raised = agree(bad, [(np.arange(3.0),), (np.arange(4.0),)])
    assert raised and all("too many values to unpack" in m for _, _, m in raised)


def augmented_through_copies(x, m):
    # NumPy: `tmp = x[key]; tmp op= v; x[key] = tmp`, the in-place op checking same_kind
    # casting (an int `x` raises UFuncTypeError; session 46 truncated and wrote)
    x[[0, 1]] += 1.5
    x[m] *= 0.5
    return x


def augmented_at_one_element(x, i):
    x[i] += 1.5                 # (a scalar rebinds: truncated into the int array, no error)
    return x


def empty_list_index(x):
    return x[[]], x[[]].size


def test_augmented_assignment_through_an_index_copy_casts_as_numpy():
    m = np.array([True, False, True])
    raised = agree(augmented_through_copies, [(np.zeros(3, np.int64), m), (np.arange(3.0), m),
                                              (np.ones(3, np.int32), m)])
    assert raised and all("Cannot cast ufunc" in message for _, _, message in raised)
    agree(augmented_at_one_element, [(np.zeros(3, np.int64), 1), (np.zeros(3, np.int64), 2)])
    agree(empty_list_index, [(np.arange(4.0),), (np.arange(2.0),)])


def catches_a_refusal(x):
    try:
        y = x[True]             # (not staged: refused, not taken for NumPy's IndexError)
    except IndexError:
        y = x * 0
    return y


def test_a_refusal_is_not_caught_by_the_users_except():
    for backend in ("interpreter", "cpu"):
        with pytest.raises(IndexError, match="0-d boolean index"):
            ag.defun(catches_a_refusal, backend=backend)(np.arange(3.0))


def element_from_an_array(x, v):
    if x.sum() > 100:
        x[0] = v                # (NumPy 2's ValueError on the runs that get here)
    x[1:2] = v                  # (a slice takes it)
    return x


def test_an_array_written_into_one_element_is_numpys_value_error_where_reached():
    # (the cpu kernel failed to compile, for every input: session 46)
    raised = agree(element_from_an_array, [(np.array([1.0, -1.0]), np.array([2.5])),
                                           (np.array([100.0, 1.0]), np.array([2.5]))])
    assert raised and all("setting an array element with a sequence" in message
                          for _, _, message in raised)
