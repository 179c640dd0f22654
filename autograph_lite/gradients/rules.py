"""The ``grad`` field of each differentiable op: its vector-Jacobian product, from other ops.

A rule takes ``(site, out_grads)`` (registry.py's contract) and returns one gradient or
None per input, in the output's broadcast shape; the sweep sums each to its input's
shape (``sum_to``) and casts it to its dtype, so the elementwise rules below are the
textbook derivatives and nothing else. Where a function is not differentiable at a point
the rule picks TensorFlow's convention (a tie of ``maximum`` goes to the first operand,
``abs`` has 0 at 0, ``floor`` and ``sign`` have 0 everywhere).

Complex tensors follow TensorFlow's convention too: the gradient of a real target with
respect to ``z = x + iy`` is ``dL/dx + i dL/dy``. A holomorphic op with derivative ``f'``
then passes ``g * conj(f'(z))`` (``_cj``), a real-linear one (sums, shapes, indexing,
selection) passes ``g`` as for real tensors, and ``abs``/``real``/``imag``/``conjugate``
have rules of their own. Linear algebra on complex matrices refuses (``_real``)."""
import builtins
import math

import numpy as np

from .. import numpy_api as npa
from ..ops import advanced_index
from ..ops.advanced_index import GATHER
from ..ops.dispatch import apply as _ap, size_of
from ..ops.index_spec import encode_index
from ..ops.registry import defgrad
from .sweep import inexact


