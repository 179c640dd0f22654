"""Tensor kinds: EagerTensor (a NumPy value) and SymbolicTensor (a Value seen while tracing).

Both share one operator surface, which dispatches through the op table: on eager inputs
the op's NumPy kernel runs at once, on symbolic inputs a Node is added to the Graph.
"""
import functools
from importlib import import_module

import numpy as np

from . import dtypes
from .ir.types import TensorType
from .mutation import serials as _births


def _apply(name, *args, **attrs):
    from .ops.dispatch import apply
    return apply(name, *args, **attrs)


def _not_repeated(t, o):
    """``o`` for ``t * o``: NumPy repeats a list or tuple times a 0-d integer array (its
    ``__index__``), which a tensor count cannot do while tracing: refused, not turned into
    an elementwise product (``[0.0] * len(x)`` with a size known only at run time)."""
    if isinstance(o, (list, tuple)) and t.ndim == 0 and t.dtype.kind in "iub":
        raise TypeError("a Python list or tuple repeated a tensor number of times (e.g. "
                        "[0.0] * len(x) where the size is known only at run time) has no "
                        "staged form; use np.zeros(n) or np.full(n, v)")
    return o


class Tensor:
    """Base of both tensor kinds: NumPy-style operators and methods."""
    __slots__ = ()
    __array_priority__ = 100

    @property
    def ndim(self):
        return len(self.shape)

    # arithmetic ---------------------------------------------------------------
    def __add__(self, o): return _apply("add", self, o)
    def __radd__(self, o): return _apply("add", o, self)
    def __sub__(self, o): return _apply("subtract", self, o)
    def __rsub__(self, o): return _apply("subtract", o, self)
    def __mul__(self, o): return _apply("multiply", self, _not_repeated(self, o))
    def __rmul__(self, o): return _apply("multiply", _not_repeated(self, o), self)
    def __truediv__(self, o): return _apply("true_divide", self, o)
    def __rtruediv__(self, o): return _apply("true_divide", o, self)
    def __floordiv__(self, o): return _apply("floor_divide", self, o)
    def __rfloordiv__(self, o): return _apply("floor_divide", o, self)
    def __mod__(self, o): return _apply("mod", self, o)
    def __rmod__(self, o): return _apply("mod", o, self)
    def __pow__(self, o): return _apply("power", self, o)
    def __rpow__(self, o): return _apply("power", o, self)
    def __matmul__(self, o): return _apply("matmul", self, o)
    def __rmatmul__(self, o): return _apply("matmul", o, self)
    def __neg__(self): return _apply("negative", self)
    def __pos__(self): return self
    def __abs__(self): return _apply("abs", self)
    def __invert__(self):
        return _apply("logical_not" if self.dtype == dtypes.bool_ else "invert", self)
    def __and__(self, o): return _apply("bitwise_and", self, o)
    def __rand__(self, o): return _apply("bitwise_and", o, self)
    def __or__(self, o): return _apply("bitwise_or", self, o)
    def __ror__(self, o): return _apply("bitwise_or", o, self)
    def __xor__(self, o): return _apply("bitwise_xor", self, o)
    def __rxor__(self, o): return _apply("bitwise_xor", o, self)
    def __lt__(self, o): return _apply("less", self, o)
    def __le__(self, o): return _apply("less_equal", self, o)
    def __gt__(self, o): return _apply("greater", self, o)
    def __ge__(self, o): return _apply("greater_equal", self, o)
    def __eq__(self, o): return _apply("equal", self, o)
    def __ne__(self, o): return _apply("not_equal", self, o)
    __hash__ = object.__hash__

    def __getitem__(self, index):
        from .ops.indexing import getitem
        return getitem(self, index)

    # NumPy protocol -------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from .numpy_api import array_ufunc
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from .numpy_api import array_function
        return array_function(func, args, kwargs)

    # array methods ----------------------------------------------------------------
    def _m(name, module="numpy_api"):  # noqa: N805 - methods that forward to the NumPy layer
        def method(self, *args, **kwargs):
            return getattr(import_module(f".{module}", __package__), name)(self, *args,
                                                                           **kwargs)
        method.__name__ = name
        return method

    sum = _m("sum"); mean = _m("mean"); max = _m("max"); min = _m("min")  # noqa: E702
    prod = _m("prod"); any = _m("any"); all = _m("all")  # noqa: E702
    argmax = _m("argmax"); argmin = _m("argmin"); cumsum = _m("cumsum")  # noqa: E702
    cumprod = _m("cumprod"); argsort = _m("argsort"); sort = _m("sort_in_place")  # noqa: E702
    reshape = _m("reshape_method"); transpose = _m("transpose_method")  # noqa: E702
    astype = _m("astype"); copy = _m("copy"); clip = _m("clip")  # noqa: E702
    squeeze = _m("squeeze"); ravel = _m("ravel"); flatten = _m("flatten")  # noqa: E702
    dot = _m("dot")
    _c = functools.partial(_m, module="numpy_composites")
    var = _c("var"); std = _c("std"); repeat = _c("repeat"); round = _c("around")  # noqa: E702
    conj = _c("conjugate"); conjugate = _c("conjugate")  # noqa: E702
    del _m, _c

    @property
    def real(self):
        from .numpy_composites import real
        return real(self)

    @real.setter
    def real(self, value):  # `z.real = v`, `z.real += v`: written as NumPy writes it
        from .numpy_composites import set_part
        set_part(self, "real", value)

    @property
    def imag(self):
        from .numpy_composites import imag
        return imag(self)

    @imag.setter
    def imag(self, value):
        from .numpy_composites import set_part
        set_part(self, "imag", value)

    @property
    def T(self):
        return _apply("transpose", self, axes=None)

    @property
    def size(self):
        """The number of elements: a Python int when every size is known while tracing,
        else a staged one (weak, as NumPy's Python int; was None: `x[x > t].size > 0`
        compared None)."""
        n = 1
        for d in self.shape:
            if d is None:
                return _apply("as_weak", _apply("size", self))
            n *= d
        return n

    def numpy_shape(self):
        """The shape as NumPy gives it, for user code (``x.shape`` and ``np.shape(x)`` in
        converted code): Python ints, and a staged (weak) int for a size known only at run
        time. ``.shape`` itself keeps ``None`` there (SPEC §1, what the library reads), which
        user code would compare silently (``x.shape[0] == 3`` was False on every run of a
        trace with relaxed sizes)."""
        return tuple(d if d is not None else _apply("as_weak", _apply("dim", self, axis=k))
                     for k, d in enumerate(self.shape))


