"""``ConcreteFunction.export`` and ``autograph-lite export`` (SPEC §6): the written module
runs where autograph_lite cannot be imported and does what the plain Python run does.

Every module is exported first; one subprocess (``autograph_lite`` blocked in its
``sys.modules``) then imports them all and runs each case's calls, so Numba starts once.
Each call is checked by the suite's differential comparison (tests/differential.py):
result, exception type, printed text and every argument afterwards against plain Python,
on fresh copies, two calls per module (the second on varied values).
"""
import collections
import inspect
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite import cli

from differential import Outcome, assert_outcomes_agree, fresh, run, varied

Pair = collections.namedtuple("Pair", "values total")
W = ag.Variable(np.array([1.0, 2.0, 3.0]), name="w")
W0 = np.array([1.0, 2.0, 3.0])
TABLE = np.arange(40.0) * 0.25  # a captured array: a constant argument of the kernel


def fill_loop(x, k, out):
    """Writes into an argument; a while loop; nested results with Python values."""
    out[0] = k
    y = x * k
    i = 0
    while i < 3:
        y = y + x[i]
        i += 1
    return y, {"b": None, "a": y.sum()}, Pair(y, y.max())


def collatz_steps(n):
    """Data-dependent while/if over an array of any length."""
    steps = np.zeros(n.shape, np.int64)
    for j in range(n.shape[0]):
        v = n[j]
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            steps[j] += 1
    return steps


def with_state(x, i):
    """Reads and writes an ag.Variable; a captured constant; an index checked at run time."""
    W.assign_add(x)
    return W * TABLE[:3] + x[i]


def linear(a, b):
    """BLAS and the LU helpers of the embedded runtime; prints; returns nothing."""
    c = a @ b
    print("trace", a[0, 0] + a[1, 1])
    b[...] = np.linalg.solve(a, c[:, 0])[:, None] + c + np.linalg.det(a)
    return None


def through_view(x):
    """A write through a reshape view: the trace relies on x being C-contiguous."""
    y = x.reshape(-1)
    y[0] = 7.0
    return y.sum()


def with_callback(x):
    return ag.py_func(np.sinh, [x], ag.float64, name="my_sinh")


def fills_then_checks(out, x):
    """A failed check after a write made in place: the exported kernel raises the plain
    error (no call stores a check's state there: partial_raise.py), the write is made."""
    out[0] = x.sum()
    assert x.sum() > 10.0, "too small"
    return out


def first_negative(x):
    """A result None on some runs (runtime/unset.py MaybeNone): the module returns None or
    the index, as the function does."""
    idx = None
    for i in range(x.shape[0]):
        if x[i] < 0:
            idx = i
            break
    return idx, x.sum()


FUNCTIONS = {f.__name__: ag.defun(f) for f in
             (fill_loop, collatz_steps, with_state, linear, through_view, with_callback,
              fills_then_checks, first_negative)}

SPD = np.array([[4.0, 1.0], [1.0, 3.0]])

# name: (signature for get_concrete_function, calls of the exported entry, the Python
# arguments of each call given the exported ones)
CASES = {
    "fill_loop": ((np.ones(5), 2.0, np.zeros(3)),
                  [(np.arange(5.0), np.zeros(3))],
                  lambda x, out: (x, 2.0, out)),
    "collatz_steps": ((ag.TensorSpec([None], ag.int64),),
                      [(np.array([1, 6, 7, 27]),), (np.arange(1, 12),)],
                      None),
    "with_state": ((np.ones(3), np.int64(1)),
                   [(np.array([0.5, 1.0, 2.0]), np.int64(2)), (np.ones(3), np.int64(3))],
                   None),
    "linear": ((SPD, np.ones((2, 2))), [(SPD, np.array([[1.0, 2.0], [3.0, 4.0]]))], None),
    "through_view": ((np.zeros((2, 3)),), [(np.arange(6.0).reshape(2, 3),)], None),
    "first_negative": ((ag.TensorSpec([None], ag.float64),),
                       [(np.array([1.0, -2.0, -3.0]),), (np.ones(2),)], None),
    "fills_then_checks": ((np.zeros(3), np.ones(3)),
                          [(np.zeros(3), np.ones(3)), (np.zeros(3), np.full(3, 5.0))], None),
}

