"""The Python side of an exported module (SPEC §6, export.py).

export.py copies this file's text into every module it writes, so it imports nothing but
NumPy and never autograph_lite: it is what an exported function does around its kernel
call, as ConcreteFunction does around its own (concrete.py): check each argument against
the traced spec, refuse the writes NumPy would refuse (SPEC §3), turn a kernel's
bounds-check error into NumPy's words at the user's line, and decode the arrays the module
embeds. concrete.py uses ``overlap`` and ``located_text`` from here too, so the two agree.
"""
import base64

import numpy as np


def _decode(text, dtype, shape):
    """An embedded array (base64 of its C-order bytes) as a fresh writable array."""
    flat = np.frombuffer(base64.b64decode(text), dtype=np.dtype(dtype))
    return flat.reshape(shape).copy()


def _encode(array):
    """(text, dtype, shape) for ``_decode``."""
    a = np.ascontiguousarray(array)
    return base64.b64encode(a.tobytes()).decode("ascii"), a.dtype.str, a.shape


def _spec_text(dtype, shape):
    return f"{np.dtype(dtype).name}[{', '.join('?' if d is None else str(d) for d in shape)}]"


def _argument(fname, spec, value):
    """``value`` as the kernel takes input ``spec`` = (name, dtype, shape (None: any size),
    C-contiguity the trace relied on (None: any), written): arrays and NumPy scalars of
    exactly that dtype; Python numbers and lists when NumPy casts them safely (same kind),
    as an ``input_signature`` conforms them (function.py)."""
    name, dtype, shape, layout, written = spec
    dtype = np.dtype(dtype)
    want = _spec_text(dtype, shape)
    a = value
    if not isinstance(a, (np.ndarray, np.generic)):
        if written:
            raise TypeError(f"{fname}(): argument '{name}' must be a NumPy array ({want}): "
                            f"{fname} writes into it; got {type(value).__name__}")
        try:
            natural = np.asarray(a)
            ok = natural.dtype.kind in "biufc" and np.can_cast(natural.dtype, dtype, "same_kind")
        except Exception:  # noqa: BLE001 - anything NumPy cannot read
            ok = False
        if not ok:
            raise ValueError(f"{fname}(): argument '{name}' must fit {want}, got {value!r:.80}")
        a = np.asarray(a, dtype)
    if (a.dtype != dtype or a.ndim != len(shape)
            or any(d is not None and d != n for d, n in zip(shape, a.shape))):
        raise ValueError(f"{fname}(): argument '{name}' must fit {want}, got a {a.dtype} "
                         f"array of shape {a.shape}")
    if layout is not None and a.ndim and bool(a.flags.c_contiguous) != layout:
        fix = (f"np.ascontiguousarray({name})" if layout else "an array that is not")
        raise ValueError(f"{fname}(): argument '{name}' must {'' if layout else 'not '}be "
                         f"C-contiguous: the function was traced for that layout (its "
                         f"reshape views rely on it); pass {fix}")
    if written:
        if not isinstance(a, np.ndarray):
            kind = type(a)
            raise TypeError(f"'{kind.__module__}.{kind.__qualname__}' object does not "
                            f"support item assignment")
        if not a.flags.writeable:
            raise ValueError("assignment destination is read-only")
        return a
    return a[()] if a.ndim == 0 else a


def _check_written(fname, specs, values):
    """Arguments that share memory with one the function writes: refused, as a call of the
    Function refuses them (the kernel could not keep both views right)."""
    for i, spec in enumerate(specs):
        if not spec[4]:
            continue
        for j, b in enumerate(values):
            if j != i and isinstance(b, np.ndarray) and overlap(values[i], b):
                other = specs[j][0]
                raise ValueError(
                    f"{fname}(): arguments '{spec[0]}' and '{other}' share memory and "
                    f"{fname} writes into '{spec[0]}'; pass a copy (e.g. {other}.copy()) so "
                    f"that each argument is a separate array")


def overlap(a, b):
    """Whether arrays ``a`` and ``b`` share memory (undecided counts as yes)."""
    if not np.may_share_memory(a, b):
        return False
    try:
        return np.shares_memory(a, b, max_work=100_000)
    except np.exceptions.TooHardError:  # undecided: refuse rather than risk it
        return True


INDEX_ERROR = "index is out of bounds"   # cpu_runtime.index's first argument
MASK_ERROR = "boolean index did not match"


def located_text(exc, sites):
    """NumPy's words, at the user's line, for a kernel's bounds-check error
    (``IndexError(INDEX_ERROR or MASK_ERROR, index, size, site)``); None for any other."""
    if not (isinstance(exc, IndexError) and len(exc.args) == 4
            and exc.args[0] in (INDEX_ERROR, MASK_ERROR)):
        return None
    i, n, site = exc.args[1:]
    loc, axis = sites[site]
    if exc.args[0] == INDEX_ERROR:
        text = f"index {i} is out of bounds for axis {axis} with size {n}"
    else:
        text = (f"boolean index did not match indexed array along axis {axis}; size of axis "
                f"is {n} but size of corresponding boolean axis is {i}")
    return text + (f" (at {loc})" if loc else "")
