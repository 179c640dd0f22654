"""Indexing: ``x[...]`` with ints, slices, None, Ellipsis, tensor indices, int arrays
(gather) and 1-D boolean masks; and ``setitem``, the functional form of ``x[...] = v``.

The index's structure is a static attribute (``spec``); tensor parts of it (a tensor
``i`` in ``x[i]`` or ``x[a:b]``) are extra inputs, referenced by position in ``spec``.
"""
import numpy as np

from .. import dtypes, errors
from ..ir import bounds
from ..ir.types import TensorType, broadcast_shapes
from ..tensor import SymbolicTensor, Tensor, holds_symbolic, to_numpy_value
from . import advanced_index
from .dispatch import apply, convert_to_tensor, size_of, weak_scalar
from .index_spec import advanced_items, decode, encode_index, expand_spec, mask_mismatch
from .registry import defop


def _infer_shape(xt, spec, in_types):
    if sum(1 for s in spec if s[0] in ("gather", "mask")) > 1:
        raise IndexError("only one integer-array or boolean-mask index is supported here")
    items = expand_spec(spec, xt.ndim)
    parts, dim = [], 0  # (the dims each item contributes)
    for s in items:
        kind = s[0]
        if kind == "new":
            parts.append((1,))
            continue
        n = xt.shape[dim]
        if kind == "int":
            if n is not None and not -n <= s[1] < n:
                raise errors.numpy_error(IndexError(
                    f"index {s[1]} is out of bounds for axis {dim} with size {n}"))
            parts.append(())
        elif kind == "tint":
            parts.append(())
        elif kind == "gather":
            parts.append(tuple(in_types[s[1]].shape))
        elif kind == "mask":
            if in_types[s[1]].ndim == 0:
                raise IndexError("a 0-d boolean index (x[True], x[c] with a bool c) adds an axis "
                                 "of length 1 or 0, which is not staged; write x[None] or "
                                 "x[None][:0]")
            if in_types[s[1]].ndim != 1:
                raise IndexError("a boolean mask of 2 or more dims is supported alone and of the "
                                 "array's own shape (x[m] with m.shape == x.shape); here "
                                 "index with its ravel: x.reshape(...)[m.ravel()]")
            m = in_types[s[1]].shape[0]
            if None not in (m, n) and m != n:
                raise errors.numpy_error(IndexError(mask_mismatch(dim, n, m)))
            parts.append((None,))
        else:
            bounds = s[1:]
            if n is not None and all(p is None or p[0] == "c" for p in bounds):
                vals = [None if p is None else p[1] for p in bounds]
                if vals[2] == 0:
                    raise ValueError("slice step cannot be zero")
                parts.append((len(range(*slice(*vals).indices(n))),))
            else:
                parts.append((None,))
        dim += 1
    advanced, adjacent = advanced_items(items)
    if not adjacent:  # (NumPy: the array index's dims first, then the others in order)
        parts = [p for k in advanced for p in parts[k]] + [
            p for k, ps in enumerate(parts) if k not in advanced for p in ps]
        return tuple(parts)
    return tuple(d for p in parts for d in p)


def _getitem_infer(in_types, spec):
    xt = in_types[0]
    return [TensorType(xt.dtype, _infer_shape(xt, spec, in_types)).strong()]


def _getitem_eager(x, *tensors, spec):
    return np.asarray(x)[decode(spec, tensors)][()]


def render_index(em, node, spec, first):
    """Numba index text for ``spec``; tensor parts are inputs from position ``first``."""
    x = node.inputs[0]

    def part(p):
        if p is None:
            return ""
        return str(p[1]) if p[0] == "c" else em.name(node.inputs[first + p[1] - 1])
    out, dim = [], 0
    for s in expand_spec(spec, x.type.ndim):
        kind = s[0]
        if kind == "new":
            out.append("None")
            continue
        size = f"{em.name(x)}.shape[{dim}]"
        if kind == "int" and x.type.shape[dim] is not None:
            out.append(str(s[1]))  # (checked while tracing)
        elif kind == "tint" and bounds.in_bounds(node.inputs[first + s[1] - 1], x, dim):
            out.append(part(("t", s[1])))  # (`x[i]` under `for i in range(len(x))`)
        elif kind in ("int", "tint"):
            i = str(s[1]) if kind == "int" else part(("t", s[1]))
            check = "index_u" if kind == "tint" and _unsigned(node.inputs[first + s[1] - 1]) \
                else "index"
            out.append(f"rt.{check}({i}, {size}, {em.site(node, dim)})")
        elif kind == "gather":
            out.append(f"rt.gather_index({part(('t', s[1]))}, {size}, {em.site(node, dim)})")
        elif kind == "mask":
            out.append(f"rt.mask_index({part(('t', s[1]))}, {size}, {em.site(node, dim)})")
        else:
            a, b, c = (part(p) for p in s[1:])
            out.append(f"{a}:{b}" + (f":{c}" if c else ""))
        dim += 1
    return ", ".join(out) or "()"


