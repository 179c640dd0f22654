"""Device annotations (SPEC §2): ``with ag.device(...)`` places the nodes traced in its block.

Each placement check reads the expected device of every node from a tag on the source line
that made it (``# @cuda``, ``# @cpu``; an untagged line: unplaced), so the tests say exactly
which nodes a scope covers, in straight-line code and in branches and loops that AutoGraph
stages from plain Python. The cpu backend and the interpreter ignore placement: results
agree with plain Python (differential.py) and the cpu kernel is the same with or without an
annotation.
"""
import inspect
import re
import threading

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.ir.graph import Graph
from autograph_lite.ir.passes import optimize
from autograph_lite.ir.types import TensorType
from autograph_lite.tensor import SymbolicTensor
from autograph_lite.trace.context import current_device, graph_scope
from differential import agree
from gradients.gradcheck import check


def _tags(fn):
    """{line number: "cpu", "cuda", "mixed" (not checked) or None} over ``fn``'s source,
    from its ``# @`` tags."""
    lines, first = inspect.getsourcelines(fn)
    out = {}
    for k, text in enumerate(lines):
        tag = re.search(r"# @(cpu|cuda|mixed)\b", text)
        out[first + k] = tag.group(1) if tag else None
    return out


def _node_lines(graph):
    """The printed graph's node lines, in ``graph.walk()`` order."""
    return [line for line in str(graph).splitlines()
            if not (line.endswith("{") or line.strip() == "}" or "[...] =" in line
                    or line.strip().startswith("return ("))]


def check_placements(fn, *args, also=()):
    """Traces ``fn`` and checks every node it made: placed as its source line's tag says
    (``fn``'s or that of the functions ``also`` it calls), printed with ``@device`` exactly
    when placed, and every tagged line made a node. Returns the graph."""
    graph = ag.defun(fn).get_concrete_function(*args).graph
    want, path = {}, inspect.getsourcefile(fn)
    for f in (fn, *also):
        want.update(_tags(f))
    seen = set()
    nodes = list(graph.walk())
    for node in nodes:
        if node.loc is not None and node.loc.rsplit(":", 1)[0] == path:
            line = int(node.loc.rsplit(":", 1)[1])
            seen.add(line)
            assert want[line] == "mixed" or node.device == want[line], (
                f"{node.op} at line {line} is placed on {node.device}, the tag says "
                f"{want[line]}:\n{graph}")
    assert {line for line, d in want.items() if d} <= seen, f"a tagged line made no node:\n{graph}"
    printed = _node_lines(graph)
    assert len(printed) == len(nodes)
    for node, line in zip(nodes, printed):
        shown = re.search(r" @(\w+)(  #|$)", line)
        assert (shown.group(1) if shown else None) == node.device, line
    return graph


# --- names -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, canonical", [
    ("cpu", "cpu"), ("cuda", "cuda"), ("gpu", "cuda"), ("/cpu:0", "cpu"), ("/gpu:0", "cuda"),
    ("/device:GPU:0", "cuda"), ("CPU:0", "cpu"), ("GPU", "cuda"), ("/device:cpu:0", "cpu"),
    ("CUDA:0", "cuda"), (None, None)])
def test_device_names_are_normalised(name, canonical):
    with ag.device("cpu" if canonical is None else "cuda"):  # (None must clear this one)
        with ag.device(name):
            assert current_device() == canonical
    assert current_device() is None


@pytest.mark.parametrize("name", ["tpu", "/gpu:1", "", "cuda:0:0", "/job:a/cpu:0", 0, b"cpu"])
def test_other_names_raise_value_error_naming_the_argument(name):
    with pytest.raises(ValueError) as info:
        ag.device(name)
    message = str(info.value)
    assert "device_name" in message and f"got {name!r}" in message
    assert "'cpu', 'cuda'" in message and "'/gpu:0'" in message and "None" in message


def test_nested_scopes_innermost_wins_and_restores():
    with ag.device("cuda"):
        with ag.device("cpu"):
            assert current_device() == "cpu"
            with ag.device(None):
                assert current_device() is None
            assert current_device() == "cpu"
        assert current_device() == "cuda"
    assert current_device() is None


def test_a_scope_is_restored_when_its_block_raises():
    with pytest.raises(KeyError):
        with ag.device("cuda"):
            raise KeyError("x")
    assert current_device() is None


# --- which nodes a scope places ----------------------------------------------------------

def straight(x, y):
    a = x + y
    with ag.device("cuda"):
        b = a * y  # @cuda
        with ag.device("/cpu:0"):
            c = b - x  # @cpu
        d = np.sqrt(c * c)  # @cuda
        with ag.device(None):
            e = d + a
    return e / y


def test_straight_line_nodes_take_the_innermost_scope():
    x, y = np.arange(4.0), np.full(4, 2.0)
    graph = check_placements(straight, x, y)
    assert {n.device for n in graph.walk()} == {None, "cpu", "cuda"}
    agree(straight, x, y)


