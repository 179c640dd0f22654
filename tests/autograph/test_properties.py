"""Property tests: corpus programs with staged, data-dependent control flow, on random inputs.

`test_programs.py` runs each corpus program on two or three hand-picked inputs; the paths a
staged loop or branch takes (zero trips, a break on the first or the last iteration, a
return from an inner loop, a continue on every iteration, ...) depend on the data, so the
hand-picked inputs leave most of them untried. Here hypothesis draws the inputs and each
program runs three ways: plain Python (the oracle), `ag.defun` on the interpreter and
`ag.defun` compiled for the cpu. Results must agree in value, shape and dtype; a Python
`int` result of the oracle stands for int64 and a `float` for float64 (NumPy's defaults,
which are what a staged int or float literal becomes, SPEC §1).

Every example goes through the suite's differential check (differential.py): result bit for
bit, stdout, exception type, and the arguments afterwards. Each defun `Function` is made
once per program and backend (module level) and every example calls it with arguments of
the same dtypes and ranks, so one trace and one Numba kernel serve all the examples of a
program (a new length of a rank-1 array is a new signature but generates the same kernel,
which is reused). How many examples: the hypothesis profile (tests/conftest.py; `ci` by
default, `--hypothesis-profile=deep` for long runs).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from autograph_lite.function import EXACT_SHAPES
from differential import BACKENDS, agree, python_numbers_as_numpy

from . import programs as P

ints = st.integers
small = st.integers(-4, 14)          # loop bounds: negative and zero trips included
floats = st.floats


def float_arrays(min_len, max_len, lo=-10.0, hi=10.0):
    """Rank-1 float64 arrays; values on a 1/8 grid so that sums are exact in any order."""
    return st.lists(st.integers(int(lo * 8), int(hi * 8)), min_size=min_len,
                    max_size=max_len).map(lambda v: np.array(v, dtype=np.float64) / 8.0)


# program, strategy of its argument tuple. The programs are the corpus ones (programs.py);
# the argument ranges keep Python ints within int64 (s = s * 2 + i in for_range_step).
CASES = [
    (P.if_nested, st.tuples(ints(-20, 20), ints(-20, 20))),
    (P.if_logical_ops, st.tuples(ints(-3, 3), ints(-3, 3))),
    (P.if_elif_chain, st.tuples(ints(-30, 30))),
    (P.augmented_ops, st.tuples(ints(-1000, 1000))),
    (P.logical_chained_comparison, st.tuples(ints(-3, 3), ints(-3, 3), ints(-3, 3))),
    (P.while_halving, st.tuples(ints(-10, 10 ** 12))),
    (P.while_break, st.tuples(small)),
    (P.while_continue, st.tuples(small)),
    (P.while_break_and_continue, st.tuples(ints(-4, 40))),
    (P.while_nested, st.tuples(ints(-2, 6), ints(-2, 6))),
    (P.while_return_inside, st.tuples(small)),
    (P.while_in_if_in_while, st.tuples(small)),
    (P.while_float_tolerance, st.tuples(floats(0.01, 1000.0))),
    (P.for_range_step, st.tuples(ints(-20, 20), ints(-20, 20),
                                 ints(-5, 5).filter(lambda c: c != 0))),
    (P.for_break_under_continue, st.tuples(small)),
    (P.for_continue_then_break, st.tuples(small)),
    (P.for_nested_break_inner, st.tuples(ints(-2, 8), ints(-2, 8))),
    (P.for_return_inside, st.tuples(small)),
    (P.for_return_nested, st.tuples(ints(-1, 8), ints(-1, 8))),
    (P.for_loop_in_branch_in_loop, st.tuples(small)),
    (P.for_branch_in_loop_in_branch, st.tuples(small)),
    (P.for_while_mix, st.tuples(small)),
    (P.multiple_breaks, st.tuples(small)),
    (P.continue_in_nested_if, st.tuples(small)),
    (P.return_in_else, st.tuples(small)),
    (P.return_after_loop_work, st.tuples(small)),
    (P.return_from_while_in_for, st.tuples(small)),
    (P.nested_ifexp_in_loop, st.tuples(ints(-5, 5))),
    (P.for_array_rows, st.tuples(float_arrays(0, 8))),
    (P.for_enumerate, st.tuples(float_arrays(0, 8))),
    (P.builtin_min_max_array, st.tuples(float_arrays(1, 8))),
    (P.setitem_in_branch, st.tuples(float_arrays(4, 4, -3.0, 3.0))),
    (P.setitem_fill, st.tuples(ints(0, 12))),
    (P.setitem_2d_aug, st.tuples(ints(0, 5))),
    (P.list_append_stack, st.tuples(ints(1, 10))),
    (P.growing_array, st.tuples(ints(0, 6))),
]

# One Function per program and backend, shared by all examples (one trace, one kernel).
FUNCTIONS = {(fn.__name__, backend): ag.defun(fn, backend=backend)
             for fn, _ in CASES for backend in BACKENDS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,strategy", [pytest.param(fn, s, id=fn.__name__) for fn, s in CASES])
def test_defun_matches_python_on_random_inputs(fn, strategy, backend):
    """The staged program computes what the Python program computes, for any input."""
    compiled = FUNCTIONS[fn.__name__, backend]
    signatures = set()

    @given(strategy)
    def check(args):
        staged = python_numbers_as_numpy(args)
        signatures.add(tuple((np.shape(a), np.asarray(a).dtype.str) for a in staged))
        agree(fn, calls=[args], functions={backend: compiled}, stage=python_numbers_as_numpy,
              exact=True)

    check()
    # SPEC §2: at most one trace per signature, and sizes relax: at most two traces per
    # rank and dtype of the arguments, unless the body needs an argument's sizes as
    # Python ints (then that argument stays exact, one trace per shape).
    count = compiled.experimental_get_tracing_count()
    assert count <= len(signatures)
    families = {tuple((len(shape), dtype) for shape, dtype in sig) for sig in signatures}
    if not compiled._static:  # (a compiled backend keeps up to EXACT_SHAPES exact traces
        #                          while they share one kernel: function.py _settle_sizes)
        per_family = 2 if backend == "interpreter" else EXACT_SHAPES + 1
        assert count <= per_family * len(families), (count, signatures)
