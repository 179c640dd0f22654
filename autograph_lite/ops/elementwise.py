"""Elementwise ops: NumPy ufuncs (and a few composites) with NumPy's exact type rules.

Output dtypes come from asking NumPy itself (the ufunc applied to tiny stand-ins, with
Python scalars for weak operands), so promotion matches NumPy 2 by construction. The cpu
backend fuses chains of these into one loop nest, rendering each op's ``scalar`` form.
"""
import numpy as np

from .. import dtypes
from ..ir.types import TensorType, broadcast_shapes
from .registry import defop


def _stand_in(t):
    return dtypes.weak_stand_in(t.dtype) if t.weak else np.ones((), t.dtype)


def infer_from(numpy_fn, weak_result=True):
    """infer() for an elementwise op: NumPy's own dtype rule, NumPy's broadcasting."""
    def infer(in_types, **attrs):
        with np.errstate(all="ignore"):
            probe = numpy_fn(*[_stand_in(t) for t in in_types], **attrs)
        dt = np.asarray(probe).dtype
        if dt not in dtypes.ALL:
            raise TypeError(f"{numpy_fn.__name__} is not supported for "
                            + ", ".join(str(t.dtype) for t in in_types))
        shape = broadcast_shapes(*[t.shape for t in in_types])
        weak = weak_result and dtypes.all_weak(in_types)
        return [TensorType(dt, shape, weak)]
    return infer


def _ufunc(name, ufunc, scalar, **kw):
    return defop(name, infer=infer_from(ufunc), eager=ufunc, scalar=scalar, **kw)


def _binary_names(numpy_name, tf_name, operator=None, top=True):
    """np.<numpy_name>, ag.math.<tf_name> (and ag.<tf_name> when ``top``), and the Tensor
    operator ``__<operator>__`` with its reflected and in-place forms."""
    names = (f"np.{numpy_name}", f"ag.math.{tf_name}") + ((f"ag.{tf_name}",) if top else ())
    if operator:
        names += tuple(f"Tensor.__{form}{operator}__" for form in ("", "r", "i"))
    return names


def _math(*tf_names):
    return tuple(f"ag.math.{n}" for n in tf_names)


# Unary math: np.<f>(x) is supported by Numba on scalars of every dtype. The value: its
# TensorFlow names (np.<f> is claimed for every one).
_UNARY = {"sqrt": ("ag.sqrt",) + _math("sqrt"), "exp": ("ag.exp",) + _math("exp"),
          "log": _math("log"), "log1p": _math("log1p"), "expm1": _math("expm1"), "log2": (),
          "log10": (), "sin": _math("sin"), "cos": _math("cos"), "tan": _math("tan"),
          "arcsin": _math("asin"), "arccos": _math("acos"), "arctan": _math("atan"),
          "sinh": _math("sinh"), "cosh": _math("cosh"), "tanh": _math("tanh") + ("ag.nn.tanh",),
          "arcsinh": _math("asinh"), "arccosh": _math("acosh"), "arctanh": _math("atanh"),
          "floor": _math("floor"), "ceil": _math("ceil"), "rint": _math("round"), "trunc": (),
          "sign": ("ag.sign",) + _math("sign"), "square": ("ag.square",) + _math("square"),
          "reciprocal": _math("reciprocal"), "isnan": _math("is_nan"), "isinf": _math("is_inf"),
          "isfinite": _math("is_finite")}


def _reciprocal_scalar(em, exprs, in_types, out_type):
    # An integer's reciprocal is 1/x truncated, and 1/0 is C's conversion of inf, undefined:
    # NumPy gives what this machine's gives (here the minimum for int32/int64, 0 for the
    # others), Numba another (int16, uint32, uint64); NumPy's own value, computed here.
    dt = out_type.dtype
    if not dtypes.is_integer(dt):
        return f"np.reciprocal({exprs[0]})"
    with np.errstate(all="ignore"):
        at_zero = int(np.reciprocal(np.zeros(1, dt))[0])
    return f"rt.int_reciprocal({exprs[0]}, {at_zero})"


