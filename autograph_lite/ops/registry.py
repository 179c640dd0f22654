"""The one op table: every op is one OpDef, defined once, read by every consumer.

Flow: ``defop(...)`` registers an OpDef in OPS. Tracing calls ``infer`` to type a new Node;
eager execution and the interpreter call ``eager``; the cpu backend calls ``lower`` (or,
for elementwise ops, renders ``scalar`` inside fused loop nests); gradients call ``grad``.
Nothing outside ``ops/`` spells an op's name except through this table.

Field contracts:
- ``infer(in_types, **attrs) -> list[TensorType]`` (dtype + partial shape, NumPy rules).
- ``eager(*arrays, **attrs)`` -> ndarray / NumPy scalar, or a tuple for several outputs.
  Inputs are ndarrays, NumPy scalars, or Python scalars (weak literals).
- ``scalar``: elementwise ops only: a format string over operand expressions
  (``"({0} + {1})"``) or ``scalar(em, exprs, in_types, out_type, **attrs) -> str``.
  Operands arrive already cast to ``compute(in_types)`` when ``cast_operands`` is set.
- ``lower(em, node) -> str | None``: Numba source for the cpu backend; a returned string
  is the expression of the single output, else the lowering assigned ``em.out(node)``.
- ``fold``: full reductions: ``fold.applies(node)``, and ``fold(em, node, dims) ->
  (step(idx), finish())`` computes it inside a loop nest the emitter opens for other
  outputs (one pass instead of two).
- ``grad(site, out_grads) -> in_grads``: the vector-Jacobian product, built from other ops
  (so it stages in a trace and runs eagerly alike): ``site`` has the node's ``inputs``,
  ``outputs`` (tensors) and ``attrs``; ``out_grads`` has one tensor or None per output;
  the result one tensor or None per input, in the output's broadcast shape (the reverse
  sweep sums it to the input's shape and casts it to its dtype). Attached by
  ``defgrad`` (the rules live in autograph_lite/gradients/, above the NumPy layer whose
  functions they use); a differentiable op without one refuses to be differentiated.
- ``checks(*args, **attrs)``: stages, as explicit checks (``assert`` ops), the errors the
  lowering raises itself for values known only at run time (a negative size, an empty
  reduction), where such a check hands back state when it fails (partial_raise.py:
  ``dispatch.check_carries_state``): the kernel's own raise loses the bindings and the
  writes made into copies before it. Elementwise ops check broadcasting
  (``dispatch.check_broadcast``) unless they give their own.
- ``raises``: what the op's kernel may raise when it runs (``io.may_raise``, which decides
  whether a `try` or `with` around it can be staged): a tuple of exception classes, or a
  function of the node giving one; None (the default) any of ``io.RUNTIME_ERRORS``.
- ``layout``: when NumPy's result is C-contiguous (contiguity.py): ``"inputs"`` when every
  array input is (NumPy's default order), ``"first"`` when input 0 is (its buffer),
  ``"branches"`` when every region's result is (cond), ``"carried"`` when the initial value
  and the body's result are (while_loop), ``"fresh"`` always (a new C array whatever
  the inputs: vectorized_map), ``"unknown"`` never known; a ``view`` op's by
  the view rules there.
- ``names``: the op's public names, each with its namespace: ``"np.sin"`` (a ufunc:
  ``np.sin(t)`` is the op on ``t``; ``"np.add.reduce"`` a ufunc's reduce),
  ``"ag.add"``/``"ag.math.add"``/``"ag.nn.relu"`` (TensorFlow's: ``f(*tensors,
  name=None)``), ``"Tensor.__add__"`` (an operator; ``__radd__`` swaps the operands,
  ``__iadd__`` writes in place as NumPy's ``x += y``). Names that need a front (argument
  handling, several ops) are claimed by that function with ``@public`` instead.

The public surface is made from this module and nothing else (``front_door.py``): the
NumPy protocol tables, the ``ag``/``ag.math``/``ag.nn``/``ag.random`` names and the
Tensor methods are all read from ``PUBLIC``.
"""
import dataclasses
from dataclasses import dataclass, field
from typing import Callable, Optional

