"""Differential test on generated programs: plain Python vs `ag.defun` (interpreter, cpu).

The corpus (programs.py) holds the combinations someone thought of; the converters and the
staged loop/branch machinery must work for every nesting of the constructs of SPEC §3.
`generate(seed)` writes a random function from a small grammar over those constructs:

- int and float variables, assigned arithmetic over variables, arguments and literals
  (`+ - * // % /`, `abs`, `min`, `max`, `float(...)`, conditional expressions);
- `if`/`elif`/`else` on comparisons joined by `and`/`or`/`not`;
- `for i in range(...)` over an argument, a variable or a Python constant (unrolled at
  trace time), `while` with a bounded counter (staged, or Python first and staged from the
  iteration where its condition turns into a tensor);
- `break`, `continue` and `return` at the end of branches, inside loops at any depth;
- `acc.append(...)` in a loop (also in its branches and inner loops, with `len(acc)` and
  `np.stack(acc)` read while it grows) followed by `np.stack(acc)`, and `out[j] = ...` /
  `out[j] += ...` on `out = np.zeros(n + 1)`.

The function is written to a module file (AutoGraph reads the source) and run as plain
Python on Python numbers (the oracle) and through `ag.defun` on NumPy scalars (so that
every condition on the arguments is staged). Results must agree in value, shape and dtype.

What the grammar avoids, because there the staged program legitimately differs from
Python, is stated where it is done: every loop is bounded (a counter caps each `while`),
int variables stay far from int64 overflow (assignments in loops are taken `% 1009`; no
`int(float)`), divisors are positive constants or `1.0 + f * f`, every variable is
defined before the first branch (SPEC §3: a variable defined in one branch of a staged
`if` only is an error), int and float variables keep their type, and float arithmetic is
only `+ - * /`, which NumPy, Numba and Python round the same way (the results are compared
bit for bit).
"""

import importlib.util
import random
import sys

import numpy as np
import pytest

import autograph_lite as ag

from .conftest import assert_exact

N_INT = 3            # v0..v2
N_FLOAT = 2          # f0..f1
INT_ARGS = ("a", "b", "n")
MOD = 1009


