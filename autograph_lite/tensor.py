"""Tensor kinds: EagerTensor (a NumPy value) and SymbolicTensor (a Value seen while tracing).

A bottom-layer data class: both kinds share one operator and method surface, which
front_door.py attaches from the op table's public names (as JAX's array_methods.py
attaches jax.numpy's to its arrays). Through it, on eager inputs the op's NumPy kernel runs
at once, and on symbolic inputs a Node is added to the Graph.
"""
import inspect
import itertools

import numpy as np

from . import dtypes
from . import errors
from .errors import UnstagedAttributeError, user_frame, user_location
from .ir.types import TensorType

# The eager GradientTapes recording now (ops/dispatch.py's RECORDERS is this list)
RECORDERS = []


# Every box's birth serial, and every Storage's (mutation.py), from one counter.
serials = itertools.count()


# the code names of comprehensions: a tensor tested there cannot be staged (__bool__)
_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


class Tensor:
    """Base of both tensor kinds: NumPy-style operators and methods."""
    __slots__ = ()
    __array_priority__ = 100

    @property
    def ndim(self):
        return len(self.shape)

    # (comparisons return tensors, so NumPy's __eq__ would leave them unhashable)
    __hash__ = object.__hash__

    # The operators, NumPy's protocols (__array_ufunc__, __array_function__), the array
    # methods (sum, reshape, ...) and properties (T, real, size) are attached by
    # front_door.py from the op table's public names ("Tensor.__add__", "Tensor.sum"):
    # this module stays below the ops and the NumPy layer.


