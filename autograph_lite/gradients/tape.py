"""``ag.GradientTape`` (SPEC §5): records eager ops and calls of compiled functions, and
sweeps them backwards; inside a traced function it is the graph sweep itself.

Eagerly, ``ops/dispatch.apply`` hands each op it runs to the active tapes (``RECORDERS``;
a tape records its own thread's); a tape keeps the op when one of its inputs is watched
or was made by an op it kept. A call
of a compiled ``Function`` is one entry (function.py hands it over): its gradient is itself
a compiled, cached Function (the call's ``ag.gradients``, so the forward values it needs
are recomputed inside that kernel). Inside a trace a tape records nothing: ``gradient``
sweeps the nodes traced since the tape was entered (``sweep.graph_gradients``), and
sources that were not watched get None, as eagerly."""
import contextlib
import threading

import numpy as np

from .. import held_state, nest
from ..ir.graph import root_graph
from ..ops import dispatch
from ..ops.dispatch import convert_to_tensor
from ..ops.registry import expose
from ..tensor import EagerTensor, SymbolicTensor, Tensor, is_tensor_value, unshared
from ..trace.context import block_fast_path, current_graph
from ..variables import SymbolicVariable, Variable
from . import call_state, sweep
from .rules import zeros_as

# residuals.split_call (installed by that module, which builds on regions.py and so on
# this one): a compiled call's forward and backward kernels, or None
SPLIT_CALL = [None]


def _key(t):
    if isinstance(t, SymbolicTensor):
        return t._value.id
    return id(t) if isinstance(t, EagerTensor) else None


class _CallOp:
    """The op of a compiled call's tape entry: ``grad`` runs the compiled gradient. The
    entry's inputs are the tensors among the call's arguments (flattened: a tuple or dict
    of tensors passed as one argument too), then the variables its trace used; the other
    arguments (Python numbers, strings, flags) are kept as they were given, so the
    gradient's trace sees the forward's."""
    name = "a compiled function"

    def __init__(self, function, args, variables):
        self.function, self.variables = function, variables
        self.before = None  # (call_state.StateBefore: what the call changes, before it)
        leaves = nest.flatten(args)
        self.tensors = tuple(i for i, a in enumerate(leaves) if is_tensor_value(a))
        kept = [None if i in self.tensors else a for i, a in enumerate(leaves)]
        self.args = nest.pack_as(args, kept)   # (the structure and the other arguments)

    def arguments(self, given):
        """The call's arguments again, with the tensors ``given`` in the tensors' places."""
        leaves = nest.flatten(self.args)
        for i, t in zip(self.tensors, given):
            leaves[i] = t
        return nest.pack_as(self.args, leaves)

    def sources(self, given, wrt):
        """The entry inputs at positions ``wrt``: ``given`` tensors, then variables."""
        n = len(self.tensors)
        return [given[i] if i < n else self.variables[i - n] for i in wrt]

    def grad(self, entry, out_grads):
        have = tuple(g is not None for g in out_grads)
        wrt = tuple(i for i, (k, t) in enumerate(zip(entry.in_keys, entry.inputs))
                    if k in entry.depends and sweep.inexact(t))
        backward = _backward_function(self, wrt, have)
        given = list(entry.inputs[:len(self.tensors)])
        # (it computes the forward again: on the state of before the call, call_state.py)
        with (self.before.swapped() if self.before else contextlib.nullcontext({})) as args:
            for i, a in args.items():
                given[i] = a
            grads = backward(*given, *[g for g in out_grads if g is not None])
        return sweep.placed(len(entry.inputs), wrt, grads)


def _backward_function(call, wrt, have):
    """The compiled gradient of ``call``'s function for sources ``wrt`` (positions among
    the tensor arguments; past them, the variables its trace used, which the gradient's
    trace captures too) and the outputs ``have`` marks as having a gradient; made once per
    such arguments (their structure and other values), sources and outputs."""
    function = call.function
    # (the state of the objects it is called with, `self` included, is baked into the
    # gradient's trace, which is not keyed by it: such a gradient is traced on each call)
    cache = ({} if function._owner is not None or any(
        held_state.is_holder(a) for a in nest.flatten(call.args))
        else function.__dict__.setdefault("_backward", {}))
    kept = tuple(_hashable(a) for a in nest.flatten(call.args))
    key = (nest.structure_key(call.args), kept, call.tensors, wrt, have,
           tuple(id(v) for v in call.variables))
    if key not in cache:
        from ..function import defun
        n = len(call.tensors)

        def backward(*a):
            given, gys = a[:n], a[n:]
            mark = len(current_graph().nodes)
            outs = [o for o, h in zip(nest.flatten(function(*call.arguments(given))), have)
                    if h]
            _runs_once(function, current_graph().nodes[mark:])
            return sweep.gradients(outs, call.sources(given, wrt), list(gys))
        backward.__name__ = f"{function.__name__}_backward"
        cache[key] = defun(backward, backend=function.backend)
    return cache[key]


