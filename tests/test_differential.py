"""The differential check itself (differential.py): it must see every kind of difference.

Each case hands ``agree`` a fake "backend" (a plain Python function standing in for a
compiled one) that differs from the oracle in one way, and asserts that the check fails
naming it; then the copies the sides run on, and one real case.
"""
import numpy as np
import pytest

import autograph_lite as ag
from differential import agree, assert_same, fresh, varied


def fill(out):
    out[0] = 1.0  # SPEC §3's own example


def forgets_the_write(out):
    return None


def _fails(fn, fake, *args, match, **kw):
    with pytest.raises(AssertionError, match=match):
        agree(fn, *args, functions={"fake": fake}, **kw)


def test_a_write_into_an_argument_that_does_not_reach_the_caller():
    _fails(fill, forgets_the_write, np.zeros(3), match="fake.*argument\\[0\\]")


def test_a_write_into_an_argument_that_python_leaves_alone():
    def reads(x):
        return x.sum()

    def scribbles(x):
        total = x.sum()
        x[1] = 5.0  # the right result, and a write nobody asked for
        return total
    _fails(reads, scribbles, np.arange(3.0), match="argument")


def test_a_list_argument_changed_differently():
    def appends(xs):
        xs.append(1)
        return len(xs)

    def appends_another(xs):
        xs.append(2)
        return len(xs)
    _fails(appends, appends_another, [0], match="argument", python=True)


@pytest.mark.parametrize("fake, match", [
    (lambda x: (x * 2).astype(np.float32), "dtype float32, plain Python gives float64"),
    (lambda x: [x * 2], "is not an array"),
    (lambda x: x * 2 + 1e-3, "Not equal to tolerance"),
    (lambda x: (x * 2)[:1], "shape"),
])
def test_results_dtype_structure_value_and_shape(fake, match):
    _fails(lambda x: x * 2, fake, np.arange(3.0), match=match)


def test_a_tuple_of_results_is_not_a_list():
    _fails(lambda x: (x, x), lambda x: [x, x], np.ones(2), match="list.*tuple")


def test_what_is_printed():
    def shout(x):
        print("x is", x)
        return x

    def mumbles(x):
        print("x:", x)
        return x
    _fails(shout, mumbles, np.float64(2.0), match="printed")


def test_the_exception_type():
    def raises_value(x):
        raise ValueError("bad")

    def raises_type(x):
        raise TypeError("bad")
    _fails(raises_value, raises_type, np.ones(1), match="TypeError.*plain Python raised "
                                                         "ValueError")
    _fails(raises_value, lambda x: x, np.ones(1), match="returned.*plain Python raised")
    _fails(lambda x: x, raises_type, np.ones(1), match="raised TypeError.*plain Python returned")


def test_state_leaking_from_one_call_into_the_next():
    """The second call (on rolled values) sees what the first left behind."""
    seen = []

    def remembers(x):
        seen.append(x.copy())
        return seen[0] * 2.0
    _fails(lambda x: x * 2.0, remembers, np.arange(3.0), match="call 1")


def test_results_compare_bit_for_bit_when_exact():
    _fails(lambda x: x / 3.0, lambda x: x * (1 / 3.0), np.arange(1.0, 8.0), match="equal",
           exact=True)
    agree(lambda x: x / 3.0, np.arange(1.0, 8.0), functions={"same": lambda x: x / 3.0},
          exact=True)


def test_independent_oracles_refuse_ag_ops():
    with pytest.raises(AssertionError, match="oracle used an ag"):
        agree(lambda x: ag.square(x), np.arange(3.0), functions={"fake": np.square},
              independent=True)
    agree(lambda x: ag.square(x), np.arange(3.0), functions={"fake": np.square},
          oracle=np.square, independent=True)


def test_python_results_keep_their_python_types():
    _fails(lambda n: n * 2, lambda n: float(n * 2), 3, match="float, plain Python gives int",
           python=True)


# --- the copies each side runs on -----------------------------------------------------

def test_fresh_copies_keep_layout_sharing_and_flags():
    base = np.arange(24.0).reshape(4, 6)
    ro = np.arange(3)
    ro.flags.writeable = False
    args = (base[::2, 1::2], np.asfortranarray(base), base[::-1], base, base[1:], base,
            np.float64(3.0), np.zeros((0, 3)), ro, [base[0]], {"k": base[:, 0]})
    c = fresh(args)
    for a, b in zip(args[:6], c[:6]):
        assert b.strides == a.strides and b.flags.c_contiguous == a.flags.c_contiguous
        assert_same(b, a)
        assert not np.shares_memory(a, b)
    assert c[3] is c[5]                                      # one object stays one object
    assert np.shares_memory(c[3], c[4]) and np.shares_memory(c[0], c[3])  # views stay views
    c[3][1, 0] = -1.0
    assert c[4][0, 0] == -1.0 and base[1, 0] == 6.0
    assert c[6] is args[6] and c[7].shape == (0, 3)
    assert not c[8].flags.writeable and c[8].tolist() == [0, 1, 2]
    assert isinstance(c[9], list) and np.shares_memory(c[9][0], c[3])
    assert np.shares_memory(c[10]["k"], c[3])


def test_varied_rolls_array_values_in_place_of_layout():
    x = np.arange(12.0).reshape(3, 4)[:, ::2]
    v = varied((x, np.float64(2.0), 5, np.zeros(0)))
    assert v[0].strides == x.strides
    assert v[0].tolist() == [[10.0, 0.0], [2.0, 4.0], [6.0, 8.0]]
    assert v[1] == 2.0 and v[2] == 5 and v[3].shape == (0,)


# --- the real product ------------------------------------------------------------------

def test_the_spec_fill_example_on_both_backends():
    agree(fill, np.zeros(3))
