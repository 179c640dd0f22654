"""Random control-flow programs, run as plain Python (the oracle) and through ``ag.defun``.

The corpus (programs.py) holds the combinations someone thought of; the converters, the
staged loop/branch machinery and the kernels must work for every nesting of the constructs
of SPEC §3. ``generate(seed, grammar)`` writes a random function; a seed names a program.

Grammar "scalars": int and float variables, assigned arithmetic over variables, arguments
and literals (`+ - * // % /`, `abs`, `min`, `max`, `float(...)`, conditional expressions);
`if`/`elif`/`else` on comparisons joined by `and`/`or`/`not`; `for i in range(...)` over an
argument, a variable or a Python constant (unrolled at trace time), `while` with a bounded
counter (staged, or Python first and staged from the iteration where its condition turns
into a tensor); `break`, `continue` and `return` at the end of branches, inside loops at any
depth; `acc.append(...)` in a loop (also in its branches and inner loops, with `len(acc)`
and `np.stack(acc)` read while it grows) followed by `np.stack(acc)`, and `out[j] = ...` /
`out[j] += ...` on `out = np.zeros(n + 1)`.

Grammar "arrays" adds what the NumPy-semantics repros show (../shared/repros): two float64
array arguments `u` (written into) and `q` (aliased), and
- `for e in r1` whose body rebinds `r1`, and branch results handed back into that loop
  variable (`r1 = ... if c else q`: the seed-1174 shape), arrays passed through branches;
- `r0` (an array the function owns) written in place: `r0[k] = ...`, `r0 += ...`, inside
  loops and branches, also while `for e in r0` iterates over it (NumPy's iteration sees it);
- views written inside loops (`w = r0[1:]; w[0] = ...`, `w += ...`), of `u` too; views
  (slices, `reshape`, `np.ravel`, `np.expand_dims`) read after a write through them or
  into their array;
- aliases (`z = r0; z += ...`), helpers writing their arguments (`_bump(r0, k, s)`,
  `_halve(u)`), writes into the argument `u` (the caller must see them, SPEC §3);
- a NumPy array made at trace time (`t0 = np.arange(4) * 0.25`) indexed, and written, with
  tensors (`t0[n % 4]`, SPEC §1).
Grammar "containers" (session 27) is "arrays" plus Python containers written inside staged
branches and loops (runtime/slots.py): a dict `st` (also held as `al`) written by constant
and computed keys (`st["s"] += ...`, `st[key] = ...`, `al["s"] = ...`) and by a helper it
is passed to (`_put(st, v)`), a list item `hold[0]` and an attribute `ob.t`, all read in
conditions and expressions and returned (through `al` too: the write must reach every
name); an array of trace time the object holds (`ob.w`, session 34), also held with `t0` by
a list and a tuple made before any write and read whole (`sum(ws)`, `np.stack(ws)`, a
generator over `pr`; session 35). Its seeds name programs of their own; "arrays" draws what it drew before.
Grammar "objects" (session 36) is "containers" with `ob` an argument (held_state.py): its
array `ob.w` and NumPy number `ob.t` are inputs of the kernel, and the program writes them
(`ob.w[k] = ...`, `ob.w *= 0.5`, a method writing `self.w`) and binds them (`ob.t = ...`,
`ob.w = ob.w * 0.5 + ...`, `ob.p = (ob.w[k], ...)`, in staged branches and loops too), and
changes its Python int `ob.c` (`ob.c += 1`, read as an int atom: held_state.bound_numbers): each
side keeps its own object over the five calls, and after each call the objects must hold
what plain Python's holds (tests/differential.py compares their attributes).
Grammar "raises" (session 37) is "objects" with `assert not (<cond>), ...` and `if <cond>:
raise ValueError(...)` (or IndexError) among its statements, after its writes and
bindings, staged or decided while tracing: after a call that raises, the arguments and the
object must hold what plain Python left in them (partial_raise.py); Python raising is no
generator error there. Grammar "bounds" (session 38) is "raises" whose raising statements
are, half the time, a read or write at an index of run-time value that may be out of
bounds (`u[(a % 10 - 5)] = x`): NumPy's IndexError after the state made before it.
Grammar "trips" (session 52) is "scalars" (a stream of its own) with state that a loop's
first trip sees otherwise than its later ones, since a staged loop's variables are typed by
one trial trip from the values they hold before it: a Python bool flag `s0` and a counter
`k0` set under staged conditions (`if c: s0 = True`, `k0 += 1`), a first-trip flag with its
running best (`if ft: ft = False; bt = ... else: bt = max(bt, ...)`), `p0`/`p1` None
before anything sets them and handed on (`p1 = p0; p0 = ...`, `if p0 is None or v > p0`),
a list `h0` appended to under staged conditions (and, in half the programs, filled by a
first loop of n trips), read by `h0[-1]`, `len(h0)` and its truth, and returned by
`len`/`sum`/`h0[-1]`/`np.array(h0, dtype=float)`; tests on them (`trip_guard`: `if s0`,
`k0 >= 2`, `p0 is not None and v < p0`, `h0 and v < h0[-1]`, `len(h0) >= 2`, joined with
staged conditions) guard blocks and break/continue/return, in more (and more nested) `for`
loops of 0, 1, 2 and more trips and in `while` tests; the state is also reset in loops.

Aliasing stays static where it meets a write, which is where SPEC §3 promises NumPy's
semantics: the array the function owns (`r0`) and the argument `u` are written, and never
conditionally aliased; `r1` may be `q` on some paths, and is never written in place.

What the grammars avoid, because there the staged program legitimately differs from
Python, is stated where it is done: every loop is bounded (a counter caps each `while`),
int variables stay far from int64 overflow (assignments in loops are taken `% 1009`; no
`int(float)`), divisors are positive constants or `1.0 + f * f`, every variable is
defined before the first branch (SPEC §3: a variable defined in one branch of a staged
`if` only is an error), int and float variables keep their type, arrays keep their shape,
float arithmetic is only `+ - * /`, sqrt, abs, min/max and comparisons, which NumPy, Numba
and Python round the same way, and no float sum (whose order of additions differs): the
results are compared bit for bit.

The big run (not CI; CI runs a fixed sample, tests/autograph/test_random_programs.py):

    python -m tests.autograph.random_programs --count 5000 --seed-start 0 --grammar arrays

runs each program on the interpreter and cpu against plain Python with the suite's
differential check (tests/differential.py), prints every difference with its seed and
writes a repro file per difference (``--out``, default ./random_program_repros).
"""

