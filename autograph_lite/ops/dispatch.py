"""apply(op, *inputs): run an op eagerly (NumPy) or stage it as a Node, by where we are.

Outside any trace, ops run their NumPy kernel and return EagerTensors. While tracing,
every op is staged in the innermost Graph (so ``ag.random.normal`` inside a defun draws
fresh values on every call); Python scalars become weak constants, NumPy values strong ones.
"""
import numpy as np

from .. import dtypes, errors
from .. import tensor as tensor_module
from ..tensor import (EagerTensor, SymbolicTensor, Tensor, holds_symbolic, to_numpy_value,
                      type_of_constant)
from ..ir.graph import root_graph
from ..ir.types import TensorType
from ..trace.context import current_graph
from .registry import OPS

# NumPy's aliasing is a layer above the dispatcher (mutation.py, which installs these on
# import, as functionalization is a layer of torch's dispatcher): ``LIFTED(array, graph)``,
# the box a NumPy array of trace time became (or None); ``LINK_VIEW(parent, results,
# node)``, which links a view op's results to the parent box's buffer.
LIFTED = None
LINK_VIEW = None
# The eager GradientTapes recording now (gradients/tape.py): each op run eagerly is handed
# to their ``record(op, args, attrs, result)``. (The list is tensor.py's, whose iteration
# asks it.)
RECORDERS = tensor_module.RECORDERS
# ``LIFT_EAGER(tensor, graph)``: the Value an eager tensor read while tracing stands for
# when it is not a constant (an ag.Variable: its captured input, variables.py), else None.
LIFT_EAGER = None


def _snapshot(graph, array):
    """``array`` as it is now. The graph keeps the value an array had when an op read it,
    as NumPy's result would (``a = v + t; v[0] = 5.0`` at trace time must not change
    ``a``), so it holds a copy; the consts of one unchanged array share one copy in the
    whole traced function (a large captured table used by many ops is copied once, and
    CSE merges its consts into one kernel argument)."""
    cache = root_graph(graph).__dict__.setdefault("_snapshots", {})
    entry = cache.get(id(array))
    if entry is not None:
        original, snap = entry  # (the original is kept: its id cannot be reused)
        if (snap.shape == array.shape and snap.dtype == array.dtype
                and np.array_equal(snap, array, equal_nan=snap.dtype.kind in "fc")):
            return snap
    snap = np.array(array, copy=True)
    cache[id(array)] = (array, snap)
    return snap


def const(graph, value, weak=False, loc=None):
    """A const Node in ``graph`` for a NumPy or Python value (an array: its snapshot)."""
    if type(value) is int and not -2 ** 63 <= value < 2 ** 63:
        raise errors.with_location(OverflowError(
            f"Python int {value} does not fit int64, the type a staged Python int takes"),
            loc or errors.user_location())
    t = type_of_constant(value)
    if isinstance(value, np.ndarray):
        value = _snapshot(graph, value)
    if not isinstance(value, (bool, int, float, complex)):
        value = to_numpy_value(value)
    elif weak is False and t.weak:
        t = t.strong()
        value = np.asarray(value, t.dtype)[()]
    node = graph.add_node("const", [], {"value": value}, [t], loc=loc)
    return SymbolicTensor(node.outputs[0])