def test_the_printed_form_of_a_placed_node():
    x, y = np.arange(4.0), np.full(4, 2.0)
    text = str(ag.defun(straight).get_concrete_function(x, y).graph)
    line = next(t for t in text.splitlines() if "= multiply(%2, %y)" in t)
    assert re.fullmatch(r"  %3: float64\[4\] = multiply\(%2, %y\) @cuda  # .*test_device\.py:\d+",
                        line), line
    unplaced = next(t for t in text.splitlines() if "= add(%x, %y)" in t)
    assert "@" not in unplaced.split("  #")[0]


def staged_if(x):
    with ag.device("cuda"):
        if np.sum(x) > 0:  # @cuda
            y = x * 2.0  # @cuda
        else:
            with ag.device("cpu"):
                y = x - 1.0  # @cpu
    return y + 1.0


def scope_in_one_branch(x):
    if np.sum(x) > 0:
        with ag.device("gpu"):
            y = x * 2.0  # @cuda
    else:
        y = x - 1.0
    z = y + 1.0
    return z


@pytest.mark.parametrize("fn", [staged_if, scope_in_one_branch])
def test_nodes_in_staged_branches(fn):
    x = np.array([1.0, -3.0, 0.5])
    graph = check_placements(fn, x)
    cond = next(n for n in graph.walk() if n.op == "cond")
    assert len(cond.regions) == 2 and all(r.nodes for r in cond.regions)
    agree(fn, x)
    agree(fn, -x)


def staged_loops(x, n):
    s = x * 0.0
    with ag.device("cuda"):
        for i in range(n):  # @cuda
            s = s + x * i  # @cuda
    while np.sum(s) > 1.0:
        with ag.device("/device:GPU:0"):
            s = s / 2.0  # @cuda
        s = s - 0.125
    return s


def test_nodes_in_staged_loops():
    x, n = np.array([1.0, 2.0, 0.5]), np.int64(4)
    graph = check_placements(staged_loops, x, n)
    loops = [node for node in graph.walk() if node.op == "while_loop"]
    assert [node.device for node in loops] == ["cuda", None]
    agree(staged_loops, x, n)
    agree(staged_loops, x, np.int64(0))


def nested_function(x):
    with ag.device("cuda"):
        return helper(x) + 1.0  # @cuda


def helper(x):
    return x * 3.0  # @cuda


def test_a_function_called_in_a_scope_is_traced_into_it():
    x = np.arange(3.0)
    graph = ag.defun(nested_function).get_concrete_function(x).graph
    assert {n.op: n.device for n in graph.walk() if n.op != "const"} == {
        "multiply": "cuda", "add": "cuda"}
    agree(nested_function, x)


# --- placement changes nothing on the cpu backend and the interpreter --------------------

def placed_as(x, y, device):
    a = x * 2.0
    with ag.device(device):
        b = x * 2.0  # the same as `a`: merged on cpu whatever the placement
        c = np.sin(b) + y
        if np.sum(c) > 0:
            c = c * a
    return a + c


def test_cpu_kernel_source_is_the_same_with_and_without_an_annotation():
    f = ag.defun(placed_as)
    x, y = np.arange(3.0), np.ones(3)
    plain = f.get_concrete_function(x, y, None)
    for device in ("cuda", "cpu"):
        placed = f.get_concrete_function(x, y, device)
        assert any(n.device == device for n in placed.graph.walk())
        assert placed.source == plain.source
    assert not any(n.device for n in plain.graph.walk())


@pytest.mark.parametrize("device", [None, "cpu", "cuda"])
def test_placed_and_unplaced_results_agree_with_python(device):
    agree(placed_as, np.arange(3.0), np.array([1.0, -5.0, 2.0]), device)


def test_eager_ops_in_a_scope_run_on_numpy():
    with ag.device("cuda"):
        t = ag.constant([1.0, 2.0]) * 3.0
    assert isinstance(t, ag.Tensor) and t.numpy().tolist() == [3.0, 6.0]


def doubled(x):
    return x * 2.0


def test_a_trace_made_from_an_eager_scope_is_unplaced_and_shared():
    f = ag.defun(doubled)
    with ag.device("cuda"):
        first = f(np.arange(3.0))
    graph = f.get_concrete_function(np.arange(3.0)).graph
    assert not any(n.device for n in graph.walk())
    assert f(np.arange(3.0)).numpy().tolist() == first.numpy().tolist() == [0.0, 2.0, 4.0]
    assert f.experimental_get_tracing_count() == 1


# --- passes ------------------------------------------------------------------------------

def _two_placed_products(placement):
    """A graph computing ``x * 2.0`` unplaced and again on cuda, optimized."""
    graph = Graph("g")
    x = SymbolicTensor(graph.add_input(TensorType(np.dtype(np.float64), (3,))))
    with graph_scope(graph):
        a = x * 2.0
        with ag.device("cuda"):
            b = x * 2.0
            c = x * 2.0
    graph.outputs = [a._value, b._value, c._value]
    return optimize(graph, placement=placement)


