"""Helpers that generated cpu kernels import as ``rt`` (Numba-compiled, cache-safe).

Allocation (:func:`empty`) and BLAS products (:func:`dot`) are written here rather than
taken from Numba's ``np.empty``/``np.dot``: those are overloads compiled in
``numba.np.arrayobj``/``numba.np.linalg``, and a kernel that links them makes every new
process import both modules (~0.04 s, with ``numba.cpython.unicode`` and friends) to
rebuild their environments when it loads the kernel from the disk cache. The intrinsics
below lower inline (no environment of their own), and the jitted helpers live in this
module, which kernels import anyway. Their code generation uses Numba's own lowering
helpers (``make_array``, ``call_xxgemm`` ...), imported only while compiling.
"""
import sys

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload, register_jitable

from .numba_ssa import KernelCompiler

try:  # a failed check's exception with its state (partial_raise.py), as ``rt.Partial_<Error>``
    from ..ops.check_errors import PARTIAL as _PARTIAL
    globals().update((c.__name__, c) for c in _PARTIAL.values())
except ImportError:  # (an exported module's copy of this file: its kernels raise plainly)
    pass

# every kernel's @njit options; KernelCompiler is Numba's pipeline with an SSA pass that
# stays fast on large kernels (numba_ssa.py)
JIT_OPTIONS = dict(error_model="numpy", nogil=True, pipeline_class=KernelCompiler)


def item(x):
    """A 0-d array or a scalar -> the scalar (kernels keep 0-d values in registers)."""
    return x[()] if isinstance(x, np.ndarray) else x


@overload(item)
def _item(x):
    if isinstance(x, types.Array):
        return lambda x: x[()]
    return lambda x: x


@register_jitable
def arange_length(start, stop, step):
    """np.arange's length: ceil((stop - start) / step) in float64, at least 0."""
    n = np.ceil((stop - start) / step)
    return max(int(n), 0)


@register_jitable
def arange_fill(out, start, step):
    """np.arange's values, as NumPy's fill computes them in the result dtype: the first
    two are start and start + step (cast on store), each later one start + i * delta in
    the dtype's arithmetic, delta being their difference (not step: it can differ in the
    last bits)."""
    n = out.shape[0]
    if n > 0:
        out[0] = start
    if n > 1:
        out[1] = start + step
        first = out[0]
        delta = out[1] - first
        for i in range(2, n):
            out[i] = i  # (i in the dtype: float32 arithmetic for a float32 result)
            out[i] = first + out[i] * delta


@register_jitable
def _extent(a):
    """The first and one-past-last byte addresses array ``a`` (size > 0) reaches."""
    lo = a.ctypes.data
    hi = lo + a.itemsize
    for d in range(a.ndim):
        step = (a.shape[d] - 1) * a.strides[d]
        if step < 0:
            lo += step
        else:
            hi += step
    return lo, hi


@register_jitable
def may_alias(a, b):
    """Whether the kernel's result ``a`` may share memory with ``b``, an argument or a
    constant that the caller must not get (cpu.generate copies ``a`` then): their byte
    ranges meet. An empty ``a`` counts as sharing (its copy costs nothing)."""
    if a.size == 0:
        return True
    if b.size == 0:
        return False
    alo, ahi = _extent(a)
    blo, bhi = _extent(b)
    return alo < bhi and blo < ahi


@register_jitable
def bdim(a, b):
    """One broadcast dimension, checked at run time (sizes unknown while tracing)."""
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    raise ValueError("operands could not be broadcast together")


@register_jitable
def int_fmod(a, b):
    """C-style (truncated) remainder for integers; NumPy gives 0 for a zero divisor."""
    if b == 0:
        return a - a
    r = a % b  # (floor: the sign of b; abs() would overflow at -2**63)
    if r != 0 and (r < 0) != (a < 0):
        r -= b
    return r


@register_jitable
def reshape_free(size, known, free):
    """A reshape whose sizes are read at run time: the -1 size (``free``) holding ``size``
    elements with the others' product ``known``; ValueError where NumPy raises one (the
    interpreter then words it as NumPy does, at the user's line)."""
    if known < 0:
        raise ValueError("cannot reshape: a size is negative")
    if free:
        if known == 0 or size % known:
            raise ValueError("cannot reshape: the sizes do not divide the array's size")
        return size // known
    if known != size:
        raise ValueError("cannot reshape: the sizes do not hold the array's elements")
    return size