def _mul(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = _ap("multiply", out, x)
    return out


def _div(a, b):
    return _ap("true_divide", a, b)


def _cj(t):
    """``conj(t)`` for a complex tensor (the complex rules' factor), else ``t`` itself."""
    return _ap("conjugate", t) if getattr(t, "dtype", np.dtype(float)).kind == "c" else t


def _unary(name, derivative):
    """``derivative(x, y)``: dy/dx elementwise; the rule is g * conj(dy/dx)."""
    defgrad(name, lambda s, g: [_mul(g[0], _cj(derivative(s.inputs[0], s.outputs[0])))])


def _abs(s, g):
    """d|x| = sign(x); for a complex z, d|z|/dx + i d|z|/dy = z / |z| (0 at 0)."""
    x, y = s.inputs[0], s.outputs[0]
    if x.dtype.kind != "c":
        return [_mul(g[0], _ap("sign", x))]
    nonzero = _ap("greater", y, 0.0)
    return [_mul(g[0], _where(nonzero, _div(x, _where(nonzero, y, 1.0)), 0.0))]


defgrad("abs", _abs)
defgrad("fabs", _abs)
defgrad("conjugate", lambda s, g: [_ap("conjugate", g[0])])
defgrad("real", lambda s, g: [g[0]])                    # (the sweep makes it complex)
defgrad("imag", lambda s, g: [_mul(g[0], 1j)])


_SQ = lambda x: _ap("multiply", x, x)  # noqa: E731
_LN2, _LN10 = math.log(2.0), math.log(10.0)

for _name, _d in {
    "negative": lambda x, y: -1.0,
    "positive": lambda x, y: 1.0,
    "sqrt": lambda x, y: _div(0.5, y),
    "cbrt": lambda x, y: _div(1.0 / 3.0, _SQ(y)),
    "square": lambda x, y: _mul(x, 2.0),
    "exp": lambda x, y: y,
    "exp2": lambda x, y: _mul(y, _LN2),
    "expm1": lambda x, y: _ap("add", y, 1.0),
    "log": lambda x, y: _ap("reciprocal", x),
    "log2": lambda x, y: _div(1.0 / _LN2, x),
    "log10": lambda x, y: _div(1.0 / _LN10, x),
    "log1p": lambda x, y: _div(1.0, _ap("add", x, 1.0)),
    "reciprocal": lambda x, y: _ap("negative", _SQ(y)),
    "sin": lambda x, y: _ap("cos", x),
    "cos": lambda x, y: _ap("negative", _ap("sin", x)),
    "tan": lambda x, y: _ap("add", _SQ(y), 1.0),
    "arcsin": lambda x, y: _div(1.0, _ap("sqrt", _ap("subtract", 1.0, _SQ(x)))),
    "arccos": lambda x, y: _div(-1.0, _ap("sqrt", _ap("subtract", 1.0, _SQ(x)))),
    "arctan": lambda x, y: _div(1.0, _ap("add", _SQ(x), 1.0)),
    "sinh": lambda x, y: _ap("cosh", x),
    "cosh": lambda x, y: _ap("sinh", x),
    "tanh": lambda x, y: _ap("subtract", 1.0, _SQ(y)),
    "arcsinh": lambda x, y: _div(1.0, _ap("sqrt", _ap("add", _SQ(x), 1.0))),
    "arccosh": lambda x, y: _div(1.0, _ap("sqrt", _ap("subtract", _SQ(x), 1.0))),
    "arctanh": lambda x, y: _div(1.0, _ap("subtract", 1.0, _SQ(x))),
    "sigmoid": lambda x, y: _mul(y, _ap("subtract", 1.0, y)),
    "relu": lambda x, y: _ap("cast", _ap("greater", x, 0), dtype=y.dtype),
    "deg2rad": lambda x, y: math.pi / 180.0,
    "radians": lambda x, y: math.pi / 180.0,
    "rad2deg": lambda x, y: 180.0 / math.pi,
    "degrees": lambda x, y: 180.0 / math.pi,
}.items():
    _unary(_name, _d)

for _name in ("sign", "floor", "ceil", "trunc", "rint"):  # piecewise constant
    defgrad(_name, lambda s, g: [None])
defgrad("floor_divide", lambda s, g: [None, None])
# heaviside(x, h): a step in x; h is its value where x == 0
defgrad("heaviside", lambda s, g: [None, _where(_ap("equal", s.inputs[0], 0), g[0], 0.0)])
# re + i im (TensorFlow's convention: the parts of the complex gradient)
defgrad("make_complex", lambda s, g: [_ap("real", g[0]), _ap("imag", g[0])])

defgrad("as_weak", lambda s, g: [g[0]])
defgrad("cast", lambda s, g: [g[0]])  # (the sweep casts it back to the input's dtype:
#                                        a real input takes the real part of a complex g)


def _where(c, a, b):
    return _ap("where", c, a, b)


def _binary(name, rule):
    """``rule(a, b, y, g) -> (grad a, grad b)``."""
    defgrad(name, lambda s, g: list(rule(*s.inputs, s.outputs[0], g[0])))


_binary("add", lambda a, b, y, g: (g, g))
_binary("subtract", lambda a, b, y, g: (g, _ap("negative", g)))
_binary("multiply", lambda a, b, y, g: (_mul(g, _cj(b)), _mul(g, _cj(a))))
_binary("true_divide", lambda a, b, y, g: (
    _div(g, _cj(b)), _ap("negative", _div(_mul(g, _cj(y)), _cj(b)))))
_binary("maximum", lambda a, b, y, g: (_where(_ap("greater_equal", a, b), g, 0.0),
                                       _where(_ap("greater_equal", a, b), 0.0, g)))
_binary("minimum", lambda a, b, y, g: (_where(_ap("less_equal", a, b), g, 0.0),
                                       _where(_ap("less_equal", a, b), 0.0, g)))
_binary("fmax", lambda a, b, y, g: (_where(_ap("equal", y, a), g, 0.0),
                                    _where(_ap("equal", y, a), 0.0, g)))
_binary("fmin", lambda a, b, y, g: (_where(_ap("equal", y, a), g, 0.0),
                                    _where(_ap("equal", y, a), 0.0, g)))


def _power(a, b, y, g):
    if y.dtype.kind == "c":  # d/db a**b = a**b log a wherever a != 0
        nonzero = _ap("not_equal", a, 0)
        db = _where(nonzero, _mul(y, _ap("log", _where(nonzero, a, 1.0))), 0.0)
        return (_mul(g, _cj(_mul(b, _ap("power", a, _ap("subtract", b, 1))))),
                _mul(g, _cj(db)))
    da = _mul(g, b, _ap("power", a, _ap("subtract", b, 1)))
    # d/db a**b = a**b log a, taken as 0 where a <= 0 (TensorFlow's convention)
    positive = _ap("greater", a, 0)
    db = _where(positive, _mul(g, y, _ap("log", _where(positive, a, 1.0))), 0.0)
    return da, db


_binary("power", _power)
_binary("float_power", lambda a, b, y, g: _power(_ap("cast", a, dtype=y.dtype),
                                                 _ap("cast", b, dtype=y.dtype), y, g))


def _atan2(a, b, y, g):
    r = _ap("add", _SQ(a), _SQ(b))
    return _div(_mul(g, b), r), _ap("negative", _div(_mul(g, a), r))


_binary("arctan2", _atan2)
_binary("hypot", lambda a, b, y, g: (_div(_mul(g, a), y), _div(_mul(g, b), y)))
_binary("logaddexp", lambda a, b, y, g: (_mul(g, _ap("exp", _ap("subtract", a, y))),
                                         _mul(g, _ap("exp", _ap("subtract", b, y)))))
_binary("logaddexp2", lambda a, b, y, g: (_mul(g, _ap("exp2", _ap("subtract", a, y))),
                                          _mul(g, _ap("exp2", _ap("subtract", b, y)))))
_binary("copysign", lambda a, b, y, g: (
    _mul(g, _ap("sign", a), _ap("sign", y)), None))
_binary("fmod", lambda a, b, y, g: (g, _ap("negative", _mul(g, _ap("trunc", _div(a, b))))))
_binary("mod", lambda a, b, y, g: (g, _ap("negative", _mul(g, _ap("floor", _div(a, b))))))

defgrad("where", lambda s, g: [None, _where(s.inputs[0], g[0], 0.0),
                               _where(s.inputs[0], 0.0, g[0])])


def _clip(s, g):
    x, lo, hi = s.inputs
    inside = _ap("logical_and", _ap("greater_equal", x, lo), _ap("less_equal", x, hi))
    return [_where(inside, g[0], 0.0), _where(_ap("less", x, lo), g[0], 0.0),
            _where(_ap("greater", x, hi), g[0], 0.0)]


defgrad("clip", _clip)


# -- reductions ------------------------------------------------------------------------------
def shape_of(x):
    """A tensor of ``x``'s shape for a rule that needs only the shape: when every size is
    known, one that does not read ``x`` (so a value replayed only for its shape, a loop
    body's matmul, is not computed again), else ``x`` itself."""
    if None in tuple(x.shape):
        return x
    return _ap("full", False, shape=tuple(x.shape), dtype=np.bool_)


def zeros_as(x):
    """Zeros of ``x``'s shape and dtype (``shape_of``'s rule: x is not read when static)."""
    return npa.zeros_like(x) if None in tuple(x.shape) else npa.zeros(tuple(x.shape), x.dtype)


def _axes(s):
    axis = s.attrs.get("axis")
    return tuple(range(s.inputs[0].ndim)) if axis is None else tuple(axis)


def _spread(s, g):
    """``g`` (a reduction's gradient) broadcast back over the reduced axes of input 0."""
    x = s.inputs[0]
    if not s.attrs.get("keepdims") and g.ndim:
        for k in sorted(_axes(s)):  # (ascending: each axis is a position in the result)
            g = npa.expand_dims(g, k)
    if g.dtype != x.dtype and s.attrs.get("dtype") is not None:  # (a sum in another dtype)
        g = _ap("cast", g, dtype=x.dtype)
    return _ap("broadcast_to", g, shape_of(x))


def _count(s):
    """The number of elements each output of a reduction over ``_axes`` sums."""
    x = s.inputs[0]
    n = 1
    for k in _axes(s):  # (a Python int while the sizes are known)
        n = n * (x.shape[k] if x.shape[k] is not None else _ap("dim", x, axis=k))
    return n


defgrad("reduce_sum", lambda s, g: [_spread(s, g[0])])
defgrad("reduce_mean", lambda s, g: [_spread(s, _div(g[0], _ap("cast", _count(s),
                                                                  dtype=s.outputs[0].dtype)))])


def _extreme(s, g):
    # the gradient is shared equally by the elements equal to the extreme (TensorFlow)
    x, y = s.inputs[0], s.outputs[0]
    hit = _ap("cast", _ap("equal", x, _spread(s, y)), dtype=y.dtype)
    ties = npa.sum(hit, axis=_axes(s), keepdims=bool(s.attrs.get("keepdims")))
    return [_mul(_spread(s, _div(g[0], ties)), hit)]


defgrad("reduce_max", _extreme)
defgrad("reduce_min", _extreme)


def _flip(t, axis):
    return t[(slice(None),) * axis + (slice(None, None, -1),)]


def _cumsum(s, g):
    # each input adds to the outputs from its place on: the reversed cumulative sum
    axis = s.attrs.get("axis")
    if axis is None:  # (over the flattened array)
        flat = _flip(npa.cumsum(_flip(g[0], 0)), 0)
        return [_ap("reshape_as", flat, s.inputs[0])]
    return [_flip(npa.cumsum(_flip(g[0], axis), axis), axis)]


defgrad("cumsum", _cumsum)


# -- shapes and indexing -----------------------------------------------------------------------
defgrad("reshape", lambda s, g: [_ap("reshape_as", g[0], s.inputs[0])])
defgrad("expand_dims", lambda s, g: [_ap("reshape_as", g[0], s.inputs[0])])
defgrad("squeeze", lambda s, g: [_ap("reshape_as", g[0], s.inputs[0])])
defgrad("reshape_as", lambda s, g: [_ap("reshape_as", g[0], s.inputs[0]), None])
defgrad("broadcast_to", lambda s, g: [g[0], None])  # (the sweep sums it to x's shape)
# (a gradient's sum over broadcast axes, differentiated again: its adjoint broadcast back)
defgrad("sum_to", lambda s, g: [_ap("broadcast_to", g[0], s.inputs[0]), None])


def _transpose(s, g):
    axes = s.attrs.get("axes")
    inverse = None if axes is None else tuple(int(k) for k in np.argsort(axes))
    return [_ap("transpose", g[0], axes=inverse)]


defgrad("transpose", _transpose)


def _flat(s):
    """(positions, the indexed part ``y`` of ``x``, ``view`` taking a gradient's part under
    the basic index, ``back`` putting a gradient of ``y`` back into ``x``'s shape) of an
    index with an array in it, as ops/advanced_index.py builds the read: positions into
    ``y`` raveled."""
    spec, x = s.attrs["spec"], s.inputs[0]
    tensors = s.inputs[1:] if s.op.name == "getitem" else s.inputs[2:]
    basic, advanced = advanced_index.split(x.ndim, spec, list(tensors))
    whole = all(b == slice(None) for b in basic)
    basic_spec, basic_tensors = encode_index(basic)

    def view(v):
        return v if whole else _ap("getitem", v, *basic_tensors, spec=basic_spec)

    def back(d):
        return d if whole else _ap("setitem", zeros_as(x), d, *basic_tensors, spec=basic_spec)
    y = view(x)
    return advanced_index.positions(y, advanced), y, view, back


def _ravel(v):
    return _ap("reshape", v, shape=(-1,))


def _getitem(s, g):
    spec = s.attrs["spec"]
    n = len(s.inputs) - 1
    if tuple(spec) == GATHER:  # x[idx]: repeated rows add up
        return [_ap("scatter_add", shape_of(s.inputs[0]), s.inputs[1], g[0]), None]
    if any(part[0] == "gather" for part in spec):  # (several arrays, another axis)
        where, y, _, back = _flat(s)
        flat = _ap("scatter_add", shape_of(_ravel(y)), _ravel(where), _ravel(g[0]))
        return [back(_ap("reshape_as", flat, y))] + [None] * n
    x, tensors = s.inputs[0], s.inputs[1:]
    return [_ap("setitem", zeros_as(x), g[0], *tensors, spec=spec)] + [None] * n


def _setitem(s, g):
    """dx: the output gradient where nothing was written; dv: where it was, and with an
    index array only at the last write of each position (NumPy keeps the last value)."""
    spec = s.attrs["spec"]
    tensors = s.inputs[2:]
    dx = _ap("setitem", g[0], 0.0, *tensors, spec=spec)
    if not any(part[0] == "gather" for part in spec):
        return [dx, _ap("getitem", g[0], *tensors, spec=spec)] + [None] * len(tensors)
    where, y, view, _ = _flat(s)
    gy = view(g[0])
    flat = _ravel(where)
    order = npa.arange(size_of(flat, 0))
    last = _ap("setitem", npa.full_like(_ravel(y), -1, dtype=np.int64), order, flat,
               spec=GATHER)  # (each position: the number of its last write)
    kept = _ap("reshape_as", _ap("getitem", last, flat, spec=GATHER) == order, where)
    dv = npa.where(kept, _ap("getitem", _ravel(gy), where, spec=GATHER), 0.0)
    return [dx, dv] + [None] * len(tensors)


defgrad("getitem", _getitem)
defgrad("setitem", _setitem)


def first_rows(g, like):
    """``g[:len(like)]``: as many rows as ``like`` has (read at run time)."""
    return _ap("getitem", g, _ap("dim", like, axis=0), spec=(("slice", None, ("t", 1), None),))


def _list_push(s, g):
    """``out``: ``buf`` with row ``n`` written, in a buffer grown when full: the row gets
    ``g[n]``, the buffer ``g`` cut to its own rows (a grown buffer's new rows held nothing)
    and 0 at row ``n`` (overwritten)."""
    buf, n, _ = s.inputs
    rows = first_rows(g[0], buf)
    kept = _ap("not_equal", npa.arange(size_of(buf, 0)), n)
    kept = _ap("reshape", kept, shape=(-1,) + (1,) * (buf.ndim - 1))
    return [npa.where(kept, rows, 0.0), None, _ap("getitem", g[0], n, spec=(("tint", 1),))]


defgrad("list_push", _list_push)


def _taken_back(x, index, axis, g):
    """The adjoint of ``take_along_axis(x, index, axis)`` for its gradient ``g``: each
    element's gradient added where it was taken from."""
    where = advanced_index.positions(x, advanced_index.along_axis(x, index, axis))
    flat = _ap("scatter_add", shape_of(_ravel(x)), _ravel(where), _ravel(g))
    return _ap("reshape_as", flat, x)


def _sort(s, g):
    """Each sorted element's gradient goes back to where it came from: the sort is the
    gather of ``x`` at its (stable) argsort on the last axis, whose adjoint scatters."""
    x = s.inputs[0]
    return [_taken_back(x, _ap("argsort", x), x.ndim - 1, g[0])]


def _running_extreme(s, g):
    """``maximum.accumulate``: each running maximum is the element that first reached it
    (a later equal one does not take over, as argmax picks the first), so the gradient goes
    back to the position of the last new maximum at or before each place."""
    x, y, axis = s.inputs[0], s.outputs[0], s.attrs["axis"] % s.inputs[0].ndim
    before = (slice(None),) * axis
    beats = "greater" if s.op.name == "cummax" else "less"
    new = npa.concatenate([npa.ones_like(x[before + (slice(0, 1),)], dtype=bool),
                           _ap(beats, x[before + (slice(1, None),)],
                               y[before + (slice(None, -1),)])], axis=axis)
    shape = tuple(-1 if k == axis else 1 for k in range(x.ndim))
    place = _ap("reshape", npa.arange(size_of(x, axis)), shape=shape)
    last = _ap("cummax", _where(new, place, 0), axis=axis)
    return [_taken_back(x, last, axis, g[0])]


defgrad("cummax", _running_extreme)
defgrad("cummin", _running_extreme)


def _convolve(s, g):
    """out = full[first:first + size] of the full convolution, so with ``G`` the output
    gradient placed in the full length: da = convolve(G, conj(v)[::-1], 'valid'), and dv
    the same with a."""
    a, v = s.inputs
    mode = s.attrs["mode"]
    n, m = size_of(a, 0), size_of(v, 0)
    small = builtins.min(n, m) if isinstance(n, int) and isinstance(m, int) else \
        _ap("minimum", n, m)
    first = {"full": 0, "same": (small - 1) // 2, "valid": small - 1}[mode]
    spec, tensors = encode_index((slice(first, first + size_of(g[0], 0)),))
    full = _ap("setitem", npa.zeros((n + m - 1,), dtype=g[0].dtype), g[0], *tensors,
               spec=spec)
    return [_ap("convolve", full, _flip(_cj(v), 0), mode="valid"),
            _ap("convolve", full, _flip(_cj(a), 0), mode="valid")]


defgrad("convolve", _convolve)


def _interp(s, g):
    """Piecewise linear in x and in fp: x gets the slope of its segment (at a sample point
    the one to its right, 0 at the last one and beyond the ends, where the value is
    ``left``/``right``); fp[j] and fp[j + 1] get the weights 1 - t and t; left and right
    what falls beyond the ends. Moving the sample points xp is not differentiated."""
    x, xp, fp, _, _ = s.inputs
    if s.in_keys[1] in s.depends and inexact(xp):
        raise NotImplementedError("the gradient of np.interp with respect to the sample "
                                  "points xp is not built yet")
    g = g[0]
    n = size_of(xp, 0)
    j = _ap("subtract", _ap("searchsorted", xp, x, side="right"), 1)
    inside = _ap("logical_and", _ap("greater_equal", x, xp[0]), _ap("less_equal", x, xp[-1]))
    k = _ap("clip", j, 0, _ap("maximum", _ap("subtract", n, 2), 0))
    last = _ap("minimum", _ap("add", k, 1), _ap("subtract", n, 1))
    x0, x1 = _ap("getitem", xp, k, spec=GATHER), _ap("getitem", xp, last, spec=GATHER)
    f0, f1 = _ap("getitem", fp, k, spec=GATHER), _ap("getitem", fp, last, spec=GATHER)
    between = _ap("logical_and", inside, _ap("less", j, n - 1))
    width = _where(between, _ap("subtract", x1, x0), 1.0)
    t = _where(between, _div(_ap("subtract", x, x0), width), 0.0)
    dx = _where(between, _mul(g, _div(_ap("subtract", f1, f0), width)), 0.0)
    # fp: (1 - t) to k and t to k + 1 between samples; all of it to j at a sample point
    at = _where(between, k, _ap("clip", j, 0, _ap("subtract", n, 1)))
    w0 = _where(inside, _mul(g, _ap("subtract", 1.0, t)), 0.0)
    w1 = _mul(g, t)
    dfp = _ap("add", _ap("scatter_add", shape_of(fp), _ravel(at), _ravel(w0)),
              _ap("scatter_add", shape_of(fp), _ravel(last), _ravel(w1)))
    beyond = npa.sum(_where(_ap("less", x, xp[0]), g, 0.0))
    past = npa.sum(_where(_ap("greater", x, xp[-1]), g, 0.0))
    return [dx, None, dfp, beyond, past]


defgrad("interp", _interp)


defgrad("sort", _sort)


def _cumprod(s, g):
    axis, x = s.attrs.get("axis"), s.inputs[0]
    _real(x, "np.cumprod")
    if axis is None:  # (over the flattened array)
        return [_ap("reshape_as", _ap("cumprod_vjp", _ravel(x), g[0], axis=0), x)]
    return [_ap("cumprod_vjp", x, g[0], axis=axis % x.ndim)]


defgrad("cumprod", _cumprod)
def _add_at(s, g):
    """np.add.at: x passes through; each added row's gradient is the output's row it went
    to. (np.maximum.at and the others combining otherwise: not built, refused.)"""
    ufunc = s.attrs.get("ufunc", "add")
    if ufunc != "add":
        raise NotImplementedError(f"the gradient of np.{ufunc}.at is not built")
    return [g[0], None, _ap("getitem", g[0], s.inputs[1], spec=GATHER)]


defgrad("add_at", _add_at)


def _join(stacked):
    def rule(s, g):
        axis = s.attrs["axis"]
        grads, start = [], 0
        for x in s.inputs:
            if stacked:
                index = (slice(None),) * axis + (len(grads),)
            else:
                size = x.shape[axis] if x.shape[axis] is not None else _ap("dim", x, axis=axis)
                stop = start + size  # (a Python int while the sizes are known)
                index = (slice(None),) * axis + (slice(start, stop),)
                start = stop
            grads.append(g[0][index])
        return grads
    return rule


defgrad("concat", _join(False))
defgrad("stack", _join(True))


def _split(s, g):
    parts = [gi if gi is not None else zeros_as(o) for gi, o in zip(g, s.outputs)]
    return [npa.concatenate(parts, axis=s.attrs["axis"])] + [None] * (len(s.inputs) - 1)


defgrad("split", _split)


# -- linear algebra --------------------------------------------------------------------------
def _swap(x):
    return npa.transpose(x, tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2))


def _matmul(s, g):
    a, b = s.inputs
    g = g[0]
    a, b = _cj(a), _cj(b)   # (complex: g times the conjugated other operand)
    if a.ndim == 1 and b.ndim == 1:
        return [_mul(g, b), _mul(g, a)]
    if a.ndim == 1:   # (k) @ (..., k, n) -> (..., n): da = b @ g (a matrix-vector product)
        da = _ap("matmul", b, g) if b.ndim == 2 else \
            _ap("matmul", b, npa.expand_dims(g, -1))[..., 0]
        db = _mul(npa.expand_dims(a, -1), npa.expand_dims(g, -2))
        return [da, db]
    if b.ndim == 1:   # (..., m, k) @ (k) -> (..., m): db = a^T g
        da = _mul(npa.expand_dims(g, -1), b)
        db = _ap("matmul", g, a) if a.ndim == 2 else \
            _ap("matmul", _swap(a), npa.expand_dims(g, -1))[..., 0]
        return [da, db]
    return [_ap("matmul", g, _swap(b)), _ap("matmul", _swap(a), g)]


defgrad("matmul", _matmul)


def _others(x, axis):
    """The product of the other elements along ``axis``, at each element, without a
    division (exact where elements are zero): exclusive products from both ends."""
    ones = npa.ones_like(x[(slice(None),) * axis + (slice(0, 1),)])
    head = (slice(None),) * axis + (slice(None, -1),)
    left = npa.cumprod(npa.concatenate([ones, x[head]], axis=axis), axis=axis)
    right = _flip(npa.cumprod(npa.concatenate([ones, _flip(x, axis)[head]], axis=axis),
                              axis=axis), axis)
    return _mul(left, right)


def _prod_grad(x, axes, g):
    """The gradient of ``prod(x, axes, keepdims=True)`` for its gradient ``g``, one axis at
    a time: prod over (a, b...) is prod over a of prod over (b...)."""
    if not axes:
        return g
    inner = npa.prod(x, axis=axes[0], keepdims=True)
    g_inner = _prod_grad(inner, axes[1:], g)
    return _mul(_ap("broadcast_to", g_inner, shape_of(x)), _cj(_others(x, axes[0])))


def _reduce_prod(s, g):
    x = s.inputs[0]
    gk = g[0]
    if not s.attrs.get("keepdims") and gk.ndim:
        for k in sorted(_axes(s)):
            gk = npa.expand_dims(gk, k)
    if x.ndim == 0:
        return [gk]
    return [_prod_grad(x, list(_axes(s)), gk)]


defgrad("reduce_prod", _reduce_prod)


def _real(x, what):
    if x.dtype.kind == "c":
        raise NotImplementedError(f"the gradient of {what} of a complex tensor is not built "
                                  f"yet (complex gradients)")


def _inv(s, g):
    _real(s.inputs[0], "np.linalg.inv")
    yt = _swap(s.outputs[0])
    return [_ap("negative", _ap("matmul", _ap("matmul", yt, g[0]), yt))]


def _det(s, g):
    # d det(A) = det(A) inv(A)^T (A invertible; a singular A raises LinAlgError here)
    a = s.inputs[0]
    _real(a, "np.linalg.det")
    return [_mul(_swap(_ap("inv", a)), _mul(g[0], s.outputs[0]))]


def _solve(s, g):
    # x = A^-1 b: db = A^-T g, dA = -db x^T
    a, _ = s.inputs
    x = s.outputs[0]
    _real(x, "np.linalg.solve")
    db = _ap("solve", _swap(a), g[0])
    if x.ndim == 1:
        return [_ap("negative", _mul(npa.expand_dims(db, -1), npa.expand_dims(x, 0))), db]
    return [_ap("negative", _ap("matmul", db, _swap(x))), db]


def _cholesky(s, g):
    """L = cholesky(A) reads A's lower triangle only (NumPy's LAPACK potrf does too), so
    the derivative is Φ(S + S^T) with S = L^-T Φ(L^T tril(Ḡ)) L^-1 (Murray 2016's
    symmetric rule folded onto the lower triangle), Φ = the lower triangle with its
    diagonal halved: what central differences of each entry of A give."""
    lo = s.outputs[0]
    _real(lo, "np.linalg.cholesky")

    def phi(x):
        return _mul(_ap("add", np.tril(x), np.tril(x, -1)), 0.5)
    p = phi(_ap("matmul", _swap(lo), np.tril(g[0])))
    x = _ap("solve", _swap(lo), p)                  # L^-T P
    st = _ap("solve", _swap(lo), _swap(x))          # (L^-T P L^-1)^T
    return [phi(_ap("add", st, _swap(st)))]


defgrad("inv", _inv)
defgrad("det", _det)
defgrad("solve", _solve)
defgrad("cholesky", _cholesky)


# Differentiable ops whose rule is still to come: a gradient through one refuses with
# NotImplementedError at the user's line (sweep.py), never a silent zero.
PENDING = frozenset()
