"""NumPy mutation on a functional Graph (SPEC §3 "Mutation", §6 "the caller's data").

The Graph stays SSA; identity lives in Python objects, as in torch's functionalization
(design note: shared/MUTATION_NOTES.md):

- A ``Storage`` is one array buffer while tracing: the Value its root holds *now*
  (``base``), a generation bumped by every write, and where the buffer came from
  (``origin``: made by the traced code, a NumPy-array argument, an ``ag.Tensor`` argument,
  a NumPy-scalar argument, or a merge of several of those that a staged branch/loop made).
- A ``SymbolicTensor`` is a *box* on a storage (tensor.py) with a *view chain* from the
  root (``y[1:]``, ``.T``, the rows of ``for row in A``): reading a box whose generation
  is stale replays its chain from the storage's current root, so unread views cost nothing.
  ``z = y`` and ``fill(a)`` share the box itself and need nothing special.
- ``write(box, key, value)`` is the one write primitive (``x[k] = v``, ``x += v``,
  ``np.copyto``, ``out=``): a functional ``setitem`` on the view's value, then the chain
  inverted back to the root (a view step ``getitem(spec)`` inverts to ``setitem(spec)``, a
  transpose to the inverse transpose); the root gets the new Value and every alias sees it.
- Regions: ``scope()`` logs the storages written while a branch, loop body or scratch
  trace runs (with their state before), so control.py carries written storages as loop
  state / extra cond outputs, and scratch traces restore what they changed.
- Arguments: a NumPy-array argument's storage whose root changed is a *mutated input*;
  function.py records ``graph.input_updates`` and the backends write the final value
  into the caller's array (in place where nothing reads the old value).

Merges (below): a staged branch or loop result that may be one of several buffers at run
time (``v = a if c else a * 2``) keeps a staged flag per buffer, so writes through any name
reach the others on exactly the runs where NumPy's would (region_aliases.py builds them).

What is refused (a wrong answer is the worst bug): writing into an ``ag.Tensor`` argument
(immutable, as in TensorFlow), a NumPy scalar, a captured array (checked in
autograph/runtime/data.py), through a view that cannot be inverted (reshape, squeeze), and
into a merge that may be a view this module cannot replay after the region (a view at an
index computed inside the branch; a loop variable that is a different view of one array in
different iterations).
"""
import sys
import threading

import numpy as np

from .contiguity import box_is_c
from .errors import numpy_error, user_location
from .ir.graph import Graph, root_graph
from .ir.types import TensorType, relax
from .ops import check_errors, dispatch
from .ops.dispatch import apply, stage_node
from .ops.indexing import setitem
from .ops.registry import lookup
from .storage import (ARG, FROZEN, MADE, SCALAR, TENSOR, Storage, generations,
                      step_output, storage_of)
from .tensor import SymbolicTensor, serials  # (one counter for boxes and storages)
from .trace.context import current_graph, graph_scope

# -- logs of writes, per thread -------------------------------------------------------------
class _Logs(threading.local):
    stack = None
    shield = None


_logs = _Logs()


class Log:
    """Storages written inside a scope: {storage: (base, gen) before the first write}."""

    def __init__(self, start=None, loop=False):
        self.before = {}
        # storages with a smaller serial existed before the scope (or a given mark)
        self.start = next(serials) if start is None else start
        self.loop = loop  # a staged loop's body: it runs again after what it wrote

    def pre_existing(self):
        return sorted((s for s in self.before if s.serial < self.start),
                      key=lambda s: s.serial)

    def restore(self):
        """Undoes the scope's writes into arrays that existed before it (scratch traces,
        the other branch); arrays made inside keep their state (a branch's results)."""
        for s, (base, gen, writes) in self.before.items():
            if s.serial >= self.start:
                continue
            s.base = base
            s.writes = writes  # (a hazard, below, was not written after all)
            s.gen = next(generations)  # boxes read since the write refresh again


def mark():
    """A serial: storages made from now on compare greater."""
    return next(serials)


class scope:
    """``with scope() as log:`` records the storages written inside (nested scopes see
    their own writes; an enclosing scope sees them too). ``start``: a mark() taken
    earlier, when storages made since then count as the scope's own too."""

    def __init__(self, start=None, loop=False):
        self.start, self.loop = start, loop

    def __enter__(self):
        if _logs.stack is None:
            _logs.stack = []
        self.log = Log(self.start, self.loop)
        _logs.stack.append(self.log)
        return self.log

    def __exit__(self, exc_type, *exc):
        _logs.stack.remove(self.log)
        if exc_type is not None:  # a trace that failed (or was abandoned) leaves no writes
            self.log.restore()
        return False


