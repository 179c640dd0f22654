"""Ops with side effects on the outside world: ag.print, staged asserts, const."""
import sys

import numpy as np

from ..ir import bounds
from ..tensor import type_of_constant
from .callback import CALLBACK_OPS
from .check_errors import CHECK_ERRORS, PARTIAL  # noqa: F401 - (io.CHECK_ERRORS: others')
from .index_spec import expand_spec
from .registry import defop


def _lower_const(em, node):
    value = node.attrs["value"]
    t = node.outputs[0].type
    if t.ndim == 0:
        em.alias(node.outputs[0], em.lit(value, t.dtype))
        return None
    p = em.fresh(f"c{len(em.const_params)}")
    em.const_params.append((p, np.ascontiguousarray(value)))
    em.alias(node.outputs[0], p)  # shared by every call: never written (ownership.py)
    return None


defop("const", infer=lambda in_types, value: [type_of_constant(value)],
      eager=lambda value: value, lower=_lower_const, differentiable=False,
      doc="a constant baked into the graph (non-scalars are passed to the kernel)")


def _pieces(args, parts, staged=None):
    """The printed items: `parts` holds static text, None where the next tensor goes, and
    for an f-string of tensors a tuple of its pieces (text, or (conversion, spec, Python
    type) where the next tensor goes), joined by ``staged(pieces)``."""
    if parts is None:
        return list(args)
    it = iter(args)
    out = []
    for p in parts:
        if p is None:
            out.append(next(it))
        elif isinstance(p, tuple):
            out.append(staged([q if isinstance(q, str) else (next(it),) + q for q in p]))
        else:
            out.append(p)
    return out


def _join_now(pieces):
    from ..backends.cpu_runtime import render  # (importing the ops imports no Numba)
    return "".join(q if isinstance(q, str) else render(np.asarray(q[0])[()], *q[1:])
                   for q in pieces)


def _print_eager(*args, sep=" ", end="\n", parts=None, stream="stdout", flush=False):
    print(*[a if isinstance(a, str) else np.asarray(a) for a in _pieces(args, parts, _join_now)],
          sep=sep, end=end, file=getattr(sys, stream), flush=flush)


def _objmode_names(em, values):
    """The kernel's names of ``values`` for an objmode block, where scalars become Python
    numbers: re-typed, so they print as NumPy's do."""
    return [f"{em.dt(v.type.dtype)}({em.name(v)})" if v.type.ndim == 0 else em.name(v)
            for v in values]


def _join_later(pieces):
    """The code of an f-string's text, made in objmode as Python makes it."""
    return '"".join([' + ", ".join(
        repr(q) if isinstance(q, str) else f"rt.render({q[0]}, {q[1]!r}, {q[2]!r}, "
                                          f"{q[3]!r})" for q in pieces) + "])"


def _print_lower(em, node):
    names = _objmode_names(em, node.inputs)
    parts = node.attrs.get("parts") or [None] * len(names)
    items = ", ".join(_pieces(names, [p if p is None or isinstance(p, tuple) else repr(p)
                                      for p in parts], _join_later))
    sep, end = node.attrs.get("sep", " "), node.attrs.get("end", "\n")
    stream, flush = node.attrs.get("stream", "stdout"), node.attrs.get("flush", False)
    em.objmode([em.name(v) for v in node.inputs], [],
               [f"print({items}{',' if items else ''} sep={sep!r}, end={end!r}"
                + (f", file=rt.stream({stream!r}), flush={flush!r})"
                   if (stream, flush) != ("stdout", False) else ")")])


defop("print", infer=lambda in_types, sep=" ", end="\n", parts=None, stream="stdout",
      flush=False: [], eager=_print_eager,
      lower=_print_lower, side_effects=True, differentiable=False,
      doc="ag.print: prints its tensors (and static text) on every call")