import argparse
import contextlib
import importlib.util
import os
import random
import signal
import sys
import tempfile
import time
import traceback

import numpy as np

try:
    from . import numpy_programs
except ImportError:  # run as a script
    import numpy_programs
try:
    from differential import assert_outcomes_agree, fresh, python_numbers_as_numpy, run
except ImportError:  # run as `python -m tests.autograph.random_programs`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from differential import assert_outcomes_agree, fresh, python_numbers_as_numpy, run

N_INT = 3            # v0..v2
N_FLOAT = 2          # f0..f1
N_OPT = 2            # o0..o1 (the "optionals" grammar: None on some runs)
INT_ARGS = ("a", "b", "n")
MOD = 1009
L = 4                # the length of every array of the "arrays" grammar
GRAMMARS = ("scalars", "arrays", "numpy", "containers", "statements", "objects", "raises",
            "bounds", "dtypes", "optionals", "trips")
OBJECT_GRAMMARS = ("objects", "raises", "bounds")  # (an object argument, `ob`)
RAISE_GRAMMARS = ("raises", "bounds")  # (Python raising is no generator error)
# (numpy: numpy_programs.py; statements: the scalars grammar with `match` statements and
# walrus `while` tests among its branches and loops, a stream of its own; optionals: the
# scalars grammar with variables None on some runs, o0 and o1, set, reset, handed on,
# tested and returned in its branches and loops, a stream of its own; trips: the scalars
# grammar with state that a loop's first trip sees otherwise than its later ones, a stream
# of its own)
# The "arrays" grammar's constructs, each of which `--without` can leave out (to find which
# one a difference needs).
FEATURES = {
    "alias_arg": "r1 = q, and `... if c else q`: an argument handed back into a loop variable",
    "for_arrays": "for e in r1 / r0 / u (the body may rebind r1 or write into r0, u)",
    "owned_writes": "writes into r0, an array the function made: r0[k] = ..., r0 += ...",
    "arg_writes": "writes into the argument u (the caller must see them)",
    "views": "w = r0[1:] (or u[::2], ...); w[0] = ..., w += ...",
    "aliases": "z = r0 (or u); z += ..., z[k] = ...",
    "helpers": "_bump(r0, k, s), _halve(u): helpers writing the array they were passed",
    "trace_time": "t0 = np.arange(4) * 0.25, a NumPy array made at trace time, indexed and "
                  "written with tensors (and r0 = np.zeros(4))",
    "handed": "z = t0 if c else t0 * 0.5 (or r0, u): an array handed on by a staged branch, "
              "then written through either name",
    "numpy_writes": "np.copyto(r0, ...), np.add(u, s, out=u): NumPy functions writing arrays",
    "held": "box = [r0]; box[0][k] += ...: an array written through the list holding it",
    "view_reads": "wv = r0.reshape(2, 2) (or np.ravel(u), t0[1:], ...); the array or the "
                  "view written, then the view read: writes seen both ways",
}

CONTAINER_HELPERS = f'''

class _Holder:
    def bump(self, k, v):
        self.w[k % {L}] += v  # a method writing an array its object holds


def _put(d, v):
    d["s"] = v           # a helper writing the dict it was passed
'''

HELPERS = f'''

def _bump(z, k, s):
    z[k % {L}] += s      # a helper writing into the array it was passed


def _halve(z):
    z *= 0.5
'''