class shielded:
    """``with shielded(storages):`` while a staged loop traces its regions, its carried
    storages hold region placeholders: scopes opened before (enclosing branches and
    loops) must not record them; the loop records its real write when it is staged."""

    def __init__(self, storages):
        self.storages = list(storages)

    def __enter__(self):
        if _logs.shield is None:
            _logs.shield = {}
        depth = len(_logs.stack or ())
        self.saved = [(st, _logs.shield.get(st)) for st in self.storages]
        for st in self.storages:
            _logs.shield[st] = depth

    def __exit__(self, *exc):
        for st, old in self.saved:
            if old is None:
                _logs.shield.pop(st, None)
            else:
                _logs.shield[st] = old
        return False


def _record(storage):
    below = (_logs.shield or {}).get(storage, 0)
    for log in (_logs.stack or ())[below:]:
        log.before.setdefault(storage, (storage.base, storage.gen, storage.writes))


def set_base(storage, value):
    """Gives ``storage`` a new root value (a write, or a region's carried result)."""
    _record(storage)
    storage.base = value
    storage.gen = next(generations)
    storage.writes += 1
    _note_version(storage, value)


def rebase(storage, value):
    """Sets a storage's root without logging it as a write (a region's own view of a
    carried storage, or putting it back after a trace)."""
    storage.base = value
    storage.gen = next(generations)
    _note_version(storage, value)


def _note_version(storage, value):
    """Records that ``value`` is, wherever it is computed, what a written argument's array
    holds at that point of the program (``Graph.input_versions``): a run that raises
    part-way leaves the caller's array as the plain run would (the interpreter's
    ``run_function``), though the final value of ``input_updates`` was never reached."""
    if storage.origin == ARG and value.graph is not None:
        root = root_graph(value.graph)
        root.input_versions[value.id] = storage.index
        root.written_inputs[storage.index] = storage  # (partial_raise.py reads them)


def held_by_copy(box, where):
    """``box`` (an array) is copied into a staged list's row buffer (an append in a staged
    loop or branch, a list carried into one, ``out + [v]`` after it), where Python's list
    holds the array object itself, so that a later write into it (or into the array it
    is a view of) reaches the list, and so does a write a staged loop's body made into it
    before appending it (the next trip's write changes the rows appended before). Those
    writes are refused, not lost: the body's so far here, later ones by a refusal on its
    storage. (``where``: the list, for the message.)"""
    if not (isinstance(box, SymbolicTensor) and box.ndim):
        return
    s = storage_of(box)
    advice = (f"append a copy (`.append(v.copy())`), or a new array made in the loop, so "
              f"that the list's rows are arrays of their own")
    if any(log.loop and s.serial < log.start and s in log.before
           for log in (_logs.stack or ())):
        raise NotImplementedError(
            f"{where} appends an array that the staged loop's body also writes into (or a "
            f"view of one): Python's list holds that one array, which the next trip's write "
            f"changes in every row appended before, but the staged list holds copies; "
            f"{advice}")
    if s.refusal is None and s.origin != FROZEN:
        s.refusal = NotImplementedError(
            f"a write into an array that {where} appended (or an array it is a view of): "
            f"Python's list holds that array itself and would see the write, but the staged "
            f"list holds a copy made when it was appended; {advice}, or write before "
            f"appending")


def describe(storages):
    return _names(storages)


# -- boxes ---------------------------------------------------------------------------------
def attach(box, origin, name=None, index=None, **storage):
    """Makes ``box`` the root of a new storage of the given origin (arguments, arrays of
    trace time); ``storage``: Storage's other fields (``serial``, ``sources``)."""
    box._storage = Storage(box._v, origin, name, index, **storage)
    box._chain = ()
    box._gen = 0
    return box


def refresh(box):
    """The box's current Value: its chain replayed from the storage's root when stale.
    A value replayed inside a staged region is not readable once the region is exited,
    so it is cached only while the current graph can read it."""
    s = box._storage
    gen = gen_of(s)
    if box._gen == gen and _visible(box._v):
        return box._v
    if not _visible(s.base) or not readable_from(box._chain, _current_graph()):
        return box._v  # a box of an exited region (a scratch trace): read for its type
    v = _chain_values(box._chain, root(s))[-1]
    box._v = v
    box._gen = gen
    return v


def _current_graph():
    return current_graph()


def _visible(value):
    """Whether ``value`` belongs to the graph being traced or one enclosing it."""
    g = _current_graph()
    return g is None or g.can_see(value)


def link_view(parent, results, node):
    """Links the outputs of view op ``node`` on box ``parent`` to the parent's buffer, as
    NumPy shares it: a basic index, transpose, squeeze, expand_dims and split always view
    it; a reshape (ravel) views a C-contiguous array, and of any other array may be a view
    or a copy (NumPy decides by its strides), so it is an ``uncertain`` view."""
    spec = node.attrs["spec"] if node.op == "getitem" else ()
    if node.op == "getitem" and (any(s[0] in ("gather", "mask") for s in spec) or (
            results[0].ndim == 0 and ("ellipsis",) not in spec)):
        return  # a copy: advanced indexing, or indexing down to a scalar (`x[1]`, `a[()]`;
        # with an Ellipsis, `a[...]`, `x[1, ...]`, NumPy's is a 0-d view)
    if node.op == "reshape" and not box_is_c(parent) and not _only_unit_dims_change(
            parent.shape, results[0].shape):
        for r in results:
            uncertain_view(parent, r, node)
        return
    for k, r in enumerate(results):
        make_view(parent, r, node, k if node.opdef.multi_output else None)