def _runs_once(function, nodes):
    """Refuses a one-kernel gradient (``backward`` above) whose forward pass, computed again,
    would run an effect a second time: a callback, a print, a random draw (its numbers
    would differ from those the forward used)."""
    for node in nodes:
        for n in [node, *(m for r in node.regions for m in r.walk())]:
            if not n.opdef.pure and n.op != "assert":
                raise NotImplementedError(
                    f"the gradient of '{function.__name__}', a compiled call a GradientTape "
                    f"recorded, computes its forward pass again here (a relaxed Python-number "
                    f"argument, nested tapes, objects among its arguments, or a forward the "
                    f"split kernels cannot serve), and that pass has '{n.op}' (at {n.loc}), "
                    f"which would run a second time: take the gradient inside the compiled "
                    f"function (ag.gradients), or move the '{n.op}' out of it")


class _SplitOp:
    """The op of a split compiled call's tape entry (residuals.py): its gradient is the
    backward kernel on the residuals the forward kernel returned."""
    name = "a compiled function"

    def __init__(self, split, kept, wrt):
        self.split, self.kept, self.wrt = split, kept, wrt

    def grad(self, entry, out_grads):
        gys = [g if g is not None else zeros_as(o)
               for o, g in zip(entry.outputs, out_grads) if sweep.inexact(o)]
        grads = self.split.backward(*self.kept, *gys)
        return sweep.placed(len(entry.inputs), self.wrt, grads)


def _unshared(kept, inputs):
    """The residuals of a split call, each a copy where it shares memory with one of the
    call's inputs (the interpreter hands an input back as it is): the caller may write that
    array, or assign that variable, before asking for the gradient."""
    buffers = [a._np if isinstance(a, EagerTensor) else a for a in inputs
               if isinstance(a, (EagerTensor, np.ndarray))]
    out = []
    for k in kept:
        v = k._np if isinstance(k, EagerTensor) else k
        copy = unshared(v, buffers)
        out.append(k if copy is v else EagerTensor(copy))
    return tuple(out)


def _frozen(a):
    """The value an entry's input has now, as a tensor no later write changes: the caller
    may write a NumPy array it passed, and assign a variable, before asking for the
    gradient (`y = (x * w).sum(); w *= 10`: the gradient is the w that was read). A tensor
    is immutable (SPEC 1) and kept as it is."""
    if type(a) is np.ndarray:
        return EagerTensor(a.copy())
    if isinstance(a, Variable):
        return EagerTensor(a._np.copy())
    return convert_to_tensor(a)


def _hashable(a):
    try:
        hash(a)
        return (type(a), a)
    except TypeError:
        return ("id", id(a))


