"""The front-door example: Newton's method for sqrt, with a data-dependent while loop,
compiled by ag.defun, checked against NumPy, and timed against plain Python.

Run: python examples/newton_sqrt.py
"""
import math
import time

import numpy as np

import autograph_lite as ag


@ag.defun(autograph=False)
def newton_sqrt(a):
    """sqrt(a) by Newton steps until the largest update is below 1e-10."""
    def not_converged(x, delta):
        return np.max(np.abs(delta)) > 1e-10

    def step(x, delta):
        delta = (x * x - a) / (2.0 * x)
        return x - delta, delta

    x, _ = ag.while_loop(not_converged, step, (a, np.ones_like(a)))
    return x


def newton_sqrt_python(a):
    """The same algorithm in plain Python over a list."""
    x = list(a)
    while True:
        deltas = [(xi * xi - ai) / (2.0 * xi) for xi, ai in zip(x, a)]
        x = [xi - d for xi, d in zip(x, deltas)]
        if max(abs(d) for d in deltas) <= 1e-10:
            return x


def best_of(fn, *args, repeat=5):
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    a = np.linspace(1.0, 1e6, 200_000)
    t0 = time.perf_counter()
    root = newton_sqrt(a)
    first = time.perf_counter() - t0
    err = float(np.max(np.abs(root.numpy() - np.sqrt(a))))
    print(f"newton_sqrt on {a.size:,} values in [1, 1e6]: max error vs np.sqrt = {err:.1e}")
    print(f"  first call (trace + compile, or disk-cache load): {first * 1e3:.0f} ms")
    t_ag = best_of(newton_sqrt, a)
    small = a[::10].tolist()
    t_py = best_of(newton_sqrt_python, small, repeat=1) * (a.size / len(small))
    print(f"  compiled: {t_ag * 1e3:.1f} ms per call;  plain Python: {t_py * 1e3:.0f} ms "
          f"(measured on every 10th value, scaled)")
    print(f"  speed-up over plain Python: {t_py / t_ag:.0f}x")
    print("  traces:", newton_sqrt.experimental_get_tracing_count())
    print("\nGenerated kernel (autograph-lite show examples/newton_sqrt.py:newton_sqrt "
          "--stage kernel --signature 'float64[None]'):\n")
    print(newton_sqrt.get_concrete_function(a).source)


if __name__ == "__main__":
    main()
