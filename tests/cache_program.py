"""Kernels of every kind, run as a fresh process by test_cache.py (not a test module).

Prints three JSON lines: the results, per Function (Numba cache hits, misses, cache
class), and the heavy Numba modules loading the first three kernels imported, so a second run with the same AUTOGRAPH_LITE_CACHE_DIR shows what was loaded
from disk and how. The argument becomes a constant of one more kernel that no cache
holds: it is compiled after the disk loads of the same process.
"""
import json
import sys

import numpy as np

import autograph_lite as ag


@ag.defun
def chain(x):
    return np.tanh(x * 2.0 - 1.0) / (1.0 + x * x)


@ag.defun
def newton(a):
    x = a
    d = np.ones_like(a)
    while np.max(np.abs(d)) > 1e-10:
        d = (x * x - a) / (2.0 * x)
        x = x - d
    return x


@ag.defun
def layer(x, w):
    return np.tanh(x @ w)


@ag.defun
def intops(a, b):
    return a // b, a % b, np.sum(a)


@ag.defun
def noisy(x):
    return x + ag.random.normal([3], dtype=ag.float64, seed=7)


@ag.defun
def printed(x):
    ag.print("x:", x)
    return x + 1.0


def host_sort(x):
    return np.sort(x)


@ag.defun
def callback(x):
    return ag.py_func(host_sort, [x * 2.0], ag.float64)


@ag.defun(autograph=False)
def pick(x, i):
    return x[i] * 1.0


def main(tag):
    a = np.linspace(1.0, 9.0, 6)
    out = {
        "chain": chain(a.astype(np.float32)).numpy(),
        "newton": newton(a).numpy(),
        "layer": layer(np.ones((2, 3)), np.full((3, 2), 0.25)).numpy(),
    }
    # Numba modules a process imports to load these kernels (cpu_runtime's allocation,
    # copy and BLAS product link no overload from them): none when loaded from disk.
    heavy = ("numba.np.arrayobj", "numba.np.linalg", "numba.cpython.unicode")
    loaded_heavy = [m for m in heavy if m in sys.modules]
    out |= {
        "intops": [t.numpy().tolist()
                   for t in intops(np.array([7, -7, 5, 0]), np.array([2, 2, 0, -3]))],
        "noisy": [noisy(np.zeros(3)).numpy().tolist() for _ in range(2)],
        "printed": printed(np.arange(2.0)).numpy(),
        "callback": callback(np.array([3.0, 1.0, 2.0])).numpy(),
    }
    try:
        pick(np.zeros(4), np.int64(9))
        out["error"] = "none"
    except IndexError as e:
        named = "cache_program.py" in str(e)
        out["error"] = type(e).__name__ + (" names the line" if named else str(e))
    # a kernel that exists in no cache yet: compiled after the lean loads in this process
    fresh = ag.defun(lambda x: x * float(tag) + 0.5, autograph=False)
    out["fresh"] = fresh(np.arange(3.0)).numpy()
    fns = {"chain": chain, "newton": newton, "layer": layer, "intops": intops,
           "noisy": noisy, "printed": printed, "callback": callback}
    loads = {}
    for name, f in fns.items():
        for cf in f._cache.values():
            st = cf._dispatcher.stats
            loads[name] = (sum(st.cache_hits.values()), sum(st.cache_misses.values()),
                           type(cf._dispatcher._cache).__name__)
    print(json.dumps(out, default=lambda v: np.asarray(v).tolist()))
    print(json.dumps(loads))
    print(json.dumps(loaded_heavy))


if __name__ == "__main__":
    main(sys.argv[1])
