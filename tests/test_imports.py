"""The package's modules import each other without a circle (issue 12): read from the
source, every module-level `import`/`from ... import` of one package module by another is
an edge, and the graph must have no cycle. (Imports inside functions, which several
modules still use to reach layers above them, are not counted yet: see the README.)"""
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


def _edges():
    mods = _modules()
    edges = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text())
        edges[name] = {t for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
                       for t in _targets(mods, name, node) if t in mods and t != name}
    return edges


def _a_cycle(edges):
    """One import circle as a list of modules, or None."""
    state = {}

    def visit(v, path):
        state[v] = "open"
        for w in sorted(edges[v]):
            if state.get(w) == "open":
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w, path + [w])
                if found:
                    return found
        state[v] = "done"
        return None

    for v in sorted(edges):
        if v not in state:
            found = visit(v, [v])
            if found:
                return found
    return None


def test_no_module_imports_another_in_a_circle():
    edges = _edges()
    assert len(edges) > 50 and edges["autograph_lite.function"]  # (the reader works)
    cycle = _a_cycle(edges)
    assert cycle is None, " -> ".join(cycle)


def test_the_reader_finds_a_circle_when_there_is_one():
    assert _a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _a_cycle({"a": {"b"}, "b": set()}) is None