@register_jitable
def int_reciprocal(x, at_zero):
    """np.reciprocal of an integer: 1 and -1 are their own, 0 gives ``at_zero`` (NumPy's
    value on this machine), every other integer 0 (the caller casts to NumPy's dtype)."""
    if x == 0:
        return at_zero
    if x == 1 or x == -1:
        return x
    return x - x


@register_jitable
def left_shift(a, b, bits):
    """NumPy's ``a << b``: 0 once the shift reaches the type's width (negative shifts too,
    compared as unsigned), where C leaves it undefined."""
    if b < 0 or b >= bits:
        return a - a
    return a << b


@register_jitable
def right_shift(a, b, bits):
    """NumPy's ``a >> b``: the sign (0 or -1) once the shift reaches the type's width.
    (Every branch stays in ``a``'s type: a literal 1 with a uint64 is float64 in Numba,
    which made the whole result float64 and rounded large uint64 values.)"""
    if b < 0 or b >= bits:
        return ~(a - a) if a < 0 else a - a
    return a >> b


@register_jitable
def sign(x, one):
    """NumPy's sign: ``one`` (1 of the result's type) above zero, -1 below, +0.0 at either
    zero, NaN for NaN (Numba's keeps -0.0, and gives the type's maximum for a large
    unsigned integer)."""
    if x > 0:
        return one
    if x < 0:
        return -one
    if x == 0:
        return one - one
    return x


@register_jitable
def int_power(a, b, one):
    """``a ** b`` of integers of one type, wrapping as NumPy's (Numba's gives 0 or the
    minimum once the exponent is large); a negative ``b`` is refused before this runs."""
    r = one
    while b > 0:
        if b & 1:
            r = r * a
        a = a * a
        b >>= 1
    return r


@register_jitable
def complex_power(a, b, one):
    """NumPy's complex ``a ** b`` (npy_cpow): ``b`` 0 is 1; a zero base is 0 for a positive
    real ``b``, else nan; an integer-valued real ``b`` with ``|b| < 100`` multiplies by
    squaring (``(2j) ** 3`` is exactly -8j, where the polar formula Numba uses gives
    -1.5e-15-8j, which changed the steps a complex Newton iteration took), a negative one
    then divides 1 by it; anything else Numba's (the C library's) power."""
    if b.real == 0 and b.imag == 0:
        return one
    if a.real == 0 and a.imag == 0:
        if b.real > 0 and b.imag == 0:
            return one - one
        return one * np.float32(np.nan)  # (of one's type)
    if b.imag == 0 and b.real == np.floor(b.real) and -100 < b.real < 100:
        n = int(b.real)
        if n == 1:
            return a
        if n == 2:
            return a * a
        if n == 3:
            return a * (a * a)
        m = -n if n < 0 else n
        r, p, mask = one, a, 1
        while True:
            if m & mask:
                r = r * p
            mask <<= 1
            if m < mask:
                break
            p = p * p
        if n > 0:
            return r
        if r.real == 0 and r.imag == 0:  # (underflowed: NumPy's 1 / 0j, inf+nanj)
            return one * np.float32(np.inf)
        return one / r
    return a ** b


@register_jitable
def int64_floor_divide(a, b):
    """int64 ``a // b``: NumPy's -2**63 // -1 wraps to -2**63 (Numba's gives 0)."""
    if b == -1:
        return -a
    return a // b


@register_jitable
def lcm(a, b):
    """NumPy's lcm, ``|a| // gcd * |b|`` wrapping in the operands' type (Numba's differs
    once it overflows)."""
    g = np.gcd(a, b)
    if g == 0:
        return a - a
    return abs(a) // g * abs(b)


@register_jitable
def maximum(a, b):
    """NumPy's maximum: ``a`` when greater or NaN, else ``b`` (so the second of two equal
    zeros, as NumPy gives, where Numba's gives the first); minimum alike. fmax/fmin keep
    the first of two equal values (NumPy's ``in1 >= in2 || isnan(in2) ? in1 : in2``)."""
    return a if a > b or a != a else b


@register_jitable
def minimum(a, b):
    return a if a < b or a != a else b


@register_jitable
def fmax(a, b):
    return a if a >= b or b != b else b


@register_jitable
def fmin(a, b):
    return a if a <= b or b != b else b


@register_jitable
def heaviside(x, h):
    """np.heaviside: 0 below zero, ``h`` at zero, 1 above, NaN for NaN (the caller casts
    the result to NumPy's dtype)."""
    if x < 0:
        return 0.0
    if x > 0:
        return 1.0
    if x == 0:
        return h
    return x


def py_print(*args):
    """ag.print's body: formats tensors as NumPy does and prints (runs in objmode)."""
    print(*[np.asarray(a) if isinstance(a, np.ndarray) else a for a in args])


