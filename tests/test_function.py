"""ag.defun / ag.function (SPEC §2): signatures, tracing, structures, methods, errors.

Functions are defined once at module level and shared between tests, so the suite
compiles few kernels. ``autograph=False`` throughout (AutoGraph is tested elsewhere).
"""
import importlib
import threading
import warnings

import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS, agree, assert_same

function_mod = importlib.import_module("autograph_lite.function")  # ag.function is defun
call_keys = importlib.import_module("autograph_lite.call_keys")


def _dispatcher(f, *args):
    return f.get_concrete_function(*args)._dispatcher


# --- tracing once per signature ---------------------------------------------------------

def scaled(x, scale=2.0, training=True):
    return x * scale + 1.0 if training else x - 1.0


SCALED = {b: ag.defun(scaled, autograph=False, backend=b) for b in BACKENDS}


@pytest.mark.parametrize("backend", BACKENDS)
def test_trace_once_per_signature(backend):
    f = ag.defun(scaled, autograph=False, backend=backend)
    x = np.arange(3.0)
    for _ in range(3):
        assert_same(f(x), scaled(x))
    assert f.experimental_get_tracing_count() == 1 and f.tracing_count == 1
    f(np.arange(3.0) + 5)  # same shape and dtype: no new trace
    assert f.tracing_count == 1
    f(np.arange(3, dtype=np.float32))  # new dtype
    assert f.tracing_count == 2
    f(np.ones((2, 2)))  # new rank
    assert f.tracing_count == 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_keywords_and_defaults_share_a_trace(backend):
    f = SCALED[backend]
    x = np.linspace(0, 1, 4)
    n = f.tracing_count
    assert_same(f(x), scaled(x))
    base = f.tracing_count
    assert base <= n + 1
    assert_same(f(x, training=True), scaled(x))
    assert_same(f(x, 2.0), scaled(x))
    assert_same(f(x=x, scale=2.0, training=True), scaled(x))
    assert f.tracing_count == base
    assert_same(f(x, training=False), scaled(x, training=False))
    assert_same(f(x, 3.0), scaled(x, 3.0))
    assert f.tracing_count == base + 2


def test_python_scalars_relax_after_a_second_value():
    # SPEC §2: a Python number is part of the signature until its argument has a second
    # value; from then on one trace takes it as a weak 0-d tensor
    f = ag.defun(scaled, autograph=False, backend="interpreter")
    x = np.arange(2.0)
    for s in (5.0, 6.0, 5.0, 6.0, 7.5, -0.0, 1e300):
        assert_same(f(x, s), scaled(x, s))
    assert f.tracing_count == 2
    assert f.get_concrete_function(x, 8.0).inputs[1].dtype == ag.float64
    # weak: a float32 array times a Python float stays float32, as in NumPy 2
    x32 = np.arange(3, dtype=np.float32)
    for s in (0.5, 0.25):
        assert f(x32, s).dtype == np.float32
    # numpy scalars are tensors: one trace for every value
    before = f.tracing_count
    for s in (np.float64(1.5), np.float64(2.5), np.float64(3.5)):
        assert_same(f(x, s), scaled(x, s))
    assert f.tracing_count == before + 1


def scaled_sum(x, c, k):
    s = x * c
    for i in range(k):
        s = s + c
    return s


def test_relaxed_python_scalars_agree_three_ways():
    # Python floats and ints relax to weak 0-d inputs from their second value on: on
    # every backend a float32 array plus a Python float stays float32 (NumPy 2), and the
    # int, a loop bound, is staged
    x32 = np.linspace(0.0, 1.0, 5).astype(np.float32)
    functions = {b: ag.defun(scaled_sum, backend=b) for b in BACKENDS}
    agree(scaled_sum, calls=[(x32, c, k) for c, k in ((0.5, 2), (0.25, 3), (-1.5, 0),
                                                       (3.0, 7))],
          functions=functions, exact=True)
    for f in functions.values():
        assert f.tracing_count == 2
        assert f.get_concrete_function(x32, 9.5, 4)._weak == (1, 2)
    # (a relaxed float times the counter of a staged Python range would be float64, not
    # Python's float32: that trace fails the loop's dtype check and the values stay exact)


