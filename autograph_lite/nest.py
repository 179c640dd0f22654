"""Nested structures (tuples, lists, dicts, namedtuples) flattened to leaves and back."""
import collections

_DICTS = (collections.OrderedDict, collections.defaultdict)


def kind(x):
    """The container ``x`` is, as the leaves are found and rebuilt: dict, list or tuple (a
    namedtuple is a tuple, an OrderedDict or defaultdict a dict); None for a leaf; False
    for another subclass of them, whose own behaviour a rebuilt one would not have (its
    constructor, its methods): the callers refuse it."""
    t = type(x)
    if t is dict or t is list or t is tuple:
        return t
    if not isinstance(x, (dict, list, tuple)):
        return None
    if isinstance(x, tuple) and hasattr(t, "_fields"):
        return tuple
    return dict if t in _DICTS else False


def is_nested(x):
    return isinstance(x, (tuple, list, dict))


def flatten(structure):
    """Leaves in a fixed order (dicts by sorted key)."""
    out = []

    def visit(x):
        if isinstance(x, dict):
            for k in sorted(x, key=repr):
                visit(x[k])
        elif isinstance(x, (tuple, list)):
            for v in x:
                visit(v)
        else:
            out.append(x)
    visit(structure)
    return out


def leaf_paths(structure, name):
    """The leaves' paths as the user writes them (`bufs[0]`, `st['u']`, `p.x`), in flatten
    order: ``name`` itself for a leaf."""
    out = []

    def visit(x, path):
        if isinstance(x, dict):
            for k in sorted(x, key=repr):
                visit(x[k], f"{path}[{k!r}]")
        elif isinstance(x, tuple) and hasattr(x, "_fields"):
            for f, v in zip(x._fields, x):
                visit(v, f"{path}.{f}")
        elif isinstance(x, (tuple, list)):
            for i, v in enumerate(x):
                visit(v, f"{path}[{i}]")
        else:
            out.append(path)
    visit(structure, name)
    return out


def pack_as(structure, leaves):
    """Rebuilds ``structure`` with ``leaves`` in flatten order."""
    it = iter(leaves)

    def build(x):
        if isinstance(x, dict):
            vals = {k: build(x[k]) for k in sorted(x, key=repr)}  # leaves in flatten order
            pairs = ((k, vals[k]) for k in x)  # keys in the caller's order
            if isinstance(x, collections.defaultdict):
                return type(x)(x.default_factory, pairs)
            return type(x)(pairs)
        if isinstance(x, tuple) and hasattr(x, "_fields"):
            return type(x)(*[build(v) for v in x])
        if isinstance(x, (tuple, list)):
            return type(x)(build(v) for v in x)
        return next(it)
    return build(structure)


def same_structure(a, b):
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b)
                and all(same_structure(a[k], b[k]) for k in a))
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list))
                and len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b)))
    return True


def structure_key(structure):
    """A hashable description of the structure alone (leaves replaced by '.')."""
    if isinstance(structure, dict):
        return ("dict", tuple((repr(k), structure_key(structure[k]))
                              for k in sorted(structure, key=repr)))
    if isinstance(structure, (tuple, list)):
        return (type(structure).__name__, tuple(structure_key(v) for v in structure))
    return "."
