"""The call fast path (Function's generated per-arity ``__call__``, ISSUE 2 item 7).

After one call through the slow path, a Function keeps (type, shape, dtype, strides) of
its arguments -> (kernel entry point, result wrapper). These tests pin down that the
shortcut is taken, and that it never gives a different answer from the slow path: other
layouts, NumPy scalars, read-only arrays, nested traces, eager mode, kernel errors.
Functions are module-level and shared so the suite compiles few kernels.
"""
import importlib

import numpy as np
import pytest

import autograph_lite as ag

function_mod = importlib.import_module("autograph_lite.function")  # ag.function is defun
call_guards = importlib.import_module("autograph_lite.call_guards")
from differential import BACKENDS, assert_same


def axpy(a, x):
    return a * x + 1.0


AXPY = ag.defun(axpy, autograph=False)


def _fast_entries(f):
    return dict(f._fast)


def test_second_call_takes_the_fast_path_and_agrees():
    x = np.arange(6.0)
    a = np.array(3.0)
    assert_same(AXPY(a, x), axpy(a, x))
    key = function_mod._fast_key((a, x))
    call, finish, _ = _fast_entries(AXPY)[key]
    # the entry is the compiled overload itself, not the dispatcher
    assert call is not AXPY.get_concrete_function(a, x)._dispatcher
    n = AXPY.tracing_count
    for k in range(3):
        assert_same(AXPY(a, x + k), axpy(a, x + k))
    assert AXPY.tracing_count == n


@pytest.mark.parametrize("make", [
    lambda base: base[::2],                      # strided 'A' layout
    lambda base: np.asfortranarray(base.reshape(2, 6)),  # F order 2-D
    lambda base: base[::-2],                     # negative strides
])
def test_other_layouts_of_the_same_shape_get_their_own_entry(make):
    base = np.arange(12.0)
    odd = make(base)
    plain = np.ascontiguousarray(odd)
    a = np.array(2.0)
    assert_same(AXPY(a, plain), axpy(a, plain))   # installs the C-contiguous entry
    assert_same(AXPY(a, odd), axpy(a, odd))       # same shape and dtype, other strides
    assert_same(AXPY(a, plain), axpy(a, plain))
    assert function_mod._fast_key((a, odd)) != function_mod._fast_key((a, plain))


def test_numpy_scalar_and_0d_array_are_not_confused():
    x = np.arange(3.0)
    for a in (np.array(2.0), np.float64(2.0), np.array(2.0), np.float64(5.0)):
        out = AXPY(a, x)
        assert_same(out, axpy(a, x))
        assert isinstance(out, ag.Tensor)


def test_read_only_arrays_are_fine_and_stay_unwritten():
    x = np.arange(4.0)
    x.setflags(write=False)
    a = np.array(1.5)
    a.setflags(write=False)
    for _ in range(2):
        assert_same(AXPY(a, x), axpy(a, x))
    w = np.arange(4.0)
    b = np.array(1.5)
    assert_same(AXPY(b, w), axpy(1.5, w))
    assert_same(AXPY(a, x), axpy(a, x))
    for arg, want in ((x, np.arange(4.0)), (a, np.array(1.5)), (w, np.arange(4.0)),
                      (b, np.array(1.5))):
        assert_same(arg, want, what="an argument after the calls")
    assert not x.flags.writeable and not a.flags.writeable


def test_wrong_arity_and_keywords_still_take_the_checked_path():
    x, a = np.arange(3.0), np.array(2.0)
    AXPY(a, x)
    with pytest.raises(TypeError, match="axpy"):
        AXPY(a)
    with pytest.raises(TypeError, match="axpy"):
        AXPY(a, x, x)
    assert_same(AXPY(a, x=x), axpy(a, x))
    assert_same(AXPY(x=x, a=a), axpy(a, x))