def test_signed_zero_and_nan_are_different_signature_values():
    f = ag.defun(lambda x, c: x / c, autograph=False, backend="interpreter")
    one = np.float64(1.0)
    assert f(one, 0.0).numpy() == np.inf and f(one, -0.0).numpy() == -np.inf


def repeated(x, n, training=True):
    return sum([x] * n)       # n must be a Python int: its argument stays a signature value


def repeated_plain(x, n):
    return repeated(x, n)


def test_a_python_scalar_the_body_needs_as_a_python_value_stays_in_the_key():
    f = ag.defun(repeated, backend="interpreter")
    for n in (1, 2, 3, 2, 1):
        assert_same(f(np.float64(1.5), n), 1.5 * n)
    assert f.tracing_count == 3


def _compiles(f):
    """Numba compiles behind a Function: the signatures of its distinct dispatchers."""
    seen = {id(cf._dispatcher): cf._dispatcher for cf in f._cache.values()
            if cf._dispatcher is not None}
    return sum(len(d.signatures) for d in seen.values())


def test_new_sizes_share_the_kernel_then_relax():
    # SPEC §2: a function whose kernel reads sizes at run time shares the first shape's
    # kernel for new lengths (exact traces keep its loops fused, no new Numba compile) up to
    # EXACT_SHAPES shapes; then the sizes relax: one more trace and compile for every size
    f = ag.defun(lambda x: x * 3.0 - 1.0, autograph=False)
    a, b = np.arange(3.0), np.arange(7.0)
    assert_same(f(a), a * 3.0 - 1.0)
    assert_same(f(b), b * 3.0 - 1.0)
    assert f.tracing_count == 2 and _compiles(f) == 1
    assert f.get_concrete_function(a).source == f.get_concrete_function(b).source
    for n in (5, 9, 11, 13, 1000, 0, 1, 3):
        x = np.arange(float(n))
        assert_same(f(x), x * 3.0 - 1.0)
    assert f.tracing_count <= function_mod.EXACT_SHAPES + 1
    assert _compiles(f) <= 2
    relaxed = f.get_concrete_function(np.arange(17.0))
    assert relaxed.inputs[0].shape == (None,)
    assert f.get_concrete_function(np.arange(2.0)) is relaxed


def sum_by_index(x):
    s = 0.0
    for i in range(len(x)):   # with a static size, the loop bound is a constant
        s += x[i]
    return s


@pytest.mark.parametrize("lengths", [(40, 50, 60, 3, 1000), (1, 2, 3, 4, 0, 7)])
def test_sizes_read_as_numbers_relax_at_the_first_call(lengths):
    # the first trace read len(x) as a number (trace/sizes.py), so its kernel could serve
    # no other length: it is traced again at once with that size unknown, and only that
    # trace compiles (SPEC §2: two traces per rank and dtype; issue 13 (a): one compile
    # instead of two); a size-1 first call included
    f = ag.defun(sum_by_index)
    x = np.arange(float(lengths[0]))
    assert_same(f(x), x.sum())
    assert f.tracing_count == 2 and _compiles(f) == 1
    assert f.get_concrete_function(x).inputs[0].shape == (None,)
    for n in lengths[1:]:
        x = np.arange(float(n))
        assert_same(f(x), x.sum())
    assert f.tracing_count == 2
    assert _compiles(f) == 1


def by_position(x, y):
    return x * np.arange(x.shape[0]) + y   # a size read to make an array, bounding no loop


def test_a_size_read_only_to_make_arrays_keeps_the_exact_first_trace():
    # exact sizes let x * arange + y fuse (relaxed, x and y could differ in size): the
    # first call traces once, exactly; the second length relaxes as before
    f = ag.defun(by_position)
    x = np.ones(5)
    assert_same(f(x, x), by_position(x, x))
    assert f.tracing_count == 1
    assert f.get_concrete_function(x, x).inputs[0].shape == (5,)
    x = np.ones(7)
    assert_same(f(x, x), by_position(x, x))
    assert f.tracing_count == 2 and _compiles(f) == 2


def test_sizes_read_as_numbers_stay_exact_on_the_interpreter():
    # nothing to compile: the exact trace serves its shape, the second relaxes
    f = ag.defun(sum_by_index, backend="interpreter")
    for n in (3, 3, 5, 8):
        x = np.arange(float(n))
        assert_same(f(x), x.sum())
    assert f.tracing_count == 2


