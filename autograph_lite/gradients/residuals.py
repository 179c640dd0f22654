"""A compiled call on an eager tape as two kernels, so that the backward pass reads the
values the forward pass computed instead of computing them again (SPEC §5; as
TensorFlow pairs a function call's forward and backward functions).

The joint function ``J(tensors, output gradients) = (results, gradients)`` is traced once
on the interpreter (nothing is compiled for it) and its top-level nodes are split: a node
that reads an output gradient, directly or through another such node, belongs to the
backward part; every other node to the forward part (so the sweep's own forward work, a
loop's recording of its iterations or a rule's factor that reads only forward values, runs
in the forward kernel). The forward values the backward part reads are the *residuals*.
Two Functions re-stage the parts (``regions.clone_nodes``), each under an input signature
of J's types, so one trace serves every call the forward trace serves: the forward returns
the call's results and the residuals, the backward takes the residuals and the output
gradients and returns the gradients. The tape entry keeps the residuals (tape.py).

Arguments the call writes into and variables it assigns are written by the forward
kernel (its trace's final values of them are J's), once. A call whose arguments include
relaxed Python numbers (kernel inputs the tape does not see) keeps the one-kernel gradient
that computes the forward again (``split_call`` returns None)."""
from .. import nest
from ..ir.graph import captures
from ..tensor import SymbolicTensor, Tensor, TensorSpec
from ..trace.context import current_graph
from ..variables import captured, captures_of
from . import sweep, tape
from .regions import clone_nodes


class Split:
    """The forward and backward Functions of one forward trace of a call (module
    docstring). ``forward(*tensors) -> (results, residuals)``;
    ``backward(*residuals, *output_gradients) -> gradients`` (one per ``wrt``; None where
    a source is not connected)."""

    def __init__(self, forward, backward):
        self.forward, self.backward = forward, backward


def _specs(values):
    return [TensorSpec(v.type.shape, v.type.dtype) for v in values]


def split_call(function, call, cf, wrt):
    """The ``Split`` of ``function``'s forward trace ``cf`` for a tape entry made by
    ``call`` (tape._CallOp: the arguments' structure, tensors and variables) whose
    gradients are wanted for entry inputs ``wrt``; cached per trace; None where the call
    keeps the one-kernel gradient."""
    cache = function.__dict__.setdefault("_split", {})
    key = (id(cf), nest.structure_key(call.args), call.tensors, wrt)
    if key not in cache:
        cache[key] = _make(function, call, cf, wrt)
    return cache[key]


def _make(function, call, cf, wrt):
    n = len(call.tensors)
    graph = cf.graph
    if len(graph.inputs) != n + len(call.variables) or getattr(graph, "held_updates", None):
        return None  # (held arrays, values bound into objects: held_state.py)
    outs = [v.type for v in graph.outputs]
    gy_types = [t for t in outs if t.dtype.kind in "fc"]
    if not gy_types:
        return None
    shape = {}

    def joint(*a):
        given, gys = a[:n], a[n:]
        result = function(*call.arguments(given))
        tensors = [o for o in nest.flatten(result) if isinstance(o, Tensor)]
        targets = [o for o in tensors if sweep.inexact(o)]
        grads = sweep.gradients(targets, call.sources(given, wrt), list(gys))
        shape["result"], shape["n_out"] = result, len(tensors)
        shape["grads"] = [g is not None for g in grads]
        return (*tensors, *[g for g in grads if g is not None])

    from ..function import Function
    specs = _specs(graph.inputs[:n]) + [TensorSpec(t.shape, t.dtype) for t in gy_types]
    traced = Function(joint, backend="interpreter", autograph=False,
                      name=f"{function.__name__}_joint")
    try:
        g = traced.get_concrete_function(*specs).graph
    except Exception:  # noqa: BLE001 - the one-kernel gradient raises it where it applies
        return None
    result, n_out = shape["result"], shape["n_out"]
    if n_out != len(outs):
        return None
    gy_ids = {v.id for v in g.inputs[n:n + len(gy_types)]}
    forward, backward, made = [], [], set()
    for node in g.nodes:
        if any(v.id in gy_ids or v.id in made for v in node.inputs + captures(node)):
            backward.append(node)
            made.update(v.id for v in node.outputs)
        else:
            forward.append(node)
    grads_out = g.outputs[n_out:]
    # (a constant the backward reads is made there again: as a residual it would be an
    # input of its own, no longer weak, `2 * x` of `x ** 2` then float64 for a float32 x)
    consts = {node.outputs[0].id: node for node in forward if node.op == "const"}
    residuals, seen, remade = [], set(), []
    for v in [v for node in backward for v in node.inputs + captures(node)] + grads_out:
        if v.id not in made and v.id not in gy_ids and v.id not in seen:
            seen.add(v.id)
            if v.id in consts:
                remade.append(consts[v.id])
            else:
                residuals.append(v)
    backward = remade + backward
    by_var = {box._storage.index: var for var, box in captures_of(g)}

    def run_forward(*tensors):
        here = current_graph()
        mapping = {g.inputs[i].id: t._value for i, t in enumerate(tensors)}
        for i, var in by_var.items():
            mapping[g.inputs[i].id] = captured(var, here)._value
        clone_nodes(forward, mapping, here, replay=False)
        for i, v in g.input_updates:  # (arguments and variables written: written here)
            box = tensors[i] if i < n else captured(by_var[i], here)
            box._storage.base = mapping.get(v.id, v)
        flat = iter(SymbolicTensor(mapping.get(v.id, v)) for v in g.outputs[:n_out])
        results = nest.pack_as(result, [next(flat) if isinstance(o, Tensor) else o
                                        for o in nest.flatten(result)])
        return results, tuple(SymbolicTensor(mapping[v.id]) for v in residuals)

    def run_backward(*a):
        here = current_graph()
        mapping = {v.id: t._value for v, t in zip(residuals, a)}
        mapping.update((v.id, t._value) for v, t in zip(g.inputs[n:n + len(gy_types)],
                                                        a[len(residuals):]))
        clone_nodes(backward, mapping, here, replay=False)
        made = iter(SymbolicTensor(mapping[v.id]) for v in grads_out)
        return [next(made) if has else None for has in shape["grads"]]

    name = function.__name__
    run_forward.__name__, run_backward.__name__ = f"{name}_forward", f"{name}_backward"
    forward_function = Function(run_forward, input_signature=specs[:n], autograph=False,
                                backend=function.backend)
    forward_function._taped_by_caller = True  # (the tape entry is the call's own)
    backward_function = Function(run_backward, input_signature=_specs(residuals) + specs[n:],
                                 autograph=False, backend=function.backend)
    try:  # (traced now: a part that cannot be re-staged keeps the one-kernel gradient)
        forward_function.get_concrete_function()
        backward_function.get_concrete_function()
    except Exception:  # noqa: BLE001 - the one-kernel gradient raises it where it applies
        return None
    return Split(forward_function, backward_function)


tape.SPLIT_CALL[0] = split_call
