"""The on-disk kernel cache (SPEC §6, backends/cache.py).

Each test points ``AUTOGRAPH_LITE_CACHE_DIR`` at its own tmp folder and empties the
in-process ``_MEMORY`` dict, so the kernel module is really loaded from disk.
"""
import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.backends import cache
from differential import assert_same


def kernel_body(x):
    return x * 4.0 - 2.5


SPEC = ag.TensorSpec([None], ag.float64)
X = np.arange(5.0)
WANT = X * 4.0 - 2.5


def fresh_function():
    return ag.defun(kernel_body, autograph=False)


def traced():
    """A fresh Function and its traced (not yet compiled) ConcreteFunction for X."""
    f = fresh_function()
    return f, f.get_concrete_function(X)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "kernels"
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", str(d))
    monkeypatch.setattr(cache, "_MEMORY", {})
    monkeypatch.setattr(cache, "_WARNED", [False])
    return d


def module_file(d, cf):
    return d / f"ag_{cache.source_key(cf.source)}.py"


def numba_files(d):
    return sorted(p.name for p in (d / "__pycache__").glob("ag_*.nb*"))


def test_kernel_module_is_written_and_reused(cache_dir, monkeypatch):
    f, cf = traced()
    assert_same(f(X), WANT)
    path = module_file(cache_dir, cf)
    assert path.read_text() == cf.source
    files = numba_files(cache_dir)
    assert any(n.endswith(".nbi") for n in files) and any(n.endswith(".nbc") for n in files)
    mtime = path.stat().st_mtime_ns
    # a fresh load (memory emptied) imports the same file without rewriting it
    monkeypatch.setattr(cache, "_MEMORY", {})
    g = fresh_function()
    assert_same(g(X), WANT)
    disp = g.get_concrete_function(X)._dispatcher
    assert disp is not None
    assert path.stat().st_mtime_ns == mtime
    assert numba_files(cache_dir) == files
    assert sum(disp.stats.cache_hits.values()) == 1  # loaded from Numba's cache
    assert sum(disp.stats.cache_misses.values()) == 0


SCRIPT = textwrap.dedent('''
    import sys, time
    import numpy as np
    sys.path.insert(0, {tests!r})
    import autograph_lite as ag
    from test_cache import kernel_body
    f = ag.defun(kernel_body, autograph=False)
    t0 = time.perf_counter()
    out = f(np.arange(5.0))
    dt = time.perf_counter() - t0
    st = f.get_concrete_function(np.arange(5.0))._dispatcher.stats
    print(sum(st.cache_hits.values()), sum(st.cache_misses.values()), dt, out.numpy().sum())
''')


def test_new_process_with_warm_cache_compiles_nothing(cache_dir, tmp_path):
    script = tmp_path / "run_kernel.py"
    script.write_text(SCRIPT.format(tests=os.path.dirname(__file__)))
    env = dict(os.environ, AUTOGRAPH_LITE_CACHE_DIR=str(cache_dir), AUTOGRAPH_LITE_QUIET="1")

    def run():
        p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           env=env, timeout=300)
        assert p.returncode == 0, p.stderr
        hits, misses, seconds, total = p.stdout.split()
        assert float(total) == WANT.sum()
        return int(hits), int(misses), float(seconds)
    cold = run()
    warm = run()
    assert cold[:2] == (0, 1)   # compiled
    assert warm[:2] == (1, 0)   # loaded from Numba's disk cache: no compile
    # (the first call's wall time is dominated by Numba's own start-up, about 1 s, so
    # Numba's hit/miss counters are the reliable signal, not a timing ratio)


