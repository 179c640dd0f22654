"""ag.defun / ag.function: trace once per signature, compile, and call fast.

Flow of a call: signature key (shapes and dtypes of tensors, values of Python arguments)
-> cached ConcreteFunction (trace + optimise + compile on a miss) -> kernel -> results
wrapped as eager tensors in the structure the function returned. The hot path builds the
key with a few type checks and one dict lookup; it never traces, imports or calls
``numba.typeof``.
"""
import collections
import dis
import functools
import inspect
import re
import threading
import types
import warnings
import weakref

import numpy as np

from . import call_guards, contiguity, dtypes, held_state, nest, partial_raise, staged_text, storage
from .errors import GENERATED, is_generated, user_stacklevel
from .ir.graph import Graph
from .ir.passes import optimize
from .ir.types import TensorType
from .ops.dispatch import RECORDERS, as_value
from . import mutation
from .tensor import EagerTensor, SymbolicTensor, Tensor, TensorSpec, is_tensor_value
from .concrete import ConcreteFunction
from .variables import SymbolicVariable, Variable, captures_of
from .call_keys import OUT as _OUT, WEAK as _WEAK, fits as _fits, is_weak_part
from .call_keys import Optional, OptionalSlot
from .call_keys import layout_of as _layout_of, layouts_fit
from .trace import random_states, sizes
from .trace.context import (block_fast_path, current_graph, device_scope, fast_path_blockers,
                            graph_scope)

_RUN_EAGERLY = [False]
RETRACE_WARNING_AFTER = 5


def run_functions_eagerly(run_eagerly):
    """True: every Function runs its Python body directly (for pdb/print debugging)."""
    run_eagerly = bool(run_eagerly)
    if run_eagerly != _RUN_EAGERLY[0]:
        _RUN_EAGERLY[0] = run_eagerly
        block_fast_path(1 if run_eagerly else -1)


def functions_run_eagerly():
    return _RUN_EAGERLY[0]


_FACTORY = object()  # (the key of a defaultdict's factory among its entries')
_NO_DEFAULT = object()  # (a parameter with no default: Function._default_of)


def _leaf_key(x, what):
    """The signature-key part of one argument; ``what`` (its name) is used only in errors."""
    t = type(x)
    if t is np.ndarray:
        return (x.shape, x.dtype)
    if t is EagerTensor:
        v = x._np
        return (v.shape, v.dtype)
    if isinstance(x, np.generic):  # (not a 0-d array's: `isinstance(y, np.ndarray)` differs)
        return ((), x.dtype, np.generic)
    if t is float:  # (by bits: 0.0 and -0.0 are different constants; nan equals itself)
        return (t, x.hex())
    if t in (int, bool, str, type(None)):
        return (t, x)
    kind = nest.kind(x)
    if kind is tuple or kind is list:  # (a namedtuple's type is its key's)
        return (t, tuple(_leaf_key(v, _Sub(what, i)) for i, v in enumerate(x)))
    if kind is dict:  # (in the caller's order: `for k in d` walks it; a defaultdict's
        # factory too: `d["missing"]` makes its value)
        factory = ((_FACTORY, _leaf_key(x.default_factory, what)),) if isinstance(
            x, collections.defaultdict) else ()
        return (t, tuple((k, _leaf_key(x[k], _Sub(what, k))) for k in x) + factory)
    if kind is False:
        base = next(b for b in (dict, list, tuple) if isinstance(x, b)).__name__
        raise TypeError(f"argument {what} is a {t.__name__}, a subclass of {base} whose own "
                        f"behaviour a compiled function cannot keep (it passes the function "
                        f"a {base} it rebuilds of the tensors); pass {base}(...) of it")
    if isinstance(x, SymbolicTensor):
        return ("sym", x.shape, x.dtype)
    if isinstance(x, np.ndarray):  # (np.matrix, a masked array: their own semantics)
        raise TypeError(f"argument {what} is a {t.__module__}.{t.__name__}, a subclass of "
                        f"np.ndarray whose own meaning of the operators a compiled function "
                        f"cannot keep; pass np.asarray(...) of it (a plain array of its data)")
    if hasattr(t, "__next__"):  # (an iterator, a generator: a call consumes it)
        raise TypeError(f"argument {what} is an iterator ({t.__name__}), which each call "
                        f"consumes; a compiled function would walk the items its trace "
                        f"took on every call: pass a list or tuple of them")
    try:
        hash(x)
    except TypeError:
        if held_state.is_holder(held_state.bound_self(x)):  # (a dataclass: its state is
            return ("obj", t, id(x))                       # keyed, held_state.py)
        raise TypeError(f"argument {what} is an unhashable {t.__name__} ({x!r:.60}); a "
                        f"defun argument must be a tensor, a NumPy array, or a hashable "
                        f"Python value (use a tuple instead of a list of non-numbers)") from None
    return ("obj", t, x)


def _check_held_kept(name, found, held_arrays, names):
    """The arrays the objects among the arguments held are still there after the trace: a
    function that deletes one (`del o.b`) would delete it on each call in Python, which a
    compiled call cannot do (it reads them by their paths: held_state.py)."""
    by_selector = dict(found)
    for sel, steps, _ in held_arrays:
        try:
            held_state.fetch(by_selector, sel, steps)
        except (AttributeError, KeyError, IndexError, TypeError):
            raise NotImplementedError(
                f"{name} deletes '{held_state.path_text(sel, steps, names)}' of an object it "
                f"is given (`del obj.attr`); a compiled function cannot delete it on each "
                f"call as Python would: delete it before the call, or set it to None") from None


@functools.lru_cache(maxsize=4096)
def _stored_globals(code):
    """The module variables ``code`` (and the code nested in it) assigns or deletes (`global
    LAST; LAST = v`): what a failed trace puts back (slots.Snapshot)."""
    names = {i.argval for i in dis.get_instructions(code)
             if i.opname in ("STORE_GLOBAL", "DELETE_GLOBAL")}
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _stored_globals(c)
    return frozenset(names)


def _holds_mutable(x):
    """Whether ``x`` is, or holds in its containers, a dict or a list (of any kind)."""
    kind = nest.kind(x)
    if kind is dict or kind is list:
        return True
    return kind is tuple and any(_holds_mutable(v) for v in x)


def _lists_in(values, names, depth=0):
    """(id, (list, path)) of the lists ``values`` (named ``names``) are or hold, in their
    lists, tuples and dicts."""
    for name, v in zip(names, values):
        kind = nest.kind(v)
        if kind is list:
            yield id(v), (v, name)
        if depth < 4 and kind in (list, tuple, dict):
            keys = list(v) if kind is dict else range(len(v))
            yield from _lists_in([v[k] for k in keys], [f"{name}[{k!r}]" for k in keys],
                                 depth + 1)


class _NumbersFound(BaseException):
    """A trace found Python numbers of the objects it was called with that it changes
    (held_state.bound_numbers): it is undone (its Snapshot restores them) and traced again
    with them as inputs (``Function._trace``). A BaseException: the conversion's fallbacks
    and the retries for sizes do not take it for a failure."""


class _Sub:
    """A lazily formatted argument path (``'xs'[2]``), built only for error messages."""
    __slots__ = ("parent", "key")

    def __init__(self, parent, key):
        self.parent, self.key = parent, key

    def __str__(self):
        return f"{self.parent}[{self.key!r}]"


def _too_deep(name, e):
    """The message of a RecursionError met while tracing ``name``: a user function that
    calls itself (its code on the stack again and again) under a staged `if`, else a trace
    nested too deep otherwise (session 54's probe: a 1,000-trip Python loop, unrolled
    because its body needs the index as a Python value, with a staged `if` per trip, was
    blamed on recursion the code does not have)."""
    codes, tb = collections.Counter(), e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_generated(code.co_filename):
            codes[code] += 1
        tb = tb.tb_next
    if codes and max(codes.values()) > 20:
        return (f"maximum recursion depth exceeded while tracing {name}: a function that "
                f"calls itself under a staged `if` (a condition on a tensor, e.g. `if n <= 1: "
                f"return 1` with a traced n) is traced down both branches, so the trace "
                f"never ends; write the recursion as a loop (`while` on the tensor), or make "
                f"the condition a Python value")
    return (f"maximum recursion depth exceeded while tracing {name}: the trace nests too "
            f"deep, most often a long Python loop unrolled (its body needs the loop index as "
            f"a Python value: a dict key, a list of tuples read by it, `hist[i % 3]`) with a "
            f"staged `if` or loop in each trip, a chain of values too long to follow; give the "
            f"loop a tensor index (keep such values in a NumPy array indexed by it), or make "
            f"the loop shorter")


