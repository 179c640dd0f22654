"""``vectorized_map``: one region (the body, traced on one element) run for every element.

The node's inputs are the mapped tensors (sharing their first dimension ``n``); the body
Graph's inputs are one element of each (``x[i]``); the node's outputs stack the body's
results along a new first axis. The tracing side (structure, checks, conversion) lives in
autograph_lite/vectorized_map.py.

cuda lowering (backends/cuda.py ``map_kernel``): one kernel, a thread per element, when
the body is scalar device code; else the whole map runs on the host.

cpu lowering: one loop over the elements, a ``numba.prange`` (the kernel compiled with
``parallel=True``) when the body can neither raise nor call back into Python, else a
plain ``range``. Numba runs a prange body as a gufunc whose exceptions are lost: a body
whose check fails would leave garbage in the result (measured: a raising helper inside a
prange returns normally), so such bodies stay serial and raise as they do in NumPy. An
element result whose shape the trace does not know is computed for element 0 first; it
sizes the output and every other element is checked against it (a flag per element, read
after the loop, so the check does not make the loop serial).
"""
import re

import numpy as np

from .registry import defop


def _eager(*elems, regions, _results):
    """``_results``: (shape, dtype) of each element result as traced (sizes there for no
    elements: unknown ones are 0)."""
    body = regions[0]
    n = common_length([np.shape(e)[0] for e in elems])
    rows = [body(*[e[i] for e in elems]) for i in range(n)]
    if not rows:
        return tuple(np.empty((0,) + tuple(d or 0 for d in shape), dtype)
                     for shape, dtype in _results)
    outs = []
    for k in range(len(rows[0])):
        parts = [np.asarray(r[k]) for r in rows]
        if any(p.shape != parts[0].shape for p in parts):
            raise ValueError(_RAGGED)
        outs.append(np.stack(parts))
    return tuple(outs)


def common_length(lengths):
    """The mapped tensors' shared first dimension (None where none is known: a trace's
    unknown sizes are skipped); ValueError naming two that differ."""
    known = [(k, m) for k, m in enumerate(lengths) if m is not None]
    for k, m in known[1:]:
        if m != known[0][1]:
            raise ValueError(f"vectorized_map: elems[{k}] has {m} elements on its first "
                             f"axis but elems[{known[0][0]}] has {known[0][1]}; every "
                             f"tensor mapped together must have the same first dimension")
    return known[0][1] if known else None


_RAGGED = ("vectorized_map: fn returned results of different shapes for different elements; "
           "every element's result must have the same shape")


# -- cpu lowering ------------------------------------------------------------------------
# helpers of backends/cpu_runtime.py that cannot raise (see the module docstring)
_SAFE_HELPERS = {"item", "int_fmod", "left_shift", "right_shift", "heaviside", "copy",
                 "contiguous", "empty", "sign", "int_power", "int64_floor_divide", "lcm",
                 "maximum", "minimum", "fmax", "fmin", "wrap_add", "wrap_sub", "wrap_mul",
                 "f2i32", "f2i64", "f2u64"}
_HELPER = re.compile(r"\brt\.(\w+)\(")
_EMPTY_CALL = re.compile(r"\brt\.empty\(\(([^()]*)\),")
_SIZE = re.compile(r"^\s*(\w+\.shape\[\d+\]|\d+)\s*$")


def _parallel_safe(lines):
    """Whether the emitted body ``lines`` can run as a prange body: nothing that raises
    (an explicit raise, a checking helper, an allocation whose size the user computed),
    calls Python (objmode: callbacks, print) or draws random numbers (an order NumPy's
    run fixes)."""
    text = "\n".join(lines)
    if re.search(r"\braise\b|objmode|np\.random|rt\.seed|rt\.py_print", text):
        return False
    if any(h not in _SAFE_HELPERS for h in _HELPER.findall(text)):
        return False
    return all(_SIZE.match(s) for sizes in _EMPTY_CALL.findall(text)
               for s in sizes.split(",") if s.strip())