def _sign_scalar(em, exprs, in_types, out_type):
    # Numba's np.sign keeps -0.0 and gives the maximum for a large unsigned integer
    dt = out_type.dtype
    x = em.cast(exprs[0], in_types[0].dtype, dt)
    if dt.kind == "u":
        return f"({x} > 0)"
    if dt.kind == "c":
        return f"np.sign({x})"
    return f"rt.sign({x}, {em.lit(1, dt)})"


_SCALARS = {"reciprocal": _reciprocal_scalar, "sign": _sign_scalar}
for _n, _tf in _UNARY.items():
    _ufunc(_n, getattr(np, _n), _SCALARS.get(_n, f"np.{_n}({{0}})"),
           doc=f"np.{_n}",
           differentiable=not _n.startswith("is"),  # isnan/isinf/isfinite give bools
           names=(f"np.{_n}",) + _tf)
def _negative_scalar(em, exprs, in_types, out_type):
    if out_type.dtype == dtypes.int64 and not em.DEVICE:  # (-(-2**63) wraps: _int64_wraps)
        return f"rt.wrap_sub(0, {exprs[0]})"
    return f"(-{exprs[0]})"


_ufunc("negative", np.negative, _negative_scalar,
       names=("np.negative", "ag.negative", "ag.math.negative"))
_ufunc("conjugate", np.conjugate, "({0}).conjugate()", doc="np.conjugate")


# The parts of a complex array: views of it in NumPy (every other float of its buffer), so a
# write through `z.real` reaches `z` (mutation.py inverts the step with make_complex).
def _part(numpy_fn):
    return lambda x: np.array(numpy_fn(x))[()]


for _n, _attr in (("real", "real"), ("imag", "imag")):
    defop(_n, infer=infer_from(getattr(np, _n)), eager=_part(getattr(np, _n)),
          scalar=f"({{0}}).{_attr}", view=True, doc=f"z.{_attr} of a complex tensor")


def _make_complex(re, im):
    dt = np.result_type(np.asarray(re).dtype, np.asarray(im).dtype, np.complex64)
    out = np.empty(np.broadcast_shapes(np.shape(re), np.shape(im)), dt)
    out.real, out.imag = re, im
    return out[()]


defop("make_complex", infer=infer_from(_make_complex), eager=_make_complex,
      scalar="complex({0}, {1})",
      doc="a complex tensor from its real and imaginary parts (z.real = v, inverted)")
_ufunc("abs", np.absolute, "abs({0})",
       names=("np.absolute", "ag.abs", "ag.math.abs"))
_ufunc("logical_not", np.logical_not, "(not {0})", differentiable=False,
       names=("np.logical_not", "ag.logical_not", "ag.math.logical_not"))
_ufunc("invert", np.invert, "(~{0})", differentiable=False, names=("np.invert",))

# Binary arithmetic: Numba computes in its own (wider) types; the emitter casts operands to
# NumPy's common dtype first and the result back, so wrap-around and dtypes match NumPy.
# (the Python operators of + - * ** / // % are fronts, python_numbers.py: between two
# Python numbers of the plain run they raise where Python does)
def _int64_wraps(symbol, helper):
    """``a <symbol> b``; of int64 operands on the cpu, rt.wrap_<helper>: NumPy's int64 wraps
    on overflow, and Numba's operator is poison there, which LLVM may assume away
    (`(t + 1) > t` True for the largest int64, a wrapped hash's `% 10` wrong)."""
    def scalar(em, exprs, in_types, out_type):
        (a, b), ct = em.common_operands(exprs, in_types)
        if ct == dtypes.int64 and not em.DEVICE:
            return f"rt.wrap_{helper}({a}, {b})"
        return f"({a} {symbol} {b})"
    return scalar


_ufunc("add", np.add, _int64_wraps("+", "add"), names=_binary_names("add", "add"))
_ufunc("subtract", np.subtract, _int64_wraps("-", "sub"),
       names=_binary_names("subtract", "subtract"))
_ufunc("multiply", np.multiply, _int64_wraps("*", "mul"),
       names=_binary_names("multiply", "multiply"))