def _only_unit_dims_change(before, after):
    """Whether a reshape from ``before`` to ``after`` (None: a size known at run time) only
    adds or drops sizes of 1 (`x[::2].reshape(-1)` of a vector, `.reshape(-1, 1)`): NumPy's
    is then a view whatever the strides (session 53's probe: refused as uncertain)."""
    kept = [[d for d in shape if d != 1] for shape in (before, after)]
    return len(kept[0]) <= 1 and len(kept[1]) <= 1 or (kept[0] == kept[1]
                                                       and None not in kept[0])


def make_view(parent, result, node, output=None):
    """Links ``result`` (the output of view ``node`` on ``parent``; its ``output``-th of
    several) to the parent's storage, so later writes through either are seen by both."""
    s = storage_of(parent)
    attrs = dict(node.attrs) if output is None else dict(node.attrs, _output=output)
    result._storage = s
    result._chain = parent._chain + ((node.op, attrs, tuple(node.inputs[1:])),)
    result._gen = s.gen
    return result


def read_only_view(parent, result):
    """``result``, made by a ``read_only`` op on box ``parent`` (np.broadcast_to), as
    NumPy's read-only view of it: a later write into ``parent`` is seen through it (the
    step is replayed), a write through it raises (``check_writable``)."""
    return make_view(parent, result, result._value.node)


def uncertain_view(parent, result, node):
    """``result`` of ``node`` may or may not share ``parent``'s buffer at run time: its
    own storage, refusing a write into it and a read of it once any buffer ``parent`` may
    be was written (``hazards``), with the reason."""
    s = storage_of(parent)
    hazards, todo = [], [s]
    while todo:
        st = todo.pop()
        if st not in hazards:
            hazards.append(st)
            todo += [o.storage for o in st.options]
    refusal = NotImplementedError(
        f"'{node.op}' of an array that is not known to be C-contiguous (a transpose, a "
        f"strided slice, an argument passed non-contiguous, a result of control flow or "
        f"a callback) is a view or a copy depending on its strides in NumPy, so writing "
        f"into the result, or reading it after the array was written, is not supported "
        f"({node.loc or 'here'}); take a .copy() of the result, or reshape a contiguous "
        f"array")
    return merged(result, (), refusal=refusal, hazards=hazards)


def _sym(value):
    return SymbolicTensor(value)


def _replay(step, value):
    op, attrs, extra = step
    attrs, k = step_output(attrs)
    out = apply(op, _sym(value), *map(_sym, extra), **attrs)
    return (out if k is None else out[k])._v


def _invert(step, parent, child):
    """The parent's new value after its view ``step`` became ``child``."""
    op, attrs, extra = step
    if op == "getitem":
        return apply("setitem", _sym(parent), _sym(child), *map(_sym, extra),
                      **attrs)._v
    if op == "transpose":
        axes = attrs.get("axes")
        n = child.type.ndim
        axes = tuple(range(n))[::-1] if axes is None else tuple(a % n for a in axes)
        inverse = tuple(int(k) for k in np.argsort(axes))
        return apply("transpose", _sym(child), axes=inverse)._v
    if op in ("real", "imag"):  # the other part kept
        re = _sym(child) if op == "real" else apply("real", _sym(parent))
        im = _sym(child) if op == "imag" else apply("imag", _sym(parent))
        return _cast(apply("make_complex", re, im)._v, parent.type.dtype)
    if op in ("reshape", "squeeze", "expand_dims"):  # (a reshape here views a C array)
        return apply("reshape_as", _sym(child), _sym(parent))._v
    if op == "split":  # the parent's parts again, this one replaced
        attrs, k = step_output(attrs)
        parts = list(apply(op, _sym(parent), **attrs))
        parts[k] = _sym(child)
        return apply("concat", *parts, axis=attrs.get("axis", 0))._v
    raise NotImplementedError(f"writing through the result of '{op}' is not supported; "
                              f"index the original array instead, or write into a .copy()")


# -- the write primitive -------------------------------------------------------------------
def is_argument(box):
    """Whether ``box`` is (or, a merge, may be) a NumPy-array argument's buffer itself, not
    a view of it: for a 0-d box, whether ``x += 1`` writes (a 0-d array) or rebinds (a
    number, a NumPy scalar)."""
    return box._storage is not None and not box._chain and _may_be_argument(box._storage)


def _may_be_argument(s):
    return s.origin == ARG or any(not o.chain and _may_be_argument(o.storage)
                                  for o in s.options)


