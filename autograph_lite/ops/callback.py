"""Python callbacks as opaque graph nodes: ``py_func`` / ``py_function`` (SPEC §4).

Three op-table entries share one runner; they differ only in their flags:

- ``py_func``: stateful + side effects, never merged, dropped or reordered (stateful=True);
- ``py_func_stateless``: pure, so CSE may merge identical calls and DCE drop unused ones;
- ``py_function``: like ``py_func`` but the callback receives EagerTensors and may use ag
  ops; once-differentiable (its ``grad``: gradients/callbacks.py).

Node attrs: ``func`` (the callable; the printer shows its name), ``Tout`` (readable text),
``name`` (only when given) and ``_outs``: one ``(dtype, shape, declared)`` per output.

Output shapes. A ``TensorSpec`` declares the shape (``None`` dims: any size), checked on
every call (``ValueError``). A bare dtype declares nothing, but the graph and the Numba
kernel need a static rank, and the callback cannot be run while tracing (it may have side
effects, and call counts are part of the contract). So a bare dtype is typed as **the rank
of the callback's first input, every dimension unknown** (rank 0 without inputs) -- the
elementwise case (``np.sinh``, a piecewise loss). Every staged call (interpreter and cpu
alike) checks the rank it gets; another rank raises a ``ValueError`` that names the
callback and says to declare it, e.g. ``Tout=ag.TensorSpec([], ag.float64)`` for a
reduction. Eager calls (no graph) check dtypes only.

Compiled kernels. A call lowers to a ``with numba.objmode(...)`` block that calls
``_ag_py_callbacks[KEY](*inputs)``. ``_ag_py_callbacks`` is a global of the kernel module,
linked to this module's ``SITES`` dict when the kernel module is loaded
(``link_kernel_module``, called from concrete.py), so nothing unpicklable is baked into the
cached source. ``KEY`` is ``<function token>.<digest of the call site's types>``; the token
is the callable's qualified name plus a per-process counter that distinguishes distinct
callables with equal names (two lambdas, two closures of one ``def``), so two kernels with
equal source text always call the same Python callable, and a program that creates its
callbacks in the same order gets the same keys (and the on-disk kernel cache) in every
process. ``SITES`` holds strong references to the callables, like the kernel cache holds
kernels. The Python side of the block (``_Site.__call__``) validates the result (count,
dtype, rank, declared dims), converts Python scalars/lists, and copies a result that is
read-only (an input or a view of one) or not C-contiguous, because Numba trusts the types
the block declares (see NUMBA_NOTES §4).

Inputs are handed over as read-only views (writing raises NumPy's read-only
``ValueError``); 0-d inputs as NumPy scalars of their dtype. Exceptions raised by the
callback propagate unchanged out of compiled code (the interpreter appends the call site's
file:line to the message, as for every op).

Guarded calls (attrs ``guarded``, ``sync``: api/callbacks.py). Where the function has
written its arguments or bound into its objects before the call, the node takes that
state as its last inputs and stores it where Python has it before calling
(partial_raise.sync), and returns one more output, whether the callback returned: its
exception waits in check_errors.RAISED while the check staged after the call hands the
state back, and the call raises that very exception.
"""
import hashlib

import numpy as np

from ..errors import GENERATED
from ..ir.types import TensorType
from .. import partial_raise
from .check_errors import RAISED
from .registry import defop

SITES = {}          # key -> _Site.entry(), read by compiled kernels via _ag_py_callbacks
_TOKENS = {}        # identity of a callable -> its token
_TOKEN_COUNT = {}   # token base -> number of distinct callables seen with it
_GLOBAL = "_ag_py_callbacks"


# describing the call ------------------------------------------------------------------------
class Text(str):
    """A string attribute the graph printer shows without quotes (``Tout=[float64]``)."""

    def __repr__(self):
        return str(self)


def callback_name(func, name=None):
    if name:
        return str(name)
    n = getattr(func, "__name__", None)
    if n is None and hasattr(func, "func"):  # functools.partial
        n = getattr(func.func, "__name__", None)
    return n or type(func).__name__


def spec_text(outs, single):
    def one(dt, shape, declared):
        return str(TensorType(dt, tuple(shape))) if declared else str(dt)
    if outs is None:
        return "None"
    texts = [one(*o) for o in outs]
    return texts[0] if single else "[" + ", ".join(texts) + "]"


