"""The front-door example: ordinary Python control flow over arrays, compiled unchanged.

`collatz` and `rnn` below are plain NumPy code: `for` over `range(len(xs))`, a `while`
on a value read from an array with an `if` inside, `out[i] = ...` into `np.empty`, a
list appended in a loop and stacked. `ag.defun(fn)` converts that control flow into
staged loops and branches, traces one graph per input signature and compiles it with
Numba. This script checks the compiled results against the plain run and prints the
speed-ups and the kernel Numba compiled.

Run: python examples/control_flow.py
"""
import math
import time

import numpy as np

import autograph_lite as ag


def collatz(xs):
    """Collatz step counts of each value of `xs`."""
    out = np.empty(len(xs), np.int64)
    for i in range(len(xs)):
        v = int(xs[i])
        steps = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            steps += 1
        out[i] = steps
    return out


def rnn(xs, T, W, U, b, h0):
    """An RNN over the first T rows of xs, damped whenever a state value nears +-1."""
    h = h0
    outs = []
    for t in range(T):
        h = np.tanh(W @ h + U @ xs[t] + b)
        if np.max(np.abs(h)) > 0.9:
            h = h * 0.9
        outs.append(h)
    return np.stack(outs)


def best_of(fn, *args, repeat=5):
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    rng = np.random.default_rng(0)
    xs = rng.integers(1, 20_000, 1000)
    fast_collatz = ag.defun(collatz)
    t0 = time.perf_counter()
    steps = fast_collatz(xs).numpy()
    first = time.perf_counter() - t0
    assert np.array_equal(steps, collatz(xs))
    print(f"collatz: steps of the first 8 of 1000 values {steps[:8]}, longest "
          f"{steps.max()} (value {xs[steps.argmax()]})")
    print(f"  first call (convert + trace + compile) {first:.2f} s; then "
          f"{best_of(collatz, xs) / best_of(fast_collatz, xs):.0f}x faster than plain Python")

    T, H, I = 1000, 64, 32
    args = (rng.standard_normal((T, I)), np.int64(T), rng.standard_normal((H, H)) * 0.3,
            rng.standard_normal((H, I)) * 0.3, rng.standard_normal(H) * 0.1, np.zeros(H))
    fast_rnn = ag.defun(rnn)
    t0 = time.perf_counter()
    hs = fast_rnn(*args).numpy()
    first = time.perf_counter() - t0
    assert np.allclose(hs, rnn(*args))
    print(f"rnn: {hs.shape[0]} states of size {hs.shape[1]}, mean |h| {np.abs(hs).mean():.4f}")
    print(f"  first call {first:.2f} s; then "
          f"{best_of(rnn, *args) / best_of(fast_rnn, *args):.1f}x faster than plain NumPy")

    print("\nthe kernel compiled for collatz(int64[1000]):")
    print(fast_collatz.get_concrete_function(xs).source)


if __name__ == "__main__":
    main()