def _note_users_line(e):
    """A user's own error (their `raise`, Python's or NumPy's on the trace's values) that
    the trace raises now gets a note naming the user's line: its traceback's last frames
    are the converted code's, in a generated file (a check raised when the kernel runs
    names the line in its message)."""
    from .autograph.runtime import staging, user_raises
    if not staging.python_own(e):
        return
    at = user_raises.raised_at(e)
    note = f"(raised at {at})"
    if at and at not in str(e) and not any(at in n for n in getattr(e, "__notes__", ())):
        e.add_note(note)  # (not where its text or a note names the line already)


class Function:
    """A Python function compiled per input signature (see SPEC §2)."""

    def __init__(self, python_function, input_signature=None, autograph=True, backend="cpu",
                 name=None):
        # (backend='cuda' without a GPU or the simulator refuses at the first call, which
        # imports numba.cuda: making a Function imports no Numba)
        if backend not in ("cpu", "cuda", "interpreter"):
            raise ValueError(f"backend must be 'cpu', 'cuda' or 'interpreter', got {backend!r}")
        self.python_function = python_function
        self._taped_by_caller = False  # (gradients/residuals.py: a forward kernel)
        self._name = name or getattr(python_function, "__name__", "function")
        functools.update_wrapper(self, python_function, updated=())
        self._signature = inspect.signature(python_function)
        params = list(self._signature.parameters.values())
        self._param_names = [p.name for p in params]
        self._simple_arity = (len(params) if all(
            p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
            else None)
        # how many leading positional arguments the fast path takes: all of them, or the
        # required ones when the rest default to immutable Python scalars (trace constants)
        self._fast_arity = _fast_arity(params)
        self.input_signature = _check_signature(input_signature, params, self._name)
        self.autograph = autograph
        self.backend = backend
        self._cache = {}
        # sizes relax (SPEC 2): (argument index, rank, dtype) -> _Sizes (the first shape,
        # the exact shapes that shared its kernel, the relaxed shape); arguments whose
        # relaxed trace failed (the body needs their sizes or values as Python ints) are in
        # _static and stay exact
        self._shapes = {}
        # Python int/float arguments relax too: (argument index, type) -> the first value
        # seen, or _RELAXED once a second one was (then a weak 0-d tensor of the trace)
        self._scalars = {}
        self._static = set()
        self._lock = threading.RLock()
        self._random = None  # (a call's random states while it traces: _trace_locked)
        self._tracing_count = 0
        self._history = []
        self._warned = False
        self._converted = None
        self._bound = {}  # id(instance) -> (weak reference to it, its Function)
        self._owner = held_state.owner(python_function)  # (`self`, whose state is read)
        # the paths of the Python numbers of those objects that a trace changed (`self.t +=
        # 1`): inputs of the next traces (held_state.bound_numbers); and those that failed
        # as inputs (a size, a Python index), which stay values of the signature
        self._held_numbers, self._held_static = set(), set()
        # (type, shape, dtype, strides) of every argument -> (kernel entry, result wrapper,
        # error locator); only for Functions whose class has the generated fast __call__.
        self._fast = None
        if self._fast_arity:
            self._fast = {}
            self._guards = []  # (call_guards.Guard: the newest entries, tried before _fast)
            self._positions = {name: i for i, name in enumerate(self._param_names)}
            self.__class__ = _fast_call_class(len(params), self._fast_arity)

    # binding to instances (methods) ---------------------------------------------------
    def __get__(self, instance, owner):
        if instance is None:
            return self
        # (by identity: two instances that compare and hash equal, a dataclass, are two
        # `self`s; a WeakKeyDictionary gave the second the first's Function)
        key = id(instance)
        entry = self._bound.get(key)
        if entry is not None and entry[0]() is instance:
            return entry[1]
        bound = Function(self.python_function.__get__(instance, owner), self.input_signature,
                         self.autograph, self.backend, self._name)
        table = self._bound

        def forget(ref):
            if table.get(key, (None,))[0] is ref:
                del table[key]
        try:
            table[key] = (weakref.ref(instance, forget), bound)
        except TypeError:  # (not weakly referable: a Function per access)
            pass
        return bound

    # the call path ------------------------------------------------------------------------
    # Functions whose parameters are all plain positional ones get a generated per-arity
    # ``__call__`` (see _fast_call_class): it looks the arguments' (type, shape, dtype,
    # strides) up in ``self._fast`` and calls the kernel's entry point directly. This one
    # serves every other call, and fills ``_fast`` after a successful call.
    def __call__(self, *args, **kwargs):
        return self._call_slow(args, kwargs)

    def _call_slow(self, args, kwargs):
        if _RUN_EAGERLY[0]:
            return self.python_function(*args, **kwargs)
        if current_graph() is not None:
            return self._converted_function()(*args, **kwargs)  # inline into the outer trace
        given = args
        if kwargs or self._simple_arity != len(args):
            args = self._bind(args, kwargs)
        if any(type(a) is np.memmap for a in args):  # (a file's array: its plain view,
            args = tuple(a.view(np.ndarray) if type(a) is np.memmap else a  # writes reach
                         for a in args)                                       # the file)
        if self.input_signature is not None:
            args = self._conform(args)
        cf = self._cache.get(key := self._key(args))
        traced = cf is None
        if cf is None:
            cf = self._trace_locked(key, args)
        if cf.layouts and not layouts_fit(cf.layouts, args):
            key += (_layouts(cf.layouts, args),)
            cf, traced = self._cache.get(key), traced or key not in self._cache
            cf = cf or self._trace_locked(key, args)
        drawn = getattr(cf, "drawn", None)
        if drawn and not traced:  # (its generators where its trace found them: moved on)
            random_states.check_drawn(cf, self._name)
        if RECORDERS and not self._taped_by_caller:  # eager GradientTapes record the call
            # (gradients/tape.py; a split call's forward kernel is recorded as that call)
            out = RECORDERS[0].call_compiled(self, args, cf)
        else:
            out = cf._call_args(args)
        if (self._fast is not None and not kwargs and len(given) == self._fast_arity
                and all(a is b for a, b in zip(args, given))):  # the rest are defaults
            self._install_fast(cf, given)
        return out

    def _install_fast(self, cf, args):
        """Adds the fast-path entry for these exact argument types and Python values
        (``_fast_key``), and an inline guard for it (call_guards.py: the newest
        INLINE_ENTRIES), which a relaxed trace's arguments of any size or value pass."""
        key = _fast_key(args)
        if key is None or key in self._fast or self._owner is not None or getattr(
                cf, "drawn", None):  # (`self` of a method: its state is looked at on each
            return  # call; the generators a trace drew from are checked on each call)
        parts = cf._fast_parts(args)  # (selects the Numba overload: once for both)
        if parts is None:
            return
        with self._lock:
            if len(self._fast) >= FAST_TABLE_LIMIT:  # e.g. many strides of sliced inputs
                self._fast.clear()
            self._fast[key] = cf._fast_entry(args, parts)
            guard = call_guards.guard_for(cf, args, parts)
            if guard is not None:  # the newest first: a relaxed trace's comes last
                self._guards = [guard] + self._guards[:call_guards.INLINE_ENTRIES - 1]
                base = _fast_call_class(len(self._param_names), self._fast_arity)
                self.__class__ = call_guards.guarded_class(
                    base, len(self._param_names), self._fast_arity, self._guards,
                    fast_path_blockers, _NOARG)

    def _key(self, args):
        """The signature key of bound (and, under an input_signature, conformed) arguments:
        an array argument's part is its shape as relaxed so far (``_shape_key``)."""
        if self.input_signature is not None:
            return _signature_key(args, self.input_signature) + self._held_key(args)
        out = []
        for i, a in enumerate(args):
            t = type(a)
            if t is np.ndarray or t is EagerTensor:
                v = a if t is np.ndarray else a._np
                out.append((self._shape_key(i, v.shape, v.dtype), v.dtype))
            elif (t is int or t is float) and i not in self._static:
                out.append(self._scalar_key(i, t, a))
            else:
                out.append(_leaf_key(a, _Arg(self, i)))
        return tuple(out) + self._held_key(args)

    def _held_key(self, args):
        """The state of the user's objects among the arguments and `self`, as the key holds
        it (held_state.py): empty when there are none."""
        found = held_state.holders(self, args)
        return (("held", held_state.fingerprint(found, self._held_numbers)),) if found else ()

    def _scalar_key(self, i, t, a):
        """SPEC 2, Python scalars relax: argument ``i``'s value while it is the only one
        seen; from its second value on, ``("weak", t)``: a weak 0-d int64/float64 input."""
        k = (i, t)
        first = self._scalars.get(k, _UNSEEN)
        exact = _leaf_key(a, None)
        if first is _RELAXED:
            return _WEAK[t] if _fits(a) else exact
        if first is _UNSEEN:
            self._scalars[k] = exact
        elif first != exact and _fits(a):
            self._scalars[k] = _RELAXED
            return _WEAK[t]
        return exact

    def _shape_key(self, i, shape, dtype):
        """SPEC 2, sizes relax: argument ``i``'s shape, until its (rank, dtype) family is
        relaxed (``_settle_sizes``); then the family's shape with the sizes that differed
        unknown (None), which serves every shape it fits."""
        if not shape or i in self._static:
            return shape
        k = (i, len(shape), dtype)
        f = self._shapes.get(k)
        if f is None:
            self._shapes[k] = _Sizes(shape)
            return shape
        if f.pattern is None:
            if shape == f.first or (self.backend != "interpreter" and f.shapes < EXACT_SHAPES
                                    and not _bakes(f.cf, f.first)):
                return shape  # (a compiled backend asks _settle_sizes first)
            f.pattern = _widen(f.first, shape)  # no kernel to share (any more): relax
        if not _fits_shape(f.pattern, shape):
            f.pattern = _widen(f.pattern, shape)
        return f.pattern

    def _settle_sizes(self, key, args, cf):
        """After an exact trace of a new shape of an argument's family: while its kernel
        is the first shape's (the generated code reads the sizes at run time, so no
        compile, and exact shapes keep loops fused) it is used, up to EXACT_SHAPES shapes;
        otherwise the family relaxes and the call gets the relaxed trace instead (one
        compile that serves every later size)."""
        if self.input_signature is not None:
            return cf
        changed = []
        for f, shape in self._exact_families(key, args):
            if shape == f.first:
                f.cf = f.cf or cf
            else:
                changed.append((f, shape))
        if not changed:
            return self._relax_read_sizes(key, args, cf)
        first = next((f.cf for f, _ in changed if f.cf is not None), None)
        if (self.backend != "interpreter" and first is not None
                and all(f.shapes < EXACT_SHAPES for f, _ in changed)
                and first.source == cf.source):
            for f, _ in changed:
                f.shapes += 1
            return cf
        for f, shape in changed:
            f.pattern = _widen(f.first, shape)
        return self._trace_or_exact(self._key(args), args)[1]

    def _exact_families(self, key, args):
        """(family, exact shape in ``key``) of each top-level array argument whose (rank,
        dtype) family has not relaxed yet (``_Sizes``)."""
        for i, a in enumerate(args):
            part = key[i] if i < len(key) else None
            if type(a) not in (np.ndarray, EagerTensor) or i in self._static or not (
                    isinstance(part, tuple) and part[0]):
                continue
            f = self._shapes.get((i, len(part[0]), part[1]))
            if f is not None and f.pattern is None:
                yield f, part[0]

    def _relax_read_sizes(self, key, args, cf):
        """After the exact trace of an argument family's first shape, on a compiled
        backend: when the trace read sizes as Python numbers (``len(x)``, ``x.shape[0]``,
        ``for v in x``) and one bounds a loop (``for i in range(len(x))``), its kernel
        could serve no other size (``while i < 1000``), and the next size would compile a
        second one. So the dimensions of those sizes relax at once, and the call gets the
        relaxed trace: one compile serves every length from the first call on (issue 13
        (a)). A size read only to make arrays (``np.arange(len(x))``) keeps exact-first:
        with exact sizes, elementwise chains over several arguments fuse (relaxed sizes
        cannot say that two unknown sizes are equal; bisection_cubic of the corpus was
        1.25x slower relaxed). The exact trace is not compiled (kernels compile at their
        first call); a relaxed trace that fails falls back to it (``_trace_or_exact``).
        Other dimensions keep their sizes (fusion, unrolling)."""
        if self.backend == "interpreter" or not sizes.bound_a_loop(cf.graph):
            return cf
        read, relaxed = sizes.values_read(cf.graph), False
        for f, shape in self._exact_families(key, args):
            pattern = tuple(None if d in read else d for d in shape)
            if shape == f.first and pattern != shape:
                f.pattern, relaxed = pattern, True
        if not relaxed:
            return cf
        return self._trace_or_exact(self._key(args), args)[1]

    def _trace_or_exact(self, key, args):
        """(key, the trace for it): a relaxed trace that fails (a list of len(x) items, a
        shape that must be static) is done again with the exact sizes, which then stay
        (``_exact``)."""
        cf = self._cache.get(key)
        if cf is None:
            try:
                cf = self._trace(args, key)
            except Exception:
                exact = self.input_signature is None and self._exact(args, key)
                if not exact:
                    raise
                key = exact
                cf = self._cache.get(key)
                if cf is None:
                    cf = self._trace(args, key)
                elif self._random is not None:  # (the failed trace drew again)
                    self._random.resume(cf)
            self._cache[key] = cf
        return key, cf

    def _exact(self, args, key):
        """``key`` with every relaxed size given back (a relaxed trace failed: those
        arguments stay exact from now on), or None when nothing was relaxed."""
        exact, relaxed = list(key), False
        for i, a in enumerate(args):
            part = key[i] if i < len(key) else None
            if (type(a) in (np.ndarray, EagerTensor) and isinstance(part, tuple)
                    and None in part[0]):
                v = a if type(a) is np.ndarray else a._np
                exact[i] = (v.shape, v.dtype)
            elif is_weak_part(part):
                exact[i] = _leaf_key(a, None)
            else:
                continue
            self._static.add(i)
            relaxed = True
        return tuple(exact) if relaxed else None

    def _arg_name(self, i):
        return f"'{self._param_names[i]}'" if i < len(self._param_names) else f"#{i}"

    def _bind(self, args, kwargs):
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self._name}(): {e}") from None
        bound.apply_defaults()
        out = []
        for name, p in self._signature.parameters.items():
            v = bound.arguments[name]
            if p.kind is p.VAR_POSITIONAL:
                out.extend(v)
            elif p.kind is p.VAR_KEYWORD:
                out.append(dict(v))
            else:
                out.append(v)
        return tuple(out)

    def _conform(self, args):
        n = len(self.input_signature)
        if len(args) != n and not self._defaults_after(args, n):
            names = list(self._signature.parameters)[n:len(args)]
            raise TypeError(f"{self._name}() takes {n} argument(s) under its "
                            f"input_signature, got {len(args)}" + (
                                f" (the parameters after them, {', '.join(names)}, may only "
                                f"keep their defaults)" if len(names) == len(args) - n
                                else ""))
        args, rest = args[:n], args[n:]  # (parameters the signature leaves: their defaults)
        out = []
        for i, (a, spec) in enumerate(zip(args, self.input_signature)):
            given = a  # (an ag.Tensor stays one: the call refuses to write into it)
            if isinstance(a, EagerTensor):
                a = a._np
            elif not isinstance(a, (np.ndarray, np.generic)):
                try:
                    natural = np.asarray(a)
                    ok = natural.dtype.kind in "biufc" and np.can_cast(natural.dtype, spec.dtype,
                                                                      "same_kind")
                except Exception:
                    ok = False
                if not ok:
                    raise ValueError(f"{self._name}(): argument {self._arg_name(i)} must fit "
                                     f"{spec}, got {a!r:.80}")
                a = np.asarray(a, spec.dtype)
            if not spec.is_compatible_with(a.shape, a.dtype):
                raise ValueError(f"{self._name}(): argument {self._arg_name(i)} must fit "
                                 f"{spec}, got a {a.dtype} tensor of shape {a.shape}")
            out.append(given if isinstance(given, EagerTensor) else a)
        return tuple(out) + rest

    def _defaults_after(self, args, n):
        """Whether ``args`` (bound, defaults applied) go past the signature's ``n`` only
        with the default values of the parameters after it, which every call then has."""
        params = list(self._signature.parameters.values())
        if len(args) < n or len(params) != len(args) or any(
                p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            return False
        return all(p.default is not p.empty and a is p.default
                   for p, a in zip(params[n:], args[n:]))

    # tracing ------------------------------------------------------------------------------
    def _converted_function(self):
        if self._converted is None:
            fn = self.python_function
            if self.autograph:
                try:
                    from .autograph import convert
                except ImportError:  # pragma: no cover - during bootstrap only
                    convert = None
                if convert is not None:
                    fn = convert(fn)
            self._converted = fn
        return self._converted

    def _trace_locked(self, key, args):
        with self._lock:
            self._random = random_states.Snapshot(self.python_function, args)
            try:
                return self._trace_locked_once(key, args)
            finally:
                self._random = None

    def _trace_locked_once(self, key, args):
        """``_trace_locked``'s work, under its lock."""
        cf = self._cache.get(key)
        if cf is None and self._relax_held_numbers(key):
            key = self._key(args)  # (the numbers that changed are inputs now)
            cf = self._cache.get(key)
        if cf is None:
            try:
                key2, cf = self._trace_or_exact(key, args)
            except Exception as e:
                key, key2, cf = self._trace_numbers_as_values(args, e)
                if cf is None:
                    raise
            cf = self._cache[key] = self._settle_sizes(key2, args, cf)
            after = self._held_key(args)
            # (not where it changed a number that is a value of the signature, which
            # `_trace_numbers_as_values` said traces again for each value)
            if after and key[-1:] != after and not (self._held_static and (
                    held_state.changed_numbers(key[-1][1], after[0][1])
                    & self._held_static)):
                # the trace's own Python effects on the objects (`self.traces += 1`)
                # happen once per trace (SPEC 2): the state they leave calls it too
                self._cache[key[:-1] + after] = cf
        return cf

    def _relax_held_numbers(self, key):
        """Whether the Python numbers of the objects it is called with that differ from
        those of the last trace of the same state otherwise (`m.lr = m.lr * 0.99` between
        calls) were made inputs of the traces from now on, as a Python-number argument
        relaxes (held_state.changed_numbers), instead of a trace per value."""
        if not self._history or key[-1:][0][:1] != ("held",):
            return False
        for prev in reversed(self._history):
            if prev[-1:] and prev[-1][:1] == ("held",):
                moved = held_state.changed_numbers(prev[-1][1], key[-1][1]) - self._held_static
                if moved:
                    self._held_numbers |= moved
                    return True
        return False

    def _trace_numbers_as_values(self, args, error):
        """(key, key2, trace) with the Python numbers the objects hold that this call's
        trace carried as inputs (held_state.bound_numbers) made values of the signature
        again, after that trace failed (`[0.0] * self.n`, a list index: a Python number is
        needed), with a warning that each new value of one traces again (``_trace_locked``
        registers no trace for the state it leaves); (None, None, None) when it carried
        none."""
        found = held_state.holders(self, args)
        used = set(held_state.layout(found)) & self._held_numbers
        if not used:
            return None, None, None
        self._held_numbers -= used
        self._held_static |= used
        key = self._key(args)
        key2, cf = self._trace_or_exact(key, args)
        names = self._leaf_names(args)
        paths = ", ".join(sorted(held_state.path_text(sel, steps, names) for sel, steps in used))
        warnings.warn(
            f"{self._name}: the Python number(s) {paths} of an object it is called with "
            f"change from call to call; carried as a tensor (so that a new value is no new "
            f"trace), the trace failed ({type(error).__name__}: {str(error)[:200]}), so "
            f"they are values of the signature again: each new value traces again (slow; "
            f"the function's change to it is made while tracing). Keep such a number in a "
            f"NumPy number (`self.t = np.int64(0)`) or array, or out of the object",
            UserWarning, stacklevel=user_stacklevel())
        return key, key2, cf

    def _trace(self, args, key, specs=None):
        for attempt in range(4):
            try:
                cf = self._trace_once(args, key, specs)
                if self._random is not None:
                    self._random.traced(cf)
                return cf
            except _NumbersFound:  # (undone: traced again, carrying them as inputs)
                if attempt == 3:
                    raise RuntimeError(f"{self._name}: tracing kept finding Python numbers "
                                       f"of its objects that it changes") from None

    def _trace_once(self, args, key, specs=None):
        if self._random is not None:  # (a trace after the first of one call draws the same)
            self._random.before_trace()
        graph = Graph(self._name)
        leaves = nest.flatten(args)
        relaxed, weak = self._relaxed_leaves(args, key) if specs is None else ({}, set())
        sym = []
        names = self._leaf_names(args)
        for i, x in enumerate(leaves):
            if specs is not None and isinstance(x, TensorSpec):
                t = TensorType(x.dtype, x.shape)
            elif self.input_signature is not None and i < len(self.input_signature):
                spec = self.input_signature[i]
                shape = spec.shape if spec.shape is not None else (None,) * np.ndim(x)
                t = TensorType(spec.dtype, shape)
            elif i in weak:  # a relaxed Python scalar: weak, and no buffer to write
                t = TensorType(np.dtype(np.int64 if type(x) is int else np.float64), (), True)
                x = np.int64(x) if type(x) is int else np.float64(x)
            elif is_tensor_value(x):
                a = x._np if isinstance(x, EagerTensor) else x
                # (strings, objects, dates: no tensor; the backends half-worked on them)
                if not a.dtype.isnative:
                    raise TypeError(f"{self._name}: the argument '{names[i]}' has dtype "
                                    f"{a.dtype.str}, in the other byte order; pass it as "
                                    f"x.astype('{a.dtype.newbyteorder('=').name}')")
                dt = dtypes.as_dtype(a.dtype, f"{self._name}: the argument '{names[i]}' has "
                                              f"dtype")
                t = TensorType(dt, relaxed.get(i, tuple(np.shape(a))))
            else:
                sym.append(x)
                continue
            value = graph.add_input(t, hint=names[i])
            if type(x) is np.ndarray and self.input_signature is None:
                contiguity.mark_input(value, i, bool(x.flags.c_contiguous))
            sym.append(_argument_box(value, x, names[i]))
        sym_args = nest.pack_as(args, sym)
        # (a list of the caller's that staged code appends to becomes a tensor list the
        # name is rebound to: the caller's would not change, trial.refuse_shared refuses)
        graph.caller_lists = dict(_lists_in(sym_args, self._param_names))
        # the arrays the user's objects among the arguments hold: inputs too, read on each
        # call by their paths (held_state.py), each standing for its box (mutation.hold)
        held, held_boxes, numbers = [], [], {}
        held_arrays = held_state.arrays(held_state.holders(self, args), self._held_numbers)
        for sel, steps, array in held_arrays:
            path = held_state.path_text(sel, steps, names)
            if type(array) in (int, float):  # (a Python number: weak, as a relaxed argument)
                number = np.int64(array) if type(array) is int else np.float64(array)
                value = graph.add_input(TensorType(number.dtype, (), True), hint=path)
                box = numbers[sel, steps] = _argument_box(value, number, path)
            else:
                value = graph.add_input(TensorType(array.dtype, array.shape), hint=path)
                contiguity.mark_input(value, None, bool(array.flags.c_contiguous))
                box = _argument_box(value, array, path)
                mutation.hold(array, box, graph)
            held.append((sel, steps))
            held_boxes.append(box)
        graph.held = held
        graph.held_inputs = frozenset(b._storage.index for b in held_boxes)
        fn = self._converted_function()
        # a trace starts unplaced: an ag.device scope open around an eager call does nothing
        # (SPEC §2), and the trace it makes serves calls from any scope
        # the arrays of objects from outside that are no inputs (those of a global's or a
        # closure's object): constants that writes refuse (runtime/data.py `_captured`)
        from .autograph.runtime import slots
        # (the functions it may run: its own, and the helpers their globals and closures
        # hold: their module variables are what a failed trace puts back)
        reached = self._reached(fn, sym)
        outside = self._outside_roots(fn, args, sym, reached)
        graph.outside_arrays = [(a, p) for a, p in slots.arrays_in(outside)
                                if mutation.lifted(a, graph) is None]
        # what the trace changes in them stays only if it succeeds (SPEC §2: a side effect
        # of the trace); a failed one puts their items back, no traced value left there
        before = slots.Snapshot(outside, [(scope, _stored_globals(f.__code__))
                                          for f, (scope, _) in reached.items()])
        found = held_state.holders(self, args)
        layout = held_state.layout(found) if found else {}
        placed = held_state.place(found, {id(a): b for (_, _, a), b in zip(held_arrays,
                                                                          held_boxes)},
                                  numbers)
        bindings = self._bindings_so_far(found, names, self._binding_inputs(
            sym, held_boxes, held_arrays)) if found else None
        with graph_scope(graph), device_scope(None), partial_raise.tracking(graph, bindings):
            call = self._unbind(sym_args)
            try:
                try:
                    result = fn(*call, **getattr(call, "kwargs", {}))
                except RecursionError as e:
                    raise RecursionError(_too_deep(self._name, e)) from e
                except Exception as e:
                    if not self._raised_on_every_run(e, graph, bindings):
                        _note_users_line(e)
                        raise
                    result = None  # (the kernel raises it: partial_raise.py)
                finally:
                    held_state.unplace(placed)
                updates = self._held_updates(graph, found, layout, names, sym, held_arrays,
                                             held_boxes) if found else []
                self._check_containers_kept(args, sym_args, sym)
                self._check_nothing_stored(fn, args, sym)
                if held_arrays:
                    _check_held_kept(self._name, found, held_arrays, names)
            except BaseException:
                before.restore()
                raise
            out_leaves = nest.flatten(result)
            template = []
            for r in out_leaves:
                if isinstance(r, (Tensor, np.ndarray, np.generic, bool, int, float, complex)):
                    graph.outputs.append(as_value(graph, r))
                    template.append(_OUT)
                elif isinstance(r, Optional):  # (None on some runs: the value and a flag)
                    parts = nest.flatten(r.value)
                    graph.outputs += [as_value(graph, v) for v in parts + [r.is_set]]
                    template.append(OptionalSlot() if len(parts) == 1 and parts[0] is r.value
                                    else OptionalSlot(r.value, len(parts)))
                elif isinstance(r, staged_text.StagedText):
                    raise TypeError(f"{self._name} returns a string made from a traced value "
                                    f"(an f-string, str() or repr() of a tensor), whose text "
                                    f"exists only when it runs; return the tensor and format "
                                    f"it after the call")
                elif held_state.is_holder(r) and held_state.holds_traced(r):
                    raise TypeError(
                        f"{self._name} returns a {type(r).__name__} object holding values "
                        f"of the trace (tensors that exist only while it runs): the "
                        f"compiled function cannot make that object on each call; return "
                        f"the arrays (a tuple, list or dict of them) and build it after "
                        f"the call")
                else:
                    template.append(r)
            # (then the values each call binds into the objects: held_state.py)
            graph.held_updates = [(sel, steps, structure, kinds)
                                  for sel, steps, structure, kinds, _ in updates]
            graph.outputs += [v for *_, values in updates for v in values]
        # (the variables it used are inputs too: what it assigns is written back)
        graph.input_updates = _input_updates(
            graph, sym + held_boxes + [b for _, b in captures_of(graph)])
        optimize(graph, placement=self.backend == "cuda")  # (the others run all on the host)
        self._tracing_count += 1
        self._note_retrace(key)
        return ConcreteFunction(self, graph, result, template, key)

    def _held_updates(self, graph, found, layout, names, sym, held_arrays, held_boxes):
        """[(selector, steps, structure, leaves, output values)]: what the trace bound into
        the objects it was called with (held_state.rebound), as each call binds it; the
        trace's own bindings are put back (the first call reads the state of before).
        A leaf is ("out", k): the k-th of the graph outputs added; ("arg", i) or ("held",
        j): the caller's i-th argument leaf or j-th held array itself (`self.v = x`: the
        object, as Python binds it); ("py", value): a Python value as it is. A weak value
        (made of Python numbers alone: `self.t + 1`) is bound as a Python number
        (``graph.held_number_types``). The Python numbers the trace changed are inputs of
        the next traces (held_state.bound_numbers)."""
        # (a Python value of the signature it binds, a flag or a string, is bound by every
        # call too: `self.on = not self.on` flipped once, on the trace, and the calls of the
        # same trace kept the first call's value; the state of after the trace is no alias
        # of before then, as its own bindings are put back)
        rebinds = held_state.rebound(found, layout, names, plain=True)
        found_numbers = held_state.bound_numbers(found, layout) - self._held_static
        inputs = self._binding_inputs(sym, held_boxes, held_arrays)
        try:
            out, graph.held_number_types = self._binding_rows(graph, rebinds, inputs, names)
        finally:
            held_state.put_back(found, layout, [(sel, steps) for sel, steps, _ in rebinds])
        if found_numbers - self._held_numbers:
            # (this trace baked them: it is undone, and the call traced again with them as
            # inputs, so the call changes them once, in its kernel)
            self._held_numbers |= found_numbers
            raise _NumbersFound()
        return out

    @staticmethod
    def _raised_on_every_run(e, graph, bindings):
        """Whether the user's `raise` (or failed Python `assert`) ``e``, met by the trace of
        the function itself (not of a staged branch or loop body: every run reaches it),
        is staged as the kernel's last op, a check that always fails: when something the
        trace staged before it is seen by the caller (a write into an argument, a binding
        into its objects, a check, a print, a callback), which Python does before raising,
        or its message holds traced values (made, and their reads checked, when it runs).
        Otherwise it is raised now, as Python raises it before anything happens."""
        from .autograph.runtime import staging
        from .ops.check_errors import stand_in
        name = stand_in(e)
        if not (staging.python_own(e) and not getattr(e, "ag_staged", True)
                and name is not None and current_graph() is graph):
            return False
        from .api.core import check
        from .autograph.runtime import text, user_raises
        # (a message of traced values, `raise ValueError(f"bad {u[k]}")`, is made when the
        # function runs, and reading them may raise first: Python's IndexError of `u[k]`;
        # made while tracing it was "bad <traced float64>", session 54's random programs)
        if not (graph.written_inputs or any(not n.opdef.pure for n in graph.walk())
                or (bindings is not None and bindings(0))
                or any(text.holds(a) for a in e.args)):
            return False
        at = user_raises.raised_at(e)
        check(False, text.exception_text(e), name, user_raises.as_raised(e, at))
        graph.nodes[-1].loc = at or graph.nodes[-1].loc
        return True

    @staticmethod
    def _binding_inputs(sym, held_boxes, held_arrays):
        """{id: kind} of the values a binding may name as inputs: ("arg", i) the i-th
        argument leaf's box, ("held", j) the j-th held array (or its box)."""
        inputs = {id(b): ("arg", i) for i, b in enumerate(sym) if isinstance(b, SymbolicTensor)}
        inputs.update((id(b), ("held", j)) for j, b in enumerate(held_boxes))
        inputs.update((id(a), ("held", j)) for j, (_, _, a) in enumerate(held_arrays)
                      if type(a) not in (int, float))  # (small ints are one object)
        return inputs

    def _binding_rows(self, graph, rebinds, inputs, names, n_out=0):
        """([(selector, steps, structure, kinds, values)], {k: int or float}) for
        ``rebinds`` (held_state.rebound): each leaf an input (``inputs``), a Python value,
        or ("out", k), the k-th value from ``n_out`` on, a Value of ``graph``; the map
        gives the values made of Python numbers alone, bound as a Python number."""
        out, numbers = [], {}
        for sel, steps, x in rebinds:
            structure = x if nest.kind(x) else None
            kinds, values = [], []
            for leaf in (nest.flatten(x) if structure is not None else [x]):
                kind = inputs.get(id(leaf))
                if kind is None and isinstance(leaf, SymbolicTensor):
                    s = getattr(leaf, "_storage", None)
                    if s is not None and s.origin != storage.MADE:
                        raise TypeError(
                            f"{self._name} binds '{held_state.path_text(sel, steps, names)}'"
                            f" to a view of an array it is called with (or of one its "
                            f"objects hold): the compiled function cannot make that view "
                            f"of the caller's array on each call; bind a copy "
                            f"(`.copy()`), or take the view where it is used")
                if kind is None and (isinstance(leaf, SymbolicTensor)
                                     or held_state.is_value(leaf)):
                    value = as_value(graph, leaf)
                    if value.type.weak and value.type.dtype.kind in "biuf":
                        # (made of Python numbers alone: a Python number, as in Python;
                        # `self.full = True` under a staged `if`: a bool)
                        numbers[n_out] = {"f": float, "b": bool}.get(value.type.dtype.kind,
                                                                      int)
                    kind = ("out", n_out)
                    values.append(value)
                    n_out += 1
                kinds.append(kind or ("py", leaf))
            out.append((sel, steps, structure, kinds, values))
        return out, numbers

    def _bindings_so_far(self, found, names, inputs):
        """partial_raise.tracking's ``bindings``: what the trace has bound into the objects
        by now, against their state once they hold their boxes (``found``' layout then)."""
        placed = held_state.layout(found)

        def bindings(n_out):
            rebinds = held_state.rebound(found, placed, names, plain=True)
            if not rebinds:
                return None
            rows, numbers = self._binding_rows(current_graph(), rebinds, inputs, names, n_out)
            values = [v for *_, vs in rows for v in vs]
            types = [numbers.get(n_out + k, v.type.dtype.type) for k, v in enumerate(values)]
            return [row[:4] for row in rows], values, types
        return bindings

    def _spec_call_key(self, args):
        """The key a call that fits ``args`` (top-level TensorSpecs, other arguments as
        values) computes, with each spec's unknown sizes made the relaxed shape of its
        argument; under an input_signature, the key of the calls it serves when the specs
        are the signature's own (of known rank); None for specs nested in containers."""
        if self.input_signature is not None:
            if len(args) != len(self.input_signature) or not all(
                    isinstance(a, TensorSpec) and s.shape is not None
                    and a.shape is not None and tuple(a.shape) == tuple(s.shape)
                    and np.dtype(a.dtype) == np.dtype(s.dtype)
                    for a, s in zip(args, self.input_signature)):
                return None
            return tuple((None, np.dtype(a.dtype)) for a in args)
        out = []
        for i, a in enumerate(args):
            if isinstance(a, TensorSpec):
                if a.shape is None:
                    return None
                shape, dtype = tuple(a.shape), np.dtype(a.dtype)
                if None in shape and i not in self._static:
                    f = self._shapes.setdefault((i, len(shape), dtype), _Sizes(shape))
                    f.pattern = shape if f.pattern is None else _widen(f.pattern, shape)
                    shape = f.pattern
                out.append((shape, dtype))
            elif any(isinstance(x, TensorSpec) for x in nest.flatten(a)):
                return None
            else:
                out.append(_leaf_key(a, _Arg(self, i)))
        return tuple(out) + self._held_key(args)

    def _relaxed_leaves(self, args, key):
        """({leaf index: shape} of the top-level array arguments whose key part is a
        relaxed shape (``_shape_key``), {leaf index} of the relaxed Python scalars)."""
        out, weak, leaf = {}, set(), 0
        if self.input_signature is None:
            for i, a in enumerate(args):
                if type(a) in (np.ndarray, EagerTensor) and None in key[i][0]:
                    out[leaf] = key[i][0]
                elif is_weak_part(key[i]):
                    weak.add(leaf)
                leaf += len(nest.flatten(a))
        return out, weak

    def _unbind(self, sym_args):
        """Positional arguments again, with *args and **kwargs re-expanded (``_bind`` put
        the *args items in line, one per argument, between the other parameters)."""
        params = self._signature.parameters.items()
        n_var = len(sym_args) - len(params) + 1  # the *args items, if there is a *args
        out, kw, rest = [], {}, list(sym_args)
        for name, p in params:
            if p.kind is p.VAR_POSITIONAL:
                out.extend(rest[:n_var])
                del rest[:n_var]
                continue
            v = rest.pop(0)
            if p.kind is p.VAR_KEYWORD:
                kw.update(v)
            elif p.kind is p.KEYWORD_ONLY:
                kw[name] = v
            else:
                out.append(v)
        if kw:
            return _Call(out, kw)
        return out

    def _check_containers_kept(self, args, sym_args, sym):
        """A list or dict argument the trace wrote into (`d['s'] = v`, `out.append(v)`):
        the trace wrote into the structure it made of the caller's (its tensors are the
        trace's inputs), so the caller's would never change, as it does in Python (SPEC
        §3: a call changes the caller's data exactly as the plain Python run would)."""
        k = 0
        for name, a, given in zip(self._param_names, args, sym_args):
            n = len(nest.flatten(a))
            if _holds_mutable(given):  # (a dict or list, or one a tuple holds: `s.w`)
                now = nest.flatten(given)
                if len(now) != n or any(x is not y for x, y in zip(now, sym[k:k + n])) or (
                        nest.structure_key(given) != nest.structure_key(a)):  # (an empty
                    # list a defaultdict(list) made for `d["zz"]`: no leaf, a new key)
                    kind = type(given).__name__
                    if a is self._default_of(name):  # (`def f(x, acc=[])`, not passed)
                        raise TypeError(
                            f"{self._name} writes into the {kind} default of '{name}' (the "
                            f"one object the `def` made, which Python changes on every "
                            f"call); a compiled Function cannot change it then: default "
                            f"'{name}' to None and make the {kind} inside, or return it")
                    raise TypeError(
                        f"{self._name} writes into its {kind} argument '{name}' (an item "
                        f"set, added or removed, in it or in a list or dict it holds); a "
                        f"compiled Function cannot change the caller's Python containers: "
                        f"return the new value instead, or pass the values as NumPy "
                        f"arrays, which it writes into as NumPy does")
            k += n

    def _default_of(self, name):
        """The default value of parameter ``name`` of the Python function (a sentinel where
        it has none, or no signature)."""
        try:
            p = inspect.signature(self.python_function).parameters.get(name)
        except (TypeError, ValueError):
            return _NO_DEFAULT
        return p.default if p is not None and p.default is not p.empty else _NO_DEFAULT

    def _reached(self, fn, sym):
        """data.functions_reached from the function and the functions passed to it (a
        callback `cb = lambda v: hist.append(v)`: its closure and globals are reached
        too)."""
        from .autograph.runtime import data
        passed = [x for x in sym if isinstance(x, (types.FunctionType, types.MethodType))]
        return data.functions_reached((self.python_function, fn, *passed))

    def _outside_roots(self, fn, args, sym, reached):
        """[(object, name)]: where the trace reaches Python objects that outlive it: the
        arguments that are no tensors (objects, passed as they are), `self` of a method,
        the globals the function names and its closure variables."""
        from .autograph.runtime import data
        names = self._leaf_names(args)
        roots = [(x, names[i] or "an argument") for i, x in enumerate(sym)
                 if not isinstance(x, Tensor) and not is_tensor_value(x)]
        for f in (self.python_function, fn):
            if getattr(f, "__self__", None) is not None:
                roots.append((f.__self__, "self"))
        for i, x in enumerate(sym):  # (`h.append` passed: the list it appends to)
            if isinstance(x, types.BuiltinMethodType) and isinstance(
                    getattr(x, "__self__", None), (list, dict)):
                roots.append((x.__self__, f"{names[i] or 'an argument'}.__self__"))
        for f, (scope, cells) in reached.items():
            roots += data.roots_of(f, scope, cells)
        if (getattr(self.python_function, "__module__", None) or "").startswith(
                "autograph_lite."):
            # (a gradient's own trace of the user's Function: the state that Function's
            # object holds is its held state, read and written back as a call's is)
            roots = [(x, n) for x, n in roots if not isinstance(x, Function)]
        return roots

    def _check_nothing_stored(self, fn, args, sym):
        """A traced value the trace left in an object that outlives it (an attribute of an
        argument or of `self`, an item of a global dict: `self.t += v`): the compiled
        function would not change the object on each call, as Python does, and the value
        means nothing outside the trace."""
        from .autograph.runtime import slots
        if (getattr(self.python_function, "__module__", None) or "").startswith("autograph_lite."):
            return  # (the gradients' own traces keep what they trace in their closures)
        # (the functions reached again: a helper the trace bound is one too)
        reached = self._reached(fn, sym)
        path = slots.stored_tensor(self._outside_roots(fn, args, sym, reached))
        if path is not None:
            raise TypeError(
                f"{self._name} stores a traced value in '{path}', which outlives the call "
                f"(an object of an argument, a global or a closure); the compiled function "
                f"cannot change it on each call as Python would: keep the value in an "
                f"ag.Variable (`v.assign_add(...)`), or return it")

    def _leaf_names(self, args):
        names = []
        for name, a in zip(self._param_names, args):
            names += nest.leaf_paths(a, name)  # (`bufs[0]`, `st['u']`: for messages)
        return names + [None] * (len(nest.flatten(args)) - len(names))

    def _note_retrace(self, key):
        self._history.append(key)
        if self._warned or len(self._history) <= RETRACE_WARNING_AFTER:
            return
        changing = {}
        for prev, cur in zip(self._history, self._history[1:]):
            for i, (a, b) in enumerate(zip(prev, cur)):
                if _python_part(a) != _python_part(b):
                    changing[i] = changing.get(i, 0) + 1
        if changing:
            i = max(changing, key=changing.get)
            if changing[i] >= RETRACE_WARNING_AFTER and key[i][:1] == ("held",):
                self._warned = True
                path = held_state.changed_path(self._history[-2][i][1], key[i][1],
                                               self._param_names)
                warnings.warn(
                    f"{self._name} has been traced {len(self._history)} times because the "
                    f"state of an object it is called with keeps changing ({path}); a "
                    f"compiled function reads that state on each call, and each new state "
                    f"of its Python values is a new trace (its arrays' values are not: "
                    f"they are inputs). Keep values that change on every call (a history "
                    f"list, a counter) outside the object, or in a NumPy array",
                    UserWarning, stacklevel=user_stacklevel())
            elif changing[i] >= RETRACE_WARNING_AFTER and key[i][:1] == ("obj",) and \
                    held_state.is_holder(key[i][2]):
                self._warned = True
                warnings.warn(
                    f"{self._name} has been traced {len(self._history)} times because "
                    f"argument {self._arg_name(i)} is a new {key[i][1].__name__} object on "
                    f"each call; a compiled function traces once per object it is called "
                    f"with (what a trace makes of an object may hold the object itself: a "
                    f"callback of its method, its variables). Pass the same object each "
                    f"time, or the arrays and numbers it holds as arguments",
                    UserWarning, stacklevel=user_stacklevel())
            elif changing[i] >= RETRACE_WARNING_AFTER:
                self._warned = True
                warnings.warn(
                    f"{self._name} has been traced {len(self._history)} times because the "
                    f"Python value of argument {self._arg_name(i)} keeps changing; each new "
                    f"value is a new trace. Pass it as a tensor (e.g. np.float64(v)) or use "
                    f"input_signature", UserWarning, stacklevel=user_stacklevel())

    # public introspection -------------------------------------------------------------------
    def experimental_get_tracing_count(self):
        return self._tracing_count

    @property
    def tracing_count(self):
        return self._tracing_count

    def get_concrete_function(self, *args, **kwargs):
        """The traced function for one signature; TensorSpecs stand for tensors."""
        if not args and not kwargs and self.input_signature is not None:
            args = tuple(self.input_signature)
        if kwargs or (self._simple_arity != len(args)):
            args = self._bind(args, kwargs)
        if any(isinstance(a, TensorSpec) for a in nest.flatten(args)):
            key = ("spec",) + tuple(repr(a) for a in nest.flatten(args))
            with self._lock:
                cf = self._cache.get(key)
                if cf is None:
                    call_key = self._spec_call_key(args)
                    # a call that fits the specs may have traced it already; else calls
                    # that fit them use this trace
                    cf = self._cache.get(call_key) if call_key is not None else None
                    if cf is None:
                        cf = self._trace(args, key, specs=True)
                        if call_key is not None:
                            self._cache.setdefault(call_key, cf)
                    self._cache[key] = cf
            return cf
        if self.input_signature is not None:
            args = self._conform(args)
        key = self._key(args)
        cf = self._cache.get(key)
        return cf if cf is not None else self._trace_locked(key, args)

    def __repr__(self):
        return f"<ag.Function {self._name} backend={self.backend}>"


class _Arg:
    """An argument's name, formatted only when an error needs it."""
    __slots__ = ("function", "index")

    def __init__(self, function, index):
        self.function, self.index = function, index

    def __str__(self):
        return self.function._arg_name(self.index)


class _Call(list):
    """Positional args plus keyword-only ones (for functions with * or ** parameters)."""

    def __init__(self, args, kwargs):
        super().__init__(args)
        self.kwargs = kwargs


FAST_TABLE_LIMIT = 64
_NOARG = object()  # the default of a generated __call__'s parameters: "not passed"


def _fast_key(args):
    """The fast-path key of positional arguments (what the generated ``__call__`` looks
    up), or None when some argument cannot take the fast path. An array, NumPy scalar or
    ag.Tensor: type, shape, dtype and strides, which fix Numba's array type (layout
    included; readonly is left out on purpose: kernels never write their inputs, and the
    two array types share one data model). A Python int, float, bool, str or None: its
    type and value (a signature value, or a relaxed scalar the entry passes on); 0.0 and
    nan are left to the slow path (0.0 == -0.0 would share a key, nan never matches)."""
    key = []
    for a in args:
        t = type(a)
        if t is float and (a == 0.0 or a != a):
            return None
        if not (t is np.ndarray or t in _FAST_PYTHON or t is EagerTensor
                or isinstance(a, np.generic)):
            return None
        key.append(_key_part(a))
    return tuple(key)


_FAST_PYTHON = frozenset((int, float, bool, str, type(None)))
_NUMPY_SCALARS = frozenset(np.dtype(c).type for c in "?bhilqBHILQefdgFDG")
# one argument's part of the key, as the generated __call__ computes it (= _fast_key's)
# (an ndarray: shape, dtype, strides; a NumPy scalar: its type, which fixes them; a Python
# value: type and value; an ag.Tensor (its array's, read without the properties' calls) or
# another NumPy scalar type: all four)
_FAST_KEY_PART = ("(a{i}.shape, a{i}.dtype, a{i}.strides) if (t{i} := type(a{i})) is ndarray else "
                  "(t{i}, a{i}) if t{i} in PYTHON else "
                  "t{i} if t{i} in SCALARS else "
                  "(t{i}, a{i}._np.shape, a{i}._np.dtype, a{i}._np.strides) if t{i} is TENSOR else "
                  "(t{i}, a{i}.shape, a{i}.dtype, a{i}.strides)")
_KEY_NAMES = {"ndarray": np.ndarray, "PYTHON": _FAST_PYTHON, "SCALARS": _NUMPY_SCALARS,
              "TENSOR": EagerTensor}
_key_part = eval("lambda a0: " + _FAST_KEY_PART.format(i=0), dict(_KEY_NAMES))  # noqa: S307


def _fast_arity(params):
    """The number of leading positional parameters the generated ``__call__`` looks up,
    or None when the signature does not allow the fast path (``*args``, keyword-only
    parameters, or defaults that are not immutable Python scalars: an array default is
    a kernel argument, a mutable one could change between calls)."""
    if not params or any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params):
        return None
    required = [p for p in params if p.default is p.empty]
    if any(type(p.default) not in _CONSTANT_DEFAULTS for p in params[len(required):]):
        return None
    return len(required) or None


