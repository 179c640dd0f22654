"""``out=`` of NumPy functions that are not ufuncs (numpy_out.py), of ufuncs with
``where=``, and of ufunc methods (``.accumulate``/``.reduce``): the result written into the
output as NumPy writes it (aliases and views of it see the write, the call returns it),
with NumPy's casting errors; three ways, the arguments after the call compared. Before:
TypeError ("unexpected keyword argument 'out'") or "not staged"."""
import re

import numpy as np
import pytest

import autograph_lite as ag
from differential import agree


def outs(x, m, y, z):
    r = np.clip(x, -1.0, 1.0, out=x)
    np.sum(m, axis=0, out=y)
    np.cumsum(x, out=x)
    np.round(x, 1, out=x)
    np.max(m, axis=1, out=z[:3])            # into a view of an argument
    np.prod(m[:, :2], axis=1, out=z[1:])
    v = x[1:]
    np.clip(v, 0.0, 0.5, out=v)             # through a view, read back through x
    w = np.zeros(())
    np.sum(x.astype(np.float32) * 1e8, out=w)   # a wider float out: NumPy's loop in it
    return x, y, z, r is x, w


def test_functions_that_are_not_ufuncs_write_their_out():
    agree(outs, np.array([0.3, -1.2, 2.5, 0.0]), np.arange(12.0).reshape(3, 4), np.zeros(4),
          np.zeros(4), exact=True)


def ufunc_outs(x, y, m, z):
    np.maximum.accumulate(x, out=y)
    np.negative(x, out=x, where=x > 1.0)     # out keeps its elements where False
    np.add.reduce(m, axis=0, out=z)
    np.multiply(x, 2.0, out=y, where=np.array([True, False, True, False]))
    return x, y, z


def test_ufunc_where_and_methods_with_out():
    agree(ufunc_outs, np.array([0.3, -1.2, 2.5, 0.0]), np.zeros(4),
          np.arange(12.0).reshape(3, 4), np.zeros(4), exact=True)


def clip_into_ints(x):
    np.clip(x, 0, 2, out=np.zeros(4, np.int64))


def test_numpys_casting_error():
    raised = []
    agree(clip_into_ints, calls=[(np.array([0.3, -1.2, 2.5, 0.01]),)] * 2, errors=raised)
    assert raised and all("Cannot cast ufunc 'clip' output" in m for *_, m in raised), raised


def method_and_more_outs(A, b, c, i, f, z):
    np.dot(A, b, out=c)
    A.sum(axis=1, out=f)                    # the methods take out= as the functions do
    np.argmax(A, axis=1, out=i)             # (an int32 out: the indices cast)
    np.any(A > 2, axis=1, out=z)
    m = np.zeros(A.shape[0])
    A.min(axis=1, out=m)
    b.clip(0.5, 1.5, out=b)
    mean = np.zeros(A.shape[0])
    np.mean(A, axis=1, out=mean)
    return c, f, i, z, m, b, mean, A.max(out=np.zeros(())), A.cumsum(axis=1, out=np.zeros(A.shape))


def test_methods_dot_argmax_any_and_mean_write_their_out():
    """Session 41: Python's bare TypeError ("unexpected keyword argument 'out'") before."""
    agree(method_and_more_outs, calls=[
        (np.arange(6.0).reshape(2, 3), np.ones(3), np.zeros(2), np.zeros(2, np.int32),
         np.zeros(2), np.zeros(2, bool)),
        (np.arange(12.0).reshape(3, 4) - 5.0, np.arange(4.0), np.zeros(3),
         np.zeros(3, np.int32), np.zeros(3), np.zeros(3, bool))], exact=True)


def dot_into(A, b, c):
    np.dot(A, b, out=c)
    return c


def argmax_into(A, i):
    return A.argmax(axis=1, out=i)