class EagerTensor(Tensor):
    """A concrete value: the result of eager ops and of compiled calls."""
    __slots__ = ("_np",)

    def __init__(self, value):
        self._np = value

    def numpy(self):
        return self._np

    @property
    def shape(self):
        return self._np.shape

    @property
    def dtype(self):
        return self._np.dtype

    @property
    def strides(self):  # (part of the fast call path's key: the value's Numba layout)
        return self._np.strides

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self._np)
        return a if dtype is None else a.astype(dtype)

    def __repr__(self):
        return (f"<ag.Tensor shape={self.shape} dtype={self.dtype} "
                f"numpy={np.asarray(self._np)!r}>")

    def __str__(self):
        return str(self._np)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (EagerTensor(x) for x in self._np)

    def __bool__(self):
        return bool(self._np)

    def __float__(self):
        return float(self._np)

    def __int__(self):
        return int(self._np)

    def __index__(self):
        return int(self._np.__index__())

    def __format__(self, spec):
        return format(self._np, spec)


class SymbolicTensor(Tensor):
    """A Value of the Graph being traced; it has a dtype and a partial shape, no data.

    It is also a *box* (mutation.py): writes through it (``x[i] = v``, ``x += v``) give
    its storage a new root Value, which every alias and view of the same array then
    reads, as NumPy's shared buffers would."""
    __slots__ = ("_v", "_storage", "_chain", "_gen", "_born")

    def __init__(self, value):
        self._v = value
        self._storage = None   # mutation.Storage, made on the first view or write
        self._chain = ()       # view steps from the storage's root
        self._gen = 0
        self._born = next(_births)  # the serial its storage gets (mutation.Storage)

    @property
    def _value(self):
        s = self._storage
        if s is not None and (self._gen != s.gen or self._chain or s.options or s.hazards):
            from .mutation import refresh  # (a view's cached value may be a region's)
            return refresh(self)
        return self._v

    def _inplace(op):  # noqa: N805 - builds x op= y (NumPy's in-place ufuncs)
        def method(self, other):
            from .mutation import augmented
            return augmented(self, op, other)
        method.__name__ = f"__i{op}__"
        return method

    __iadd__ = _inplace("add"); __isub__ = _inplace("subtract")  # noqa: E702
    __imul__ = _inplace("multiply"); __itruediv__ = _inplace("true_divide")  # noqa: E702
    __ifloordiv__ = _inplace("floor_divide"); __imod__ = _inplace("mod")  # noqa: E702
    __ipow__ = _inplace("power"); __iand__ = _inplace("bitwise_and")  # noqa: E702
    __ior__ = _inplace("bitwise_or"); __ixor__ = _inplace("bitwise_xor")  # noqa: E702
    __imatmul__ = _inplace("matmul")
    del _inplace

    @property
    def shape(self):
        return self._value.type.shape

    @property
    def dtype(self):
        return self._value.type.dtype

    @property
    def type(self):
        return self._value.type

    def __repr__(self):
        return f"<ag.Tensor symbolic shape={self.shape} dtype={self.dtype}>"

    def __getattr__(self, name):
        # (only for names found nowhere else) an ndarray method or attribute with no staged
        # form is refused naming it and the user's line, never a raw AttributeError
        if not name.startswith("_") and hasattr(np.ndarray, name):
            from .errors import UnstagedAttributeError, user_location
            at = user_location()
            raise UnstagedAttributeError(
                f"the array attribute .{name}{f' at {at}' if at else ''} has no staged form "
                f"in autograph_lite and cannot be used on a symbolic tensor; use the NumPy "
                f"function if it is staged, or wrap the NumPy code in ag.py_func(func, "
                f"[inputs], Tout)")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _no_python(self, what, fix):
        raise TypeError(
            f"a symbolic tensor (shape={self.shape}, dtype={self.dtype}) cannot be used as "
            f"a Python {what}: its value exists only when the compiled function runs. {fix}")

    def __bool__(self):
        self._no_python("bool", "Use ag.cond / ag.while_loop, or keep autograph=True so "
                        "`if`/`while` on tensors are staged (AutoGraph does not convert "
                        "library code, @ag.do_not_convert functions or functions without "
                        "source).")

    def __float__(self):
        self._no_python("float", "Use ag.cast(x, ag.float64).")

    def __int__(self):
        self._no_python("int", "Use ag.cast(x, ag.int64).")

    def __index__(self):
        self._no_python("int (index or size)", "Pass it as a tensor argument of an ag op "
                        "(ag.zeros, ag.range, ...) or keep autograph=True.")

    def __len__(self):
        if self.shape and self.shape[0] is not None:
            return self.shape[0]
        self._no_python("int (len)", "Use ag.shape(x)[0].")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        if self.shape[0] is None:
            self._no_python("iterable", "Use a `for` loop under autograph=True, or "
                            "ag.while_loop.")
        return (self[i] for i in range(self.shape[0]))

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "a symbolic tensor cannot be converted to a NumPy array while tracing; use NumPy "
            "functions that have a staged counterpart (np.sin, np.sum, ...), or ag.py_func "
            "to run NumPy code on its value")


