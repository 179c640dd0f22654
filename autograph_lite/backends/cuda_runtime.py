"""What the cuda backend's generated driver calls on the host: moving values between host
and device, launch sizes, index plans, the host fallback, and the few fixed kernels.

Values in a driver: tensors of rank > 0 are C-contiguous device arrays (a kernel writes a
fresh one, or updates one in place where the ownership analysis allows: a reshape is a
view, which that analysis follows); 0-d tensors
are host scalars (NumPy scalars, or Python scalars for weak ones), passed to kernels as
scalar arguments and read by Python ``if``/``while`` directly. This module imports
``numba.cuda``: only a cuda function's first call imports it (DESIGN: ``import
autograph_lite`` imports no Numba).
"""
import contextlib
import math

import numba
import numpy as np
from numba import cuda

from ..ir.graph import captures
from ..ops.vmap import common_length  # noqa: F401 (vectorized_map's driver)
from .cuda_config import RNG_SEED, TILE, TPB
from .interpreter import region_fn, run_node

# A full reduction's first pass uses at most this many blocks: enough to keep memory busy on
# a large GPU (an H100/H200 has 132 SMs, each holding 16 blocks of TPB threads); 128 left
# one block per SM, each thread folding n/16384 elements one dependent load at a time
MAX_BLOCKS = 2048

SIMULATED = bool(numba.config.ENABLE_CUDASIM)
# NumPy ufuncs numba-cuda lacks on scalars whose math.* form has NumPy's semantics on the
# device (NaN for sqrt(-1), float32 kept); the simulator runs Python, where math.sqrt(-1)
# raises, so there they are NumPy's own (kernels spell them dm.sqrt(...))
DEVICE_MATH = np if SIMULATED else math


def to_device(a):
    """An argument (any layout) as a C-contiguous device array."""
    return cuda.to_device(np.ascontiguousarray(a))


def scalar_in(a, weak):
    """A 0-d argument as a host scalar; a weak one (a relaxed Python number) as a Python
    scalar, so NumPy promotes it weakly (as the interpreter does)."""
    a = a[()] if isinstance(a, np.ndarray) else a
    return a.item() if weak and isinstance(a, np.generic) else a


def to_host(v):
    """A device array's contents as a NumPy array; a host scalar as it is."""
    return v.copy_to_host() if hasattr(v, "copy_to_host") else v


def write_back(arg, value):
    """The final contents of an argument the function writes into (SPEC §3)."""
    arg[...] = to_host(value)