def test_python_values_and_tensors_take_the_fast_path_too():
    # SPEC §2: Python scalars (signature values, or relaxed ones the entry passes on) and
    # ag.Tensors (their NumPy values) go straight to the kernel after one slow call
    x = np.arange(3.0)
    for a in (2.0, ag.constant(2.0), 3, True):
        n = AXPY.tracing_count
        for _ in range(3):
            assert_same(AXPY(a, x), axpy(a if not isinstance(a, ag.Tensor) else 2.0, x))
        assert function_mod._fast_key((a, x)) in AXPY._fast
        assert AXPY.tracing_count <= n + 2  # (x's new size may relax AXPY's sizes once)
    assert function_mod._fast_key((np.float64(2.0), x)) != function_mod._fast_key((2.0, x))
    # the keys the slow path cannot trust: 0.0 equals -0.0, nan never matches, unhashables
    for a in (0.0, -0.0, float("nan"), [1.0]):
        assert function_mod._fast_key((a, x)) is None
    assert AXPY(-0.0, np.array([1.0])).numpy()[0] == 1.0
    assert np.signbit(ag.defun(lambda a, v: a * v, autograph=False)(-0.0, np.ones(1)).numpy()[0])


def _shout(x):
    ag.print("inner", x)
    return x * 2.0


SHOUT = ag.defun(_shout, autograph=False)
CONST = np.array([1.0, 2.0])


def _outer(x):
    return SHOUT(CONST) + x


OUTER = ag.defun(_outer, autograph=False)


def test_a_function_called_inside_a_trace_is_inlined_not_run(capfd):
    SHOUT(CONST)  # installs SHOUT's fast entry for CONST's type
    capfd.readouterr()
    x = np.zeros(2)
    for _ in range(3):
        assert_same(OUTER(x), CONST * 2.0)
    out = capfd.readouterr().out
    # staged into OUTER's graph: prints on every call of OUTER, never at trace time only
    assert out.count("inner") == 3, out


def test_run_functions_eagerly_bypasses_the_fast_path():
    calls = []

    def body(x):
        calls.append(1)
        return x + 1.0
    f = ag.defun(body, autograph=False)
    x = np.arange(2.0)
    f(x), f(x)
    assert len(calls) == 1  # traced once, then compiled calls
    ag.run_functions_eagerly(True)
    try:
        assert_same(f(x), x + 1.0)
        assert len(calls) == 2
    finally:
        ag.run_functions_eagerly(False)
    f(x)
    assert len(calls) == 2


def _pick(x, i):
    return x[i] * 1.0  # the-fast-read


PICK = ag.defun(_pick, autograph=False)


def test_kernel_errors_on_the_fast_path_name_the_users_line():
    x = np.zeros(4)
    assert PICK(x, np.int64(1)).numpy() == 0.0
    assert PICK(x, np.int64(2)).numpy() == 0.0  # fast path now
    with pytest.raises(IndexError, match="test_fast_path.py"):
        PICK(x, np.int64(7))
    assert PICK(x, np.int64(3)).numpy() == 0.0


def test_many_layouts_keep_the_table_bounded():
    base = np.arange(4000.0)
    a = np.array(1.0)
    for step in range(1, function_mod.FAST_TABLE_LIMIT + 10):
        v = base[: 3 * step: step]
        assert_same(AXPY(a, v), axpy(a, v))
    assert len(AXPY._fast) <= function_mod.FAST_TABLE_LIMIT


def _with_default(a, x, shift=1.0):
    return axpy(a, x) + shift


@pytest.mark.parametrize("fn", [axpy, _with_default])
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_agrees_with_python_on_the_fast_path(backend, fn):
    f = ag.defun(fn, autograph=False, backend=backend)
    a, x = np.array(0.5), np.linspace(-1.0, 1.0, 5)
    assert_same(f(a, x), fn(a, x))  # checked path: traces, runs, fills the table
    assert function_mod._fast_key((a, x)) in f._fast
    for k in range(3):
        assert_same(f(a, x * k), fn(a, x * k))  # fast path
    assert f.tracing_count == 1


