"""The package's modules import each other without a circle (issue 12): read from the
source, every `import`/`from ... import` of one package module by another is an edge, and
the graph has no cycle, counting the imports inside functions too (the core reaches
AutoGraph only that way, on first use, and AutoGraph's runtime imports the core's modules;
mutation.py is a layer above ops/dispatch.py, which it installs its hooks on)."""
import ast
from pathlib import Path

import autograph_lite

ROOT = Path(autograph_lite.__file__).resolve().parent


def _modules():
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path
    return mods


def _targets(mods, name, node):
    package = name if mods[name].name == "__init__.py" else name.rsplit(".", 1)[0]
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = package
    for _ in range(max(node.level - 1, 0)):
        base = base.rsplit(".", 1)[0]
    target = (base + "." + node.module if node.module else base) if node.level else node.module
    return [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target
            for a in node.names]


def _edges(inside_functions=False):
    mods = _modules()
    edges = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text())
        nodes = ast.walk(tree) if inside_functions else tree.body
        edges[name] = {t for node in nodes if isinstance(node, (ast.Import, ast.ImportFrom))
                       for t in _targets(mods, name, node) if t in mods and t != name}
    return edges


def _circles(edges):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return set(out)


def test_no_module_imports_another_in_a_circle():
    edges = _edges()
    assert len(edges) > 50 and edges["autograph_lite.function"]  # (the reader works)
    circles = _circles(edges)
    assert not circles, [sorted(c) for c in circles]


def test_imports_inside_functions_make_no_circle_either():
    circles = _circles(_edges(inside_functions=True))
    assert not circles, [sorted(c) for c in circles]


def test_the_reader_finds_a_circle_when_there_is_one():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {
        frozenset("abc")}
    assert _circles({"a": {"b"}, "b": set()}) == set()
