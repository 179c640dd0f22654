"""``py_function`` is once-differentiable (SPEC §4, §5): its eager body is recorded on a
tape while it runs, and its gradient replays that tape.

In a traced function the rule swaps the node's callable for one that runs the user's
function under a ``GradientTape`` (watching its inputs) and keeps the recording; the
gradient is a second ``py_function`` callback, later in program order, that takes the
output gradients and returns ``tape.gradient`` of the recorded outputs (zeros for an input
the outputs do not depend on). The body runs once per call; the gradient itself is not
differentiable. Eagerly, under a recording tape, ``py_function`` calls the function on the
caller's tensors (api/callbacks.py), so the tape records its ops directly. A
``py_function`` inside a staged branch or loop body refuses to be differentiated
(regions.py: replaying it would run it again)."""
from .. import numpy_api as npa
from ..api.callbacks import py_function
from ..ops.registry import defgrad
from ..tensor import EagerTensor, TensorSpec
from .tape import GradientTape


def _py_function_grad(site, out_grads):
    node = site.node
    if node is None:  # (eagerly the tape records the body's own ops instead)
        raise NotImplementedError("an eager py_function entry has no gradient of its own")
    func, last = node.attrs["func"], []

    def recording(*ins):
        with GradientTape() as tape:
            tape.watch(list(ins))
            res = func(*ins)
        last[:] = [(tape, ins, res)]
        return res
    node.attrs["func"] = recording
    have = [i for i, g in enumerate(out_grads) if g is not None]

    def backward(*gys):
        if not last:
            raise RuntimeError("py_function's gradient ran before its forward call")
        tape, ins, res = last.pop()
        outs = list(res) if isinstance(res, (list, tuple)) else [res]
        grads = tape.gradient([outs[i] for i in have], list(ins),
                              output_gradients=list(gys))
        return [g if g is not None else EagerTensor(npa.zeros_like(x).numpy())
                for g, x in zip(grads, ins)]

    tout = [TensorSpec(t.shape, t.dtype) for t in site.inputs]
    grads = py_function(backward, [out_grads[i] for i in have], tout,
                        name=f"{node.attrs.get('name') or getattr(func, '__name__', 'f')}_grad")
    return list(grads)


defgrad("py_function", _py_function_grad)