def rows_times_width(m):
    s = 0.0
    for row in m:                # reads m.shape[0] (4): that dimension relaxes
        s += row[0] * 2.0
    return s + m[0, 1]           # the width (3) is never read: it stays


def test_only_the_sizes_read_relax_at_the_first_call():
    f = ag.defun(rows_times_width)
    m = np.arange(12.0).reshape(4, 3)
    assert_same(f(m), rows_times_width(m))
    assert f.get_concrete_function(m).inputs[0].shape == (None, 3)
    m2 = np.arange(14.0).reshape(7, 2)
    assert_same(f(m2), rows_times_width(m2))
    assert f.tracing_count == 3 and _compiles(f) == 2  # the width differed: (None, None)


def test_a_relaxed_trace_that_fails_falls_back_to_the_exact_one():
    f = ag.defun(python_list_of_len)
    for n in (3, 3, 4):
        assert_same(f(np.ones(n)), np.ones(n))
    # 3 (exact; its relaxed trace failed, a list of len(x) items, and counts no trace),
    # then 4 (exact: the argument stays so)
    assert f.tracing_count == 2
    assert f.get_concrete_function(np.ones(3)).inputs[0].shape == (3,)


def test_only_the_differing_sizes_relax():
    f = ag.defun(lambda m: m.sum(axis=1), autograph=False, backend="interpreter")
    f(np.ones((2, 3)))
    f(np.ones((2, 5)))
    assert f.get_concrete_function(np.ones((2, 4))).inputs[0].shape == (2, None)
    assert f.tracing_count == 2
    assert_same(f(np.ones((3, 4))), np.ones((3, 4)).sum(axis=1))   # now (None, None)
    assert f.tracing_count == 3
    assert_same(f(np.ones((4, 4))), np.full(4, 4.0))
    assert f.tracing_count == 3


def python_list_of_len(x):
    out = [0.0] * len(x)     # len(x) must be a Python int
    return np.array(out) + x


def test_an_argument_whose_sizes_the_body_needs_stays_exact():
    f = ag.defun(python_list_of_len, backend="interpreter")
    for n in (3, 4, 5, 4):
        assert_same(f(np.ones(n)), np.ones(n))
    assert f.tracing_count == 3  # 3, 4 (the relaxed trace failed, retried exact), 5


def test_a_spec_trace_serves_the_calls_that_fit_it():
    f = ag.defun(lambda x: x * 2.0, autograph=False, backend="interpreter")
    f.get_concrete_function(ag.TensorSpec([3], ag.float32))
    assert_same(f(np.ones(3, np.float32)), np.full(3, 2.0, np.float32))
    assert f.tracing_count == 1
    f.get_concrete_function(ag.TensorSpec([None], ag.float64))
    assert f.tracing_count == 2
    for n in (2, 9):
        assert_same(f(np.ones(n)), np.full(n, 2.0))
    assert f.tracing_count == 2


def test_an_input_signature_trace_is_the_one_calls_use():
    # SPEC 2: get_concrete_function() of a Function with an input_signature and the calls
    # that fit it share one trace, in either order
    for concrete_first in (True, False):
        f = ag.defun(lambda x: x * 2.0, autograph=False, backend="interpreter",
                     input_signature=[ag.TensorSpec([None], ag.float64)])
        if concrete_first:
            cf = f.get_concrete_function()
        for n in (3, 5):
            assert_same(f(np.ones(n)), np.full(n, 2.0))
        if not concrete_first:
            cf = f.get_concrete_function()
        assert f.tracing_count == 1
        assert f.get_concrete_function(ag.TensorSpec([None], ag.float64)) is cf
    # a narrower spec is a trace of its own, which the calls do not use
    f.get_concrete_function(ag.TensorSpec([3], ag.float64))
    assert f.tracing_count == 2
    assert_same(f(np.ones(4)), np.full(4, 2.0))
    assert f.tracing_count == 2