def _driver_index(em, node, first):
    """(the index as Python text, the kind of each item) for the cuda driver when ``spec``
    is basic (ints, slices, None; tensor parts are host scalars there), else None."""
    spec, x = node.attrs["spec"], node.inputs[0]

    def part(p):
        return ("None" if p is None else str(p[1]) if p[0] == "c"
                else f"int({em.name(node.inputs[first + p[1] - 1])})")
    items, kinds = [], []
    for s in expand_spec(spec, x.type.ndim):
        if s[0] in ("gather", "mask"):
            return None
        kinds.append({"new": "new", "int": "int", "tint": "int"}.get(s[0], "slice"))
        items.append("None" if s[0] == "new" else str(s[1]) if s[0] == "int"
                     else part(("t", s[1])) if s[0] == "tint"
                     else f"slice({', '.join(part(p) for p in s[1:])})")
    return "(" + "".join(i + ", " for i in items) + ")", kinds


def _cuda_indexing(method, first):
    """lower_cuda of getitem/setitem: a basic index of a device array (em.gather or
    em.scatter); integer-array and mask indexes run on the host."""
    def lower(em, node):
        index = node.inputs[0].type.ndim and _driver_index(em, node, first)
        return getattr(em, method)(node, *index) if index else False
    return lower


def _getitem_lower(em, node):
    x = node.inputs[0]
    if x.type.ndim == 0:  # (a scalar in the kernel: `s[None]`, `s[...]` add sizes of 1)
        n = node.outputs[0].type.ndim
        return em.name(x) if n == 0 else f"np.full(({'1, ' * n}), {em.name(x)})"
    return f"{em.name(x)}[{render_index(em, node, node.attrs['spec'], 1)}]"


defop("getitem", infer=_getitem_infer, eager=_getitem_eager, lower=_getitem_lower,
      lower_cuda=_cuda_indexing("gather", 1), view=True,
      doc="x[index]: NumPy basic and (single) advanced indexing")


def _setitem_infer(in_types, spec):
    xt, vt = in_types[0], in_types[1]
    target = _infer_shape(xt, spec, [xt] + list(in_types[2:]))
    if vt.ndim and len(spec) == xt.ndim and all(p[0] in ("int", "tint") for p in spec):
        # (one element, `x[0] = v`: NumPy 2 takes no array there, not even of size 1)
        raise ValueError("setting an array element with a sequence.")
    try:
        broadcast_shapes(target, vt.shape)
    except ValueError:
        raise ValueError(f"could not broadcast a value of shape {vt.shape} into the indexed "
                         f"shape {target}") from None
    if len(vt.shape) > len(target) and any(d not in (1, None) for d in
                                           vt.shape[:len(vt.shape) - len(target)]):
        raise ValueError(f"could not broadcast a value of shape {vt.shape} into the indexed "
                         f"shape {target}")
    return [xt.strong()]


def _setitem_eager(x, value, *tensors, spec):
    out = np.array(x, copy=True)
    out[decode(spec, tensors)] = value
    return out[()]