def out_types(outs, in_types):
    """Graph types of the outputs: declared shapes, else the first input's rank, dims unknown."""
    rank = in_types[0].ndim if in_types else 0
    return [TensorType(dt, shape if declared else (None,) * rank)
            for dt, shape, declared in outs]


def staged_outs(outs, in_types):
    """``_outs`` with each undeclared shape replaced by the rank the graph gives it."""
    return tuple((dt, t.shape, declared) for (dt, _, declared), t in
                 zip(outs, out_types(outs, in_types)))


# running the callback -----------------------------------------------------------------------
class _Site:
    """One callback call site: converts inputs, calls, validates and converts the results.

    ``in_types``: ((dtype, ndim), ...) when called from a compiled kernel, whose 0-d inputs
    arrive as Python scalars; None on the interpreter and eagerly (NumPy values arrive).
    """
    __slots__ = ("kind", "func", "name", "tout", "outs", "conv", "single", "scalar_out",
                 "guarded", "sync")

    def __init__(self, kind, func, name, tout, outs, in_types=None, guarded=False,
                 sync=None):
        self.guarded, self.sync = guarded, sync
        self.kind = kind
        self.func = func
        self.name = name
        self.tout = tout
        self.outs = outs            # ((dtype, shape | None, declared), ...)
        self.conv = None if in_types is None else tuple(
            dt.type if nd == 0 else _read_only_array for dt, nd in in_types)
        self.single = not str(tout).startswith("[") and tout != "None"
        # the fast path of the common 0-d result: exactly a NumPy scalar of the right type
        self.scalar_out = (outs[0][0].type if len(outs) == 1 and outs[0][1] == ()
                           else None)

    def __call__(self, *args):
        if self.guarded:
            return self._guarded(args)
        return self._call(args)

    def _guarded(self, args):
        """A guarded call's results and a last one, whether it returned: an exception waits
        in check_errors.RAISED while the kernel's check after the call hands the function's
        state back (api/callbacks.py), and placeholders of the declared types stand for the
        results no one reads."""
        if self.sync is not None:  # (the state of before the call, where Python has it)
            index, count = self.sync
            if count:
                partial_raise.sync(index, args[len(args) - count:])
                args = args[:len(args) - count]
        try:
            res = self._call(args)
        except Exception as e:  # noqa: BLE001 - raised by the call, after the state
            RAISED.exc = e
            res = [dt.type(0) if shape == () else
                   np.zeros(tuple(0 if d is None else d for d in shape), dt)
                   for dt, shape, _ in self.outs]
            return tuple(res) + (False,) if res else False
        listed = [] if res is None else list(res) if isinstance(res, tuple) else [res]
        return tuple(listed) + (True,) if listed else True

    def _call(self, args):
        conv = self.conv
        if conv is None:
            ins = [_read_only(a) for a in args]
        elif len(conv) == 1:
            ins = (conv[0](args[0]),)
        else:
            ins = [c(a) for c, a in zip(conv, args)]
        if self.kind == "py_func":
            res = self.func(*ins)
        else:
            from ..tensor import EagerTensor
            from ..trace.context import eager_scope
            ins = [EagerTensor(a) for a in ins]
            with eager_scope():
                res = self.func(*ins)
        if type(res) is self.scalar_out:
            return res
        return self.check(res)

    def entry(self):
        """The callable a compiled kernel calls: ``__call__`` unrolled for this site.

        Generated once per site (plain Python, never Numba): it saves ~0.5 us per call over
        the generic path, most of a callback's cost beyond the objmode switch itself.
        """
        if self.kind != "py_func" or self.conv is None or self.guarded:
            return self
        params = [f"a{i}" for i in range(len(self.conv))]
        args = ", ".join(f"_c{i}({p})" for i, p in enumerate(params))
        src = (f"def entry({', '.join(params)}):\n"
               f"    r = _f({args})\n"
               f"    if type(r) is _t:\n"
               f"        return r\n"
               f"    return _check(r)\n")
        ns = {"_f": self.func, "_t": self.scalar_out, "_check": self.check,
              **{f"_c{i}": c for i, c in enumerate(self.conv)}}
        exec(compile(src, f"{GENERATED}py_func entry for {self.name}>", "exec"), ns)
        return ns["entry"]

    def _where(self, i):
        return (f"{self.kind} callback '{self.name}' output {i} (Tout={self.tout})")

    def check(self, res):
        outs = self.outs
        n = len(outs)
        if n == 0:
            if res is None or (isinstance(res, (list, tuple)) and not res):
                return None
            raise TypeError(f"{self.kind} callback '{self.name}' returned "
                            f"{_count(res)} value(s), but Tout={self.tout} expects none "
                            f"(return None)")
        if self.single:
            if isinstance(res, (list, tuple)) and any(_is_array(r) for r in res):
                if len(res) != 1:
                    raise TypeError(f"{self.kind} callback '{self.name}' returned {len(res)} "
                                    f"values, but Tout={self.tout} expects 1")
                res = res[0]
            return self._one(0, res)
        if not isinstance(res, (list, tuple)):
            if n != 1:
                raise TypeError(f"{self.kind} callback '{self.name}' returned 1 value, but "
                                f"Tout={self.tout} expects {n}")
            res = (res,)
        elif len(res) != n:
            raise TypeError(f"{self.kind} callback '{self.name}' returned {len(res)} values, "
                            f"but Tout={self.tout} expects {n}")
        if n == 1:
            return self._one(0, res[0])
        return tuple([self._one(i, r) for i, r in enumerate(res)])

    def _one(self, i, r):
        dt, shape, declared = self.outs[i]
        t = type(r)
        if t is not np.ndarray:
            if hasattr(r, "_np"):               # an EagerTensor (py_function)
                r = r._np
            elif r is None or isinstance(r, (str, bytes)):
                raise TypeError(f"{self._where(i)} is {r!r}; expected a {dt} value")
            if not isinstance(r, (np.ndarray, np.generic)):
                natural = np.asarray(r)         # a Python scalar or list: no dtype of its own
                if natural.dtype.kind not in "biuf" or not np.can_cast(natural.dtype, dt,
                                                                       "same_kind"):
                    raise TypeError(f"{self._where(i)} is {r!r:.60}, which does not convert "
                                    f"to {dt}")
                r = natural.astype(dt)
            r = np.asarray(r)
        if r.dtype != dt:
            raise TypeError(f"{self._where(i)} has dtype {r.dtype}, expected {dt}")
        if shape is not None:
            if r.ndim != len(shape):
                hint = ("" if declared else
                        f"; a bare dtype is staged with the rank of the callback's first "
                        f"input ({len(shape)}): declare the shape with "
                        f"ag.TensorSpec({list(r.shape) if r.ndim else []}, ag.{dt}) or "
                        f"with None for sizes that vary")
                raise ValueError(f"{self._where(i)} has shape {r.shape} (rank {r.ndim}), "
                                 f"expected rank {len(shape)}{hint}")
            if declared:
                for a, b in zip(shape, r.shape):
                    if a is not None and a != b:
                        raise ValueError(f"{self._where(i)} has shape {r.shape}, expected "
                                         f"{_shape_str(shape)}")
        if r.ndim == 0:
            return dt.type(r[()])
        flags = r.flags
        if not (flags.writeable and flags.c_contiguous):
            r = np.array(r, order="C")  # an input, a view of one, or strided: own a copy
        return r


