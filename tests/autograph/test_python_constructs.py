"""Python constructs of ordinary code on tensors, each three ways (plain Python,
interpreter, cpu) over several inputs: `match` (converters/match_statements.py), a walrus in
a `while` test (converters/loop_tests.py), `itertools.product` of staged ranges and rows
(runtime/iteration.py `Product`), `max`/`min` with `key=`, `sorted` of lists and with
`key=`, builtins passed as functions (`map(float, x)`), `complex(a, b)`
(runtime/builtins_.py), and
`math.isclose` (runtime/math_calls.py). Each raised before (TypeError, or NameError for
the walrus)."""
import functools
import itertools
import math
import re

import numpy as np
import pytest

import autograph_lite as ag

from .three_way import agree

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (NaN and inf inputs)


def matched(x, k):
    match k:
        case 0:
            return x * 2
        case 1 | 2:
            return x + 1
        case n if n > 5:          # a capture with a guard
            return x * n
        case 4 as four if x > 0:  # a value with `as` and a guard: on failure, the next
            return x - four
        case _:
            return -x


def test_match_on_a_tensor_is_its_if_chain():
    agree(matched, [(np.float64(2.0), np.int64(k)) for k in (0, 1, 2, 3, 4, 5, 7)]
          + [(np.float64(-2.0), np.int64(4))])


def matched_in_a_loop(x, ks, mode):
    s = 0.0
    for k in ks:
        match k % 3:
            case 0:
                s += x
            case 1:
                continue          # a jump inside a case
            case _:
                s -= 1.0
        s *= 1.5
    match mode:                   # on a Python string: Python's match, while tracing
        case "neg":
            s = -s
    return s


def test_match_in_a_loop_and_on_python_values():
    agree(matched_in_a_loop, [(np.float64(2.0), np.arange(7), "neg"),
                              (np.float64(-1.0), np.arange(3), "pos")])


def alternatives_that_bind(x, k):
    match k:
        case (1 as a) | (2 as a):   # left to Python's match (the `if` chain cannot bind)
            return x * a
        case _:
            return x


def test_a_match_whose_alternatives_bind_runs_as_python():
    agree(alternatives_that_bind, [(np.float64(2.0), 2), (np.float64(2.0), 5)])


def walrus_tests(x, lim):
    n = 0
    while (y := x[n % len(x)] * n) < 10.0:    # y read after the loop
        n += 1
    k = 0
    while (s := np.sum(x[:k])) < lim:
        k += 1
        if k > len(x):
            break                               # skips the else
        if s < 0:
            continue                            # the test (and its walrus) runs again
    else:
        s = -s                                  # runs where the test failed
    return n, y, k, s


def test_a_walrus_in_a_while_test_binds_the_name_as_python():
    agree(walrus_tests, [(np.array([1.0, 2.0, 3.0]), np.float64(2.5)),
                         (np.array([1.0, -2.0, 3.0]), np.float64(25.0))])


def walrus_in_and_chains(x, lim):
    t = 0.0
    for j in range(3):
        w = 0
        while (w := w + 1) <= 3 and x[w % 3] * j < lim:   # first in an `and`
            t += x[w % 3]
        else:
            if j == 1:
                break                                      # leaves the `for`, not the while
            t += 100.0
    r = 0.0
    if (m := x[0] * 2) > 1 and m < 5:
        r = m
    elif not ((k := x[1]) > 0 or k < -5):
        r = k
    return t, w, r, m


def test_a_walrus_first_in_an_and_chain_and_an_else_that_breaks_an_outer_loop():
    # before: UnboundLocalError (the walrus bound a name of the lambda `and` made)
    agree(walrus_in_and_chains, [(np.array([1.0, 2.0, 3.0]), np.float64(2.5)),
                                 (np.array([0.1, -1.0, 3.0]), np.float64(25.0)),
                                 (np.array([0.1, -9.0, 3.0]), np.float64(0.5))])


