"""generators: `sum`/`any`/`all`/`max`/`min` of a generator expression become a staged
loop."""

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite.autograph.converters.generators import GeneratorTransformer

from .conftest import assert_equivalent, convert_only
from .three_way import agree

U = np.array([1.0, -2.0, 3.0, 0.5])


def reductions(u, w):
    return (sum(v * v for v in u if v > 0 and v < 2.5),   # a filter on a tensor
            sum(1 for v in u if v < 0),                  # a count
            sum((v for v in u), 10.0),                   # sum's start
            sum(a * b for a, b in zip(u, w)),            # a tuple target
            sum(i * v for i, v in enumerate(u) if i % 2),
            any(v > 2.5 for v in u), all(a < b for a, b in zip(u, w)),
            any(v > 9.0 for v in u if v > 0),
            sum(sum(v for v in row) for row in np.outer(u, w)),
            max(abs(v) for v in u), min([u[0], u[1] * 2.0]))


def test_shape():
    src = convert_only(reductions, GeneratorTransformer)
    assert ("ag__.reduce_generator(sum, u, lambda v: v > 0 and v < 2.5, lambda v: v * v, "
            "unpack=False)") in src
    assert "ag__.reduce_generator(sum, u, None, lambda v: v, unpack=False, 10.0)" in src or \
        "ag__.reduce_generator(sum, u, None, lambda v: v, 10.0, unpack=False)" in src
    assert ("ag__.reduce_generator(sum, zip(u, w), None, lambda a, b: a * b, unpack=True)"
            in src)
    assert "ag__.reduce_generator(max, u, None, lambda v: abs(v), unpack=False)" in src
    assert "min([u[0], u[1] * 2.0])" in src  # (of a list: the runtime's min)


def test_python_values_behave_as_python():
    assert_equivalent(reductions, [([1.0, -2.0, 3.0], [2.0, 0.5, 4.0]), ([], [])])


def test_agrees_with_numpy_on_tensors():
    # before: TypeError (the `if` of a generator tests a tensor), and loops over a tensor
    # unrolled, one trace per length
    agree(reductions, [(U, U[::-1].copy()), (U[:3], np.ones(3)), (np.array([-1.0]),
                                                                  np.array([2.0]))])


def counts_positive(u):
    return sum(1 for v in u if v > 0)


def test_one_trace_for_every_length_and_a_loop_not_unrolled():
    f = ag.defun(counts_positive)
    for n in (5, 6, 100_000, 7):
        x = np.linspace(-1.0, 1.0, n)
        assert f(x).numpy() == counts_positive(x)
    assert f.experimental_get_tracing_count() <= 2  # (exact first, then any length)


def shadows_sum(u):
    def sum(values):  # noqa: A001 - a function of the user's named `sum`
        return "mine:" + ",".join(str(v) for v in values)
    return sum(str(v) for v in range(3))


def test_a_function_named_sum_gets_the_generator():
    assert_equivalent(shadows_sum, [(U,)])


def sums_strings(u):
    return sum((str(v) for v in range(3)), "")


def test_a_sum_of_strings_raises_as_python():
    assert_equivalent(sums_strings, [(U,)])


def comprehensions(u, w):
    return (np.array([a * b for a, b in zip(u, w)]), [i * v for i, v in enumerate(u, 1)],
            np.array([v for v in reversed(u)]), sum(list(zip(u, w))[-1]))


def test_comprehensions_over_zip_enumerate_reversed_of_tensors_unroll():
    # a list comprehension over a tensor of a length known while tracing unrolls (one
    # item per row); over zip/enumerate/reversed of tensors it raised TypeError
    agree(comprehensions, [(U, U[::-1].copy()), (U[:3], np.ones(4))])


def over_tensor_range(u, n):
    return [u[i] for i in range(n)]


def test_a_comprehension_over_a_run_time_length_says_to_write_a_loop():
    with pytest.raises(TypeError, match=r"a range whose length is a tensor .* at .*"
                                        r"test_generators.py:\d+ cannot be iterated by "
                                        r"Python .* Use a `for` loop"):
        ag.defun(over_tensor_range)(U, np.int64(2))


# Session 52's probe: `any`/`all` ran every item, where Python stops at the first that
# decides: an item past it read out of bounds (an IndexError), and the writes and counts of
# the items past it happened (both backends)
def stops_at_the_deciding_item(x, n, out):
    def marked(i):
        out[i] += 1.0
        return x[i] > 2.0
    return (any(x[i] > 2.0 for i in range(n)), all(x[i] < 2.0 for i in range(n)),
            any(marked(i) for i in range(x.shape[0])),
            all(marked(i) < 1.0 for i in range(x.shape[0]) if x[i] > 0.5))