_CONSTANT_DEFAULTS = frozenset((int, float, bool, complex, str, bytes, type(None)))
_FAST_CLASSES = {}
_FAST_TEMPLATE = """
def __call__(self, {params}, /, *rest, **kwargs):
    if kwargs and not rest:  # keywords naming parameters: put in their places
        args = [{all_names}]
        for name, v in kwargs.items():
            i = self._positions.get(name)
            if i is None or i >= {given} or args[i] is not NOARG:
                break  # (not a parameter, a default, or given twice: the slow path)
            args[i] = v
        else:
            {all_names}, = args
            kwargs = None
    if not (rest or kwargs or blockers[0]){defaults_unpassed}:
        try:
            call, finish, located = self._fast[({key},)]
        except Exception:  # a miss, or an unhashable argument: the slow path
            call = None
        if call is not None:
            try:
                raw = call({names})
            except Exception as e:
                raise located(e, ({names},)) from None
            return finish(raw)
    return self._call_slow(tuple([a for a in ({all_names},) if a is not NOARG]) + rest,
                           kwargs or {{}})
"""


def _fast_call_class(n, given):
    """A subclass of Function whose ``__call__`` takes ``n`` positional parameters and,
    when exactly the first ``given`` are passed (the rest keep their defaults), goes from
    them to the kernel with one tuple build and one dict lookup (generated per arity: a
    loop over ``*args`` would cost more than the whole lookup)."""
    cls = _FAST_CLASSES.get((n, given))
    if cls is None:
        names = ", ".join(f"a{i}" for i in range(given))
        src = _FAST_TEMPLATE.format(
            given=given,
            params=", ".join(f"a{i}=NOARG" for i in range(n)),
            names=names,
            all_names=", ".join(f"a{i}" for i in range(n)),
            defaults_unpassed=f" and a{given} is NOARG" if given < n else "",
            key=", ".join("(" + _FAST_KEY_PART.format(i=i) + ")" for i in range(given)))
        ns = dict(_KEY_NAMES, blockers=fast_path_blockers, NOARG=_NOARG)
        label = f"{n} arguments" if given == n else f"{given} of {n} arguments"
        exec(compile(src, f"{GENERATED}fast call, {label}>", "exec"), ns)
        cls = type("Function", (Function,), {"__call__": ns["__call__"]})
        _FAST_CLASSES[n, given] = cls
    return cls


