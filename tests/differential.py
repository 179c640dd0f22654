"""The suite's one differential check: the plain Python run is the oracle, and
``ag.defun`` on every backend must do exactly what it did (SPEC §2, §3, §6).

For each call, every side (the oracle, ``backend="interpreter"``, ``backend="cpu"``, or the
AutoGraph-converted function) runs on its own fresh copy of the inputs, and must agree with
the oracle in
- the result: structure (tuple/list/dict/None), shapes, dtypes and values;
- the exception, if the oracle raised one: the same type;
- what it printed;
- every argument afterwards: an argument the oracle left unchanged stays unchanged, one it
  wrote into holds what the oracle wrote (SPEC §6: "a call changes the caller's data
  exactly as the plain Python run would").

Each Function is called at least twice: a test that gives one argument tuple gets a second
call on varied values (every array's elements rolled by one: the same values, hence the
same sizes and valid indices, in other places), so state that leaks from one call into
the next (a constant buffer written in place, a loop buffer reused without its reset) shows.

``assert_same`` is the comparison the check uses, also for tests that compare one result
with a value computed by hand.
"""
import contextlib
import copy
import ctypes
import dataclasses
import io
import os

import numpy as np

import autograph_lite as ag
from autograph_lite import held_state

# the backends every differential test compares with the oracle; AG_TEST_BACKENDS widens
# it for a long local run (AG_TEST_BACKENDS=interpreter,cpu,cuda: every test on the cuda
# simulator too; tests/cuda holds the fixed sample CI runs there)
BACKENDS = tuple(os.environ.get("AG_TEST_BACKENDS", "interpreter,cpu").split(","))


def shared_functions(fn):
    """One ``ag.defun`` of ``fn`` per backend, for ``agree(..., functions=)``: made once at
    import, its kernels are shared by a test's examples (sizes relax, so new shapes of a
    rank and dtype compile nothing new)."""
    return {b: ag.defun(fn, backend=b) for b in BACKENDS}


# --- fresh copies ------------------------------------------------------------------------

def _root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


class _Copier:
    """Deep copies whose arrays keep their layout and their sharing: strides, offset and
    the read-only flag stay, one object stays one object, and views of one buffer become
    views of one new buffer (so `f(a, a)` and `f(a, a[1:])` stay what they were)."""

    def __init__(self):
        self.memo = {}
        self.buffers = {}

    def __call__(self, tree):
        if id(tree) in self.memo:
            return self.memo[id(tree)]
        if isinstance(tree, np.ndarray):
            out = self._array(tree)
        elif isinstance(tree, ag.Tensor) and hasattr(tree, "numpy"):
            out = ag.constant(self._array(tree.numpy()))
        elif isinstance(tree, tuple) and not hasattr(tree, "_fields"):
            out = tuple(self(v) for v in tree)
        elif isinstance(tree, list):
            out = [self(v) for v in tree]
        elif isinstance(tree, dict):
            out = {k: self(v) for k, v in tree.items()}
        elif held_state.is_holder(tree):  # an object of the user's class: its own copy
            out = self.memo[id(tree)] = copy.copy(tree)
            for k, v in held_state.attributes(tree):
                object.__setattr__(out, k, self(v))
        else:
            return tree  # immutable (numbers, NumPy scalars, strings, None), a function
        self.memo[id(tree)] = out
        return out

    def _array(self, a):
        if a.dtype.hasobject or a.size == 0:
            out = a.copy(order="K")
        else:
            root = _root(a)
            lo, hi = np.lib.array_utils.byte_bounds(root)
            if id(root) not in self.buffers:
                raw = bytearray(ctypes.string_at(lo, hi - lo))
                self.buffers[id(root)] = (root, np.frombuffer(raw, np.uint8))
            buf = self.buffers[id(root)][1]
            out = np.ndarray(a.shape, a.dtype, buffer=buf, offset=a.ctypes.data - lo,
                             strides=a.strides)
        out.flags.writeable = a.flags.writeable
        return out


def fresh(tree):
    """A copy of `tree` (arguments) for one side of the check; see ``_Copier``."""
    return _Copier()(tree)


def varied(tree):
    """The same arguments with every array's elements rolled by one (in its own layout):
    the same sizes and set of values, in other places. Scalars stay as they are."""
    out = fresh(tree)
    for a in _leaves(out):
        if isinstance(a, np.ndarray) and a.size > 1 and a.flags.writeable:
            a[...] = np.roll(a.ravel(), 1).reshape(a.shape)
    return out


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        for v in tree:
            yield from _leaves(v)
    elif isinstance(tree, dict):
        for v in tree.values():
            yield from _leaves(v)
    else:
        yield tree


