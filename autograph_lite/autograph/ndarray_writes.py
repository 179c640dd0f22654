"""The ndarray methods that write into the array they are called on (`a.sort()`,
`a.fill(v)`): one list for the converter that rebinds their receivers after the call
(converters/shared_names.py) and the runtime that runs them on the array's box
(runtime/calls.py ``_on_box``). A module of its own: converters import no runtime module."""

WRITING_METHODS = frozenset(("fill", "sort", "put", "partition", "resize", "byteswap",
                             "setfield", "itemset"))
