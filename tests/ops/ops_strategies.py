"""Hypothesis strategies for the op-table tests: every rank <= 3, every dtype family, and
on purpose the inputs that break kernels: non-contiguous (strided, reversed, Fortran
order) and zero-size arrays, and operands of mixed dtypes.

Compile time dominates (a new rank, dtype or memory layout is a new Numba compile; a new
size of the same ones is not), so the tests are shaped to draw many cases from few kernels:
- the rank and the dtype family are pytest parameters where the kernel depends on them, so
  CI covers every one by construction instead of by chance; hypothesis draws the sizes,
  the values and the dtype within the family;
- ``layouts(x)`` hands the same values in several layouts at once (C order and a strided
  view; also reversed and Fortran order where the test is about layouts), so every example
  has non-contiguous inputs without a kernel per layout;
- an op's dtype rules are per op, its rank and layout handling is the emitter's shared loop
  code: so every op meets every dtype family at one rank, and every rank, layout and
  broadcast meets representative ops (``deep()`` runs widen this);
- ``shapes`` draws a zero-size shape in about one example in five.

How many examples: the hypothesis profile (tests/conftest.py: ``ci`` by default,
``--hypothesis-profile=deep`` for long runs).
"""
import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

# The dtype families of SPEC §1 that the backends support (complex: not yet, see
# test_elementwise.py; float16: interpreter only, see test_float16_*).
FAMILIES = {
    "bool": (np.bool_,),
    "int": (np.int8, np.int32, np.int64),
    "uint": (np.uint8, np.uint32),
    "float": (np.float32, np.float64),
}
FLOATS = FAMILIES["float"]
INTS = FAMILIES["int"]
NUMERIC = FLOATS + INTS + FAMILIES["uint"]
ALL = NUMERIC + FAMILIES["bool"]
RANKS = (0, 1, 2, 3)


# CI draws these members of each family (each dtype is a compile of its own); deep runs all.
CI_FAMILIES = {"bool": (np.bool_,), "int": (np.int8, np.int64), "uint": (np.uint32,),
               "float": (np.float32, np.float64)}


# ...and the heaviest tests (one kernel of 15-30 ops, a compile of half a minute per dtype)
# draw only the narrowest member in CI, where NumPy's promotion and overflow rules bite.
CI_NARROWEST = {"bool": np.bool_, "int": np.int8, "uint": np.uint32, "float": np.float32}


def dtypes(family, narrowest=False):
    if narrowest and not deep():
        return st.just(CI_NARROWEST[family])
    return st.sampled_from((FAMILIES if deep() else CI_FAMILIES)[family])


def shapes(rank, max_side=4, min_side=0):
    """Shapes of `rank`; unless min_side > 0, a zero-size one (a side of 0) in about one
    example in five."""
    if rank == 0:
        return st.just(())
    sides = st.lists(st.integers(max(min_side, 1), max_side), min_size=rank,
                     max_size=rank).map(tuple)
    if min_side > 0:
        return sides
    zero = st.tuples(sides, st.integers(0, rank - 1)).map(
        lambda p: p[0][:p[1]] + (0,) + p[0][p[1] + 1:])
    return st.one_of(sides, sides, sides, sides, zero)


def elements(dtype, nan=False, lo=-100, hi=100):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        finite = st.floats(lo, hi, allow_nan=False, width=dtype.itemsize * 8)
        return st.one_of(finite, st.sampled_from([np.nan, np.inf, -np.inf, -0.0])) if nan \
            else finite
    if dtype.kind == "b":
        return st.booleans()
    info = np.iinfo(dtype)
    return st.integers(max(lo, info.min), min(hi, info.max))


def arrays(dtype, shape, nan=False, lo=-100, hi=100):
    """An array of ``dtype`` and ``shape``; a 0-d shape gives a NumPy scalar (a 0-d tensor
    argument), as users pass them."""
    shape = st.just(shape) if isinstance(shape, tuple) else shape
    return shape.flatmap(lambda s: st.lists(elements(dtype, nan, lo, hi), min_size=int(
        np.prod(s)), max_size=int(np.prod(s))).map(
        lambda v: _make(np.array(v, dtype=dtype).reshape(s))))


def _make(a):
    return a[()] if a.ndim == 0 else a


def strided(a):
    """The values of `a` as a view with a step of 2 in every axis (non-contiguous)."""
    if np.ndim(a) == 0:
        return a
    big = np.zeros(tuple(2 * s + 1 for s in a.shape), a.dtype)
    view = big[tuple(slice(1, None, 2) for _ in a.shape)]
    view[...] = a
    return view


def reversed_view(a):
    """The values of `a` as a view with negative strides in every axis."""
    if np.ndim(a) == 0:
        return a
    back = np.ascontiguousarray(a[tuple(slice(None, None, -1) for _ in a.shape)])
    return back[tuple(slice(None, None, -1) for _ in a.shape)]


def layouts(a, every=False):
    """The same values in several memory layouts: C order and a strided view; with `every`,
    also a reversed view and (rank >= 2) Fortran order. A 0-d value is a scalar: one layout.
    (Each layout is a Numba signature of its own: a new compile.)"""
    if np.ndim(a) == 0:
        return (a,)
    out = (np.ascontiguousarray(a), strided(a))
    if every:
        out += (reversed_view(a),) + ((np.asfortranarray(a),) if a.ndim >= 2 else ())
    return out


def deep():
    """Whether the loaded hypothesis profile is a long run (``--hypothesis-profile=deep``):
    tests then also draw what CI covers with representatives only."""
    return settings.default.max_examples > 100


def examples(n):
    """Settings for a test whose every example compiles a kernel of its own (a new axis,
    permutation or index is a new kernel): `n` examples in CI (with Explored checking that
    they still cover what the test is about), the profile's count in deep runs."""
    return settings() if deep() else settings(max_examples=n)


def broadcastable_pair(rank):
    """Two shapes of `rank` that broadcast together: sides of one of them stretched (size 1),
    zero-size now and then."""
    return shapes(rank).flatmap(lambda full: st.tuples(
        st.just(full), st.lists(st.booleans(), min_size=rank, max_size=rank).map(
            lambda ones: tuple(1 if one else d for one, d in zip(ones, full))))).flatmap(
        lambda pair: st.booleans().map(lambda swap: pair[::-1] if swap else pair))


class Explored:
    """What a property test's examples drew, checked when they have run: the examples must
    reach every rank / dtype family the test is about, so a strategy (or profile) change
    that stops drawing one fails loudly instead of silently testing less.

        explored = Explored(rank=RANKS)
        @given(...)
        def check(...): explored.note(rank=x.ndim); ...
        check()
        explored.check()
    """

    def __init__(self, **want):
        self.want = {k: set(v) for k, v in want.items()}
        self.seen = {k: set() for k in want}

    def note(self, **drawn):
        for k, v in drawn.items():
            self.seen[k].add(v)

    def check(self):
        for k, want in self.want.items():
            missing = want - self.seen[k]
            assert not missing, f"the examples never drew {k} = {sorted(map(str, missing))}"
