"""Tracing policy benchmarks (issue 13, SPEC §2/§3): when ag.defun traces and compiles.

    python benchmarks/bench_tracing.py            # full run (~1-2 min on 2 cores)
    python benchmarks/bench_tracing.py --quick    # smoke run

Side by side in one run with a hand-written ``@numba.njit`` of the same source:
  (a) 1,000 calls with 1,000 different lengths: traces, Numba compiles, total time
      (target: <= 2 traces, <= 2 compiles, total <= 1.5x njit's)
  (b) 100 calls with 100 different Python-float values of one argument: compiles
      (target: <= 2)
  (c) call overhead of ``x * y + 1`` with Python floats, NumPy scalars, 0-d arrays and
      ``ag.Tensor``s (target: each <= 1.0 us and <= 5x the raw njit call)
  (d) first call of a 20x20x25 Python-range nest with a small body, and of an
      ``np.ndindex`` loop over 50x50x6 cells (target: each <= 2 s; run in a subprocess
      with a time limit)
  (e) first call of a new 30-line function in a warm process (target: <= njit's first
      call of the same source)

Every kernel cache is a fresh temporary folder, so each compile is a real one. Ratios
matter; absolute times on a shared machine are noisy.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time

os.environ["AUTOGRAPH_LITE_CACHE_DIR"] = tempfile.mkdtemp(prefix="ag_bench_tracing_")
os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")

import numpy as np  # noqa: E402


def lengths_source():
    return textwrap.dedent("""
        def by_length(x):
            s = 0.0
            for i in range(len(x)):
                v = x[i]
                if v > 0.5:
                    s += v * v
                else:
                    s -= v
            return s
        """)


def scalar_source():
    return textwrap.dedent("""
        def scaled_sum(x, c):
            s = 0.0
            for i in range(x.shape[0]):
                s += x[i] * c
            return s
        """)


_SOURCES = tempfile.mkdtemp(prefix="ag_bench_tracing_src_")


def define(source, name):
    """A fresh function object of ``source`` from a real file (AutoGraph reads source)."""
    import importlib.util
    path = os.path.join(_SOURCES, f"{name}_{len(os.listdir(_SOURCES))}.py")
    with open(path, "w") as f:
        f.write("import numpy as np\n" + source)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def numba_compiles(function):
    """Numba compiles behind an ag.Function: the signatures of its kernels' dispatchers."""
    seen, n = set(), 0
    for cf in function._cache.values():
        d = getattr(cf, "_dispatcher", None)
        if d is not None and id(d) not in seen:
            seen.add(id(d))
            n += len(d.signatures)
    return n


def section_a(ag, numba, quick):
    n_calls = 200 if quick else 1000
    py = define(lengths_source(), "by_length")
    f = ag.defun(py)
    jit = numba.njit(define(lengths_source(), "by_length"))
    xs = [np.random.default_rng(k).random(k + 1) for k in range(n_calls)]
    t = time.perf_counter()
    got = [float(f(x)) for x in xs]
    t_ag = time.perf_counter() - t
    t = time.perf_counter()
    want = [jit(x) for x in xs]
    t_jit = time.perf_counter() - t
    assert np.allclose(got, want) and np.allclose(want[:5], [py(x) for x in xs[:5]])
    traces, compiles = f.experimental_get_tracing_count(), numba_compiles(f)
    return [("(a) %d lengths: traces" % n_calls, traces, "<= 2", traces <= 2),
            ("(a) Numba compiles (ag / njit)", f"{compiles} / {len(jit.signatures)}",
             "<= 2", compiles <= 2),
            ("(a) total time ag / njit", f"{t_ag / t_jit:.2f}x ({t_ag:.2f} s / {t_jit:.2f} s)",
             "<= 1.5x", t_ag <= 1.5 * t_jit)]


def section_b(ag, numba, quick):
    n_calls = 20 if quick else 100
    f = ag.defun(define(scalar_source(), "scaled_sum"))
    x = np.linspace(0.0, 1.0, 64)
    for k in range(n_calls):
        c = 0.3 + k / 1000.0
        assert abs(float(f(x, c)) - float(np.sum(x * c))) < 1e-9
    compiles = numba_compiles(f)
    return [("(b) %d Python-float values: traces / compiles" % n_calls,
             f"{f.experimental_get_tracing_count()} / {compiles}", "<= 2", compiles <= 2)]


def per_call(fn, args, number):
    for _ in range(100):
        fn(*args)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(number):
            fn(*args)
        best = min(best, (time.perf_counter() - t) / number)
    return best