def grid(n):
    """(blocks, threads) for one thread per element of ``n`` (at least one block)."""
    threads = min(TPB, max(1, n))
    return (max(1, -(-n // threads)), threads)


def tiles(shape):
    """The grid of TILE x TILE blocks covering a 2-D result (x: columns, y: rows)."""
    return (max(1, -(-shape[1] // TILE)), max(1, -(-shape[0] // TILE)))


def check_matmul(a, b):
    if a[1] != b[0]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {b[0]} is "
                         f"different from {a[1]})")


def _pow2(n):
    return 1 << max(0, n - 1).bit_length()


def reduce_all(first, final, n, dtype, args):
    """A full reduction of ``n`` elements: ``first`` (each block folds a grid-stride share
    into shared memory and halves it to one partial), then ``final`` (one block of at
    most TPB threads does the same over the partials). Returns the host scalar."""
    threads = min(TPB, _pow2(max(1, n)))
    blocks = max(1, min(MAX_BLOCKS, -(-n // threads)))
    partial = cuda.device_array(blocks, dtype)
    first[blocks, threads](partial, *args)
    out = cuda.device_array(1, dtype)
    final[1, min(TPB, _pow2(blocks))](out, partial, blocks)  # (a grid-stride loop)
    return out.copy_to_host()[0]


# ag.random on the device: a grid of at most RNG_BLOCKS blocks of RNG_TPB threads, thread t
# drawing from the t-th xoroshiro128+ state, a row of a (threads, 2) uint64 device array (the
# kernel's text: CudaEmitter.drawn). The rows are consecutive outputs of splitmix64 from the
# seed, the seeding xoroshiro's authors recommend, computed here with NumPy at once.
RNG_BLOCKS, RNG_TPB = (1, 16) if SIMULATED else (256, TPB)
_RNG = {"states": None, "version": None}
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _splitmix64(k, seed):
    """The k-th (uint64 array) output of splitmix64 started at ``seed``."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (k + np.uint64(1)) * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def rng_states():
    """The device generator's states: seeded by ag.random.set_seed (cuda_config.RNG_SEED),
    else from fresh entropy once per process (as NumPy's unseeded generators)."""
    if _RNG["states"] is None or _RNG["version"] != RNG_SEED["version"]:
        seed = RNG_SEED["seed"]
        if seed is None:
            seed = np.random.SeedSequence().entropy
        k = np.arange(2 * RNG_BLOCKS * RNG_TPB, dtype=np.uint64)
        _RNG["states"] = cuda.to_device(_splitmix64(k, seed % 2**64).reshape(-1, 2))
        _RNG["version"] = RNG_SEED["version"]
    return _RNG["states"]


def draw(kernel, out, low, high):
    """Fills ``out`` (a new C-contiguous device array) by ``kernel`` (the generated draw:
    ``low``/``high`` are its two parameters), one state per thread."""
    n = out.size
    blocks = max(1, min(RNG_BLOCKS, -(-n // RNG_TPB)))
    # (the kernel's uint64 arithmetic wraps by design: the simulator's NumPy scalars warn)
    with np.errstate(over="ignore") if SIMULATED else contextlib.nullcontext():
        kernel[blocks, RNG_TPB](out.reshape(n), rng_states(), low, high, n)


def nonempty(n, what):
    if n == 0:
        raise ValueError(f"zero-size array to reduction operation {what} which has no "
                         f"identity")


def index_plan(shape, index):
    """Basic indexing (ints, slices, None; Ellipsis already spelled out) of an array of
    ``shape``: (result shape, (start, step) per indexed axis), with NumPy's checks."""
    out, params, dim = [], [], 0
    for item in index:
        if item is None:
            out.append(1)
            continue
        n = shape[dim]
        if isinstance(item, slice):
            start, stop, step = item.indices(n)
            out.append(len(range(start, stop, step)))
            params += [start, step]
        else:
            i = int(item)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
            params += [i % n, 0]
        dim += 1
    return tuple(out), tuple(params)


def read_item(x, index):
    """``x[i, j, ...]`` (every axis an int) as a host scalar."""
    _, params = index_plan(x.shape, index)
    return x.dtype.type(x[params[::2]])


def check_broadcast(value_shape, target):
    """NumPy's error for ``x[index] = value`` when ``value`` does not fit the target."""
    lead = len(value_shape) - len(target)
    tail = value_shape[max(0, lead):]
    if (any(d != 1 for d in value_shape[:max(0, lead)])
            or any(v not in (1, t) for v, t in zip(tail[::-1], target[::-1]))):
        raise ValueError(f"could not broadcast input array from shape {tuple(value_shape)} "
                         f"into shape {tuple(target)}")


def reshape(x, shape):
    """A view of C-contiguous ``x`` with ``shape`` (one -1 allowed), NumPy's error if the
    size differs."""
    known = math.prod(d for d in shape if d != -1)
    if -1 in shape and known and x.size % known == 0:
        shape = tuple(x.size // known if d == -1 else d for d in shape)
    if -1 in shape or math.prod(shape) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {tuple(shape)}")
    return x.reshape(tuple(shape))


def copy(x):
    out = cuda.device_array(x.shape, x.dtype)
    out.copy_to_device(x)
    return out


@cuda.jit
def _fill(out, value):
    t = cuda.grid(1)
    if t < out.size:
        out[t] = value


def full(shape, value, dtype):
    """A new device array of ``shape`` holding ``value`` (cast to ``dtype``)."""
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    out = cuda.device_array(shape, dtype)
    flat = out.reshape(out.size)
    _fill[grid(out.size)](flat, np.asarray(value).astype(dtype)[()])
    return out


def host_op(node):
    """The host fallback of ``node``: its NumPy kernel (as the interpreter runs it) on
    host copies of its inputs, results of rank > 0 moved to the device. A region op is
    called with its inputs, then the outer values its regions read (``captures``); its
    regions run in the interpreter. A pure node without inputs (a constant) is computed
    on the first call only."""
    attrs = dict(node.attrs)
    cached = [] if node.opdef.pure and not node.inputs else None
    outer = captures(node)

    def run(*args):
        if cached:
            return cached[0]
        args = [to_host(a) for a in args]
        ins, extra = args[:len(node.inputs)], args[len(node.inputs):]
        kw = attrs
        if node.regions:
            env = {v.id: a for v, a in zip(outer, extra)}
            kw = dict(attrs, regions=[region_fn(r, env) for r in node.regions])
        vals = tuple(_placed(r) for r in run_node(node, ins, kw))
        out = vals[0] if len(vals) == 1 else vals if vals else None
        if cached is not None:
            cached.append(out)
        return out
    return run


def _placed(r):
    if isinstance(r, np.ndarray):
        return r[()] if r.ndim == 0 else to_device(r)
    return r