def walrus_in_later_operands(x, n):
    i, v = 0, 0.0
    while i < len(x) and (v := x[i]) > 0:                 # later in a `while` test
        i += 1
    k = 0.0
    if x[0] > 0 and (k := x[1] * 2) > 3:                  # later in an `if` test
        k = k + 1
    c = 0.0
    big = x[2] > 5 or (c := x[1] + n) > 0                 # an assignment's value
    r = (y := x[0] * 2) if x[1] > 0 else (y := -1.0)      # the arms of a conditional
    p = (q := n * 2) if n > 1 else (q := -1)               # (Python values)
    a = b = 0.0
    if (x[0] > 0 or (a := x[1]) > 2) and (b := x[2]) < 5:  # nested chains
        a = a + 1
    g = lambda u: u > 0 and (w := u * 2) > 1              # (a lambda's own name: as is)
    return v, i, k, big, c, r, y, p, q, a, b, g(x[0])


def test_a_walrus_in_a_later_operand_or_a_conditional_arm_binds_as_in_python():
    # before session 45 each bound a name of the lambda the operand became: the value
    # before the walrus, silently (a NameError for the conditional's arms)
    agree(walrus_in_later_operands, [(np.array([1.0, 9.0, -1.0]), 5),
                                     (np.array([-1.0, 2.0, 3.0]), 0),
                                     (np.array([2.0, 0.5, 7.0]), 1)])


def walrus_in_a_reduced_generator(x):
    w = -1.0
    any((w := v) > 3 for v in x)
    return w


def walrus_in_a_tuple_of_a_return(x):
    k = 0.0
    return (x[0] > 0 and (k := x[1]) > 1), k


@pytest.mark.parametrize("fn, where", [
    (walrus_in_a_reduced_generator, "a generator that any"),
    (walrus_in_a_tuple_of_a_return, "an `and`/`or` that is not a statement's whole")])
def test_a_walrus_where_no_statement_can_bind_it_is_refused(fn, where):
    with pytest.raises(NotImplementedError, match=re.escape(where)):
        ag.defun(fn, backend="interpreter")(np.array([1.0, 5.0]))


def items_of_a_staged_range(x, k):
    r = range(0, 100, int(x[0]))
    return r[2], r[-1], r[k], len(r)


def test_indexing_a_range_of_traced_bounds_is_pythons():
    # (a TypeError naming an internal class before session 45); out of range: IndexError
    raised = agree(items_of_a_staged_range, [(np.array([7]), 3), (np.array([30]), -4),
                                             (np.array([30]), 4)])
    assert raised and all("range object index out of range" in m for *_, m in raised)


def products(m, n, k):
    s = 0.0
    for i, j in itertools.product(range(n), range(2)):     # a tensor bound
        s += m[i % 3, j] * (i + 1)
    t = 0.0
    for r, j in itertools.product(m, range(k)):            # a tensor's rows
        t += r[j] * j
    c = 0
    for a, b in itertools.product(range(n), repeat=2):
        if a < b:
            c += a * b
    return s, t, c


def test_itertools_product_of_staged_ranges_and_rows():
    m = np.arange(12.0).reshape(3, 4) - 5.0
    agree(products, [(m, np.int64(4), np.int64(3)), (-m, np.int64(0), np.int64(2))])


def keyed(x, m):
    return (max(range(len(x)), key=lambda i: x[i]), min(range(len(x)), key=lambda i: abs(x[i])),
            max(m, key=lambda r: r.sum()), min(m[0], m[1], key=lambda r: r[0]),
            max(x, key=abs), min(x, key=lambda v: (v - 1.0) ** 2),
            max([], key=abs, default=x[0]))


def test_max_and_min_with_a_key_pick_as_python():
    # ties keep the first, a NaN key is kept only where it comes first
    agree(keyed, [(np.array([0.3, -1.2, 2.5, 2.5, -7.0]), np.arange(12.0).reshape(3, 4)),
                  (np.array([0.3, np.nan, 2.5, -2.5, 1.0]), -np.arange(12.0).reshape(3, 4)),
                  (np.array([np.nan, 0.3, 2.5, 1.0, 1.0]), np.ones((3, 4)))])


def closeness(a, b):
    return (math.isclose(a, b), math.isclose(a, b, rel_tol=1e-3),
            math.isclose(a, b, abs_tol=0.5), math.isclose(a * np.inf, b * np.inf))


def negative_tolerance(a):
    return math.isclose(a, 1.0, rel_tol=-1.0)