def test_get_concrete_function():
    f = ag.defun(scaled, autograph=False, backend="interpreter")
    cf = f.get_concrete_function(ag.TensorSpec([None], ag.float32))
    assert [(s.shape, s.dtype) for s in cf.inputs] == [((None,), ag.float32)]
    assert [(s.shape, s.dtype) for s in cf.outputs] == [((None,), ag.float32)]
    text = str(cf.graph)
    assert "multiply" in text and "float32[?]" in text
    x = np.arange(5, dtype=np.float32)
    assert_same(cf(x), scaled(x))
    assert "def kernel(" in cf.source
    assert f.get_concrete_function(ag.TensorSpec([None], ag.float32)) is cf


# --- structures ---------------------------------------------------------------------------

def structured(d, pair, items):
    a, b = pair
    return {"sum": d["x"] + a, "rest": [b * 2.0, items[0] - items[1]]}, (d["y"],), None


def returns_none(x):
    return None


def returns_list(x):
    return [x, x + 1.0]


def returns_tuple(x):
    return x, -x


def returns_single(x):
    return x * x


def test_nested_arguments_and_results_three_ways():
    x = np.arange(3.0)
    d = {"x": x, "y": x.astype(np.float32)}
    r = agree(structured, d, (x, x + 1), [x, np.ones(3)], autograph=False)
    out = r["cpu"]
    assert isinstance(out, tuple) and isinstance(out[0], dict) and isinstance(out[0]["rest"], list)
    assert isinstance(out[1], tuple) and out[2] is None
    assert isinstance(out[0]["sum"], ag.Tensor)


@pytest.mark.parametrize("fn, kind", [(returns_none, type(None)), (returns_list, list),
                                      (returns_tuple, tuple), (returns_single, ag.Tensor)])
def test_result_structures(fn, kind):
    x = np.arange(4.0)
    r = agree(fn, x, autograph=False)
    for got in r.values():
        assert isinstance(got, kind)


def test_results_are_eager_tensors_and_not_aliases():
    f = ag.defun(lambda x: x, autograph=False)
    x = np.arange(3.0)
    y = f(x)
    assert isinstance(y, ag.Tensor)
    x[0] = 100.0
    assert y.numpy()[0] == 0.0


# --- methods and closures -------------------------------------------------------------------

TRACES = []


class Scaler:
    def __init__(self, k):
        self.k = k
        self.calls = 0

    @ag.defun(autograph=False, backend="interpreter")
    def apply(self, x):
        TRACES.append(self)  # (a global: a side effect of the trace, SPEC 2)
        self.calls += 1      # (the object's state: changed on every call, held_state.py)
        return x * self.k


def test_methods_are_bound_per_instance():
    a, b = Scaler(2.0), Scaler(3.0)
    x = np.arange(3.0)
    assert_same(a.apply(x), x * 2.0)
    assert_same(b.apply(x), x * 3.0)
    assert_same(a.apply(x), x * 2.0)
    assert a.calls == 2 and b.calls == 1
    # (a's first trace found `calls` a number it changes: it was undone, its append to the
    # global too, and traced again carrying `calls` as an input)
    assert TRACES.count(a) == 1 and TRACES.count(b) == 1
    assert a.apply is a.apply
    assert a.apply.tracing_count == 1
    assert isinstance(Scaler.apply, ag.Function)


class Tag:
    """Equal and of one hash whatever its array (a dataclass with unsafe_hash does this)."""

    def __init__(self, w):
        self.w = w

    def __eq__(self, other):
        return isinstance(other, Tag)

    def __hash__(self):
        return 0

    @ag.defun(backend="interpreter")
    def scale(self, k):
        self.w = self.w * k
        return self.w


def test_equal_instances_are_each_their_own_self():
    # before: bound Functions were kept by instance in a WeakKeyDictionary, which compares:
    # b.scale was a's, and scaled a's array
    a, b = Tag(np.ones(2)), Tag(np.full(2, 5.0))
    a.scale(2.0)
    assert_same(b.scale(2.0), np.full(2, 10.0))
    assert_same(a.w, np.full(2, 2.0))
    assert a.scale is a.scale and a.scale is not b.scale


def test_closure_over_eager_tensor_three_ways():
    w = ag.constant([1.0, 2.0, 3.0])
    bias = np.float32(0.5)

    def f(x):
        return x * w + bias
    agree(f, np.ones(3), autograph=False)