def test_any_and_all_stop_where_python_stops():
    agree(stops_at_the_deciding_item, [
        (np.array([1.0, 3.0, 0.0]), 5, np.zeros(3)),   # (x[3] would raise past the 3.0)
        (np.array([1.0, 1.0, 1.0]), 3, np.zeros(3)),
        (np.linspace(-1.0, 3.0, 40), 40, np.zeros(40))])  # (a staged loop: a staged stop)


def extremes(x, t, n):
    """max/min of generators with a filter on tensors (refused as a comprehension's `if`
    on a tensor before session 53), with `default=`, over a staged range, a tuple target."""
    return (max(v for v in x if v > t),
            min((v * 2.0 for v in x if v > t), default=None),
            max((x[i] for i in range(n) if x[i] < t), default=t),
            min(a - b for a, b in zip(x, x[::-1])),
            max((v for v in x if v < t), default=-1.0))


def test_max_and_min_of_a_filtered_generator_as_python():
    """NaNs kept or skipped in the order Python's loop compares them, nothing passing the
    filter (default, None, or Python's ValueError with its own text), a zero-trip range."""
    x = np.array([1.0, 5.0, 2.0, 4.0])
    errors = agree(extremes, [(x, 1.5, 4), (x, 9.0, 0), (np.array([3.0, np.nan, 2.0]), 0.0, 3),
                           (np.array([np.nan, 3.0, 7.0]), 2.5, 2), (x[:1], 0.5, 1)])
    assert errors and all(m.startswith("max() arg is an empty sequence (at ")
                          for _, _, m in errors)


def extreme_per_row(m):
    out = np.zeros(m.shape[0])
    for i in range(m.shape[0]):
        out[i] = max((m[i, j] for j in range(m.shape[1]) if m[i, j] > 0), default=0.0)
    return out


def test_max_of_a_filtered_row_inside_a_loop():
    agree(extreme_per_row, [(np.array([[1.0, -2.0, 3.0], [-3.0, -4.0, -1.0]]),),
                                  (np.array([[0.5, 2.0, 7.0]]),)])


def test_max_with_key_stays_a_generator():
    def f(u):
        return max((v for v in u), key=abs), max(abs(v) for v in u)
    src = convert_only(f, GeneratorTransformer)
    assert "max((v for v in u), key=abs)" in src
    assert "reduce_generator(max, u" in src


def filtered_lists(x, m, t):
    """`[e for v in xs if c]` on tensors (a TypeError before session 57: Python runs a
    comprehension by itself, and its `if` cannot be staged): the loop with an append in a
    staged `if`; over a tensor, a range, enumerate and zip, two `if`s, rows of a matrix,
    inside a staged loop, read by len/sum/np.array/indexing/max."""
    pos = [v for v in x if v > t]
    ids = [i for i in range(x.shape[0]) if x[i] > t]
    odd = [i * v for i, v in enumerate(x) if i % 2 if v < 4.0]
    steps = [a - b for a, b in zip(x[1:], x[:-1]) if a > b]
    rows = [r for r in m if r.sum() > 0]
    per_row = 0
    for i in range(m.shape[0]):
        kept = [v for v in m[i] if v > t]
        per_row += len(kept)
    return (len(pos), np.array(pos).sum(), np.array(ids, dtype=np.int64), len(odd),
            steps[-1] if steps else -1.0, np.array(rows).sum() if rows else 0.0, per_row,
            max(pos) if pos else None, np.mean([v * 2 for v in x if v != t]))


def test_a_filtered_list_comprehension_on_tensors_is_a_staged_loop():
    src = convert_only(filtered_lists, GeneratorTransformer)
    assert ("ag__.filtered_list(x, lambda v: v > t, lambda v: v, unpack=False)"
            in src.replace("\n", " "))
    m = np.array([[1.0, -2.0], [3.0, 4.0], [-5.0, 1.0]])
    agree(filtered_lists, [(U, m, 0.0), (U, m, 2.5), (np.array([-1.0, 5.0]), -m, 9.0)])


def python_filtered(n):
    return sum([i * i for i in range(n) if i % 2]), [k for k in "abc" if k != "b"]


def test_a_filtered_comprehension_on_python_values_is_pythons():
    assert ag.defun(python_filtered)(5) == (10, ["a", "c"])