class Generator:
    """Writes one random program; `rng` decides every choice, so a seed names a program.
    The "scalars" grammar draws exactly what it drew before "arrays" existed (its seeds
    name the same programs)."""

    def __init__(self, rng, grammar="scalars", without=()):
        assert grammar in GRAMMARS, grammar
        assert set(without) <= set(FEATURES), set(without) - set(FEATURES)
        self.rng = rng
        self.arrays = grammar in ("arrays", "containers") + OBJECT_GRAMMARS
        self.containers = grammar in ("containers",) + OBJECT_GRAMMARS
        # (`ob` is an argument: held_state.py)
        self.held_object = grammar in OBJECT_GRAMMARS
        # (their own draws: the others draw what they did)
        self.raises = grammar in RAISE_GRAMMARS
        self.bounds = grammar == "bounds"
        self.statements = grammar == "statements"
        self.optionals = grammar == "optionals"
        self.trips = grammar == "trips"
        self.features = set(FEATURES) - set(without)
        self.lines = []
        self.loop_id = 0
        self.has_out = rng.random() < 0.5
        self.has_list = rng.random() < 0.5
        self.returns = rng.random() < 0.6
        if self.trips:  # (how the list h0 is returned; np.array(h0) returned from inside
            # a staged loop that appends to h0 is refused: "all tensors must have the same
            # rank", session 52)
            self.h_form = rng.choice(["sum(h0)", "(h0[-1] if h0 else -1)", "len(h0)"] + (
                [] if self.returns else ["np.array(h0, dtype=float)"] * 2))

    # --- expressions -------------------------------------------------------------------

    def int_atom(self, scope):
        r = self.rng
        if self.trips and r.random() < 0.12:  # (the trip state; lists read where not empty)
            c = r.randint(-3, 5)
            return r.choice(["k0", "len(h0)", f"(p0 if p0 is not None else {c})",
                             f"(h0[-1] if h0 else {c})", "(1 if s0 else 0)",
                             f"(p1 if p1 is not None else {c})"])
        if self.optionals and r.random() < 0.12:  # (read only where it is not None)
            k = r.randrange(N_OPT)
            return f"(o{k} if o{k} is not None else {r.randint(-3, 5)})"
        if self.containers and r.random() < 0.08:
            return "ob.c" if self.held_object and r.random() < 0.5 else 'st["k"]'
        if self.arrays and r.random() < 0.08:
            return f"np.sum({self.array_name(r)} > {r.choice(['x', 'f0', 'f1', '0.5'])})"
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
        if self.containers and r.random() < 0.15:
            k = self.index(scope)
            return r.choice(['st["s"]', "ob.t", "hold[0]", 'al["s"]', "np.sum(ob.w) * 0.25",
                             "ob.w.max()", f"ob.w[{k}]", f"(ob.w * 0.5 + x)[{k}]",
                             f"sum(ws)[{k}]", f"np.stack(ws)[0, {k}]",
                             f"max(v[{k}] for v in pr)"]), True
        if self.arrays and r.random() < 0.2:
            return self.array_float_atom(scope), True
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
        if self.arrays and r.random() < 0.15:
            arr, f = self.array_name(r), r.choice(["x", "f0", "f1", "0.5", "-1.25"])
            return f"np.{r.choice(['any', 'all'])}({arr} {r.choice(['<', '>'])} {f})"
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

    # --- array expressions ("arrays" grammar) ------------------------------------------

    @staticmethod
    def array_name(r):
        return r.choice(["r0", "r1", "u", "q", "t0"])

    def index(self, scope):
        """An index into an array of length L: a plain int (no array reads inside)."""
        r = self.rng
        atoms = list(INT_ARGS) + [f"v{k}" for k in range(N_INT)] + scope["loop_vars"]
        a = r.choice(atoms)
        return r.choice([f"{a} % {L}", f"({a} + {r.choice(atoms)}) % {L}", str(r.randrange(L))])

    def simple_float(self, scope):
        r = self.rng
        return r.choice(["x", "f0", "f1", "0.5", "-1.25"] + scope.get("elements", []))

    def array_float_atom(self, scope):
        r = self.rng
        kind = r.random()
        if kind < 0.3 and scope.get("elements"):
            return r.choice(scope["elements"])
        if kind < 0.75:
            return f"{self.array_name(r)}[{self.index(scope)}]"
        return f"np.{r.choice(['max', 'min'])}({self.array_name(r)})"

    def array_expr(self, scope, depth=2):
        """A new float64 array of length L (never an existing array itself)."""
        r = self.rng
        a = self.array_name(r)
        if depth == 0 or r.random() < 0.3:
            f = self.simple_float(scope)
            return r.choice([f"{a} * {f}", f"np.abs({a})", f"np.ones({L}) * {f}",
                             f"np.sqrt(np.abs({a}))"])
        kind = r.random()
        b, c = self.array_expr(scope, depth - 1), self.array_name(r)
        if kind < 0.3:
            return f"({b} + {c})"
        if kind < 0.5:
            return f"({b} - {c}) * 0.5"
        if kind < 0.65:
            return f"np.{r.choice(['minimum', 'maximum'])}({b}, {c})"
        if kind < 0.8:
            return f"np.where({c} > {self.simple_float(scope)}, {b}, {a})"
        return f"({b} / (1.0 + {c} * {c}))"

    # --- statements --------------------------------------------------------------------

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def results(self, scope):
        ints = ", ".join(self.int_expr(scope, 1) for _ in range(N_INT))
        floats = ", ".join(self.float_expr(scope, 1) for _ in range(N_FLOAT))
        tail = ", r0, r1, t0" if self.arrays else ""
        tail += ', al["s"], st["k"], ob.t, hold[0], ob.w' if self.containers else ""
        tail += "".join(f", o{k}" for k in range(N_OPT)) if self.optionals else ""
        tail += f", s0, k0, p0, p1, ft, bt, {self.h_form}" if self.trips else ""
        return f"({ints}, {floats}{tail}{', out' if self.has_out else ''})"

    def return_stmt(self, scope):
        return f"return {self.results(scope)}"

    def assign(self, indent, scope):
        r = self.rng
        if self.optionals and r.random() < 0.35:
            self.optional_statement(indent, scope)
            return
        if self.trips and r.random() < 0.45:
            self.trip_statement(indent, scope)
            return
        if self.containers and r.random() < 0.3:
            self.container_statement(indent, scope)
            return
        if self.arrays and r.random() < 0.4:
            self.array_statement(indent, scope)
            return
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

    def optional_statement(self, indent, scope):
        """The "optionals" grammar: o0, o1 (None before anything sets them) set to a value
        or None, handed from one to the other (`o1 = o0`: a value on a later trip only),
        set where still None, and read only where Python reads them without a TypeError
        (after `is not None`, in `x if o is not None else y`)."""
        r = self.rng
        k, j, t = r.randrange(N_OPT), r.randrange(N_OPT), r.randrange(N_INT)
        kind = r.random()
        if kind < 0.2:
            self.emit(indent, f"o{k} = None")
        elif kind < 0.4:
            self.emit(indent, f"o{k} = ({self.int_expr(scope)}) % {MOD}")
        elif kind < 0.5:
            self.emit(indent, f"o{j} = o{k}")
        elif kind < 0.65:
            self.emit(indent, f"if o{k} is None:")
            self.emit(indent + 1, f"o{k} = ({self.int_expr(scope, 1)}) % {MOD}")
        elif kind < 0.8:
            self.emit(indent, f"if o{k} is not None and o{k} > {self.int_expr(scope, 1)}:")
            self.emit(indent + 1, f"v{t} = (v{t} + o{k}) % {MOD}")
        elif kind < 0.9:
            self.emit(indent, f"v{t} = (v{t} + (0 if o{k} is None else o{k} * 2)) % {MOD}")
        else:
            self.emit(indent, f"if o{k} is None:")
            self.emit(indent + 1, f"v{t} = (v{t} + 1) % {MOD}")
            self.emit(indent, "else:")
            self.emit(indent + 1, f"v{t} = (o{k} - v{t}) % {MOD}")

    def trip_guard(self, scope):
        """A test on the "trips" grammar's state (Python values a loop's trips change:
        false on a first trip, true on later ones), joined with a staged condition at
        times; every read is one Python makes without a TypeError or IndexError."""
        r = self.rng
        e = self.int_expr(scope, 1)
        kind = r.random()
        if kind < 0.15:
            g = r.choice(["s0", "not s0"])
        elif kind < 0.3:
            g = f"k0 {r.choice(['>=', '>=', '==', '<'])} {r.randint(1, 3)}"
        elif kind < 0.4:
            g = r.choice(["ft", "not ft"])
        elif kind < 0.65:
            g = r.choice([f"p0 is not None and {e} < p0", f"p0 is None or p0 > {e}",
                          "p0 is not None", "p0 is None",
                          "p1 is not None and p0 is not None and p1 < p0",
                          f"p0 is not None and (p1 is None or p0 != {e})"])
        else:
            g = r.choice([f"h0 and {e} < h0[-1]", f"len(h0) >= {r.randint(1, 3)}", "not h0",
                          "len(h0) >= 2 and h0[-1] > h0[-2]", f"h0 and h0[-1] != {e}"])
        if r.random() < 0.35:
            c = self.cond(scope, 1)
            # (`c and (h0 and ...)` and `c or (h0 and ...)` of a list appended in the
            # loop are refused: "different structures", session 52; the list's test first)
            g = r.choice([f"({g}) and {c}", f"({g}) or {c}"] + (
                [] if g.startswith("h0 and") else [f"{c} and ({g})", f"{c} or ({g})"]))
        return g

    def trip_statement(self, indent, scope):
        """The "trips" grammar: state a loop's first trip sees otherwise than its later
        ones (SPEC: a staged loop's variables are typed by one trial trip): a bool flag
        `s0` and a counter `k0` set under staged conditions, a first-trip flag `ft` with
        its running best `bt`, `p0`/`p1` None before anything sets them (handed on:
        `p1 = p0; p0 = ...`), a list `h0` appended to, all tested in branches and loops
        (`trip_guard`) with break/continue/return under the tests."""
        r = self.rng
        t = r.randrange(N_INT)
        e = self.int_expr(scope, 1)
        kind = r.random()
        if kind < 0.1:
            if r.random() < 0.6:
                self.emit(indent, f"if {self.cond(scope, 1)}:")
                indent += 1
            self.emit(indent, r.choice(["s0 = True", "s0 = True", "s0 = not s0"]))
        elif kind < 0.18:
            if r.random() < 0.6:
                self.emit(indent, f"if {self.cond(scope, 1)}:")
                indent += 1
            self.emit(indent, r.choice(["k0 += 1", "k0 += 1", "k0 = 0"]))
        elif kind < 0.28:
            self.emit(indent, "if ft:")
            self.emit(indent + 1, "ft = False")
            self.emit(indent + 1, f"bt = {self.float_expr(scope, 1)}")
            self.emit(indent, "else:")
            pick = r.choice(['max', 'min'])
            self.emit(indent + 1, f"bt = {pick}(bt, {self.float_expr(scope, 1)})")
        elif kind < 0.4:
            if r.random() < 0.5:
                self.emit(indent, "p1 = p0")
            self.emit(indent, f"p0 = ({e}) % {MOD}")
        elif kind < 0.47:
            self.emit(indent, f"if p0 is None or ({e}) % {MOD} {r.choice(['>', '<'])} p0:")
            self.emit(indent + 1, f"p0 = ({e}) % {MOD}")
        elif kind < 0.55:
            self.emit(indent, r.choice([
                f"v{t} = (v{t} + (0 if p0 is None else p0)) % {MOD}",
                # (p1 tested first: `p0 is not None and p1 is not None` where p1 is None
                # on every path is refused, "dtype object", session 52)
                f"v{t} = ((p0 - p1) if p1 is not None and p0 is not None else v{t}) % {MOD}"]))
        elif kind < 0.68:
            if r.random() < 0.6:
                self.emit(indent, f"if {self.cond(scope, 1)}:")
                indent += 1
            self.emit(indent, f"h0.append(({e}) % {MOD})")
        elif kind < 0.75:
            test, body = r.choice([("len(h0) >= 2", f"v{t} = (h0[-1] - h0[-2]) % {MOD}"),
                                   ("h0", f"v{t} = (v{t} + h0[-1]) % {MOD}"),
                                   (None, f"v{t} = (v{t} + len(h0)) % {MOD}")])
            if test:
                self.emit(indent, f"if {test}:")
                indent += 1
            self.emit(indent, body)
        elif kind < 0.92:
            # a jump (or an assignment) under a test on the trip state
            self.emit(indent, f"if {self.trip_guard(scope)}:")
            jumps = (["break", "continue"] if scope["in_loop"] else []) + (
                ["return"] if self.returns else [])
            inner = dict(scope, depth=scope["depth"] + 1)
            if not jumps or r.random() < 0.3:
                self.assign(indent + 1, inner)
            if jumps:
                jump = r.choice(jumps)
                self.emit(indent + 1, self.return_stmt(scope) if jump == "return" else jump)
        elif scope["in_loop"]:
            # the state reset (at the top of an outer loop's body, say)
            # (not `h0 = []`: a list rebound under a staged `if` in a staged loop is
            # refused, session 52)
            self.emit(indent, r.choice(["s0 = False", "k0 = 0", "p0 = None", "ft = True",
                                        "p0, p1 = None, None"]))
        else:
            self.emit(indent, f"v{t} = (v{t} + k0 + len(h0)) % {MOD}")

    def container_statement(self, indent, scope):
        """The "containers" grammar: items of a dict (`st`, also seen as `al`) and of a list
        (`hold`) and an attribute (`ob.t`) written by constant and computed keys and by a
        helper, in branches and loops; float items stay float, the int item int64-safe."""
        r = self.rng
        value = self.float_expr(scope, 1)

        def write(target):  # (in a loop: damped, as the float variables are)
            return f"{target} = {target} * 0.5 + {value}" if scope["in_loop"] else r.choice(
                [f"{target} = {value}", f"{target} += {value}"])
        self.emit(indent, r.choice(
            [write(t) for t in ('st["s"]', 'al["s"]', "st[key]", "ob.t", "hold[0]",
                                f"ob.w[{self.index(scope)}]")]
            + [f'st["k"] = ({self.int_expr(scope, 1)}) % {MOD}', f"_put(st, {value})",
               f"ob.bump({self.int_expr(scope, 1)}, {value}{' * 0.5' if scope['in_loop'] else ''})",
               "ob.w *= 0.5"]
            + ([f"ob.w = ob.w * 0.5 + {value}", f"ob.p = (ob.w[{self.index(scope)}], {value})",
                f"ob.c = (ob.c + {self.int_expr(scope, 1)}) % {MOD}", "ob.c += 1"]
               if self.held_object else [])))

    def writable(self):
        """The arrays statements may write into: the owned r0, the argument u, the array t0
        made at trace time, as the features allow."""
        return [name for name, feature in (("r0", "owned_writes"), ("u", "arg_writes"),
                                           ("t0", "trace_time")) if feature in self.features]

    def array_statement(self, indent, scope):
        """One statement of the "arrays" grammar (see the module docstring)."""
        r = self.rng
        damp = " * 0.5" if scope["in_loop"] else ""
        value = self.float_expr(scope, 1)
        targets = self.writable()
        views = [t for t in targets if t != "t0"] if "views" in self.features else []
        aliases = [t for t in targets if t != "t0"] if "aliases" in self.features else []
        helpers = targets if "helpers" in self.features else []
        kinds = ["new_r0", "new_r1", "float"] + ["setitem", "inplace"] * bool(targets) + [
            "view"] * bool(views) + ["alias"] * bool(aliases) + ["helper"] * bool(helpers)
        kinds += [k for k in ("handed", "numpy_writes", "held", "view_reads")
                  if k in self.features and targets]
        kind = r.choice(kinds)
        if kind in ("handed", "numpy_writes", "held", "view_reads"):
            return self.write_statement(kind, indent, scope, targets, value, damp)
        if kind == "new_r0":
            self.emit(indent, f"r0 = ({self.array_expr(scope)}){damp}")
        elif kind == "new_r1":
            # r1: a new array, or the argument q handed back through a branch
            new = f"({self.array_expr(scope)}){damp}"
            choices = [new]
            if "alias_arg" in self.features:
                choices += ["q", f"{new} if {self.cond(scope, 1)} else q",
                            f"q if {self.cond(scope, 1)} else {new}",
                            f"r1 if {self.cond(scope, 1)} else q"]
            self.emit(indent, "r1 = " + r.choice(choices))
        elif kind == "float":
            self.emit(indent, f"f{r.randrange(N_FLOAT)} = ({self.array_float_atom(scope)}){damp}")
        elif kind == "setitem":
            self.emit(indent, f"{r.choice(targets)}[{self.index(scope)}] "
                              f"{r.choice(['=', '+='])} {value}")
        elif kind == "inplace":
            target = r.choice(targets)
            self.emit(indent, r.choice([f"{target} += {value}", f"{target} *= 0.5",
                                        f"{target} -= {self.array_name(r)}"]))
        elif kind == "view":
            name = f"wv{self.fresh_id()}"  # (w<n>: while counters)
            self.emit(indent, f"{name} = {r.choice(views)}[{r.choice(['1:', ':-1', '::2'])}]")
            self.emit(indent, r.choice([f"{name}[0] = {value}", f"{name} += {value}",
                                        f"{name}[-1] -= {value}"]))
        elif kind == "alias":
            name = f"z{self.fresh_id()}"
            self.emit(indent, f"{name} = {r.choice(aliases)}")
            self.emit(indent, r.choice([f"{name} += {value}",
                                        f"{name}[{self.index(scope)}] = {value}"]))
        else:
            target = r.choice(helpers)
            self.emit(indent, r.choice([f"_bump({target}, {self.int_expr(scope, 1)}, {value})",
                                        f"_halve({target})"]))

    def write_statement(self, kind, indent, scope, targets, value, damp):
        """The writes of issue 11's later findings: an array handed on by a staged branch
        and written through either name, NumPy functions that write (`np.copyto`, `out=`),
        and an array written through the list that holds it."""
        r = self.rng
        target = r.choice(targets)
        if kind == "handed":
            name = f"z{self.fresh_id()}"
            other = f"({self.array_expr(scope)}){damp}"
            first, second = r.choice([(target, other), (other, target)])
            self.emit(indent, f"{name} = {first} if {self.cond(scope, 1)} else {second}")
            written = r.choice([name, target])
            self.emit(indent, r.choice([f"{written}[{self.index(scope)}] = {value}",
                                        f"{written} += {value}"]))
        elif kind == "view_reads":
            name = f"wv{self.fresh_id()}"
            view, item = r.choice([(f"{target}[1:]", "[0]"), (f"{target}[::2]", "[-1]"),
                                   (f"{target}.reshape(2, {L // 2})", "[1, 0]"),
                                   (f"np.ravel({target})", "[2]"),
                                   (f"np.expand_dims({target}, 0)", "[0, 1]")])
            self.emit(indent, f"{name} = {view}")
            self.emit(indent, r.choice([f"{target}[{self.index(scope)}] = {value}",
                                        f"{target} += {value}", f"{name}{item} = {value}",
                                        f"{name}{item} += {value}"]))
            self.emit(indent, f"f{r.randrange(N_FLOAT)} = np.sum({name}) * 0.25{damp}")
        elif kind == "numpy_writes":
            self.emit(indent, r.choice([
                f"np.copyto({target}, ({self.array_expr(scope)}){damp})",
                f"np.add({target}, {value}, out={target})",
                f"np.multiply({target}, 0.5, out={target})"]))
        else:
            name = f"box{self.fresh_id()}"
            self.emit(indent, f"{name} = [{target}]")
            self.emit(indent, f"{name}[0][{self.index(scope)}] {r.choice(['=', '+='])} {value}")

    def fresh_id(self):
        self.loop_id += 1
        return self.loop_id

    def block(self, indent, scope, budget):
        """Emits 1..budget statements; returns whether it ended in break/continue/return."""
        r = self.rng
        count = r.randint(1, max(1, min(budget, 4)))
        for k in range(count):
            last = k == count - 1
            choice = r.random()
            nested = scope["depth"] < 3 and budget > 1
            if self.trips and nested and r.random() < 0.2:  # (more loops, nested ones)
                if r.random() < 0.7:
                    self.for_stmt(indent, scope, budget - 1)
                else:
                    self.while_stmt(indent, scope, budget - 1)
            elif choice < 0.45 or not nested:
                self.assign(indent, scope)
            elif choice < 0.7:
                self.if_stmt(indent, scope, budget - 1)
            elif choice < 0.85:
                if self.arrays and "for_arrays" in self.features and r.random() < 0.35:
                    self.for_array_stmt(indent, scope, budget - 1)
                else:
                    self.for_stmt(indent, scope, budget - 1)
            else:
                self.while_stmt(indent, scope, budget - 1)
            if self.raises and r.random() < 0.2:
                self.raise_stmt(indent, scope)
            if last and r.random() < 0.35:
                jumps = (["break", "continue"] if scope["in_loop"] else []) + (
                    ["return"] if self.returns else [])
                if jumps:
                    jump = r.choice(jumps)
                    self.emit(indent, self.return_stmt(scope) if jump == "return" else jump)

    def raise_stmt(self, indent, scope):
        """The "raises" grammar: a staged `assert` or `raise` after the writes before it,
        which plain Python leaves in the arguments and the object when it raises."""
        r = self.rng
        if self.bounds and r.random() < 0.5:
            return self.bounds_stmt(indent, scope)
        cond = self.cond(scope, 1)
        if r.random() < 0.25 and self.arrays:
            # a message Python computes only when the assert fails (where its read may be
            # out of bounds: then Python's IndexError, not the AssertionError)
            read = f"{self.array_name(r)}[{self.wild_index(scope)}]"
            self.emit(indent, f"assert not ({cond}), f'checked {{{read}}}'")
        elif r.random() < 0.5:
            self.emit(indent, f"assert not ({cond}), 'checked'")
        else:
            self.emit(indent, f"if {cond}:")
            self.emit(indent + 1, f"raise {r.choice(['ValueError', 'IndexError'])}('raised')")

    def wild_index(self, scope):
        """An int index of run-time value in [-L - 1, L]: out of bounds at times."""
        atoms = list(INT_ARGS) + [f"v{k}" for k in range(N_INT)] + scope["loop_vars"]
        return f"({self.rng.choice(atoms)} % {2 * L + 2} - {L + 1})"

    def bounds_stmt(self, indent, scope):
        """The "bounds" grammar: a read or a write at an index of run-time value that may be
        out of bounds (in [-L - 1, L]), which raises NumPy's IndexError after the writes
        and bindings before it (a read is `assert`ed never to fail by itself)."""
        r = self.rng
        wild = self.wild_index(scope)
        kind = r.random()
        if kind < 0.15:  # (a read nothing uses: Python's IndexError all the same)
            self.emit(indent, f"unused = {self.array_name(r)}[{wild}]")
        elif kind < 0.5:
            self.emit(indent, f"assert {self.array_name(r)}[{wild}] != 1.5e300, 'read'")
        elif kind < 0.75:
            self.emit(indent, f"u[{wild}] = {self.simple_float(scope)}")
        else:
            self.emit(indent, f"ob.w[{wild}] = {self.simple_float(scope)}")

    def if_stmt(self, indent, scope, budget):
        r = self.rng
        if self.statements and r.random() < 0.4:
            return self.match_stmt(indent, scope, budget)
        inner = dict(scope, depth=scope["depth"] + 1)
        test = self.cond(scope)
        if self.trips and r.random() < 0.45:
            test = self.trip_guard(scope)
        self.emit(indent, f"if {test}:")
        self.block(indent + 1, inner, budget)
        if r.random() < 0.3:
            self.emit(indent, f"elif {self.cond(scope)}:")
            self.block(indent + 1, inner, budget)
        if r.random() < 0.6:
            self.emit(indent, "else:")
            self.block(indent + 1, inner, budget)

    def match_stmt(self, indent, scope, budget):
        """`match <int>:` with literal cases, `|` alternatives, `as`, a capture with a
        guard, and perhaps `_` (the "statements" grammar)."""
        r = self.rng
        inner = dict(scope, depth=scope["depth"] + 1)
        self.emit(indent, f"match {self.int_expr(scope)}:")
        for _ in range(r.randint(1, 3)):
            kind = r.random()
            if kind < 0.4:
                pattern = str(r.randint(-2, 4))
            elif kind < 0.65:
                pattern = " | ".join(str(v) for v in r.sample(range(-2, 6), r.randint(2, 3)))
            elif kind < 0.8:
                pattern = f"{r.randint(-2, 4)} as m{self.fresh_id()}"
                if r.random() < 0.5:
                    pattern += f" if {self.cond(scope, 1)}"
            else:
                pattern = f"m{self.fresh_id()} if {self.cond(scope, 1)}"
            self.emit(indent + 1, f"case {pattern}:")
            self.block(indent + 2, inner, budget)
        if r.random() < 0.5:
            self.emit(indent + 1, "case _:")
            self.block(indent + 2, inner, budget)

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

    def for_array_stmt(self, indent, scope, budget):
        """`for e in r1` (its body may rebind r1: the loop goes on over the old array, as
        in Python), `for e in r0` / `for e in u` (their body may write into them in place:
        NumPy's iteration sees the writes)."""
        var = f"e{self.fresh_id()}"
        self.emit(indent, f"for {var} in {self.rng.choice(['r1', 'r0', 'u'])}:")
        inner = dict(scope, depth=scope["depth"] + 1, in_loop=True,
                     in_list=scope.get("in_list") and "read",
                     elements=scope.get("elements", []) + [var])
        self.block(indent + 1, inner, budget)

    def while_stmt(self, indent, scope, budget):
        r = self.rng
        var = f"w{self.loop_id}"
        self.loop_id += 1
        # The counter starts as a Python int: `var < K` alone is a Python condition, and
        # joined with a tensor condition it becomes a tensor after the first test.
        self.emit(indent, f"{var} = 0")
        limit = r.randint(1, 4)
        if self.statements and r.random() < 0.5:  # the counter counted by a walrus
            test = f"({var} := {var} + 1) <= {limit}"
            if r.random() < 0.6:
                test = f"{test} and {self.cond(scope, 1)}"
            self.emit(indent, f"while {test}:")
            inner = dict(scope, depth=scope["depth"] + 1, in_loop=True,
                         in_list=scope.get("in_list") and "read")
            self.block(indent + 1, inner, budget)
            if r.random() < 0.3:
                self.emit(indent, "else:")
                self.block(indent + 1, dict(scope, depth=scope["depth"] + 1), budget)
            return
        kind = r.random()
        if kind < 0.4:
            test = f"{var} < {limit} and {self.cond(scope, 1)}"
        elif kind < 0.7:
            test = f"{self.cond(scope, 1)} and {var} < {limit}"
        else:
            test = f"{var} < {limit}"
        if self.trips and r.random() < 0.4:  # (a test on the trip state: bounded all the same)
            guard = self.trip_guard(scope)
            if guard.startswith("h0 and"):  # (`c and (h0 and ...)`: refused, see trip_guard)
                guard = "len(h0) > 0" + guard[2:]
            test = f"{test} and ({guard})"
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
        if self.arrays:
            self.lines.extend(HELPERS.splitlines())
        if self.containers:
            self.lines.extend(CONTAINER_HELPERS.splitlines())
        self.emit(0, "")
        self.emit(0, "")
        self.emit(0, f"def generated(a, b, n, x{', u, q' if self.arrays else ''}"
                     f"{', ob' if self.held_object else ''}):")
        inits = ["a", "b", str(r.randint(-3, 3))]
        r.shuffle(inits)
        for k, init in enumerate(inits):
            self.emit(1, f"v{k} = {init}")
        self.emit(1, "f0 = x")
        self.emit(1, f"f1 = {r.choice([0.5, -1.0, 2.25])!r}")
        for k in range(N_OPT if self.optionals else 0):
            self.emit(1, f"o{k} = None")
        if self.trips:
            for line in ("s0 = False", "k0 = 0", "p0 = None", "p1 = None", "ft = True",
                         "bt = 0.0", "h0 = []"):
                self.emit(1, line)
            if r.random() < 0.5:
                # h0 a list of tensors from here, empty on the runs with n == 0 (a list
                # first appended to in a staged loop inside a staged `if` is refused:
                # "a tensor ... in the true branch and a list in the false branch",
                # session 52)
                var = f"i{self.fresh_id()}"
                self.emit(1, f"for {var} in range(n):")
                self.emit(2, f"h0.append(({var} * a + b) % {MOD})")
        if self.arrays:
            trace_time = "trace_time" in self.features
            self.emit(1, "r0 = " + r.choice([f"np.zeros({L})" if trace_time else "u * 0.0",
                                             "u * 1.0", f"np.arange({L}) * 0.5 + x"]))
            self.emit(1, "r1 = q" if "alias_arg" in self.features else "r1 = q + 0.0")
            self.emit(1, f"t0 = np.arange({L}) * 0.25  # a NumPy array made at trace time"
                      if trace_time else f"t0 = np.arange({L}) * 0.25 + x * 0.0")
        if self.containers:
            self.emit(1, 'st = {"s": 0.25, "k": 1}')
            self.emit(1, "al = st")
            self.emit(1, 'key = "s"')
            if not self.held_object:
                self.emit(1, "ob = _Holder()")
            if not self.held_object or r.random() < 0.5:
                self.emit(1, "ob.t = x * 0.5")
            if not self.held_object or r.random() < 0.3:
                self.emit(1, f"ob.w = np.zeros({L})  # an array of trace time an object holds")
            self.emit(1, "ws, pr = [ob.w, t0], (t0, ob.w)  # containers of them, read whole")
            self.emit(1, "hold = [0.5, x]")
        if self.has_out:
            self.emit(1, "out = np.zeros(n + 1)")
        scope = dict(depth=0, in_loop=False, loop_vars=[], range_n_vars=[])
        # arrays: smaller programs (a cpu compile of one is ~10 s; a difference reads easier)
        segments = r.randint(1, 2 if self.arrays else 3)
        list_at = r.randrange(segments) if self.has_list else -1
        for k in range(segments):
            if k == list_at:
                self.list_segment(1, scope)
            if self.trips and r.random() < 0.7:  # (a loop at the top: the trips' own)
                if r.random() < 0.7:
                    self.for_stmt(1, scope, 4)
                else:
                    self.while_stmt(1, scope, 4)
                continue
            self.block(1, scope, 4 if self.arrays else 5)
        ints = ", ".join(f"v{k}" for k in range(N_INT))
        floats = ", ".join(f"f{k}" for k in range(N_FLOAT))
        tail = ", r0, r1, t0" if self.arrays else ""
        tail += ', al["s"], st["k"], ob.t, hold[0], ob.w' if self.containers else ""
        tail += "".join(f", o{k}" for k in range(N_OPT)) if self.optionals else ""
        tail += f", s0, k0, p0, p1, ft, bt, {self.h_form}" if self.trips else ""
        self.emit(1, f"return ({ints}, {floats}{tail}{', out' if self.has_out else ''})")
        return "\n".join(self.lines) + "\n"


