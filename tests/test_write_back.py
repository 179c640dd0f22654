"""Writes into NumPy-array arguments reach the caller (SPEC §3), backend and call path.

Each function here writes its arguments the way NumPy code does (`out[i] = v`,
`out[...] = x`, `out += x`); the trace records the final contents of each written argument
(`graph.input_updates`) and the backend stores them into the caller's array, in place
where nothing reads the old value. The oracle is the same function run as plain NumPy; both
backends must leave the caller's arrays exactly as it does, call after call.
"""
import time

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS, assert_same


def check_writes(fn, inputs, autograph=True):
    """Each backend, one Function for all ``inputs``: the result and every argument after
    the call agree with ``fn`` run as plain NumPy on copies."""
    compiled = {b: ag.defun(fn, autograph=autograph, backend=b) for b in BACKENDS}
    for args in inputs:
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        want = fn(*copies)
        for backend, f in compiled.items():
            mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            got = f(*mine)
            assert_same(got, want, what=f"{fn.__name__} on {backend}")
            for k, (a, b) in enumerate(zip(mine, copies)):
                if isinstance(a, np.ndarray):
                    assert a.dtype == b.dtype and np.array_equal(a, b), (
                        f"{fn.__name__} on {backend}: argument #{k} is {a}, NumPy left {b}")
    return compiled


def fill(out, n):
    for i in range(n):
        out[i] = 2.0 * i


def test_a_filled_argument_is_updated_in_place_with_no_copy_and_no_write_back():
    f = check_writes(fill, [(np.zeros(5), np.int64(3)), (np.ones(5), np.int64(5))])["cpu"]
    src = f.get_concrete_function(np.zeros(5), np.int64(3)).source
    assert "rt.copy(" not in src and "out[...]" not in src, src
    out = np.zeros(4)
    assert f(out, np.int64(4)) is None
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0, 6.0])  # the caller's own array


@pytest.mark.parametrize("backend", BACKENDS)
def test_non_contiguous_arguments_are_written_through(backend):
    f = ag.defun(fill, backend=backend)
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


def test_updates_in_a_branch_need_no_write_back():
    x = np.arange(3.0)
    f = check_writes(overwrite_if,
                     [(np.ones(3), x, np.float64(1.0)), (np.ones(3), x, np.float64(-1.0))])
    src = f["cpu"].get_concrete_function(np.ones(3), x, np.float64(1.0)).source
    assert "out[...]" not in src and "rt.copy(" not in src, src


def write_fresh_value(out, x):
    out[...] = x * 2.0


def update_then_replace(out, x):
    out[0] = 1.0
    out[...] = out * x


def test_a_final_value_in_another_buffer_is_copied_back():
    x = np.array([1.0, 2.0, 3.0])
    f = check_writes(write_fresh_value, [(np.zeros(3), x), (np.ones(3), x * 3.0)])
    assert "out[...] = " in f["cpu"].get_concrete_function(np.zeros(3), x).source
    check_writes(update_then_replace, [(np.zeros(3), x), (np.full(3, 5.0), x)])


def old_value_read_before_the_update(out):
    s = out.sum()
    t = out[1:]                           # a view, read after the write: sees it
    out[0] = 5.0
    out[2] += s
    return s, t.sum()


def _copy_then_overwrite(u, x, k):
    r = u * 1.0          # a new array: u's old buffer is dead after this ...
    u[1] += 0.5
    np.copyto(u, np.ones(4) * x)  # ... u's final contents come from elsewhere
    r[k % 4] += 1.0      # r, updated in place, is returned
    return r


def test_a_result_never_lives_in_a_written_argument_that_is_copied_back():
    """Random program seed 50102: the elementwise ``u * 1.0`` took the argument's dead
    buffer, and the closing ``u[...] = final`` overwrote the returned value with it."""
    check_writes(_copy_then_overwrite, [(np.array([0.0, 3.5, 0.25, 2.75]), 2.0, 3),
                                        (np.array([1.0, -1.0, 4.0, 8.0]), -0.5, 6)])


def _taken_twice(u, f, k):
    r = u * 1.0                   # may take u's buffer: u is overwritten below
    j = k if k > 0 else -k        # (a staged `if`: the loops around it do not fuse)
    np.copyto(u, np.abs(r))
    s = r + f                     # r is dead: s may take its buffer, which is u's
    return s, j


def test_a_result_never_takes_a_buffer_that_took_a_written_arguments():
    """Random program seed 103010: ``r = u * 1.0`` took ``u``'s dead buffer (allowed: r is
    no result), then ``r + f`` took ``r``'s, which was ``u``'s again, and ``u``'s closing
    write-back overwrote the returned ``s`` (the analysis sees buffers the graph makes; the
    emitter's own hand-overs are followed now, Emitter._argument_buffer)."""
    check_writes(_taken_twice, [(np.array([1.75, -3.75, 1.25, 3.25]), -1.0, np.int64(2)),
                                (np.array([3.25, -0.75, 0.75, -1.5]), 0.5, np.int64(-1))])


