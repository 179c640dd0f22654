"""Whether a trace read an array's size as a Python number (function.py's relaxing policy).

Converted code that reads a known size as a number (``len(x)``, ``x.shape[0]``, ``for v
in x``) usually shapes the program with it: a Python loop over ``range(len(x))`` unrolls,
so the kernel of that size can serve no other. On a compiled backend a Function whose
first trace bounded a loop with a size it read traces again at once with the dimensions
of the sizes read unknown, and compiles only that trace
(``function.Function._relax_read_sizes``: one Numba compile serves every length). Any
other Function whose first trace read sizes (a size read only to make arrays,
``np.arange(len(x))``, keeps exact-first: exact sizes let elementwise chains over several
arguments fuse, which relaxed ones cannot yet; or any trace on the interpreter) relaxes at
the second size without tracing that size exactly first (``function._bakes``): that exact
trace could only differ, and a third trace would follow (SPEC §2: at most two per rank and
dtype). The values read are kept, so that only the dimensions of those sizes relax.
"""
from ..ir.graph import root_graph
from .context import current_graph

_READ = "_reads_sizes"


def note_read(*known):
    """Called where converted code gets known sizes as Python numbers (``known``)."""
    graph = current_graph()
    if graph is not None:
        root_graph(graph).__dict__.setdefault(_READ, set()).update(
            int(d) for d in known if d is not None)


_LOOP = "_size_bounds_a_loop"


def note_loop(*bounds):
    """Called where a loop runs over a Python range (or an array's rows): marks the trace
    when one of its ``bounds`` is a size it read (``for i in range(len(x))``)."""
    graph = current_graph()
    if graph is not None:
        root = root_graph(graph).__dict__
        if any(int(b) in root.get(_READ, ()) for b in bounds):
            root[_LOOP] = True


def bound_a_loop(graph):
    """Whether a size the trace of ``graph`` read bounds one of its loops: the kernel
    then has it as the loop's trip count (or unrolls the loop)."""
    return graph.__dict__.get(_LOOP, False)


def were_read(graph):
    return bool(graph.__dict__.get(_READ))


def values_read(graph):
    """The sizes the trace of ``graph`` read as Python numbers."""
    return frozenset(graph.__dict__.get(_READ, ()))