def constant(value, dtype=None):
    """A tensor holding ``value`` (NumPy semantics; Python floats become float64): eager
    outside a trace, a const Node while tracing."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, SymbolicTensor):
        return value if dtype is None else apply("cast", value, dtype=dtype)
    if isinstance(value, (list, tuple)) and holds_symbolic(value):
        # `traj[i] = [x, y, z]` of 0-d tensors: their stack, as NumPy's array of them
        out = apply("stack", *[constant(v) for v in value], axis=0)
        return out if dtype is None else apply("cast", out, dtype=dtype)
    v = to_numpy_value(value, dtype)
    g = current_graph()
    if g is not None:
        return const(g, v)
    # (a tensor is immutable, SPEC 1: not a view of an array the caller may write after,
    # nor of a variable's buffer, which its `assign` writes)
    return EagerTensor(v.copy() if v is value or (_mutable(value) and v is value._np)
                       else v)


def convert_to_tensor(value, dtype=None):
    if isinstance(value, Tensor) and (dtype is None or value.dtype == dtypes.as_dtype(dtype)):
        return value
    return constant(value, dtype)


def as_value(graph, x):
    """The graph Value for an op input: symbolic as is, everything else a constant."""
    if isinstance(x, SymbolicTensor):
        graph.check_visible(x._value, "where no run can read it")
        return x._value
    if isinstance(x, (bool, int, float, complex)):
        return const(graph, x, weak=True)._value
    if isinstance(x, EagerTensor):
        if type(x) is not EagerTensor:
            lifted = LIFT_EAGER(x, graph)
            if lifted is not None:
                return lifted
        x = x._np
    elif isinstance(x, (list, tuple)):
        return convert_to_tensor(x)._value  # (tensors in it: their stack)
    elif isinstance(x, np.ndarray):
        box = LIFTED(x, graph)  # an array of trace time that became a box (mutation.py)
        if box is not None:
            return box._value
    return const(graph, x)._value


def _mutable(x):
    """An eager tensor whose buffer changes (an ag.Variable, a subclass: variables.py)."""
    return isinstance(x, EagerTensor) and type(x) is not EagerTensor


def _eager_input(x):
    if isinstance(x, EagerTensor):
        return x._np
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        return x
    if isinstance(x, SymbolicTensor):
        raise ValueError("a symbolic tensor from a finished trace was used outside it; "
                         "return it from the function instead")
    return to_numpy_value(x)


def wrap(result):
    if isinstance(result, tuple):
        return tuple(wrap(r) for r in result)
    if result is None:
        return None
    if not isinstance(result, (np.ndarray, np.generic)):
        result = np.asarray(result)[()]
    return EagerTensor(result)


# partial_raise.plan_for_check(graph): what a staged check hands back when it fails
CHECK_PLAN = None


def check_carries_state():
    """Whether a check staged now hands back state when it fails (partial_raise.py): the
    trace has written into its arguments or bound into its objects so far."""
    graph = current_graph()
    return (graph is not None and CHECK_PLAN is not None
            and CHECK_PLAN(graph, keep=False) is not None)


def apply(name, *args, **attrs):
    """Runs or stages op ``name``; returns a tensor, a tuple of tensors, or None."""
    op = OPS[name]
    graph = current_graph()
    if graph is None:
        out = op.eager(*[_eager_input(a) for a in args], **attrs)
        if op.view and any(_mutable(a) for a in args):  # (`w[0]` of an ag.Variable: its
            out = np.array(out)  # value now, as TensorFlow's, not a view `assign` changes)
        result = wrap(out)
        for tape in RECORDERS:
            tape.record(op, args, attrs, result)
        return result
    loc = errors.user_location()
    if any(type(a) is int for a in args):
        constant = _python_int_beyond(op, name, args, loc)
        if constant is not None:
            return constant
    if op.elementwise and len(args) == 2 and any(weak_scalar(a) for a in args):
        adjusted = _weak_operand(op, name, args, attrs)
        if adjusted is not None:
            return adjusted
    checks = op.checks or (check_broadcast if op.elementwise else None)
    if checks is not None:
        checks(*args, **attrs)
    values = [as_value(graph, a) for a in args]
    if name == "assert" and CHECK_PLAN is not None:
        original = attrs.pop("original", None)  # (api.check: NumPy's own exception class)
        plan = CHECK_PLAN(graph, original=original)  # (the state it hands back, failing)
        if plan is not None:
            values += plan[0]
            attrs = dict(attrs, commit=(plan[1], len(plan[0])))
    try:
        out_types = op.infer([v.type for v in values], **attrs)
    except (TypeError, ValueError, IndexError, NotImplementedError) as e:
        raise errors.with_location(_numpy_own(op, values, attrs, e), loc) from None
    node = graph.add_node(name, values, attrs, out_types, loc=loc)
    outs = [SymbolicTensor(v) for v in node.outputs]
    if op.view and isinstance(args[0], SymbolicTensor) and name != "reshape_as":
        LINK_VIEW(args[0], outs, node)  # writes through either reach both, as in NumPy
    if not outs:
        return None
    return outs[0] if len(outs) == 1 and not op.multi_output else tuple(outs)


def _sizes_may_clash(args):
    """Whether array operands' sizes known only at run time may not broadcast together."""
    shapes = [a.shape for a in args if isinstance(a, SymbolicTensor) and a.ndim]
    if len(shapes) < 2 or not any(None in s for s in shapes):
        return False
    shapes += [a.shape for a in args if isinstance(a, (EagerTensor, np.ndarray)) and a.ndim]
    for back in range(1, max(len(s) for s in shapes) + 1):
        sizes = [s[-back] for s in shapes if len(s) >= back]
        if None in sizes and len(sizes) > 1 and any(d != 1 for d in sizes):
            return True
    return False


