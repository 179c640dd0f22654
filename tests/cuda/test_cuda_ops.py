"""The op table's property tests, a fixed sample on backend="cuda" (Numba's simulator)
against NumPy itself: every elementwise op on every dtype family and dtype pair, every
device reduction over drawn axes, basic indexing and assignment, transposes and reshapes.

The full property tests run on cuda with ``AG_TEST_BACKENDS=interpreter,cpu,cuda pytest
tests/ops`` (long: the simulator runs Python threads); there, float reductions differ from
NumPy's pairwise sums in the last bits (a tree in shared memory adds in another order),
which the suite's bit-exact float tolerances report. Here sums get a tolerance fit for
the order. Every kernel these tests launch is also compiled for a GPU (conftest.py).
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree
from ops_strategies import FAMILIES, arrays, dtypes, examples, layouts, shapes
from test_elementwise import BINARY, PAIRS, UNARY, _binary, _ops_for, _tolerance
from test_indexing import basic_index, np_setitem
from test_reduce import axis_for

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
CUDA = ("cuda",)


def _agree(f, *args, **kw):
    return agree(f, *args, autograph=False, independent=True, backends=CUDA, **kw)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@examples(3)
@given(data=st.data())
def test_every_unary_op_on_cuda(family, data):
    dt = data.draw(dtypes(family))
    x = data.draw(arrays(dt, shapes(1, 5, min_side=2), nan=True))
    names = _ops_for(UNARY, dt)

    def f(x):
        return tuple(getattr(np, n)(x) for n in names)
    _agree(f, x, **_tolerance(dt))


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{np.dtype(p[0])}-{np.dtype(p[1])}")
@examples(2)
@given(data=st.data())
def test_every_binary_op_on_cuda(pair, data):
    da, db = pair
    shape = data.draw(shapes(1, 5, min_side=2))
    a, b = data.draw(arrays(da, shape, nan=True)), data.draw(arrays(db, shape, nan=True))
    f = _binary(_ops_for(BINARY, da, db), (a,), (b,), np.dtype(db).kind in "iu")
    _agree(f, a, b, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min", "any", "all"])
@examples(5)
@given(data=st.data())
def test_reductions_over_drawn_axes_on_cuda(name, data):
    family = data.draw(st.sampled_from(sorted(FAMILIES)))
    dt = data.draw(dtypes(family))
    shape = data.draw(shapes(data.draw(st.sampled_from((1, 2, 3))),
                             min_side=1 if name in ("max", "min") else 0))
    x = data.draw(arrays(dt, shape, lo=-3, hi=3))
    axis = data.draw(axis_for(len(shape)))
    keepdims = data.draw(st.booleans())

    def f(x, y):
        fn = getattr(np, name)
        return fn(x, axis=axis, keepdims=keepdims), fn(y * 2, axis=axis)  # a fused input
    tol = dict(rtol=1e-5, atol=1e-5) if dt == np.float32 else dict(rtol=1e-12, atol=1e-12)
    _agree(f, *layouts(x), **tol)


@examples(6)
@given(data=st.data())
def test_basic_indexing_and_assignment_on_cuda(data):
    shape = data.draw(shapes(data.draw(st.sampled_from((1, 2, 3)))))
    dt = data.draw(st.sampled_from([np.float64, np.int32, np.bool_]))
    x = data.draw(arrays(dt, shape))
    idx = data.draw(basic_index(shape))

    def f(x):
        y = ag.setitem(x, idx, 7)
        return x[idx], y, ag.setitem(y, idx, y[idx] * 2), x

    def oracle(x):
        y = np_setitem(x, idx, 7)
        return x[idx], y, np_setitem(y, idx, y[idx] * 2), x
    _agree(f, layouts(x)[-1], oracle=oracle)


@examples(4)
@given(data=st.data())
def test_transpose_and_reshape_on_cuda(data):
    rank = data.draw(st.sampled_from((1, 2, 3)))
    x = data.draw(arrays(data.draw(dtypes("float")), shapes(rank, min_side=1)))
    perm = tuple(data.draw(st.permutations(range(rank))))

    def f(x):
        return (np.transpose(x, perm), x.reshape(-1), np.expand_dims(x, 0),
                np.squeeze(x.reshape((1,) + x.shape)), x.T.reshape(-1) + 1.0)
    _agree(f, x)
