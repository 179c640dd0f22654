"""Index bounds the kernel need not check (ir/bounds.py): `x[i]` under `for i in
range(len(x))` reads `x[i]` bare; every index the graph does not prove stays checked, and
wraps or raises exactly as NumPy does. The differential check runs each loop shape with
every small offset, on lengths that make the unproven ones fail."""
import re

import numpy as np
import pytest

import autograph_lite as ag
from differential import agree


def _checked(f, *args):
    """The kernel lines that index with a check (rt.index), of ``f``'s kernel for ``args``."""
    return [line.strip() for line in f.get_concrete_function(*args).source.splitlines()
            if "rt.index(" in line]


def dot_by_length(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def neighbours(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(1, m.shape[1]):
            s += m[i, j] * m[i, j - 1]
    return s


def shortest(x, y):
    s = 0.0
    for i in range(min(len(x), len(y))):
        s += x[i] * y[i]
    return s


def until_large(x, limit):
    i = 0
    s = 0.0
    while i < len(x) and s < limit:
        s += x[i]
        i += 1
    return s


def first_negative(x):
    for i in range(len(x)):
        if x[i] < 0:
            break
    return i


def fill(x, n):
    out = np.zeros(n + 1)
    for i in range(len(out)):  # out is a new value each iteration: the same shape
        out[i] = x[i % 4] * 2.0 + x[(i + n) % -3]
    return out


def scaled_copy(x, m):
    out = np.zeros(len(x))        # x's size, read at run time
    rows = np.empty_like(m)       # m's shape
    for i in range(len(x)):
        out[i] = x[i] * 2.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            rows[i, j] = m[i, j] + out[i % len(x)] if len(x) else 0.0
    return out, rows


def double_in_place(x):
    for i in range(len(x)):
        x[i] = x[i] * 2.0
    return x


@pytest.fixture(scope="module")
def cpu():
    return {f.__name__: ag.defun(f) for f in
            (dot_by_length, neighbours, shortest, until_large, first_negative, fill,
             double_in_place, scaled_copy)}


def test_loop_counters_index_bare(cpu):
    """Relaxed sizes (None) and exact ones: the counter's bound is the array's own size."""
    x, y, m = np.arange(5.0), np.arange(5.0), np.ones((3, 4))
    f, vec = cpu["dot_by_length"], ag.TensorSpec([None], ag.float64)
    checked = _checked(f, vec, vec)  # (only y's: see below)
    assert checked and not any("x[" in line for line in checked), checked
    assert not any("x[" in line for line in _checked(f, x, y))
    assert _checked(cpu["neighbours"], ag.TensorSpec([None, None], ag.float64)) == []
    assert _checked(cpu["shortest"], ag.TensorSpec([None], ag.float64),
                    ag.TensorSpec([None], ag.float64)) == []
    assert _checked(cpu["until_large"], ag.TensorSpec([None], ag.float64), 3.0) == []
    assert _checked(cpu["first_negative"], ag.TensorSpec([None], ag.float64)) == []
    assert _checked(cpu["neighbours"], m) == []


def test_writes_in_the_loop_and_modulo(cpu):
    """`out[i]` under `range(len(out))` while the loop writes `out`; `x[i % 4]` is proven
    where x has 4 elements (static) and checked where its size is unknown; `i % -3` is in
    (-3, 0] and stays checked (it wraps, as NumPy does)."""
    x, vec, n = np.arange(4.0), ag.TensorSpec([None], ag.float64), ag.TensorSpec([], ag.int64)
    static = _checked(cpu["fill"], x, n)  # (only x[(i + n) % -3])
    assert len(static) == 1 and "x[rt.index(" in static[0], static
    relaxed = _checked(cpu["fill"], vec, n)  # (both reads of x; never the write of out)
    assert len(relaxed) == 2 and all("x[rt.index(" in line for line in relaxed), relaxed
    assert _checked(cpu["double_in_place"], vec) == []
    # arrays made with another's size: out (len(x)) and rows (m's shape, written in a
    # nest), unchecked; out[i % len(x)] stays checked (len(x) may be 0: the `if` around it
    # is not read)
    mat = ag.TensorSpec([None, None], ag.float64)
    checked = _checked(cpu["scaled_copy"], vec, mat)
    assert len(checked) == 1 and "% " not in checked[0], checked
    agree(scaled_copy, calls=[(x, np.ones((3, 2))), (x[:0], np.ones((2, 2))),
                              (np.arange(7.0), np.ones((0, 3)))])
    agree(fill, calls=[(x, np.int64(5)), (x, np.int64(0)), (np.arange(6.0), np.int64(2))])
    agree(double_in_place, calls=[(np.arange(3.0),), (np.arange(5.0),), (np.arange(0.0),)])


def test_bounds_of_another_array_stay_checked(cpu):
    """`y[i]` under `range(len(x))`: y may be shorter, so it is checked and raises as NumPy."""
    checked = _checked(cpu["dot_by_length"], ag.TensorSpec([None], ag.float64),
                       ag.TensorSpec([None], ag.float64))
    assert len(checked) == 1 and re.search(r"\by\[rt\.index\(", checked[0]), checked
    agree(dot_by_length, calls=[(np.arange(4.0), np.arange(4.0)),
                                (np.arange(5.0), np.arange(3.0)),
                                (np.arange(6.0), np.arange(7.0))])


def test_proven_loops_agree_with_python(cpu):
    x, y = np.array([1.0, 2.0, -1.0, 4.0]), np.array([0.5, 0.25, 2.0])
    agree(neighbours, calls=[(np.arange(12.0).reshape(3, 4),), (np.ones((2, 1)),),
                             (np.ones((0, 3)),), (np.ones((4, 0)),)])
    agree(shortest, calls=[(x, y), (y, x), (x[:0], y)])
    agree(until_large, calls=[(x, 2.5), (x, 100.0), (x[:0], 1.0)])
    agree(first_negative, calls=[(x,), (np.abs(x),)])


# The loop shapes and offsets: `x[i + k]` wraps (k < 0 at i = 0) or raises (past the end)
# on some of them; only the ones the analysis proves drop the check.
LOOPS = {"range(len(x))": "range(len(x))", "range(1, len(x))": "range(1, len(x))",
         "range(len(x) - 1)": "range(len(x) - 1)", "range(len(y))": "range(len(y))",
         "range(min(len(x), len(y)))": "range(min(len(x), len(y)))"}


def _indexed(loop, k):
    src = (f"def indexed(x, y):\n    s = 0.0\n    for i in {loop}:\n"
           f"        s = s * 0.5 + x[i + ({k})]\n    return s\n")
    scope = {}
    exec(compile(src, f"<bounds {loop} {k}>", "exec"), scope)
    return scope["indexed"], src


def _write(tmp_path, loop, k):
    """The same function from a real file (AutoGraph reads the source)."""
    fn, src = _indexed(loop, k)
    path = tmp_path / "indexed.py"
    path.write_text(src)
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"indexed_{abs(hash((loop, k)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.indexed


@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("k", [-1, 0, 1])
def test_offsets_wrap_and_raise_as_numpy(loop, k, tmp_path):
    fn = _write(tmp_path, loop, k)
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    calls = [(x, x[:3]), (x[:4], x), (x[:2], x[:2]), (x[:1], x[:0])]
    agree(fn, calls=calls, backends=("cpu",))
    proven = not _checked(ag.defun(fn), ag.TensorSpec([None], ag.float64),
                          ag.TensorSpec([None], ag.float64))
    # proven exactly where 0 <= i + k < len(x) holds for every i the loop gives
    want = (k == 0 and loop in ("range(len(x))", "range(1, len(x))", "range(len(x) - 1)",
                                "range(min(len(x), len(y)))")) or (
        k == -1 and loop == "range(1, len(x))") or (k == 1 and loop == "range(len(x) - 1)")
    assert proven == want, (loop, k)


def _row_energy(row):
    s = 0.0
    for j in range(len(row)):
        s += row[j] * row[j]
    return s


def mapped_rows(m):
    return ag.vectorized_map(_row_energy, m)


def test_a_proven_vectorized_map_body_runs_in_parallel():
    """A body whose indices are all proven cannot raise, so its elements run as a prange
    (ops/vmap.py reads the emitted body); it was a serial loop while `row[j]` was checked."""
    f = ag.defun(mapped_rows)
    src = f.get_concrete_function(ag.TensorSpec([None, None], ag.float64)).source
    assert "numba.prange" in src and "rt.index(" not in src, src
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(f(m).numpy(), [_row_energy(r) for r in m])
    np.testing.assert_array_equal(f(m[:, :3].copy()).numpy(), [_row_energy(r) for r in m[:, :3]])


# --- property: random loop nests and index expressions -----------------------------------
from hypothesis import given, strategies as st  # noqa: E402

_STOPS = ["len({a})", "len({a}) - {c}", "min(len(x), len(y))", "len({a}) + {c}"]
# (`i % len(x)` with x empty: Python's ints raise ZeroDivisionError where the staged int64
# counter follows NumPy (0 and a warning), a difference of its own: the divisor is kept >= 1)
_INDICES = ["{i}", "{i} + {c}", "{i} - {c}", "{i} + {j}", "{i} - {j}", "({i} + {c}) % {m}",
            "{i} % max(len({a}), 1)", "{i} % len({a}) if len({a}) else 0"]


@st.composite
def _nest(draw):
    """A loop nest (one or two loops over `range(start, stop)`) reading `x`/`y` and writing
    `out` (the size of x) at drawn index expressions of the counters."""
    arrays = st.sampled_from(["x", "y"])
    loops = []
    for name in ["i", "j"][:draw(st.integers(1, 2))]:
        stop = draw(st.sampled_from(_STOPS)).format(a=draw(arrays), c=draw(st.integers(0, 2)))
        start = draw(st.integers(0, 2))
        loops.append((name, f"range({start}, {stop})" if start else f"range({stop})"))
    names = [n for n, _ in loops]

    def index():
        return draw(st.sampled_from(_INDICES)).format(
            i=draw(st.sampled_from(names)), j=draw(st.sampled_from(names)),
            c=draw(st.integers(1, 2)), m=draw(st.sampled_from([1, 3, -2])), a=draw(arrays))
    lines = ["def nest(x, y):", "    out = np.zeros(len(x))", "    s = 0.0"]
    for depth, (name, rng) in enumerate(loops):
        lines.append("    " * (depth + 1) + f"for {name} in {rng}:")
    pad = "    " * (len(loops) + 1)
    lines += [pad + f"s = s * 0.5 + {draw(arrays)}[{index()}]",
              pad + f"out[{index()}] = s"]
    return "\n".join(lines + ["    return s, out", ""])


def _nest_folder(folders=[]):  # noqa: B006 (one folder per process, removed at its exit)
    if not folders:
        import atexit
        import shutil
        import tempfile
        folders.append(tempfile.mkdtemp(prefix="ag_bounds_"))
        atexit.register(shutil.rmtree, folders[0], True)
    return folders[0]


@given(_nest())
def test_random_nests_agree_with_python(source):
    """Whatever the proof drops, the kernel still reads and writes exactly what Python
    does, or raises IndexError where it does: an exact first trace, then relaxed sizes,
    over lengths that put drawn indices in and out of range (0 included)."""
    import importlib.util
    path = f"{_nest_folder()}/nest_{abs(hash(source))}.py"
    with open(path, "w") as f:
        f.write("import numpy as np\n\n\n" + source)
    spec = importlib.util.spec_from_file_location(f"nest_{abs(hash(source))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x = np.arange(1.0, 7.0)
    agree(module.nest, calls=[(x[:5], x[:3]), (x[:3], x[:5]), (x, x), (x[:0], x[:2]),
                              (x[:4], x[:4])], backends=("cpu",), exact=True)