def check_broadcast(*args, **attrs):
    """NumPy's ValueError for operands whose sizes known only at run time do not broadcast,
    as a staged check where the trace has state to hand back when it fails (partial_raise.py;
    the kernel's own run-time broadcast raises with none, losing bindings into the caller's
    objects and writes made into copies). On each axis every size is 1 or the largest."""
    if not (_sizes_may_clash(args) and check_carries_state()):
        return
    arrays = [a for a in args if isinstance(a, (Tensor, np.ndarray)) and a.ndim]
    rank = max(a.ndim for a in arrays)
    ok, pieces, values = None, ["operands could not be broadcast together with shapes "], []
    for back in range(rank, 0, -1):
        sizes = [size_of(a, a.ndim - back) if isinstance(a, SymbolicTensor) else a.shape[-back]
                 for a in arrays if a.ndim >= back]
        known = [d for d in sizes if isinstance(d, int) and d != 1]  # (one: else no trace)
        largest = known[0] if known else None
        for d in sizes:
            if not known and not isinstance(d, int):
                largest = d if largest is None else apply("maximum", largest, d)
        for d in sizes:
            if not isinstance(d, int):
                fits = apply("logical_or", apply("equal", d, 1), apply("equal", d, largest))
                ok = fits if ok is None else apply("logical_and", ok, fits)
    for a in args:
        dims = [a.shape[k] if isinstance(a, (Tensor, np.ndarray)) else None
                for k in range(np.ndim(a))]
        pieces.append("(")
        for k, d in enumerate(dims):
            if d is None:
                values.append(size_of(a, k))
                pieces.append((-1, "", "int"))
            else:
                pieces.append(str(d))
            pieces.append("," if len(dims) == 1 or k < len(dims) - 1 else "")
        pieces.append(") ")
    parts, text = [], ""
    for q in pieces:  # (adjacent texts joined)
        if isinstance(q, str):
            text += q
        else:
            parts += [text, q] if text else [q]
            text = ""
    parts.append(text)
    apply("assert", ok, *values, error="ValueError", parts=tuple(parts),
          message="operands could not be broadcast together")


def message_parts(text):
    """``parts`` of a staged check's message (ops/io.py): ``text``'s ``{}`` as int values."""
    pieces = text.split("{}")
    out = [pieces[0]]
    for piece in pieces[1:]:
        out += [(-1, "", "int"), piece]
    return tuple(out)


def check_sizes(x, axes, message):
    """The ``checks`` of an op that raises ``message`` (a ValueError) when one of ``x``'s
    ``axes`` (None: all) is empty, for the sizes known only at run time."""
    if not isinstance(x, SymbolicTensor):
        return
    axes = range(x.ndim) if axes is None else axes
    if any(x.shape[k] == 0 for k in axes):  # (NumPy's own error, on the runs reaching it)
        raise errors.numpy_error_at_user(ValueError(message))
    unknown = [k for k in axes if x.shape[k] is None]
    if unknown and check_carries_state():
        check_all([apply("greater", apply("dim", x, axis=k), 0) for k in unknown], message)