def test_math_isclose_is_cpythons():
    agree(closeness, [(np.float64(a), np.float64(b)) for a, b in
                      [(1.0, 1.0000000001), (1.0, 1.01), (0.0, 0.3), (np.nan, np.nan),
                       (np.inf, np.inf), (-1.0, 1.0), (1e300, 1.0000000001e300)]])
    raised = agree(negative_tolerance, [(np.float64(1.0),), (np.float64(2.0),)])
    assert raised and all("tolerances must be non-negative" in m for *_, m in raised)


def printed_containers(x, k):
    print([x[0], x[1]], (x[2],), (k, x[0] > 0), {"a": x[3], 2: [k * 2, "s"]})
    print(f"{[x[0], 1.5]} and {(k,)!r}", str([x[1]]), repr((x[0], x[1])))
    for i in range(2):
        print([i, x[i]])
    return x


def test_lists_tuples_and_dicts_of_tensors_print_as_python():
    # before: the symbolic repr, printed once while tracing (a silent difference)
    agree(printed_containers, [(np.array([0.3, -1.2, 2.5, 0.0]), np.int64(3)),
                               (np.array([-1.0, 2.0, 0.5, 7.0]), np.int64(-2))])


import collections  # noqa: E402
import dataclasses  # noqa: E402
import types  # noqa: E402
import typing  # noqa: E402

_Pair = collections.namedtuple("_Pair", "a b")


class _Named(typing.NamedTuple):
    a: float


@dataclasses.dataclass
class _Rec:
    a: float
    hidden: int = dataclasses.field(default=3, repr=False)


def printed_records(x, k):
    print(_Named(x[0]), _Pair(x[1], "s"), [_Pair(k, x[0])], f"{_Rec(x[2])}")
    for v in x:
        if v > 0:
            print("pos", _Rec(v), str(_Pair(v * 2, k)), ", ".join([f"{v:.2f}", "end"]))
    print(" | ".join(f"{v:.1f}" for v in x))
    p = _Pair(x[0], 1)
    print("%s and %r" % (p, p), "{} {}".format(p, 2))
    if x[0] < 0:
        raise ValueError(_Pair(x[0], 2))
    return x


def printed_namespace(x):
    print(types.SimpleNamespace(a=x[0]))
    return x


def test_namedtuples_and_dataclasses_of_tensors_print_as_python():
    """(session 54's probe) a namedtuple's or dataclass's own repr ran while tracing, on the
    traced values' placeholders: `NT(a=<ag.Tensor symbolic ...>)` printed (on cpu once,
    on the first call); their generated reprs are made item by item when it runs, an
    object whose own __repr__ would print a placeholder is refused, and `sep.join` of text
    made of traced values is that text (a TypeError naming StagedText before)."""
    agree(printed_records, [(np.array([0.3, -1.2, 2.5]), np.int64(3)),
                            (np.array([-1.0, 2.0, 0.5]), np.int64(-2))])
    with pytest.raises(TypeError, match="the text of a SimpleNamespace holding traced "
                                        "values is made by its own __str__/__repr__"):
        ag.defun(printed_namespace, backend="interpreter")(np.ones(2))


def scalar_types(x, k, m):
    return (np.float32(x[0]), np.int8(k * 100), np.int64(x[2]), np.uint8(-k),
            np.bool_(x[3]), np.float64(m), np.int32(x), np.complex128(x[1]),
            np.float64(x[0] > 0), np.float32(x[0]) * 2.5, np.int64([k, k + 1]),
            np.int16(7) + k)


def test_numpy_scalar_types_cast_tensors_as_numpy():
    # before: TypeError (the type's constructor converted the symbolic tensor)
    agree(scalar_types, [(np.array([0.3, -1.2, 2.7, 0.0]), np.int64(3), np.arange(4)),
                         (np.array([-0.5, 1e10, -2.7, 1.0]), np.int64(-2), np.arange(3))])


def sorting(x, k):
    s = 0.0
    for i, v in enumerate(sorted(x)):
        s += i * v
    r = sorted(x, reverse=True)
    return s, sorted(x)[1], r, sorted(k), sorted(k, reverse=True), len(sorted(x))


def sorted_with_nan(x):
    return sorted(x)