def section_c(ag, numba, quick):
    number = 2000 if quick else 20000
    f = ag.defun(lambda x, y: x * y + 1.0)
    jit = numba.njit(lambda x, y: x * y + 1.0)
    raw = per_call(jit, (1.5, 2.5), number)
    rows = [("(c) raw njit call, Python floats", f"{raw * 1e9:.0f} ns", "", True)]
    kinds = {"Python floats": (1.5, 2.5), "NumPy scalars": (np.float64(1.5), np.float64(2.5)),
             "0-d arrays": (np.array(1.5), np.array(2.5)),
             "ag.Tensors": (ag.constant(1.5), ag.constant(2.5))}
    for kind, args in kinds.items():
        t = per_call(f, args, number)
        ok = t <= 1e-6 and t <= 5 * raw
        rows.append((f"(c) ag call, {kind}", f"{t * 1e9:.0f} ns = {t / raw:.1f}x njit",
                     "<= 1000 ns, <= 5x", ok))
    return rows


NEST = textwrap.dedent("""
    import os, sys, time
    import numpy as np
    os.environ["AUTOGRAPH_LITE_QUIET"] = "1"
    import autograph_lite as ag

    @ag.defun
    def nest(a):
        s = a * 0.0
        for i in range(20):
            for j in range(20):
                for k in range(25):
                    s = s + a * (i - j + k)
        return s

    @ag.defun
    def cells(a):
        s = a * 0.0
        for i, j, k in np.ndindex(50, 50, 6):
            s = s + a * (i + 2 * j - k)
        return s

    which = {"nest": nest, "cells": cells}[sys.argv[1]]
    t = time.perf_counter()
    which(np.float64(1.0))
    print(time.perf_counter() - t)
    """)


def section_d(limit):
    rows = []
    script = os.path.join(_SOURCES, "nests.py")  # (a file: AutoGraph reads the source)
    with open(script, "w") as f:
        f.write(NEST)
    for which, label in (("nest", "20x20x25 range nest"), ("cells", "np.ndindex 50x50x6")):
        try:
            out = subprocess.run([sys.executable, script, which], capture_output=True,
                                 text=True, timeout=limit, env=dict(os.environ))
            if out.returncode != 0:
                rows.append((f"(d) first call, {label}",
                             "error: " + (out.stderr.strip().splitlines() or ["?"])[-1][:60],
                             "<= 2 s", False))
                continue
            t = float(out.stdout.strip().splitlines()[-1])
            rows.append((f"(d) first call, {label}", f"{t:.2f} s", "<= 2 s", t <= 2.0))
        except subprocess.TimeoutExpired:
            rows.append((f"(d) first call, {label}", f"> {limit} s (stopped)", "<= 2 s", False))
    return rows


THIRTY = textwrap.dedent("""
    def retrace_body(x, y, n):
        acc = x * 0.0
        i = 0
        while i < n:
            t = x * y + 1.0
            if t[0] > 0.0:
                acc = acc + t
            else:
                acc = acc - t
            u = acc * 0.5
            v = u + x
            w = v * y
            z = w - u
            acc = acc + z * 0.001
            a1 = acc + 1.0
            a2 = a1 * 2.0
            a3 = a2 - 1.0
            a4 = a3 / 3.0
            a5 = a4 + x
            a6 = a5 * y
            a7 = a6 - a4
            a8 = a7 + a3
            a9 = a8 * 0.5
            acc = acc + a9 * 0.0001
            i += 1
        return acc
    """)


def section_e(ag, numba):
    x, y = np.linspace(0.1, 1.0, 16), np.linspace(1.0, 2.0, 16)
    f = ag.defun(define(THIRTY, "retrace_body"))
    jit = numba.njit(define(THIRTY, "retrace_body"))
    t = time.perf_counter()
    got = f(x, y, np.int64(5))
    t_ag = time.perf_counter() - t
    t = time.perf_counter()
    want = jit(x, y, 5)
    t_jit = time.perf_counter() - t
    assert np.allclose(np.asarray(got), want)
    return [("(e) first call of a new 30-line function (ag / njit)",
             f"{t_ag / t_jit:.2f}x ({t_ag:.2f} s / {t_jit:.2f} s)", "<= 1.0x", t_ag <= t_jit)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--limit", type=int, default=None, help="seconds for each (d) subprocess")
    args = p.parse_args(argv)
    import numba

    import autograph_lite as ag
    # a warm process: one function compiled first, so (e) measures a new function only
    ag.defun(lambda v: v + 1.0)(np.ones(2))
    numba.njit(lambda v: v + 1.0)(np.ones(2))
    rows = []
    for section in (lambda: section_a(ag, numba, args.quick),
                    lambda: section_b(ag, numba, args.quick),
                    lambda: section_c(ag, numba, args.quick),
                    lambda: section_d(args.limit or (30 if args.quick else 120)),
                    lambda: section_e(ag, numba)):
        rows += section()
    w = max(len(r[0]) for r in rows)
    v = max(len(str(r[1])) for r in rows)
    print(f"{'workload':<{w}} | {'measured':<{v}} | target      | met")
    print("-" * (w + v + 24))
    for name, value, target, ok in rows:
        print(f"{name:<{w}} | {str(value):<{v}} | {target:<11} | {'yes' if ok else 'NO'}")
    missed = [r[0] for r in rows if not r[3]]
    print(f"\ntargets missed: {len(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