def check_all(predicates, message, error="ValueError"):
    """One staged check that every 0-d bool of ``predicates`` holds."""
    ok = predicates[0]
    for p in predicates[1:]:
        ok = apply("logical_and", ok, p)
    apply("assert", ok, error=error, message=message)


_SAMPLE_LIMIT = 1 << 20  # (elements: NumPy is asked on arrays of the inputs' shapes)


def _numpy_own(op, values, attrs, e):
    """``e``, an error the op's type inference raised while tracing, marked as NumPy's
    own (errors.numpy_error: raised by the runs that reach it, after the writes and
    bindings made before it, as Python raises it) when NumPy raises an error of its type
    on arrays of the inputs' shapes and dtypes (shapes that do not broadcast, a reshape
    that does not fit): then the user's code raises it in plain NumPy too. Our own
    refusals (what NumPy does and we do not) stay errors of the trace. A TypeError (no
    loop of the ufunc for the dtypes: `-` of a bool array, `np.bitwise_and` of floats)
    counts only when NumPy's says the same words: a refusal of ours is one too."""
    if not (isinstance(e, (ValueError, IndexError, TypeError)) and op.pure):
        return e
    samples = []
    for v in values:
        node = v.node
        if node is not None and node.op == "const":
            samples.append(node.attrs["value"])
            continue
        shape = v.type.shape
        if None in shape or int(np.prod(shape)) > _SAMPLE_LIMIT:
            return e
        samples.append(np.zeros(shape, v.type.dtype)[()])
    try:
        with np.errstate(all="ignore"):
            op.eager(*samples, **attrs)
    except type(e) as again:
        if isinstance(e, TypeError) and str(again) not in str(e):
            return e
        # (NumPy's own text, which a user's `except ValueError as e:` may read: ours had
        # no trailing space after the shapes)
        return errors.numpy_error(again.with_traceback(None))
    except Exception:  # noqa: BLE001 - another error: not the same failure
        return e
    return e


_COMPARISONS = ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")