def test_sorted_of_a_tensor_is_pythons_stable_order():
    # before: TypeError (Python's sort compared tensors); -0.0 and 0.0 keep their places
    agree(sorting, [(np.array([0.3, -1.2, 2.5, 0.0, -0.0, 0.3]), np.array([2, 1, 1, 0, 3])),
                    (np.array([-0.0, 0.0, 1.0, -0.0, 2.0, 1.0]), np.array([5, 5, 4, 5, 1]))])
    with pytest.raises(NotImplementedError, match="holding NaN"):
        ag.defun(sorted_with_nan)(np.array([0.3, np.nan, 1.0]))


def sorting_with_keys(x):
    a, b, c = x[0], x[1], x[2]
    return (sorted([a, b, c]), sorted([a, b, c, a], key=abs, reverse=True),
            sorted(x, key=lambda v: -v), sorted([a, b], key=float), sorted(x[:2], key=lambda v: 0),
            max(x, key=float), min(a, b, key=abs))


def test_sorted_of_a_list_of_tensors_and_with_a_key_is_pythons_order():
    # before: TypeError (Python's sort compared the tensors, or called `float` on one);
    # ties (5.0 and -5.0 under abs) keep their places, reversed too
    agree(sorting_with_keys, [(np.array([5.0, -5.0, 0.0, 1.5]),),
                              (np.array([-0.5, 2.0, 2.0, -3.0]),)])


def functions_as_arguments(x):
    return (list(map(float, x)), list(map(int, x[:2])), list(map(lambda a, b: a * b, x, x)),
            functools.reduce(max, x), functools.reduce(lambda a, b: a if a > b else b, x, -9.0),
            list(filter(None, [1, 0, 2])), complex(x[0], x[1]), complex(x[2]),
            complex(x[1] * 1j, x[0] + 2j), complex(x[0], -0.0), complex(np.int32(3), x[0]),
            complex(x[0].astype(np.float32), 1))


def test_builtins_passed_as_functions_and_complex_are_staged():
    # before: TypeError (`map`, `functools.reduce` and `key=` called the builtin `float`
    # or `max` on a tensor, and `complex(a, b)` had no staged form); complex() keeps
    # CPython's exact parts and signed zeros
    agree(functions_as_arguments, [(np.array([5.0, -2.5, -0.0]),),
                                   (np.array([-1.5, 0.0, 3.0]),)])


def loops_over_an_element(x):
    total = 0.0
    for v in x[0]:  # NumPy's scalar: not iterable
        total += v
    return total


def test_a_loop_over_a_0d_tensor_raises_pythons_type_error():
    # before: IndexError (the loop's first read of axis 0)
    raised = agree(loops_over_an_element, [(np.array([0.5, 1.5]),), (np.array([2.0]),)])
    assert raised and all("'numpy.float64' object is not iterable" in m for _, _, m in raised)


def counts_to_a_float(x):
    n = 0
    for i in range(x[0]):  # NumPy's float64: not an integer
        n += 1
    return n


def test_a_range_over_a_float_tensor_raises_pythons_type_error():
    # before: 3 trips (the bound cast to int64, silently)
    raised = agree(counts_to_a_float, [(np.array([3.0]),), (np.array([2.5]),)])
    assert raised and all("'numpy.float64' object cannot be interpreted as an integer" in m
                          for _, _, m in raised)


def zipped_with_python_lists(weights, counts, rows, x):
    # a staged loop over a zip of Python lists and a tensor picks each list's item at the
    # run-time counter: Python floats and ints stay weak (`w * v` keeps float32), rows of
    # one shape are rows (it raised "a symbolic tensor cannot be used as a Python int")
    s, n, acc = np.float32(0), 0, np.zeros(2)
    for w, c, r, v in zip(weights, counts, rows, x):
        s += w * v
        if v > 0:
            n += c
        acc = acc + r * v
    return s, n, acc


def zipped_with_iterators(x):
    w, d = [1.0, 2.0, 3.0], {"a": 1.5, "b": 2.5}
    s = 0.0
    for v, a, b in zip(x, reversed(w), d.values()):   # (it raised: no len())
        s += a * v + b
    return s, max(x, default=-1.0), min(x[1:], default=7.0)


def zipped_with_strings(words, x):
    d = {}
    for w, v in zip(words, x):
        d[w] = v
    return d


