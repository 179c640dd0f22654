"""The random states a trace's Python code draws from: put back before a call is traced
again, and watched around code autograph does not convert.

One call may trace more than once (function.py: an exact trace whose sizes then relax, a
relaxed trace that fails and is done with exact sizes, a trace undone to carry the
objects' numbers as inputs). A draw made while tracing (``noise = np.random.normal()``,
baked into the trace: README "Random numbers") would then be drawn again by every later
trace, so the kept trace held another number than plain Python draws for the same seed,
and the stream was left further along. Each trace after the first starts from the states
the call found.

The states: NumPy's global one, Python's ``random``, and the generators (NumPy's
``Generator`` and ``RandomState``, Python's ``random.Random``) the code can reach by name:
among the arguments and the attributes of the objects among them, in the function's
closure, and in the module globals its code names (``G = np.random.default_rng(5)``,
``self.rng``). A generator made inside the code is new on every call: no state to watch.
"""
import random

import numpy as np

from autograph_lite import nest

_GENERATORS = (np.random.Generator, np.random.RandomState, random.Random)


def generators_of(fn, values):
    """The generators ``fn`` (a function, a bound method, a callable object) called with
    ``values`` can reach by name (module docstring), each once."""
    found, seen = [], set()

    def add(v):
        if isinstance(v, _GENERATORS) and id(v) not in seen:
            seen.add(id(v))
            found.append(v)

    def add_object(v):
        add(v)
        try:  # (its own attributes, past any __getattr__ of its class: a staged string's)
            attrs = object.__getattribute__(v, "__dict__")
        except Exception:  # noqa: BLE001 - no attributes to look at
            return
        if isinstance(attrs, dict) and not isinstance(v, type):
            for a in list(attrs.values()):
                add(a)
    for v in nest.flatten(values):
        add_object(v)
    owner = getattr(fn, "__self__", None)
    if owner is not None:
        add_object(owner)
    func = getattr(fn, "__func__", fn)
    code = getattr(func, "__code__", None)
    if code is not None:
        for cell in getattr(func, "__closure__", None) or ():
            try:
                add_object(cell.cell_contents)
            except ValueError:
                pass
        names = getattr(func, "__globals__", {})
        for name in code.co_names:
            add(names.get(name))
    return found


def _state(g):
    if isinstance(g, np.random.Generator):
        return g.bit_generator.state
    return g.get_state() if isinstance(g, np.random.RandomState) else g.getstate()


def _set_state(g, state):
    if isinstance(g, np.random.Generator):
        g.bit_generator.state = state
    elif isinstance(g, np.random.RandomState):
        g.set_state(state)
    else:
        g.setstate(state)


class Snapshot:
    """The states a call of ``fn`` with ``args`` found, before its first trace."""

    def __init__(self, fn, args):
        self._numpy = np.random.get_state()
        self._python = random.getstate()
        self._own = [(g, _state(g)) for g in generators_of(fn, args)]
        self._traces = 0
        self._after = {}  # id(trace) -> (its trace, the states it left)

    def before_trace(self):
        if self._traces:
            self._set(self._numpy, self._python, [s for _, s in self._own])
        self._traces += 1

    def traced(self, trace):
        """Notes the states ``trace`` (a ConcreteFunction this call made) left; and on it,
        the generators it reaches that it drew from (``trace.drawn``: (generator, state
        before, state after)), which later calls check (``check_drawn``)."""
        after = [_state(g) for g, _ in self._own]
        self._after[id(trace)] = (trace, (np.random.get_state(), random.getstate(), after))
        trace.drawn = [(g, s0, s1) for (g, s0), s1 in zip(self._own, after)
                       if not _same(s0, s1)]

    def resume(self, trace):
        """The call runs ``trace`` after a later trace failed: the states as that trace
        left them (one this call made), or as the call found them (a cached one: no
        draw of this call's)."""
        kept = self._after.get(id(trace))
        if kept is not None and kept[0] is trace:
            self._set(*kept[1])
        elif self._traces:
            self._set(self._numpy, self._python, [s for _, s in self._own])

    def _set(self, numpy_state, python_state, own):
        np.random.set_state(numpy_state)
        random.setstate(python_state)
        for (g, _), state in zip(self._own, own):
            _set_state(g, state)


def _same(a, b):
    """Whether two generator states are equal (RandomState's and some bit generators'
    hold arrays)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):  # (MT19937's and Philox's hold arrays)
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def check_drawn(trace, name):
    """Before a call runs ``trace``, which drew from generators the function reaches
    while it traced (the numbers are baked in, SPEC): each must be where it was when the
    trace began (a new generator of the same seed, given again), and is then moved to
    where the trace left it, as plain Python's draws would. One that has moved on (the
    same generator given again, `sim(rng)` in a loop) would get the first call's numbers
    again, silently: refused."""
    for g, before, _ in trace.drawn:
        if not _same(_state(g), before):
            raise TypeError(
                f"{name} drew random numbers from a {type(g).__name__} it is given (or "
                f"reaches) while it was traced: they are baked into the compiled function "
                f"(SPEC: Python's random draws happen once per trace), and this call's "
                f"generator has moved on since, so the call would repeat them where NumPy "
                f"draws new ones. Draw the numbers outside and pass them in, or draw with "
                f"ag.random.uniform/normal, which draw on every call")
    for g, _, after in trace.drawn:
        _set_state(g, after)


def _fingerprint(generators):
    """What tells whether a draw happened: the global states' positions and keys, and
    those of ``generators``."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    own = []
    for g in generators:
        s = _state(g)
        own.append((s[1].tobytes(), s[2:]) if isinstance(g, np.random.RandomState) else s)
    return keys.tobytes(), pos, has_gauss, gauss, random.getstate(), own


def draws(call, fn, values):
    """``call()``'s result (``fn`` called with ``values``), and whether it drew from NumPy's
    or Python's global random state or from a generator ``fn`` reaches (code autograph does
    not convert, called where a staged branch or loop is traced: calls.py)."""
    generators = generators_of(fn, values)
    before = _fingerprint(generators)
    out = call()
    return out, _fingerprint(generators) != before