class TensorSpec:
    """Describes a tensor argument: ``shape`` (None dims: any size; None: any shape)."""

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        if shape is not None:
            shape = tuple(None if d is None else int(d) for d in shape)
        self.shape = shape
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    def is_compatible_with(self, shape, dtype):
        if dtype != self.dtype:
            return False
        if self.shape is None:
            return True
        return len(shape) == len(self.shape) and all(
            s is None or s == d for s, d in zip(self.shape, shape))

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        name = f", name={self.name!r}" if self.name else ""
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype}{name})"


def is_tensor(x):
    return isinstance(x, Tensor)


def is_symbolic(x):
    return isinstance(x, SymbolicTensor)


def holds_symbolic(x):
    """Whether ``x`` is a symbolic tensor or a list/tuple (nested) holding one."""
    if isinstance(x, (list, tuple)):
        return any(holds_symbolic(v) for v in x)
    return isinstance(x, SymbolicTensor)


def is_tensor_value(x):
    """A tensor, NumPy array or NumPy scalar: a tensor leaf of arguments and inputs."""
    return isinstance(x, (Tensor, np.ndarray, np.generic))


def type_of_constant(value):
    """TensorType of a Python or NumPy value (Python scalars are weak)."""
    if isinstance(value, bool):
        return TensorType(dtypes.bool_, (), True)
    if isinstance(value, int):
        return TensorType(dtypes.int64, (), True)
    if isinstance(value, float):
        return TensorType(dtypes.float64, (), True)
    if isinstance(value, complex):
        return TensorType(dtypes.complex128, (), True)
    a = np.asarray(value)
    return TensorType(dtypes.as_dtype(a.dtype), a.shape)


def to_numpy_value(value, dtype=None):
    """A NumPy array/scalar for any tensor-like (lists, scalars, EagerTensor)."""
    if isinstance(value, EagerTensor):
        value = value._np
    if isinstance(value, SymbolicTensor):
        raise TypeError("a symbolic tensor has no value outside the compiled function")
    a = np.asarray(value, dtype=dtype)
    if a.dtype == np.dtype("O") or a.dtype.kind in "USV":
        raise TypeError(f"cannot convert {value!r} to a tensor: it is not numeric "
                        f"(NumPy made an array of dtype {a.dtype})")
    if a.dtype not in dtypes.ALL:
        # never a silent conversion that changes values (complex -> real, long double)
        raise TypeError(f"cannot convert an array of dtype {a.dtype} to a tensor: "
                        f"{a.dtype} is not a supported dtype (supported: "
                        f"{', '.join(map(str, dtypes.ALL))})")
    return a[()] if a.ndim == 0 else a


def constant(value, dtype=None):
    """An eager tensor holding ``value`` (NumPy semantics; Python floats become float64)."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    from .trace import current_graph
    g = current_graph()
    if isinstance(value, SymbolicTensor):
        return value if dtype is None else _apply("cast", value, dtype=dtype)
    if isinstance(value, (list, tuple)) and holds_symbolic(value):
        # `traj[i] = [x, y, z]` of 0-d tensors: their stack, as NumPy's array of them
        from .numpy_api import stack
        out = stack([constant(v) for v in value])
        return out if dtype is None else _apply("cast", out, dtype=dtype)
    v = to_numpy_value(value, dtype)
    if g is not None:
        from .ops.dispatch import const
        return const(g, v)
    return EagerTensor(v)


def convert_to_tensor(value, dtype=None):
    if isinstance(value, Tensor) and (dtype is None or value.dtype == dtypes.as_dtype(dtype)):
        return value
    return constant(value, dtype)