def test_a_staged_zip_with_python_lists_picks_their_items_when_it_runs():
    rows = [np.ones(2), np.arange(2.0), np.full(2, 3.0)]
    agree(zipped_with_python_lists,
          [([1.5, 2.0, 0.5], [1, 2, 3], rows, np.array([1.0, -2.0, 3.0], np.float32)),
           ([0.25, 4.0], [7, 1], rows[:2], np.array([-1.0, 2.0, 5.0, 1.0], np.float32))])
    agree(zipped_with_iterators, [(np.array([1.0, -2.0, 3.0]),), (np.array([4.0]),),
                                  (np.zeros(0),), (np.array([2.0, 5.0]),)])
    for backend in ("interpreter", "cpu"):
        with pytest.raises(NotImplementedError, match=r"with a Python list picks its item .* "
                                                      r"these are str \(at .*constructs"):
            ag.defun(zipped_with_strings, backend=backend)(["a", "b"], np.ones(3))


def rows_sorted_by_a_key(p):
    return np.array(sorted(p, key=lambda r: r[0]))


def rows_sorted(p):
    return sorted(p)                  # compares rows: Python's "ambiguous" ValueError


def test_sorted_of_a_matrix_sorts_its_rows_by_a_key_and_compares_them_without():
    # (both raised a TypeError: "sorted() of a tensor of rank 2")
    calls = [(np.array([[1.0, 2.0], [0.0, 1.0]]),), (np.array([[3.0, 0.0], [1.0, 1.0],
                                                               [2.0, 2.0]]),)]
    agree(rows_sorted_by_a_key, calls)
    raised = agree(rows_sorted, calls)
    assert raised and all("truth value of an array" in m for _, _, m in raised), raised


def classified(x):
    match x[0]:
        case float():               # a float64 element is a float, as NumPy's np.float64
            kind = 1
        case int(n):                # (never: an array element is no Python int)
            kind = n
        case _:
            kind = 3
    match int(float(x[-1])):        # (int() of an int element is README's int64 exception)
        case int(m):
            last = m + 1
    sign = 0                        # (SPEC: a staged if's variables need a value before)
    match bool(x[0] > 0):
        case True:
            sign = 1
        case False:
            sign = -1
    return kind, last, sign, bool(x[0] > 0) is True, x.any() is np.True_, x[0] is not None


def sequence_matched(x):
    match (x[0], x[1]):             # Python's match compared the tensor items with the
        case (0, 0):                # literals: their truth, refused before session 45
            return 0.0
        case (1, n):
            return n * 10.0
        case (a, b) if a > b:
            return a - b
        case (float(), _) as pair:  # (a class inside a sequence: its value's class)
            return pair[1] + 0.5
    match (x[0], (x[1], x[2])), x:  # nested; an array is no sequence, as an ndarray
        case ((0, (1, c)), _):
            return c * 1.0
        case (_, (u, v)):
            return u + v * 1.0
    return -1.0


def class_in_a_starred_sequence(x):
    match (x[0], x[1]):
        case (float(), *rest):      # (Python would test the tensor object's class)
            return 1
    return 2


def test_class_patterns_and_is_of_traced_values():
    """(Python ran `case float():` and `case True:` on the tensor object: no case matched,
    silently; `bool(t) is True` was False)"""
    agree(classified, [(np.array([1.5, 3.0]),), (np.array([-2, 7]),),
                       (np.array([0.5], np.float32),), (np.array([-1.0, 0.0]),)])
    agree(sequence_matched, [(np.array([0.0, 0.0, 1.0]),), (np.array([1.0, 7.0, 2.0]),),
                             (np.array([5.0, 2.0, 0.0]),), (np.array([2.0, 5.0, 0.0]),),
                             (np.array([0, 1, 4]),), (np.array([3, 5, 1]),)])
    with pytest.raises(NotImplementedError, match="class patterns inside sequence"):
        ag.defun(class_in_a_starred_sequence)(np.array([0.5, 0.0]))


def zipped_with_endless(x):
    s = 0.0
    for k, v, sign, w in zip(itertools.count(1, 2), x, itertools.cycle([1, -1]),
                             itertools.repeat(0.5)):
        s += k * v * sign * w
    return s


def test_zip_with_endless_iterators():
    """(an internal "object of type 'itertools.count' has no len()")"""
    agree(zipped_with_endless, [(np.arange(3.0),), (np.arange(6.0),), (np.ones(1),)])