def _setitem_lower(em, node):
    x, v = node.inputs[0], node.inputs[1]
    out = node.outputs[0]
    name = em.new(out)
    if x.type.ndim == 0:  # (a scalar in the kernel; a value of sizes 1: `a[None] = v`)
        val = em.name(v) if v.type.ndim == 0 else \
            f"np.ascontiguousarray({em.name(v)}).ravel()[0]"
        em.line(f"{name} = {em.cast(val, v.type.dtype, x.type.dtype)}")
        return None
    target = em.writable(x, node)
    em.line(f"{name} = {target}")
    val = em.name(v)
    if v.type.ndim == 0:
        val = em.cast(val, v.type.dtype, x.type.dtype)
    elif v.type.dtype != x.type.dtype:
        val = em.astype(val, v.type.dtype, x.type.dtype)
    elif target == em.name(x) and em.own.may_alias(x, v):
        val = f"np.copy({val})"  # (a view of the buffer written: Numba's copy, below)
    em.line(f"{name}[{render_index(em, node, node.attrs['spec'], 2)}] = {val}")
    return None


# The value may be a view of the array being updated (``y[4:] = y[:2]``): the lowering
# copies it first where it may share the buffer written, as NumPy does (Numba's own
# overlap test misses a line of a 3-D array off its start, `a[0, 1, :] = a[0, 1, ::-1]`:
# it wrote element by element, reading elements already overwritten; session 46).
defop("setitem", infer=_setitem_infer, eager=_setitem_eager, lower=_setitem_lower,
      lower_cuda=_cuda_indexing("scatter", 2),
      layout="first", updates_input=True, overlap_safe=(1,),
      doc="functional x[index] = value: returns the updated tensor (in place when safe)")


def _whole_mask(x, index):
    """``x[m]`` with ``m`` a boolean array of ``x``'s shape and 2+ dims (``img[img > 200]``):
    (``x`` raveled, ``m`` raveled), a 1-D mask over the same elements in the same (C) order,
    as NumPy picks them; the shapes are checked (a size known only at run time: a staged
    check). None for any other index."""
    if isinstance(index, tuple):
        if len(index) != 1:
            return None
        index = index[0]
    if not isinstance(index, (Tensor, np.ndarray)) or index.dtype != dtypes.bool_:
        return None
    xt = x if isinstance(x, Tensor) else to_numpy_value(x)
    if index.ndim < 2 or index.ndim != xt.ndim:
        return None
    for k in range(xt.ndim):
        advanced_index.check_mask_axis(size_of(xt, k), size_of(index, k), k)
    return apply("reshape", x, shape=(-1,)), apply("reshape", index, shape=(-1,))


def _staged_lists(index):
    """``index`` with each list holding tensors (``u[[0, 0, i]]``, ``m[[i, j], k]``) made
    the integer (or boolean) array NumPy makes of it: their stack, as ``np.array`` of the
    list is."""
    if isinstance(index, tuple):
        return tuple(_staged_lists(v) for v in index)
    if isinstance(index, list) and holds_symbolic(index):
        return convert_to_tensor(index)
    return index


def getitem(x, index):
    index = _staged_lists(index)
    whole = _whole_mask(x, index)
    if whole is not None:
        return getitem(*whole)
    index = _located(advanced_index.masks_as_coordinates, x, index)
    spec, tensors = encode_index(index)
    if advanced_index.needs_flat(spec, np.ndim(x)):
        return _located(advanced_index.gather, x, spec, tensors)
    entry = _shape_entry(x, spec)
    if entry is not None:  # ag.shape(x)[k] is x's k-th size: read it, build no shape array
        source, axis = entry
        return apply("dim", source, axis=axis)
    _check_run_time_indices(x, spec, tensors)
    return apply("getitem", x, *tensors, spec=spec)


def _check_run_time_indices(x, spec, tensors):
    """The explicit checks of ``x[spec]``'s indices checked at run time (tensors, and ints
    into sizes known only then) where a failing check hands back state
    (advanced_index.check_index); none elsewhere (the kernel checks them). A tensor slice
    step is checked for zero on every array (the kernel's own error would hand none back)."""
    for s in spec:
        if s[0] == "slice" and s[3] is not None and s[3][0] == "t":
            apply("assert", apply("not_equal", tensors[s[3][1] - 1], 0), error="ValueError",
                  message="slice step cannot be zero")
    if not isinstance(x, Tensor):
        return
    try:
        items = expand_spec(spec, x.ndim)
    except IndexError:
        return  # (the op refuses it, at the user's line)
    dim = 0
    for s in items:
        if s[0] in ("tint", "gather"):
            advanced_index.check_index(tensors[s[1] - 1], size_of(x, dim), dim)
        elif s[0] == "int" and x.shape[dim] is None:  # (checked at run time: rt.index)
            advanced_index.check_index(s[1], size_of(x, dim), dim)
        elif s[0] == "mask":
            advanced_index.check_mask(tensors[s[1] - 1], size_of(x, dim), dim)
        dim += s[0] != "new"