def _is_tensor_key(k):
    """An array's key part (shape, dtype), or a NumPy scalar's ((), dtype, np.generic)."""
    return (isinstance(k, tuple) and len(k) in (2, 3) and isinstance(k[1], np.dtype)
            and k[2:] in ((), (np.generic,)))


# Exact traces of an argument's (rank, dtype) family, at most, while they share the first
# shape's kernel (Function._settle_sizes); then it relaxes.
EXACT_SHAPES = 4


class _Sizes:
    """The sizes of one (argument, rank, dtype) family (Function._shape_key): the first
    shape seen and its trace, how many exact shapes shared its kernel, and ``pattern``,
    the relaxed shape, once relaxed."""
    __slots__ = ("first", "cf", "shapes", "pattern")

    def __init__(self, first):
        self.first, self.cf, self.shapes, self.pattern = first, None, 1, None


def _bakes(cf, shape):
    """Whether the first trace's kernel has one of its argument's sizes written in as a
    number (`while i < 1000`): then a new size cannot share it, and relaxing at once saves
    tracing it exactly first. (A number that only looks like a size, as 1 always does,
    costs nothing but the kernel sharing, which a size-1 kernel rarely offers: size 1
    broadcasts; a size that shapes the code without appearing in it is found by comparing
    the kernels, _settle_sizes.)"""
    if cf is None:
        return False
    if sizes.were_read(cf.graph):
        return True
    if cf._source is None:
        return False
    return any(re.search(rf"(?<![\w.]){d}(?![\w.])", cf._source) for d in shape)


