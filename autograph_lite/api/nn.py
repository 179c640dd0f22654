"""ag.nn: softmax, log_softmax, dropout (TF 2 arguments); relu, sigmoid and tanh are
claimed by their op entries (front_door.py puts them here)."""
from .. import dtypes
from ..ops import dispatch, registry
from . import core
from . import random


@registry.public("ag.nn.softmax")
def softmax(logits, axis=-1, name=None):
    z = logits - core.reduce_max(logits, axis=axis, keepdims=True)
    e = dispatch.apply("exp", z)
    return e / core.reduce_sum(e, axis=axis, keepdims=True)


@registry.public("ag.nn.log_softmax")
def log_softmax(logits, axis=-1, name=None):
    z = logits - core.reduce_max(logits, axis=axis, keepdims=True)
    e = dispatch.apply("exp", z)
    return z - dispatch.apply("log", core.reduce_sum(e, axis=axis, keepdims=True))


@registry.public("ag.nn.dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeroes each element with probability ``rate`` and scales the rest by 1/(1-rate)."""
    if not 0 <= rate < 1:
        raise ValueError(f"dropout: rate must be in [0, 1), got {rate}")
    if rate == 0:
        return x
    shape = x.shape if noise_shape is None else noise_shape
    keep = random.uniform(shape, dtype=dtypes.float64) >= rate
    return core.where(keep, x / (1.0 - rate), core.zeros_like(x))