class EagerTensor(Tensor):
    """A concrete value: the result of eager ops and of compiled calls."""
    __slots__ = ("_np",)

    def __init__(self, value):
        self._np = value

    def numpy(self):
        return self._np

    def tolist(self):
        """NumPy's ``tolist``: nested Python lists of Python numbers (eager values only; a
        symbolic tensor has no values, so it refuses the name like any unstaged method)."""
        return np.asarray(self._np).tolist()

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
        # (`np.array(t)` asks for a copy: a snapshot of a variable, `best = np.array(w)`,
        # must not follow its later assignments, nor a write into it change the tensor)
        a = np.asarray(self._np)
        if dtype is not None and a.dtype != dtype:
            return a.astype(dtype)
        return a.copy() if copy else a

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
        if RECORDERS or type(self) is not EagerTensor:
            # (a recording GradientTape sees each row as x[i], TensorFlow's too; a
            # variable's rows are their values now, not views its `assign` changes)
            return (self[i] for i in range(self.shape[0]))
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
    __slots__ = ("_v", "_storage", "_chain", "_gen", "_born", "_python_when", "_identity")

    def __init__(self, value):
        self._v = value
        self._storage = None   # storage.Storage, made on the first view or write
        self._chain = ()       # view steps from the storage's root
        self._gen = 0
        self._born = next(serials)  # the serial its storage gets (storage.Storage)
        # a 0-d bool tensor where this strong 0-d value is a Python number of the plain run
        # on some runs only (a merge of paths: `total = 0.0`, `total += x[i]` on some of
        # them): python_numbers.python_flag
        self._python_when = None
        # which earlier object this merge of a staged branch is on which runs
        # (autograph/runtime/identities.py), where `x is y` asks
        self._identity = None

    @property
    def _value(self):
        s = self._storage
        if s is not None and (self._gen != s.gen or self._chain or s.options or s.hazards):
            return self._refreshed()  # (mutation.refresh: a view's value may be a region's)
        return self._v

    # (x += y and the other in-place operators: attached by front_door.py, as NumPy's
    # in-place ufuncs written through mutation.augmented; an ag.Tensor is immutable)

    @property
    def shape(self):
        return self._value.type.shape

    @shape.setter
    def shape(self, new):
        raise NotImplementedError(
            f"setting .shape of a traced array (`x.shape = {new!r}`) reshapes it in place "
            f"for every name of it, which is not staged: write `x = x.reshape(...)` (a new "
            f"view of the same data)")

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
            at = user_location()
            raise UnstagedAttributeError(
                f"the array attribute .{name}{f' at {at}' if at else ''} has no staged form "
                f"in autograph_lite and cannot be used on a symbolic tensor; use the NumPy "
                f"function if it is staged, or wrap the NumPy code in ag.py_func(func, "
                f"[inputs], Tout)")
        if name.startswith("_"):  # (`_value` of one being made or copied: no recursion)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        # (a 0-d one: a Python number's method, or a NumPy scalar's, `int(a[0]).bit_length()`
        # of an int array being a strong int64: session 50, a bare AttributeError)
        kind = None if self.ndim else dtypes.weak_python_type(self.dtype)
        if kind is not None and not hasattr(kind, name) and not self.type.weak:
            kind = self.dtype.type
        if kind is not None and hasattr(kind, name):
            at = user_location()  # (`int(x[0]).bit_length()`: a Python number's method)
            raise UnstagedAttributeError(
                f"{kind.__name__}.{name}{f' at {at}' if at else ''} of a Python "
                f"{kind.__name__} known only when the function runs has no staged form; "
                f"compute it with NumPy operations")
        # (a name no array or number has, `x.argmn()`: NumPy's own error, raised by the runs
        # that reach it, as Python's in a branch no run takes is never raised; session 55's
        # probe: raised while tracing, naming 'SymbolicTensor')
        kind = ("numpy.ndarray" if self.ndim else dtypes.weak_python_type(self.dtype).__name__
                if self.type.weak else f"numpy.{self.dtype.name}")
        raise errors.numpy_error(AttributeError(
            f"'{kind}' object has no attribute {name!r}"))

    def _no_python(self, what, fix):
        raise TypeError(
            f"a symbolic tensor (shape={self.shape}, dtype={self.dtype}) cannot be used as "
            f"a Python {what}: its value exists only when the compiled function runs. {fix}")

    def __bool__(self):
        frame = user_frame(2)
        at = user_location(frame=frame) if frame is not None else None
        if frame is not None and frame.f_code.co_name in _COMPREHENSIONS:
            self._no_python("bool", f"At {at}, a comprehension tests it (`[... for v in a if "
                            f"v > x]`, or `and`/`or` inside one), which cannot be staged: "
                            f"its length would depend on the tensor. Use a boolean mask "
                            f"(`a[a > x]`) or np.where, or a loop that appends.")
        if frame is not None and frame.f_code.co_flags & inspect.CO_GENERATOR:
            raise NotImplementedError(
                f"the generator function '{frame.f_code.co_name}' tests a tensor at {at}: "
                f"a generator runs as Python runs it while tracing (its `yield` cannot be "
                f"staged), so its `if`/`while` cannot depend on a value known only when the "
                f"compiled function runs; write the loop in the function itself (a boolean "
                f"mask `a[a > 0]`, or a loop that appends)")
        self._no_python("bool", f"{f'At {at}: u' if at else 'U'}se ag.cond / ag.while_loop, "
                        f"or keep autograph=True so `if`/`while` on tensors are staged "
                        f"(AutoGraph does not convert library code, @ag.do_not_convert "
                        f"functions or functions without source).")

    def __format__(self, spec=""):
        at = user_location()
        self._no_python("string", f"{f'At {at}: a' if at else 'A'}n f-string of it (under "
                        f"autograph=True) or print(x) prints its value on every call; "
                        f"`'%s' % x`, str.format and str() in code AutoGraph does not convert "
                        f"would make text now, which cannot hold it.")

    __str__ = __format__

    def __float__(self):
        self._no_python("float", "Use ag.cast(x, ag.float64).")

    def __int__(self):
        self._no_python("int", "Use ag.cast(x, ag.int64).")

    def __index__(self):
        frame = user_frame(2)
        at = f"At {user_location(frame=frame)}: a" if frame is not None else "A"
        self._no_python("int (index or size)", f"{at} Python index, size, character or "
                        f"string (`lst[t]`, `chr(t)`, `bin(t)`, `[0] * t`) is made while "
                        f"tracing, before the value exists; index a NumPy array with it, "
                        f"pass it to an ag op (ag.zeros, ag.range, ...), or keep "
                        f"autograph=True.")

    def __hash__(self):
        # Python hashes a NumPy scalar by its value (np.int64(1) finds the key 1) and
        # refuses an array; a symbolic tensor has no value yet, and hashing it by
        # identity made `d[int(k)] = v`, `s.add(int(x))`, `k in d`, `d.get(k)` silently
        # miss (or add) keys
        at = user_location()
        self._no_python("dict key or set member (hashed)",
                        f"{f'At {at}: i' if at else 'I'}ndex a NumPy array with it instead "
                        f"of a dict (`totals = np.zeros(n)`, `totals[k] += v`), or use "
                        f"np.unique for the distinct values of an array.")

    def __len__(self):
        if self.shape and self.shape[0] is not None:
            return self.shape[0]
        self._no_python("int (len)", "Use ag.shape(x)[0].")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        if self.shape[0] is None:
            frame = user_frame(2)
            at = f"At {user_location(frame=frame)}: its" if frame is not None else "Its"
            self._no_python("iterable", f"{at} length is known only when the compiled "
                            f"function runs, so `list(t)`, `tuple(t)`, unpacking or a "
                            f"comprehension over it cannot be traced; keep it an array, or "
                            f"use a `for` loop under autograph=True, or ag.while_loop.")
        return (self[i] for i in range(self.shape[0]))

    def __array__(self, dtype=None, copy=None):
        # (reached when NumPy converts a symbolic tensor it was not handed as one: a
        # function without __array_function__ dispatch, a tensor inside a list NumPy's
        # dispatcher does not look into, np.asarray in library code)
        at = user_location()
        raise TypeError(
            f"a symbolic tensor{f' at {at}' if at else ''} cannot be converted to a NumPy "
            f"array while tracing (NumPy was given it inside a list, or a function that "
            f"does not dispatch to tensors); pass tensors directly (a tuple, not a list, "
            f"where NumPy takes a sequence) to NumPy functions that have a staged "
            f"counterpart (np.sin, np.sum, ...), or use ag.py_func to run NumPy code on its "
            f"value")


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
    """TensorType of a Python or NumPy value (Python scalars are weak; NumPy scalars are
    not, although np.float64 and np.complex128 are subclasses of float and complex)."""
    if isinstance(value, np.generic):
        return TensorType(dtypes.as_dtype(value.dtype), ())
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


def unshared(a, buffers):
    """``a``, or a copy of it where it is an array sharing memory with one of ``buffers``
    (a result or residual that would otherwise be a view of the caller's array or of a
    variable's buffer, which later writes change)."""
    if isinstance(a, np.ndarray) and any(np.may_share_memory(a, b) for b in buffers):
        return a.copy()
    return a


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
