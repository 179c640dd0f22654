"""The random states a trace's Python code draws from, put back before a call is traced
again.

One call may trace more than once (function.py: an exact trace whose sizes then relax, a
relaxed trace that fails and is done with exact sizes, a trace undone to carry the
objects' numbers as inputs). A draw made while tracing (``noise = np.random.normal()``,
baked into the trace: README "Random numbers") would then be drawn again by every later
trace, so the kept trace held another number than plain Python draws for the same seed,
and the stream was left further along. Each trace after the first starts from the states
the call found: NumPy's global state, Python's ``random``, and the generators passed as
arguments.
"""
import random

import numpy as np

from autograph_lite import nest


class Snapshot:
    def __init__(self, args):
        self._numpy = np.random.get_state()
        self._python = random.getstate()
        self._generators = [(g, g.bit_generator.state) for g in nest.flatten(args)
                            if isinstance(g, np.random.Generator)]
        self._legacy = [(g, g.get_state()) for g in nest.flatten(args)
                        if isinstance(g, np.random.RandomState)]
        self._traces = 0

    def before_trace(self):
        if self._traces:
            np.random.set_state(self._numpy)
            random.setstate(self._python)
            for g, state in self._generators:
                g.bit_generator.state = state
            for g, state in self._legacy:
                g.set_state(state)
        self._traces += 1


def _fingerprint(values):
    """What tells whether a draw happened: the global states' positions and keys, and
    those of the generators among ``values``."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    own = [g.bit_generator.state if isinstance(g, np.random.Generator) else
           (g.get_state()[1].tobytes(), g.get_state()[2])
           for g in nest.flatten(values)
           if isinstance(g, (np.random.Generator, np.random.RandomState))]
    return keys.tobytes(), pos, has_gauss, gauss, random.getstate(), own


def draws(call, values):
    """``call()``'s result, and whether it drew from NumPy's or Python's global random
    state or from a generator among ``values`` (code autograph does not convert, called
    where a staged branch or loop is traced: calls.py)."""
    before = _fingerprint(values)
    out = call()
    return out, _fingerprint(values) != before
