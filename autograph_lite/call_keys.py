"""What a Function (function.py) and its ConcreteFunctions (concrete.py) both read: the
signature key's relaxed Python scalars, the argument layouts a trace relied on, the
marker of a result's tensor slots, and the compile notice. (Its own module so that
neither of the two imports the other's internals.)"""
import os
import sys

import numpy as np

from . import nest

OUT = object()  # a tensor slot in a result's template (the rest are Python values)


class OptionalSlot:
    """A result leaf that is None on some runs (a template entry, beside OUT): the kernel's
    next `n` outputs, the value (`structure` None) or the leaves of a tuple packed as
    `structure`, then whether it is set; the call gives the value or None."""

    __slots__ = ("structure", "n")

    def __init__(self, structure=None, n=1):
        self.structure, self.n = structure, n


class Optional:
    """A result that is None on some runs and a value on others (AutoGraph's MaybeNone:
    `idx = None`, then set in a staged loop): the kernel returns `value` and `is_set`, the
    call gives the value or None (function.py, concrete.py). Attributes `value`, `is_set`
    are the subclass's."""

    __slots__ = ()


WEAK = {int: ("weak", int), float: ("weak", float)}  # a relaxed Python scalar's key part
WEAK_PARTS = frozenset(WEAK.values())


def fits(a):
    """Whether Python scalar ``a`` fits the weak tensor it would become (an int beyond
    int64 stays a signature value, as NumPy would refuse it)."""
    return type(a) is float or -2 ** 63 <= a < 2 ** 63


def is_weak_part(part):
    """Whether a signature-key part is a relaxed Python scalar's (``_scalar_key``)."""
    return part in WEAK_PARTS


def weak_arguments(args, positions):
    """``args`` with the relaxed Python scalars at ``positions`` as the NumPy scalars the
    kernel takes."""
    out = list(args)
    for i in positions:
        out[i] = np.int64(out[i]) if type(out[i]) is int else np.float64(out[i])
    return tuple(out)


def layout_of(layouts, args):
    """{leaf index: whether it is C-contiguous now} of the array arguments a trace relied
    on the layout of (``layouts``, the same at trace time: contiguity.py)."""
    leaves = nest.flatten(args)
    return {i: bool(leaves[i].flags.c_contiguous) for i in layouts}


def layouts_fit(layouts, args):
    """Whether those arguments have the layout the trace relied on."""
    return layout_of(layouts, args) == layouts


COMPILE_NOTICE_SECONDS = 1.0


def compile_notice(name, key, seconds):
    quiet = os.environ.get("AUTOGRAPH_LITE_QUIET", "") in ("1", "true")
    if seconds > COMPILE_NOTICE_SECONDS and not quiet:
        print(f"autograph_lite: compiling {name}{key} took {seconds:.1f} s", file=sys.stderr)