def stream(name):
    """``sys.stdout`` or ``sys.stderr`` as they are when the kernel prints (objmode): a
    redirection made after the trace is followed, as by Python's print."""
    return getattr(sys, name)


_CONVERSIONS = {-1: None, 115: str, 114: repr, 97: ascii}
_PYTHON = {"bool": bool, "int": int, "float": float, "complex": complex, "list": list}


def render(value, conversion, spec, python):
    """The text of one traced value of an f-string (autograph_lite/staged_text.py), made
    when the function runs (in objmode: ops/io.py): `f"{value!conversion:spec}"`, the
    value first made the Python number type named by ``python`` when it stands for one
    (or the list of its rows, for a list a staged loop appended to: list_values.py)."""
    if python is not None:
        value = _PYTHON[python](value)
    convert = _CONVERSIONS[conversion]
    return format(value if convert is None else convert(value), spec)


@numba.njit
def seed(s):
    np.random.seed(s)


# -- float -> int conversions as NumPy's casts give them on x86-64 ----------------------------
# LLVM's fptosi/fptoui of a value out of the target's range (or NaN) is poison: Numba's
# `np.uint8(x)` of -1.0 may give any value, and LLVM may use that to fold away the branch
# that computed x (a random program got the value of the branch not taken). NumPy's casts
# (C casts compiled for x86-64) truncate within the range of int32 or int64 and give the
# minimum out of it; narrower types wrap what that gives. These are those rules, defined
# for every input (emitter.Emitter.cast picks one per target dtype).
@register_jitable
def f2i32(x):
    """float -> int32: truncated in [-2**31, 2**31), else (NaN too) -2**31."""
    if x >= -2147483648.0 and x < 2147483648.0:
        return np.int32(x)
    return np.int32(-2147483648)


@register_jitable
def f2i64(x):
    """float -> int64: truncated in [-2**63, 2**63), else (NaN too) -2**63."""
    if x >= -9223372036854775808.0 and x < 9223372036854775808.0:
        return np.int64(x)
    return np.int64(-9223372036854775808)


@register_jitable
def f2u64(x):
    """float -> uint64: at 2**63 and above, 2**63 plus f2i64 of the rest (its bits);
    below, f2i64's bits (so -1.0 is 2**64 - 1, as NumPy gives)."""
    if x >= 9223372036854775808.0:
        return np.uint64(f2i64(x - 9223372036854775808.0)) ^ np.uint64(9223372036854775808)
    return np.uint64(f2i64(x))


@register_jitable
def f2int_array(a, via):
    """A float array cast as ``via`` says, as int64 (cast on, wrapping, to the target):
    32 f2i32, 64 f2i64, else f2u64's bits (a new array of a's shape, C order)."""
    out = np.empty(a.shape, np.int64)
    flat = out.reshape(out.size)
    for k, v in enumerate(a.flat):
        if via == 32:
            flat[k] = f2i32(v)
        elif via == 64:
            flat[k] = f2i64(v)
        else:
            flat[k] = np.int64(f2u64(v))
    return out


INDEX_ERROR = "index is out of bounds"
MASK_ERROR = "boolean index did not match"


@register_jitable
def index(i, n, site):
    """A tensor index, bounds-checked (NumPy raises; Numba would read garbage) and wrapped
    to [0, n). One unsigned compare: two signed compares cost ~5% in tight loops. The
    error carries the index, the size and `site`, the emitter's number for this index
    (Kernel.sites: the user's line and the axis), to be told as NumPy tells it."""
    j = i + n if i < 0 else i
    if np.uint64(j) >= np.uint64(n):
        raise IndexError(INDEX_ERROR, i, n, site)
    return j


