"""SPEC 3, writes through reshape, ravel, squeeze, expand_dims and split views
(autograph_lite/mutation.py ``link_view``, autograph_lite/contiguity.py).

NumPy's reshape (and ravel) is a view of a C-contiguous array, and of any other a view or
a copy by its strides. Where the trace knows the array is C-contiguous on every run (an
argument passed C-contiguous, a result of NumPy's default order, a block of one), writes
through either name reach the other, checked three ways (plain Python, interpreter, cpu,
arguments compared, two calls). Where it cannot know, a write through the result, or a
read of it after the array was written, is refused naming the line: both were silent
wrong answers before (the reshape of a transpose read the array's later write).
"""
import numpy as np
import pytest

import autograph_lite as ag
from tests.differential import agree, shared_functions


def write_through_ravel_of_argument(x, i):
    y = x.ravel()
    y[i] = -1.0
    return x.sum()


def write_through_reshape_of_made_array(x, i):
    z = x * 2.0
    m = z.reshape(3, 2)
    m[i % 3, 1] = 7.0
    return z


def reshape_sees_later_write(x, i):
    y = x.reshape(-1)
    x[0, i % 3] = 5.0
    return y * 1.0


def reshape_view_written_in_a_loop(x, n):
    flat = x.reshape(-1)
    for k in range(n):
        flat[k] += k
    return x


def reshape_of_a_row_block_written_in_a_branch(x, c):
    rows = x[1:]            # a block of a C-contiguous array: C-contiguous too
    m = rows.reshape(-1)
    if c > 0:
        m[0] = 9.0
    return x


def squeeze_and_expand_dims_views(x, i):
    z = x * 1.0
    s = np.squeeze(z[None])
    s[0, i % 3] = 3.0
    e = np.expand_dims(z, 0)
    e[0, 1, 1] += 10.0
    return z


def split_parts_are_views(x, i):
    z = x * 2.0
    a, b = np.split(z, 2)
    a[0, i % 3] = -4.0
    b += 1.0
    return z


def zero_d_view_augmented(x):
    z = x * 1.0             # shape (1, 1)
    s = np.squeeze(z)       # NumPy: a 0-d view, written in place by +=
    s += 5.0
    return z


def flatten_is_a_copy(x, i):
    y = x.flatten()
    y[i % 6] = 9.0
    x[0, 1] = 7.0
    return y, x.reshape(3, 2, order="F"), np.ravel(x, order="F")


@pytest.mark.parametrize("fn", [write_through_ravel_of_argument,
                                write_through_reshape_of_made_array,
                                reshape_sees_later_write,
                                squeeze_and_expand_dims_views,
                                split_parts_are_views,
                                flatten_is_a_copy])
def test_reshape_views_agree_with_numpy(fn):
    agree(fn, calls=[(np.arange(6.0).reshape(2, 3), np.int64(1)),
                     (np.arange(6.0).reshape(2, 3) - 3.0, np.int64(2))], exact=True)


def test_reshape_view_written_in_a_loop():
    agree(reshape_view_written_in_a_loop, calls=[(np.zeros((2, 3)), np.int64(4)),
                                                 (np.ones((2, 3)), np.int64(0))], exact=True)


def test_reshape_of_a_block_written_in_a_branch():
    agree(reshape_of_a_row_block_written_in_a_branch,
          calls=[(np.zeros((3, 2)), np.int64(1)), (np.zeros((3, 2)), np.int64(-1))],
          exact=True)


def test_a_zero_d_view_is_written_in_place():
    agree(zero_d_view_augmented, calls=[(np.full((1, 1), 2.0),), (np.zeros((1, 1)),)],
          exact=True)


def unit_sizes_of_a_strided_view(a, m, k):
    c = a[::2].reshape(-1)        # a vector to a vector: a view whatever the strides
    c[0] = -5.0
    d = a[1::2].reshape(-1, 1)    # sizes of 1 added: a view too
    d[1:] += 10.0
    e = m[:, 1].reshape(1, -1)    # a column, strided
    e *= k
    return a, m, c + 0.0, d + 0.0


def test_a_reshape_that_only_adds_or_drops_sizes_of_1_is_a_view_of_any_strides():
    """NumPy's reshape of a strided array is a view where only sizes of 1 change (its
    no-copy attempt drops them first); refused as uncertain before session 53."""
    agree(unit_sizes_of_a_strided_view,
          calls=[(np.arange(6.0), np.arange(6.0).reshape(2, 3), np.float64(2.0)),
                 (np.arange(8.0), np.arange(12.0).reshape(3, 4), np.float64(-1.0))],
          exact=True)


# -- refused: NumPy's answer depends on strides the trace cannot see ------------------------
def write_through_reshape_of_transpose(x):
    y = x.T.reshape(-1)
    y[1] = 7.0
    return x


def read_reshape_of_transpose_after_write(x):
    z = x * 2.0
    y = z.T.reshape(-1)
    z[0, 1] = 9.0           # NumPy copied (z.T is not C-contiguous): y keeps 2.0
    return y * 1.0


@pytest.mark.parametrize("fn", [write_through_reshape_of_transpose,
                                read_reshape_of_transpose_after_write])
@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_an_uncertain_reshape_view_is_refused_at_the_users_line(fn, backend):
    with pytest.raises(NotImplementedError, match=r"'reshape' of an array that is not known "
                       r"to be C-contiguous.*test_reshape_views\.py:\d+"):
        ag.defun(fn, backend=backend)(np.arange(6.0).reshape(2, 3))


def test_reading_an_uncertain_reshape_without_writes_is_fine():
    def f(x):
        return x.T.reshape(-1) + 1.0
    agree(f, np.arange(6.0).reshape(2, 3), exact=True)


