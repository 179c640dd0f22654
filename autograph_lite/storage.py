"""One buffer's identity while tracing: ``Storage``, and a box's storage.

The bottom of NumPy's mutation semantics (mutation.py, whose docstring tells the whole
story): a Storage is made here for a box on first need, and contiguity.py reads it; the
writes, merges and replays that change it are mutation.py's, a layer above the ops.
"""
import itertools

from .tensor import serials  # (one counter for boxes and storages)

MADE, ARG, TENSOR, SCALAR = "made", "arg", "tensor", "scalar"
# a NumPy array of trace time that may not become a box (captured, or a view of another):
# writing into it is refused with the reason the storage holds (``frozen``)
FROZEN = "frozen"

generations = itertools.count(1)  # one counter: a restored storage never repeats a number


class Storage:
    """One buffer's identity while tracing (see the module docstring)."""
    __slots__ = ("base", "gen", "origin", "name", "index", "serial", "sources", "options",
                 "synced", "refusal", "writes", "hazards", "first", "rows_copied")

    def __init__(self, base, origin=MADE, name=None, index=None, sources=(), serial=None):
        self.base = base
        self.first = base         # the Value it was made as: its layout (contiguity.py)
        self.gen = 0
        self.origin = origin
        self.name = name
        self.index = index        # argument position (origin ARG)
        # storages with a serial below a region's mark existed before it
        self.serial = next(serials) if serial is None else serial
        self.sources = sources    # FROZEN: (the error a write raises,)
        # the buffers of other storages this one may be at run time (a staged branch or
        # loop result, see "merges" in mutation.py): Options, first match wins
        self.options = ()
        self.synced = None        # gen_of(self) when base last agreed with every option
        self.refusal = None       # why a merge cannot be written (an exception), or None
        self.writes = 0           # set_base calls: a hazard below is written when it moves
        self.hazards = ()         # ((storage, writes)): buffers a refused merge may view
        self.rows_copied = None   # a staged list's view chain length: writes through its
        #                           rows (longer chains) are refused (mutation.check_writable)

    def __repr__(self):
        return f"<Storage #{self.serial} {self.origin} {self.name or ''} gen={self.gen}>"


def storage_of(box):
    """The box's storage (a box made by an op gets one on first need)."""
    s = box._storage
    if s is None:  # made lazily: as old as the box, which may predate the region
        s = box._storage = Storage(box._v, serial=box._born)
        box._gen = 0
    return s


def is_argument_itself(box):
    """Whether ``box`` is an array argument itself (not a view of one, nor a value made
    from it): what stays an ndarray in the plain run where other 0-d values are NumPy
    scalars (autograph/runtime/core.py ``numpy_type``)."""
    s = box._storage
    return s is not None and s.origin == ARG and not box._chain


def step_output(attrs):
    """A view step's op attributes, and which output of several it is (split; else None)."""
    if "_output" not in attrs:
        return attrs, None
    attrs = dict(attrs)
    return attrs, attrs.pop("_output")
