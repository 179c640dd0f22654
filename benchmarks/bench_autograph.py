"""AutoGraph benchmarks: ordinary Python control flow under ``@ag.defun``, unchanged.

    python benchmarks/bench_autograph.py            # full run (~1 min on 2 cores)
    python benchmarks/bench_autograph.py --quick    # smoke run
    python benchmarks/bench_autograph.py --json out.json --show-source --check

Workloads (one process, one run, all variants side by side):
  (1) collatz step counts of 1,000 integers below 20,000, written as a NumPy user writes
      it (``out = np.empty(len(xs), np.int64)``, ``for i in range(len(xs))``,
      ``v = int(xs[i])``, ``while v != 1:`` with an ``if`` inside, ``out[i] = steps``):
      plain Python, a vectorised NumPy version, hand-written ``@numba.njit``, and the
      plain Python function under ``ag.defun``.                    target: <= 1.15x njit
  (2) an RNN ``h = tanh(W @ h + U @ x_t + b)`` for t in range(T), T a tensor, with a
      data-dependent ``if`` on h and the outputs appended to a list and stacked
      (T=1000, hidden 64, input 32): the function run as plain Python/NumPy, njit (the
      same loop writing rows of a preallocated array, as one writes it for Numba), and
      ``ag.defun`` of the plain function.                          target: <= 1.2x njit
  (3) collatz of 10^6 integers with ``ag.vectorized_map`` (the per-element function, one
      parallel kernel over the elements) against the loop of (1) under ``ag.defun`` (one
      thread) on the same inputs; njit is a hand-written ``prange`` version.
                                                  target: <= 0.6x the one-thread defun
  (4) a loop that fills an array and returns it early from inside the loop (``out[i] =
      ...; if out[i] > limit: return out``), 1,000,000 elements, the limit never reached:
      plain Python, njit of the same source, and ``ag.defun`` (the return value starts
      as a placeholder and becomes ``out`` on the exiting trip: no copy per trip, none at
      the end).                                                    target: <= 1.15x njit

Timing: steady state after warm-up, variants interleaved round-robin, best of N repeats,
GC off while timing (benchmarks/bench_core.py's harness). Read the ratios: the machine is
shared and absolute times are noisy. Exit status: 0 ran and agreed; 1 with ``--check``
when a target was missed; 2 on a wrong result or an error.
"""
import argparse
import json
import os
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # see bench_core.py
os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))

import numpy as np  # noqa: E402

from bench_core import (bench, check_close, fmt_t, load_average, print_table,  # noqa: E402
                        timed, yes)
# the user's code, exactly as written for plain Python (the front-door example)
from control_flow import collatz, rnn  # noqa: E402

FULL = dict(repeat=9, n=1000, high=20_000, T=1000, hidden=64, inputs=32, n_map=1_000_000,
            n_fill=1_000_000)
QUICK = dict(repeat=3, n=300, high=20_000, T=200, hidden=64, inputs=32, n_map=100_000,
             n_fill=100_000)


def fill_until(x, limit):
    """(4): plain Python, as one writes a search that hands back what it filled."""
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0
        if out[i] > limit:
            return out
    return out


def collatz_steps(v):
    """One element of (3): plain Python on one number."""
    steps = 0
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
    return steps