def test_reads_of_the_old_value_keep_it_and_views_see_the_update():
    check_writes(old_value_read_before_the_update, [(np.arange(3.0),), (np.ones(3),)])


def fill_and_return(out, n):
    fill(out, n)
    return out


def test_a_result_that_is_the_written_argument_is_a_copy():
    f = check_writes(fill_and_return, [(np.zeros(3), np.int64(3)), (np.ones(3), np.int64(1))])
    for backend in BACKENDS:
        out = np.zeros(3)
        r = f[backend](out, np.int64(3))
        assert not np.shares_memory(r.numpy(), out)


def returned_as_given(x):
    return x, x, x[1:]


def test_results_that_alias_an_argument_are_one_copy_each_on_every_backend():
    # session 55's probe: the interpreter returned the argument itself (cpu: a copy), and
    # cpu's `return x, x` gave two copies (Python: one object twice)
    for backend in BACKENDS:
        x = np.arange(3.0)
        a, b, c = (r.numpy() for r in ag.defun(returned_as_given, backend=backend)(x))
        assert not any(np.shares_memory(r, x) for r in (a, b, c))
        assert np.shares_memory(a, b) and not np.shares_memory(a, c)


def set_scalar(x, v):
    x[...] = v * 2.0


def test_a_zero_d_array_argument_is_written():
    check_writes(set_scalar, [(np.array(1.0), np.float64(4.0)), (np.array(2.0), np.float64(-1.0))])


def add_into(out, x):
    out += x


def write_first_of_two(bufs):
    bufs[0][0] = 5.0
    return bufs[1].sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_that_cannot_be_written_are_refused(backend):
    f = ag.defun(add_into, backend=backend)
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
    # (session 49: the items of a list argument were named 'bufs_0', 'bufs_1')
    g = ag.defun(write_first_of_two, backend=backend)
    with pytest.raises(ValueError, match=r"arguments 'bufs\[0\]' and 'bufs\[1\]' share "
                                         r"memory .* \(e.g. bufs\[1\].copy\(\)\)"):
        g([a, a])
    c = np.zeros(8)
    f(c[::2], c[1::2] + 1.0)                         # the same base, disjoint elements
    f(c[::2], c[1::2])
    np.testing.assert_array_equal(c, [1.0, 0, 1.0, 0, 1.0, 0, 1.0, 0])
    with pytest.raises(TypeError, match="argument 'out' is an ag.Tensor, which is immutable"):
        f(ag.constant(np.zeros(4)), np.ones(4))
    g = ag.defun(set_scalar, backend=backend)
    g(np.array(1.0), np.float64(2.0))
    # (a NumPy scalar is its own signature, session 43: the trace says it, NumPy's type)
    with pytest.raises(TypeError, match="'x' is a NumPy scalar argument, which does not "
                                        "support item assignment"):
        g(np.float64(1.0), np.float64(2.0))
    np.testing.assert_array_equal(ro, np.arange(4.0))


TABLE = np.zeros(3)


def write_then_read_the_global(x):
    x[0] = 1.0
    return TABLE.sum()                   # (a global: read as it was when traced)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_argument_sharing_memory_with_a_captured_array_it_writes_is_refused(backend):
    # session 55's probe: f(TABLE) wrote TABLE through x, then read TABLE as traced (0.0
    # where Python gives 1.0), on the first call
    f = ag.defun(write_then_read_the_global, backend=backend)
    for arg in (TABLE, TABLE[1:]):
        with pytest.raises(ValueError, match=(
                r"argument 'x' shares memory with 'TABLE', which write_then_read_the_global "
                r"captured when it was traced .* pass a copy, or pass 'TABLE' as an "
                r"argument")):
            f(arg)
    np.testing.assert_array_equal(TABLE, np.zeros(3))   # (refused before the call)
    assert float(f(np.zeros(3))) == 0.0


def test_the_fast_path_checks_written_arguments_on_every_call():
    f = ag.defun(add_into, backend="cpu")
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
    out[0] = 9.0
    return out[1:]                        # a view of the written argument


def test_the_interpreter_copies_results_that_share_a_written_argument():
    f = ag.defun(interpreter_view_result, backend="interpreter")
    out = np.arange(3.0)
    r = f(out)
    np.testing.assert_array_equal(out, [9.0, 1.0, 2.0])
    np.testing.assert_array_equal(r.numpy(), [1.0, 2.0])
    assert not np.shares_memory(r.numpy(), out)