def _true_divide_scalar(em, exprs, in_types, out_type):
    """``a / b``; of complex numbers on the cpu NumPy's algorithm (rt.complex_divide: a
    zero divisor gives inf and nan, where Numba's raises ZeroDivisionError, and the bits
    are NumPy's, which scales by a reciprocal where CPython's, Numba's, divides)."""
    (a, b), _ = em.common_operands(exprs, in_types)
    if out_type.dtype.kind == "c" and not em.DEVICE:
        one = "np.float32(1.0)" if out_type.dtype == np.complex64 else "1.0"
        expr = f"rt.complex_divide({a}, {b}, {one})"
        return f"np.complex64({expr})" if out_type.dtype == np.complex64 else expr
    return f"({a} / {b})"


_ufunc("true_divide", np.true_divide, _true_divide_scalar,
       names=_binary_names("true_divide", "divide") + ("ag.truediv", "ag.math.truediv"))
def _floor_divide_scalar(em, exprs, in_types, out_type):
    (a, b), ct = em.common_operands(exprs, in_types)
    # (narrower ints are computed wider and wrap when cast back; a literal divisor other
    # than -1 needs no check, and stays a constant LLVM turns into shifts)
    if ct != dtypes.int64 or (b in em.literals and em.literals[b] != -1):
        return f"({a} // {b})"
    if em.DEVICE:  # (a kernel calls no helper; the operands are read twice)
        return f"(-{a} if {b} == -1 else {a} // {b})"
    return f"rt.int64_floor_divide({a}, {b})"


def _power_scalar(em, exprs, in_types, out_type):
    dt = out_type.dtype
    if dt.kind == "c" and not em.DEVICE:  # (NumPy's: integer exponents by multiplying)
        (a, b), _ = em.common_operands(exprs, in_types)
        return f"rt.complex_power({a}, {b}, {em.lit(1, dt)})"
    if not dtypes.is_integer(dt):
        (a, b), _ = em.common_operands(exprs, in_types)
        return f"({a} ** {b})"
    a, b = (em.cast(e, t.dtype, dt) for e, t in zip(exprs, in_types))
    # Numba's loop is NumPy's up to exponents of 2**16 (then it goes through a float): a
    # literal exponent below that keeps Numba's (a multiplication for `x ** 2`)
    literal = b in em.literals and 0 <= em.literals[b] <= 2 ** 16
    if em.DEVICE or literal:  # (on cuda: numba-cuda's own, whatever the exponent)
        return f"({a} ** {b})"
    return f"rt.int_power({a}, {b}, {em.lit(1, dt)})"


def _float_power_scalar(em, exprs, in_types, out_type):
    # NumPy computes in float64 (complex128) whatever the operands: a float32 array's
    # Python-number exponent is not rounded to float32 first
    a, b = (em.cast(e, t.dtype, out_type.dtype) for e, t in zip(exprs, in_types))
    return f"np.float_power({a}, {b})"


def _helper_scalar(name):
    """The scalar form ``rt.<name>(a, b)`` on operands of NumPy's common dtype (Numba's
    ``np.<name>`` for complex ones)."""
    def scalar(em, exprs, in_types, out_type):
        (a, b), ct = em.common_operands(exprs, in_types)
        return f"{'np' if ct.kind == 'c' else 'rt'}.{name}({a}, {b})"
    return scalar


_ufunc("floor_divide", np.floor_divide, _floor_divide_scalar,
       names=_binary_names("floor_divide", "floordiv"))
_ufunc("mod", np.remainder, "({0} % {1})",
       names=_binary_names("remainder", "floormod", top=False))
def _scalar(v):
    return v if type(v) in (int, float, complex) else np.asarray(v)[()]


def _power_eager(a, b):
    """np.power; of two 0-d values NumPy's scalar power (`v ** 3` of a np.float32 is powf,
    where the array loop differs in the last bit on a fifth of the values), as a 0-d tensor
    is the NumPy scalar it stands for, and the cpu kernel's power of two numbers is."""
    if np.ndim(a) == 0 and np.ndim(b) == 0:
        return _scalar(a) ** _scalar(b)
    return np.power(a, b)


defop("power", infer=infer_from(np.power), eager=_power_eager, scalar=_power_scalar)
# (its names: a front, python_numbers.py)
_ufunc("maximum", np.maximum, _helper_scalar("maximum"),
       names=_binary_names("maximum", "maximum"))
