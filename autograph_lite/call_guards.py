"""A Function's own call path: its few most used kernels behind inline type guards.

The per-arity fast ``__call__`` (function.py ``_fast_call_class``) builds a key of every
argument (type, shape, dtype, strides) and looks it up in a table: about 600 ns before
the kernel runs, most of it building and hashing that key. A Function that has been
called through the checked path gets, in addition, a class of its own whose ``__call__``
tries its first ``INLINE_ENTRIES`` entries as straight-line guards, as CPython's own
inline caches do: ``type(a0) is float and type(a1) is ndarray and a1.ndim == 0 and
a1.dtype is k0``, then the kernel's compiled entry point and the result's wrapping,
written out with no calls in between. A miss goes on to the table path.

The guards say no more than the table's key does, except where the trace itself is
general: a relaxed Python scalar (``call_keys.WEAK``) is guarded by its type alone (and an
int by the int64 range its weak tensor holds), a relaxed array (a shape with ``None``
sizes) by its dtype, rank, static sizes and the memory layout its Numba overload was
compiled for: so the thousand lengths or Python-float values of SPEC §2 take one guard,
not a table entry (and a checked call) each.
"""
import numpy as np

from .call_keys import is_weak_part
from .errors import GENERATED
from .tensor import EagerTensor

INLINE_ENTRIES = 4
_INT64 = (-2 ** 63, 2 ** 63 - 1)


class Guard:
    """One inline entry: its condition and call text, and the objects they name."""

    def __init__(self):
        self.conds, self.passed, self.names, self.finish = [], [], {}, None
        self.bound = {}  # an argument expression -> the local a condition bound it to

    def bind(self, expr):
        """A local name for ``expr``, for a condition to assign (``:=``) and the call to
        reuse."""
        self.bound[expr] = f"v{len(self.bound)}"
        return self.bound[expr]

    def name(self, value):
        """A namespace name for ``value`` (a dtype, a type, a constant), unique per entry."""
        n = f"k{id(self)}_{len(self.names)}"
        self.names[n] = value
        return n


def guard_for(cf, args, entry):
    """The Guard of ``cf``'s kernel for arguments like ``args`` (they just took the checked
    path to it), or None when some argument is of a kind the guards do not cover.
    ``entry`` is ``cf._fast_parts(args)``: the raw entry point, the arguments it takes
    (position, how), and the constant arguments appended."""
    call, passed, consts = entry
    g = Guard()
    key = cf._key
    for i, a in enumerate(args):
        part = key[i] if i < len(key) else None
        if not _argument(g, f"a{i}", a, part):
            return None
    g.flat = [g.bound.get(f"a{i}{how}", f"a{i}{how}") for i, how in passed]
    g.passed = g.flat + [g.name(c) for c in consts]
    g.call = g.name(call)
    g.located = g.name(cf._located)
    g.finish = _finish(g, cf)
    return g


def _argument(g, v, a, part):
    """Appends argument ``v``'s conditions (its value ``a``, its signature-key ``part``)."""
    t = type(a)
    if t is float or t is int:
        if is_weak_part(part):  # relaxed: any value of the type (an int: int64's range)
            g.conds.append(f"type({v}) is {t.__name__}")
            if t is int:
                g.conds.append(f"{_INT64[0]} <= {v} <= {_INT64[1]}")
            return True
        if t is float and (a == 0.0 or a != a):
            return False  # (0.0 == -0.0: the value's bits are the signature; nan != nan)
        g.conds.append(f"type({v}) is {t.__name__} and {v} == {g.name(a)}")
        return True
    if t is bool or a is None:
        g.conds.append(f"{v} is {a!r}")
        return True
    if t is str:
        g.conds.append(f"type({v}) is str and {v} == {g.name(a)}")
        return True
    if isinstance(a, np.generic):
        g.conds.append(f"type({v}) is {g.name(t)}")
        return True
    if t is EagerTensor:
        g.conds.append(f"type({v}) is {g.name(EagerTensor)}")
        inner, v = a._np, f"{v}._np"
        local = g.bind(v)
        if isinstance(inner, np.generic):
            g.conds.append(f"type({local} := {v}) is {g.name(type(inner))}")
            return True
        g.conds.append(f"type({local} := {v}) is {g.name(np.ndarray)}")
        return _array(g, local, inner, part, v)
    if t is np.ndarray:
        g.conds.append(f"type({v}) is {g.name(np.ndarray)}")
        return _array(g, v, a, part)
    return False


