"""NumPy's index-finding and selecting functions (autograph_lite/numpy_selection.py) against
NumPy itself, three ways (plain NumPy, interpreter, cpu; arguments compared, two calls
each), bit for bit: take, flatnonzero, nonzero, argwhere, unravel_index, isin, select; and
their refusals. One Function per test shares its kernels across the drawn shapes."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions
from ops_strategies import arrays, dtypes, examples, shapes


def selections(x, v, i):
    return (np.take(x, i), np.take(x, i, axis=1), x.take(i, axis=0), np.take(x, 0),
            np.take(x, -1, axis=1), np.take(x, i.reshape(-1, 1)), np.take(v, i[0]),
            np.flatnonzero(x), np.flatnonzero(v), np.nonzero(x), x.nonzero(), np.nonzero(v),
            np.argwhere(x), np.argwhere(v), np.argwhere(v[0]), np.argwhere(x > 1),
            np.where(x > 1), np.where(v)[0],  # (np.where with one argument is nonzero)
            np.unravel_index(i, x.shape), np.unravel_index(i, (2, 3, 1), order="F"),
            np.unravel_index(i[0], (2, 3)),
            np.isin(x, v), np.isin(v, [1, 2], invert=True), np.isin(x, v[:0]),
            np.select([x > 0, x < 1], [x, x * 2]), np.select([v > 0], [1.5], default=v),
            np.select([x > 0, v[:3] < 0], [1, 2], 7), np.select([v > 1], [v[0]]))


_SELECTIONS = shared_functions(selections)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(5)
@given(data=st.data())
def test_selections_match_numpy(family, data):
    dt = data.draw(dtypes(family, narrowest=True))
    x = data.draw(arrays(dt, (2, 3), nan=True, lo=-2, hi=2))
    v = data.draw(arrays(dt, shapes(1, min_side=3), nan=True, lo=-2, hi=2))
    i = data.draw(arrays(np.int64, (data.draw(st.integers(1, 4)),), lo=0, hi=1))
    agree(selections, x, v, i, functions=_SELECTIONS, exact=True)


def nonzeros(x, b):
    return (np.nonzero(x), np.argwhere(x), np.flatnonzero(b), np.nonzero(b), np.argwhere(b),
            np.isin(b, [True]), np.take(b, np.nonzero(b)[0]))


_NONZEROS = shared_functions(nonzeros)


@examples(6)
@given(arrays(np.float32, shapes(3), nan=True, lo=-1, hi=1), arrays(np.bool_, shapes(1)))
def test_nonzero_of_every_size_matches_numpy(x, b):
    # (zero-size arrays, and sizes known only at run time once the shapes relax)
    agree(nonzeros, x, b, functions=_NONZEROS, exact=True)


def test_take_makes_copies():
    def f(x):
        t = np.take(x, 1, axis=0)
        t[0] = 9.0                    # a copy: x stays
        return t, x.take([0, -1])
    agree(f, np.arange(6.0).reshape(2, 3), exact=True)


@pytest.mark.parametrize("fn,args", [
    (lambda x, i: np.take(x, i), (np.arange(3.0), np.array([0, 3]))),
    (lambda x, i: np.take(x, i, axis=0), (np.arange(3.0), np.array([-4]))),
    (lambda x, i: np.unravel_index(i, (2, 3)), (np.arange(3.0), np.array([6]))),
    (lambda x, i: np.unravel_index(i, (2, 3)), (np.arange(3.0), np.array([-1]))),
])
def test_out_of_range_indices_raise_as_numpy(fn, args):
    # (the interpreter only: the cpu backend's gather does not check its indices, x[i]
    # as well as np.take; the unravel_index checks are staged and hold on both)
    raised = []
    agree(fn, calls=[args, args], errors=raised, backends=("interpreter",))
    assert len(raised) == 2, raised


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: np.nonzero(x[0]), ValueError, "Calling nonzero on 0d arrays"),
    (lambda x: np.where(x > 0, x), ValueError, "either both or neither of x and y"),
    (lambda x: np.select([x > 0], [x, x]), ValueError, "same length"),
    (lambda x: np.select([], []), ValueError, "empty condition list"),
    (lambda x: np.select([x], [x]), TypeError, "invalid entry 0 in condlist"),
    (lambda x: np.unravel_index(np.array([1.0]), (2, 3)), TypeError, "only int indices"),
    (lambda x: np.take(x, np.array([1.0])), TypeError, "Cannot cast array data"),
    (lambda x: np.isin(x, x, kind="hash"), ValueError, "Invalid kind"),
])
def test_numpys_errors(fn, error, match):
    with pytest.raises(error, match=match):
        fn(np.arange(3.0))            # (NumPy's own)
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.arange(3.0))


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: np.take(x, [0], mode="clip"), NotImplementedError, "mode"),
    (lambda x: np.take(x, [0], axis=x[0].astype(np.int64)), TypeError, "np.take's axis"),
])
def test_what_is_not_staged_is_refused_naming_it(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.arange(3.0))


def pieces(x, m):
    return (np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * v]),
            np.piecewise(x, [x < -1, x > 2], [0.5, lambda v: v + 1, lambda v: v * 0]),
            np.piecewise(x, x > 0, [lambda v: v.max() - v]),        # one condition
            np.piecewise(m, [m > 3], [lambda v: v / 2, 7]),          # "otherwise"
            np.piecewise(x.astype(np.int64), [x > 0], [lambda v: v * 2.5]),  # cast back
            np.piecewise(x, [x > 100], [lambda v: v.max()]))         # empty: not called


def too_few_functions(x):
    return np.piecewise(x, [x < 0, x > 0], [1.0])


def test_piecewise_matches_numpy():
    # before: "no staged counterpart"
    x = np.array([0.3, -1.2, 2.5, 0.0, 4.1, -0.7])
    agree(pieces, x, np.arange(12.0).reshape(3, 4), exact=True)
    raised = []
    agree(too_few_functions, calls=[(x,), (x * 2,)], errors=raised)
    assert raised and all("either 2 or 3 functions" in m for *_, m in raised), raised


def python_int_choice(x, k):
    return np.select([x < 10, x > 100], [k, x], default=0)


def test_select_refuses_a_python_int_choice_into_an_unsigned_result_as_numpy():
    """NumPy copies each choice in as an array with 'same_kind': a Python int (int64) into
    a uint8 result is its TypeError, where the staged select cast it (session 47)."""
    agree(python_int_choice, calls=[(np.array([3, 200], np.uint8), 4),
                                    (np.array([3, 200], np.uint8), 5),
                                    (np.array([3, 200], np.int16), 6)], exact=True)
