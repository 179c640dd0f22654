"""The state a compiled call changes, as it was before the call, for the gradient of its
tape entry when that gradient computes the forward again (tape.py: the one-kernel gradient,
under nested tapes, or for a call with the user's objects among its arguments).

Why: such a gradient runs the function again, in a kernel of its own, after the call. It
would read what the call wrote: `loss = (self.w * x * x).sum(); self.w *= 2` gave the
gradient of the doubled w, and the variable a call assigns, or an array argument it wrote,
was read after the write; and it would write all of it a second time (w doubled twice).
The split gradient (residuals.py) has neither problem: its forward kernel is the call.

So the entry keeps, taken before the call, copies of the arrays the call writes (array
arguments, arrays its objects hold, variables' buffers) and the attributes and items of
its objects (slots.Snapshot: a trace of the gradient runs the function's Python again,
whose effects on them, `self.calls += 1`, must not stay). The gradient runs with those in
place (``StateBefore.swapped``: each gradient of a persistent tape starts from the same
state), and the state the call left is put back after."""
import contextlib

import numpy as np

from .. import held_state


class StateBefore:
    """What one call changes, before it (module docstring); None from ``of`` when the call
    changes nothing and reaches no objects."""

    def __init__(self, function, args, cf, tensors):
        n_tensors = len(tensors)
        written = {i for i, _ in cf.graph.input_updates}
        self.found = held_state.holders(function, args)
        by_selector = dict(self.found)
        # {position among the call's tensors: copy} of the array arguments it writes
        self.arguments = {i: tensors[i].copy() for i in written if i < n_tensors}
        # (selector, steps, copy) of the held arrays it reads, by their paths, and (variable,
        # copy of its buffer) of the variables: all of them, which the caller too may write
        # before asking for the gradient (the written arguments are the entry's, tape.py)
        held = [(sel, steps, held_state.fetch(by_selector, sel, steps)) for sel, steps in cf.held]
        self.held = [(sel, steps, a.copy()) for sel, steps, a in held
                     if type(a) is np.ndarray]  # (a NumPy number: the Snapshot's)
        self.variables = [(v, v._np.copy()) for v in cf._variables]
        self.objects = _snapshot(self.found)

    @staticmethod
    def of(function, args, cf, tensors):
        if not (cf.graph.input_updates or cf.held or held_state.holders(function, args)):
            return None
        return StateBefore(function, args, cf, tensors)

    @contextlib.contextmanager
    def swapped(self):
        """Puts the state of before the call in place while the gradient runs (the
        values of the arrays the call wrote, copied into them; the objects' attributes
        and items), and the call's back after; yields {position among the call's
        tensors: a fresh copy} for the written array arguments, which the gradient is
        given instead (the entry holds them as immutable tensors)."""
        now = _snapshot(self.found)
        if self.objects is not None:
            self.objects.restore()
        by_selector = dict(self.found)
        targets = [(held_state.fetch(by_selector, sel, steps), copy)
                   for sel, steps, copy in self.held]
        targets += [(v._np, copy) for v, copy in self.variables]
        after = [(array, array.copy()) for array, _ in targets]
        for array, copy in targets:
            np.copyto(array, copy)
        try:
            yield {i: copy.copy() for i, copy in self.arguments.items()}
        finally:
            for array, values in after:
                np.copyto(array, values)
            if now is not None:
                now.restore()


def _snapshot(found):
    if not found:
        return None
    from ..autograph.runtime import slots
    return slots.Snapshot([(obj, str(sel)) for sel, obj in found])