def test_cse_keeps_differently_placed_equal_nodes_apart():
    graph = _two_placed_products(placement=True)
    products = [n for n in graph.nodes if n.op == "multiply"]
    assert [n.device for n in products] == [None, "cuda"]  # the two cuda ones merged
    assert graph.outputs[1] is graph.outputs[2] is not graph.outputs[0]
    consts = [n for n in graph.nodes if n.op == "const"]
    assert sorted(map(str, (n.device for n in consts))) == ["None", "cuda"]


def test_cse_merges_across_devices_where_placement_is_ignored():
    graph = _two_placed_products(placement=False)
    assert [n.device for n in graph.nodes if n.op == "multiply"] == [None]
    assert graph.outputs[0] is graph.outputs[1] is graph.outputs[2]


def folded(x):
    with ag.device("cuda"):
        k = ag.constant(3.0) * 4.0  # @cuda (folded into a const)
        return x + k  # @cuda


def test_constant_folding_keeps_the_device():
    graph = check_placements(folded, np.arange(2.0))
    assert [(n.op, n.device) for n in graph.nodes] == [("const", "cuda"), ("add", "cuda")]
    assert graph.nodes[0].attrs["value"] == 12.0
    agree(folded, np.arange(2.0))


# --- gradients ---------------------------------------------------------------------------

def sin_grad(x):
    with ag.device("cuda"):
        y = np.sin(x) * x
    return ag.gradients(np.sum(y), x)[0]


@pytest.mark.parametrize("backend", ["interpreter", "cpu"])
def test_a_placed_nodes_gradient_is_placed_with_it(backend):
    f = ag.defun(sin_grad, backend=backend)
    x = np.array([0.5, 1.0, -2.0])
    graph = f.get_concrete_function(x).graph
    assert {n.device for n in graph.walk() if n.op == "cos"} == {"cuda"}
    assert any(n.device is None for n in graph.walk() if n.op != "const")  # np.sum's
    np.testing.assert_allclose(f(x).numpy(), np.cos(x) * x + np.sin(x))


def sin_power(x, n):
    with ag.device("cuda"):
        y = x
        for _ in range(n):  # @cuda
            with ag.device("cpu"):
                y = np.sin(y) * x  # @cpu
    return np.sum(y)


def sin_power_grad(x, n):
    return ag.gradients(sin_power(x, n), x)[0]  # @mixed


def test_a_placed_loops_gradient_replays_it_where_it_was_placed():
    x, n = np.array([0.5, 1.5, -1.0]), np.int64(3)
    # (the replays keep their lines: sin is replayed to differentiate the product)
    graph = check_placements(sin_power_grad, x, n, also=[sin_power])
    loops = [node for node in graph.walk() if node.op == "while_loop"]
    assert len(loops) == 2 and {node.device for node in loops} == {"cuda"}  # fwd, backward
    sines = [m for m in loops[1].regions[1].walk() if m.op == "sin"]
    assert sines and {m.device for m in sines} == {"cpu"}
    check(sin_power, x, n)


def grads_in_a_scope(x):
    y = np.sum(x * x)
    with ag.device("cuda"):
        g = ag.gradients(y, x)[0]  # @cuda
    return y, g


def test_gradients_of_unplaced_nodes_follow_the_scope_they_are_built_in():
    x = np.arange(3.0)
    graph = check_placements(grads_in_a_scope, x)
    products = [n.device for n in graph.nodes if n.op == "multiply"]  # x * x, then its grad
    assert products == [None, "cuda"]
    y, g = ag.defun(grads_in_a_scope)(x)
    assert float(y) == 5.0
    np.testing.assert_allclose(g.numpy(), 2 * x)


# --- threads -----------------------------------------------------------------------------

def test_threads_do_not_see_each_others_scopes():
    entered, traced = threading.Event(), threading.Event()
    graphs, errors = {}, []

    def placed(x):
        with ag.device("cuda"):
            y = x * 2.0
            entered.set()  # (Python at trace time: the other thread traces meanwhile)
            traced.wait(30)
            return y + 1.0

    def unplaced(x):
        return np.sin(x) - 1.0

    def run(name, fn, before=None, after=None):
        try:
            if before is not None:
                before.wait(30)
            graphs[name] = ag.defun(fn).get_concrete_function(np.arange(3.0)).graph
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            if after is not None:
                after.set()

    threads = [threading.Thread(target=run, args=("placed", placed)),
               threading.Thread(target=run, args=("unplaced", unplaced, entered, traced))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and set(graphs) == {"placed", "unplaced"}
    assert {n.device for n in graphs["placed"].walk()} == {"cuda"}
    assert {n.device for n in graphs["unplaced"].walk()} == {None}
    assert current_device() is None