def reshape_read(x):
    return x.reshape(-1) * 2.0


def test_an_argument_passed_non_contiguous_traces_again():
    """The layout is not in the key (sizes relax; most traces never ask): a trace that
    relied on an argument being C-contiguous records it, and a call with another layout
    traces again; the C-contiguous one keeps its trace."""
    f = ag.defun(reshape_read, backend="interpreter")
    contiguous, strided = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(2, 6)[:, ::2]
    for x in (contiguous, strided, contiguous, strided):
        np.testing.assert_array_equal(f(x), reshape_read(x))
    assert f.experimental_get_tracing_count() == 2
    g = ag.defun(write_through_ravel_of_argument, backend="interpreter")
    i = np.int64(2)
    agree(write_through_ravel_of_argument, calls=[(contiguous, i)],
          functions={"interpreter": g})
    with pytest.raises(NotImplementedError, match="not known to be C-contiguous"):
        g(strided, i)
    np.testing.assert_array_equal(strided, np.arange(12.0).reshape(2, 6)[:, ::2])
    agree(write_through_ravel_of_argument, calls=[(contiguous, i)],
          functions={"interpreter": g})


def test_reshape_order_a_is_refused_naming_it():
    def f(x):
        return x.reshape(6, order="A")
    with pytest.raises(NotImplementedError, match="order='A'"):
        ag.defun(f, backend="interpreter")(np.zeros((2, 3)))


def reshape_of_loop_and_branch_results(x, n):
    r = x * 1.0
    for k in range(n):      # a staged loop: r is C-contiguous on every trip
        r = r * 2.0 + k
    s = r if n > 2 else x * 3.0
    m = r.reshape(-1)
    m[0] = -5.0
    v = s.reshape(3, 2)
    v[1, 1] = 9.0
    return r, s


def reshape_of_loop_result_that_may_be_transposed(x, n):
    r = x * 1.0
    for k in range(n):
        r = r.T.T if k > 0 else r + 1.0     # transposes: not known C-contiguous
    m = r.reshape(-1)
    m[0] = -5.0
    return r


def test_reshapes_of_control_flow_results():
    agree(reshape_of_loop_and_branch_results,
          calls=[(np.arange(6.0).reshape(2, 3), np.int64(3)),
                 (np.arange(6.0).reshape(2, 3), np.int64(0))], exact=True)


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_a_loop_result_not_known_c_contiguous_is_refused(backend):
    with pytest.raises(NotImplementedError, match="not known to be C-contiguous"):
        ag.defun(reshape_of_loop_result_that_may_be_transposed, backend=backend)(
            np.arange(6.0).reshape(2, 3), np.int64(3))


def test_a_concrete_function_refuses_a_layout_its_trace_did_not_assume():
    f = ag.defun(write_through_ravel_of_argument, backend="interpreter")
    cf = f.get_concrete_function(np.zeros((2, 3)), np.int64(0))
    x = np.zeros((2, 3))
    cf(x, np.int64(1))
    assert x[0, 1] == -1.0
    with pytest.raises(ValueError, match="traced for array arguments laid out"):
        cf(np.zeros((2, 6))[:, ::2], np.int64(1))


# Sizes known only at run time (a relaxed trace's x.shape[0], a size computed from a
# tensor) are inputs of the reshape: one kernel serves every size (SPEC §2), the sizes
# are checked as NumPy checks them, and the result is a view like any reshape's.
def rows_of(x):
    m = x.reshape(x.shape[0], -1)          # (n, rest): the common idiom
    return m.sum(axis=1), np.reshape(x, (-1, x.shape[-1])) * 2.0


def written_through_sized_reshape(x, k):
    flat = x.reshape(x.shape[0] * x.shape[1])
    flat[k] = -1.0                         # reaches x (a view of a C-contiguous argument)
    return x.sum()


def columns_first(x):
    return np.reshape(x, (x.shape[1], x.shape[0]), order="F") + 0.0


_SIZED = {f.__name__: shared_functions(f) for f in
          (rows_of, written_through_sized_reshape, columns_first)}


def test_reshape_to_sizes_known_at_run_time():
    shapes = [(2, 3, 4), (3, 3, 4), (4, 1, 2), (1, 5, 3), (5, 2, 2)]
    agree(rows_of, calls=[(np.arange(float(np.prod(s))).reshape(s),) for s in shapes],
          functions=_SIZED["rows_of"])
    agree(written_through_sized_reshape,
          calls=[(np.ones(s[:2]), np.int64(0)) for s in shapes] + [(np.ones((3, 2)), np.int64(5))],
          functions=_SIZED["written_through_sized_reshape"])
    agree(columns_first, calls=[(np.arange(6.0).reshape(2, 3),), (np.arange(12.0).reshape(3, 4),),
                                (np.arange(8.0).reshape(4, 2),)],
          functions=_SIZED["columns_first"])
    for fns in _SIZED.values():  # the sizes relaxed: new sizes trace nothing more
        for f in fns.values():
            count = f.experimental_get_tracing_count()
            f(np.ones((6, 7, 2)) if f.__name__ == "rows_of" else np.ones((6, 7)),
              *([np.int64(3)] if "written" in f.__name__ else []))
            assert f.experimental_get_tracing_count() == count, f.__name__


def test_a_run_time_size_that_does_not_fit_is_numpys_value_error():
    def f(x, n):
        return x.reshape(n, -1) * 1.0
    errors = []
    agree(f, calls=[(np.ones(12), np.int64(4)), (np.ones(12), np.int64(5)),
                    (np.ones(12), np.int64(0))], errors=errors)
    assert errors and all("cannot reshape array of size 12 into shape" in m
                          for _, _, m in errors), errors
    assert all("test_reshape_views.py" in m for _, _, m in errors), errors
