"""Train a two-layer perceptron with a compiled train step (SPEC §5; issue 14, item 7).

    python examples/train_mlp.py

The model is an ``ag.Module`` of two dense layers whose ``call`` is compiled with a Python
``training`` flag (dropout-free here: the flag scales the hidden layer, one trace per
value). ``train_step`` runs the tape, the gradients and the SGD update as one kernel call.
The same step in plain NumPy with hand-derived gradients is timed beside it, and the two
are checked to compute the same parameters.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import autograph_lite as ag  # noqa: E402


class Dense(ag.Module):
    def __init__(self, n_in, n_out, rng, name):
        super().__init__(name)
        self.w = ag.Variable(rng.normal(size=(n_in, n_out)) / np.sqrt(n_in), name=name + "/w")
        self.b = ag.Variable(np.zeros(n_out), name=name + "/b")

    def __call__(self, x):
        return x @ self.w + self.b


class MLP(ag.Module):
    def __init__(self, n_in, hidden, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.hidden = Dense(n_in, hidden, rng, "hidden")
        self.out = Dense(hidden, 1, rng, "out")

    @ag.defun
    def call(self, x, training=False):
        h = np.tanh(self.hidden(x))
        if training:
            h = h * 1.0   # (where dropout would go)
        return self.out(h)[:, 0]


def dataset(n=512, seed=1):
    """Two interleaved half-moons: labels 0/1."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    label = rng.integers(0, 2, n)
    x = np.stack([np.cos(t) + label * 1.0 - 0.5, np.sin(t) * (1 - 2 * label) + label * 0.5], 1)
    return x + rng.normal(scale=0.1, size=x.shape), label.astype(np.float64)


def numpy_step(params, x, y, lr):
    """The same step by hand: forward, the logistic loss's gradient, SGD."""
    w1, b1, w2, b2 = params
    h = np.tanh(x @ w1 + b1)
    logits = (h @ w2 + b2)[:, 0]
    loss = np.mean(np.logaddexp(0.0, logits) - y * logits)
    d_logits = (1.0 / (1.0 + np.exp(-logits)) - y)[:, None] / len(y)
    d_w2, d_b2 = h.T @ d_logits, d_logits.sum(0)
    d_pre = (d_logits @ w2.T) * (1.0 - h * h)
    d_w1, d_b1 = x.T @ d_pre, d_pre.sum(0)
    return loss, [w1 - lr * d_w1, b1 - lr * d_b1, w2 - lr * d_w2, b2 - lr * d_b2]


def main(steps=300, lr=0.5):
    x, y = dataset()
    model = MLP(2, 32)
    optimizer = ag.optimizers.SGD(lr)
    params = [v.numpy() for v in (model.hidden.w, model.hidden.b, model.out.w, model.out.b)]

    @ag.defun
    def train_step(x, y):
        with ag.GradientTape() as tape:
            logits = model.call(x, training=True)
            loss = np.mean(np.logaddexp(0.0, logits) - y * logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    t0 = time.perf_counter()
    train_step(x, y)
    first = time.perf_counter() - t0
    _, params = numpy_step(params, x, y, lr)
    t_ag = t_np = 0.0
    for step in range(1, steps):
        t0 = time.perf_counter()
        loss = float(np.asarray(train_step(x, y)))
        t1 = time.perf_counter()
        loss_np, params = numpy_step(params, x, y, lr)
        t_np += time.perf_counter() - t1
        t_ag += t1 - t0
        if step % 50 == 0 or step == steps - 1:
            print(f"step {step:4d}  loss {loss:.4f}  (NumPy by hand: {loss_np:.4f})")
    got = {v.name: v.numpy() for v in model.trainable_variables}
    for name, want in zip(("hidden/w", "hidden/b", "out/w", "out/b"), params):
        assert np.allclose(got[name], want, rtol=1e-9, atol=1e-9), name
    accuracy = np.mean((np.asarray(model.call(x)) > 0) == (y > 0.5))
    print(f"accuracy {accuracy:.3f}; train step: ag {t_ag / (steps - 1) * 1e6:.0f} us, "
          f"NumPy by hand {t_np / (steps - 1) * 1e6:.0f} us "
          f"({t_np / t_ag:.2f}x); first call (trace + compile) {first:.1f} s")


if __name__ == "__main__":
    main()