# --- comparing ---------------------------------------------------------------------------

def _np(x):
    return x.numpy() if isinstance(x, ag.Tensor) else x


def _is_numeric(x):
    return isinstance(x, (np.ndarray, np.generic, ag.Tensor, bool, int, float, complex))


def assert_same(got, want, rtol=1e-6, atol=1e-9, what="result", exact=False, python=False,
                _seen=None):
    """`got` equals `want` in structure, shape, dtype and value.

    A Python number in `want` stands for the NumPy scalar it converts to (int -> int64,
    float -> float64), which is what a staged literal becomes (SPEC §1), unless `python`:
    then `got` is a plain Python run's result too and must have the same Python type.
    Floats compare within rtol/atol (NaN equal to NaN), or bit for bit when `exact`.
    """
    if isinstance(want, (tuple, list, dict)):
        assert type(got) is type(want), f"{what}: {type(got).__name__} {got!r}, " \
                                        f"plain Python gives {type(want).__name__} {want!r}"
        assert len(got) == len(want), f"{what}: {len(got)} items, plain Python gives {len(want)}"
        if isinstance(want, dict):
            assert got.keys() == want.keys(), (what, got.keys(), want.keys())
            for k in want:
                assert_same(got[k], want[k], rtol, atol, f"{what}[{k!r}]", exact, python,
                            _seen)
        else:
            for i, (g, w) in enumerate(zip(got, want)):
                assert_same(g, w, rtol, atol, f"{what}[{i}]", exact, python, _seen)
        return
    if held_state.is_holder(want):  # an object of the user's class: its attributes
        assert type(got) is type(want), f"{what}: {got!r}, plain Python gives {want!r}"
        if _seen is None:
            _seen = set()
        if (id(got), id(want)) not in _seen:  # (objects that refer to each other)
            _seen.add((id(got), id(want)))
            assert_same(dict(held_state.attributes(got)), dict(held_state.attributes(want)),
                        rtol, atol, f"{what}.__dict__", exact, python, _seen)
        return
    if want is None or not _is_numeric(want):
        assert type(got) is type(want) and got == want, f"{what}: {got!r} != {want!r}"
        return
    if python and isinstance(want, (bool, int, float, complex)):
        assert type(got) is type(want), f"{what}: {type(got).__name__}, plain Python gives " \
                                        f"{type(want).__name__}"
    assert _is_numeric(got), f"{what}: {got!r} is not an array, plain Python gives {want!r}"
    g, w = np.asarray(_np(got)), np.asarray(_np(want))
    assert g.dtype == w.dtype, f"{what}: dtype {g.dtype}, plain Python gives {w.dtype}"
    assert g.shape == w.shape, f"{what}: shape {g.shape}, plain Python gives {w.shape}"
    if w.dtype.kind in "fc" and not exact:
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(g, w, err_msg=what)


# --- running -----------------------------------------------------------------------------

@dataclasses.dataclass
class Outcome:
    """One side's run of one call: its result or exception, stdout, and its arguments."""
    value: object
    raised: BaseException | None
    stdout: str
    args: tuple


def run(fn, args):
    """Calls fn(*args) capturing stdout; an exception is an outcome, not an error."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            return Outcome(fn(*args), None, out.getvalue(), args)
        except Exception as e:  # noqa: BLE001 - the exception type is part of the outcome
            return Outcome(None, e, out.getvalue(), args)


def _describe(o):
    return f"raised {type(o.raised).__name__}: {o.raised}" if o.raised else f"returned {o.value!r}"


def assert_outcomes_agree(got, want, what, rtol=1e-6, atol=1e-9, exact=False, python=False,
                          stage=None):
    """`got` (one side) did what the oracle's `want` did: see the module docstring."""
    if want.raised is not None or got.raised is not None:
        if got.raised is None or want.raised is None or type(got.raised) is not type(
                want.raised):
            raise AssertionError(f"{what}: {_describe(got)}; plain Python {_describe(want)}") \
                from got.raised
    else:
        assert_same(got.value, want.value, rtol, atol, what, exact, python)
    assert got.stdout == want.stdout, f"{what}: printed {got.stdout!r}, plain Python " \
                                      f"printed {want.stdout!r}"
    want_args = stage(want.args) if stage else want.args
    assert_same(got.args, want_args, rtol, atol, f"{what}: argument", exact, python)