class Generator:
    """Writes one random program; `rng` decides every choice, so a seed names a program."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.loop_id = 0
        self.has_out = rng.random() < 0.5
        self.has_list = rng.random() < 0.5
        self.returns = rng.random() < 0.6

    # --- expressions -------------------------------------------------------------------

    def int_atom(self, scope):
        r = self.rng
        choice = r.random()
        if choice < 0.45:
            return f"v{r.randrange(N_INT)}"
        if choice < 0.65 and scope["loop_vars"]:
            return r.choice(scope["loop_vars"])
        if choice < 0.85:
            return r.choice(INT_ARGS)
        if choice < 0.9 and scope.get("in_list"):
            return "len(acc)"
        return str(r.randint(-3, 5))

    def int_expr(self, scope, depth=2):
        r = self.rng
        if depth == 0 or r.random() < 0.3:
            return self.int_atom(scope)
        kind = r.random()
        a, b = self.int_expr(scope, depth - 1), self.int_expr(scope, depth - 1)
        if kind < 0.3:
            return f"({a} + {b})"
        if kind < 0.5:
            return f"({a} - {b})"
        if kind < 0.62:
            return f"({a} * {b})"
        if kind < 0.7:
            return f"({a} // {r.randint(2, 5)})"
        if kind < 0.78:
            return f"({a} % {r.randint(2, 7)})"
        if kind < 0.83:
            return f"abs({a})"
        if kind < 0.88:
            return f"{r.choice(['min', 'max'])}({a}, {b})"
        return f"({a} if {self.cond(scope, 1)} else {b})"

    def float_atom(self, scope):
        """(text, is_float): an int atom is allowed where the other operand is a float."""
        r = self.rng
        choice = r.random()
        if choice < 0.45:
            return f"f{r.randrange(N_FLOAT)}", True
        if choice < 0.6:
            return "x", True
        if choice < 0.75:
            return f"float({self.int_atom(scope)})", True
        if choice < 0.85:
            return self.int_atom(scope), False      # an int promoted in float arithmetic
        return repr(r.choice([0.5, -1.25, 2.0, 0.75, -3.5, 1.0])), True

    def float_expr(self, scope, depth=2):
        """A float-valued expression (a float variable never takes an int: its dtype stays)."""
        text, is_float = self._float_expr(scope, depth)
        return text if is_float else f"float({text})"

    def _float_expr(self, scope, depth):
        r = self.rng
        if depth == 0 or r.random() < 0.3:
            return self.float_atom(scope)
        kind = r.random()
        (a, fa), (b, fb) = self._float_expr(scope, depth - 1), self._float_expr(scope, depth - 1)
        if kind < 0.3:
            return f"({a} + {b})", fa or fb
        if kind < 0.5:
            return f"({a} - {b})", fa or fb
        if kind < 0.7:
            return f"({a} * {b})", fa or fb
        if kind < 0.8:
            return f"({a} / (1.0 + {b} * {b}))", True
        if kind < 0.87:
            return f"({self.int_expr(scope, 1)} / {r.randint(1, 4)})", True  # int / int: float
        a = a if fa else f"float({a})"
        b = b if fb else f"float({b})"
        return f"({a} if {self.cond(scope, 1)} else {b})", True

    def compare(self, scope):
        r = self.rng
        op = r.choice(["<", "<=", ">", ">=", "==", "!="])
        if r.random() < 0.7:
            return f"{self.int_expr(scope, 1)} {op} {self.int_expr(scope, 1)}"
        return f"{self._float_expr(scope, 1)[0]} {op} {self._float_expr(scope, 1)[0]}"

    def cond(self, scope, depth=2):
        r = self.rng
        if depth == 0 or r.random() < 0.5:
            return self.compare(scope)
        kind = r.random()
        if kind < 0.4:
            return f"({self.cond(scope, depth - 1)} and {self.cond(scope, depth - 1)})"
        if kind < 0.8:
            return f"({self.cond(scope, depth - 1)} or {self.cond(scope, depth - 1)})"
        return f"not ({self.cond(scope, depth - 1)})"

    # --- statements --------------------------------------------------------------------

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def return_stmt(self, scope):
        ints = ", ".join(self.int_expr(scope, 1) for _ in range(N_INT))
        floats = ", ".join(self.float_expr(scope, 1) for _ in range(N_FLOAT))
        tail = ", out" if self.has_out else ""
        return f"return ({ints}, {floats}{tail})"

    def assign(self, indent, scope):
        r = self.rng
        kind = r.random()
        if scope.get("in_list") and r.random() < 0.2:
            # The list read or grown while the loop that appends to it runs (grown only
            # outside inner loops: see test_append_in_inner_staged_loop below).
            if r.random() < 0.5 and scope["in_list"] == "append":
                self.emit(indent, f"acc.append({self.int_expr(scope)})")
            else:
                target = r.randrange(N_INT)
                self.emit(indent, f"v{target} = (v{target} + np.sum(np.stack(acc))) % {MOD}")
            return
        if kind < 0.45:
            e = self.int_expr(scope)
            # Inside a loop (or after a product, or repeated) a value could grow without
            # bound; `% MOD` keeps it in int64, where Python ints and NumPy's agree.
            if scope["in_loop"] or "*" in e or r.random() < 0.5:
                e = f"({e}) % {MOD}"
            self.emit(indent, f"v{r.randrange(N_INT)} = {e}")
        elif kind < 0.6:
            self.emit(indent, f"v{r.randrange(N_INT)} {r.choice(['+=', '-='])} {r.randint(1, 4)}")
        elif kind < 0.85 or not self.has_out:
            e = self.float_expr(scope)
            if scope["in_loop"]:
                e = f"({e}) * 0.5"
            self.emit(indent, f"f{r.randrange(N_FLOAT)} = {e}")
        else:
            # out has n + 1 >= 1 elements; Python's % of a positive modulus is in range.
            choice = r.random()
            if scope["range_n_vars"] and choice < 0.4:
                index = r.choice(scope["range_n_vars"])
            elif choice < 0.75:
                index = f"({self.int_expr(scope, 1)}) % (n + 1)"
            else:
                index = "0"   # a Python index (and maybe value): NumPy's in-place write
            value = self.float_expr(scope, 1) if r.random() < 0.7 else repr(r.choice([0.5, -2.0]))
            self.emit(indent, f"out[{index}] {r.choice(['=', '+='])} {value}")

    def block(self, indent, scope, budget):
        """Emits 1..budget statements; returns whether it ended in break/continue/return."""
        r = self.rng
        count = r.randint(1, max(1, min(budget, 4)))
        for k in range(count):
            last = k == count - 1
            choice = r.random()
            nested = scope["depth"] < 3 and budget > 1
            if choice < 0.45 or not nested:
                self.assign(indent, scope)
            elif choice < 0.7:
                self.if_stmt(indent, scope, budget - 1)
            elif choice < 0.85:
                self.for_stmt(indent, scope, budget - 1)
            else:
                self.while_stmt(indent, scope, budget - 1)
            if last and r.random() < 0.35:
                jumps = (["break", "continue"] if scope["in_loop"] else []) + (
                    ["return"] if self.returns else [])
                if jumps:
                    jump = r.choice(jumps)
                    self.emit(indent, self.return_stmt(scope) if jump == "return" else jump)

    def if_stmt(self, indent, scope, budget):
        r = self.rng
        inner = dict(scope, depth=scope["depth"] + 1)
        self.emit(indent, f"if {self.cond(scope)}:")
        self.block(indent + 1, inner, budget)
        if r.random() < 0.3:
            self.emit(indent, f"elif {self.cond(scope)}:")
            self.block(indent + 1, inner, budget)
        if r.random() < 0.6:
            self.emit(indent, "else:")
            self.block(indent + 1, inner, budget)

    def for_stmt(self, indent, scope, budget):
        r = self.rng
        var = f"i{self.loop_id}"
        self.loop_id += 1
        kind = r.random()
        if kind < 0.5:
            bound, range_n = "n", True
        elif kind < 0.7:
            bound, range_n = r.choice(["a", "b"]), False           # negative: zero trips
        elif kind < 0.85:
            bound, range_n = f"v{r.randrange(N_INT)} % 5", False   # a variable's value
        else:
            bound, range_n = str(r.randint(0, 3)), False           # Python: unrolled
        self.emit(indent, f"for {var} in range({bound}):")
        inner = dict(scope, depth=scope["depth"] + 1, in_loop=True,
                     in_list=scope.get("in_list") and "read",
                     loop_vars=scope["loop_vars"] + [var],
                     range_n_vars=scope["range_n_vars"] + ([var] if range_n else []))
        self.block(indent + 1, inner, budget)

    def while_stmt(self, indent, scope, budget):
        r = self.rng
        var = f"w{self.loop_id}"
        self.loop_id += 1
        # The counter starts as a Python int: `var < K` alone is a Python condition, and
        # joined with a tensor condition it becomes a tensor after the first test.
        self.emit(indent, f"{var} = 0")
        limit = r.randint(1, 4)
        kind = r.random()
        if kind < 0.4:
            test = f"{var} < {limit} and {self.cond(scope, 1)}"
        elif kind < 0.7:
            test = f"{self.cond(scope, 1)} and {var} < {limit}"
        else:
            test = f"{var} < {limit}"
        self.emit(indent, f"while {test}:")
        # First statement of the body, so that a `continue` cannot skip it.
        self.emit(indent + 1, f"{var} += 1")
        inner = dict(scope, depth=scope["depth"] + 1, in_loop=True,
                     in_list=scope.get("in_list") and "read")
        self.block(indent + 1, inner, budget)

    def list_segment(self, indent, scope):
        """acc.append in a loop of n + 1 >= 1 trips (append first: never stacks []) + stack."""
        var = f"i{self.loop_id}"
        self.loop_id += 1
        self.emit(indent, "acc = []")
        self.emit(indent, f"for {var} in range(n + 1):")
        inner = dict(scope, depth=1, in_loop=True, in_list="append",
                     loop_vars=scope["loop_vars"] + [var],
                     range_n_vars=scope["range_n_vars"] + [var])
        self.emit(indent + 1, f"acc.append({self.int_expr(inner)})")
        if self.rng.random() < 0.7:
            self.block(indent + 1, inner, 3)
        target = self.rng.randrange(N_INT)
        self.emit(indent, f"v{target} = (v{target} + np.sum(np.stack(acc))) % {MOD}")

    def program(self):
        r = self.rng
        self.emit(0, "import numpy as np")
        self.emit(0, "")
        self.emit(0, "")
        self.emit(0, "def generated(a, b, n, x):")
        inits = ["a", "b", str(r.randint(-3, 3))]
        r.shuffle(inits)
        for k, init in enumerate(inits):
            self.emit(1, f"v{k} = {init}")
        self.emit(1, "f0 = x")
        self.emit(1, f"f1 = {r.choice([0.5, -1.0, 2.25])!r}")
        if self.has_out:
            self.emit(1, "out = np.zeros(n + 1)")
        scope = dict(depth=0, in_loop=False, loop_vars=[], range_n_vars=[])
        segments = r.randint(1, 3)
        list_at = r.randrange(segments) if self.has_list else -1
        for k in range(segments):
            if k == list_at:
                self.list_segment(1, scope)
            self.block(1, scope, 5)
        ints = ", ".join(f"v{k}" for k in range(N_INT))
        floats = ", ".join(f"f{k}" for k in range(N_FLOAT))
        self.emit(1, f"return ({ints}, {floats}{', out' if self.has_out else ''})")
        return "\n".join(self.lines) + "\n"


def generate(seed):
    return Generator(random.Random(seed)).program()


def load(source, tmp_path, seed):
    """Imports the program from a real file, so that AutoGraph can read its source."""
    path = tmp_path / f"generated_{seed}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(f"_ag_generated_{seed}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.generated


def arguments(seed, count=5):
    """Argument tuples (a, b, n, x) for one program; n >= 0 (out has n + 1 elements)."""
    rng = random.Random(10_000 + seed)
    fixed = [(0, 0, 0, 0.0), (3, -2, 4, 1.5)]
    return fixed + [(rng.randint(-6, 6), rng.randint(-6, 6), rng.randint(0, 6),
                     rng.randint(-16, 16) / 4) for _ in range(count - len(fixed))]


def check(seed, backend, tmp_path):
    source = generate(seed)
    fn = load(source, tmp_path, seed)
    compiled = ag.defun(fn, backend=backend)
    for args in arguments(seed):
        want = fn(*args)
        assert all(abs(v) < 2 ** 62 for v in want[:N_INT]), "generator: int beyond int64"
        staged = (np.int64(args[0]), np.int64(args[1]), np.int64(args[2]), np.float64(args[3]))
        got = compiled(*staged)
        assert_exact(got, want, f"seed {seed}, args {args}, {backend}\n{source}")
    # Every call had the same signature: one trace (and one kernel) served them all.
    assert compiled.experimental_get_tracing_count() == 1


def test_generator_is_deterministic_and_varied():
    """A seed names one program (failures are reproducible); seeds give different ones."""
    assert generate(3) == generate(3)
    sources = {generate(seed) for seed in range(30)}
    assert len(sources) == 30
    text = "".join(sources)
    for construct in ("while ", "for ", "break", "continue", "return (", " and ", " or ",
                      "not (", " if ", "elif ", "acc.append", "np.stack", "len(acc)", "out[",
                      "% (n + 1)", "out[0] = ", "min(", "max(", "abs(", "float("):
        assert construct in text, construct


@pytest.mark.parametrize("seed", range(30))
def test_random_program_interpreter(seed, tmp_path):
    """Generated program, plain Python vs defun on the interpreter backend."""
    check(seed, "interpreter", tmp_path)


@pytest.mark.parametrize("seed", range(10))
def test_random_program_cpu(seed, tmp_path):
    """Generated program, plain Python vs defun compiled by Numba (one kernel per seed)."""
    check(seed, "cpu", tmp_path)


# --- what the generator found ----------------------------------------------------------
# Minimal forms of the programs that failed, kept as regression tests (three ways), and of
# two bugs found while fixing them. The last three (fixed in runtime/trial.py: appends in
# a loop nested in the appending loop, the list indexed by a tensor in its loop, a return
# that dead code makes unreachable, seed 298) are constructs the generator does not emit.

def nested_return_in_staged_if(a, b):
    v = 0
    if a > 0:
        if b > 0:
            return 5
        v = 2
    return v


def append_then_stack_in_loop(n):
    acc = []
    s = 0
    for i in range(n + 1):
        acc.append(i * 2)
        s = s + np.sum(np.stack(acc))
        if i == 3:
            return s, np.stack(acc)
    return s, np.stack(acc)


def append_in_one_branch_stack_in_other(n):
    acc = []
    v = 0
    for i in range(n + 1):
        acc.append(i)
        if i > 1:
            acc.append(-i)
        else:
            v = v + np.sum(np.stack(acc))
    return np.stack(acc), v


def append_in_inner_staged_loop(n):
    acc = []
    for i in range(n + 1):
        acc.append(i)
        for j in range(i):
            acc.append(j)
    return np.stack(acc)


def index_list_in_its_loop(n):
    acc = []
    t = 0
    for i in range(n + 1):
        acc.append(i * 3)
        t = t + acc[i // 2]
    return t


def return_after_if_that_always_jumps(a, n):
    w = 0
    while w < 4 and a > n:
        w += 1
        if a == 3:
            continue
        else:
            break
        for i in range(a % 5):  # never reached: the loop never returns
            return i + 10
    return -1


def constant_setitem_in_branches(x):
    out = np.zeros(3)
    if x > 0:
        out[0] = 1.0
    else:
        out[1] = 2.0
    return out


GLOBAL_LIST = []


def append_to_global_and_closure_lists(n):
    mine = []

    def inner(k):
        for i in range(k):
            mine.append(i)
            GLOBAL_LIST.append(i)
        if k > 1:
            mine.append(-1)
        return k
    inner(n)
    return len(mine)


def _three_ways(fn, *args):
    want = fn(*args)
    for backend in ("interpreter", "cpu"):
        got = ag.defun(fn, backend=backend)(*(np.int64(a) for a in args))
        assert_exact(got, want, f"{fn.__name__}{args} on {backend}")


@pytest.mark.parametrize("args", [(1, 1), (1, -1), (-1, 1)])
def test_return_in_if_nested_in_staged_if(args):
    """The inner `if` returns in one branch only; the function always ends in a return, so
    the branch that did not return gets a placeholder (was: ValueError 'returns a value
    only in its true branch')."""
    _three_ways(nested_return_in_staged_if, *args)


@pytest.mark.parametrize("n", [0, 2, 5])
def test_stack_of_list_inside_the_loop_appending_to_it(n):
    """np.stack(acc) while the staged loop appends to acc stacks the rows so far (was:
    ValueError 'all tensors must have the same rank': the row buffer and the row count
    stacked as if they were two rows)."""
    _three_ways(append_then_stack_in_loop, n)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_append_in_one_branch_read_in_the_other(n):
    """Each branch of a staged `if` traces from its own copy of a Python list (was: the
    false branch saw the true branch's append: 'a tensor from ... an exited branch')."""
    _three_ways(append_in_one_branch_stack_in_other, n)


def test_append_in_inner_staged_loop():
    """A loop nested in the one that appends to a list appends to it too."""
    _three_ways(append_in_inner_staged_loop, 3)


def test_list_indexed_by_tensor_in_its_loop():
    """`acc[i // 2]` inside the staged loop that appends to acc."""
    _three_ways(index_list_in_its_loop, 3)


def test_loop_whose_return_is_unreachable():
    """Both branches jump, so the `return` after them never runs; Python returns -1."""
    _three_ways(return_after_if_that_always_jumps, 1, 0)


@pytest.mark.parametrize("x", [1.0, -1.0])
def test_constant_setitem_in_each_branch(x):
    """Each branch writes into its own copy of the array (was: both writes landed in the
    one array, [1, 2, 0] on either path)."""
    want = constant_setitem_in_branches(x)
    for backend in ("interpreter", "cpu"):
        got = ag.defun(constant_setitem_in_branches, backend=backend)(np.float64(x))
        assert_exact(got, want, backend)


def test_append_to_lists_of_enclosing_scopes():
    """`l.append` on a list the function does not own is left as a call (was: rewritten to
    `l = ag__.list_append(l, x)`, which made `l` local: UnboundLocalError)."""
    import autograph_lite.autograph as autograph
    del GLOBAL_LIST[:]
    assert autograph.convert(append_to_global_and_closure_lists)(3) == 4
    assert GLOBAL_LIST == [0, 1, 2]


def test_python_list_changed_differently_by_a_staged_if_is_an_error():
    """A Python list appended to in one branch of a staged `if` cannot be staged; this was
    silently wrong (the false branch's result held the true branch's append)."""
    def f(x):
        acc = [1.0]
        if x > 0:  # the-if
            acc.append(x)
        return np.stack(acc)
    assert np.array_equal(f(-2.0), [1.0])
    with pytest.raises(ValueError, match="'acc' is a Python list that the branches"):
        ag.defun(f, backend="interpreter")(np.float64(-2.0))


def test_return_from_staged_loop_then_falling_off_is_an_error():
    """Falling off the end returns None, which a staged result cannot be on some paths
    only; this silently returned 0 (the loop's placeholder) instead of None."""
    def f(n):
        i = 0
        while i < n:
            if i == 5:
                return 1
            i += 1
    assert f(3) is None
    with pytest.raises(ValueError, match="may also reach its end without a `return`"):
        ag.defun(f, backend="interpreter")(np.int64(3))