@register_jitable
def complex_divide(a, b, one):
    """NumPy's complex division (its loops' algorithm, step for step: Smith's, scaled by a
    reciprocal; a zero divisor gives inf or nan). ``one``: 1 in the parts' float type."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    abs_r, abs_i = abs(br), abs(bi)
    if abs_r >= abs_i:
        if abs_r == 0 and abs_i == 0:
            return complex(ar / abs_r, ai / abs_r)
        rat = bi / br
        scl = one / (br + bi * rat)
        return complex((ar + ai * rat) * scl, (ai - ar * rat) * scl)
    rat = br / bi
    scl = one / (bi + br * rat)
    return complex((ar * rat + ai) * scl, (ai * rat - ar) * scl)


@register_jitable
def index_u(i, n, site):
    """``index`` of an unsigned integer index (never negative; `i + n` of a uint64 and an
    int64 would be a float, which no array takes as an index); past int64 NumPy's
    OverflowError, as its conversion to intp raises it."""
    if np.uint64(i) > np.uint64(9223372036854775807):
        raise OverflowError("Python int too large to convert to C long")
    if np.uint64(i) >= np.uint64(n):
        raise IndexError(INDEX_ERROR, i, n, site)
    return np.int64(i)


@register_jitable
def int_text(i):
    """``str(i)`` of an integer, as Python writes it: Numba's ``str`` of int64's minimum
    overflows (it negates it first) and fails to allocate (ops/io.py ``_plain_ints``)."""
    if i < 0 and i == -9223372036854775807 - 1:
        return "-9223372036854775808"
    return str(i)


@register_jitable
def index_ok(i, n):
    """(whether ``-n <= i < n``, ``i``): an explicit bounds check's predicate and the
    index its message names (ops/advanced_index.py ``check_index``)."""
    j = i + n if i < 0 else i
    return np.uint64(j) < np.uint64(n), i


@register_jitable
def indices_ok(idx, n):
    """``index_ok`` of an integer array: (whether every entry is in bounds, the first
    that is not, or 0)."""
    first = np.zeros(1, idx.dtype)[0]
    for i in idx.flat:
        ok, first = index_ok(i, n)
        if not ok:
            return False, first
    return True, np.zeros(1, idx.dtype)[0]


@register_jitable
def gather_index(idx, n, site):
    """An integer-array index, every entry bounds-checked as ``index`` checks one (Numba's
    array indexing reads past the array); Numba wraps the negative ones itself."""
    for i in idx.flat:
        index(i, n, site)
    return idx


@register_jitable
def wrap_indices(idx, n, site):
    """A copy of the integer array ``idx`` with every entry bounds-checked and wrapped to
    [0, n) as ``index`` does one (the flat positions of several array indices add them)."""
    out = np.empty(idx.size, np.int64)
    k = 0
    for i in idx.flat:
        out[k] = index(i, n, site)
        k += 1
    return out.reshape(idx.shape)


@register_jitable
def mask_index(mask, n, site):
    """A boolean-mask index, its length checked against the axis (Numba would use the
    shorter one and read or write the wrong elements)."""
    if mask.shape[0] != n:
        raise IndexError(MASK_ERROR, mask.shape[0], n, site)
    return mask


@register_jitable
def _mm2(a, b):
    n, k = a.shape
    m = b.shape[1]
    out = np.zeros((n, m), a.dtype)
    for i in range(n):
        for p in range(k):
            aip = a[i, p]
            for j in range(m):
                out[i, j] += aip * b[p, j]
    return out


def matmul_loops(a, b):
    """matmul for what BLAS cannot take (integers, float16): plain loops, 1-D/2-D."""
    return np.matmul(a, b)


@overload(matmul_loops)
def _matmul_loops(a, b):
    if a.ndim == 2 and b.ndim == 2:
        return lambda a, b: _mm2(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return lambda a, b: _mm2(np.ascontiguousarray(a).reshape((1, a.shape[0])), b)[0]
    if a.ndim == 2 and b.ndim == 1:
        return lambda a, b: _mm2(a, np.ascontiguousarray(b).reshape((b.shape[0], 1)))[:, 0]
    return lambda a, b: _mm2(np.ascontiguousarray(a).reshape((1, a.shape[0])),
                             np.ascontiguousarray(b).reshape((b.shape[0], 1)))[0, 0]


def matmul_batched(a, b):
    return np.matmul(a, b)


@register_jitable
def _mm_nd(a, b):
    """Broadcast batched matmul of (..., n, k) @ (..., k, m), any ranks >= 2."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    nb = 1
    for d in batch:
        nb *= d
    a3 = np.ascontiguousarray(np.broadcast_to(a, batch + (n, k))).reshape((nb, n, k))
    b3 = np.ascontiguousarray(np.broadcast_to(b, batch + (k, m))).reshape((nb, k, m))
    out = np.empty((nb, n, m), a.dtype)
    for i in range(nb):
        out[i] = _mm2(a3[i], b3[i])
    return out.reshape(batch + (n, m))


@overload(matmul_batched)
def _matmul_batched(a, b):
    # a 1-D operand is a row (left) or a column (right) whose unit axis is dropped after
    if a.ndim == 1:
        def impl(a, b):
            r = _mm_nd(np.ascontiguousarray(a).reshape((1, a.shape[0])), b)
            return r.reshape(r.shape[:-2] + r.shape[-1:])
        return impl
    if b.ndim == 1:
        def impl(a, b):
            r = _mm_nd(a, np.ascontiguousarray(b).reshape((b.shape[0], 1)))
            return r.reshape(r.shape[:-1])
        return impl
    return lambda a, b: _mm_nd(a, b)


