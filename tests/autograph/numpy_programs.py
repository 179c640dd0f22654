"""A second, independent random-program grammar ("numpy"): NumPy-style numeric code with
data-dependent control flow, written the way scientific code is, not the way the "scalars"
and "arrays" grammars (random_programs.py) build theirs.

Where those grammars thread fixed variables through a fixed skeleton, this one draws the
signature (float scalars ``x``/``y``, int scalars ``n``/``k``, arrays ``u``/``q``), keeps
state of four kinds (float scalars ``s*``, int scalars ``c*``, arrays ``v*``, a bool
``b0``) and mixes them freely: loops whose bounds are NumPy values (``range(np.where(x >
0.0, 3, 2))``, ``range(np.sum(u > 1.0), 0, -1)``), loops over arrays that rebind the array
they run over, counted ``while`` loops with data-dependent conditions, ``break``,
``continue`` and early ``return``s, matrix products, reductions, ``np.where`` of scalars
and arrays, indexing with computed ints, writes into arrays (arguments included), and
conditional expressions everywhere. Arguments are NumPy scalars and arrays.

A seed names one program: ``generate(seed)`` draws candidates until one runs in plain
Python on every argument tuple under ``np.errstate(all="raise")`` (no overflow, no NaN from
an invalid operation), so every program is one NumPy runs cleanly.
"""
import contextlib
import random
import re

import numpy as np

TRIPS = 6  # the most trips of any loop (bounds are clipped to it)

# an assignment ($s: a float scalar, $v: an array, each the same one throughout the form);
# `{avar}[...] = ` and `{avar} += ` write into an argument's array when avar aliases it
_ASSIGN = ("$s = {f}", "$s = $s * 0.5 + {f}", "$s {augf} {sval}", "c0 = ({i}) % {cmod}",
           "c0 {augi} {i}", "$v = {a}", "$v = $v * 0.5 + {a}", "{avar}[{index}] = {f}",
           "b0 = {c}", "$v = {avar}", "{avar} {auga} {aval}",
           "$s = np.minimum(np.maximum({f}, -1000.0), 1000.0)")
# kind -> (its forms, how many of the first are leaves): f float scalar, i int scalar,
# a array, c condition
_FORMS = {
    "f": (("{fvar}", "{fconst}", "{avar}[{index}]", "({f} + {f})", "({f} - {f})",
           "({f} * {scale})", "np.minimum(abs({f}), 1.5)", "np.sqrt(abs({f}))",
           "np.{red}({a})", "({a} @ {a})", "({f} if {c} else {f})", "({i} * 0.5)",
           "({f} / (abs({f}) + 1.0))", "(({f} >= {f}) * 2.5)", "np.maximum({f}, {f})",
           "({i} / (abs({i}) + 1))", "np.where({f} > {f}, {f}, {f})", "float({f})"), 3),
    "i": (("{ivar}", "{iconst}", "({i} + {i})", "({i} - {i})", "({i} * {imul})",
           "({i} % {mod})", "np.sum({a} > {f})", "(np.where({f} > {f}, {iconst}, {iconst}) + 0)",
           "abs({i})", "({i} // (abs({kvar}) + 1))", "({i} if {c} else {i})",
           "np.minimum({i}, {i})", "int({f} > {f})"), 2),
    "a": (("{avar}", "{avar}", "({a} + {a})", "({a} * 0.5 + {a})", "np.abs({a})",
           "np.sqrt(np.abs({a}))", "(np.ones({L}) * {f})", "(np.arange({L}) * 0.5 + {n})",
           "np.where({a} > {f}, {a}, {a})", "np.minimum({a}, {f})",
           "({a} * np.minimum(abs({f}), 1.5))", "({a} if {c} else {a})",
           "(({a} - {a}) / (np.abs({a}) + 1.0))", "(-{a})"), 2),
    "c": (("{f} {cmp} {f}", "{i} {cmp} {i}", "np.{anyall}({a} {lt} {f})", "b0",
           "{f} {cmp} {i}", "({i} % {mod5}) == {bit}", "not {c}", "({c} and {c})",
           "({c} or {c})"), 6),
}


