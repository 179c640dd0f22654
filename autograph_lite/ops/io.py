"""Ops with side effects on the outside world: ag.print, staged asserts, const."""
import numpy as np

from ..tensor import type_of_constant
from .registry import defop


def _lower_const(em, node):
    value = node.attrs["value"]
    t = node.outputs[0].type
    if t.ndim == 0:
        em.alias(node.outputs[0], em.lit(value, t.dtype))
        return None
    p = em.fresh(f"c{len(em.const_params)}")
    em.const_params.append((p, np.ascontiguousarray(value)))
    em.alias(node.outputs[0], p)
    em.borrowed.add(node.outputs[0].id)
    return None


defop("const", infer=lambda in_types, value: [type_of_constant(value)],
      eager=lambda value: value, lower=_lower_const, differentiable=False,
      doc="a constant baked into the graph (non-scalars are passed to the kernel)")


def _print_eager(*args, sep=" ", end="\n"):
    print(*[np.asarray(a) for a in args], sep=sep, end=end)


def _print_lower(em, node):
    # Inside objmode scalars become Python numbers: re-type them so they print as NumPy does.
    names = ", ".join(f"{em.dt(v.type.dtype)}({em.name(v)})" if v.type.ndim == 0
                      else em.name(v) for v in node.inputs)
    sep, end = node.attrs.get("sep", " "), node.attrs.get("end", "\n")
    with em.block("with numba.objmode():"):
        em.line(f"print({names}{',' if names else ''} sep={sep!r}, end={end!r})")


defop("print", infer=lambda in_types, sep=" ", end="\n": [], eager=_print_eager,
      lower=_print_lower, side_effects=True, differentiable=False,
      doc="ag.print: prints its tensors on every call")


def _assert_eager(pred, message="assertion failed"):
    if not bool(np.all(pred)):
        raise AssertionError(message)


def _assert_lower(em, node):
    with em.block(f"if not {em.name(node.inputs[0])}:"):
        em.line(f"raise AssertionError({node.attrs.get('message', 'assertion failed')!r})")


def _assert_infer(in_types, message="assertion failed"):
    if in_types[0].ndim:
        raise ValueError("ag.assert_ needs a scalar predicate; use ag.reduce_all(pred)")
    return []


defop("assert", infer=_assert_infer, eager=_assert_eager, lower=_assert_lower,
      side_effects=True, differentiable=False, doc="staged assert: checked on every call")
