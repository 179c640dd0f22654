"""ag.math: elementwise math and reductions, TensorFlow names over the op table."""
from ..ops.dispatch import apply
from .core import (abs, add, argmax, argmin, cumsum, divide, equal, exp, floordiv,  # noqa: F401
                   greater, greater_equal, less, less_equal, logical_and, logical_not,
                   logical_or, logical_xor, maximum, minimum, multiply, negative, not_equal,
                   pow, reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
                   reduce_prod, reduce_sum, sign, sqrt, square, subtract, truediv)

_UNARY = {"log": "log", "log1p": "log1p", "expm1": "expm1", "sin": "sin", "cos": "cos",
          "tan": "tan", "asin": "arcsin", "acos": "arccos", "atan": "arctan", "sinh": "sinh",
          "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh", "acosh": "arccosh",
          "atanh": "arctanh", "floor": "floor", "ceil": "ceil", "round": "rint",
          "reciprocal": "reciprocal", "is_nan": "isnan", "is_inf": "isinf",
          "is_finite": "isfinite", "sigmoid": "sigmoid"}


def _make(op):
    def fn(x, name=None):
        return apply(op, x)
    fn.__name__ = op
    return fn


for _name, _op in _UNARY.items():
    globals()[_name] = _make(_op)


def atan2(y, x, name=None):
    return apply("arctan2", y, x)


def floormod(x, y, name=None):
    return apply("mod", x, y)


def log_sigmoid(x, name=None):
    return -apply("log1p", apply("exp", -x))