# --- the comparisons ------------------------------------------------------------------
def collatz_numpy(xs):
    """Vectorised: every value steps at once, finished ones masked out."""
    v = xs.astype(np.int64)
    steps = np.zeros(len(xs), np.int64)
    live = v != 1
    while live.any():
        even = v % 2 == 0
        v = np.where(live, np.where(even, v // 2, 3 * v + 1), v)
        steps += live
        live = v != 1
    return steps


def define_njit():
    import numba

    @numba.njit
    def collatz_njit(xs):
        out = np.empty(len(xs), np.int64)
        for i in range(len(xs)):
            v = xs[i]
            steps = 0
            while v != 1:
                if v % 2 == 0:
                    v = v // 2
                else:
                    v = 3 * v + 1
                steps += 1
            out[i] = steps
        return out

    @numba.njit
    def rnn_njit(xs, T, W, U, b, h0):
        out = np.empty((T, h0.shape[0]))
        h = h0
        for t in range(T):
            h = np.tanh(W @ h + U @ xs[t] + b)
            if np.max(np.abs(h)) > 0.9:
                h = h * 0.9
            out[t] = h
        return out
    @numba.njit(parallel=True)
    def collatz_prange(xs):
        out = np.empty(len(xs), np.int64)
        for i in numba.prange(len(xs)):
            v = xs[i]
            steps = 0
            while v != 1:
                if v % 2 == 0:
                    v = v // 2
                else:
                    v = 3 * v + 1
                steps += 1
            out[i] = steps
        return out

    return collatz_njit, rnn_njit, collatz_prange


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ap.add_argument("--show-source", action="store_true", help="print the ag kernels")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    os.environ["AUTOGRAPH_LITE_CACHE_DIR"] = tempfile.mkdtemp(prefix="ag_bench_ag_")
    import autograph_lite as ag
    load = load_average()
    print(f"autograph_lite AutoGraph benchmarks ({'quick' if args.quick else 'full'});"
          f" best of {cfg['repeat']} interleaved repeats;{load}")

    rng = np.random.default_rng(7)
    collatz_njit, rnn_njit, collatz_prange = define_njit()
    rows, firsts, sources = [], {}, {}
    try:
        # (1) collatz
        xs = rng.integers(1, cfg["high"], cfg["n"]).astype(np.int64)
        ag_collatz = ag.defun(collatz)
        firsts["collatz"] = {"njit": timed(lambda: collatz_njit(xs))[0],
                             "ag": timed(lambda: ag_collatz(xs))[0]}
        ref = collatz(xs)
        for name, got in [("numpy", collatz_numpy(xs)), ("njit", collatz_njit(xs)),
                          ("ag", ag_collatz(xs))]:
            check_close(f"collatz {name}", ref, got, rtol=0, atol=0)
        t = bench({"python": lambda: collatz(xs), "numpy": lambda: collatz_numpy(xs),
                   "njit": lambda: collatz_njit(xs), "ag": lambda: ag_collatz(xs)},
                  cfg["repeat"], number=1)
        rows.append(dict(workload=f"(1) collatz {cfg['n']} ints", unit="ms", **t,
                         ratio=t["ag"] / t["njit"], limit=1.15))
        sources["collatz"] = ag_collatz.get_concrete_function(xs).source

        # (2) RNN
        T, H, I = cfg["T"], cfg["hidden"], cfg["inputs"]
        xs = rng.standard_normal((T, I))
        W = rng.standard_normal((H, H)) * 0.3
        U = rng.standard_normal((H, I)) * 0.3
        b = rng.standard_normal(H) * 0.1
        h0 = np.zeros(H)
        Tt = np.int64(T)  # a tensor trip count: the loop is staged, not unrolled
        ag_rnn = ag.defun(rnn)
        firsts["rnn"] = {"njit": timed(lambda: rnn_njit(xs, T, W, U, b, h0))[0],
                         "ag": timed(lambda: ag_rnn(xs, Tt, W, U, b, h0))[0]}
        ref = rnn(xs, T, W, U, b, h0)
        check_close("rnn njit", ref, rnn_njit(xs, T, W, U, b, h0), rtol=1e-9, atol=1e-12)
        check_close("rnn ag", ref, ag_rnn(xs, Tt, W, U, b, h0), rtol=1e-9, atol=1e-12)
        t = bench({"python": lambda: rnn(xs, T, W, U, b, h0),
                   "njit": lambda: rnn_njit(xs, T, W, U, b, h0),
                   "ag": lambda: ag_rnn(xs, Tt, W, U, b, h0)}, cfg["repeat"], number=3)
        rows.append(dict(workload=f"(2) RNN T={T} h={H} in={I}", unit="ms", **t,
                         ratio=t["ag"] / t["njit"], limit=1.2))
        sources["rnn"] = ag_rnn.get_concrete_function(xs, Tt, W, U, b, h0).source

        # (3) collatz with vectorized_map on every core vs the loop of (1) on one
        xs = rng.integers(1, cfg["high"], cfg["n_map"]).astype(np.int64)
        ag_map = ag.defun(lambda xs: ag.vectorized_map(collatz_steps, xs))
        firsts["vectorized_map"] = {"njit": timed(lambda: collatz_prange(xs))[0],
                                    "ag": timed(lambda: ag_map(xs))[0]}
        ref = collatz_njit(xs)
        for name, got in [("prange", collatz_prange(xs)), ("ag loop", ag_collatz(xs)),
                          ("vectorized_map", ag_map(xs))]:
            check_close(f"collatz {name}", ref, got, rtol=0, atol=0)
        t = bench({"njit": lambda: collatz_prange(xs), "loop": lambda: ag_collatz(xs),
                   "ag": lambda: ag_map(xs)}, max(3, cfg["repeat"] // 3), number=1)
        loop = t.pop("loop")
        rows.append(dict(workload=f"(3) vectorized_map collatz {cfg['n_map']:,} ints on "
                         f"{os.cpu_count()} cores (njit: prange; ratio: vs the (1) loop under "
                         f"ag.defun, {fmt_t(loop, 'ms')})", unit="ms", **t,
                         ratio=t["ag"] / loop, limit=0.6))
        sources["vectorized_map"] = ag_map.get_concrete_function(xs).source

        # (4) an early return of the array the loop fills
        import numba
        x = rng.random(cfg["n_fill"])
        limit = np.float64(10.0)
        fill_njit, ag_fill = numba.njit(fill_until), ag.defun(fill_until)
        firsts["fill_until"] = {"njit": timed(lambda: fill_njit(x, limit))[0],
                                "ag": timed(lambda: ag_fill(x, limit))[0]}
        ref = fill_until(x, limit)
        for name, got in [("njit", fill_njit(x, limit)), ("ag", ag_fill(x, limit))]:
            check_close(f"fill_until {name}", ref, got, rtol=0, atol=0)
        t = bench({"python": lambda: fill_until(x, limit), "njit": lambda: fill_njit(x, limit),
                   "ag": lambda: ag_fill(x, limit)}, cfg["repeat"], number=1)
        rows.append(dict(workload=f"(4) return from the loop filling {cfg['n_fill']:,} "
                         f"elements", unit="ms", **t, ratio=t["ag"] / t["njit"], limit=1.15))
        sources["fill_until"] = ag_fill.get_concrete_function(x, limit).source
    except AssertionError as e:
        print(f"WRONG RESULT: {e}")
        return 2

    for r in rows:
        r["ratio_text"] = f"{r['ratio']:.2f}x"
        r["target"] = f"<= {r['limit']}x"
        r["met"] = yes(r["ratio"] <= r["limit"])
    print_table(rows)
    for r in rows:
        if "python" in r:
            print(f"    {r['workload']}: plain Python / ag = {r['python'] / r['ag']:.0f}x")
    for name, f in firsts.items():
        print(f"first call (compile) {name}: njit {f['njit']:.2f} s, "
              f"ag trace+compile {f['ag']:.2f} s")
    if args.show_source:
        for name, src in sources.items():
            print(f"\n--- ag kernel: {name} ---\n{src}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"rows": rows, "first_calls": firsts}, fh, indent=2, default=str)
    if args.check and not all(r["ratio"] <= r["limit"] for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    t0 = time.perf_counter()
    code = main()
    print(f"total {time.perf_counter() - t0:.1f} s")
    sys.exit(code)