def check_writable(box, what=None):
    """Raises the SPEC's error when ``box`` may not be written."""
    if any(lookup(step[0]).read_only for step in box._chain):
        # (NumPy's, raised by the runs that reach the write: `d = np.diagonal(A)` then `if
        # A[0, 0] > t: d[0] = 1.0` raised on every call before session 54)
        raise numpy_error(ValueError("assignment destination is read-only"))
    s = storage_of(box)
    if s.rows_copied is not None and len(box._chain) > s.rows_copied:
        raise NotImplementedError(
            "a write through an item of a list that a staged loop or branch built (`rows[0]"
            "[1] = v`, or into a row taken from it): its items are copies of the arrays "
            "appended (the rows of one array), where Python's list holds those arrays, which "
            "the write would change; write into the arrays themselves, or into "
            "`np.array(rows)`")
    _check_storage(s, what)


def refuse_writes(box, refusal):
    """A write into ``box`` or a view of it raises ``refusal`` (a captured array's constant
    read through a view, trace_arrays.getitem)."""
    storage_of(box).refusal = refusal


def rows_are_copies(box):
    """``box`` is a staged list (list_values.ListTensor): writes through its items are
    refused (check_writable): a box of a longer view chain than the list's own;
    replacing an item (``rows[0] = v``) is a write into the list itself."""
    storage_of(box).rows_copied = len(box._chain)


def _check_storage(s, what=None):
    name = what or s.name or "the array"
    if s.origin == TENSOR:
        raise TypeError(
            f"'{name}' is an ag.Tensor argument, which is immutable (as in TensorFlow): it "
            f"cannot be written into. Pass a NumPy array to have it written in place, or "
            f"write into a copy ({name} = {name}.copy())")
    if s.origin == SCALAR:
        raise TypeError(f"'{name}' is a NumPy scalar argument, which does not support item "
                        f"assignment (as in NumPy); pass a 0-d array to have it written")
    if s.origin == FROZEN:
        raise s.sources[0]
    if s.refusal is not None:
        raise s.refusal
    for option in s.options:  # (a write may reach any of them)
        _check_storage(option.storage, what or option.storage.name)


def _names(storages):
    return ", ".join(sorted({f"'{s.name}'" if s.name else "an array" for s in storages}))


def write(box, key, value):
    """``box[key] = value`` with NumPy semantics: the root of the box's storage gets the
    updated value, so every alias and view sees it. Returns ``box``."""
    check_writable(box)
    s = storage_of(box)
    if not box._chain and not s.options:
        set_base(s, _set(box._value, key, value))
        return box
    _check_options_int(box, value)
    values = _chain_values(box._chain, root(s))
    assign_root(s, _invert_values(box._chain, values, _set(values[-1], key, value)))
    return box


def _set(target, key, value):
    """The functional update of Value ``target``; a whole-array write of a fresh value of
    the same type is the value itself (no copy)."""
    if (key is Ellipsis and isinstance(value, SymbolicTensor) and value._storage is None
            and value.dtype == target.type.dtype and None not in target.type.shape
            and tuple(value.shape) == tuple(target.type.shape)):
        return value._v
    return setitem(_sym(target), key, value)._v


def augmented(box, op, other):
    """``box op= other`` (``x += y``): NumPy's in-place ufunc on arrays (same_kind
    casting, the target keeps its shape), a new value for scalars (0-d tensors that are
    not array arguments: NumPy scalars rebind)."""
    result = apply(op, box, other)
    if box.ndim == 0 and not is_argument(box) and not may_view(box):
        return result  # (a view, `np.squeeze(x)`, `x[0, ...]`, or a merge of one: written)
    cast_error = ufunc_cast_error(lookup(op).eager, op)
    _check_options_cast(box, lookup(op).eager, other, cast_error)
    return store(box, result, cast_error)


def may_view(box):
    """Whether the 0-d ``box`` is, or may be, a view of an array (NumPy's 0-d view:
    `x[0, ...]`, `a[...]`, `np.squeeze(x)`), written through and reading the array's writes;
    a merge in a staged branch or loop may be one (an option of its storage is). Else a
    0-d box that is no argument stands for a number."""
    return bool(box._chain) or (box._storage is not None and _may_be_view(box._storage))


def _may_be_view(s):
    return any(o.chain or _may_be_view(o.storage) for o in s.options)


def ufunc_cast_error(ufunc, name, casting="same_kind"):
    """``cast_error`` for `store` when a ufunc writes its result into an array (`x += y`,
    ``out=``): NumPy's own exception (a UFuncTypeError), raised by NumPy on one-element
    arrays of the two dtypes, so that its type and text are NumPy's."""
    def make(a, b):
        if isinstance(ufunc, np.ufunc) and ufunc.nout == 1:
            try:
                with np.errstate(all="ignore"):
                    ufunc(*[np.zeros(1, a)] * ufunc.nin, out=np.zeros(1, b), casting=casting)
            except TypeError as e:
                if "Cannot cast ufunc" in str(e):
                    return e
        return TypeError(f"Cannot cast ufunc '{name}' output from dtype('{a}') to "
                         f"dtype('{b}') with casting rule '{casting}'")
    return make