def _dtypes():
    """dtype_programs.py (the "dtypes" grammar), which imports this module."""
    try:
        from . import dtype_programs
    except ImportError:  # run as a script
        import dtype_programs
    return dtype_programs


def generate(seed, grammar="scalars", without=()):
    if grammar == "numpy":
        return numpy_programs.generate(seed)
    if grammar == "dtypes":
        return _dtypes().generate(seed)
    return Generator(random.Random(seed), grammar, without).program()


def load(source, folder, name):
    """Imports the program from a real file, so that AutoGraph can read its source."""
    path = os.path.join(folder, f"{name}.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(f"_ag_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.generated


def arguments(seed, grammar="scalars", count=5):
    """Argument tuples for one program: (a, b, n, x) with n >= 0 (out has n + 1 elements),
    and the arrays (u, q) of the "arrays" grammar, on a grid of quarters."""
    if grammar == "numpy":
        return numpy_programs.arguments(seed)
    if grammar == "dtypes":
        return _dtypes().arguments(seed)
    rng = random.Random(10_000 + seed)
    fixed = [(0, 0, 0, 0.0), (3, -2, 4, 1.5)]
    calls = fixed + [(rng.randint(-6, 6), rng.randint(-6, 6), rng.randint(0, 6),
                      rng.randint(-16, 16) / 4) for _ in range(count - len(fixed))]
    if grammar in ("arrays", "containers") + OBJECT_GRAMMARS:
        calls = [c + tuple(np.array([rng.randint(-16, 16) / 4 for _ in range(L)])
                           for _ in range(2)) for c in calls]
    if grammar in OBJECT_GRAMMARS:
        calls = [c + (OB,) for c in calls]
    return calls


OB = "OB"  # (in an "objects" argument tuple: the object each side keeps over its calls)


def make_object(fn):
    """The "objects" grammar's argument: a ``_Holder`` of the program's module holding an
    array and a NumPy number (both inputs of the kernel, held_state.py)."""
    ob = fn.__globals__["_Holder"]()
    ob.w = np.arange(L) * 0.75 - 1.0
    ob.t = np.float64(0.25)
    ob.p = (np.float64(0.5), np.float64(-1.0))  # (bound in a branch or loop: set before)
    ob.c = 1  # a Python int the program may change: an input from the second trace on
    return ob


def _with_object(args, ob):
    return tuple(ob if a is OB else a for a in args)


def differences(seed, grammar, backends, folder, without=(), python_numbers=False):
    """Runs program `seed` on every argument tuple: plain Python against each backend with
    the suite's differential check. Returns [(backend, args, message)] (empty: agreement).
    ``python_numbers``: the Functions get the Python ints and floats themselves (not NumPy
    scalars): the first call traces their values, the next ones relax them to weak 0-d
    tensors (SPEC §2), whose arithmetic must be Python's (python_numbers.py)."""
    import autograph_lite as ag
    if grammar == "dtypes":  # (its own check: NumPy's casting errors are kept, dtype_programs)
        return _dtypes().differences(seed, backends, folder)
    source = generate(seed, grammar, without)
    fn = load(source, folder, f"generated_{grammar}_{seed}")
    found = []
    for backend in backends:
        compiled = ag.defun(fn, backend=backend)
        counts = []  # the tracing count after each call
        # ("objects": each side keeps its object over the calls, as a program would)
        want_ob, got_ob = (make_object(fn), make_object(fn)) if grammar in \
            OBJECT_GRAMMARS else (None, None)
        for args in arguments(seed, grammar):
            want = run(fn, _with_object(fresh(args), want_ob))
            if want.raised is not None and not (grammar in RAISE_GRAMMARS and isinstance(
                    want.raised, (AssertionError, ValueError, IndexError))):
                # the grammars promise programs Python runs ("raises": its own raises)
                raise AssertionError(f"generator error: seed {seed} ({grammar}) raised "
                                     f"{want.raised!r} in plain Python on {args}")
            assert grammar == "numpy" or want.raised or all(abs(int(v)) < 2 ** 62
                                                            for v in want.value[:N_INT]), \
                "generator error: an int beyond int64"
            stage = (lambda a: a) if python_numbers else python_numbers_as_numpy
            got = run(compiled, stage(_with_object(fresh(args), got_ob)))
            counts.append(compiled.experimental_get_tracing_count())
            try:
                assert_outcomes_agree(got, want, f"seed {seed} ({grammar}) on {backend}",
                                      exact=True, stage=stage)
            except AssertionError as e:
                found.append((backend, args, _first_line(e)))
                break  # one difference per backend is enough to report the program
        else:
            if grammar in OBJECT_GRAMMARS:
                continue  # (a Python value the program binds into `ob` is a new trace)
            # every call had the same signature: the first call's trace (and kernel)
            # served them all (Python numbers: the second call's relaxed trace served the
            # rest). On a compiled backend a trace that read sizes is traced again at once
            # with them unknown (function.py _relax_read_sizes): two traces, one kernel.
            settled = counts[python_numbers]
            steps = [counts[0]] + [b - a for a, b in zip(counts, counts[1:python_numbers + 1])]
            n = compiled.experimental_get_tracing_count()
            if n != settled or max(steps) > 1 + (backend != "interpreter"):
                found.append((backend, None, "traced "
                              f"{compiled.experimental_get_tracing_count()} times, not once"))
    return found


def _first_line(e):
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return " / ".join(lines[:3])


# --- the big run ----------------------------------------------------------------------------

REPRO = '''# A random program (seed {seed}, grammar "{grammar}") on which ag.defun differs from plain
# Python: {message}
# Run: python {name}.py    (from the repository root, or with autograph_lite importable)
{source}

INPUTS = {inputs}

if __name__ == "__main__":
    import copy
    import autograph_lite as ag

    def _object():  # (the "objects" grammar's argument "OB": each side keeps its own)
        ob = _Holder()
        ob.w = np.arange({length}) * 0.75 - 1.0
        ob.t = np.float64(0.25)
        ob.p = (np.float64(0.5), np.float64(-1.0))
        ob.c = 1
        return ob

    for backend in {backends!r}:
        f = ag.defun(generated, backend=backend)
        obs = [_object(), _object()] if "_Holder" in globals() else [None, None]
        for args in INPUTS:
            want_args, got_args = [
                tuple(ob if isinstance(a, str) else a for a in copy.deepcopy(args))
                for ob in obs]
            try:
                want = generated(*want_args)
            except Exception as e:
                want = f"EXCEPTION {{type(e).__name__}}: {{e}}"
            staged = tuple(np.int64(a) if type(a) is int else np.float64(a)
                           if type(a) is float else a for a in got_args) if {stage} else got_args
            try:
                got = f(*staged)
            except Exception as e:
                got = f"EXCEPTION {{type(e).__name__}}: {{e}}"
            print(backend, "args    ", args)
            print(backend, "expected", want, "arguments after:", want_args[4:])
            print(backend, "got     ", got, "arguments after:", staged[4:])
'''


def _repro(out, seed, grammar, without, found, python_numbers=False):
    os.makedirs(out, exist_ok=True)
    name = f"seed_{grammar}_{seed}"
    inputs = "[\n" + "".join(f"    ({', '.join(_literal(a) for a in args)},),\n"
                             for args in arguments(seed, grammar)) + "]"
    text = REPRO.format(seed=seed, grammar=grammar + "".join(f" -{w}" for w in without),
                        message=found[0][2][:300], name=name,
                        source=generate(seed, grammar, without), inputs=inputs,
                        backends=sorted({b for b, _, _ in found if b in ("interpreter", "cpu")}),
                        stage=not python_numbers, length=L)
    path = os.path.join(out, name + ".py")
    with open(path, "w") as f:
        f.write(text)
    return path


def _literal(a):
    if isinstance(a, np.ndarray):
        return f"np.array({a.tolist()!r}, dtype=np.{a.dtype.name})"
    return repr(a)


class _Timeout(BaseException):
    """A BaseException, so that no ``except Exception`` in the product (the conversion
    fallback that runs a function as is) can swallow the harness's own time limit."""


def _one(job):
    """Worker: one program, with a time limit; (seed, [(backend, args, message)])."""
    seed, grammar, without, backends, limit, python_numbers = job

    def alarm(*_):
        raise _Timeout()
    # CPU time, not wall time: a paused or starved worker does not time out
    signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(None):
            found = differences(seed, grammar, backends, folder, without, python_numbers)
    except _Timeout:
        found = [("-", None, f"timeout: more than {limit} s")]
    except Exception:  # noqa: BLE001 - a crash of the harness itself is reported too
        found = [("-", None, "harness error: " + traceback.format_exc().splitlines()[-1])]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return seed, found


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Runs random programs on the backends against plain Python; prints "
                    "each difference with its seed and writes a repro file per program.")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed-start", type=int, default=0)
    p.add_argument("--grammar", choices=GRAMMARS, default="arrays")
    p.add_argument("--without", default="",
                   help="arrays features to leave out, comma-separated: " + ", ".join(FEATURES))
    p.add_argument("--backends", default="interpreter,cpu")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--timeout", type=int, default=300, help="CPU seconds per program")
    p.add_argument("--out", default="random_program_repros", help="repro files go here")
    p.add_argument("--python-numbers", action="store_true",
                   help="pass the int and float arguments as Python numbers (relaxed to "
                        "weak tensors from the second call) instead of NumPy scalars")
    args = p.parse_args(argv)
    os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
    backends = tuple(args.backends.split(","))
    without = tuple(w for w in args.without.split(",") if w)
    jobs = [(s, args.grammar, without, backends, args.timeout, args.python_numbers)
            for s in range(args.seed_start, args.seed_start + args.count)]
    t0, bad = time.time(), 0
    if args.count > 100 or args.jobs > 1:
        # fresh workers every 100 programs: each program's kernels stay loaded in the
        # process that compiled them (about 4 MB a program)
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=100)
        results = pool.imap_unordered(_one, jobs)
    else:
        results = map(_one, jobs)
    for done, (seed, found) in enumerate(results, 1):
        if found:
            bad += 1
            path = _repro(args.out, seed, args.grammar, without, found, args.python_numbers)
            for backend, _, message in found:
                print(f"seed {seed} {backend}: {message[:240]}  [{path}]", flush=True)
        if done % 50 == 0:
            print(f"... {done} programs, {bad} differ, {time.time() - t0:.0f} s", flush=True)
    print(f"{args.count} programs ({args.grammar}{''.join(' -' + w for w in without)}, seeds "
          f"{args.seed_start}..{args.seed_start + args.count - 1}, {','.join(backends)}): "
          f"{bad} differ ({time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