def _located(build, *args):
    """``build(*args)``, its refusal of the index told at the user's line (as ``apply``'s)."""
    try:
        return build(*args)
    except (IndexError, ValueError, NotImplementedError) as e:
        raise errors.with_location(e, errors.user_location()) from None


def _shape_entry(x, spec):
    """(source tensor, axis) when ``x`` is ``shape(source)`` traced and ``spec`` one
    in-range static int, else None."""
    node = getattr(getattr(x, "_value", None), "node", None)
    if (not isinstance(x, SymbolicTensor) or node is None or node.op != "shape"
            or len(spec) != 1 or spec[0][0] != "int"):
        return None
    source = node.inputs[0]
    k = spec[0][1]
    if not -source.type.ndim <= k < source.type.ndim:
        return None
    return SymbolicTensor(source), k % source.type.ndim


def check_number_written(x, value, spec=()):
    """NumPy 2's errors for a number that integer array ``x`` cannot hold written into it
    (by ``x[spec] = value`` or ``x.fill(value)``): a Python number, or a NumPy one into a
    signed dtype (``_check_python_number``, ``_check_numpy_scalar``)."""
    _check_python_number(x, value)
    _check_numpy_scalar(x, value, spec)


def _check_python_number(x, value):
    """Python's and NumPy 2's errors for a Python number, or a list of them, written into
    ``x``: a complex into a real array, an int (or a float made one) its dtype cannot hold;
    a list's ints are checked as NumPy checks them making it an array of ``x``'s dtype."""
    _check_python_complex(x, value)
    _check_python_int(x, value)
    if isinstance(value, (list, tuple)):
        check_python_int(x.dtype, value)


def setitem(x, index, value):
    _check_python_number(x, value)
    index = _staged_lists(index)
    whole = _whole_mask(x, index)
    if whole is not None:  # the raveled update, shaped back (a new value: functional)
        return apply("reshape_as", setitem(*whole, value), x)
    index = _located(advanced_index.masks_as_coordinates, x, index)
    spec, tensors = encode_index(index)
    if advanced_index.needs_flat(spec, np.ndim(x)):
        return _located(advanced_index.scatter, x, spec, tensors, value)
    _check_run_time_indices(x, spec, tensors)
    _check_numpy_scalar(x, value, spec)  # (an advanced index casts it: after those)
    return apply("setitem", x, value, *tensors, spec=spec)


def _check_python_complex(x, value):
    """Python's TypeError for a Python complex (a relaxed one too) written into a real
    array (`x[1] = 1j`): NumPy converts it with float() or int(), which refuse it (a NumPy
    complex number or array is cast, its imaginary part dropped, as the kernel does)."""
    kind = np.dtype(x.dtype).kind
    if isinstance(value, (list, tuple)):  # (`x[0:2] = [complex(a, b), 1]`)
        for v in value:
            _check_python_complex(x, v)
        return
    if kind not in "iuf" or not (type(value) is complex or (
            weak_scalar(value) and value.dtype.kind == "c")):
        return
    convert = ("float() argument must be a string or a real number" if kind == "f" else
               "int() argument must be a string, a bytes-like object or a real number")
    raise errors.numpy_error_at_user(TypeError(f"{convert}, not 'complex'"))