def _python_int_beyond(op, name, args, loc):
    """A Python int beyond the range of a tensor operand's dtype (``uint8_x - 1``, ``x <
    -1``, ``int8_x > 300``, ``uint8_x / 300``; bools and floats: beyond int64). The kernel
    would cast the int into the dtype and wrap; NumPy 2 raises OverflowError, or gives the
    exact comparison, or computes in a wider type. NumPy itself is asked, on one element:
    its error is raised here (the user's line); a comparison's answer, the same for every
    element then, comes back as a constant array; a float result is computed with the int
    as a float, as NumPy does; a clip bound beyond the dtype is no bound; np.where wraps it
    into the result's dtype, as NumPy's conversion does. Anything else is refused (never
    wrapped). None: no int beyond (the usual case)."""
    tensors = [a for a in args if isinstance(a, SymbolicTensor)]
    beyond = {c for c in args if type(c) is int for t in tensors
              if not _INT_RANGE(t.dtype)[0] <= c <= _INT_RANGE(t.dtype)[1]}
    if not beyond:
        return None
    huge = sorted(c for c in beyond if not INT64_MIN <= c <= INT64_MAX)
    if huge and all(t.type.weak and not t.ndim for t in tensors):  # (Python ints both:
        # `int(x[0]) % 2**64`; NumPy's probe would say "too large to convert to C long")
        raise errors.with_location(OverflowError(
            f"Python int {huge[0]} does not fit int64, the type a staged Python int takes "
            f"(its arithmetic with a Python int known only when the function runs is not "
            f"staged)"), loc)
    sample = [np.zeros(1, a.dtype) if isinstance(a, SymbolicTensor) else a for a in args]
    try:
        with np.errstate(all="ignore"):
            probe = np.asarray(op.eager(*sample))
    except OverflowError as e:  # NumPy's own words, raised by the runs that reach it
        hint = (f" (Python int {huge[0]} does not fit int64, the type of a number the "
                f"compiled function computes, `int(x[i])` of an integer array included: "
                f"README, Python numbers)" if huge and not any(t.ndim for t in tensors)
                else "")  # (`int(a[0]) * 2**63`: session 50, CPython's words alone)
        raise errors.with_location(errors.numpy_error(OverflowError(f"{e}{hint}")),
                                   loc) from None
    except Exception:  # noqa: BLE001 - not an elementwise op: const() refuses the int
        return None
    x = tensors[0]
    if name in _COMPARISONS and x.dtype.kind in "iub":
        # (x == x is all True and x != x all False for ints: the answer, in x's shape)
        return apply("equal" if bool(probe.ravel()[0]) else "not_equal", x, x)
    if name == "clip" and x is args[0] and x.dtype.kind in "iu":
        lo, hi = _INT_RANGE(x.dtype)
        return apply(name, *[min(max(a, lo), hi) if type(a) is int else a for a in args])
    if probe.dtype.kind in "fc":
        result = apply(name, *[float(a) if type(a) is int and a in beyond else a
                               for a in args])
        if not isinstance(result, tuple) and result.dtype == probe.dtype:
            return result
    if name == "where" and probe.dtype.kind in "iu":
        # (np.where converts the int to the result's dtype as a C long: wrapped,
        # `np.where(c, u16, -1)` picks 65535; NumPy itself makes the value)
        result = apply(name, *[np.where(False, np.zeros((), probe.dtype), a)[()]
                               if type(a) is int and a in beyond else a for a in args])
        if result.dtype == probe.dtype:
            return result
    c = sorted(beyond)[0]
    holder = next(t for t in tensors  # (the operand that cannot hold it, not a condition)
                  if not _INT_RANGE(t.dtype)[0] <= c <= _INT_RANGE(t.dtype)[1])
    raise errors.with_location(NotImplementedError(
        f"{name} of the Python int {c} and a {holder.dtype} tensor, which cannot hold it, is "
        f"not staged (NumPy gives {probe.dtype}); convert the int first"), loc)


def weak_scalar(a):
    """A relaxed Python number (a weak 0-d tensor): its value is known only at run time."""
    return isinstance(a, SymbolicTensor) and a.type.weak and a.type.ndim == 0


_LOGICAL = ("logical_and", "logical_or", "logical_xor")


def _python_kind(a):
    """"i" or "f" for a Python int or float of the plain run (a relaxed one: a weak 0-d
    tensor), else None."""
    if weak_scalar(a):
        return a.dtype.kind if a.dtype.kind in "if" else None
    return {int: "i", float: "f"}.get(type(a))


def _int_float_comparison(name, args, attrs):
    """A comparison of a Python int with a Python float (`k <= limit` of a range counter
    and a float argument) is exact in Python, where NumPy rounds the int to float64 first
    (2**53 + 1 == 2.0**53). Where the rounded int differs from the float, their order is
    the exact one (rounding keeps order); where it equals it, the float is an integer and
    is compared as an int64 (2.0**63, beyond it, is above every int64). None: not such a
    pair."""
    kinds = [_python_kind(a) for a in args]
    if sorted(k or "" for k in kinds) != ["f", "i"]:
        return None
    i, f = args if kinds[0] == "i" else args[::-1]
    as_float = apply("cast", i, dtype=dtypes.float64)
    differ = apply("not_equal", as_float, f)
    top = apply("greater_equal", f, 2.0 ** 63)
    whole = apply("cast", apply("where", apply("logical_or", differ, top), 0.0, f),
                  dtype=dtypes.int64)

    def ordered(a, b):  # (in the operands' order)
        return apply(name, *((a, b) if kinds[0] == "i" else (b, a)), **attrs)
    above = bool(OPS[name].eager(*((0, 1) if kinds[0] == "i" else (1, 0))))  # (i < f)
    return apply("where", differ, ordered(as_float, f),
                 apply("where", top, above, ordered(i, whole)))