# What a compiled function may raise when it runs: its checks, the kernels' own (a shape
# that does not broadcast, a failed reshape: ValueError; np.linalg's LinAlgError), and a
# callback anything (converters/exceptions.py refuses a `try` catching these around them)
RUNTIME_ERRORS = (AssertionError, UnboundLocalError, NameError, ZeroDivisionError, ValueError,
                  OverflowError, IndexError, NotImplementedError, np.linalg.LinAlgError)


def may_raise(node):
    """The exceptions ``node`` may raise when the kernel runs: a set of classes out of
    RUNTIME_ERRORS, {BaseException} for a callback (anything). Errs on the side of more:
    constants and prints raise nothing, elementwise ops only a ValueError where their
    operands may not broadcast for every size the signature allows, indexing IndexError
    and ValueError, a check its own error, a branch or loop what its ops raise."""
    if node.op in CALLBACK_OPS:  # (ops/callback.py)
        return {BaseException}
    if node.regions:
        return set().union(*(may_raise(n) for g in node.regions for n in g.nodes))
    if node.op in ("const", "print", "bounds_ok"):
        return set()
    if node.op == "assert" and bounds.proves(node.inputs[0]):
        return set()  # (a check the graph proves, which dce.py drops: ir/bounds.py)
    if node.op == "assert":
        return {CHECK_ERRORS[node.attrs.get("error", "AssertionError")]}
    if node.op == "getitem" and not indexed_at_run_time(node):
        return set()  # (a basic index of known sizes: checked while tracing)
    if node.op == "setitem" and not indexed_at_run_time(node) and not any(
            None in v.type.shape for v in node.inputs[:2]):
        return set()  # (and the value's shape known to fit: checked while tracing too)
    if node.op in ("full", "empty") and None not in node.attrs["shape"]:
        return set()  # (a buffer of known sizes)
    if node.op == "getitem" and _proven_in_range(node, 1):
        return set()  # (`x[i]` under `for i in range(len(x))`: ir/bounds.py)
    if node.op == "setitem" and not node.inputs[1].type.ndim and _proven_in_range(node, 2):
        return set()
    if node.op in ("getitem", "setitem", "wrap_index"):
        return {IndexError, ValueError}
    if node.opdef.elementwise:
        return set() if _broadcasts(node.inputs) else {ValueError}
    raises = node.opdef.raises
    if raises is not None:
        return set(raises(node) if callable(raises) else raises)
    return set(RUNTIME_ERRORS)


def _proven_in_range(node, first):
    """Whether each part of the index of ``node`` (a getitem, or a setitem of one element)
    is valid on every run: a slice, an int into a size known while tracing, or a tensor int
    the graph proves in range (ir/bounds.py, as the emitter asks, ops/indexing.py); its
    tensor parts are inputs from position ``first``. (A `try` or `with` around a staged
    loop reading `x[i]` under `range(len(x))` was refused as if it might raise, session
    52's probe.)"""
    x, dim = node.inputs[0], 0
    for part in expand_spec(node.attrs["spec"], x.type.ndim):
        kind = part[0]
        if kind == "new":
            continue
        if kind in ("gather", "mask") or (kind == "int" and x.type.shape[dim] is None) or (
                kind == "tint" and not bounds.in_bounds(node.inputs[first + part[1] - 1], x,
                                                        dim)):
            return False
        dim += 1
    return True


_RUN_TIME_INDEX = ("tint", "gather", "mask")  # (index parts a run may find invalid)


def indexed_at_run_time(node):
    """Whether the index of a ``getitem``/``setitem`` ``node`` holds a part whose validity
    is known only when the kernel runs: a traced integer, an index or mask array, or an
    integer into an array of a size known only then."""
    return any(part[0] in _RUN_TIME_INDEX or (part[0] == "int"
                                               and None in node.inputs[0].type.shape)
               for part in node.attrs.get("spec", ()))


def _broadcasts(values):
    """Whether ``values`` broadcast together whatever their unknown sizes are."""
    shaped = {id(v): v.type.shape for v in values if v.type.ndim}
    if len(shaped) <= 1:
        return True
    for dims in zip(*(reversed(s) for s in shaped.values())):
        known = {d for d in dims if d != 1}
        if None in known or len(known) > 1:
            return False
    return True