OPS = {}


@dataclass(frozen=True)
class OpDef:
    name: str
    infer: Callable
    eager: Callable
    lower: Optional[Callable] = None
    scalar: object = None
    cast_operands: bool = True
    grad: Optional[Callable] = None
    lower_cuda: Optional[Callable] = None
    stateful: bool = False       # may not be merged (CSE) or folded: e.g. random
    side_effects: bool = False   # may not be dropped (DCE): e.g. print, assert
    differentiable: bool = True
    n_regions: int = 0
    fuses_inputs: bool = False   # lower() reads input 0 through em.elem (fusion)
    fold: object = None          # full reductions: computed inside another loop nest
    view: bool = False           # outputs may share memory with input 0
    read_only: bool = False      # NumPy's result is a read-only view of input 0
    multi_output: bool = False   # always returns a tuple, even of one tensor (split)
    updates_input: bool = False  # lowering may write into input 0 (setitem; ownership.py)
    overlap_safe: tuple = ()     # inputs it may read where they overlap what it writes
    layout: str = "inputs"       # when NumPy's result is C-contiguous (contiguity.py)
    checks: Optional[Callable] = None  # stages the lowering's run-time errors (above)
    raises: object = None        # what its kernel may raise (above; None: anything)
    doc: str = ""
    names: tuple = field(default=())  # public names (see the module docstring)

    @property
    def elementwise(self):
        return self.scalar is not None

    @property
    def pure(self):
        return not (self.stateful or self.side_effects)


def defop(name, **fields):
    """Registers one op; a second registration of a name is a programming error."""
    if name in OPS:
        raise ValueError(f"op {name!r} is defined twice")
    op = OpDef(name=name, **fields)
    OPS[name] = op
    for public_name in op.names:
        _claim(Public(public_name, None, name))
    return op


# -- public names -------------------------------------------------------------------------
PUBLIC = {}
# each namespace's prefix and the module its names are bound in (front_door.py; the np
# names are read by numpy_api.py, the Tensor names attached to the classes), longest first
NAMESPACES = {"np.": None, "ag.math.": "autograph_lite.api.math",
              "ag.nn.": "autograph_lite.api.nn", "ag.random.": "autograph_lite.api.random",
              "ag.optimizers.": "autograph_lite.api.optimizers",
              "ag.": "autograph_lite", "Tensor.": None}


@dataclass(frozen=True)
class Public:
    """One public name: made from op ``op`` (``impl`` None: front_door.py writes it), or
    the front function (or property) ``impl`` that builds on the ops."""
    name: str
    impl: object
    op: Optional[str]


def _claim(entry):
    if not entry.name.startswith(tuple(NAMESPACES)):
        raise ValueError(f"public name {entry.name!r} is in none of {tuple(NAMESPACES)}")
    if entry.name in PUBLIC:
        raise ValueError(f"public name {entry.name!r} is claimed twice")
    PUBLIC[entry.name] = entry


def public(*names):
    """Decorator: ``func`` is the front of public ``names`` (``"np.sum"``,
    ``"ag.reduce_sum"``, ``"Tensor.sum"``: a Tensor name's function takes the tensor
    first); returns ``func`` unchanged."""
    def claim(func):
        for n in names:
            _claim(Public(n, func, None))
        return func
    return claim


def expose(name, obj):
    """A public name for an object that is not a plain front function (a property)."""
    _claim(Public(name, obj, None))


def defgrad(name, rule):
    """Gives op ``name`` its ``grad`` rule (once; only a differentiable op)."""
    op = lookup(name)
    if op.grad is not None or not op.differentiable:
        raise ValueError(f"op {name!r} already has a grad rule or is not differentiable")
    OPS[name] = dataclasses.replace(op, grad=rule)


def lookup(name):
    try:
        return OPS[name]
    except KeyError:
        raise KeyError(f"no op named {name!r} in the op table") from None
