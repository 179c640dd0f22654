"""ag.vectorized_map (SPEC §6): the oracle is the Python loop over the elements, stacked;
the interpreter and the cpu backend (one parallel loop over the elements) must agree with
it, eagerly and inside a compiled function, two calls each."""
import numpy as np
import pytest

import autograph_lite as ag
from differential import agree


def python_map(fn, elems):
    """What vectorized_map means: fn on each element (with elems' structure), stacked."""
    parts = elems if isinstance(elems, tuple) else (elems,)
    n = len(parts[0])
    if any(len(p) != n for p in parts):
        raise ValueError("elems differ in their first dimension")
    rows = [fn(tuple(p[i] for p in parts) if isinstance(elems, tuple) else elems[i])
            for i in range(n)]
    if isinstance(rows[0], tuple):
        return tuple(np.stack([np.asarray(r[k]) for r in rows]) for k in range(len(rows[0])))
    return np.stack([np.asarray(r) for r in rows])


def isqrt(n):
    """Newton's integer square root: a data-dependent while per element."""
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def mapped(fn):
    """The function under test and its oracle: vectorized_map of fn / the Python loop."""
    return (lambda x: ag.vectorized_map(fn, x)), (lambda x: python_map(fn, x))


ISQRT, ISQRT_ORACLE = mapped(isqrt)
ISQRT_FUNCTIONS = {b: ag.defun(ISQRT, backend=b) for b in ("interpreter", "cpu")}
INTS = np.random.default_rng(0).integers(0, 10**6, 40)


def test_a_data_dependent_while_per_element():
    agree(ISQRT, INTS, oracle=ISQRT_ORACLE, functions=ISQRT_FUNCTIONS, exact=True)


def test_a_scalar_body_runs_as_one_parallel_loop():
    src = ISQRT_FUNCTIONS["cpu"].get_concrete_function(INTS).source
    assert "parallel=True" in src and src.count("numba.prange(") == 1


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_eager_calls_agree_with_the_python_loop(backend):
    got = ag.vectorized_map(isqrt, INTS, backend=backend)
    assert isinstance(got, ag.Tensor) and got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), [isqrt(int(v)) for v in INTS])
    again = ag.vectorized_map(isqrt, INTS[:7], backend=backend)
    np.testing.assert_array_equal(again.numpy(), [isqrt(int(v)) for v in INTS[:7]])


def rows_and_scalars(e):
    x, row = e
    if x > 0:
        s = row.sum() * x
    else:
        s = row.max()
    return s, row * x + np.float32(1)


def test_tuple_elements_tuple_results_keep_float32():
    fn, oracle = mapped(rows_and_scalars)
    x = np.array([1.5, -2.0, 0.5, -1.0], np.float32)
    rows = np.arange(12, dtype=np.float32).reshape(4, 3)
    got = agree(lambda a, b: fn((a, b)), x, rows, oracle=lambda a, b: oracle((a, b)))
    assert [np.asarray(v).dtype for v in got["cpu"]] == [np.float32, np.float32]


def normalize(row):
    total = 0.0
    for v in row:
        total += abs(v)
    return row / total if total > 0 else row


def test_row_results_of_unknown_size_after_sizes_relax():
    fn, oracle = mapped(normalize)
    f = {b: ag.defun(fn, backend=b) for b in ("interpreter", "cpu")}
    calls = [(np.arange(6.0).reshape(2, 3) - 2,), (np.arange(20.0).reshape(5, 4),),
             (np.ones((3, 7)),)]
    agree(fn, calls=calls, oracle=oracle, functions=f)
    assert f["cpu"].get_concrete_function(np.ones((9, 9))).outputs[0].shape == (None, None)


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_no_elements_give_an_empty_result_of_the_traced_shape(backend):
    """np.stack of no results raises; vectorized_map gives (0,) + the element result's
    shape as traced, its unknown sizes 0 (README)."""
    fn = lambda x: ag.vectorized_map(lambda r: r[:2] * 2, x)  # noqa: E731
    got = ag.defun(fn, backend=backend)(np.zeros((0, 5)))
    assert got.shape == (0, 2) and got.dtype == np.float64
    relaxed = ag.defun(fn, backend=backend,
                       input_signature=[ag.TensorSpec([None, None], np.float64)])
    assert relaxed(np.zeros((0, 5))).shape == (0, 0)
    np.testing.assert_array_equal(relaxed(np.ones((2, 5))).numpy(), np.full((2, 2), 2.0))