class _Program:
    def __init__(self, rng):
        self.r = rng
        self.L = rng.choice((3, 4, 5))
        params = [p for p in ("x", "y", "n", "k", "u", "q") if rng.random() < 0.5]
        if not any(p in params for p in ("u", "q")):
            params.append("u")
        self.params = sorted(params, key="xynkuq".index)
        self.lines = []
        self.loop_depth = 0
        self.counters = 0
        self.loops = 0
        self.returns = ", ".join(self.outputs())

    def outputs(self):
        picks = [v for v in ("s0", "c0", "v0", "s1", "v1") if self.r.random() < 0.5]
        return picks or ["s0", "v0"]

    # -- values -----------------------------------------------------------------------------
    def floats(self):
        return ["s0", "s1"] + [p for p in ("x", "y") if p in self.params] + sorted(
            self.live_floats)

    def ints(self):
        return ["c0", "K0", "K1"] + [p for p in ("n", "k") if p in self.params]

    def arrays(self):
        return ["v0", "v1"] + [p for p in ("u", "q") if p in self.params]

    # an expression of a kind is one of its forms; past depth 2, one of its first (leaf)
    # forms only; ``{kind}`` in a form is an expression of that kind one level deeper
    def draw(self, kind, d=0):
        forms, leaves = _FORMS[kind]
        form = self.r.choice(forms if d < 2 else forms[:leaves])
        return re.sub(r"\{(\w+)\}", lambda m: self.part(m.group(1), d + 1), form)

    def part(self, name, d):
        r = self.r
        if name in _FORMS:
            return self.draw(name, d)
        if name == "n":  # a float or an int
            return self.draw(r.choice("fi"), d)
        if name == "index":
            return self.index()
        if name in ("sval", "aval"):  # a constant or a float expression
            consts = ("0.5", "1.5", "2.0") if name == "sval" else ("0.5",)
            return r.choice(consts + ("",)) or self.f(1)
        return str(r.choice({
            "fvar": self.floats(), "avar": self.arrays(), "kvar": self.ints(),
            "ivar": self.ints() + self.loop_ints(), "L": (self.L,),
            "fconst": ("0.5", "1.5", "-0.25", "2.0", "-1.0", "3.0"),
            "scale": ("0.5", "-1.0", "0.25", "1.5"), "red": ("sum", "mean", "max", "min"),
            "iconst": range(-3, 8), "imul": (2, -1, 3), "mod": range(2, 14),
            "mod5": range(2, 6), "bit": (0, 1), "anyall": ("any", "all"), "lt": "<>",
            "cmp": ("<", "<=", ">", ">=", "==", "!="), "augf": ("*=", "+=", "-="),
            "augi": ("+=", "-="), "auga": ("+=", "*="), "cmod": (7, 13, 97, 101)}[name]))

    def f(self, d=0):
        return self.draw("f", d)

    def i(self, d=0):
        return self.draw("i", d)

    def a(self, d=0):
        return self.draw("a", d)

    def cond(self, d=0):
        return self.draw("c", d)

    def loop_ints(self):
        return [f"i{k}" for k in range(self.loops) if f"i{k}" in self.live_ints]

    def index(self):
        r = self.r
        if r.random() < 0.4:
            return str(r.randint(-self.L, self.L - 1))
        return f"({self.i(2)}) % {self.L}"

    # -- statements -------------------------------------------------------------------------
    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    def assign(self, depth):
        r = self.r
        form = r.choice(_ASSIGN).replace("$s", r.choice(("s0", "s1"))).replace(
            "$v", r.choice(("v0", "v1")))
        self.emit(depth, re.sub(r"\{(\w+)\}", lambda m: self.part(m.group(1), 0), form))

    def bound(self):
        """An int loop bound, clipped to a few trips."""
        r = self.r
        pick = r.randrange(5)
        if pick == 0:
            return str(r.randint(0, 4))
        if pick == 1:
            return r.choice(("K0", "K1"))
        if pick == 2:
            return f"np.where({self.f(1)} > {self.f(1)}, {r.randint(0, 4)}, {r.randint(0, 4)})"
        if pick == 3:
            return f"np.minimum(np.maximum({self.i(1)}, 0), {r.randint(1, TRIPS)})"
        return f"np.sum({self.a(1)} > {self.f(1)})"

    def block(self, depth, n):
        for _ in range(n):
            self.statement(depth)

    def statement(self, depth):
        r = self.r
        pick = r.randrange(10 if depth < 4 else 4)
        if pick <= 3:
            self.assign(depth)
        elif pick == 4:
            self.emit(depth, f"if {self.cond()}:")
            self.block(depth + 1, r.randint(1, 3))
            for _ in range(r.randint(0, 2)):
                self.emit(depth, f"elif {self.cond()}:")
                self.block(depth + 1, r.randint(1, 2))
            if r.random() < 0.6:
                self.emit(depth, "else:")
                self.block(depth + 1, r.randint(1, 2))
        elif pick == 5:
            k = self.loops
            self.loops += 1
            form = r.randrange(3)
            if form == 0:
                head = f"range({self.bound()})"
            elif form == 1:
                head = f"range({r.randint(0, 2)}, {self.bound()}, {r.randint(1, 2)})"
            else:
                head = f"range({self.bound()}, 0, -1)"
            self.emit(depth, f"for i{k} in {head}:")
            self.live_ints.add(f"i{k}")
            self.loop_body(depth + 1)
            self.live_ints.discard(f"i{k}")
        elif pick == 6:
            k = self.loops
            self.loops += 1
            self.emit(depth, f"for e{k} in {r.choice(self.arrays())}:")
            self.live_floats.add(f"e{k}")
            self.loop_body(depth + 1, element=f"e{k}")
            self.live_floats.discard(f"e{k}")
        elif pick == 7:
            w = f"w{self.counters}"
            self.counters += 1
            self.emit(depth, f"{w} = 0")
            extra = f" and {self.cond(1)}" if r.random() < 0.6 else ""
            self.emit(depth, f"while {w} < {self.bound()}{extra}:")
            self.emit(depth + 1, f"{w} += 1")
            self.loop_body(depth + 1)
        elif pick == 8 and depth > 1 and r.random() < 0.4:
            self.emit(depth, f"if {self.cond()}:")
            self.emit(depth + 1, f"return {self.returns}")
        else:
            self.assign(depth)

    def loop_body(self, depth, element=None):
        r = self.r
        self.loop_depth += 1
        if element is not None:
            self.emit(depth, f"{r.choice(('s0', 's1'))} = {r.choice(('s0', 's1'))} * 0.5 + "
                             f"{element}")
        self.block(depth, r.randint(1, 3))
        if r.random() < 0.25:
            self.emit(depth, f"if {self.cond()}:")
            self.emit(depth + 1, r.choice(("break", "continue")))
            self.block(depth, 1)
        self.loop_depth -= 1

    def program(self):
        r = self.r
        self.live_ints, self.live_floats = set(), set()
        self.emit(0, "import numpy as np\n\n")
        self.emit(0, f"def generated({', '.join(self.params)}):")
        self.emit(1, f"K0 = {r.randint(-3, 7)}")
        self.emit(1, f"K1 = {r.randint(0, 5)}")
        floats = [p for p in ("x", "y") if p in self.params]
        arrays = [p for p in ("u", "q") if p in self.params]
        s_init = floats + ["1.0", "0.0", f"np.sum({arrays[0]})", f"abs({(floats or ['-0.5'])[0]})",
                           f"{arrays[0]}[{r.randint(-self.L, self.L - 1)}]"]
        self.emit(1, f"s0 = {r.choice(s_init)}")
        self.emit(1, f"s1 = {r.choice(s_init)}")
        ints = [p for p in ("n", "k") if p in self.params]
        c_init = ints + ["np.int64(3)", "0", f"np.sum({arrays[0]} > 0.0) - K0"]
        self.emit(1, f"c0 = {r.choice(c_init)}")
        v_init = arrays + [f"np.arange({self.L}) * 1.0", f"np.zeros({self.L})",
                           f"np.ones({self.L}) * 0.5", f"{arrays[0]} + {arrays[0]}"]
        self.emit(1, f"v0 = {r.choice(v_init)}")
        self.emit(1, f"v1 = {r.choice(v_init + ['v0'])}")
        self.emit(1, "b0 = False")
        self.block(1, r.randint(3, 6))
        self.emit(1, f"return {self.returns}")
        return "\n".join(self.lines) + "\n"