def store(box, value, cast_error, casting="same_kind"):
    """Writes ``value`` into the whole of ``box`` as NumPy writes a result into an existing
    array (``x op= y``, ``out=``, ``np.copyto``): ``casting`` checked (``cast_error(from,
    to)``: the exception to raise, or a TypeError's text), ``value`` broadcast to the box's
    shape. Returns ``box``."""
    check_writable(box)
    if not np.can_cast(value.dtype, box.dtype, casting):
        error = cast_error(value.dtype, box.dtype)  # (NumPy's own: raised where reached)
        raise numpy_error(error if isinstance(error, BaseException) else TypeError(error))
    if len(value.shape) > len(box.shape) or any(
            a is not None and b is not None and a != b and a != 1
            for a, b in zip(reversed(value.shape), reversed(box.shape))):
        raise numpy_error(ValueError(f"non-broadcastable output operand with shape "
                                     f"{box.shape} doesn't match the broadcast shape "
                                     f"{value.shape}"))
    if value.dtype != box.dtype:
        value = apply("cast", value, dtype=box.dtype)
    return write(box, Ellipsis, value)


def _check_options_cast(box, ufunc, other, cast_error):
    """NumPy's same_kind check of ``box op= other`` into each array of another dtype that
    ``box`` (a merge, `v = a if c else b` of a float64 ``a`` and an int32 ``b``) may be,
    computed as NumPy computes it there (in that array's dtype: uint8 `+= 3` stays uint8),
    raised on the runs where it is that array (session 55's probe: `v += 0.5` wrote into
    the int32 array where NumPy raises)."""
    s = box._storage
    if s is None or box._chain or not isinstance(ufunc, np.ufunc) or ufunc.nin != 2:
        return
    if isinstance(other, SymbolicTensor):
        operand = (np.zeros((), other.dtype)[()] if other.type.weak is False else
                   other.dtype.type(0).item())
    elif isinstance(other, np.ndarray):
        operand = np.zeros(1, other.dtype)
    else:
        operand = other
    for o in s.options:
        dtype = o.storage.base.type.dtype
        if dtype == box.dtype:
            continue
        try:
            with np.errstate(all="ignore"):
                got = np.result_type(ufunc(np.zeros(1, dtype), operand))
        except Exception as e:  # noqa: BLE001 - NumPy's own (`u8 -= 300`: OverflowError)
            _raise_on_runs(o.flag, e)
            continue
        if not np.can_cast(got, dtype, "same_kind"):
            error = cast_error(got, dtype)
            _raise_on_runs(o.flag, error if isinstance(error, BaseException)
                           else TypeError(error))


def _check_options_int(box, value):
    """NumPy's OverflowError for a Python int written through ``box`` (a merge of arrays of
    two dtypes, `v[0] = 300` where `v` may be a uint8 array) on the runs where it is an
    array that cannot hold it (the merge's int32 can: session 55's probe, it wrapped)."""
    s = box._storage
    if s is None or type(value) is not int:
        return
    for o in s.options:
        dtype = o.storage.base.type.dtype
        if dtype.kind in "iu" and dtype != box.dtype and not (
                np.iinfo(dtype).min <= value <= np.iinfo(dtype).max):
            _raise_on_runs(o.flag, OverflowError(
                f"Python integer {value} out of bounds for {dtype}"))


def _raise_on_runs(flag, error):
    """``error`` (NumPy's) raised on the runs where the staged bool ``flag`` holds (None:
    on every run that reaches here)."""
    if flag is None:
        raise numpy_error(error)
    name = check_errors.stand_in(error) or "TypeError"
    # (as api.check stages it: NumPy's own class raised as a copy of ``error`` itself)
    extra = {"original": error} if type(error).__name__ != name else {}
    apply("assert", apply("logical_not", _sym(flag)), message=str(error), error=name,
          **extra)


# -- merges: a staged branch or loop result that may be one of several buffers -------------
# ``v = a if c else a * 2`` with a tensor ``c``: after the branch, ``v`` is ``a``'s buffer on
# some runs and a new one on others, and NumPy's writes through either name reach the
# other only on those runs. The result's storage keeps the cond's output as its base (its
# value on every run, until something is written) and an Option per buffer it may be:
# another storage's root viewed through a chain, and a staged bool (a cond/loop output)
# that says whether it is that buffer on this run. Reading it after one of those buffers
# was written selects (a small staged cond per option); writing it writes its base and,
# where each flag holds, the option's buffer. Results of one region that share a buffer
# the region made get a hidden output for that buffer's root, as an option of each.
class Option:
    """One buffer a merged storage may be at run time: ``storage``'s root viewed through
    ``chain`` when the staged bool ``flag`` (a Value; None: on every run) holds."""
    __slots__ = ("storage", "chain", "flag")

    def __init__(self, storage, chain, flag):
        self.storage, self.chain, self.flag = storage, chain, flag


def gen_of(s):
    """A token that changes whenever the storage's value may have (its options' too)."""
    if not s.options and not s.hazards:
        return s.gen
    return (s.gen,) + tuple(gen_of(o.storage) for o in s.options) + tuple(
        h.gen for h, _ in s.hazards)