def test_numpys_errors_of_an_unfit_out_and_a_keyword_not_staged():
    raised = []
    agree(dot_into, calls=[(np.eye(2), np.ones(2), np.zeros(2, np.float32)),
                           (np.eye(2), np.ones(2), np.zeros(3))], errors=raised)
    assert {re.split(r"\s\(at ", m)[0] for *_, m in raised} == {  # (NumPy's text, a note)
        "output array is not acceptable (must have the right datatype, number of "
        "dimensions, and be a C-Array)", "output array has wrong dimensions"}, raised
    raised = []
    agree(argmax_into, calls=[(np.eye(2), np.zeros(2))] * 2, errors=raised)
    assert raised and all("to dtype('int64') according to the rule 'safe'" in m
                          for *_, m in raised), raised
    with pytest.raises(NotImplementedError, match=r"x\.mean\(\.\.\., where=\) is not staged"):
        ag.defun(lambda a: a.mean(where=a > 1), backend="interpreter")(np.arange(3.0))


def ufunc_loops(a, b, o, m):
    # dtype= picks the loop NumPy computes in: its inputs are cast to it first
    r = (np.add(a, b, dtype=np.uint16), np.multiply(a, a, dtype=np.int32),
         np.negative(a, dtype=np.int16), np.sqrt(a, dtype=np.float32),
         np.floor_divide(a, 7, dtype=np.int8), np.add.reduce(a, dtype=np.uint8),
         np.minimum.reduce(m, axis=1, dtype=np.int16))
    np.add(a, a, out=o, dtype=np.uint16)
    return r, o


def float_into_an_int_loop(a):
    return np.multiply(a, 0.5, dtype=np.uint8)


def test_a_ufuncs_dtype_is_the_loop_it_computes_in():
    """(the ufunc ran in the inputs' dtype and its result was cast: `np.add(u8, u8,
    dtype=np.uint16)` of 200 + 200 gave 144; `.reduce` dropped dtype=, initial=, where=)"""
    u8 = np.array([200, 100, 30], np.uint8)
    agree(ufunc_loops, calls=[(u8, u8, np.zeros(3, np.uint16), u8.reshape(1, 3)),
                              (u8[::-1], u8, np.ones(3, np.uint16), u8.reshape(3, 1))],
          exact=True)
    raised = []
    agree(float_into_an_int_loop, calls=[(u8,), (u8[:2],)], errors=raised)
    assert raised and all("Cannot cast ufunc 'multiply' input 1" in m for *_, m in raised)
    for kw in ({"initial": 10}, {"where": u8 > 50}):
        f = ag.defun(lambda a: np.add.reduce(a, **kw))
        with pytest.raises(NotImplementedError, match=f"{next(iter(kw))}=\\) is not staged"):
            f(u8)


def test_arguments_by_position_a_front_lacks_are_refused_by_name():
    """(Python's bare `TypeError: copy() takes 1 positional argument but 2 were given`)"""
    for f, said in ((lambda a: np.copy(a, "F"), r"np\.copy\(\.\.\., 2 arguments by "),):
        with pytest.raises(NotImplementedError, match=said + ".*is not staged"):
            ag.defun(f, backend="interpreter")(np.ones((2, 3)))
    agree(lambda a: (np.size(a, 1), np.size(a, -2), np.size(a), a.sum(0, None, None, True)),
          calls=[(np.ones((2, 3)),), (np.ones((4, 5)),)])


def positional_outs(x):
    o1, o2, o3 = np.zeros(x.shape[1]), np.zeros(()), np.zeros(1, np.intp)
    o4, o5, o6, o7 = np.zeros(1), np.zeros(1), np.zeros(1), np.zeros((), bool)
    np.max(x, 0, o1)
    np.sum(x, None, None, o2)
    np.argmax(x, 0, o3)
    x.max(0, o4)
    np.mean(x, 0, None, o5)
    x.sum(0, None, o6)
    np.any(x > 0.5, None, o7)
    o8, o9 = np.zeros(x.shape[0]), np.zeros_like(x)
    np.cumsum(x[:, 0], 0, None, o8)
    np.clip(x, 0.2, 0.5, o9)
    return o1, o2, o3, o4, o5, o6, o7, o8, o9


