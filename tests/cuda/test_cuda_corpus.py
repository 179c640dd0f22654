"""A fixed sample of the suite's program corpora on backend="cuda" against the plain
Python run: scientific kernels (tests/corpus), control-flow programs (tests/autograph),
each Function called on two inputs, and generated programs (random_programs.py, both
grammars, with the suite's bit-exact check, five inputs each). A sample, not all: the
CUDA simulator runs Python threads, and every staged loop iteration launches kernels."""
import pytest

import autograph_lite as ag
from autograph.programs import PROGRAMS
from autograph.random_programs import differences, generate
from corpus import kernels as K
from corpus.test_corpus import CASES, RTOL
from differential import agree, python_numbers_as_numpy

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

KERNELS = [K.heat_1d, K.heat_2d, K.jacobi_poisson, K.wave_1d, K.pairwise_distances,
           K.zscore_columns, K.masked_mean, K.clip_outliers, K.threshold_image,
           K.game_of_life, K.newton_sqrt, K.bisection_cubic, K.lorenz_euler, K.logistic_map,
           K.gcd_pairs, K.power_iteration, K.gram_schmidt, K.positive_part, K.count_above,
           K.first_crossing, K.kmeans, K.matmul_loops]


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.__name__)
def test_corpus_kernel_on_cuda(kernel):
    agree(kernel, calls=CASES[kernel], functions={"cuda": ag.defun(kernel, backend="cuda")},
          rtol=RTOL.get(kernel, 1e-6))


SAMPLE = ("if_nested", "if_logical_ops", "while_break_and_continue", "while_float_tolerance",
          "for_range_sum", "for_nested_break_inner", "for_return_nested", "list_append_stack",
          "setitem_numpy_idiom", "setitem_2d_aug", "setitem_in_branch", "assert_positive",
          "while_in_if_in_while", "growing_array")
STAGED = [pytest.param(fn, inputs, id=fn.__name__) for fn, inputs, staged in PROGRAMS
          if staged and fn.__name__ in SAMPLE]


def test_the_program_sample_exists():
    assert len(STAGED) == len(SAMPLE), [p.id for p in STAGED]


@pytest.mark.parametrize("fn,inputs", STAGED)
def test_program_on_cuda(fn, inputs):
    agree(fn, calls=inputs, functions={"cuda": ag.defun(fn, backend="cuda")},
          stage=python_numbers_as_numpy, exact=True)


@pytest.mark.parametrize("grammar,seed", [("scalars", s) for s in range(12)]
                         + [("arrays", s) for s in range(10)])
def test_random_program_on_cuda(grammar, seed, tmp_path):
    found = differences(seed, grammar, ("cuda",), str(tmp_path))
    assert not found, f"{found}\n{generate(seed, grammar)}"
