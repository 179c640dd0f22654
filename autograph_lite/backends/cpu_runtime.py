"""Helpers that generated cpu kernels import as ``rt`` (Numba-compiled, cache-safe)."""
import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

JIT_OPTIONS = dict(error_model="numpy", nogil=True)


def item(x):
    """A 0-d array or a scalar -> the scalar (kernels keep 0-d values in registers)."""
    return x[()] if isinstance(x, np.ndarray) else x


@overload(item)
def _item(x):
    if isinstance(x, types.Array):
        return lambda x: x[()]
    return lambda x: x


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
    r = abs(a) % abs(b)
    return -r if a < 0 else r


@register_jitable
def check_size(n, what):
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    return n


def py_print(*args):
    """ag.print's body: formats tensors as NumPy does and prints (runs in objmode)."""
    print(*[np.asarray(a) if isinstance(a, np.ndarray) else a for a in args])


@numba.njit
def seed(s):
    np.random.seed(s)


@register_jitable
def index(i, n):
    """A tensor index, bounds-checked (NumPy raises; Numba would read garbage) and wrapped
    to [0, n). One unsigned compare: two signed compares cost ~5% in tight loops."""
    j = i + n if i < 0 else i
    if np.uint64(j) >= np.uint64(n):
        raise IndexError("index is out of bounds")
    return j


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