def test_out_given_by_position_is_written():
    """(session 50: a staged form has no `out` slot, so `np.max(x, 0, o)` bound `o` to its
    `keepdims`, and `o` was left as it was: silently)"""
    agree(positional_outs, calls=[(np.array([[0.1], [0.9], [0.4]]),),
                                  (np.array([[0.3], [0.2], [0.8]]),)], exact=True)


def test_a_ufuncs_loop_checks_the_python_ints_it_casts():
    """(`np.add(u8, -1, dtype=np.uint16)` wrapped the -1 cast into the loop's dtype)"""
    u8 = np.array([5, 200], np.uint8)
    for k in (-1, 70000):
        raised = []
        agree(lambda x, k: np.add(x, k, dtype=np.uint16), calls=[(u8, 3), (u8, 5), (u8, k)],
              errors=raised)
        assert raised and all("out of bounds for uint16" in m for *_, m in raised), raised


def test_a_fronts_ufunc_takes_dtype_and_np_size_axes():
    """(`np.power(a, b, dtype=)` crashed: its front took no dtype; np.size of a tuple of
    axes crashed, of an axis past the rank raised IndexError, not NumPy's AxisError)"""
    i8 = np.array([2, 3], np.int8)
    agree(lambda a, b: (np.power(a, b, dtype=np.float64), np.power(a, b, dtype=np.int32)),
          calls=[(i8, i8[::-1]), (i8[:1], i8[:1])], exact=True)
    agree(lambda x: (np.size(x, (0, 1)), np.size(x, -1)),
          calls=[(np.ones((2, 3)),), (np.ones((4, 5)),)])
    with pytest.raises(np.exceptions.AxisError):
        ag.defun(lambda x: np.size(x, 2), backend="interpreter")(np.ones((2, 3)))


def row_pointers(rows, n):
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])   # (the CSR idiom)
    return indptr


def test_out_of_a_result_whose_size_is_known_only_at_run_time():
    """(the size check read a run-time size as a Python bool: an internal TypeError until
    session 47); a result that does not fit is NumPy's ValueError when it runs."""
    agree(row_pointers, calls=[(np.array([0, 1, 1]), 3), (np.array([0, 2, 2, 2]), 4),
                               (np.array([0, 5]), 3)], exact=True)


def writers_by_keyword(w, x):
    m = np.ones((3, 3)) * x[0]
    np.fill_diagonal(m, val=0.0)
    np.fill_diagonal(a=m[1:], val=5.0)
    np.put(w, ind=[0, 2], v=[9.0, 8.0])
    np.place(x, mask=x < 0.3, vals=[1.5])
    np.copyto(w, src=x * 2, where=x > 0.65)
    return m, w, x


def test_in_place_writers_take_numpys_keywords():
    """(session 50: the writer's wrapper named them `dst`, `src`: `np.fill_diagonal(m,
    val=0.0)` failed with "missing 1 required positional argument: 'src'")"""
    agree(writers_by_keyword, calls=[(np.zeros(3), np.array([0.1, 0.7, 0.9])),
                                     (np.ones(3), np.array([0.8, 0.2, 0.4]))], exact=True)


def int_accumulations_in_place(a, b, o):
    np.cumsum(a, out=a)
    np.cumprod(b, out=b)
    np.sum(b, out=o)
    return a, b, o


def test_an_int_out_narrower_than_the_result_wraps_as_numpy():
    # (session 52's probe: refused, "from a int64 result is not staged"; NumPy adds and
    # multiplies in the out's ints, whose wrapped values are the low bits of ours)
    agree(int_accumulations_in_place, calls=[
        (np.arange(5, dtype=np.int32), np.array([200, 100, 7], np.uint8), np.zeros((), np.uint8)),
        (np.array([100, 100, -7], np.int8), np.array([1000, 1000, 1000, 7], np.int32),
         np.zeros((), np.int16))], exact=True)