def _lower(em, node):
    body = node.regions[0]
    elems = [em.name(v) for v in node.inputs]
    n = em.fresh("n")
    em.line(f"{n} = {elems[0]}.shape[0]")
    for k, e in enumerate(elems[1:], 1):
        with em.block(f"if {e}.shape[0] != {n}:"):
            em.line(f"raise ValueError('vectorized_map: elems[{k}] and elems[0] differ in "
                    f"their first dimension')")
    outs = [em.new(v) for v in node.outputs]
    known = all(d is not None for r in body.outputs for d in r.type.shape)
    first = "0"
    if known:
        for o, r, v in zip(outs, body.outputs, node.outputs):
            em.line(f"{o} = {em.alloc([n] + [str(d) for d in r.type.shape], v.type.dtype)}")
    else:
        first = "1"
        bad = em.fresh("bad")
        em.line(f"{bad} = {em.alloc([n], np.bool_)}")
        em.line(f"{bad}[...] = False")
        with em.block(f"if {n} > 0:"):
            results = _emit_body(em, body, elems, "0")
            for o, r, v in zip(outs, results, node.outputs):
                dims = [n] + [f"{r}.shape[{j}]" for j in range(v.type.ndim - 1)]
                em.line(f"{o} = {em.alloc(dims, v.type.dtype)}")
                _store(em, o, "0", r, v.type.ndim - 1)
        with em.block("else:"):
            for o, r, v in zip(outs, body.outputs, node.outputs):
                dims = [n] + [str(d or 0) for d in r.type.shape]
                em.line(f"{o} = {em.alloc(dims, v.type.dtype)}")
    i = em.fresh("i")
    header = len(em.lines)
    em.line("")  # the loop header, once the body shows whether it may run in parallel
    start = len(em.lines)
    em.depth += 1
    results = _emit_body(em, body, elems, i)
    if known:
        for o, r, v in zip(outs, results, node.outputs):
            _store(em, o, i, r, v.type.ndim - 1)
    else:
        fits = " and ".join(f"{r}.shape[{j}] == {o}.shape[{j + 1}]"
                            for o, r, v in zip(outs, results, node.outputs)
                            for j in range(v.type.ndim - 1)) or "True"
        with em.block(f"if {fits}:"):
            for o, r, v in zip(outs, results, node.outputs):
                _store(em, o, i, r, v.type.ndim - 1)
        with em.block("else:"):
            em.line(f"{bad}[{i}] = True")
    em.depth -= 1
    parallel = _parallel_safe(em.lines[start:])
    em.parallel |= parallel
    loop = "numba.prange" if parallel else "range"
    em.lines[header] = "    " * em.depth + f"for {i} in {loop}({first}, {n}):"
    if not known:
        with em.block(f"for {i} in range({n}):"):
            with em.block(f"if {bad}[{i}]:"):
                em.line(f"raise ValueError({_RAGGED!r})")


def _emit_body(em, body, elems, i):
    """Emits ``body`` on element ``i``; returns its results' names."""
    for p, e in zip(body.inputs, elems):
        em.line(f"{em.new(p)} = {e}[{i}]")
    em.emit_graph(body)
    return [em.name(r) for r in body.outputs]


def _store(em, out, i, result, rank):
    """``out[i] = result`` as explicit loops (what Numba compiles quickly)."""
    if not rank:
        em.line(f"{out}[{i}] = {result}")
        return
    with em.loops([f"{result}.shape[{j}]" for j in range(rank)]) as idx:
        em.line(f"{out}[{i}, {', '.join(idx)}] = {result}[{', '.join(idx)}]")


defop("vectorized_map", infer=None, eager=_eager, lower=_lower, n_regions=1, layout="fresh",
      lower_cuda=lambda em, node: em.map_kernel(node),
      doc="ag.vectorized_map: a region run once per element of the mapped tensors, its "
          "results stacked")
