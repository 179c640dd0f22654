"""GPU benchmarks: ``backend="cuda"`` against the cpu backend and hand-written numba.cuda.

    python benchmarks/bench_gpu.py                # on a machine with an NVIDIA GPU
    python benchmarks/bench_gpu.py --quick        # smaller sizes
    python benchmarks/bench_gpu.py --simulator    # no GPU: Numba's CUDA simulator, tiny
                                                  # sizes; checks results, times mean nothing
    python benchmarks/bench_gpu.py --only newton  # one workload (e.g. under ncu)

Workloads (one process, all variants side by side on the same inputs):
  (1) collatz step counts of n integers with ``ag.vectorized_map`` (one kernel, a thread
      per element) vs a hand-written kernel doing the same per thread;
  (2) a 6-op elementwise chain ``sqrt(|sin(x) * y + 2.5|) - x`` on 10^7 float64 values
      (ag: one fused kernel) vs a hand-written kernel;
  (3) a matmul chain ``tanh(a @ b) @ c`` of 2048x2048 float32 matrices (ag: tiled kernels
      in shared memory) vs a hand-written tiled kernel;
  (4) Newton's sqrt on 10^7 float64 values (a staged while: a step kernel and a max
      reduction per iteration, the predicate read on the host) vs the same algorithm
      written by hand (a step kernel and ``cuda.reduce``).
Each variant starts from host NumPy arrays and ends with host results (ag's results come
back to the host; the hand versions copy in and out too), so transfers count alike.
Target: ag cuda <= 1.2x the hand-written kernels. Exit status: 0 ran and agreed (1 with
``--check`` when a target was missed); 2 on a wrong result; 3 without a GPU (and without
``--simulator``).
"""
import argparse
import math
import os
import sys
import time

import numpy as np  # (imports no Numba: --simulator is set before Numba is imported)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

FULL = dict(repeat=7, n_map=1_000_000, n=10_000_000, m=2048, high=20_000)
QUICK = dict(repeat=3, n_map=100_000, n=1_000_000, m=512, high=20_000)
SIM = dict(repeat=1, n_map=64, n=256, m=20, high=50)
TILE = 16


def chain(x, y):
    return np.sqrt(np.abs(np.sin(x) * y + 2.5)) - x


def matmul_chain(a, b, c):
    return np.tanh(a @ b) @ c


def newton(a):
    x = a.copy()
    delta = np.ones_like(a)
    while np.max(np.abs(delta)) > 1e-10:
        delta = (x * x - a) / (2.0 * x)
        x = x - delta
    return x