def _fits_shape(pattern, shape):
    return all(a is None or a == b for a, b in zip(pattern, shape))


def _widen(pattern, shape):
    return tuple(a if a == b else None for a, b in zip(pattern, shape))


_UNSEEN, _RELAXED = object(), object()


def _python_part(k):
    """A signature-key entry with its tensor leaves blanked: what Python values it holds."""
    if _is_tensor_key(k) or (isinstance(k, tuple) and k[:1] == ("sym",)):
        return None
    if isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], type) and issubclass(
            k[0], (tuple, list, dict)):
        if issubclass(k[0], dict):
            return (k[0], tuple((name, _python_part(v)) for name, v in k[1]))
        return (k[0], tuple(_python_part(v) for v in k[1]))
    return k


def _signature_key(args, signature):
    return tuple((a.ndim if s.shape is None else None, a.dtype) for a, s in zip(args, signature))


def _check_signature(sig, params, name):
    if sig is None:
        return None
    if not isinstance(sig, (list, tuple)) or not all(isinstance(s, TensorSpec) for s in sig):
        raise TypeError(f"input_signature of {name} must be a sequence of ag.TensorSpec, got "
                        f"{sig!r}")
    if any(p.kind is p.VAR_KEYWORD for p in params):
        raise TypeError(f"{name} takes **kwargs, which an input_signature cannot describe")
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(sig) > len(positional) and not any(p.kind is p.VAR_POSITIONAL for p in params):
        raise TypeError(f"input_signature of {name} has {len(sig)} TensorSpecs but {name} "
                        f"takes {len(positional)} positional argument(s)")
    return tuple(sig)