def test_decorator_forms():
    x = np.arange(3.0)

    @ag.function(autograph=False, backend="interpreter")
    def f1(x):
        return x + 1.0

    @ag.defun
    def f2(x):
        return x + 1.0
    f3 = ag.defun(lambda x: x + 1.0, autograph=False, backend="interpreter")
    assert isinstance(f2, ag.Function)
    assert_same(f1(x), x + 1.0)
    assert_same(f3(x), x + 1.0)
    assert f1.__name__ == "f1"


# --- input_signature --------------------------------------------------------------------------

def doubled(x):
    return x * 2.0


DOUBLED = {b: ag.defun(doubled, input_signature=[ag.TensorSpec([None], ag.float64)],
                       autograph=False, backend=b) for b in BACKENDS}


@pytest.mark.parametrize("backend", BACKENDS)
def test_input_signature_one_trace_for_many_lengths(backend):
    f = DOUBLED[backend]
    for n in (1, 3, 8, 0):
        x = np.arange(float(n))
        assert_same(f(x), doubled(x))
    assert_same(f([1.0, 2.0]), doubled(np.array([1.0, 2.0])))  # a list fits the spec
    assert f.tracing_count == 1
    cf = f.get_concrete_function()
    assert cf.inputs[0].shape == (None,)


@pytest.mark.parametrize("bad, what", [
    (np.arange(3, dtype=np.float32), "float32"),
    (np.ones((2, 2)), "(2, 2)"),
    ("abc", "'abc'"),
])
def test_input_signature_mismatch_is_a_value_error(bad, what):
    with pytest.raises(ValueError) as e:
        DOUBLED["interpreter"](bad)
    msg = str(e.value)
    assert "'x'" in msg and "TensorSpec" in msg and "None" in msg and what in msg


def test_input_signature_type_errors():
    with pytest.raises(TypeError, match="TensorSpec"):
        ag.defun(doubled, input_signature=[ag.float32])
    with pytest.raises(TypeError, match="TensorSpec"):
        ag.defun(doubled, input_signature=ag.TensorSpec([None]))
    with pytest.raises(TypeError, match="kwargs"):
        ag.defun(lambda x, **kw: x, input_signature=[ag.TensorSpec([None])])
    with pytest.raises(TypeError):
        ag.defun(doubled, input_signature=[ag.TensorSpec([None])] * 2)
    with pytest.raises(TypeError, match="argument"):
        DOUBLED["interpreter"](np.ones(2), np.ones(2))


def scaled_by_default(x, k=2, flag=True):
    return x * k if flag else x


@pytest.mark.parametrize("backend", BACKENDS)
def test_input_signature_leaves_the_parameters_after_it_their_defaults(backend):
    # (a call with the signed argument alone was "takes 1 argument(s), got 3")
    f = ag.defun(scaled_by_default, input_signature=[ag.TensorSpec([None], ag.float64)],
                 backend=backend)
    for n in (3, 5):
        assert_same(f(np.arange(float(n))), scaled_by_default(np.arange(float(n))))
    assert f.tracing_count == 1
    with pytest.raises(TypeError, match=r"got 3 \(the parameters after them, k, flag, may "
                                        r"only keep their defaults\)"):
        f(np.ones(2), 5)


def test_input_signature_any_shape_is_one_trace_per_rank():
    f = ag.defun(doubled, input_signature=[ag.TensorSpec(None, ag.float64)], autograph=False,
                 backend="interpreter")
    f(np.ones(2)), f(np.ones(5)), f(np.ones((2, 3))), f(np.ones((4, 1)))
    assert f.tracing_count == 2


# --- errors and Python semantics ---------------------------------------------------------------

def test_unhashable_python_argument_names_it():
    f = SCALED["interpreter"]
    with pytest.raises(TypeError, match="'scale'.*set"):
        f(np.ones(2), {1.0, 2.0})

    class Unhashable:  # (a user's object: keyed by its state, held_state.py; was refused)
        __hash__ = None
    f(np.ones(2), training=Unhashable())
    with pytest.raises(TypeError, match="'training'.*list"):
        f(np.ones(2), training=[{1.0}])


SIDE_EFFECTS = []