def _check_python_int(x, value):
    """NumPy 2's error for a Python int, or float (made an int first, as NumPy does),
    written into an integer array whose dtype cannot hold it (`u8[0] = -1`, `i8[1] = 300`,
    `u8[0] = -1.0`, NaN, inf); the kernel's cast would wrap it and write. Raised by the
    runs that reach the write (errors.numpy_error), as NumPy raises it."""
    dt, error = np.dtype(x.dtype), None
    if dt.kind not in "iu":
        return
    if weak_scalar(value):
        return _check_weak_int(dt, value)
    if type(value) not in (int, float):
        return
    if value != value:
        error = ValueError("cannot convert float NaN to integer")
    elif value in (float("inf"), float("-inf")):
        error = OverflowError("cannot convert float infinity to integer")
    else:
        value = int(value)
        top = 2 ** 64 - 1 if dt == np.dtype(np.uint64) else 2 ** 63 - 1
        if not -2 ** 63 <= value <= top:
            error = OverflowError("Python int too large to convert to C long")
        elif not np.iinfo(dt).min <= value <= np.iinfo(dt).max:
            error = OverflowError(f"Python integer {value} out of bounds for {dt}")
    if error is not None:
        raise errors.numpy_error_at_user(error)


def check_python_int(dt, value):
    """NumPy 2's OverflowError for a Python int made an element of integer dtype ``dt``
    that cannot hold it (`np.uint8(k)`, `np.full(n, k, np.uint8)`, `np.array([k, 1],
    np.uint8)`, `np.clip`'s bounds): raised now for a constant, staged for a relaxed one
    (a weak int), where the kernel's cast would wrap it. Ints only: NumPy casts a float
    there as it casts arrays."""
    dt = np.dtype(dt)
    if dt.kind not in "iu":
        return
    if isinstance(value, (list, tuple)):  # (`u8[0:2] = [k, 2]`: NumPy makes the list an
        for v in value:                    # array of u8's dtype, each int checked)
            check_python_int(dt, v)
        return
    if weak_scalar(value) and value.dtype.kind in "iu":
        _staged_int_conversion(dt, value)
    elif type(value) is int and not np.iinfo(dt).min <= value <= np.iinfo(dt).max:
        raise errors.numpy_error_at_user(
            OverflowError(f"Python integer {value} out of bounds for {dt}"))


def _check_weak_int(dt, value):
    """``_check_python_int`` of a Python number known only at run time (a relaxed one): a
    staged check (bool targets are left to the cast)."""
    if value.dtype.kind in "iuf":
        _staged_int_conversion(dt, value)


def _check_numpy_scalar(x, value, spec):
    """NumPy 2's errors for a NumPy number written into a *signed* integer array by basic
    indexing (`i16[k] = np.float64(1e6)`, `i16[0:2] = np.int64(10**5)`, `i8[k] = x.sum()`):
    NumPy makes it a Python int first (OverflowError beyond the dtype, ValueError for NaN),
    where the kernel's cast would wrap it. An unsigned target, an advanced index (int
    array, mask) and a 0-d array value are cast by NumPy, as the kernel casts. A 0-d
    tensor stands for a NumPy scalar (what NumPy's reductions and scalar arithmetic give);
    a 0-d *array* argument written so raises here where NumPy casts (README)."""
    dt = np.dtype(x.dtype)
    if dt.kind != "i" or any(s[0] in ("gather", "mask") for s in spec):
        return
    if isinstance(value, np.generic):
        if value.dtype.kind in "iuf" and not np.can_cast(value.dtype, dt):
            try:
                np.zeros((), dt)[()] = value
            except (OverflowError, ValueError) as e:
                raise errors.numpy_error_at_user(e) from None
        return
    if (isinstance(value, Tensor) and value.ndim == 0 and not weak_scalar(value)
            and value.dtype.kind in "iuf" and not np.can_cast(value.dtype, dt)):
        _staged_int_conversion(dt, value)