def defun(func=None, input_signature=None, *, autograph=True, backend="cpu"):
    """Compiles ``func`` per input signature: ``@ag.defun``, ``@ag.defun(...)``, ``ag.defun(f)``."""
    if func is None:
        return lambda f: Function(f, input_signature, autograph, backend)
    if isinstance(func, Function):
        func = func.python_function
    if _callable_instance(func):  # (`ag.defun(model)`: its __call__, bound, reads the
        return Function(func.__call__, input_signature, autograph, backend,  # object's
                        name=type(func).__name__)                    # state on every call)
    return Function(func, input_signature, autograph, backend)


def _callable_instance(func):
    """Whether ``func`` is an instance of a user's class with a ``__call__`` written in Python
    (`ag.defun(model)`): compiled as the bound method, whose object is read on every call
    (held_state.py); as a plain callable its state was read once, at the first trace
    (session 49: a later `model.w[0] = 10` or `model.b = 7.0` was not seen, silently)."""
    call = getattr(type(func), "__call__", None)
    return (not isinstance(func, (type, functools.partial)) and not inspect.isroutine(func)
            and inspect.isfunction(call))



def _layouts(layouts, args):
    """The part of the signature key that tells traces for other layouts apart (sizes
    relax; layouts do not)."""
    return ("c_contiguous",) + tuple(sorted(_layout_of(layouts, args).items()))


def _argument_box(value, arg, name):
    """The tensor a traced function sees for argument leaf ``arg`` (mutation.py): a
    NumPy array (or a spec, standing for one) may be written, the write reaching the
    caller's array; an ag.Tensor is immutable; a NumPy scalar has no items to write."""
    box = SymbolicVariable(value) if isinstance(arg, Variable) else SymbolicTensor(value)
    if isinstance(arg, Variable) and not arg.trainable:  # (no tape watches it by itself)
        value.graph.__dict__.setdefault("untrainable_inputs", set()).add(value.index)
    origin = (storage.TENSOR if isinstance(arg, EagerTensor) and not isinstance(arg, Variable)
              else storage.SCALAR if isinstance(arg, np.generic) else storage.ARG)
    return mutation.attach(box, origin, name, value.index)


def _input_updates(graph, sym):
    """(input index, final value) of every array argument the trace wrote into."""
    updates = []
    for box in sym:
        s = getattr(box, "_storage", None)
        if s is not None and s.origin == storage.ARG and s.base is not graph.inputs[s.index]:
            updates.append((s.index, s.base))
    return updates