def root(s):
    """The storage's root Value now: its base, or, when an option's buffer was written
    since they last agreed, that buffer's value on the runs where its flag holds."""
    if any(h.writes != n for h, n in s.hazards):
        raise s.refusal
    if not s.options or s.synced == gen_of(s) or not all(
            o.flag is None or _visible(o.flag) for o in s.options):
        return s.base  # (a merge of an exited region: read for its type)
    dtype = s.base.type.dtype
    v = s.base
    for o in reversed(s.options):
        v = _select(o.flag, lambda o=o: _cast(
            _chain_values(o.chain, root(o.storage))[-1], dtype), v)
    return v


def assign_root(s, new):
    """Gives ``s`` the root Value ``new`` (a write through it), and every option's buffer
    the same write on the runs where its flag holds."""
    set_base(s, new)
    lossless = True
    for o in s.options:
        old = root(o.storage)
        lossless &= _chain_values(o.chain, old)[-1].type.dtype == new.type.dtype
        assign_root(o.storage, _select(
            o.flag, lambda o=o, old=old: _invert_chain(o.chain, old, new), old))
    if s.options and lossless:
        # (a buffer of another dtype holds the write cast, `v[0] = 1.7` into an int32 one:
        # read back from it, not from the base, which holds the uncast value; session 55)
        s.synced = gen_of(s)


def in_sync(s):
    """Whether ``s``'s base is what every option's buffer holds where its flag holds (a
    read of ``s`` is then its base: no select)."""
    return not s.options or s.synced == gen_of(s)


def mark_synced(storages):
    """Records that each storage's base agrees with its options again (a staged loop's
    carried storages, rebased to region placeholders that hold what agreed before:
    control._staged_while), once every one of them holds its new base."""
    for s in storages:
        if s.options:
            s.synced = gen_of(s)


def _chain_values(chain, base):
    """``[base, base's first view, ..., the view through all of chain]``."""
    values = [base]
    for step in chain:
        values.append(_replay(step, values[-1]))
    return values


def _invert_values(chain, values, child):
    """The root after the view at the end of ``values`` (``_chain_values``) became
    ``child``: each view step inverted back to the root."""
    for step, parent in zip(reversed(chain), reversed(values[:-1])):
        child = _invert(step, parent, child)
    return child


def _invert_chain(chain, base, child):
    """``base`` after its view through ``chain`` became ``child`` (cast to its dtype)."""
    values = _chain_values(chain, base)
    return _invert_values(chain, values, _cast(child, values[-1].type.dtype))


def _cast(v, dtype):
    return v if v.type.dtype == dtype else apply("cast", _sym(v), dtype=dtype)._v


def _select(flag, thunk, other):
    """``thunk() if flag else other`` as a staged cond (thunk traced in its region, so it
    runs only where the flag holds); ``thunk()`` when flag is None."""
    if flag is None:
        return thunk()
    outer = current_graph()
    yes, no = Graph("select_true", outer), Graph("select_false", outer)
    with graph_scope(yes):
        v = thunk()
    yes.outputs.append(v)
    no.outputs.append(other)
    t = TensorType(other.type.dtype, relax(v.type.shape, other.type.shape), other.type.weak)
    return stage_node("cond", [flag], {}, [t], regions=[yes, no])[0]._v


def _and(a, b):
    if a is None or b is None:
        return b if a is None else a
    return apply("logical_and", _sym(a), _sym(b))._v


def _or(a, b):
    if a is None or b is None:
        return None
    return apply("logical_or", _sym(a), _sym(b))._v


def options_of(box, start):
    """The buffers ``box`` (a region's result, at the region's end) may be at run time, as
    (storage, chain, flag) in the order they match: storages older than serial ``start``
    as they are, the region's own ones with their options spelled out, then themselves."""
    out = []
    if getattr(box, "_storage", None) is not None:
        _expand(box._storage, box._chain, None, start, out)
    # one buffer reached two ways (a branch's `v = t0` inside a loop whose `v` may already
    # be t0): one option, on the runs either way holds
    merged, at = [], {}
    for st, chain, flag in out:
        key = (st, chain_key(chain))
        if key in at:
            i = at[key]
            merged[i] = (st, chain, _or(merged[i][2], flag))
        else:
            at[key] = len(merged)
            merged.append((st, chain, flag))
    return merged


def _expand(st, chain, flag, start, out):
    if st.serial >= start:
        for o in st.options:
            _expand(o.storage, o.chain + chain, _and(o.flag, flag), start, out)
    out.append((st, chain, flag))


def chain_key(chain):
    """Equal for chains that view a buffer the same way."""
    return tuple((op, repr(sorted(attrs.items())), tuple(id(x) for x in extra))
                 for op, attrs, extra in chain)


def readable_from(chain, graph):
    """Whether every Value ``chain`` indexes with belongs to ``graph`` or an enclosing one."""
    return all(graph is not None and graph.can_see(x) for _, _, extra in chain for x in extra)


