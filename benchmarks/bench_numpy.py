"""The scientific NumPy corpus at working sizes: plain NumPy vs ``numba.njit`` vs ``ag.defun``.

    python benchmarks/bench_numpy.py            # full run (a few minutes on 2 cores)
    python benchmarks/bench_numpy.py --quick    # fewer repeats
    python benchmarks/bench_numpy.py --only heat_1d,gcd_pairs --json out.json

Every kernel of tests/corpus/kernels.py, unchanged, at a size where one plain call takes
about 1-50 ms, three ways in one process: the plain function (NumPy, with its Python loops
as written), ``numba.njit(kernel)`` of the very same function ("n/a" where Numba cannot
compile it: the error's first words are listed), and ``ag.defun(kernel)``. Each variant's
result and its arguments afterwards are checked against the plain run before timing.

Columns: best-of-N times per call (after a warm-up call that compiles), ag/njit and
ag/numpy. The geometric mean of ag/njit is over the kernels where both compiled and
agreed, leaving out the ones tests/corpus/expected.py lists as not agreeing today (they
print "xfail") and any whose arguments are all Python values (ag computes those at trace
time). Timing: steady state, variants interleaved round-robin, GC off
(benchmarks/bench_core.py's harness). The machine is shared: read the ratios.
Exit status: 0 ran (every ag result that ran agreed or is a listed xfail); 2 when ag gave
a wrong result or failed on a kernel not listed.
"""
import argparse
import json
import math
import os
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # see bench_core.py
os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# (normalized, so tracebacks show plain paths)
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))

import warnings  # noqa: E402

import numpy as np  # noqa: E402

from bench_core import bench, fmt_t, load_average, timed  # noqa: E402
from tests.corpus import kernels as K  # noqa: E402
from tests.corpus.expected import NOT_AGREEING  # noqa: E402

FULL = dict(repeat=7)
QUICK = dict(repeat=3)


# --- inputs at working sizes --------------------------------------------------------------
def _rng(seed):
    return np.random.default_rng(seed)


def _walk(n, seed):
    return 10.0 + np.cumsum(_rng(seed).standard_normal(n))


def _bump(n):
    return np.exp(-((np.linspace(0.0, 1.0, n) - 0.5) ** 2) / 0.02)


def _spd(n, seed):
    a = _rng(seed).random((n, n))
    return a @ a.T + n * np.eye(n)


def _board(n):
    return (_rng(5).random((n, n)) < 0.3).astype(np.int64)


