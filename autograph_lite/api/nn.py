"""ag.nn: relu, sigmoid, tanh, softmax, dropout (TF 2 arguments)."""
from .. import dtypes
from ..ops.dispatch import apply
from . import core
from .random import uniform


def relu(x, name=None):
    return apply("relu", x)


def sigmoid(x, name=None):
    return apply("sigmoid", x)


def tanh(x, name=None):
    return apply("tanh", x)


def softmax(logits, axis=-1, name=None):
    z = logits - core.reduce_max(logits, axis=axis, keepdims=True)
    e = apply("exp", z)
    return e / core.reduce_sum(e, axis=axis, keepdims=True)


def log_softmax(logits, axis=-1, name=None):
    z = logits - core.reduce_max(logits, axis=axis, keepdims=True)
    return z - apply("log", core.reduce_sum(apply("exp", z), axis=axis, keepdims=True))


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeroes each element with probability ``rate`` and scales the rest by 1/(1-rate)."""
    if not 0 <= rate < 1:
        raise ValueError(f"dropout: rate must be in [0, 1), got {rate}")
    if rate == 0:
        return x
    shape = x.shape if noise_shape is None else noise_shape
    keep = uniform(shape, dtype=dtypes.float64) >= rate
    return core.where(keep, x / (1.0 - rate), core.zeros_like(x))