def _assert_eager(pred, *values, message="assertion failed", error="AssertionError",
                  parts=None, commit=None):
    if bool(np.all(pred)):
        return
    if commit is not None:  # (the state at the check: partial_raise.py)
        values, state = values[:len(values) - commit[1]], values[len(values) - commit[1]:]
    text = _pieces(values, (parts,), _join_now)[0] if parts else message
    if commit is None:  # (no state at this point: the arguments as they were, ag_check)
        e = CHECK_ERRORS[error](text)
        e.ag_check = True
        raise e
    raise PARTIAL[error](text, commit[0], state)


def located_message(node, message):
    """`message (at file:line)`: a kernel's exception carries no location, so the user's
    line is part of the text it raises (the interpreter appends the same; ``message`` ''
    gives the suffix alone). Not of a KeyError, whose text is its key (`e.args[0]`, which
    handlers read: the key's text as Python made it; session 54)."""
    if not node.loc or node.loc in message or node.attrs.get("error") == "KeyError":
        return message
    return f"{message} (at {node.loc})"


def emit_raise(em, node, error, message):
    """The kernel line raising ``error(message)`` with the user's line in the message."""
    em.line(f"raise {error}({located_message(node, message)!r})")


def _assert_lower(em, node):
    error, parts = node.attrs.get("error", "AssertionError"), node.attrs.get("parts")
    commit = node.attrs.get("commit")
    n_state = commit[1] if commit is not None else 0
    values = node.inputs[1:len(node.inputs) - n_state]
    with em.block(f"if not {em.name(node.inputs[0])}:"):
        if not parts:
            text = repr(located_message(node, node.attrs.get("message", "assertion failed")))
        elif _plain_ints(values, parts):  # (`index {i} is out of bounds ...`: no objmode)
            it = iter(values)
            text = " + ".join(repr(q) if isinstance(q, str)
                              else f"rt.int_text({em.name(next(it))})" for q in parts)
            text += f" + {located_message(node, '')!r}"
        else:
            # a message of traced values: its text made in objmode, raised by the kernel
            text = em.fresh("message")
            em.objmode([em.name(v) for v in values], [(text, "unicode_type")],
                       [f"{text} = "
                        f"{_pieces(_objmode_names(em, values), (parts,), _join_later)[0]}"])
            text = f"{text} + {located_message(node, '')!r}"
        if commit is None or not em.carries_state:
            em.line(f"raise {error}({text})")
            return
        # the state of this point of the program goes with it (partial_raise.py)
        state = "".join(f"{em.name(v)}, " for v in node.inputs[len(node.inputs) - n_state:])
        em.line(f"raise rt.Partial_{error}({text}, {commit[0]}, ({state}))")


def _plain_ints(values, parts):
    """Whether a message's every traced piece is a 0-d integer formatted plainly as a Python
    int (``f"{i}"``): Numba's ``str`` of it is Python's text, so the kernel needs no objmode
    block (a compile of its own) to make the message."""
    pieces = [q for q in parts if not isinstance(q, str)]
    return len(pieces) == len(values) and all(
        q == (-1, "", "int") and v.type.ndim == 0 and v.type.dtype.kind in "iu"
        for q, v in zip(pieces, values))


def _assert_infer(in_types, message="assertion failed", error="AssertionError",
                  parts=None, commit=None):
    if in_types[0].ndim:
        raise ValueError("ag.assert_ needs a scalar predicate; use ag.reduce_all(pred)")
    if error not in CHECK_ERRORS:
        raise ValueError(f"a staged check raises one of {sorted(CHECK_ERRORS)}, not {error}")
    return []


defop("assert", infer=_assert_infer, eager=_assert_eager, lower=_assert_lower,
      side_effects=True, differentiable=False,
      doc="staged assert (or unset-variable check): checked on every call; `parts`: a "
          "message of traced values (its inputs after the predicate), made when it fails")
