"""Region ops: ``cond`` (two branch Graphs) and ``while_loop`` (cond and body Graphs).

Regions read outer Values directly; a while region's inputs are the loop variables. The
tracing side (types, casts, shape relaxation, error messages) lives in control.py.
"""
from .registry import defop


def _cond_eager(pred, regions):
    return tuple((regions[0] if bool(pred) else regions[1])())


def _emit_region_outputs(em, region, names):
    before = len(em.lines)
    em.emit_graph(region)
    for name, v in zip(names, region.outputs):
        if em.name(v) != name:
            em.line(f"{name} = {em.name(v)}")
    if len(em.lines) == before:
        em.line("pass")


def _cond_lower(em, node):
    names = [em.new(v) for v in node.outputs]
    with em.block(f"if {em.name(node.inputs[0])}:"):
        _emit_region_outputs(em, node.regions[0], names)
    with em.block("else:"):
        _emit_region_outputs(em, node.regions[1], names)


# (the cuda driver's `if` is the same Python, on a host scalar)
defop("cond", infer=None, eager=_cond_eager, lower=_cond_lower, lower_cuda=_cond_lower,
      n_regions=2, layout="branches", doc="staged if/else: runs one of two regions")


def _while_eager(*init, regions, maximum_iterations=None):
    cond, body = regions
    vals = list(init)
    while bool(cond(*vals)[0]):
        vals = body(*vals)
    return tuple(vals)


def _enter_loop(em, node):
    """Names the loop variables and binds them to their initial values, or to a copy of
    one where the body updates that variable in place and may not write its initial
    value's buffer (ownership.py decides); returns the names."""
    cond, body = node.regions
    names = [em.new(v) for v in node.outputs]
    for k, (name, init, a, b) in enumerate(zip(names, node.inputs, cond.inputs, body.inputs)):
        value = em.name(init)
        copied = em.own.entry_copy(node, k)
        em.line(f"{name} = {em.copy_of(value)}" if copied else f"{name} = {value}")
        em.alias(a, name)
        em.alias(b, name)
    return names


def _while_lower(em, node):
    cond, body = node.regions
    names = _enter_loop(em, node)
    if _rotatable(cond):
        # while c(v): v = b(v)   ->   go = c(v); while go: v' = b(v); go = c(v'); v = v'
        # The same tests in the same order, but the next test now follows the body in
        # one node sequence, so its reduction (max |d| > tol) can join the body's loop
        # nest instead of making another pass over memory (emitter._loop_group).
        from ..backends.emitter import Rebind
        em.emit_graph(cond)
        go = em.fresh("go")
        em.line(f"{go} = {em.name(cond.outputs[0])}")
        with em.block(f"while {go}:"):
            em.emit_nodes(list(body.nodes) + [Rebind(list(zip(cond.inputs, body.outputs)))]
                          + list(cond.nodes))
            _rebind_loop_vars(em, names, body)
            em.line(f"{go} = {em.name(cond.outputs[0])}")
    else:
        _test_first(em, cond, body, names)


def _test_first(em, cond, body, names):
    with em.block("while True:"):
        em.emit_graph(cond)
        em.line(f"if not {em.name(cond.outputs[0])}:")
        em.line("    break")
        em.emit_graph(body)
        _rebind_loop_vars(em, names, body)


def _while_lower_cuda(em, node):
    """The cuda driver's loop: one kernel of one thread where every loop variable is a
    scalar and the loop is device code (CudaEmitter.scalar_loop); else a Python ``while``
    on the host testing a host scalar, the loop variables' arrays staying on the device,
    updated in place there as on cpu."""
    if em.scalar_loop(node) is not False:
        return
    cond, body = node.regions
    _test_first(em, cond, body, _enter_loop(em, node))


def _rebind_loop_vars(em, names, body):
    new = [em.name(v) for v in body.outputs]
    pairs = [(n, e) for n, e in zip(names, new) if n != e]
    if pairs:
        em.line(f"{', '.join(n for n, _ in pairs)} = {', '.join(e for _, e in pairs)}")


def _rotatable(cond):
    """Whether to emit the test after the body as well (see _while_lower): only when
    it may pay (a foldable reduction over an array, e.g. a count of unconverged
    elements) and costs nothing to repeat (pure, and
    no array constants, which would become a second kernel parameter)."""
    nodes = list(cond.walk())
    return (all(n.opdef.pure for n in nodes)
            and not any(n.op == "const" and n.outputs[0].type.ndim for n in nodes)
            and any(n.opdef.fold and n.opdef.fold.applies(n) for n in cond.nodes))


defop("while_loop", infer=None, eager=_while_eager, lower=_while_lower,
      lower_cuda=_while_lower_cuda, n_regions=2,
      layout="carried",
      doc="staged while: loop variables carried through a cond and a body region")