def _array(g, v, a, part, expr=None):
    """Array ``v``'s conditions (``expr``: what ``v`` names, when a local)."""
    if a.ndim == 0:  # passed as its scalar (ConcreteFunction._scalar_inputs), whose type
        # fixes the dtype; an n-d array's [()] is an array, which fails the test
        scalar = g.bind(f"{expr or v}[()]")
        g.conds.append(f"type({scalar} := {v}[()]) is {g.name(type(a[()]))}")
        return True
    d = g.name(a.dtype)
    pattern = part[0] if isinstance(part, tuple) and len(part) == 2 else None
    if not (isinstance(pattern, tuple) and None in pattern):
        g.conds.append(f"{v}.shape == {g.name(a.shape)} and {v}.dtype is {d} and "
                       f"{v}.strides == {g.name(a.strides)}")
        return True
    # a relaxed trace: any sizes where the pattern has None; the overload's layout
    g.conds.append(f"{v}.ndim == {a.ndim} and {v}.dtype is {d}")
    g.conds += [f"{v}.shape[{k}] == {n}" for k, n in enumerate(pattern) if n is not None]
    flags = a.flags
    if flags.c_contiguous:
        g.conds.append(f"{v}.flags.c_contiguous")
    elif flags.f_contiguous:
        g.conds.append(f"{v}.flags.f_contiguous and not {v}.flags.c_contiguous")
    else:
        g.conds.append(f"not ({v}.flags.c_contiguous or {v}.flags.f_contiguous)")
    return True


def _finish(g, cf):
    """The lines that turn the kernel's ``raw`` result into what the call returns."""
    if cf._single:
        t = cf.graph.outputs[0].type
        e = g.name(EagerTensor)
        value = f"{g.name(t.dtype.type)}(raw)" if t.ndim == 0 else "raw"
        return [f"out = new({e})", f"out._np = {value}", "return out"]
    return [f"return {g.name(cf._finish)}(raw)"]


_TEMPLATE = """
def __call__(self, {params}, /, *rest, **kwargs):
    if not (rest or kwargs or blockers[0]){defaults_unpassed}:
{entries}
    return generic(self, {all_names}, *rest, **kwargs)
"""

_ENTRY = """\
        if {cond}:
            try:
                raw = {call}({passed})
            except Exception as e:
                raise {located}(e, ({flat})) from None
{finish}
"""


def guarded_class(base, n, given, guards, blockers, noarg):
    """A subclass of ``base`` (the per-arity fast class) whose ``__call__`` tries ``guards``
    first, then ``base.__call__`` (``noarg``: the default that says "not passed")."""
    ns = {"blockers": blockers, "generic": base.__call__, "new": object.__new__,
          "NOARG": noarg}
    entries = []
    for g in guards:
        ns.update(g.names)
        entries.append(_ENTRY.format(
            cond=" and ".join(g.conds) or "True", call=g.call, passed=", ".join(g.passed),
            located=g.located, flat="".join(f"{f}, " for f in g.flat),
            finish="".join(f"            {line}\n" for line in g.finish)))
    src = _TEMPLATE.format(
        params=", ".join(f"a{i}=NOARG" for i in range(n)),
        all_names=", ".join(f"a{i}" for i in range(n)),
        defaults_unpassed=f" and a{given} is NOARG" if given < n else "",
        entries="".join(entries))
    exec(compile(src, f"{GENERATED}guarded call>", "exec"), ns)
    return type("Function", (base,), {"__call__": ns["__call__"], "__slots__": ()})