def inputs():
    """kernel name -> argument tuple (built lazily, in the corpus' order)."""
    r = _rng
    walk_up = np.abs(r(11).standard_normal(20_000))
    walk_up[-1] = -1.0
    return {
        "heat_1d": lambda: (_bump(2000), 0.2, 200),
        "heat_2d": lambda: (r(1).random((100, 100)), 0.2, 50),
        "jacobi_poisson": lambda: (r(2).random((100, 100)), np.zeros((100, 100)), 0.01, 50),
        "laplacian_loops": lambda: (r(3).random((100, 100)), 0.01),
        "wave_1d": lambda: (_bump(2000), _bump(2000), 0.5, 200),
        "pairwise_distances": lambda: (r(4).random((300, 3)),),
        "pairwise_distances_loops": lambda: (r(4).random((70, 3)),),
        "nearest_neighbour": lambda: (r(5).random((300, 3)), r(6).random((300, 3))),
        "summary_stats": lambda: (_walk(100_000, 7), r(8).random(100_000) + 0.5),
        "zscore_columns": lambda: (r(9).random((20_000, 10)),),
        "var_std_methods": lambda: (r(10).random((1000, 100)),),
        "moving_average": lambda: (_walk(200_000, 12), 50),
        "histogram_loop": lambda: (r(13).normal(0.0, 1.0, 10_000), -2.0, 2.0, 20),
        "masked_mean": lambda: (_walk(200_000, 14), 9.0, 11.0),
        "clip_outliers": lambda: (r(15).normal(0.0, 1.0, 200_000), 2.0),
        "box_blur_roll": lambda: (r(16).random((300, 300)),),
        "box_blur_pad": lambda: (r(16).random((300, 300)),),
        "sobel_edges": lambda: (r(17).random((300, 300)), 1.0),
        "threshold_image": lambda: (r(18).random((500, 500)), 0.5),
        "game_of_life": lambda: (_board(100), 20),
        "gaussian_bump_grid": lambda: (np.linspace(-2.0, 2.0, 300), np.linspace(-1.0, 1.0, 300),
                                       1.0, 0.5),
        "trapezoid_2d": lambda: (np.linspace(0.0, 1.0, 400), np.linspace(0.0, 2.0, 400)),
        "newton_sqrt": lambda: (np.linspace(1.0, 50.0, 100_000), 1e-12),
        "bisection_cubic": lambda: (np.zeros(10_000), np.full(10_000, 4.0), 1e-9),
        "fixed_point_cos": lambda: (np.linspace(-1.0, 2.0, 10_000), 1e-10, 200),
        "nbody_step": lambda: (r(19).random((20, 2)), np.zeros((20, 2)), np.ones(20), 0.001, 5),
        "lorenz_euler": lambda: (np.array([1.0, 1.0, 1.0]), 0.005, 2000),
        "rk4_oscillator": lambda: (np.array([1.0, 0.0]), 0.01, 1000, 0.1),
        "logistic_map": lambda: (np.linspace(2.5, 4.0, 10_000), 0.3, 200),
        "collatz_steps": lambda: (np.arange(1, 301, dtype=np.int64) * 3,),
        "gcd_pairs": lambda: (r(20).integers(1, 10**6, 2000), r(21).integers(0, 10**6, 2000)),
        "sieve_primes": lambda: (1_000_000,),
        "prefix_sum_loop": lambda: (_walk(20_000, 22),),
        "running_max_drawdown": lambda: (_walk(10_000, 23) + 100.0,),
        "cumulative_trapezoid": lambda: (_bump(10_000), 0.001),
        "power_iteration": lambda: (_spd(200, 24), 50),
        "gram_schmidt": lambda: (r(25).random((100, 30)),),
        "matmul_loops": lambda: (r(26).random((30, 30)), r(27).random((30, 30))),
        "upsample_hold": lambda: (r(28).random(100_000), 4),
        "finite_difference_derivative": lambda: (np.sin(np.linspace(0.0, 30.0, 500_000)),
                                                 30.0 / 500_000),
        "first_crossing": lambda: (_walk(20_000, 29), 1e9),
        "sum_until_negative": lambda: (walk_up,),
        "median_filter": lambda: (_walk(1000, 30), 5),
        "smooth_convolve": lambda: (_walk(200_000, 31), 9),
        "interp_resample": lambda: (np.cumsum(r(32).random(100_000)), _walk(100_000, 33),
                                    500_000),
        "polyfit_normal": lambda: (np.linspace(-1.0, 1.0, 100_000), _walk(100_000, 34), 3),
        "gauss_seidel": lambda: (_spd(50, 35), np.arange(1.0, 51.0), 1e-10, 500),
        "positive_part": lambda: (r(36).normal(0.0, 1.0, 500_000),),
        "count_above": lambda: (_walk(1_000_000, 37), 10.0),
        "bincount_histogram": lambda: (r(38).random(500_000), 50),
        "quartiles_sorted": lambda: (_walk(200_000, 39),),
        "kmeans": lambda: (r(40).random((5000, 2)), r(41).random((4, 2)), 10),
        "row_normalize_einsum": lambda: (r(42).random((100_000, 3)) + 0.1,),
        "find_peaks_list": lambda: (_walk(20_000, 43),),
        "projectile_drag": lambda: (np.array([0.0, 0.0, 10.0, 10.0]), 0.0005, 0.1),
        "pendulum_math": lambda: (np.linspace(0.1, 3.0, 100), 0.01, 100),
        "knn_indices": lambda: (r(44).random((400, 3)), 5),
        "histogram_2d_add_at": lambda: (r(45).random(200_000), r(46).random(200_000), 32),
        "one_hot_accuracy": lambda: (r(47).random((100_000, 10)), r(48).integers(0, 10, 100_000)),
        "mandelbrot_escape": lambda: (np.linspace(-2.0, 0.5, 200), np.linspace(-1.1, 1.1, 150),
                                      50),
        "julia_escape": lambda: (np.linspace(-1.5, 1.5, 200), np.linspace(-1.0, 1.0, 150),
                                 -0.8, 0.156, 50),
        "mandelbrot_loops": lambda: (np.linspace(-2.0, 0.5, 40), np.linspace(-1.1, 1.1, 30),
                                     50),
        "newton_fractal": lambda: (np.linspace(-1.05, 1.0, 200), np.linspace(-1.05, 1.0, 150),
                                   20),
    }