def with_side_effect(x, tag):
    SIDE_EFFECTS.append(tag)
    return x + 1.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_side_effects_happen_at_trace_time_only(backend):
    f = ag.defun(with_side_effect, autograph=False, backend=backend)
    SIDE_EFFECTS.clear()
    x = np.arange(3.0)
    for _ in range(3):
        assert_same(f(x, "a"), x + 1.0)
    assert SIDE_EFFECTS == ["a"]
    f(x, "b"), f(x, "b")
    assert SIDE_EFFECTS == ["a", "b"]
    f(np.arange(4.0), "a")
    assert SIDE_EFFECTS == ["a", "b", "a"]


def test_run_functions_eagerly():
    f = ag.defun(with_side_effect, autograph=False, backend="interpreter")
    SIDE_EFFECTS.clear()
    x = np.arange(3.0)
    f(x, "t")
    try:
        ag.run_functions_eagerly(True)
        assert ag.functions_run_eagerly()
        for _ in range(2):
            assert_same(np.asarray(f(x, "e")), x + 1.0)
        assert SIDE_EFFECTS == ["t", "e", "e"]
        assert f.tracing_count == 1
    finally:
        ag.run_functions_eagerly(False)
    assert not ag.functions_run_eagerly()
    f(x, "t")
    assert SIDE_EFFECTS == ["t", "e", "e"]


# with defaults and without: both have a generated fast __call__, a frame to skip
@pytest.mark.parametrize("fn", [repeated, repeated_plain])
def test_retracing_warning_names_the_argument(fn):
    f = ag.defun(fn, backend="interpreter")
    x = np.ones(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(5):
            f(x, i)
        assert not [w for w in caught if issubclass(w.category, UserWarning)]
        for i in range(5, 10):
            f(x, i)
    ws = [w for w in caught if issubclass(w.category, UserWarning)]
    assert len(ws) == 1, [str(w.message) for w in ws]
    assert "'n'" in str(ws[0].message)
    assert ws[0].filename == __file__  # points at the user's call


def test_no_retracing_warning_for_new_shapes():
    f = ag.defun(doubled, autograph=False, backend="interpreter")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(8):
            assert_same(f(np.ones(n)), np.ones(n) * 2.0)
    assert [str(w.message) for w in caught] == []


def test_compile_notice_on_stderr(monkeypatch, capsys):
    monkeypatch.delenv("AUTOGRAPH_LITE_QUIET", raising=False)
    monkeypatch.setattr(call_keys, "COMPILE_NOTICE_SECONDS", -1.0)
    f = ag.defun(doubled, autograph=False)
    f(np.ones(2))
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if "doubled" in ln]
    assert len(lines) == 1 and "float64" in lines[0] and " s" in lines[0], err
    f(np.ones(2))
    assert "doubled" not in capsys.readouterr().err  # not the first call: no notice
    monkeypatch.setenv("AUTOGRAPH_LITE_QUIET", "1")
    ag.defun(doubled, autograph=False)(np.ones(2))
    assert capsys.readouterr().err == ""


def test_compile_notice_threshold(capsys, monkeypatch):
    monkeypatch.delenv("AUTOGRAPH_LITE_QUIET", raising=False)
    call_keys.compile_notice("fast", "(float64[?])", 0.2)
    assert capsys.readouterr().err == ""
    call_keys.compile_notice("slow", "(float64[?])", 2.5)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "slow(float64[?])" in err and "2.5 s" in err


@pytest.mark.parametrize("backend", BACKENDS)
def test_threads_racing_on_the_first_call(backend):
    calls = []

    def body(x):
        calls.append(1)
        return x * 2.0 + 3.0
    f = ag.defun(body, autograph=False, backend=backend)
    xs = [np.arange(5.0) + i for i in range(8)]
    results, errors = [None] * 8, []
    barrier = threading.Barrier(8)

    def worker(i):
        try:
            barrier.wait()
            results[i] = f(xs[i])
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert f.tracing_count == 1 and len(calls) == 1
    for x, r in zip(xs, results):
        assert_same(r, x * 2.0 + 3.0)


def test_backend_names_are_checked_when_the_function_is_made():
    assert ag.defun(scaled, backend="cuda").backend == "cuda"  # (tests/cuda/ runs it)
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'interpreter', got 'gpu'"):
        ag.defun(scaled, backend="gpu")


