"""``ag.Module`` and ``ag.optimizers`` (SPEC §5): variables tracked through a model's
attributes, and the two optimizers that update them.

``Module.variables`` walks the instance's attributes, recursively through sub-modules,
lists, tuples and dicts (each variable once, in attribute order). The optimizers' updates
are ``assign_sub`` on the variables, so the same code runs eagerly and inside a compiled
train step (one kernel: tape, gradients and updates); Adam's slots are variables made on
the first ``apply_gradients`` (inside a trace, by that trace)."""
import numpy as np

from . import nest, numpy_api as npa
from .ops.registry import expose
from .variables import SymbolicVariable, Variable


class Module:
    """A container of variables and sub-modules: ``.variables``, ``.trainable_variables``,
    ``.submodules``; put ``ag.defun`` on its methods to compile them."""
    ag_holds_state = True  # (its numbers are read on every call: held_state.py)

    def __init__(self, name=None):
        self.name = name or type(self).__name__

    def _walk(self):
        """The variables and sub-modules in the attributes (nest.flatten's order, sorted
        by name), depth first, each once."""
        seen, out = set(), []

        def visit(module):
            for x in nest.flatten(vars(module)):
                if isinstance(x, (Variable, Module)) and id(x) not in seen:
                    seen.add(id(x))
                    out.append(x)
                    if isinstance(x, Module):
                        visit(x)
        visit(self)
        return out

    @property
    def variables(self):
        return tuple(x for x in self._walk() if isinstance(x, Variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def submodules(self):
        return tuple(x for x in self._walk() if isinstance(x, Module))


def _pairs(grads_and_vars):
    pairs = list(grads_and_vars)
    for g, v in pairs:
        if not isinstance(v, (Variable, SymbolicVariable)):  # (a variable argument, traced)
            raise TypeError(f"apply_gradients takes (gradient, ag.Variable) pairs; got a "
                            f"{type(v).__name__} where the variable goes")
    return [(g, v) for g, v in pairs if g is not None]


class SGD:
    """``ag.optimizers.SGD(learning_rate=0.01, momentum=0.0)``: v -= lr * g (with momentum:
    m = momentum * m - lr * g; v += m)."""
    ag_holds_state = True  # (its numbers are read on every call: held_state.py)

    def __init__(self, learning_rate=0.01, momentum=0.0):
        self.learning_rate, self.momentum = learning_rate, momentum
        self._slots = {}

    def apply_gradients(self, grads_and_vars):
        for g, v in _pairs(grads_and_vars):
            if self.momentum:
                m = _slot(self._slots, v, "momentum")
                m.assign(m * self.momentum - g * self.learning_rate)
                v.assign_add(m)
            else:
                v.assign_sub(g * self.learning_rate)


class Adam:
    """``ag.optimizers.Adam(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7)``
    (Kingma & Ba, with TensorFlow's epsilon placement)."""
    ag_holds_state = True  # (its numbers are read on every call: held_state.py)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
        self.learning_rate, self.beta_1, self.beta_2 = learning_rate, beta_1, beta_2
        self.epsilon = epsilon
        self._slots = {}
        self.iterations = None

    def apply_gradients(self, grads_and_vars):
        pairs = _pairs(grads_and_vars)
        if self.iterations is None:
            self.iterations = Variable(np.int64(0), trainable=False, name="iterations")
        self.iterations.assign_add(1)
        t = npa.cast(self.iterations, np.float64)
        lr = self.learning_rate * np.sqrt(1.0 - self.beta_2 ** t) / (1.0 - self.beta_1 ** t)
        for g, v in pairs:
            m, s = _slot(self._slots, v, "m"), _slot(self._slots, v, "v")
            m.assign(m * self.beta_1 + g * (1.0 - self.beta_1))
            s.assign(s * self.beta_2 + g * g * (1.0 - self.beta_2))
            v.assign_sub(npa.cast(lr, v.dtype) * m / (np.sqrt(s) + self.epsilon))


def _slot(slots, var, kind):
    key = (id(var), kind)
    if key not in slots:
        slots[key] = (var, Variable(np.zeros(var.shape, var.dtype), trainable=False,
                                    name=f"{var.name or 'variable'}/{kind}"))
    return slots[key][1]


expose("ag.Module", Module)
expose("ag.optimizers.SGD", SGD)
expose("ag.optimizers.Adam", Adam)