_ufunc("minimum", np.minimum, _helper_scalar("minimum"),
       names=_binary_names("minimum", "minimum"))
_ufunc("arctan2", np.arctan2, "np.arctan2({0}, {1})",
       names=_binary_names("arctan2", "atan2", top=False))
def real_only(infer, what):
    """``infer`` that refuses complex operands: NumPy orders complex numbers
    lexicographically, which Numba does not compile."""
    def checked(in_types, **attrs):
        if any(t.dtype.kind == "c" for t in in_types):
            raise NotImplementedError(f"{what} of complex tensors (NumPy's lexicographic "
                                      f"order) is not staged; compare .real or np.abs(...)")
        return infer(in_types, **attrs)
    return checked


# (the comparison's Tensor operator: a == b is __eq__; NumPy has no reflected forms)
for _n, _op, _dunder in (("equal", "==", "eq"), ("not_equal", "!=", "ne")):
    _ufunc(_n, getattr(np, _n), f"({{0}} {_op} {{1}})", differentiable=False,
           names=_binary_names(_n, _n) + (f"Tensor.__{_dunder}__",))
for _n, _op, _dunder in (("less", "<", "lt"), ("less_equal", "<=", "le"),
                         ("greater", ">", "gt"), ("greater_equal", ">=", "ge")):
    defop(_n, infer=real_only(infer_from(getattr(np, _n)), f"np.{_n}"), eager=getattr(np, _n),
          scalar=f"({{0}} {_op} {{1}})", differentiable=False,
          names=_binary_names(_n, _n) + (f"Tensor.__{_dunder}__",))
for _n, _op in (("logical_and", "and"), ("logical_or", "or")):
    _ufunc(_n, getattr(np, _n), f"({{0}} {_op} {{1}})", differentiable=False,
           names=_binary_names(_n, _n))
# xor of truth values: `a != b` would compare the numbers (1.0 xor 2.0 is False)
_ufunc("logical_xor", np.logical_xor, "(bool({0}) != bool({1}))", differentiable=False,
       names=_binary_names("logical_xor", "logical_xor", top=False))
for _n, _op, _dunder in (("bitwise_and", "&", "and"), ("bitwise_or", "|", "or"),
                         ("bitwise_xor", "^", "xor")):
    _ufunc(_n, getattr(np, _n), f"({{0}} {_op} {{1}})", differentiable=False,
           names=(f"np.{_n}", f"Tensor.__{_dunder}__", f"Tensor.__r{_dunder}__",
                  f"Tensor.__i{_dunder}__"))


def _fmod_scalar(em, exprs, in_types, out_type):
    # Numba's integer fmod is wrong (numba#8574): truncated remainder by hand.
    # Operands in NumPy's common dtype: fmod(int32, float32) is float64 (Numba's own
    # loop would round the int32 to float32 first)
    (a, b), _ = em.common_operands(exprs, in_types)
    if dtypes.is_integer(out_type.dtype):
        return f"rt.int_fmod({a}, {b})"
    return f"np.fmod({a}, {b})"


defop("fmod", infer=infer_from(np.fmod), eager=np.fmod, scalar=_fmod_scalar, names=("np.fmod",))


# More of NumPy's math ufuncs, each Numba's np.<f> on scalars (checked against NumPy,
# signed zeros, NaN and overflow included, in tests/ops/test_elementwise.py).
for _n, _tf in {"cbrt": (), "exp2": (), "fabs": (), "deg2rad": (), "rad2deg": (),
                "degrees": (), "radians": (), "signbit": ()}.items():
    _ufunc(_n, getattr(np, _n), f"np.{_n}({{0}})", doc=f"np.{_n}",
           differentiable=_n != "signbit", names=(f"np.{_n}",) + _tf)
_ufunc("positive", np.positive, "(+{0})", names=("np.positive",))
for _n, _tf in {"hypot": (), "logaddexp": (), "logaddexp2": (), "copysign": (),
                "fmax": (), "fmin": (), "float_power": (), "gcd": (), "lcm": ()}.items():
    _ufunc(_n, getattr(np, _n), _helper_scalar(_n) if _n in ("fmax", "fmin", "lcm")
           else _float_power_scalar if _n == "float_power"
           else f"np.{_n}({{0}}, {{1}})", doc=f"np.{_n}",
           differentiable=_n not in ("gcd", "lcm"), names=(f"np.{_n}",) + _tf)


