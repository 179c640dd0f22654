"""Gradient benchmark (issue 14): reverse mode through a loop whose trip count is a run-time
value, side by side in one run.

    python benchmarks/bench_gradients.py            # n=256, k=100
    python benchmarks/bench_gradients.py --quick    # n=64, k=20, few repeats

Workload: the gradient with respect to an n x n matrix A of
    L(A) = sum over t = 1..k of sum(A^t v)
with k passed as a tensor, so the loop is staged with a run-time trip count:
  - ag:     ``ag.gradients(L(A, v, k), [A])`` inside one ``ag.defun`` (one kernel: the
            recorded forward loop and the reverse loop); "loss+grad" returns L too;
  - njit:   a hand-written ``@numba.njit`` reverse sweep (forward states stored, then
            a_t = 1 + A^T a_{t+1}, dA += outer(a_t, x_{t-1}); np.dot for the products);
  - numpy:  the same hand sweep in NumPy.
Also the forward pass alone (ag vs njit) and the first call of the ag gradient (trace +
compile). Timing: best of N, variants interleaved, GC off. Ratios, not absolute times.
Exit status 2 when a variant disagrees with the NumPy sweep.
"""
import argparse
import gc
import os
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
# a fresh kernel cache: the first call below is a real trace + compile
os.environ.setdefault("AUTOGRAPH_LITE_CACHE_DIR", tempfile.mkdtemp(prefix="ag-bench-grad-"))

import numba  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import autograph_lite as ag  # noqa: E402


def loss(A, v, k):
    total = 0.0
    x = v
    t = 0
    while t < k:
        x = A @ x
        total = total + np.sum(x)
        t += 1
    return total


def ag_gradient(A, v, k):
    return ag.gradients(loss(A, v, k), [A])[0]


def ag_loss_and_gradient(A, v, k):
    L = loss(A, v, k)
    return L, ag.gradients(L, [A])[0]


def numpy_sweep(A, v, k):
    xs = [v]
    for _ in range(k):
        xs.append(A @ xs[-1])
    a, dA = np.zeros_like(v), np.zeros_like(A)
    for t in range(k, 0, -1):
        a = 1.0 + A.T @ a
        dA += np.outer(a, xs[t - 1])
    return dA


@numba.njit(cache=False)
def njit_sweep(A, v, k):
    n = v.shape[0]
    xs = np.empty((k + 1, n))
    xs[0] = v
    for t in range(1, k + 1):
        xs[t] = np.dot(A, xs[t - 1])
    a = np.zeros(n)
    dA = np.zeros((n, n))
    At = np.ascontiguousarray(A.T)
    for t in range(k, 0, -1):
        a = 1.0 + np.dot(At, a)
        prev = xs[t - 1]
        for i in range(n):
            for j in range(n):
                dA[i, j] += a[i] * prev[j]
    return dA


@numba.njit(cache=False)
def njit_forward(A, v, k):
    total = 0.0
    x = v
    for _ in range(k):
        x = np.dot(A, x)
        total += x.sum()
    return total


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        gc.disable()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        gc.enable()
    return min(times)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    n, k, repeat = (64, 20, 3) if args.quick else (256, 100, 7)
    rng = np.random.default_rng(0)
    A = rng.normal(size=(n, n)) / (1.2 * np.sqrt(n))   # spectral radius < 1
    v = rng.normal(size=n)
    kk = np.int64(k)

    grad = ag.defun(ag_gradient)
    both = ag.defun(ag_loss_and_gradient)
    forward = ag.defun(loss)
    t0 = time.perf_counter()
    got = np.asarray(grad(A, v, kk))
    first = time.perf_counter() - t0
    expect = numpy_sweep(A, v, k)
    status = 0
    for name, value in (("ag", got), ("njit", njit_sweep(A, v, k))):
        if not np.allclose(value, expect, rtol=1e-9, atol=1e-9):
            print(f"WRONG: {name} differs from the NumPy sweep by "
                  f"{np.max(np.abs(value - expect)):.3g}")
            status = 2
    L, dA = both(A, v, kk)
    if not np.allclose(np.asarray(dA), expect, rtol=1e-9, atol=1e-9) or not np.isclose(
            float(np.asarray(L)), njit_forward(A, v, k), rtol=1e-12):
        print("WRONG: the ag loss-and-gradient differs from the NumPy sweep")
        status = 2
    if not np.isclose(float(np.asarray(forward(A, v, kk))), njit_forward(A, v, k), rtol=1e-12):
        print("WRONG: the ag forward pass differs from njit's")
        status = 2

    t = {}
    for _ in range(2):  # interleaved: each variant measured twice, the best kept
        for name, fn in (("ag grad", lambda: grad(A, v, kk)),
                         ("ag loss+grad", lambda: both(A, v, kk)),
                         ("njit grad", lambda: njit_sweep(A, v, k)),
                         ("numpy grad", lambda: numpy_sweep(A, v, k)),
                         ("ag forward", lambda: forward(A, v, kk)),
                         ("njit forward", lambda: njit_forward(A, v, k))):
            t[name] = min(t.get(name, 1e9), best(fn, repeat))
    print(f"gradient of sum_t sum(A^t v) w.r.t. A, n={n}, k={k} (run-time trip count)")
    print(f"{'variant':<14}{'ms':>10}{'/ njit grad':>14}")
    for name in ("ag grad", "ag loss+grad", "njit grad", "numpy grad", "ag forward",
                 "njit forward"):
        print(f"{name:<14}{t[name] * 1e3:>10.3f}{t[name] / t['njit grad']:>14.2f}")
    print(f"ag grad / njit grad: {t['ag grad'] / t['njit grad']:.2f}x (target <= 1.3x)")
    print(f"njit grad / njit forward: {t['njit grad'] / t['njit forward']:.2f}x; "
          f"ag grad / ag forward: {t['ag grad'] / t['ag forward']:.2f}x")
    print(f"ag first call (trace + compile): {first:.2f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