def agree(fn, *args, calls=None, oracle=None, functions=None, backends=BACKENDS,
          autograph=True, stage=None, independent=False, rtol=1e-6, atol=1e-9, exact=False,
          python=False, errors=None):
    """Runs `fn` as plain Python (the oracle) and through ``ag.defun`` on each backend, on
    fresh copies of the same inputs; asserts that they agree (module docstring).

    Args:
      fn: the user function.
      *args: one argument tuple; it is called a second time on ``varied(args)``.
      calls: several argument tuples instead (each Function is called on all of them).
      oracle: a plain NumPy function to compare with instead of `fn` itself (op tests: an
        ``ag.*`` call run eagerly executes the interpreter's own kernel, so it is no
        independent oracle).
      functions: {backend: Function} made once and shared between tests (saves compiles).
      stage: maps an argument tuple to the one the Functions get (e.g. Python numbers to
        NumPy scalars, so control flow on them is staged); the oracle gets the original.
      independent: the oracle's results must hold no ``ag.Tensor`` (it used no ``ag.*`` op).
      rtol, atol, exact: float comparison (exact: bit for bit, NaN included).
      python: the sides are plain Python too (the converted function on Python values):
        results must have the oracle's Python types.
      errors: a list that collects (backend, call, message) for every exception a side
        raised where the oracle raised one too (tests then check the messages).
    Returns:
      {backend: the result of the first call}.
    """
    if calls is None:
        calls = [args, varied(args)]
    else:
        assert not args, "give either *args or calls="
        calls = list(calls)
        if len(calls) == 1:
            calls.append(varied(calls[0]))
    oracle = oracle or fn
    functions = functions or {b: ag.defun(fn, autograph=autograph, backend=b)
                              for b in backends}
    first = {}
    for k, call in enumerate(calls):
        want = run(oracle, fresh(call))
        if independent:
            assert not any(isinstance(v, ag.Tensor) for v in _leaves(want.value)), (
                "the oracle used an ag.* op: compare with NumPy itself (oracle=...)")
        for backend, f in functions.items():
            staged = stage(fresh(call)) if stage else fresh(call)
            got = run(f, staged)
            name = getattr(fn, "__name__", "fn")
            assert_outcomes_agree(got, want, f"{name} on {backend}, call {k} {_brief(call)}",
                                  rtol, atol, exact, python, stage)
            if errors is not None and got.raised is not None:
                # (its notes too: the line of NumPy's own error met while tracing, whose
                # text stays NumPy's, errors.with_location)
                errors.append((backend, call, "\n".join(
                    [str(got.raised), *getattr(got.raised, "__notes__", ())])))
            if backend not in first:
                first[backend] = _kept(got.value)
            _scribble(got.value)
    return first


def _kept(value):
    """``value`` with each array it holds copied (what ``_scribble`` then writes into)."""
    if isinstance(value, (tuple, list)) and type(value) in (tuple, list):
        return type(value)(_kept(v) for v in value)
    if type(value) is dict:
        return {k: _kept(v) for k, v in value.items()}
    if isinstance(value, ag.Tensor) and isinstance(value.numpy(), np.ndarray):
        return type(value)(value.numpy().copy())
    return value.copy() if isinstance(value, np.ndarray) else value


def _scribble(value):
    """Writes into every array a Function returned, as a caller may (`r = f(x); r += 1`):
    the later calls must not see it (session 53: the interpreter returned the array a
    constant of the graph holds, so every later call returned what the caller wrote)."""
    for leaf in _leaves(value):
        a = leaf.numpy() if isinstance(leaf, ag.Tensor) else leaf
        if isinstance(a, np.ndarray) and a.size and a.flags.writeable and \
                a.dtype.kind in "biufc":
            a[...] = True if a.dtype.kind == "b" else 7


def _brief(call):
    text = repr(call)
    return text if len(text) < 300 else text[:300] + "..."


def python_numbers_as_numpy(args):
    """Python ints and floats become NumPy scalars (int64, float64) so that control flow on
    them is staged under ``ag.defun`` (bools stay: they select a trace)."""
    return tuple(np.int64(a) if isinstance(a, int) and not isinstance(a, bool)
                 else np.float64(a) if isinstance(a, float) else a for a in args)
