"""Python callbacks benchmarks: what a py_func costs inside compiled code.

    python benchmarks/bench_callbacks.py            # full run (~10 s after compiles)
    python benchmarks/bench_callbacks.py --quick    # smoke run
    python benchmarks/bench_callbacks.py --json out.json --check

(a) a staged ``ag.while_loop`` of N iterations calling a trivial ``py_func`` (a 0-d float64
    in, the same out) once per iteration, against a plain Python loop calling the same
    function N times. Reported: ns per callback (whole compiled call / N) and the Python
    loop's ns per iteration.                                     target: <= 2,000 ns
(b) a piecewise log-huber over 200,000 float64 values as ONE py_func inside a defun (the
    kernel returns the callback's result) against the same NumPy code run eagerly.
                                                                  target: <= 10% overhead

Timing: time.perf_counter, steady state after warm-up, variants interleaved, best of N
repeats, GC disabled while timing. Exit status: 0 ran and agreed; 1 with ``--check`` when
a target was missed; 2 on a wrong result or an error.
"""
import argparse
import gc
import json
import os
import platform
import sys
import time

import numpy as np

os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import autograph_lite as ag  # noqa: E402

FULL = dict(repeat=7, iters=10_000, n=200_000, number=20)
QUICK = dict(repeat=3, iters=2_000, n=200_000, number=5)


def best(fns, repeat, number):
    """Interleaved best-of-``repeat`` seconds per call for each fn."""
    times = [float("inf")] * len(fns)
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            for k, fn in enumerate(fns):
                t0 = time.perf_counter()
                for _ in range(number):
                    fn()
                times[k] = min(times[k], (time.perf_counter() - t0) / number)
    finally:
        if gc_was:
            gc.enable()
    return times


def trivial(x):
    return x


def bench_loop(cfg):
    iters = cfg["iters"]

    @ag.defun(autograph=False)
    def staged(n, x):
        def body(i, acc):
            return i + 1, ag.py_func(trivial, [acc], ag.float64) + 1.0
        return ag.while_loop(lambda i, acc: i < n, body, (np.int64(0), x))[1]

    @ag.defun(autograph=False)
    def staged_empty(n, x):  # the same loop without the callback
        def body(i, acc):
            return i + 1, acc + 1.0
        return ag.while_loop(lambda i, acc: i < n, body, (np.int64(0), x))[1]

    def python_loop(n, x):
        acc = x
        for _ in range(n):
            acc = trivial(acc) + 1.0
        return acc

    n, x = np.int64(iters), np.float64(0.0)
    t0 = time.perf_counter()
    got = staged(n, x)
    compile_s = time.perf_counter() - t0
    staged_empty(n, x)
    want = python_loop(iters, 0.0)
    ok = float(got) == want
    t_staged, t_empty, t_py = best([lambda: staged(n, x), lambda: staged_empty(n, x),
                                    lambda: python_loop(iters, 0.0)],
                                   cfg["repeat"], max(1, cfg["number"] // 4))
    per_cb = t_staged / iters * 1e9
    return dict(workload="(a) while_loop + trivial py_func per iteration", iters=iters,
                ns_per_callback=round(per_cb, 1),
                ns_per_iter_without_callback=round(t_empty / iters * 1e9, 2),
                ns_per_iter_python_loop=round(t_py / iters * 1e9, 1),
                first_call_s=round(compile_s, 3), target_ns=2000, met=per_cb <= 2000, ok=ok)


def log_huber_np(x, m):
    ax = np.abs(x)
    return np.where(ax <= m, x ** 2, m ** 2 * (1 - 2 * np.log(m) + np.log(x ** 2)))


def bench_log_huber(cfg):
    rng = np.random.default_rng(0)
    x = rng.normal(0, 3, cfg["n"])
    m = np.float64(2.0)

    @ag.defun(autograph=False)
    def staged(x, m):
        return ag.py_func(log_huber_np, [x, m], ag.float64)

    def eager(x, m):
        return log_huber_np(x, m)

    with np.errstate(all="ignore"):
        t0 = time.perf_counter()
        got = staged(x, m)
        compile_s = time.perf_counter() - t0
        want = eager(x, m)
        ok = np.array_equal(got.numpy(), want)
        t_staged, t_eager = best([lambda: staged(x, m), lambda: eager(x, m)], cfg["repeat"],
                                 cfg["number"])
    overhead = t_staged / t_eager - 1.0
    return dict(workload="(b) log-huber on 200,000 float64: one py_func in a defun vs eager",
                n=cfg["n"], ms_defun=round(t_staged * 1e3, 3), ms_eager=round(t_eager * 1e3, 3),
                overhead_pct=round(overhead * 100, 1), first_call_s=round(compile_s, 3),
                target_pct=10, met=overhead <= 0.10, ok=ok)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    rows = []
    try:
        rows.append(bench_loop(cfg))
        rows.append(bench_log_huber(cfg))
    except Exception:
        import traceback
        traceback.print_exc()
        return 2
    print(f"# {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cpus")
    for r in rows:
        print(json.dumps(r))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if not all(r["ok"] for r in rows):
        print("WRONG RESULT", file=sys.stderr)
        return 2
    if args.check and not all(r["met"] for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