def matched_without_classes(pair, cfg, x):
    match pair:
        case (a, b):                # captures and mappings: Python's own match (a tensor is
            s = a + b               # no sequence or mapping, as an ndarray is not)
    match cfg:
        case {"w": w}:
            s = s * w
    return s, bool(x[0] > 0) is bool(x[1] > 0), (x[0] > 0) is not (x[1] > 0)


def bool_argument_is(m):
    return m is np.True_            # (a 0-d array argument is no np.True_)


def test_match_without_classes_and_is_between_traced_bools():
    """(today's first guard refused every sequence or mapping match on a subject holding a
    tensor; `bool(a) is bool(b)` was identity of two tensors; a 0-d bool array argument
    `is np.True_`)"""
    agree(matched_without_classes,
          [((np.ones(2), np.ones(2)), {"w": np.ones(2)}, np.array([1.0, 2.0])),
           ((np.ones(3), np.zeros(3)), {"w": np.ones(3)}, np.array([1.0, -2.0]))])
    agree(bool_argument_is, [(np.array(True),), (np.array(False),)])


def tuples_compared(x, goal):
    i, j = int(x[0]), int(x[1])
    hits = 0
    if (i, j) == goal:               # a tuple of traced ints against a Python tuple
        hits += 1
    if [x[0], x[1]] != [1, 5]:
        hits += 10
    return hits, x.tolist() == [1, 5, 7], (i, j) == [i, j], (i,) == (i, j)


def test_tuples_and_lists_of_traced_values_compare_as_pythons():
    """(Python's sequence == asked each tensor pair's truth while tracing: a TypeError)"""
    agree(tuples_compared, [(np.array([1, 5, 7]), (1, 5)), (np.array([0, 0, 7]), (0, 0)),
                            (np.array([1, 5, 8]), (2, 2))])


def nditer_sum(w):
    s = 0.0
    it = np.nditer(w, flags=["multi_index"])     # (the CS231n gradient-check loop)
    while not it.finished:
        s += w[it.multi_index]
        it.iternext()
    return s


def index_of_min(x):
    hist = [x[0], x[1], x[2]]
    return hist.index(min(hist))


def first_item_itself(x):
    items = [x[0], x[1]]
    return items.index(items[0])    # (the very object: Python needs no comparison)


@pytest.mark.parametrize("fn, message", [
    (nditer_sum, r"np.nditer of a tensor \(at .*\) has no staged form: iterate over "
                 r"`np.ndindex"),
    (lambda x: np.ma.masked_equal(x, 0).sum(), r"np.ma.masked_equal of a tensor .* boolean mask"),
    (lambda x: np.r_[0.0, x, 0.0], r"np.r_\[...\] of a tensor .* np.concatenate"),
    (lambda x: np.c_[x, x], r"np.c_\[...\] of a tensor .* np.column_stack"),
    (index_of_min, r"list.index \(at .*\) compares the list's items .*np.argmin"),
    (lambda x: [x[0], x[1]].count(x[1]), r"list.count .*np.count_nonzero"),
])
def test_numpy_and_list_calls_a_tensor_cannot_take_are_refused_by_name(fn, message):
    """(session 48: NumPy's own errors about something else, nditer's "flagged as writeable
    ... WRITEBACKIFCOPY", or a tensor's bool() error that named neither call)"""
    for backend in ("interpreter", "cpu"):
        with pytest.raises(TypeError, match=message):
            ag.defun(fn, backend=backend)(np.arange(6.0).reshape(3, 2)[:, 0].copy())
    assert agree(first_item_itself, [(np.arange(3.0),), (np.ones(2),)]) == []


def steps_until_small(x, tol):
    for step in itertools.count():      # (endless: stops only at the tensor `break`)
        x = x * 0.7
        if x.max() < tol:
            break
    return x, step


def test_an_endless_iterator_with_a_tensor_break_is_refused_clearly():
    """(session 48: traced until Python's recursion limit, ~30 s, then a RecursionError
    blaming a function that calls itself)"""
    for backend in ("interpreter", "cpu"):
        with pytest.raises(NotImplementedError, match=r"the `for` at .* over count \(an "
                           r"iterator whose length is unknown while tracing\) .* `while`"):
            ag.defun(steps_until_small, backend=backend)(np.ones(2), 0.1)