RUNNER = textwrap.dedent('''
    import contextlib, io, pickle, sys
    sys.modules["autograph_lite"] = None  # the modules must not need it
    folder, cases_file, out_file = sys.argv[1:]
    sys.path.insert(0, folder)
    with open(cases_file, "rb") as f:
        cases = pickle.load(f)


    def plain(x):  # namedtuples pickle by their module: as dicts for the test's process
        if hasattr(x, "_fields"):
            pickle.dumps(x)  # (the module's own namedtuples pickle)
            return {"namedtuple " + type(x).__name__: {k: plain(v) for k, v in
                                                        zip(x._fields, x)}}
        if isinstance(x, (tuple, list)):
            return type(x)(plain(v) for v in x)
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items()}
        return x

    results = {}
    for key, (module, entry, calls) in cases.items():
        m = __import__(module)
        done = []
        for args in calls:
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                try:
                    value, raised = getattr(m, entry)(*args), None
                except Exception as e:
                    value, raised = None, e
            done.append((plain(value), raised, text.getvalue(), args,
                         {k: v.copy() for k, v in m.VARIABLES.items()}))
        results[key] = done
    with open(out_file, "wb") as f:
        pickle.dump(results, f)
''')


def _plain(x):
    """A plain Python result as the runner sends exported ones (``plain`` there)."""
    if hasattr(x, "_fields"):
        return {"namedtuple " + type(x).__name__: {k: _plain(v)
                                                    for k, v in zip(x._fields, x)}}
    if isinstance(x, (tuple, list)):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x.numpy() if isinstance(x, ag.Tensor) else x