def _shift_scalar(direction):
    # C leaves a shift by the type's width or more undefined (Numba gives what the CPU
    # does); NumPy defines it: rt.left_shift / rt.right_shift
    def scalar(em, exprs, in_types, out_type):
        (a, b), ct = em.common_operands(exprs, in_types)
        return f"rt.{direction}_shift({a}, {b}, {8 * ct.itemsize})"
    return scalar


for _n in ("left_shift", "right_shift"):
    defop(_n, infer=infer_from(getattr(np, _n)), eager=getattr(np, _n),
          scalar=_shift_scalar(_n.split("_")[0]), differentiable=False,
          names=(f"np.{_n}",))  # (<< and >>: fronts, python_numbers.py)


def _heaviside_scalar(em, exprs, in_types, out_type):
    (x, h), _ = em.common_operands(exprs, in_types)
    return f"rt.heaviside({x}, {h})"  # (Numba has no np.heaviside)


defop("heaviside", infer=infer_from(np.heaviside), eager=np.heaviside,
      scalar=_heaviside_scalar, names=("np.heaviside",))


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return np.asarray(1.0 / (1.0 + np.exp(-np.asarray(x))))[()]


def _relu(x):
    return np.maximum(x, np.zeros((), np.asarray(x).dtype))


defop("sigmoid", infer=infer_from(_sigmoid), eager=_sigmoid,
      names=("ag.math.sigmoid", "ag.nn.sigmoid"),
      scalar=lambda em, e, ts, out: (f"({em.lit(1, out.dtype)} / ({em.lit(1, out.dtype)} + "
                                     f"np.exp(-{e[0]})))"))
defop("relu", infer=infer_from(_relu), eager=_relu, names=("ag.nn.relu",),
      scalar=lambda em, e, ts, out: f"np.maximum({e[0]}, {em.lit(0, out.dtype)})")


def _cast(x, dtype):
    return np.asarray(x).astype(dtype)[()]


def _cast_infer(in_types, dtype):
    return [TensorType(dtypes.as_dtype(dtype), in_types[0].shape)]


defop("cast", infer=_cast_infer, eager=_cast, cast_operands=False,
      scalar=lambda em, e, ts, out, dtype: em.cast(e[0], ts[0].dtype, out.dtype),
      doc="ag.cast / astype: C-style conversion as NumPy's astype")


def _as_weak_infer(in_types):
    t = in_types[0]
    if t.ndim:
        raise ValueError("as_weak: only a scalar can stand for a Python number")
    return [TensorType(t.dtype, (), True)]


defop("as_weak", infer=_as_weak_infer, eager=lambda x: np.asarray(x).item(),
      scalar=lambda em, e, ts, out: e[0], cast_operands=False,
      doc="a scalar that promotes as a Python number (NumPy 2 weak scalar): a Python "
          "list's number read with a tensor index (autograph/runtime/trace_arrays.py)")


def _where_scalar(em, e, ts, out):
    c = em.cast(e[0], ts[0].dtype, dtypes.bool_)
    return (f"({em.cast(e[1], ts[1].dtype, out.dtype)} if {c} "
            f"else {em.cast(e[2], ts[2].dtype, out.dtype)})")


def _where_infer(in_types):
    dt = dtypes.result_type(in_types[1], in_types[2])
    shape = broadcast_shapes(*[t.shape for t in in_types])
    # weak (a Python number, SPEC §1) only as a 0-d pick of two weak ones (a staged
    # `a if c else b`): an array condition makes an array, which is never weak
    return [TensorType(dt, shape, dtypes.all_weak(in_types[1:]) and shape == ())]


defop("where", infer=_where_infer, eager=lambda c, a, b: np.where(c, a, b)[()],
      scalar=_where_scalar, cast_operands=False)


def _clip(x, lo, hi):
    return np.clip(x, lo, hi)


defop("clip", infer=infer_from(_clip), eager=_clip,
      scalar="np.minimum(np.maximum({0}, {1}), {2})")
