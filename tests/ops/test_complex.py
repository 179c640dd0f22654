"""complex64/complex128 through the whole pipeline (SPEC §1), against NumPy itself, three
ways (plain NumPy, interpreter, cpu; arguments compared, two calls): arithmetic with weak
complex literals, the ufuncs Numba computes on complex scalars, reductions, casts, the
parts `.real`/`.imag` as views (written through, as NumPy's), escape-time fractals in
staged loops, and the refusals (NumPy's lexicographic order of complex numbers)."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import agree
from ops_strategies import examples

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning",
                                        "ignore::numpy.exceptions.ComplexWarning")


def complex_arrays(dtype, max_side=5):
    parts = st.floats(-4, 4, allow_nan=False, width=32)
    return st.integers(1, max_side).flatmap(lambda n: st.lists(
        st.tuples(parts, parts), min_size=n, max_size=n).map(
        lambda v: np.array([complex(a, b) for a, b in v], dtype)))


def arithmetic(z, w):
    return (z * w + 1.0, z / (w + 3.0), z - 0.5j, -z, z ** 2, z * 2.5, np.conjugate(z),
            np.sqrt(z), np.exp(z * 0.1), np.log(z + 5.0), np.sin(z), np.tanh(z * 0.1),
            np.abs(z), np.square(w), z == w, z != 0, np.isfinite(z), np.sign(z))


def reductions(z, w):
    return (np.sum(z), np.prod(z * 0.5), np.mean(z), np.cumsum(z), z @ w,
            np.where(np.abs(z) > 2.0, z, 0j), z.astype(np.complex64),
            z.real.astype(np.int64), np.abs(z).astype(np.float32), z.astype(np.float64))


_FNS = {f.__name__: {b: ag.defun(f, backend=b) for b in ("interpreter", "cpu")}
        for f in (arithmetic, reductions)}


@examples(6)
@given(st.sampled_from([np.complex128, np.complex64]).flatmap(
    lambda dt: complex_arrays(dt)).flatmap(
    lambda z: st.tuples(st.just(z), complex_arrays(z.dtype, 5).map(
        lambda w: np.resize(w, z.shape)))))
def test_complex_arithmetic_matches_numpy(pair):
    z, w = pair
    agree(arithmetic, z, w, functions=_FNS["arithmetic"], rtol=1e-5, atol=1e-6)
    agree(reductions, z, w, functions=_FNS["reductions"], rtol=1e-5, atol=1e-5)


def test_weak_complex_literals_keep_the_precision():
    agree(lambda x: (x * 1j, x + (2 - 1j), np.float32(2) * 1j), np.arange(3, dtype=np.float32),
          exact=True)


def parts_written(z):
    y = z * 1.0
    y.real[0] = 7.0              # a view: y changes
    y.imag += 1.0
    r = y.real
    r *= 2.0
    y.imag = np.arange(3.0)
    z.real = -1.0                # the caller's array is written
    return y, z.real + 0.0, np.real(z), np.imag(y)


def test_real_and_imag_are_views_written_as_numpy_writes_them():
    agree(parts_written, np.array([1 + 2j, -0.5j, 3.0]), exact=True)


def mandelbrot(c, n):
    z = np.zeros_like(c)
    count = np.zeros(c.shape, np.int64)
    for _ in range(n):
        z = np.where(np.abs(z) <= 2.0, z * z + c, z)
        count += np.abs(z) <= 2.0
    return count


def julia_point(z, c, limit):
    i = 0
    while i < limit and abs(z) <= 2.0:    # a staged while over complex scalars
        z = z * z + c
        i += 1
    return i, z


def test_escape_time_fractals():
    x, y = np.meshgrid(np.linspace(-2.0, 1.0, 7), np.linspace(-1.2, 1.2, 5))
    agree(mandelbrot, calls=[(x + 1j * y, np.int64(12)), (x * 0.5 + 0.3j * y, np.int64(3))],
          exact=True)
    agree(julia_point, calls=[(np.complex128(0.1 + 0.2j), np.complex128(-0.8 + 0.156j),
                               np.int64(50)),
                              (np.complex128(1.5 - 1.0j), np.complex128(0.3 + 0.5j),
                               np.int64(10))], rtol=1e-12)  # (NumPy's scalar and array
    # complex products may differ in the last bit)


@pytest.mark.parametrize("fn,match", [
    (lambda z: z < 1j, "np.less of complex tensors"),
    (lambda z: np.max(z), "np.max of complex tensors"),
    (lambda z: np.argmin(z), "np.argmin of complex tensors"),
])
def test_complex_order_is_refused_naming_the_op(fn, match):
    for backend in ("interpreter", "cpu"):
        with pytest.raises(NotImplementedError, match=match):
            ag.defun(fn, backend=backend)(np.array([1j, 2.0]))


def test_a_real_array_has_no_imaginary_part_to_set():
    def f(x):
        x.imag = 1.0
        return x
    agree(f, np.arange(3.0))


def complex_statistics_and_powers(z, x):
    x[:] = z                                  # a complex array into a float one: its real
    return (np.var(z), np.std(z, ddof=1),     # part, as NumPy (Numba's astype refused it)
            z ** 3, z ** -1, z ** 2, z ** 0, x, z.astype(bool))


def newton_steps(z0):
    counts = np.zeros(len(z0), np.int64)
    for i in range(len(z0)):
        w = z0[i]
        for k in range(30):
            f = w ** 3 - 1                    # (the polar formula missed |f| < 1e-10)
            if abs(f) < 1e-10:
                break
            w = w - f / (3 * w ** 2)
            counts[i] += 1
    return counts


def python_complex(x, a, b):
    c = complex(a, b)
    x[0] = c.real
    return 1 / c, int(c.real)


def complex_written(x, a):
    x[1] = complex(a, 1.0)            # NumPy's float(): TypeError


def test_complex_variance_powers_and_python_complex_numbers():
    """(np.var of complex was complex: (x - m)**2, not |x - m|**2; the cpu backend's
    integer powers went through the polar formula, `(2j) ** 3` -1.5e-15-8j, and a complex
    Newton iteration took 30 steps instead of 5; `1 / complex(a, b)` at zero was inf+nanj
    where Python raises ZeroDivisionError; `x[1] = 1j` into a float array wrote 0)"""
    z = np.array([1 + 2j, 3 - 1j, 0.5j, 2j])
    agree(complex_statistics_and_powers, calls=[(z, np.zeros(4)),
                                                (z[:3].astype(np.complex64), np.zeros(3))],
          exact=True)
    agree(newton_steps, calls=[(np.array([-1 + 1j, -1 - 0.5j, 0.2 + 1j], np.complex64),),
                               (np.array([2 + 0j, 1j]),)], exact=True)
    raised = []
    agree(python_complex, calls=[(np.zeros(2), 1.0, 2.0), (np.zeros(2), 2.0, 1.0),
                                 (np.zeros(2), 0.0, 0.0)], errors=raised)
    assert raised and all("complex division by zero" in m for *_, m in raised)
    for fn in (complex_written, lambda x, a: int(complex(a, 0.0))):
        raised = []
        agree(fn, calls=[(np.zeros(2), 1.0), (np.zeros(2), 2.0)], errors=raised)
        assert raised and all("not 'complex'" in m for *_, m in raised), raised


def complex_odds(z, x, y, n):
    x[0:2] = [complex(y[0], y[1]), 1]       # a Python complex in a list: float()'s TypeError
    return np.var(z.real, dtype=np.complex128), complex(y[0], y[1]) ** n


def test_complex_dtype_variance_and_python_complex_refusals():
    """(np.var(..., dtype=complex) became real today; `x[0:2] = [complex(...), 1]` wrote
    the real part; `0j ** -1` of Python complex numbers was nan, Python's ZeroDivisionError)"""
    z = np.array([1 + 2j, 3 - 1j])
    raised = []
    agree(lambda z, y, n: (np.var(z.real, dtype=np.complex128), complex(y[0], y[1]) ** n),
          calls=[(z, np.array([1.0, 1.0]), -1), (z, np.array([2.0, 1.0]), 2),
                 (z, np.array([0.0, 0.0]), -1)], errors=raised)
    assert raised and all("0.0 to a negative or complex power" in m for *_, m in raised)
    raised = []
    agree(complex_odds, calls=[(z, np.zeros(3), np.array([1.0, 2.0]), 2)] * 2, errors=raised)
    assert raised and all("not 'complex'" in m for *_, m in raised), raised