def scaled(x, scale=2.0, shift=None):
    return x * scale + (0.0 if shift is None else shift)


SCALED = ag.defun(scaled, autograph=False)


def test_defaults_that_are_python_scalars_keep_the_fast_path():
    x = np.arange(4.0)
    assert_same(SCALED(x), scaled(x))            # checked path, fills the table
    assert function_mod._fast_key((x,)) in SCALED._fast
    n = SCALED.tracing_count
    assert_same(SCALED(x + 1), scaled(x + 1))    # fast path: defaults are trace constants
    assert SCALED.tracing_count == n
    # passing a default explicitly (Python value, NumPy scalar or keyword) is another
    # signature and goes through the checked path: never the kernel of the defaults
    assert_same(SCALED(x, 3.0), scaled(x, 3.0))
    assert_same(SCALED(x, np.float64(0.5)), scaled(x, 0.5))
    assert_same(SCALED(x, np.float64(0.5)), scaled(x, 0.5))
    assert_same(SCALED(x, shift=1.0), scaled(x, shift=1.0))
    assert_same(SCALED(x, 2.0, np.float64(1.0)), scaled(x, 2.0, 1.0))
    assert_same(SCALED(x), scaled(x))
    with pytest.raises(TypeError, match="scaled"):
        SCALED()


def test_array_or_mutable_defaults_take_the_checked_path():
    def with_array(x, w=np.ones(3)):
        return x * w

    def with_list(x, ks=[1.0, 2.0]):  # noqa: B006 - a mutable default on purpose
        return x * ks[0] + ks[1]

    for fn in (with_array, with_list):
        f = ag.defun(fn, autograph=False)
        assert f._fast is None
        x = np.arange(3.0)
        assert_same(f(x), fn(x))
        assert_same(f(x), fn(x))



def test_keyword_arguments_take_the_fast_path():
    x = np.arange(3.0)
    a = np.array(2.0)
    assert_same(AXPY(a, x), axpy(a, x))
    calls = []
    slow = AXPY._call_slow
    AXPY._call_slow = lambda args, kwargs: calls.append(kwargs) or slow(args, kwargs)
    try:
        assert_same(AXPY(a=a, x=x), axpy(a, x))
        assert_same(AXPY(a, x=x), axpy(a, x))
        assert calls == []  # both found the entry of AXPY(a, x)
        with pytest.raises(TypeError, match="multiple values for argument 'a'"):
            AXPY(a, a=a)
        with pytest.raises(TypeError, match=r"axpy\(\)"):
            AXPY(a, y=x)
    finally:
        del AXPY._call_slow


# the inline guards (call_guards.py): a Function's first entries as type checks in its own
# generated __call__, which a relaxed trace's arguments of any size or value pass


def _slow_calls(f):
    """Counts the calls that reach the checked path (patched on the instance)."""
    calls = []
    slow = f._call_slow
    f._call_slow = lambda args, kwargs: calls.append(args) or slow(args, kwargs)
    return calls


def _length_sum(x):
    s = 0.0
    for i in range(len(x)):  # a size read as a Python int: the first trace bakes it
        s += x[i] * x[i]
    return s


def test_new_lengths_of_a_relaxed_array_take_one_guard():
    f = ag.defun(_length_sum)
    for n in (3, 4):  # the exact trace, then the relaxed one (SPEC §2)
        x = np.linspace(0.0, 1.0, n)
        assert_same(f(x), _length_sum(x))
    assert f.tracing_count == 2
    calls = _slow_calls(f)
    entries = len(f._fast)
    for n in (5, 17, 100, 1, 2, 0):
        x = np.linspace(-1.0, 1.0, n)
        assert_same(f(x), _length_sum(x))
    assert calls == [] and len(f._fast) == entries and f.tracing_count == 2
    # the guard holds the layout its overload was compiled for: a strided view is not
    # read as a contiguous array (same dtype and rank, other memory layout)
    base = np.arange(40.0)
    for view in (base[::2], base[::-3], base[5:6][::1], base[:10:7]):
        assert_same(f(view), _length_sum(view))
    assert len(calls) >= 1  # (the strided views took the checked path, then their entry)
    # a 0-stride-free length-1 view is C-contiguous to NumPy (and Numba) whatever its
    # stride: it may share the contiguous entry
    one = base[3:4:5]
    assert_same(f(one), _length_sum(one))
    # other dtypes and ranks miss the guard and trace their own kernels
    assert_same(f(np.arange(4, dtype=np.int32)), _length_sum(np.arange(4, dtype=np.int32)))