def merged(box, options, name=None, refusal=None, hazards=()):
    """Makes ``box`` (a staged branch/loop result) the root of a storage that may be any of
    ``options`` [(storage, chain, flag Value)] at run time. ``refusal``: the exception a
    write into it raises; ``hazards``: storages it may also view in a way not modelled,
    whose writes make reading it raise ``refusal`` too."""
    attach(box, MADE, name)
    s = box._storage
    s.options = tuple(Option(st, chain, flag) for st, chain, flag in options)
    s.refusal = refusal
    s.hazards = tuple((h, h.writes) for h in hazards)
    s.synced = gen_of(s)
    return box


# -- NumPy arrays of trace time that became boxes ---------------------------------------------
# ``v = np.zeros(5)`` made while tracing is a plain NumPy array: reads of it are folded at
# trace time. When a staged branch or loop writes into it (``v[i] = t``, ``v *= 2``, a
# helper's ``fill(v)``), it becomes a box (autograph/runtime/trace_arrays.py, ``lift``): a
# storage made by the function, older than every region (its writes are carried out of
# them). The NumPy object keeps standing for that box for the rest of the trace, so every
# later read of it through the runtime (op inputs, calls, subscripts, results) sees the
# writes: ``lifted`` looks it up.
def _registry(graph):
    return root_graph(graph).__dict__.setdefault("_lifted", {})


class _Entry:
    """What the trace knows about one NumPy array of trace time: the box it became, the
    array it is a branch's copy of, or the array and key it is a view of (the arrays are
    kept so that their ids are not reused while the trace runs)."""
    __slots__ = ("array", "box", "original", "view", "handed")

    def __init__(self, array, box=None, original=None, view=None):
        self.array, self.box, self.original, self.view = array, box, original, view
        self.handed = None  # ([(holder, key, old item)] where the box replaced the array)


def note_handed(array, graph, handed):
    """Records where the user's containers now hold the box ``array`` became
    (autograph/runtime/data.py ``_hand_over``), for forget_lifts to undo (a new entry, so
    that a probe that handed an array over undoes it)."""
    registry = _registry(graph)
    old = registry[id(array)]
    entry = registry[id(array)] = _Entry(old.array, old.box, old.original, old.view)
    entry.handed = tuple(handed)


def hold(array, box, graph):
    """Records that a NumPy array a user's object among the arguments holds is the input
    ``box`` in ``graph``'s trace (held_state.py): its reads and writes are the box's."""
    entry = _registry(graph)[id(array)] = _Entry(array, box=box)
    entry.handed = ()  # (the object keeps the array: the caller's, written back)


def not_handed(graph):
    """The entries of arrays that became boxes and were not handed over (inside a staged
    region: runtime/data.py ``hand_over_lifted``)."""
    return [e for e in _registry(graph).values() if e.box is not None and e.handed is None]


def lifted_arrays(graph):
    """What ``graph``'s trace knows of its arrays of trace time now (for forget_lifts)."""
    return dict(_registry(graph)) if graph is not None else None


def lifts(graph):
    """The ids of the arrays of trace time that ``graph``'s trace has made boxes so far."""
    return {k for k, e in _registry(graph).items() if e.box is not None}


def forget_lifts(graph, known):
    """Forgets what ``graph``'s trace learnt of its arrays since ``lifted_arrays`` gave
    ``known`` (a probe whose nodes were dropped)."""
    if graph is not None:
        registry = _registry(graph)
        for key, entry in registry.items():
            if known.get(key) is not entry:  # (a box the probe made: the array back)
                for holder, k, old in entry.handed or ():
                    held = holder.get(k) if isinstance(holder, dict) else (
                        holder[k] if k < len(holder) else None)
                    if held is entry.box or (type(held) is tuple and type(old) is tuple):
                        holder[k] = old
        registry.clear()
        registry.update(known)


def lifted(array, graph):
    """The box a NumPy array of trace time (a branch's copy of it, or a view of it that
    the converted code took) became in ``graph``'s trace, or None. A view's box is made
    afresh in the current graph (it follows the array's storage)."""
    entry = _registry(graph).get(id(array))
    if entry is None:
        return _untracked_view(array, graph)
    if entry.box is not None:
        return entry.box
    if entry.original is not None:
        return lifted(entry.original, graph)
    if entry.view is not None:
        base = lifted(entry.view[0], graph)
        return None if base is None else base[entry.view[1]]
    return None