def _weak_operand(op, name, args, attrs):
    """``op`` of a relaxed Python number ``w`` and a tensor ``x`` of another dtype, where
    the kernel would cast ``w`` into ``x``'s dtype first (``int8_x + w``, ``uint64_x < w``,
    ``np.logical_and(float32_x, 1e-320)``) and wrap or round. What NumPy 2 does instead:
    a logical op takes ``w``'s own truth. With an int ``w`` beyond an integer dtype, by the
    op's result dtype: an integer result raises OverflowError (a staged check, on the runs
    where ``w`` does not fit); a comparison is exact (computed in int64, or for uint64 as
    the answer for any negative int where ``w < 0``); a float result computes with ``w`` as
    that float. None: nothing to adjust (or an op the usual path refuses)."""
    if name in _COMPARISONS:
        exact = _int_float_comparison(name, args, attrs)
        if exact is not None:
            return exact
    k = 0 if weak_scalar(args[0]) else 1
    w, x = args[k], args[1 - k]
    if isinstance(x, (np.ndarray, np.generic)):  # (`np.ones(3, np.uint8) * w`: the same)
        x = convert_to_tensor(x)
    if not isinstance(x, SymbolicTensor) or x.type.weak:
        return None
    xt = x.dtype

    def pair(a, b):  # (in the operands' order)
        return (a, b) if k == 1 else (b, a)
    if name in _LOGICAL and w.dtype.kind in "iuf":
        return apply(name, *pair(x, apply("not_equal", w, 0)), **attrs)
    if w.dtype.kind != "i" or xt.kind not in "iu" or xt == dtypes.int64:
        return None
    try:
        out = op.infer(list(pair(x.type, w.type)), **attrs)[0].dtype
    except (TypeError, ValueError, IndexError, NotImplementedError):
        return None  # (apply raises it at the user's line)
    if name in _COMPARISONS:
        if xt != dtypes.uint64:
            return apply(name, *pair(apply("cast", x, dtype=dtypes.int64),
                                     apply("cast", w, dtype=dtypes.int64)), **attrs)
        with np.errstate(all="ignore"):  # (any uint64 against any negative int: one answer)
            negative = bool(np.asarray(op.eager(*pair(np.zeros(1, xt), -1))).ravel()[0])
        exact = apply(name, *pair(x, apply("cast", w, dtype=xt)), **attrs)
        if negative:
            return apply("logical_or", apply("less", w, 0), exact)
        return apply("logical_and", apply("greater_equal", w, 0), exact)
    if out.kind in "fc":
        return apply(name, *pair(x, apply("cast", w, dtype=out)), **attrs)
    if out.kind in "iu":
        fits = within(w, *_INT_RANGE(xt))
        if fits is not True:
            apply("assert", fits, message=f"Python integer out of bounds for {xt}",
                  error="OverflowError")
        return apply(name, *pair(x, apply("cast", w, dtype=xt)), **attrs)
    return None


INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1


def within(v, lo, hi):
    """``lo <= v <= hi`` for an int64 tensor ``v``: a staged bool, or True when neither
    bound lies inside int64 (no check)."""
    low = apply("greater_equal", v, lo) if lo > INT64_MIN else True
    high = apply("less_equal", v, hi) if hi < INT64_MAX else True
    if low is True or high is True:
        return high if low is True else low
    return apply("logical_and", low, high)


def _INT_RANGE(dt):
    info = np.iinfo(dt if dt.kind in "iu" else np.int64)
    return int(info.min), int(info.max)


def size_of(x, axis):
    """``x``'s size on ``axis``: an int when known while tracing, else a 0-d tensor (the
    ``dim`` op), for compositions that work with either."""
    n = x.shape[axis]
    return n if n is not None else apply("dim", x, axis=axis)


def stage_node(name, values, attrs, out_types, regions=(), loc=None):
    """Adds a node whose types are already known (control flow builds these)."""
    graph = current_graph()
    node = graph.add_node(name, values, attrs, out_types, regions,
                          loc or errors.user_location())
    return [SymbolicTensor(v) for v in node.outputs]

