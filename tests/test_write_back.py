"""Writes into NumPy-array arguments reach the caller (SPEC §3), backend and call path.

The tracing side that records which arguments a function writes is not here yet, so these
tests make the graph themselves: the function returns ``(result, final_1, ...)`` and
``writing`` moves the finals into ``graph.input_updates`` (the contract: the contents each
written argument must hold after the call). The oracle is the plain NumPy function that
writes its arguments; both backends must leave the caller's arrays exactly as it does.
"""
import time

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.concrete import ConcreteFunction
from autograph_lite.function import _OUT
from differential import BACKENDS, assert_same


def writing(fn, written, backend, autograph=True):
    """``ag.defun(fn)`` whose traces write the parameters named in ``written``: ``fn``
    returns ``(result or None, final value of each written parameter)``."""
    f = ag.defun(fn, autograph=autograph, backend=backend)
    trace = f._trace

    def trace_writing(args, key, specs=None):
        cf = trace(args, key, specs)
        g = cf.graph
        keep = len(g.outputs) - len(written)
        finals, g.outputs[:] = g.outputs[keep:], g.outputs[:keep]
        names = [v.hint for v in g.inputs]
        g.input_updates = [(names.index(p), v) for p, v in zip(written, finals)]
        result = cf._structured[0]
        return ConcreteFunction(f, g, result, [None] if result is None else [_OUT], key)
    f._trace = trace_writing
    return f


def check_writes(traced, oracle, written, inputs, autograph=True):
    """Each backend, one Function for all ``inputs``: the result and every argument after
    the call agree with ``oracle`` run on copies."""
    compiled = {b: writing(traced, written, b, autograph) for b in BACKENDS}
    for args in inputs:
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        want = oracle(*copies)
        for backend, f in compiled.items():
            mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            got = f(*mine)
            assert_same(got, want, what=f"{traced.__name__} on {backend}")
            for k, (a, b) in enumerate(zip(mine, copies)):
                if isinstance(a, np.ndarray):
                    assert a.dtype == b.dtype and np.array_equal(a, b), (
                        f"{traced.__name__} on {backend}: argument #{k} is {a}, NumPy left {b}")
    return compiled


def fill(out, n):
    for i in range(n):
        out[i] = 2.0 * i
    return None, out


def fill_np(out, n):
    for i in range(n):
        out[i] = 2.0 * i


def test_a_filled_argument_is_updated_in_place_with_no_copy_and_no_write_back():
    f = check_writes(fill, fill_np, ["out"], [(np.zeros(5), np.int64(3)),
                                               (np.ones(5), np.int64(5))])["cpu"]
    src = f.get_concrete_function(np.zeros(5), np.int64(3)).source
    assert "rt.copy(" not in src and "out[...]" not in src, src
    out = np.zeros(4)
    assert f(out, np.int64(4)) is None
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0, 6.0])  # the caller's own array


@pytest.mark.parametrize("backend", BACKENDS)
def test_non_contiguous_arguments_are_written_through(backend):
    f = writing(fill, ["out"], backend)
    m = np.zeros((4, 3))
    f(m[:, 1], np.int64(4))                          # a column: strided
    want = np.zeros((4, 3))
    want[:, 1] = [0.0, 2.0, 4.0, 6.0]
    np.testing.assert_array_equal(m, want)
    r = np.zeros(8)
    f(r[::-2], np.int64(2))                          # reversed, every other element
    np.testing.assert_array_equal(r, [0, 0, 0, 0, 0, 2.0, 0, 0.0])


def overwrite_if(out, x, c):
    if c > 0.0:
        out[:] = x * 2.0
    return None, out


def overwrite_if_np(out, x, c):
    if c > 0.0:
        out[:] = x * 2.0


def test_updates_in_a_branch_need_no_write_back():
    x = np.arange(3.0)
    f = check_writes(overwrite_if, overwrite_if_np, ["out"],
                     [(np.ones(3), x, np.float64(1.0)), (np.ones(3), x, np.float64(-1.0))])
    src = f["cpu"].get_concrete_function(np.ones(3), x, np.float64(1.0)).source
    assert "out[...]" not in src and "rt.copy(" not in src, src


def write_fresh_value(out, x):
    return None, x * 2.0


def write_fresh_value_np(out, x):
    out[...] = x * 2.0


def update_then_replace(out, x):
    out[0] = 1.0
    return None, out * x


def update_then_replace_np(out, x):
    out[0] = 1.0
    out[...] = out * x