class GradientTape:
    """SPEC §5: ``with ag.GradientTape() as tape: ...; tape.gradient(target, sources)``."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables
        self._entries, self._tracked, self._watched = [], set(), set()
        self._keep = []          # the watched tensors (their ids are keys)
        self._since, self._used, self._open, self._thread = None, False, False, None

    # recording ------------------------------------------------------------------------
    def __enter__(self):
        if self._open:
            raise RuntimeError("this GradientTape is already recording")
        self._open = True
        graph = current_graph()
        if graph is not None:
            self._since = (graph, len(graph.nodes))
        else:
            self._thread = threading.get_ident()
            dispatch.RECORDERS.append(self)
            block_fast_path(1)  # compiled calls take the path that records them
        return self

    def __exit__(self, *exc):
        self._open = False
        if self._since is None:
            dispatch.RECORDERS.remove(self)
            block_fast_path(-1)
        return False

    def watch(self, tensor):
        for t in nest.flatten(tensor):
            if not isinstance(t, Tensor):
                raise TypeError(f"GradientTape.watch takes tensors (ag.constant(...)); got "
                                f"{type(t).__name__}")
            self._keep.append(t)
            self._watched.add(_key(t))
            self._tracked.add(_key(t))

    def _accessed(self, args):
        """Trainable variables read while recording are watched (watch_accessed_variables)."""
        if self.watch_accessed_variables:
            for a in args:
                if isinstance(a, Variable) and a.trainable and id(a) not in self._watched:
                    self.watch(a)

    def record(self, op, args, attrs, result):
        """An eager op that ran (dispatch.apply)."""
        outs = [r for r in (result if isinstance(result, tuple) else (result,))
                if r is not None]
        self._keep_entry(op, args, outs, dict(attrs))

    def call_compiled(self, function, args, cf):
        """A call of a compiled Function while tapes record (function.py): runs it and
        gives each recording tape that tracks one of its inputs one entry. Where one tape
        keeps it and the call splits (residuals.py), it runs as the forward kernel and the
        entry keeps the residuals for the backward kernel; else the entry's gradient
        computes the forward again in one kernel (whose call an outer tape records)."""
        op = _CallOp(function, tuple(args), tuple(cf._variables))
        leaves = nest.flatten(args)
        inputs = tuple(leaves[i] for i in op.tensors) + op.variables
        tapes = [t for t in dispatch.RECORDERS if t._keeps(inputs)]
        if not tapes:
            return cf._call_args(args)
        tracked = set().union(*(t._tracked for t in tapes))
        wrt = tuple(i for i, a in enumerate(inputs)
                    if _key(a) in tracked and sweep.inexact(convert_to_tensor(a)))
        # (under nested tapes the outer one may differentiate the inner one's gradient,
        # which must then read the call's inputs, not residuals no tape tracks)
        split = SPLIT_CALL[0](function, op, cf, wrt) if wrt and len(tapes) == 1 else None
        if split is None:
            op.before = call_state.StateBefore.of(function, args, cf, inputs[:len(op.tensors)])
            out = cf._call_args(args)
        else:
            out, kept = split.forward(*inputs[:len(op.tensors)])
            op = _SplitOp(split, _unshared(kept, inputs), wrt)
        outs = [o for o in nest.flatten(out) if isinstance(o, EagerTensor)]
        for t in tapes:
            t._append(op, inputs, outs, {})
        return out

    def _keeps(self, inputs):
        """Whether this tape keeps a step that reads ``inputs`` (this thread's, and one of
        them tracked); trainable variables read are watched first."""
        if self._thread != threading.get_ident():
            return False
        self._accessed(inputs)
        return any(_key(a) in self._tracked for a in inputs if _key(a) is not None)

    def _keep_entry(self, op, args, outs, attrs):
        """Keeps a step of this thread's eager run if it reads a tracked tensor; its
        results are tracked then."""
        if self._keeps(args):
            self._append(op, args, outs, attrs)

    def _append(self, op, args, outs, attrs):
        self._entries.append(sweep.Entry(op, [_frozen(a) for a in args], outs,
                                         [_key(a) for a in args], [id(o) for o in outs],
                                         attrs))
        self._tracked.update(id(o) for o in outs)

    # the sweep ------------------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None):
        if self._used and not self.persistent:
            raise RuntimeError("a non-persistent GradientTape can compute one set of "
                               "gradients: make it with persistent=True to call gradient "
                               "again")
        if self._open and self._since is None:
            raise RuntimeError("GradientTape.gradient is called after the `with` block "
                               "that records (inside it, the sweep would record itself)")
        self._used = True
        ys, xs = nest.flatten(target), nest.flatten(sources)
        gys = None if output_gradients is None else nest.flatten(output_gradients)
        try:
            if self._since is not None:
                grads = sweep.graph_gradients(ys, xs, gys, self._since)
                # (a tensor computed while it recorded counts as watched: TensorFlow's)
                recorded = {id(n) for n in sweep.visible_nodes(current_graph(), self._since)}
                grads = [g if _key(x) in self._watched or self._auto(x) or (
                    isinstance(x, SymbolicTensor) and id(x._value.node) in recorded)
                    else None for x, g in zip(xs, grads)]
            else:
                grads = self._eager(ys, xs, gys)
        except (TypeError, ValueError) as e:
            raise type(e)(f"GradientTape.gradient: {e}") from None
        return nest.pack_as(sources, grads)

    def _auto(self, x):
        """A variable the tape watches without `watch`: a trainable one, or one passed to
        the traced function as an argument (its box, trainable as variables are made)."""
        return self.watch_accessed_variables and (
            isinstance(x, Variable) and x.trainable or isinstance(x, SymbolicVariable)
            and x._storage.index not in root_graph(x._value.graph).__dict__.get(
                "untrainable_inputs", ()))

    def _eager(self, ys, xs, gys):
        for x in xs:
            if not isinstance(x, Tensor):
                raise TypeError(f"a source must be a tensor; got {type(x).__name__}")
        ys = [convert_to_tensor(y) for y in ys]
        depends = sweep.reach(self._entries, {_key(x) for x in xs if _key(x) in self._watched})
        adjoints = {}
        sweep.seed(adjoints, ys, gys, id)
        sweep.backprop(self._entries, adjoints, depends)
        return [adjoints.get(_key(x)) if sweep.inexact(x) else None for x in xs]


expose("ag.GradientTape", GradientTape)