def ragged(row):
    return row[row > 0]


def test_results_of_different_shapes_raise_as_np_stack_does():
    fn, oracle = mapped(ragged)
    agree(fn, np.array([[1.0, -1.0], [1.0, 1.0]]), oracle=oracle)


def test_first_dimensions_that_differ_are_refused():
    f = lambda a, b: ag.vectorized_map(lambda e: e[0] + e[1], (a, b))  # noqa: E731
    with pytest.raises(ValueError, match=r"elems\[1\] has 3 elements .* elems\[0\] has 2"):
        ag.defun(f)(np.ones(2), np.ones(3))
    relaxed = ag.defun(f, input_signature=[ag.TensorSpec([None], np.float64)] * 2)
    with pytest.raises(ValueError, match="first dimension"):
        relaxed(np.ones(2), np.ones(3))


def test_writes_into_the_element_or_outer_arrays_are_refused():
    def writes_element(row):
        row[0] = 1.0
        return row.sum()
    with pytest.raises(NotImplementedError, match=r"writes into its element \(elems\[0\]"):
        ag.defun(mapped(writes_element)[0])(np.zeros((2, 2)))

    def writes_argument(x, out):
        def body(v):
            out[0] = v
            return v
        return ag.vectorized_map(body, x)
    with pytest.raises(NotImplementedError, match="writes into 'out', which exists outside"):
        ag.defun(writes_argument)(np.ones(3), np.zeros(3))


def test_callbacks_and_checked_indexing_keep_the_loop_serial_and_in_order():
    table = np.arange(5.0)

    def look_up(i):
        print("element", i)
        return table[i] * 2
    fn, oracle = mapped(look_up)
    agree(fn, np.array([4, 0, 2]), oracle=oracle)
    agree(fn, np.array([1, 7]), oracle=oracle)  # IndexError on every side
    src = ag.defun(fn).get_concrete_function(np.array([1])).source
    assert "numba.prange" not in src and "parallel=True" not in src


def test_inside_a_function_that_then_writes_its_argument():
    def f(x):
        y = ag.vectorized_map(lambda r: r * 2.0, x)
        x[0] = -1.0
        return y + x[0]
    agree(f, np.arange(6.0).reshape(3, 2))


def test_nested_maps():
    def outer(row):
        return ag.vectorized_map(lambda v: v * v if v > 2 else -v, row)
    agree(lambda x: ag.vectorized_map(outer, x), np.arange(12).reshape(3, 4),
          oracle=lambda x: python_map(lambda r: python_map(lambda v: v * v if v > 2 else -v,
                                                           r), x))


def test_bad_arguments_name_themselves():
    with pytest.raises(TypeError, match="fn must be callable"):
        ag.vectorized_map(3, np.ones(2))
    with pytest.raises(ValueError, match=r"elems\[0\] is a scalar"):
        ag.defun(lambda x: ag.vectorized_map(lambda v: v, x))(np.float64(1.0))
    with pytest.raises(ValueError, match="returned None"):
        ag.defun(lambda x: ag.vectorized_map(lambda v: None, x))(np.ones(2))


class Weighted:
    def __init__(self):
        self.w = np.array([1.0, 2.0])

    def predict(self, r):
        return (r * self.w).sum()


def test_an_eager_map_of_a_method_reads_the_object_on_every_call():
    # before: the method's object was closed over by the map's Function, its w baked at
    # the first call
    m, rows = Weighted(), np.ones((3, 2))
    for backend in ("interpreter", "cpu"):
        m.w = np.array([1.0, 2.0])
        np.testing.assert_array_equal(ag.vectorized_map(m.predict, rows, backend=backend),
                                      np.full(3, 3.0))
        m.w *= 10
        np.testing.assert_array_equal(ag.vectorized_map(m.predict, rows, backend=backend),
                                      np.full(3, 30.0))
