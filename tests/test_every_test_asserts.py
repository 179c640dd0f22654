"""Every test checks something: a test that asserts nothing passes whatever the product does.

The rule (an ast walk of tests/, no test is run): a test function (a module-level
``def test*`` in a ``test_*.py`` file, or a method of a ``class Test*``) must contain, in its
body or in functions nested in it (hypothesis' inner ``check``), at least one of
- an ``assert`` statement;
- ``pytest.raises``, ``pytest.warns`` or ``pytest.fail`` (as a call or a ``with``);
- a call of a NumPy checker (``np.testing.assert_*``, any ``assert_*`` attribute);
- a call of a *checking helper*: a function or method defined under tests/ whose own body
  satisfies this rule (found by fixpoint, so helpers of helpers count), called by the name
  it has in the test's module (defined there or imported from a module under tests/), or
  as a method (``obj.check()``) of a class defined under tests/.
Running code and relying on "it did not raise" does not count: say what must hold.
"""
import ast
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
CHECKERS = {"raises", "warns", "fail"}  # pytest.<name>


def _modules():
    out = {}
    for root, _, files in os.walk(TESTS):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(root, name)
                with open(path) as f:
                    out[path] = ast.parse(f.read(), path)
    return out


def _module_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def _functions(tree):
    """(qualified name, node) of every function and method, nested ones included."""
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((prefix + child.name, child))
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)
    visit(tree, "")
    return out


def _call_name(call):
    """(name, None) for f(...); (attr, base name or '<expression>') for base.attr(...)."""
    f = call.func
    if isinstance(f, ast.Name):
        return f.id, None
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else "<expression>"
        return f.attr, base
    return None, None


def _direct_check(node):
    for n in ast.walk(node):
        if isinstance(n, ast.Assert):
            return True
        if isinstance(n, ast.Call):
            name, base = _call_name(n)
            if base == "pytest" and name in CHECKERS:
                return True
            if name and name.startswith("assert_") and base is not None:
                return True
    return False


def _calls(node):
    return [_call_name(n) for n in ast.walk(node) if isinstance(n, ast.Call)]


def _imports(tree, module_names):
    """Names a module imports from modules under tests/: local name -> (module, name)."""
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module:
            mod = n.module.split(".")[-1]
            if mod in module_names:
                for a in n.names:
                    out[a.asname or a.name] = (mod, a.name)
    return out


def checking_functions(modules):
    """{(module name, function name)} of every function under tests/ that checks, and the
    method names of checking methods of classes under tests/. (Several files may share a
    module name, the conftest.py files: each file resolves its own imports.)"""
    entries = [(p, _module_name(p), q, node) for p, tree in modules.items()
               for q, node in _functions(tree)]
    names = {_module_name(p) for p in modules}
    imports = {p: _imports(tree, names) for p, tree in modules.items()}
    checking = {(mod, q) for _, mod, q, node in entries if _direct_check(node)}
    while True:
        methods = {q.rsplit(".", 1)[-1] for (_, q) in checking if "." in q}
        grown = set(checking)
        for path, mod, q, node in entries:
            if (mod, q) in grown:
                continue
            for name, base in _calls(node):
                target = imports[path].get(name, (mod, name)) if base is None else None
                if (target in checking or (base is not None and name in methods)
                        or (base in names and (base, name) in checking)):
                    grown.add((mod, q))
                    break
        if grown == checking:
            return checking, methods
        checking = grown


def _is_test(qualname):
    parts = qualname.split(".")
    return (parts[-1].startswith("test") and
            (len(parts) == 1 or (len(parts) == 2 and parts[0].startswith("Test"))))


def test_every_test_function_checks_something():
    modules = _modules()
    checking, _ = checking_functions(modules)
    tests = [(_module_name(p), q, node.lineno, p) for p, tree in modules.items()
             if os.path.basename(p).startswith("test_") for q, node in _functions(tree)
             if _is_test(q)]
    assert len(tests) > 300, "the walk found too few tests: is it looking in tests/?"
    silent = [f"{os.path.relpath(p, TESTS)}:{line} {q}" for mod, q, line, p in tests
              if (mod, q) not in checking]
    assert not silent, "tests that check nothing:\n" + "\n".join(silent)


def test_the_rule_sees_each_kind_of_check():
    src = '''
from differential import agree
import pytest

def helper(x):
    assert x

def indirect(x):
    helper(x)

def quiet(x):
    return x

def test_assert(): assert 1
def test_raises():
    with pytest.raises(ValueError): int("x")
def test_numpy(): np.testing.assert_equal(1, 1)
def test_helper(): indirect(1)
def test_imported(): agree(len, [1])
def test_method(): explored.check()
def test_silent(): quiet(1)
def test_silent_nested():
    def test_inner(): quiet(2)
    test_inner()
'''
    fake = os.path.join(TESTS, "test_fake_module.py")
    modules = {fake: ast.parse(src), os.path.join(TESTS, "differential.py"): ast.parse(
        "def agree(f, x):\n    assert f(x)\n"),
        os.path.join(TESTS, "ops_strategies.py"): ast.parse(
        "class Explored:\n    def check(self):\n        assert self\n")}
    checking, _ = checking_functions(modules)
    found = {q for m, q in checking if m == "test_fake_module" and q.startswith("test")}
    assert found == {"test_assert", "test_raises", "test_numpy", "test_helper",
                     "test_imported", "test_method"}