@pytest.mark.parametrize("garbage", ["raise SystemExit('executed garbage')\n", "truncated"])
def test_garbage_kernel_module_is_rewritten_not_executed(cache_dir, garbage):
    f, cf = traced()
    src = cf.source
    path = module_file(cache_dir, cf)
    cache_dir.mkdir(parents=True)
    path.write_text(src[: len(src) // 2] if garbage == "truncated" else garbage)
    assert_same(f(X), WANT)  # SystemExit would escape if it ran
    assert path.read_text() == src


def test_garbage_numba_cache_files_are_recovered(cache_dir, monkeypatch):
    assert_same(fresh_function()(X), WANT)
    files = list((cache_dir / "__pycache__").glob("ag_*.nb*"))
    assert files
    for p in files:
        p.write_bytes(b"\x80\x04garbage, not a pickle" * 3)
    for name in [m for m in sys.modules if m.startswith("ag_")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(cache, "_MEMORY", {})
    f = fresh_function()
    assert_same(f(X), WANT)
    assert_same(f(X + 1.0), WANT + 4.0)
    # and the next process-like load finds a sound cache again
    monkeypatch.setattr(cache, "_MEMORY", {})
    assert_same(fresh_function()(X), WANT)


def _unusable_dirs(tmp_path):
    """Every way a cache folder fails, each real whoever runs the tests (CI runs as root,
    whom no permission bits stop): a path under a file, a path that is a file, and an
    existing folder in which no file can be made (a mode-0500 folder; for root, /proc/self)."""
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    yield "under a file", blocker / "kernels"
    yield "is a file", blocker
    if os.geteuid() != 0:
        ro = tmp_path / "readonly"
        ro.mkdir()
        ro.chmod(0o500)
        yield "read-only folder", ro
    else:
        assert os.path.isdir("/proc/self"), "this test needs Linux's /proc"
        yield "read-only folder", Path("/proc/self")


def test_unusable_cache_folder_degrades_with_one_warning(tmp_path, monkeypatch):
    kinds = []
    for kind, d in _unusable_dirs(tmp_path):
        kinds.append(kind)
        monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", str(d))
        monkeypatch.setattr(cache, "_MEMORY", {})
        monkeypatch.setattr(cache, "_WARNED", [False])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert_same(fresh_function()(X), WANT)
            g = ag.defun(lambda x: x - 1.0, autograph=False)  # a second kernel
            assert_same(g(X), X - 1.0)
        ws = [w for w in caught if issubclass(w.category, RuntimeWarning)]
        assert len(ws) == 1, (kind, [str(w.message) for w in ws])
        assert str(d) in str(ws[0].message)
    assert kinds == ["under a file", "is a file", "read-only folder"]


def test_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", "off")
    monkeypatch.setattr(cache, "_MEMORY", {})
    monkeypatch.setattr(cache, "_WARNED", [False])
    assert cache.cache_dir() is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(fresh_function()(X), WANT)


def test_cache_off_kernel_with_objmode_block(monkeypatch, capfd):
    # An in-memory kernel is still a module Numba can find (its objmode blocks resolve
    # `np`/`rt` through it), and Numba's objmode-vs-nogil warning is not shown.
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", "off")
    monkeypatch.setattr(cache, "_MEMORY", {})

    def noisy(x):
        ag.print("x is", x)
        return x + 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(ag.defun(noisy)(np.float64(2.0)), np.float64(3.0))
    assert "x is 2.0" in capfd.readouterr().out


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("AUTOGRAPH_LITE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "autograph_lite"


def test_disk_loads_in_a_new_process_agree_and_skip_numbas_registry_start_up(cache_dir):
    """backends/numba_cache.py: a kernel loaded from Numba's cache in a fresh process runs
    without Numba's registry refresh (objmode kernels keep Numba's own load). Every kind of
    kernel must give the cold process's answers, and a compile after the lean loads works."""
    prog = os.path.join(os.path.dirname(__file__), "cache_program.py")
    env = dict(os.environ, AUTOGRAPH_LITE_CACHE_DIR=str(cache_dir), AUTOGRAPH_LITE_QUIET="1")
    # Numba's default optimisation, as users run (conftest.py's NUMBA_OPT=0 leaves the
    # callback's address as a constant in an objmode kernel, which Numba then will not cache)
    env.pop("NUMBA_OPT", None)

    def run(tag):
        p = subprocess.run([sys.executable, prog, str(tag)], capture_output=True, text=True,
                           env=env, timeout=300)
        assert p.returncode == 0, p.stderr
        printed, results, loads, heavy = p.stdout.splitlines()
        return printed, json.loads(results), json.loads(loads), json.loads(heavy)

    cold_printed, cold, cold_loads, cold_heavy = run(1)
    warm_printed, warm, warm_loads, warm_heavy = run(2)
    assert cold_heavy  # compiling imports them (a sanity check of the probe)
    assert warm_heavy == []  # loading the same kernels does not
    assert all(misses == 1 for _, misses, _ in cold_loads.values())
    assert {k: v[:2] for k, v in warm_loads.items()} == {k: [1, 0] for k in cold_loads}
    lean = {k for k, v in warm_loads.items() if v[2] == "LeanLoadCache"}
    assert lean == {"chain", "newton", "layer", "intops", "noisy"}  # objmode ones: Numba's load
    assert warm_printed == cold_printed == "x: [0. 1.]"
    assert warm.pop("fresh") == [0.5, 2.5, 4.5] and cold.pop("fresh") == [0.5, 1.5, 2.5]
    assert warm == cold
    # and the answers are NumPy's
    a = np.linspace(1.0, 9.0, 6)
    x32 = a.astype(np.float32)
    np.testing.assert_allclose(cold["chain"], np.tanh(x32 * 2 - 1) / (1 + x32 * x32), rtol=1e-6)
    np.testing.assert_allclose(cold["newton"], np.sqrt(a), rtol=1e-12)
    np.testing.assert_allclose(cold["layer"], np.tanh(np.full((2, 2), 0.75)), rtol=1e-12)
    i, j = np.array([7, -7, 5, 0]), np.array([2, 2, 0, -3])
    with np.errstate(divide="ignore"):
        assert cold["intops"] == [(i // j).tolist(), (i % j).tolist(), 5]
    assert cold["noisy"][0] != cold["noisy"][1]
    assert cold["callback"] == [2.0, 4.0, 6.0] and cold["printed"] == [1.0, 2.0]
    assert cold["error"] == "IndexError names the line"