def _is_array(r):
    return isinstance(r, (np.ndarray, np.generic)) or hasattr(r, "_np")


def _count(res):
    return len(res) if isinstance(res, (list, tuple)) else 1


def _shape_str(shape):
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + \
        ("," if len(shape) == 1 else "") + ")"


def _read_only_array(a):
    v = a.view()
    v.flags.writeable = False
    return v


def _read_only(a):
    if type(a) is np.ndarray:
        if a.ndim == 0:
            return a.dtype.type(a[()])
        return _read_only_array(a)
    if isinstance(a, np.generic):
        return a
    if hasattr(a, "_np"):
        return _read_only(a._np)
    return np.asarray(a)[()]


def site_for(kind, attrs, in_types=None):
    if in_types is not None and attrs.get("sync"):  # (the state values: passed as they are)
        in_types = in_types[:len(in_types) - attrs["sync"][1]]
    return _Site(kind, attrs["func"], callback_name(attrs["func"], attrs.get("name")),
                 attrs["Tout"], attrs["_outs"], in_types, attrs.get("guarded", False),
                 attrs.get("sync"))


# op table entries ---------------------------------------------------------------------------
def _make_eager(kind):
    def eager(*args, func, Tout, _outs, name=None, guarded=False, sync=None):
        site = _Site(kind, func, callback_name(func, name), Tout, _outs, guarded=guarded,
                     sync=sync)
        return site(*args)
    eager.__name__ = f"{kind}_eager"
    return eager