def hand_kernels():
    """The same workloads written directly in numba.cuda."""
    @cuda.jit
    def k_collatz(out, xs):
        i = cuda.grid(1)
        if i < xs.shape[0]:
            v = xs[i]
            steps = 0
            while v != 1:
                if v % 2 == 0:
                    v = v // 2
                else:
                    v = 3 * v + 1
                steps += 1
            out[i] = steps

    @cuda.jit
    def k_chain(out, x, y):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = math.sqrt(abs(math.sin(x[i]) * y[i] + 2.5)) - x[i]

    @cuda.jit
    def k_matmul(out, a, b, tanh):
        sa = cuda.shared.array((TILE, TILE), numba.float32)
        sb = cuda.shared.array((TILE, TILE), numba.float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        row, col = cuda.blockIdx.y * TILE + ty, cuda.blockIdx.x * TILE + tx
        acc = numba.float32(0.0)
        for k0 in range(0, a.shape[1], TILE):
            sa[ty, tx] = a[row, k0 + tx] if row < a.shape[0] and k0 + tx < a.shape[1] else 0
            sb[ty, tx] = b[k0 + ty, col] if k0 + ty < b.shape[0] and col < b.shape[1] else 0
            cuda.syncthreads()
            for k in range(TILE):
                acc += sa[ty, k] * sb[k, tx]
            cuda.syncthreads()
        if row < out.shape[0] and col < out.shape[1]:
            out[row, col] = math.tanh(acc) if tanh else acc

    @cuda.jit
    def k_newton(x, delta, absd, a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            d = (x[i] * x[i] - a[i]) / (2.0 * x[i])
            x[i] = x[i] - d
            absd[i] = abs(d)

    @cuda.reduce
    def max_reduce(p, q):
        return max(p, q)

    def grid(n):
        return (n + 127) // 128, 128

    def collatz(xs):
        d = cuda.to_device(xs)
        out = cuda.device_array(xs.shape[0], np.int64)
        k_collatz[grid(xs.shape[0])](out, d)
        return out.copy_to_host()

    def chain_hand(x, y):
        dx, dy = cuda.to_device(x), cuda.to_device(y)
        out = cuda.device_array_like(dx)
        k_chain[grid(x.shape[0])](out, dx, dy)
        return out.copy_to_host()

    def matmul(a, b, c):
        da, db, dc = cuda.to_device(a), cuda.to_device(b), cuda.to_device(c)
        t = cuda.device_array((a.shape[0], b.shape[1]), np.float32)
        blocks = ((b.shape[1] + TILE - 1) // TILE, (a.shape[0] + TILE - 1) // TILE)
        k_matmul[blocks, (TILE, TILE)](t, da, db, True)
        out = cuda.device_array((a.shape[0], c.shape[1]), np.float32)
        k_matmul[((c.shape[1] + TILE - 1) // TILE, blocks[1]), (TILE, TILE)](out, t, dc, False)
        return out.copy_to_host()

    def newton_hand(a):
        da = cuda.to_device(a)
        x = cuda.to_device(a)
        delta = cuda.device_array_like(da)
        absd = cuda.device_array_like(da)
        while True:
            k_newton[grid(a.shape[0])](x, delta, absd, da)
            if max_reduce(absd) <= 1e-10:
                break
        return x.copy_to_host()
    return {"collatz": collatz, "chain": chain_hand, "matmul": matmul, "newton": newton_hand}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    ap.add_argument("--simulator", action="store_true",
                    help="run on Numba's CUDA simulator (no GPU): tiny sizes, results only")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    ap.add_argument("--only", default="", help="comma-separated workloads to run (of "
                    "collatz, chain, matmul, newton): a profile of one costs less device time")
    args = ap.parse_args(argv)
    only = {w for w in args.only.split(",") if w}
    if only - {"collatz", "chain", "matmul", "newton"}:
        ap.error(f"--only: unknown workloads {sorted(only - {'collatz', 'chain', 'matmul', 'newton'})}")
    if args.simulator:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
    global numba, cuda
    import numba
    from numba import cuda
    if not (args.simulator or cuda.is_available()):
        print("bench_gpu: no CUDA GPU here (numba.cuda.is_available() is False); run it on a "
              "machine with one, or pass --simulator to check the results on Numba's CUDA "
              "simulator")
        return 3
    import autograph_lite as ag
    from bench_autograph import collatz_steps  # (1)'s per-element function
    from bench_core import as_np, bench, check_close, fmt_t, yes
    cfg = SIM if args.simulator else QUICK if args.quick else FULL
    rng = np.random.default_rng(3)
    hand = hand_kernels()
    mapped = lambda xs: ag.vectorized_map(collatz_steps, xs)  # noqa: E731
    xs = rng.integers(1, cfg["high"], cfg["n_map"]).astype(np.int64)
    x, y = rng.standard_normal(cfg["n"]), rng.standard_normal(cfg["n"])
    m = cfg["m"]
    mats = [(rng.standard_normal((m, m)) / math.sqrt(m)).astype(np.float32) for _ in range(3)]
    a = rng.uniform(0.5, 100.0, cfg["n"])
    work = [("(1) vectorized_map collatz", "collatz", mapped, (xs,),
             np.array([collatz_steps(int(v)) for v in xs[:200]]), 0),
            ("(2) 6-op elementwise chain", "chain", chain, (x, y), chain(x[:200], y[:200]),
             1e-12),
            (f"(3) matmul chain {m}x{m} float32", "matmul", matmul_chain, mats, None, 1e-3),
            ("(4) Newton sqrt", "newton", newton, (a,), np.sqrt(a[:200]), 1e-9)]
    where = "simulator" if args.simulator else cuda.get_current_device().name
    print(f"autograph_lite GPU benchmarks ({where}); best of {cfg['repeat']}")
    rows = []
    work = [w for w in work if not only or w[1] in only]
    try:
        for title, key, fn, inputs, ref, tol in work:
            f_cuda = ag.defun(fn, backend="cuda")
            f_cpu = ag.defun(fn)
            variants = {"cpu": lambda: f_cpu(*inputs), "hand": lambda: hand[key](*inputs),
                        "ag": lambda: f_cuda(*inputs)}
            want = as_np(f_cpu(*inputs))
            for name in ("hand", "ag"):
                check_close(f"{title} {name}", want, variants[name](), rtol=max(tol, 1e-12),
                            atol=tol)
            if ref is not None:
                check_close(f"{title} cpu", ref, want.reshape(-1)[:len(ref)], rtol=1e-9,
                            atol=1e-12)
            t = bench(variants, cfg["repeat"])
            rows.append((title, t, t["ag"] / t["hand"]))
    except AssertionError as e:
        print(f"WRONG RESULT: {e}")
        return 2
    print(f"{'workload':34} | {'ag cpu':>10} | {'hand cuda':>10} | {'ag cuda':>10} | "
          f"ag/hand | target | met?")
    for title, t, ratio in rows:
        print(f"{title:34} | {fmt_t(t['cpu'], 'ms'):>10} | {fmt_t(t['hand'], 'ms'):>10} | "
              f"{fmt_t(t['ag'], 'ms'):>10} | {ratio:6.2f}x | <= 1.2x | "
              f"{'n/a' if args.simulator else yes(ratio <= 1.2)}")
    if args.simulator:
        print("(simulator: results checked; the times measure Python threads, not a GPU)")
    return 1 if args.check and any(r[2] > 1.2 for r in rows) else 0


if __name__ == "__main__":
    t0 = time.perf_counter()
    code = main()
    print(f"total {time.perf_counter() - t0:.1f} s")
    sys.exit(code)