def star_args(a, *xs, scale=2.0, **kw):
    return a + sum(xs) * scale + kw.get("shift", 0.0), len(xs)


def test_star_args_are_bound_one_per_argument():
    """*args items were iterated as if the first one were the tuple: f(x) with a vector x
    got xs = (x[0], x[1], ...) and the others were dropped (a silent wrong answer)."""
    agree(star_args, np.ones(2), np.arange(2.0), np.float64(2.0), autograph=False)
    agree(star_args, np.float64(1.0), np.float64(5.0), autograph=False)
    agree(star_args, np.ones(3), autograph=False)
    for backend in BACKENDS:
        f = ag.defun(star_args, autograph=False, backend=backend)
        x = np.arange(3.0)
        assert_same(f(x, x, scale=3.0, shift=np.float64(1.0)),
                    star_args(x, x, scale=3.0, shift=np.float64(1.0)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_of_dtypes_no_tensor_has_are_refused_naming_them(backend):
    # before: string keys half-worked (np.unique on the interpreter; an AttributeError
    # 'numpy has no str32' on cpu), a big-endian array failed in Numba's typing
    f = ag.defun(lambda keys: np.unique(keys), backend=backend)
    with pytest.raises(TypeError, match="argument 'keys' has dtype <U1 is not supported"):
        f(np.array(["b", "a", "b"]))
    with pytest.raises(TypeError, match=r"dtype >f8, in the other byte order; pass it as "
                                        r"x.astype\('float64'\)"):
        f(np.arange(3.0).astype(">f8"))


def _bump_first(x):
    x[0] += 1.0
    return x.sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_memory_mapped_array_is_an_array_and_other_subclasses_are_named(backend, tmp_path):
    # (a memmap was refused as "an unhashable memmap"; np.matrix with the same words)
    path = str(tmp_path / "a.npy")
    np.save(path, np.arange(4.0))
    f = ag.defun(_bump_first, backend=backend)
    mapped = np.load(path, mmap_mode="r+")
    assert float(f(mapped)) == 7.0
    mapped.flush()
    np.testing.assert_array_equal(np.load(path), [1.0, 1.0, 2.0, 3.0])   # written through
    with pytest.raises(TypeError, match=r"argument 'x' is a numpy.matrix, a subclass of "
                                        r"np.ndarray .* pass np.asarray"):
        f(np.matrix([[1.0, 2.0]]))


def _kind_of(x, y):
    if isinstance(y, np.ndarray):
        return x + y, type(y).__name__
    return x * y, type(y).__name__


def test_a_numpy_scalar_and_a_0d_array_are_different_signatures():
    # (they shared one key: the first call's type test held for the other kind)
    for order in ((np.float64(2.0), np.array(2.0)), (np.array(2.0), np.float64(2.0))):
        for backend in BACKENDS:
            f = ag.defun(_kind_of, backend=backend)
            for y in order:
                got, want = f(np.arange(3.0), y), _kind_of(np.arange(3.0), y)
                assert_same(got[0], want[0])
                assert got[1] == want[1]


TABLE = np.arange(4.0)


def returns_constants(x):
    buf = np.zeros(3)
    w = np.ones(2)
    if x.sum() > 0:
        w = w * 2
    return buf, w, TABLE[1:], {"z": np.full(2, 3.0)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_result_written_by_the_caller_is_not_seen_by_the_next_call(backend):
    """A result is the caller's own array: writing into it changes no later call's result
    (session 53's probe: the interpreter returned the array a constant of the graph holds,
    so `r = f(x); r += 1` made every later call return the written values; the cpu
    kernel's results were its own). A global returned stays as it was."""
    f = ag.defun(returns_constants, backend=backend)
    x = np.ones(2)
    for _ in range(3):
        buf, w, tail, d = f(-x)
        assert_same(buf, np.zeros(3))
        assert_same(w, np.ones(2))
        assert_same(tail, np.arange(1.0, 4.0))
        assert_same(d["z"], np.full(2, 3.0))
        for a in (buf, w, tail, d["z"]):
            np.asarray(a)[...] += 1
    assert_same(TABLE, np.arange(4.0))