# --- checking -----------------------------------------------------------------------------
def _copy(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _plain(x):
    return np.asarray(x.numpy()) if hasattr(x, "numpy") else x


def same(ref, got, rtol=1e-7, atol=1e-9):
    """got (one variant's result, or its arguments afterwards) matches the plain run's."""
    if isinstance(ref, (tuple, list)):
        return (isinstance(got, (tuple, list)) and len(got) == len(ref)
                and all(same(r, g, rtol, atol) for r, g in zip(ref, got)))
    if ref is None or got is None:
        return ref is None and got is None
    ref, got = np.asarray(ref), np.asarray(_plain(got))
    if ref.shape != got.shape:
        return False
    if ref.dtype.kind in "fc" or got.dtype.kind in "fc":
        return bool(np.allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(got, ref))


_NUMBA_KEYS = ("Use of unsupported", "No implementation of function", "Unknown attribute",
               "unsupported", "Cannot", "Invalid use")


def why(e, width=110):
    """One line of an error: for Numba's long TypingError, its first telling line."""
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    pick = next((ln for key in _NUMBA_KEYS for ln in lines if key in ln), lines[0] if lines
                else "")
    text = f"{type(e).__name__}: {pick}"
    return text if len(text) <= width else text[:width - 3] + "..."


def prepare(name, fn, args, numba, ag):
    """The variants of one kernel that compile and agree with the plain run, and notes."""
    ref_args = _copy(args)
    ref = fn(*ref_args)
    variants = {"numpy": fn}
    row = dict(kernel=name, notes=[])
    for label, make in (("njit", lambda: numba.njit(fn)), ("ag", lambda: ag.defun(fn))):
        try:
            compiled = make()
            call_args = _copy(args)
            row[f"first_{label}"], got = timed(lambda: compiled(*call_args))
        except Exception as e:  # noqa: BLE001 - a variant that cannot run is a table entry
            row[label] = "fail" if label == "ag" else "n/a"
            row["notes"].append(f"{label}: {why(e)}")
            continue
        if not (same(ref, got) and same(ref_args, call_args)):
            row[label] = "differs"
            row["notes"].append(f"{label}: result or arguments differ from NumPy")
            continue
        variants[label] = compiled
    return row, variants


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--only", help="comma-separated kernel names")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    os.environ["AUTOGRAPH_LITE_CACHE_DIR"] = tempfile.mkdtemp(prefix="ag_bench_numpy_")
    import numba

    import autograph_lite as ag
    warnings.simplefilter("ignore")  # overflow in the logistic map, inf in fractals...
    load = load_average()
    print(f"autograph_lite scientific NumPy corpus ({'quick' if args.quick else 'full'}); "
          f"best of {cfg['repeat']} interleaved repeats;{load}")
    table = inputs()
    names = args.only.split(",") if args.only else list(table)
    rows, unexpected = [], []
    for name in names:
        fn = getattr(K, name)
        call = table[name]()
        row, variants = prepare(name, fn, call, numba, ag)
        t = bench({k: (lambda f=f: f(*_copy(call))) for k, f in variants.items()},
                  cfg["repeat"], number=1, warmup=1)
        row.update(t)
        expected = name in NOT_AGREEING
        if row.get("ag") in ("fail", "differs"):
            row["ag"] = "xfail" if expected else row["ag"].upper()
            if not expected:
                unexpected.append(name)
        elif expected:
            row["notes"].append("listed in expected.py but agrees here")
        if all(not isinstance(a, np.ndarray) for a in call):
            row["notes"].append("all arguments are Python values: ag computes it at trace time")
            row["trace_time"] = True
        rows.append(row)
        print(f"  {name}: done", file=sys.stderr, flush=True)
    print_table(rows)
    both = [r["ag"] / r["njit"] for r in rows if _ran(r, "ag") and _ran(r, "njit")
            and not r.get("trace_time")]
    geo = math.exp(sum(math.log(x) for x in both) / len(both)) if both else float("nan")
    print(f"\ngeometric mean ag/njit over {len(both)} kernels where both ran: {geo:.2f}x")
    left_out = [r["kernel"] for r in rows if r["ag"] == "xfail"]
    print(f"left out, ag does not run them today (tests/corpus/expected.py): "
          f"{', '.join(left_out) or 'none'}")
    for r in rows:
        for note in r["notes"]:
            print(f"    {r['kernel']}: {note}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"rows": rows, "geomean_ag_over_njit": geo}, fh, indent=2, default=str)
    if unexpected:
        print(f"ag failed or differed on kernels not listed as expected: {unexpected}")
        return 2
    return 0


def _ran(row, label):
    return isinstance(row.get(label), float)


def _ratio(row, a, b):
    if not (_ran(row, a) and _ran(row, b)):
        return "-"
    return f"{row[a] / row[b]:.2f}x" + (" (const)" if row.get("trace_time") else "")


def print_table(rows):
    head = ["kernel", "numpy", "njit", "ag", "ag/njit", "ag/numpy", "1st njit", "1st ag"]
    body = [[r["kernel"], fmt_t(r.get("numpy"), "ms"), fmt_t(r.get("njit"), "ms"),
             fmt_t(r.get("ag"), "ms"), _ratio(r, "ag", "njit"), _ratio(r, "ag", "numpy"),
             fmt_t(r.get("first_njit"), "s") if "njit" in r and _ran(r, "njit") else "-",
             fmt_t(r.get("first_ag"), "s") if _ran(r, "ag") else "-"] for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    print(" | ".join(h.ljust(w) for h, w in zip(head, widths)))
    print("-+-".join("-" * w for w in widths))
    for b in body:
        print(" | ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w)
                         for i, (x, w) in enumerate(zip(b, widths))))


if __name__ == "__main__":
    t0 = time.perf_counter()
    code = main()
    print(f"total {time.perf_counter() - t0:.1f} s")
    sys.exit(code)
