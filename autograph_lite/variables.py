"""``ag.Variable`` (SPEC §5): mutable state that compiled functions read and write by
reference.

A Variable is an eager tensor whose buffer it owns and updates in place (``assign``), so
every eager op reads its current value. A traced function that uses one (captured from a
closure or a global, or passed as an argument) gets it as an extra input of its graph,
never a baked constant (``captured``: made once per trace, a storage of origin ARG, so
the mutation layer records what the function writes into it, as for a NumPy array
argument); the concrete function passes the variable's buffer on every call, and
``assign``/``assign_add``/``assign_sub`` inside compiled code write it in place
(``graph.input_updates``). A Variable created while tracing is created once, by the trace
(its concrete function keeps it), so ``v = ag.Variable(0.0); v.assign_add(1.0)`` in a
defun counts 1.0, 2.0, ... over calls; a new signature's trace makes its own."""
import numpy as np

from . import contiguity, dtypes, mutation, storage
from .ir.graph import root_graph
from .ir.types import TensorType
from .ops import dispatch
from .ops.registry import expose
from .tensor import EagerTensor, SymbolicTensor, to_numpy_value
from .trace.context import current_graph

_CAPTURES = "_variables"
ARG_ORIGIN = storage.ARG  # root graph attribute: {id(variable): (variable, box)}


class _Updates:
    """assign_add/assign_sub as ``assign`` of the current value (``_current``) changed."""
    __slots__ = ()

    def assign_add(self, delta, read_value=True, name=None):
        return self.assign(self._current() + delta, read_value)

    def assign_sub(self, delta, read_value=True, name=None):
        return self.assign(self._current() - delta, read_value)


class Variable(_Updates, EagerTensor):
    """``ag.Variable(initial_value, trainable=True, name=None, dtype=None)``."""
    __slots__ = ("name", "trainable", "__weakref__")

    def __init__(self, initial_value, trainable=True, name=None, dtype=None):
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, SymbolicTensor):
            raise NotImplementedError(
                "ag.Variable's initial value must be known when the variable is made; inside "
                "a traced function, make it from Python or NumPy values (or create the "
                "variable outside and assign to it)")
        value = to_numpy_value(initial_value, None if dtype is None else dtypes.as_dtype(dtype))
        super().__init__(np.array(value, copy=True))
        self.name = name
        self.trainable = bool(trainable)

    def __repr__(self):
        return (f"<ag.Variable{'' if self.name is None else ' ' + repr(self.name)} "
                f"shape={self.shape} dtype={self.dtype} numpy={self._np!r}>")

    def numpy(self):
        return self._np.copy() if self._np.ndim else self._np[()]

    def read_value(self):
        graph = current_graph()
        return EagerTensor(self.numpy()) if graph is None else captured(self, graph).read_value()

    # writes (inside a trace: the captured box's) ---------------------------------------------
    def assign(self, value, read_value=True, name=None):
        graph = current_graph()
        if graph is not None:
            captured(self, graph).assign(value)
            return self if read_value else None
        new = np.asarray(to_numpy_value(value))
        _check_shape(new.shape, self._np.shape, repr(self.name) if self.name else "(unnamed)")
        np.copyto(self._np, new, casting="same_kind")
        return self if read_value else None

    def _current(self):
        graph = current_graph()
        return EagerTensor(self._np) if graph is None else captured(self, graph)


def _check_shape(shape, target, label):
    """A whole-variable assignment takes its shape or a scalar (broadcast), as NumPy's."""
    if tuple(shape) not in ((), tuple(target)):
        raise ValueError(f"cannot assign a value of shape {tuple(shape)} to the variable "
                         f"{label} of shape {tuple(target)}")


class SymbolicVariable(_Updates, SymbolicTensor):
    """A Variable as a traced function sees it (captured, or passed as an argument): a box
    of argument origin, whose writes reach the buffer of the variable of each call, with
    the Variable's methods."""
    __slots__ = ()

    def assign(self, value, read_value=True, name=None):
        value = dispatch.convert_to_tensor(value)
        _check_shape(value.shape, self.shape, repr(self._storage.name))
        if value.dtype == self.dtype and value.shape == self.shape:
            # (a node of its own: the value read from now on, where a gradient with
            # respect to the variable stops, gradients/sweep.py ``_versions``)
            value = dispatch.apply("cast", value, dtype=self.dtype)
        mutation.write(self, Ellipsis, value)
        versions(self).append(self._storage.base)
        return self if read_value else None

    def _current(self):
        return self

    def read_value(self):
        return dispatch.apply("cast", self, dtype=self.dtype)


def versions(box):
    """The values the variable of ``box`` was given by the trace's assignments, in order
    (its value as the call began is its graph input): each read sees the latest, and a
    gradient with respect to the variable is the sum over the values read (TensorFlow's:
    an assignment is no differentiable op)."""
    table = root_graph(box._value.graph).__dict__.setdefault("_variable_versions", {})
    return table.setdefault(box._storage.index, [])


def region_assigned(storage, value):
    """After a staged branch or loop that assigned a variable (control.py): its result is
    a value the variable was given, as an `assign`'s is (``versions``)."""
    table = root_graph(value.graph).__dict__.get("_variable_versions", {})
    if storage.origin == ARG_ORIGIN and storage.index in table:
        table[storage.index].append(value)


def captured(var, graph):
    """The box a traced function sees for ``var``: an extra input of the outermost graph,
    made on the first use in this trace."""
    root = root_graph(graph)
    table = root.__dict__.setdefault(_CAPTURES, {})
    entry = table.get(id(var))
    if entry is None:
        name = var.name or f"variable{len(table)}"
        value = root.add_input(TensorType(var._np.dtype, var._np.shape), hint=name)
        contiguity.mark_input(value, None, True)  # (its own buffer: always C-contiguous)
        # (older than every staged region, wherever it is first used: a first read inside
        # a staged branch or loop body still makes its writes branch and loop state)
        box = mutation.attach(SymbolicVariable(value), storage.ARG, name, value.index,
                              serial=-1)
        entry = table[id(var)] = (var, box)
    return entry[1]


def captures_of(graph):
    """[(variable, box)] a trace captured, in the order of their graph inputs."""
    return sorted(graph.__dict__.get(_CAPTURES, {}).values(),
                  key=lambda e: e[1]._storage.index)


def _lift(x, graph):
    """dispatch.as_value's hook: a Variable read while tracing is its captured input."""
    return captured(x, graph)._value if isinstance(x, Variable) else None


dispatch.LIFT_EAGER = _lift
expose("ag.Variable", Variable)