def _scale(x, c):
    return x * c + 1.0


SCALE = ag.defun(_scale, autograph=False)


def test_new_values_of_a_relaxed_python_scalar_take_one_guard():
    x = np.linspace(0.0, 1.0, 8)
    for c in (0.3, 0.4):
        assert_same(SCALE(x, c), _scale(x, c))
    calls = _slow_calls(SCALE)
    for c in (0.5, 1e300, -2.5, float("inf"), 0.0, -0.0, float("nan")):
        assert_same(SCALE(x, c), _scale(x, c))
    assert calls == []  # relaxed: every float, 0.0 and nan included, is the weak input
    ints = [3, 4, 5, -7]
    for k in ints:
        assert_same(SCALE(x, k), _scale(x, k))
    before = len(calls)
    assert_same(SCALE(x, 6), _scale(x, 6))
    assert len(calls) == before  # the relaxed int's guard
    big = 2 ** 70  # beyond int64: the weak tensor cannot hold it; NumPy gives floats
    assert_same(SCALE(x, big), x * float(big) + 1.0)
    assert len(calls) == before + 1


def test_zero_d_arrays_and_numpy_scalars_share_one_overload():
    f = ag.defun(lambda a, b: a * b + 1.0, autograph=False)
    args = [(np.array(1.5), np.array(2.0)), (np.float64(1.5), np.float64(2.0)),
            (np.array(0.5), np.float64(3.0))]
    for a, b in args + args:
        out = f(a, b)
        assert_same(out, np.float64(a) * np.float64(b) + 1.0)
        assert isinstance(out, ag.Tensor)
    cf = f.get_concrete_function(np.array(1.5), np.array(2.0))
    assert len(cf._dispatcher.signatures) == 1  # (float64, float64): no array overload
    want = [(np.array(1.5), np.array(2.0)), (np.float64(1.5), np.float64(2.0)),
            (np.array(0.5), np.float64(3.0))]
    for got, kept in zip(args, want):  # the arguments were not touched
        for a, w in zip(got, kept):
            assert type(a) is type(w)
            assert_same(a, w, what="an argument after the calls", exact=True)


def test_the_guards_are_bounded_and_every_kind_agrees():
    f = ag.defun(_scale, autograph=False)
    x = np.linspace(0.0, 1.0, 4)
    kinds = [x, x.astype(np.float32), np.float32(2.0), ag.constant(x), np.array(3.0),
             ag.constant(2.5), x.reshape(2, 2), x[::2], True, 7]
    for a in kinds + kinds:
        want = _scale(a.numpy() if isinstance(a, ag.Tensor) else a, 2.0)
        assert_same(f(a, 2.0), want)
    assert len(f._guards) == call_guards.INLINE_ENTRIES


def _pick_relaxed(x, i):
    return x[i]  # the-guarded-read


def test_kernel_errors_on_a_guarded_call_name_the_users_line():
    f = ag.defun(_pick_relaxed, autograph=False)
    for n in range(3, 3 + function_mod.EXACT_SHAPES + 2):  # (exact shapes, then relaxed)
        assert_same(f(np.zeros(n), np.int64(1)), np.float64(0.0))
    calls = _slow_calls(f)
    with pytest.raises(IndexError, match="test_fast_path.py") as e:
        f(np.zeros(20), np.int64(29))
    assert "index 29 is out of bounds for axis 0 with size 20" in str(e.value)
    assert calls == []