def _infer(in_types, func, Tout, _outs, name=None, guarded=False, sync=None):
    """The staged shapes of ``_outs``; a guarded call's last output: whether it returned."""
    return [TensorType(dt, tuple(shape)) for dt, shape, _ in _outs] + (
        [TensorType(np.dtype(bool), ())] if guarded else [])


def func_token(func):
    """A name for ``func``, unique in this process, equal across runs of the same program."""
    ident = func
    if hasattr(func, "__self__") and hasattr(func, "__func__"):  # bound methods are re-made
        ident = (func.__func__, id(func.__self__))
    try:
        tok = _TOKENS.get(ident)
    except TypeError:
        ident = ("id", id(func))
        tok = _TOKENS.get(ident)
    if tok is None:
        base = (getattr(func, "__module__", None) or "") + "." + \
            (getattr(func, "__qualname__", None) or callback_name(func))
        base = "".join(c if c.isalnum() else "_" for c in base).strip("_")[-60:]
        k = _TOKEN_COUNT.get(base, 0)
        _TOKEN_COUNT[base] = k + 1
        tok = f"{base}_{k}"
        _TOKENS[ident] = tok
        _KEEP.append(func)  # the identity key must not be reused by another object
    return tok


_KEEP = []


def _numba_type(t):
    import numba
    base = str(numba.from_dtype(t.dtype))
    if t.ndim == 0:
        return base
    return f"{base}[{', '.join([':'] * (t.ndim - 1) + ['::1'])}]"


def _make_lower(kind):
    def lower(em, node):
        in_types = tuple((v.type.dtype, v.type.ndim) for v in node.inputs)
        site = site_for(kind, node.attrs, in_types)
        digest = hashlib.sha1(repr((kind, site.name, str(site.tout), site.outs, in_types))
                              .encode()).hexdigest()
        key = f"{func_token(site.func)}.{digest[:12]}"
        if key not in SITES:
            SITES[key] = site.entry()
        args = ", ".join(em.name(v) for v in node.inputs)
        names = [em.out(node, i) for i in range(len(node.outputs))]
        # only results used later leave the block: Numba rejects a declared, unused one
        # (a stateful callback called for its side effect alone)
        decl = [(n, _numba_type(v.type)) for n, v in zip(names, node.outputs)
                if em.uses.get(v.id)]
        call = f"{_GLOBAL}[{key!r}]({args})"
        if len(names) > 1:
            call = f"{', '.join(names)} = {call}"
        elif names:
            call = f"{names[0]} = {call}"
        em.objmode([em.name(v) for v in node.inputs], decl, [call])
        return None
    return lower


def link_kernel_module(ns):
    """Gives a loaded kernel module the callback table its objmode blocks read."""
    ns[_GLOBAL] = SITES
    import warnings
    from numba.core.errors import NumbaWarning
    # Kernels are njit(nogil=True); an objmode block merely holds the GIL while it runs.
    # (Installed on every link: test runners and catch_warnings reset filters.)
    warnings.filterwarnings("ignore", message="Code running in object mode won't allow "
                            "parallel execution", category=NumbaWarning)


# every callback op: what a kernel runs them for is the user's Python (export refuses
# them; a `try` around one is refused, io.may_raise)
CALLBACK_OPS = ("py_func", "py_func_stateless", "py_function")


def uses_callbacks(source):
    return _GLOBAL in source


defop("py_func", infer=_infer, eager=_make_eager("py_func"), lower=_make_lower("py_func"),
      layout="unknown", stateful=True, side_effects=True, differentiable=False,
      doc="ag.py_func(stateful=True): an opaque NumPy callback, run at its place on every call")
defop("py_func_stateless", infer=_infer, layout="unknown", eager=_make_eager("py_func"),
      lower=_make_lower("py_func"), differentiable=False,
      doc="ag.py_func(stateful=False): a pure NumPy callback; identical calls may merge")
defop("py_function", infer=_infer, layout="unknown", eager=_make_eager("py_function"),
      lower=_make_lower("py_function"), stateful=True, side_effects=True,
      differentiable=True,
      doc="ag.py_function: an opaque callback on EagerTensors, once-differentiable")

__all__ = ["SITES", "link_kernel_module", "uses_callbacks"]
