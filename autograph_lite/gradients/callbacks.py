"""``py_function`` is once-differentiable (SPEC §4, §5): its eager body is recorded on a
tape while it runs, and its gradient replays that tape -- the body never runs again.

In a traced function the gradient swaps the node's callable for ``Recordings.forward``,
which runs the user's function under a persistent ``GradientTape`` and keeps the
recording, **keyed by the call's inputs** (their dtypes, shapes and bytes). The gradient is
a second ``py_function`` callback, later in program order, that takes the output gradients
and the same inputs, finds the recording by them and returns ``tape.gradient`` of the
recorded outputs (zeros for an input the outputs do not depend on).

Why by the inputs: inside a staged branch or loop, the backward pass replays the region
(regions.py), so the call is met again on recomputed inputs, once per iteration, in
reverse order and, for nested loops, in orders no counter can follow. The recomputed
inputs are bit-identical to the forward's, so they name the forward call: the replayed
node (``Recordings.replay``) hands back that call's results instead of calling the user's
function, and the backward callback replays that call's tape. A function that gave two
results for equal inputs in one call is ambiguous: its gradient raises instead of
guessing. The recordings live for one call of the Function: a ``py_func`` at the top of
the outermost graph clears them as each call starts. Inputs are copied before the body
sees them and results before the kernel does (a loop variable's buffer is updated in
place; a recording must not change with it).

Eagerly, under a recording tape, ``py_function`` calls the function on the caller's
tensors (api/callbacks.py), so the tape records its ops directly."""
import hashlib

import numpy as np

from .. import numpy_api as npa
from ..api.callbacks import py_func, py_function
from ..ir.graph import root_graph
from ..ops.registry import defgrad
from ..tensor import EagerTensor, TensorSpec
from ..trace.context import graph_scope
from .tape import GradientTape


def _frozen(x):
    a = np.array(x.numpy() if isinstance(x, EagerTensor) else x, copy=True)
    a.flags.writeable = False
    return EagerTensor(a)


def _key(ins):
    arrays = [np.ascontiguousarray(x.numpy() if isinstance(x, EagerTensor) else x)
              for x in ins]
    return tuple((a.dtype.str, a.shape, hashlib.blake2b(a.view(np.uint8).reshape(-1),
                                                         digest_size=16).digest())
                 for a in arrays)


def _fresh(res):
    """A copy of the results the kernel may own (and update in place)."""
    if isinstance(res, (list, tuple)):
        return type(res)(_fresh(r) for r in res)
    if isinstance(res, EagerTensor):
        return np.array(res.numpy(), copy=True)
    return np.array(res, copy=True) if isinstance(res, np.ndarray) else res


def _same(a, b):
    if isinstance(a, (list, tuple)):
        return (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    a, b = (np.asarray(v.numpy() if isinstance(v, EagerTensor) else v) for v in (a, b))
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


class Recordings:
    """The calls of one ``py_function`` node during one call of its Function, by their
    inputs (module docstring). ``forward``, ``replay`` and ``reset`` are the callables the
    graph's nodes call; they are made once, so their callback keys stay the same."""

    def __init__(self, func, name, loc):
        self.func, self.name, self.loc = func, name, loc
        self.calls, self.ambiguous = {}, set()

        def forward(*ins):
            ins = [_frozen(x) for x in ins]
            with GradientTape(persistent=True) as tape:
                tape.watch(ins)
                res = func(*ins)
            k = _key(ins)
            old = self.calls.get(k)
            if old is not None and not _same(old[2], res):
                self.ambiguous.add(k)
            self.calls[k] = (tape, ins, res)
            return _fresh(res)

        def replay(*ins):
            return _fresh(self.find(ins)[2])

        def reset():
            self.calls.clear()
            self.ambiguous.clear()
        for f, what in ((forward, "recorded"), (replay, "replayed"), (reset, "reset")):
            f.__name__ = f.__qualname__ = f"{name}_{what}"
            f.recordings = self
        self.forward, self.replay, self.reset = forward, replay, reset

    def find(self, ins):
        """(tape, inputs, results) of this call's forward call on ``ins``."""
        k = _key(ins)
        if k in self.ambiguous:
            raise RuntimeError(
                f"py_function '{self.name}' (at {self.loc}) returned different results for "
                f"equal inputs "
                f"during one call; its gradient inside a staged loop or branch finds each "
                f"call by its inputs, so the function must give one result per input")
        rec = self.calls.get(k)
        if rec is None:
            raise RuntimeError(f"py_function '{self.name}' (at {self.loc}): its gradient ran "
                               f"before its forward call on these inputs")
        return rec


def recorded(node):
    """The ``Recordings`` that py_function ``node`` calls into, or None."""
    return getattr(node.attrs["func"], "recordings", None) if node.op == "py_function" else None


def recordings(node):
    """The ``Recordings`` of py_function ``node``, made on first use: the node then calls
    ``forward``, and the outermost graph clears the recordings as each call starts."""
    rec = recorded(node)
    if rec is None:
        func = node.attrs["func"]
        rec = Recordings(func, node.attrs.get("name") or getattr(func, "__name__", "f"),
                         node.loc)
        node.attrs["func"] = rec.forward
        root = root_graph(node.graph)
        with graph_scope(root):
            py_func(rec.reset, [], [])
        root.nodes.insert(0, root.nodes.pop())  # (no inputs: it may run first)
    return rec


def replayed(node, attrs):
    """The attrs of a replay of ``node`` (regions.clone_nodes): a py_function whose calls
    are recorded hands back the recorded results instead of running again."""
    rec = recorded(node)
    return attrs if rec is None else {**attrs, "func": rec.replay}


def _py_function_grad(site, out_grads):
    node = site.node
    if node is None:  # (eagerly the tape records the body's own ops instead)
        raise NotImplementedError("an eager py_function entry has no gradient of its own")
    rec = recordings(node)
    have = [i for i, g in enumerate(out_grads) if g is not None]

    def backward(*args):
        gys, ins = args[:len(have)], args[len(have):]
        tape, recorded, res = rec.find(ins)
        outs = list(res) if isinstance(res, (list, tuple)) else [res]
        grads = tape.gradient([outs[i] for i in have], list(recorded),
                              output_gradients=list(gys))
        return [g if g is not None else EagerTensor(npa.zeros_like(x).numpy())
                for g, x in zip(grads, recorded)]

    tout = [TensorSpec(t.shape, t.dtype) for t in site.inputs]
    grads = py_function(backward, [out_grads[i] for i in have] + list(site.inputs), tout,
                        name=f"{rec.name}_grad")
    return list(grads)


defgrad("py_function", _py_function_grad)
