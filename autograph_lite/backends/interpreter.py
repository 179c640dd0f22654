"""The reference backend: runs any Graph op by op with each op's NumPy kernel.

It checks every result against the type the Graph promised (dtype and known dims), so a
disagreement between an op's ``infer`` and its ``eager`` kernel shows up here first.
"""
import threading
import weakref

import numpy as np

from .. import errors
from ..ops.check_errors import Partial
from ..ops.io import located_message


class InterpreterError(AssertionError):
    pass


class _Versions(threading.local):
    """While ``run_function`` runs a graph that writes arguments: the graph's
    ``input_versions`` and, per written input, the latest version computed so far."""
    table = None
    latest = None


_versions = _Versions()


def run_graph(graph, args, env=None):
    """Runs ``graph`` on NumPy values ``args``; returns the list of output values."""
    env = {} if env is None else env
    table, latest = _versions.table, _versions.latest
    for v, a in zip(graph.inputs, args):
        # a weak input (a relaxed Python-scalar argument) is a Python scalar, as _check
        # keeps weak results, so NumPy promotes it weakly
        env[v.id] = a.item() if v.type.weak and isinstance(a, np.generic) else a
        if table and v.id in table:
            latest[table[v.id]] = a
    for node in graph.nodes:
        ins = [env[v.id] for v in node.inputs]
        attrs = dict(node.attrs)
        if node.regions:
            attrs["regions"] = [region_fn(r, env) for r in node.regions]
        for v, r in zip(node.outputs, run_node(node, ins, attrs)):
            env[v.id] = r
            if table and v.id in table:
                latest[table[v.id]] = r
    return [env[v.id] for v in graph.outputs]


def run_node(node, ins, attrs):
    """``node``'s NumPy kernel on the values ``ins``: its results, a tuple, each checked
    against the Graph's type; an error at the node's line (the cuda backend's host
    fallback runs nodes with this too)."""
    try:
        res = node.opdef.eager(*ins, **attrs)
    except Exception as e:
        if node.regions:  # raised by a node of the region, which named its own line
            raise
        if isinstance(e, Partial):  # (a check with its state: the same kind)
            e.args = (located_message(node, e.args[0]),) + e.args[1:]
            raise
        raise errors.with_location(e, node.loc) from None
    outs = res if isinstance(res, tuple) else (() if res is None else (res,))
    if len(outs) != len(node.outputs):
        raise InterpreterError(f"op {node.op} returned {len(outs)} values, graph expects "
                               f"{len(node.outputs)}")
    return tuple(_check(node, v, r) for v, r in zip(node.outputs, outs))


def run_function(graph, args):
    """Runs a kernel's Graph as one call: its outputs, after each NumPy-array argument the
    function writes (``graph.input_updates``) has received its final contents, as
    NumPy's own writes would have left it. Outputs that share memory with a written
    argument are copied first: they hold the values the graph computed.

    A run that raises part-way leaves each written argument holding what the plain run
    had written into it before the error (its latest version computed,
    ``graph.input_versions``), then passes the error on; a failed check carrying its
    state (partial_raise.py) leaves them to the call, which stores that state."""
    env = {}
    if not graph.input_updates:
        return _own_copies(graph, run_graph(graph, args, env), args)
    outer = _versions.table, _versions.latest
    _versions.table, _versions.latest = graph.input_versions, {}
    try:
        outs = run_graph(graph, args, env)
    except Partial:
        raise  # (a failed check's state is its plan's: a version computed early, e.g. the
        # `ob.w * 0.5` of `if (ob.w * 0.5)[1] > 0: raise ...; ob.w *= 0.5`, is not yet written)
    except BaseException as e:
        if not getattr(e, "ag_check", False):  # (a failed check with no state: none written)
            for i, value in _versions.latest.items():
                if value is not args[i]:
                    args[i][...] = value
        raise
    finally:
        _versions.table, _versions.latest = outer
    outs = _own_copies(graph, outs, args)  # (before the write-backs change them)
    for i, final in graph.input_updates:
        value = env[final.id]
        if value is not args[i]:
            args[i][...] = value
    return outs


def _own_copies(graph, outs, args):
    """``outs`` where each array that shares memory with an argument or a constant of the
    graph (the array its ``const`` node holds for every call: `buf = np.zeros(3); return
    buf`, a global returned, a branch that hands it on) is a copy, one per array: a
    caller writing into the result would otherwise write into the constant, and every
    later call would return what it wrote (session 53's probe), and the results of cpu's
    kernel are copies of the arguments they alias too (session 55's probe: `return x`
    was the argument itself here)."""
    shared = _constant_arrays(graph) + [a for a in args if isinstance(a, np.ndarray)]
    if not shared:
        return outs
    copies = {}
    return [copies.setdefault(id(o), np.array(o)) if isinstance(o, np.ndarray)
            and any(np.may_share_memory(o, c) for c in shared) else o for o in outs]


_CONSTANTS = weakref.WeakKeyDictionary()  # graph -> its constant arrays, regions' too


def _constant_arrays(graph):
    found = _CONSTANTS.get(graph)
    if found is None:
        found = []
        stack = [graph]
        while stack:
            g = stack.pop()
            for node in g.nodes:
                value = node.attrs.get("value") if node.op == "const" else None
                if isinstance(value, np.ndarray) and value.ndim:
                    found.append(value)
                stack.extend(node.regions)
        _CONSTANTS[graph] = found
    return found


def region_fn(region, env):
    """A region as a callable of its inputs, reading outer values from ``env`` (id ->
    value)."""
    def run(*args):
        return run_graph(region, args, dict(env))
    return run


def _check(node, value, result):
    if value.type.weak and type(result) in (bool, int, float, complex):
        # a weak literal stays a Python scalar, so NumPy promotes it weakly (not an
        # np.float64, which is a float but promotes strongly: f32 * np.float64 is f64)
        return result
    if not isinstance(result, (np.ndarray, np.generic)):
        result = np.asarray(result)[()]
    t = value.type
    if result.dtype != t.dtype or result.ndim != t.ndim or any(
            d is not None and d != s for d, s in zip(t.shape, result.shape)):
        raise InterpreterError(
            f"op {node.op} at {node.loc} produced {result.dtype}{list(result.shape)} but the "
            f"graph expects {t}")
    if t.weak and not t.ndim:
        # a weak value computed by NumPy (`len(x) // 2`: an np.int64) is the Python number
        # it stands for, or the next op would promote it strongly (f32 * np.int64: f64)
        return result.item()
    return result
