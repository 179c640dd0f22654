"""NumPy's finite differences, integrals and polynomials (autograph_lite/numpy_calculus.py)
against NumPy itself, three ways (plain NumPy, interpreter, cpu; arguments compared, two
calls each): gradient (edge orders 1 and 2, spacings, axes), trapezoid (dx, x of 1-D and
N-D), polyval (coefficients as a list, an array, a tensor)."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree, shared_functions
from ops_strategies import arrays, dtypes, examples, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def calculus(x, v, c):
    return (np.gradient(v), np.gradient(v, 0.5), np.gradient(v, edge_order=2),
            np.gradient(x, axis=0), np.gradient(x, 2.0, axis=-1, edge_order=2),
            np.gradient(x), np.gradient(x, 1.0, np.float64(3.0)),
            np.trapezoid(v), np.trapezoid(v, dx=0.25), np.trapezoid(x, axis=0),
            np.trapezoid(v, x=v * v), np.trapezoid(x, x=x[:1, :] + x, axis=0),
            np.polyval([1.0, -2.0, 0.5], v), np.polyval(np.array([3, 1]), x),
            np.polyval(c, v), np.polyval(c, 2.0))


_CALCULUS = shared_functions(calculus)


@pytest.mark.parametrize("family", ["int", "float"])
@examples(6)
@given(data=st.data())
def test_gradient_trapezoid_polyval_match_numpy(family, data):
    # (NumPy's steps, so the bits agree; a sum of more than a few terms is pairwise in
    # NumPy and left to right in the kernel, hence the tolerance)
    dt = data.draw(dtypes(family, narrowest=True))
    x = data.draw(arrays(dt, shapes(2, min_side=3), lo=-20, hi=20))
    v = data.draw(arrays(dt, shapes(1, min_side=3), lo=-20, hi=20))
    c = data.draw(arrays(np.float64, (3,), lo=-4, hi=4))
    agree(calculus, x, v, c, functions=_CALCULUS, rtol=1e-12, atol=1e-12)


def small(v):
    return np.gradient(v, edge_order=2)


def test_gradient_of_too_few_elements_raises_numpys_error():
    with pytest.raises(ValueError, match="too small to calculate a numerical gradient"):
        ag.defun(small, backend="interpreter")(np.arange(2.0))
    f = ag.defun(small, input_signature=[ag.TensorSpec([None], ag.float64)])
    np.testing.assert_array_equal(np.asarray(f(np.arange(4.0) ** 2)), small(np.arange(4.0) ** 2))
    with pytest.raises(ValueError, match="too small to calculate a numerical gradient"):
        f(np.arange(2.0))  # (a size known only at run time: checked there)


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: np.gradient(x, np.arange(3.0)), NotImplementedError, "coordinate arrays"),
    (lambda x: np.gradient(x, edge_order=3), ValueError, "'edge_order' greater than 2"),
    (lambda x: np.gradient(x, 1.0, 2.0), TypeError, "invalid number of arguments"),
    (lambda x: np.polyval(x[x > 0], 2.0), TypeError, "length known while tracing"),
])
def test_calculus_refusals(fn, error, match):
    with pytest.raises(error, match=match):
        ag.defun(fn, backend="interpreter")(np.arange(3.0))


def test_gradient_of_a_bool_array_is_numpys_type_error():
    # (it cast the bools to numbers and gave [-1, 0, 1] before session 45)
    raised = []
    agree(np.gradient, calls=[(np.array([True, False, True]),)], errors=raised,
          autograph=False)
    assert raised and all("boolean subtract" in m for *_, m in raised), raised