# allocation ---------------------------------------------------------------------------
def _dtype_of(ty):
    """The Numba scalar type a dtype argument (``np.float64``, ``a.dtype``) stands for."""
    if isinstance(ty, types.NumberClass):
        return ty.instance_type
    if isinstance(ty, types.DType):
        return ty.dtype
    return None


def _alloc(context, builder, arrty, shapes):
    """A new C-contiguous NRT array of ``arrty`` with the given intp ``shapes`` (LLVM
    values): Numba's ``_empty_nd_impl`` minus its jitted allocator call. Size overflow
    raises NumPy's ValueError; a failed allocation raises MemoryError (NRT's check)."""
    from llvmlite import ir
    from numba.np.arrayobj import get_itemsize, make_array, populate_array
    ary = make_array(arrty)(context, builder)
    intp = context.get_value_type(types.intp)
    itemsize = context.get_constant(types.intp, get_itemsize(context, arrty))
    nitems = context.get_constant(types.intp, 1)
    overflow = ir.Constant(ir.IntType(1), 0)
    for s in shapes:
        prod = builder.smul_with_overflow(nitems, s)
        nitems = builder.extract_value(prod, 0)
        overflow = builder.or_(overflow, builder.extract_value(prod, 1))
    strides = [itemsize]
    for s in reversed(shapes[1:]):
        strides.append(builder.mul(strides[-1], s))
    strides = strides[::-1][:len(shapes)]
    nbytes = builder.smul_with_overflow(nitems, itemsize)
    overflow = builder.or_(overflow, builder.extract_value(nbytes, 1))
    with builder.if_then(overflow, likely=False):
        context.call_conv.return_user_exc(
            builder, ValueError, ("array is too big; `arr.size * arr.dtype.itemsize` is "
                                  "larger than the maximum possible size.",))
    align = context.get_preferred_array_alignment(arrty.dtype)
    meminfo = context.nrt.meminfo_alloc_aligned(builder, builder.extract_value(nbytes, 0),
                                                align)
    data = context.nrt.meminfo_data(builder, meminfo)
    populate_array(ary, data=builder.bitcast(data, context.get_data_type(arrty.dtype)
                                             .as_pointer()),
                   shape=cgutils.pack_array(builder, shapes, ty=intp),
                   strides=cgutils.pack_array(builder, strides, ty=intp),
                   itemsize=itemsize, meminfo=meminfo)
    return ary


def _checked_dim(context, builder, v, ty):
    """A size of integer type ``ty`` as intp, with NumPy's errors for a negative one and
    for an unsigned one past the largest intp (which the cast would make negative)."""
    intp_bits = context.get_value_type(types.intp).width
    if not ty.signed and ty.bitwidth >= intp_bits:
        with builder.if_then(builder.icmp_unsigned(">", v, v.type(2 ** (intp_bits - 1) - 1)),
                             likely=False):
            context.call_conv.return_user_exc(builder, ValueError,
                                              ("Maximum allowed dimension exceeded",))
    n = context.cast(builder, v, ty, types.intp)
    if ty.signed:
        with builder.if_then(builder.icmp_signed("<", n, n.type(0)), likely=False):
            context.call_conv.return_user_exc(builder, ValueError,
                                              ("negative dimensions are not allowed",))
    return n