def _run_exported(folder, cases):
    """{case: [(value, raised, stdout, args after, VARIABLES after)]}: one subprocess runs
    every case (module, entry, calls) with autograph_lite blocked."""
    cases_file, out_file = os.path.join(folder, "cases.pkl"), os.path.join(folder, "out.pkl")
    with open(cases_file, "wb") as f:
        pickle.dump(cases, f)
    runner = os.path.join(folder, "runner.py")
    with open(runner, "w") as f:
        f.write(RUNNER)
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(folder, "numba-cache"))
    done = subprocess.run([sys.executable, runner, folder, cases_file, out_file], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(out_file, "rb") as f:
        return pickle.load(f)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Exports every case (one through the command line) and runs them all in one
    subprocess; returns (its results, the calls made, W's value at export)."""
    folder = str(tmp_path_factory.mktemp("export"))
    W.assign(W0)
    cases = {}
    for name, (signature, calls, _) in CASES.items():
        cf = FUNCTIONS[name].get_concrete_function(*signature)
        assert cf.export(os.path.join(folder, f"m_{name}.py")).endswith(f"m_{name}.py")
        arg_calls = [fresh(calls[0]), varied(calls[0])] + [fresh(c) for c in calls[1:]]
        cases[name] = (f"m_{name}", name, arg_calls)
    # the command line writes the same module as the API
    user = os.path.join(folder, "user_collatz.py")
    with open(user, "w") as f:
        f.write("import numpy as np\n\n\n" + inspect.getsource(collatz_steps))
    status = cli.main(["export", f"{user}:collatz_steps", "--signature", "int64[None]",
                       "-o", os.path.join(folder, "m_cli.py")])
    assert status == 0
    cases["cli"] = ("m_cli", "collatz_steps", [(np.array([3, 5]),), (np.arange(1, 30),)])
    cases["errors"] = ("m_with_state", "with_state", ERROR_CALLS)
    cases["layout"] = ("m_through_view", "through_view", [(np.zeros((3, 2)).T,)])
    cases["fill_errors"] = ("m_fill_loop", "fill_loop", FILL_ERRORS)
    return _run_exported(folder, cases), cases


@pytest.mark.parametrize("name", sorted(CASES) + ["cli"])
def test_exported_module_agrees_with_python(exported, name):
    results, cases = exported
    fn = FUNCTIONS["collatz_steps" if name == "cli" else name].python_function
    to_python = (CASES.get(name, (None, None, None))[2]) or (lambda *a: a)
    if name == "with_state":
        W.assign(W0)  # the module's VARIABLES started from W's value at export
    for k, (value, raised, stdout, args, variables) in enumerate(results[name]):
        given = fresh(cases[name][2][k])
        want = run(fn, to_python(*given))
        got = Outcome(value, raised, stdout, args)
        assert_outcomes_agree(got, Outcome(_plain(want.value), want.raised, want.stdout,
                                           given), f"{name} call {k}")
        if name == "with_state":
            np.testing.assert_array_equal(variables["w"], W.numpy())


ERROR_CALLS = [
    (np.ones(3), np.int64(7)),        # out of bounds, at the user's line
    (np.ones(4), np.int64(0)),        # wrong size for float64[3]
    (np.ones(3, np.float32), 0),      # wrong dtype
    ([1.0, 2.0, 3.0], 2.5),           # a float for int64[]: not a safe cast
]
FILL_ERRORS = [
    (np.ones(5), [0.0, 0.0, 0.0]),                                 # a list it writes into
    (np.ones(5), np.zeros(3)),                                     # (fine)
]


def test_exported_errors_are_the_functions(exported):
    results, _ = exported
    raised = [(type(r[1]).__name__, str(r[1])) for r in results["errors"]]
    line = with_state.__code__.co_firstlineno + 3
    assert raised[0] == ("IndexError", f"index 7 is out of bounds for axis 0 with size 3 "
                                       f"(at {__file__}:{line})")
    assert raised[1] == ("ValueError", "with_state(): argument 'x' must fit float64[3], got a "
                                       "float64 array of shape (4,)")
    assert raised[2][0] == "ValueError" and "got a float32 array of shape (3,)" in raised[2][1]
    assert raised[3][0] == "ValueError" and "argument 'i' must fit int64[]" in raised[3][1]
    # the Function itself says the same for the out-of-bounds index
    with pytest.raises(IndexError) as info:
        FUNCTIONS["with_state"](np.ones(3), np.int64(7))
    assert str(info.value) == raised[0][1]
    fill = results["fill_errors"]
    assert type(fill[0][1]) is TypeError and "argument 'out' must be a NumPy array" in str(
        fill[0][1])
    assert fill[1][1] is None and fill[1][3][1][0] == 2.0
    lay = results["layout"][0]
    assert type(lay[1]) is ValueError and "must be C-contiguous" in str(lay[1])


def test_export_refuses_a_callback_naming_it(tmp_path):
    cf = FUNCTIONS["with_callback"].get_concrete_function(np.ones(2))
    with pytest.raises(ValueError, match=r"callback 'my_sinh' \(py_func at .*test_export.py:"):
        cf.export(str(tmp_path / "m.py"))
    assert not (tmp_path / "m.py").exists()
    status = cli.main(["export", f"{__file__}:with_callback", "--signature", "float64[2]"])
    assert status == 1


def test_export_module_text(tmp_path):
    cf = FUNCTIONS["collatz_steps"].get_concrete_function(ag.TensorSpec([None], ag.int64))
    text = open(cf.export(str(tmp_path / "m.py"))).read()
    assert text.startswith('r"""collatz_steps(n: int64[?]): exported by autograph_lite')
    assert "import autograph_lite" not in text and "from autograph_lite" not in text
    assert cf.source[cf.source.index("@numba.njit"):] in text  # the kernel as `show` prints it
    compile(text, "m.py", "exec")