def _staged_int_conversion(dt, value):
    """Staged checks of NumPy's errors making 0-d ``value`` a Python int (float: truncated)
    for an element of integer dtype ``dt``: NaN (ValueError), infinity, beyond a C long,
    beyond ``dt`` (OverflowError), in NumPy's words."""
    info = np.iinfo(dt)
    lo, hi = int(info.min), int(info.max)
    if value.dtype.kind == "f":
        apply("assert", apply("equal", value, value), error="ValueError",
              message="cannot convert float NaN to integer")
        apply("assert", apply("less", apply("abs", value), float("inf")),
              error="OverflowError", message="cannot convert float infinity to integer")
        top = 2.0 ** 64 if dt == np.dtype(np.uint64) else 2.0 ** 63
        apply("assert", apply("logical_and", apply("greater_equal", value, -2.0 ** 63),
                              apply("less", value, top)),
              error="OverflowError", message="Python int too large to convert to C long")
        if dt.itemsize == 8:
            if dt.kind == "u":
                _out_of_bounds(dt, apply("greater", value, -1.0), apply(
                    "cast", apply("maximum", value, -2.0 ** 62), dtype=dtypes.int64))
            return
        ok = apply("logical_and", apply("greater", value, float(lo - 1)),
                   apply("less", value, float(hi + 1)))
        _out_of_bounds(dt, ok, apply("cast", value, dtype=dtypes.int64))
        return
    if value.dtype.kind == "u":
        ok = apply("less_equal", value, hi)
        if dt.itemsize == 8:  # (uint64 beyond int64's top)
            apply("assert", ok, error="OverflowError",
                  message="Python int too large to convert to C long")
            return
    elif dt == np.dtype(np.uint64):
        ok = apply("greater_equal", value, 0)
    else:
        ok = apply("logical_and", apply("greater_equal", value, lo),
                   apply("less_equal", value, hi))
    _out_of_bounds(dt, ok, value)


def _out_of_bounds(dt, ok, shown):
    """The staged check `ok` of an int ``shown`` that ``dt`` cannot hold (NumPy's words)."""
    apply("assert", ok, shown, error="OverflowError",
          message=f"Python integer out of bounds for {dt}",
          parts=("Python integer ", (-1, "", "int"), f" out of bounds for {dt}"))


def _index_and_size(in_types, name):
    """The types (index, size) of wrap_index and bounds_ok, checked."""
    i, n = in_types
    if i.dtype.kind not in "iu" or n.ndim or n.dtype.kind not in "iu":
        raise TypeError(f"{name}: an integer index and a 0-d size, got {i} and {n}")
    return i, n


def _wrap_infer(in_types, axis):
    i, _ = _index_and_size(in_types, "wrap_index")
    return [TensorType(dtypes.int64, i.shape)]


def _wrap_eager(i, n, axis):
    i = np.asarray(i, np.int64)
    bad = (i < -n) | (i >= n)
    if bad.any():
        raise IndexError(f"index {i[bad].flat[0]} is out of bounds for axis {axis} with "
                         f"size {n}")
    return np.where(i < 0, i + n, i)[()]


def _wrap_lower(em, node):
    i, n = (em.name(v) for v in node.inputs)
    site = em.site(node, node.attrs["axis"])
    if node.inputs[0].type.ndim:
        return f"rt.wrap_indices({i}, {n}, {site})"
    return f"np.int64(rt.{'index_u' if _unsigned(node.inputs[0]) else 'index'}({i}, {n}, {site}))"


def _unsigned(value):
    return value.type.dtype.kind == "u"


# (several integer-array indices at once are one gather on flat positions: advanced_index.py)
defop("wrap_index", infer=_wrap_infer, eager=_wrap_eager, lower=_wrap_lower,
      differentiable=False, layout="fresh",
      doc="integer indices into an axis of size input 1 (attr axis: its number, for the "
          "error) checked and wrapped to [0, n)")


def _bounds_ok_infer(in_types):
    i, _ = _index_and_size(in_types, "bounds_ok")
    return [TensorType(dtypes.bool_, ()), TensorType(i.dtype, ())]


def _bounds_ok_eager(i, n):
    i = np.asarray(i)
    bad = ((i < -n) | (i >= n)).ravel()
    if not bad.any():
        return np.bool_(True), i.dtype.type(0)
    return np.bool_(False), i.ravel()[np.argmax(bad)]


def _bounds_ok_lower(em, node):
    i, n = (em.name(v) for v in node.inputs)
    helper = "indices_ok" if node.inputs[0].type.ndim else "index_ok"
    em.line(f"{em.new(node.outputs[0])}, {em.new(node.outputs[1])} = rt.{helper}({i}, {n})")
    return None


# (ops/advanced_index.py check_index: an explicit bounds check that carries state)
defop("bounds_ok", infer=_bounds_ok_infer, eager=_bounds_ok_eager, lower=_bounds_ok_lower,
      differentiable=False, multi_output=True,
      doc="(whether every integer index of input 0 is in [-n, n), n input 1; the first "
          "that is not, or 0)")