def _wrapping(op):
    """int64 ``op`` (add, sub, mul) that wraps on overflow, as NumPy's int64 does: Numba's
    own carries LLVM's ``nsw`` flag, under which an overflow is poison that the optimizer
    may assume away (`(t + 1) > t` folded to True, `h % 10` of a wrapped hash taken as
    non-negative: silent wrong answers; ops/elementwise.py ``_int64_wraps``)."""
    def fn(typingctx, a, b):
        if not (isinstance(a, types.Integer) and isinstance(b, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            x, y = (context.cast(builder, v, t, types.int64) for v, t in zip(args, sig.args))
            return getattr(builder, op)(x, y)
        return types.int64(a, b), codegen
    fn.__name__ = f"wrap_{op}"
    return intrinsic(fn)


wrap_add, wrap_sub, wrap_mul = (_wrapping(op) for op in ("add", "sub", "mul"))


@intrinsic
def empty(typingctx, shape, dtype):
    """``np.empty(shape, dtype)`` for a tuple of integer sizes: a new C-contiguous array.
    Sizes are checked here (negative, past intp, byte count overflow), as NumPy does."""
    dt = _dtype_of(dtype)
    if dt is None or not isinstance(shape, types.BaseTuple) or not all(
            isinstance(t, types.Integer) for t in shape):
        return None
    arrty = types.Array(dt, len(shape), "C")

    def codegen(context, builder, sig, args):
        sizes = cgutils.unpack_tuple(builder, args[0], len(sig.args[0]))
        shapes = [_checked_dim(context, builder, v, t) for v, t in zip(sizes, sig.args[0])]
        return _alloc(context, builder, arrty, shapes)._getvalue()

    return arrty(shape, dtype), codegen


@intrinsic
def copy(typingctx, a):
    """``a.copy()``: a new C-contiguous array with ``a``'s values (one memcpy when ``a``
    is C-contiguous, an element loop over its strides otherwise)."""
    if not isinstance(a, types.Array):
        return None
    arrty = types.Array(a.dtype, a.ndim, "C")

    def codegen(context, builder, sig, args):
        from numba.np.arrayobj import make_array
        src = make_array(sig.args[0])(context, builder, args[0])
        shapes = cgutils.unpack_tuple(builder, src.shape, a.ndim)
        dst = _alloc(context, builder, arrty, shapes)
        if a.layout == "C" or a.ndim == 0:
            cgutils.raw_memcpy(builder, dst.data, src.data, src.nitems, src.itemsize)
        else:
            s_strides = cgutils.unpack_tuple(builder, src.strides, a.ndim)
            d_strides = cgutils.unpack_tuple(builder, dst.strides, a.ndim)
            with cgutils.loop_nest(builder, shapes, shapes[0].type) as idx:
                p = cgutils.get_item_pointer2(context, builder, src.data, shapes, s_strides,
                                              a.layout, idx)
                q = cgutils.get_item_pointer2(context, builder, dst.data, shapes, d_strides,
                                              "C", idx)
                builder.store(builder.load(p), q)
        return dst._getvalue()

    return arrty(a), codegen


# BLAS products ------------------------------------------------------------------------
def contiguous(a):
    """``a`` itself when it is C- or F-contiguous (BLAS takes both), else a C copy."""
    return np.ascontiguousarray(a)


@overload(contiguous)
def _contiguous(a):
    if a.layout in "CF":
        return lambda a: a
    return lambda a: copy(a)


@register_jitable
def _check_int(n):
    if n > 2147483647:
        raise OverflowError("array size too large to fit in C int")


@intrinsic
def _blas_product(typingctx, x, y, out):
    """``out[...] = x @ y`` for contiguous 1-D/2-D operands of one BLAS dtype (sizes
    checked by the caller). Zero-sized products fill zeros; a (1,k)@(k,1)-shaped case
    takes dot/gemv instead of gemm, as Numba's np.dot does."""
    def codegen(context, builder, sig, args):
        from numba.np.arrayobj import make_array
        from numba.np.linalg import call_xxdot, call_xxgemm, call_xxgemv, ensure_blas
        ensure_blas()
        xty, yty, oty = sig.args
        x, y, o = (make_array(t)(context, builder, v) for t, v in zip(sig.args, args))
        xs, ys, os_ = (cgutils.unpack_tuple(builder, a.shape) for a in (x, y, o))
        zero = context.get_constant(types.intp, 0)
        one = context.get_constant(types.intp, 1)
        dims = list(xs) + list(ys)
        empty_ = builder.icmp_signed("==", dims[0], zero)
        for d in dims[1:]:
            empty_ = builder.or_(empty_, builder.icmp_signed("==", d, zero))
        with builder.if_else(empty_, likely=False) as (is_empty, nonempty):
            with is_empty:
                cgutils.memset(builder, o.data, builder.mul(o.itemsize, o.nitems), 0)
            with nonempty:
                if xty.ndim == 2 and yty.ndim == 2:
                    m, k = xs
                    n = ys[1]
                    with builder.if_else(builder.icmp_signed("==", n, one)) as (rvec, rmat):
                        with rvec:
                            with builder.if_else(builder.icmp_signed("==", m, one)) as (vv, mv):
                                with vv:
                                    call_xxdot(context, builder, False, xty.dtype, k, x.data,
                                               y.data, o.data)
                                with mv:
                                    call_xxgemv(context, builder, xty.layout == oty.layout,
                                                xty, xs, x.data, y.data, o.data)
                        with rmat:
                            with builder.if_else(builder.icmp_signed("==", m, one)) as (vm, mm):
                                with vm:
                                    call_xxgemv(context, builder, yty.layout != oty.layout,
                                                yty, ys, y.data, x.data, o.data)
                                with mm:
                                    call_xxgemm(context, builder, xty, xs, x.data, yty, ys,
                                                y.data, oty, os_, o.data)
                elif xty.ndim == 2:  # matrix @ vector
                    call_xxgemv(context, builder, xty.layout == "C", xty, xs, x.data, y.data,
                                o.data)
                elif yty.ndim == 2:  # vector @ matrix: (y.T @ x)
                    call_xxgemv(context, builder, yty.layout == "F", yty, ys, y.data, x.data,
                                o.data)
                else:
                    call_xxdot(context, builder, False, xty.dtype, xs[0], x.data, y.data,
                               o.data)
        return context.get_dummy_value()

    return types.none(x, y, out), codegen


def dot(a, b):
    """``a @ b`` for 1-D/2-D float arrays of one dtype, through BLAS (SciPy's, as Numba's
    np.dot); contiguous operands are passed as they are, others copied once."""
    return np.dot(a, b)


def _out_shape(a, b):
    """The shape of ``a @ b`` (1-D/2-D); a vector product is one element, read back as
    the scalar it is."""
    return np.dot(a, b).shape or (1,)


@overload(_out_shape)
def _ol_out_shape(a, b):
    if a.ndim == 2 and b.ndim == 2:
        return lambda a, b: (a.shape[0], b.shape[1])
    if a.ndim == 2:
        return lambda a, b: (a.shape[0],)
    if b.ndim == 2:
        return lambda a, b: (b.shape[1],)
    return lambda a, b: (1,)


@register_jitable
def _product(a, b):
    k = a.shape[-1]
    if b.shape[0] != k:
        raise ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0")
    shape = _out_shape(a, b)
    for d in shape:
        _check_int(d)
    _check_int(k)
    out = empty(shape, a.dtype)
    _blas_product(contiguous(a), contiguous(b), out)
    return out


@overload(dot)
def _dot(a, b):
    if not (isinstance(a, types.Array) and isinstance(b, types.Array) and a.ndim in (1, 2)
            and b.ndim in (1, 2) and a.dtype == b.dtype):
        raise numba.core.errors.TypingError(
            f"rt.dot takes 1-D or 2-D arrays of one dtype, got {a} and {b}")
    if a.ndim == 1 and b.ndim == 1:
        return lambda a, b: _product(a, b)[0]
    return lambda a, b: _product(a, b)


# -- linear systems (ops/linalg.py) -----------------------------------------------------------
# LU with partial pivoting written out, not Numba's np.linalg: Numba's solve/inv raise
# "Array must not contain infs or NaNs" where NumPy (LAPACK) returns NaNs, and their
# singular-matrix message is not NumPy's. A pivot that is exactly zero is LAPACK's
# singularity test (getrf's info > 0).
@register_jitable
def _lu(a):
    """(LU factors in one array, row permutation, sign of the permutation, whether a
    pivot was exactly zero) of a square matrix, in its dtype."""
    n = a.shape[0]
    lu = np.empty((n, n), a.dtype)
    lu[:, :] = a
    perm = np.arange(n)
    sign = 1.0
    singular = False
    for k in range(n):
        p, best = k, abs(lu[k, k])
        for i in range(k + 1, n):
            if abs(lu[i, k]) > best:
                p, best = i, abs(lu[i, k])
        if p != k:
            for j in range(n):
                lu[k, j], lu[p, j] = lu[p, j], lu[k, j]
            perm[k], perm[p] = perm[p], perm[k]
            sign = -sign
        pivot = lu[k, k]
        if pivot == 0:
            singular = True
            continue
        for i in range(k + 1, n):
            f = lu[i, k] / pivot
            lu[i, k] = f
            for j in range(k + 1, n):
                lu[i, j] -= f * lu[k, j]
    return lu, perm, sign, singular


@register_jitable
def _square(a):
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


@register_jitable
def _lu_solve(a, b):
    """x with a @ x = b for 2-D b (n, k)."""
    _square(a)
    n = a.shape[0]
    if b.shape[0] != n:
        raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
    lu, perm, _, singular = _lu(a)
    if singular:
        raise np.linalg.LinAlgError("Singular matrix")
    x = np.empty(b.shape, lu.dtype)
    for c in range(b.shape[1]):
        for i in range(n):
            s = b[perm[i], c]
            for j in range(i):
                s -= lu[i, j] * x[j, c]
            x[i, c] = s
        for i in range(n - 1, -1, -1):
            s = x[i, c]
            for j in range(i + 1, n):
                s -= lu[i, j] * x[j, c]
            x[i, c] = s / lu[i, i]
    return x


@numba.njit(cache=True, nogil=True)
def solve(a, b):
    """np.linalg.solve for 2-D a and 1-D or 2-D b, both already in the result dtype."""
    if b.ndim == 1:
        return _lu_solve(a, np.ascontiguousarray(b).reshape((b.shape[0], 1)))[:, 0]
    return _lu_solve(a, b)


@numba.njit(cache=True, nogil=True)
def inv(a):
    """np.linalg.inv of a 2-D matrix (_lu_solve checks that it is square)."""
    return _lu_solve(a, np.eye(a.shape[0], dtype=a.dtype))


@numba.njit(cache=True, nogil=True)
def det(a):
    """np.linalg.det of a 2-D matrix: the product of the pivots, signed (0 when one is)."""
    _square(a)
    lu, _, sign, _ = _lu(a)
    d = np.full(1, sign, lu.dtype)[0]
    for i in range(a.shape[0]):
        d *= lu[i, i]
    return d


@numba.njit(cache=True, nogil=True)
def cholesky(a):
    """np.linalg.cholesky: L lower with a = L @ L.conj().T, from a's lower triangle (as
    LAPACK's potrf 'L' reads it), column by column; NumPy's LinAlgError when a pivot is
    not positive (NaN included)."""
    _square(a)
    n = a.shape[0]
    lo = np.zeros((n, n), a.dtype)
    for j in range(n):
        s = a[j, j].real
        for k in range(j):
            s -= (lo[j, k] * np.conj(lo[j, k])).real
        if not s > 0:
            raise np.linalg.LinAlgError("Matrix is not positive definite")
        d = np.sqrt(s)
        lo[j, j] = d
        for i in range(j + 1, n):
            t = a[i, j]
            for k in range(j):
                t -= lo[i, k] * np.conj(lo[j, k])
            lo[i, j] = t / d
    return lo


# -- float32 sums in NumPy's order ------------------------------------------------------------
# NumPy adds a float array along its inner axis pairwise (its <TYPE>_pairwise_sum: runs of at
# most 128 in 8 lanes, longer runs split in two at a multiple of 8), starting from the
# identity 0. A float32 sum left to right drifts far from that: 10^6 values of 0.1 summed to
# 100958.3 where NumPy gives 100000.01 (session 48). The reductions call these for float32
# (ops/reduce.py _lower_pairwise); a precompiled helper, since the order inlined in every
# reduction made kernels compile 5x slower (session 32).

@numba.njit(cache=True, nogil=True)
def _pairwise_leaf32(a, lo, n):
    """NumPy's pairwise sum of a[lo:lo + n] for n <= 128: 8 lanes, then the rest in order."""
    if n < 8:
        res = np.float32(0.0)
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - n % 8:
        k = lo + i
        r0 += a[k]
        r1 += a[k + 1]
        r2 += a[k + 2]
        r3 += a[k + 3]
        r4 += a[k + 4]
        r5 += a[k + 5]
        r6 += a[k + 6]
        r7 += a[k + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for k in range(lo + i, lo + n):
        res += a[k]
    return res


@numba.njit(cache=True, nogil=True)
def pairwise_sum32(a):
    """NumPy's float32 sum of the 1-D array ``a`` (any stride), bit for bit: a run longer
    than 128 is the sum of its halves (split at a multiple of 8), evaluated with an explicit
    stack (Numba cannot cache a recursive function called from another module)."""
    n = a.shape[0]
    if n <= 128:
        return np.float32(0.0) + _pairwise_leaf32(a, 0, n)
    los = np.empty(64, np.int64)
    ns = np.empty(64, np.int64)
    stage = np.zeros(64, np.int8)
    left = np.empty(64, np.float32)
    top, ret = 0, np.float32(0.0)
    los[0], ns[0] = 0, n
    while top >= 0:
        lo, m = los[top], ns[top]
        if m <= 128:
            ret = _pairwise_leaf32(a, lo, m)
            top -= 1
            continue
        half = m // 2
        half -= half % 8
        if stage[top] == 0:      # first the left half
            stage[top] = 1
            top += 1
            los[top], ns[top], stage[top] = lo, half, 0
        elif stage[top] == 1:    # the left half's sum is in ret: now the right half
            left[top] = ret
            stage[top] = 2
            top += 1
            los[top], ns[top], stage[top] = lo + half, m - half, 0
        else:                    # both: their sum goes up
            ret = left[top] + ret
            top -= 1
    return np.float32(0.0) + ret