def test_a_final_value_in_another_buffer_is_copied_back():
    x = np.array([1.0, 2.0, 3.0])
    f = check_writes(write_fresh_value, write_fresh_value_np, ["out"], [(np.zeros(3), x)])
    assert "out[...] = " in f["cpu"].get_concrete_function(np.zeros(3), x).source
    check_writes(update_then_replace, update_then_replace_np, ["out"],
                 [(np.zeros(3), x), (np.full(3, 5.0), x)])


def old_value_read_after_the_update(out):
    new = ag.setitem(out, 0, 5.0)
    return ag.reduce_sum(out), new        # the sum reads the old contents


def old_value_read_after_the_update_np(out):
    s = out.sum()
    out[0] = 5.0
    return s


def test_an_update_whose_old_value_is_still_read_works_on_a_copy():
    f = check_writes(old_value_read_after_the_update, old_value_read_after_the_update_np,
                     ["out"], [(np.arange(3.0),), (np.ones(3),)], autograph=False)
    assert "rt.copy(out)" in f["cpu"].get_concrete_function(np.ones(3)).source


def fill_and_return(out, n):
    _, out = fill(out, n)
    return out, out


def fill_and_return_np(out, n):
    fill_np(out, n)
    return out.copy()


def test_a_result_that_is_the_written_argument_is_a_copy():
    f = check_writes(fill_and_return, fill_and_return_np, ["out"],
                     [(np.zeros(3), np.int64(3))])
    for backend in BACKENDS:
        out = np.zeros(3)
        r = f[backend](out, np.int64(3))
        assert not np.shares_memory(r.numpy(), out)


def set_scalar(x, v):
    return None, v * 2.0


def set_scalar_np(x, v):
    x[...] = v * 2.0


def test_a_zero_d_array_argument_is_written():
    check_writes(set_scalar, set_scalar_np, ["x"], [(np.array(1.0), np.float64(4.0))])


def add_into(out, x):
    return None, out + x


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_that_cannot_be_written_are_refused(backend):
    f = writing(add_into, ["out"], backend)
    a = np.arange(4.0)
    f(a, np.ones(4))
    ro = np.arange(4.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError) as e:
        f(ro, np.ones(4))
    assert str(e.value) == "assignment destination is read-only"  # NumPy's own message
    with pytest.raises(ValueError, match="arguments 'out' and 'x' share memory and "
                                         "add_into writes into 'out'; pass a copy"):
        f(a, a)
    b = np.arange(5.0)
    with pytest.raises(ValueError, match="'out' and 'x' share memory"):
        f(b[:4], b[1:])
    c = np.zeros(8)
    f(c[::2], c[1::2] + 1.0)                         # the same base, disjoint elements
    f(c[::2], c[1::2])
    np.testing.assert_array_equal(c, [1.0, 0, 1.0, 0, 1.0, 0, 1.0, 0])
    with pytest.raises(TypeError, match="argument 'out' is an ag.Tensor, which is immutable"):
        f(ag.constant(np.zeros(4)), np.ones(4))
    g = writing(set_scalar, ["x"], backend)
    g(np.array(1.0), np.float64(2.0))
    with pytest.raises(TypeError, match="'numpy.float64' object does not support item"):
        g(np.float64(1.0), np.float64(2.0))
    np.testing.assert_array_equal(ro, np.arange(4.0))


def test_the_fast_path_checks_written_arguments_on_every_call():
    f = writing(add_into, ["out"], "cpu")
    a, ro = np.zeros(3), np.zeros(3)
    ro.flags.writeable = False
    for _ in range(3):
        f(a, np.ones(3))
    np.testing.assert_array_equal(a, [3.0, 3.0, 3.0])
    assert not f._fast  # a function that writes its arguments installs no fast entry
    with pytest.raises(ValueError, match="read-only"):
        f(ro, np.ones(3))
    with pytest.raises(ValueError, match="share memory"):
        f(a, a)


def test_functions_that_write_nothing_keep_their_fast_path():
    f = ag.defun(lambda x, y: x * y + 1.0)
    x, y = np.float64(2.0), np.float64(3.0)
    f(x, y)
    assert f._fast
    calls = 20_000
    t = time.perf_counter()
    for _ in range(calls):
        f(x, y)
    per_call = (time.perf_counter() - t) / calls
    assert per_call < 20e-6, f"{per_call * 1e9:.0f} ns per call"


def interpreter_view_result(out):
    new = ag.setitem(out, 0, 9.0)
    return out[1:], new                   # a view of the old contents


def test_the_interpreter_copies_results_that_share_a_written_argument():
    f = writing(interpreter_view_result, ["out"], "interpreter", autograph=False)
    out = np.arange(3.0)
    r = f(out)
    np.testing.assert_array_equal(out, [9.0, 1.0, 2.0])
    np.testing.assert_array_equal(r.numpy(), [1.0, 2.0])
    assert not np.shares_memory(r.numpy(), out)
