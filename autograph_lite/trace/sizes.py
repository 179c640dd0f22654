"""Whether a trace read an array's size as a Python number (function.py's relaxing policy).

Converted code that reads a known size as a number (``len(x)``, ``x.shape[0]``, ``for v
in x``) usually shapes the program with it: a Python loop over ``range(len(x))`` unrolls,
so the kernel of that size can serve no other. A Function whose first trace did so relaxes
at the second size at once instead of tracing it exactly first (``function._bakes``):
that exact trace could only differ, and a third trace would follow (SPEC §2: at most two
per rank and dtype).
"""
from ..ir.graph import root_graph
from .context import current_graph

_READ = "_reads_sizes"


def note_read():
    """Called where converted code gets a known size as a Python number."""
    graph = current_graph()
    if graph is not None:
        root_graph(graph).__dict__[_READ] = True


def were_read(graph):
    return graph.__dict__.get(_READ, False)