def same_buffer(a, b):
    """Whether NumPy arrays ``a`` and ``b`` are all of one buffer, both in C order."""
    return (a.flags.c_contiguous and b.flags.c_contiguous and a.dtype == b.dtype
            and a.nbytes == b.nbytes
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _untracked_view(array, graph):
    """A NumPy array of trace time that shares memory with one that became a box, though
    not taken by the converted code's indexing (``m = t.reshape(2, 3)``, ``np.ravel(t)``),
    holds the values from before the box's writes. When it is the whole buffer of a
    C-contiguous one, C-contiguous itself, it is that box reshaped (a view: writes through
    either reach both); any other is refused (reading it would be a silent wrong answer).
    None: it shares memory with no such array."""
    for entry in list(_registry(graph).values()):
        if entry.array is array or not np.may_share_memory(array, entry.array):
            continue
        # the box the array became, or the one a branch's copy of it stands for
        box = entry.box if entry.original is None else lifted(entry.original, graph)
        if box is not None:
            if same_buffer(array, entry.array):
                return apply("reshape", box, shape=tuple(array.shape))
            raise NotImplementedError(
                f"a NumPy array made while tracing, read at {user_location() or 'here'}, "
                f"shares memory with one that was written with tensors (a reshape, ravel or "
                f"other view of it), so it would hold the values from before those writes; "
                f"index the written array itself, or make the view from it after the last "
                f"write")


def original(array, graph):
    """The array of trace time that ``array`` is a branch's copy of (``copy_of``), or
    ``array`` itself."""
    entry = _registry(graph).get(id(array))
    return entry.original if entry is not None and entry.original is not None else array


def view_of(array, graph):
    """(base, key) when ``array`` is a view the converted code took (``record_view``)."""
    entry = _registry(graph).get(id(array))
    return entry.view if entry is not None else None


def copy_of(array, graph):
    """A copy of ``array`` for one staged branch's (or scratch trace's) Python state, that
    stands for ``array``: lifting it lifts ``array`` (runtime/trial.py copies arrays so
    that a write one trace does in place at trace time cannot leak into another)."""
    c = array.copy()
    _registry(graph)[id(c)] = _Entry(c, original=original(array, graph))
    return c


def record_view(view, base, key, graph):
    """``view`` is ``base[key]``: when ``base`` becomes a box, the view stands for that
    box's ``[key]`` (a write through it in staged code reaches ``base``)."""
    _registry(graph)[id(view)] = _Entry(view, view=(original(base, graph), key))


def frozen(box, error):
    """Makes ``box`` (a tensor of a NumPy array's value) the root of a storage that refuses
    writes with ``error`` (an exception instance); as old as the array, which existed
    before every region (a branch result that may be it is a merge with it as an option)."""
    return attach(box, FROZEN, sources=(error,), serial=-1)


def register_lifted(array, box, graph, name=None):
    """Records that ``array`` is ``box`` from now on in ``graph``'s trace: a storage made by
    the function, as old as the array (``_birth``)."""
    attach(box, MADE, name, serial=_birth(array, graph))
    _registry(graph)[id(array)] = _Entry(array, box=box)
    return box


# A NumPy array of trace time is lifted when it is first written with a tensor, which may
# be long after it was made. Its storage must count as old as the *array*: one that
# existed before a staged loop (``t = np.zeros(4)``, then ``t[i] = x`` in the body) has
# its writes carried out of the loop; one the body makes (``r = np.ones(4); r += x`` in
# the body) is new in every iteration and every retrace, so carrying it would read the
# last iteration's writes and never settle (random program 10219). Python cannot say when
# an object was made, so a loop records the arrays its body can reach when it begins
# (autograph/runtime/data.py ``reachable_arrays``: the converted code's locals); an array
# lifted later that was not among them was made inside.
def _loop_entries(graph):
    """[(start, reachable arrays)] of the staged loops being traced, outermost first."""
    return root_graph(graph).__dict__.setdefault("_loop_entries", [])


class loop_entry:
    """``with loop_entry(start, graph):`` around tracing a staged loop whose storages
    made from serial ``start`` on are its own."""

    def __init__(self, start, graph):
        self.entries = _loop_entries(graph)
        # only converted code lifts arrays, and it has imported the runtime
        data = sys.modules.get("autograph_lite.autograph.runtime.data")
        self.entry = (start, data.reachable_arrays(graph) if data is not None else None)

    def __enter__(self):
        self.entries.append(self.entry)

    def __exit__(self, *exc):
        self.entries.pop()


def loop_reachable(graph):
    """The arrays the innermost staged loop being traced could reach when it began
    ({id: array}; None when unknown)."""
    entries = _loop_entries(graph)
    return entries[-1][1] if entries else None


def _birth(array, graph):
    """The serial of a lifted array's storage: the start of the innermost loop being
    traced that could not reach it when it began (made inside it), else -1 (older than
    every region)."""
    for start, alive in reversed(_loop_entries(graph)):
        if alive is not None and id(array) not in alive:
            return start
    return -1


# A box reads its current Value through this module, which made its storage (tensor.py);
# the dispatcher asks it for the box a NumPy array of trace time became, and has it link
# a view op's results to their parent's buffer (ops/dispatch.py: NumPy's aliasing is this
# layer's business, as functionalization is a layer of torch's dispatcher).
SymbolicTensor._refreshed = refresh
dispatch.LIFTED = lifted
dispatch.LINK_VIEW = link_view