def _arguments(seed, params, L, count=4):
    rng = random.Random(20_000 + seed)

    def value():
        return rng.randint(-16, 16) / 4 if rng.random() < 0.8 else rng.uniform(-4, 4)
    calls = []
    for _ in range(count):
        call = []
        for p in params:
            if p in ("x", "y"):
                call.append(np.float64(value()))
            elif p in ("n", "k"):
                call.append(np.int64(rng.randint(-4, 9)))
            else:
                call.append(np.array([value() for _ in range(L)]))
        calls.append(tuple(call))
    return calls


def _candidate_seed(seed, attempt):
    return 1_000_003 * seed + attempt


_CACHE = {}


def generate(seed):
    """Program ``seed``: the first candidate that plain NumPy runs cleanly on its inputs."""
    if seed in _CACHE:
        return _CACHE[seed][0]
    for attempt in range(200):
        p = _Program(random.Random(_candidate_seed(seed, attempt)))
        source = p.program()
        calls = _arguments(seed, p.params, p.L)
        if _runs_cleanly(source, calls):
            _CACHE[seed] = (source, calls)
            return source
    raise AssertionError(f"no clean program for seed {seed}")


def _runs_cleanly(source, calls):
    scope = {"np": np}
    try:
        exec(compile(source, "<candidate>", "exec"), scope)
        with np.errstate(all="raise"), contextlib.redirect_stdout(None):
            for call in calls:
                scope["generated"](*[a.copy() if isinstance(a, np.ndarray) else a
                                     for a in call])
    except Exception:  # noqa: BLE001 - a candidate NumPy rejects is drawn again
        return False
    return True


def arguments(seed):
    """The argument tuples program ``seed`` was checked on (NumPy scalars and arrays)."""
    generate(seed)
    return _CACHE[seed][1]
