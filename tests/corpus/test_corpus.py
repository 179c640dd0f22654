"""Every kernel of the scientific NumPy corpus (kernels.py), unchanged, three ways: plain
Python (the oracle), ``ag.defun`` on the interpreter and on the cpu backend, with the
suite's differential check (differential.py): results, dtypes, exceptions and every
argument afterwards, over two calls of one Function with different values.

A kernel that does not agree today is a strict xfail whose reason is the exact error or
difference: the list of what scientific code still needs (issue 12).
"""
import numpy as np
import pytest

import autograph_lite as ag
from differential import BACKENDS, agree, fresh

from . import kernels as K
from .expected import NOT_AGREEING

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _rng(seed):
    return np.random.default_rng(seed)


def _grid(n, m, seed):
    return _rng(seed).random((n, m))


def _walk(n, seed):
    return 10.0 + np.cumsum(_rng(seed).standard_normal(n))


def _hot_spot(n):
    u = np.zeros((n, n))
    u[n // 2, n // 2] = 1.0
    return u


def _bump(n, centre):
    return np.exp(-((np.linspace(0.0, 1.0, n) - centre) ** 2) / 0.02)


def _glider(n, shift):
    b = np.zeros((n, n), dtype=np.int64)
    b[0 + shift, 1 + shift] = b[1 + shift, 2 + shift] = 1
    b[2 + shift, 0 + shift] = b[2 + shift, 1 + shift] = b[2 + shift, 2 + shift] = 1
    return b


def _spd(n, seed):
    a = _rng(seed).random((n, n))
    return a @ a.T + n * np.eye(n)


# kernel -> (two argument tuples, agree's tolerances). Python scalars that differ between
# the two calls exercise the relaxing of Python numbers (SPEC 2).
CASES = {
    K.heat_1d: [(_bump(16, 0.5), 0.2, 5), (_bump(21, 0.3), 0.2, 5)],
    K.heat_2d: [(_hot_spot(8), 0.2, 4), (_grid(9, 7, 1), 0.2, 6)],
    K.jacobi_poisson: [(_grid(7, 7, 2), np.zeros((7, 7)), 0.1, 5),
                       (_grid(6, 9, 3), _grid(6, 9, 4), 0.1, 5)],
    K.laplacian_loops: [(_grid(6, 5, 5), 0.5), (_grid(4, 7, 6), 0.25)],
    K.wave_1d: [(_bump(14, 0.5), _bump(14, 0.5), 0.5, 6),
                (_bump(20, 0.4), _bump(20, 0.45), 0.5, 6)],
    K.pairwise_distances: [(_grid(6, 3, 7),), (_grid(9, 2, 8),)],
    K.pairwise_distances_loops: [(_grid(6, 3, 7),), (_grid(9, 2, 8),)],
    K.nearest_neighbour: [(_grid(5, 2, 9), _grid(7, 2, 10)), (_grid(8, 2, 11), _grid(3, 2, 12))],
    K.summary_stats: [(_walk(20, 13), _grid(20, 1, 14)[:, 0] + 0.5),
                      (_walk(31, 15), np.arange(31.0) + 1.0)],
    K.zscore_columns: [(_grid(10, 3, 16),), (_grid(13, 4, 17) * 5.0,)],
    K.var_std_methods: [(_grid(5, 4, 18),), (_grid(7, 3, 19) - 0.5,)],
    K.moving_average: [(_walk(20, 20), 4), (_walk(33, 21), 4)],
    K.histogram_loop: [(_rng(22).normal(0.0, 1.0, 40), -2.0, 2.0, 8),
                       (np.array([-3.0, -2.0, -1.9, 0.0, 1.99, 2.0, 2.5, 0.5]), -2.0, 2.0, 8)],
    K.masked_mean: [(_walk(20, 23), 9.0, 11.0), (_walk(25, 24) + 100.0, 9.0, 11.0)],
    K.clip_outliers: [(np.r_[_rng(25).normal(0.0, 1.0, 20), 9.0], 2.0),
                      (_rng(26).normal(0.0, 1.0, 30), 2.0)],
    # (one shape: a second one relaxes the sizes, and that compile of the rolls' gathers
    # costs CI ~10-20 s; sizes relaxing is tested elsewhere)
    K.box_blur_roll: [(_grid(6, 7, 27),), (_grid(6, 7, 28),)],
    K.box_blur_pad: [(_grid(6, 7, 27),), (_grid(9, 5, 28),)],
    K.sobel_edges: [(_grid(6, 6, 29), 1.0), (_hot_spot(7), 1.0)],
    K.threshold_image: [(_grid(5, 6, 30), 0.5), (_grid(8, 4, 31), 0.5)],
    K.game_of_life: [(_glider(8, 0), 4), (_glider(8, 2), 3)],
    K.gaussian_bump_grid: [(np.linspace(-2.0, 2.0, 7), np.linspace(-1.0, 1.0, 5), 1.0, 0.5),
                           (np.linspace(-1.0, 3.0, 9), np.linspace(0.0, 2.0, 4), 1.0, 0.5)],
    K.trapezoid_2d: [(np.linspace(0.0, 1.0, 6), np.linspace(0.0, 2.0, 5)),
                     (np.linspace(0.0, 3.0, 11), np.linspace(-1.0, 1.0, 7))],
    K.newton_sqrt: [(np.linspace(1.0, 50.0, 12), 1e-12), (np.arange(1.0, 21.0) ** 3, 1e-12)],
    K.bisection_cubic: [(np.zeros(6), np.full(6, 4.0), 1e-9),
                        (np.ones(9), np.full(9, 3.5), 1e-9)],
    K.fixed_point_cos: [(np.linspace(0.0, 1.0, 5), 1e-10, 200),
                        (np.linspace(-1.0, 2.0, 8), 1e-10, 200)],
    K.nbody_step: [(_grid(4, 2, 32), np.zeros((4, 2)), np.ones(4), 0.01, 3),
                   (_grid(5, 2, 33), _grid(5, 2, 34) - 0.5, np.arange(1.0, 6.0), 0.01, 3)],
    K.lorenz_euler: [(np.array([1.0, 1.0, 1.0]), 0.01, 30),
                     (np.array([-2.0, 0.5, 20.0]), 0.01, 30)],
    K.rk4_oscillator: [(np.array([1.0, 0.0]), 0.1, 20, 0.1),
                       (np.array([0.0, 2.0]), 0.1, 20, 0.1)],
    K.logistic_map: [(np.linspace(2.5, 3.9, 8), 0.3, 40), (np.linspace(3.0, 4.0, 13), 0.3, 40)],
    K.collatz_steps: [(np.arange(1, 21, dtype=np.int64),),
                      (np.array([27, 97, 871, 1, 2, 3], dtype=np.int64),)],
    K.gcd_pairs: [(np.array([12, 18, 7, 0, 100], dtype=np.int64),
                   np.array([8, 24, 5, 9, 0], dtype=np.int64)),
                  (np.array([270, 17, 64, 81, 1, 1071], dtype=np.int64),
                   np.array([192, 51, 48, 27, 1, 462], dtype=np.int64))],
    K.sieve_primes: [(30,), (50,)],
    K.prefix_sum_loop: [(_walk(15, 35),), (np.arange(22.0),)],
    K.running_max_drawdown: [(_walk(20, 36),), (_walk(27, 37),)],
    K.cumulative_trapezoid: [(_bump(12, 0.5), 0.1), (_bump(17, 0.2), 0.1)],
    K.power_iteration: [(_spd(5, 38), 30), (_spd(4, 39), 30)],
    K.gram_schmidt: [(_grid(6, 4, 40),), (_spd(5, 41),)],
    K.matmul_loops: [(_grid(4, 3, 42), _grid(3, 5, 43)), (_grid(2, 6, 44), _grid(6, 3, 45))],
    K.upsample_hold: [(np.array([1.0, 3.0, 2.0, 5.0]), 3), (np.array([0.0, -1.0, 4.0]), 3)],
    K.finite_difference_derivative: [(np.sin(np.linspace(0.0, 3.0, 10)), 1.0 / 3.0),
                                     (np.linspace(0.0, 3.0, 16) ** 2, 0.2)],
    K.first_crossing: [(_walk(20, 46), 11.0), (_walk(20, 47), 100.0)],
    K.sum_until_negative: [(np.array([1.0, 2.0, 3.5, -1.0, 4.0]),),
                           (np.array([0.5, 0.25, 2.0, 1.0, 8.0, 3.0]),)],
    K.median_filter: [(_walk(15, 48), 5), (_walk(22, 49), 5)],
    K.smooth_convolve: [(_walk(15, 50), 3), (_walk(22, 51), 3)],
    K.interp_resample: [(np.cumsum(_grid(10, 1, 52)[:, 0]), _walk(10, 53), 25),
                        (np.cumsum(_grid(14, 1, 54)[:, 0]), _walk(14, 55), 25)],
    K.polyfit_normal: [(np.linspace(-1.0, 1.0, 12), _walk(12, 56), 2),
                       (np.linspace(0.0, 2.0, 20), _walk(20, 57), 2)],
    K.gauss_seidel: [(_spd(4, 58), np.arange(1.0, 5.0), 1e-10, 100),
                     (_spd(6, 59), _walk(6, 60), 1e-10, 100)],
    K.positive_part: [(_rng(61).normal(0.0, 1.0, 12),), (-np.arange(1.0, 8.0),)],
    K.count_above: [(_walk(12, 73), 10.0), (_walk(17, 74), 10.0)],
    K.bincount_histogram: [(_grid(30, 1, 62)[:, 0], 6), (_grid(17, 1, 63)[:, 0] ** 2, 6)],
    K.quartiles_sorted: [(_walk(13, 64),), (_walk(20, 65),)],
    K.kmeans: [(_grid(20, 2, 66), _grid(3, 2, 67), 4), (_grid(25, 2, 68), _grid(3, 2, 69), 4)],
    K.row_normalize_einsum: [(_grid(5, 3, 70) + 0.1,), (_grid(7, 4, 71) + 0.1,)],
    K.find_peaks_list: [(_walk(20, 72),), (np.arange(9.0),)],
    K.projectile_drag: [(np.array([0.0, 0.0, 10.0, 10.0]), 0.01, 0.1),
                        (np.array([1.0, 2.0, 5.0, 20.0]), 0.01, 0.1)],
    K.pendulum_math: [(np.linspace(0.1, 3.0, 6), 0.05, 40), (np.linspace(-1.0, 1.0, 9), 0.05, 40)],
    K.knn_indices: [(_grid(7, 2, 75), 3), (_grid(9, 3, 76), 3)],
    K.histogram_2d_add_at: [(_grid(40, 1, 77)[:, 0], _grid(40, 1, 78)[:, 0], 4),
                            (_grid(25, 1, 79)[:, 0], _grid(25, 1, 80)[:, 0], 4)],
    K.one_hot_accuracy: [(_grid(10, 3, 81), _rng(82).integers(0, 3, 10)),
                         (_grid(13, 3, 83), _rng(84).integers(0, 3, 13))],
    K.lu_partial_pivot: [(_grid(5, 5, 85),), (_rng(86).normal(size=(6, 6)),)],
    K.log_binned_counts: [(np.exp(_rng(87).normal(0.0, 2.0, 30)), np.float64(0.1),
                           np.float64(10.0), 5),
                          (np.exp(_rng(88).normal(0.0, 1.0, 25)), np.float64(0.5),
                           np.float64(20.0), 5)],
}

# Floating sums whose order may differ (pairwise in NumPy, left to right in a loop).
RTOL = {K.summary_stats: 1e-12, K.zscore_columns: 1e-12, K.var_std_methods: 1e-12,
        K.clip_outliers: 1e-12, K.trapezoid_2d: 1e-12, K.gaussian_bump_grid: 1e-12,
        K.moving_average: 1e-12, K.nbody_step: 1e-12, K.power_iteration: 1e-10,
        K.gram_schmidt: 1e-10, K.lorenz_euler: 1e-10, K.rk4_oscillator: 1e-12,
        K.jacobi_poisson: 1e-12, K.heat_2d: 1e-12, K.pairwise_distances: 1e-12,
        K.pairwise_distances_loops: 1e-12, K.nearest_neighbour: 1e-12,
        K.polyfit_normal: 1e-9, K.gauss_seidel: 1e-9, K.kmeans: 1e-12,
        K.smooth_convolve: 1e-12, K.row_normalize_einsum: 1e-12}

# (kernel, backend) -> why it does not agree today (strict: fixing it shows here).
XFAIL = {(name, backend): why for name, why in NOT_AGREEING.items() for backend in BACKENDS}


def _params():
    out = []
    for kernel, calls in CASES.items():
        for backend in BACKENDS:
            reason = XFAIL.get((kernel.__name__, backend))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            out.append(pytest.param(kernel, calls, backend, marks=marks,
                                    id=f"{kernel.__name__}-{backend}"))
    return out


@pytest.mark.parametrize("kernel,calls,backend", _params())
def test_kernel_agrees_with_numpy(kernel, calls, backend):
    agree(kernel, calls=calls, functions={backend: ag.defun(kernel, backend=backend)},
          rtol=RTOL.get(kernel, 1e-6))


# Complex arithmetic (escape-time fractals): agreement tests like the ones above.
FRACTALS = {
    K.mandelbrot_escape: [(np.linspace(-2.0, 0.5, 8), np.linspace(-1.1, 1.1, 6), 20),
                          (np.linspace(-1.5, 0.5, 5), np.linspace(-1.0, 1.0, 4), 7)],
    K.julia_escape: [(np.linspace(-1.5, 1.5, 8), np.linspace(-1.0, 1.0, 6), -0.8, 0.156, 20),
                     (np.linspace(-1.0, 1.0, 5), np.linspace(-1.0, 1.0, 4), 0.3, -0.5, 9)],
    K.mandelbrot_loops: [(np.linspace(-2.0, 0.5, 8), np.linspace(-1.1, 1.1, 6), 20),
                         (np.linspace(-1.5, 0.5, 5), np.linspace(-1.0, 1.0, 4), 7)],
    K.newton_fractal: [(np.linspace(-1.05, 1.0, 8), np.linspace(-1.05, 1.0, 6), 12),
                       (np.linspace(-0.95, 1.1, 5), np.linspace(-1.0, 0.9, 4), 5)],
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kernel", list(FRACTALS), ids=lambda k: k.__name__)
def test_complex_kernel_agrees_with_numpy(kernel, backend):
    agree(kernel, calls=FRACTALS[kernel], functions={backend: ag.defun(kernel, backend=backend)},
          rtol=1e-12)


def test_every_kernel_is_checked():
    """Each function of kernels.py has inputs above, and every expected failure names one."""
    defined = {name for name, v in vars(K).items()
               if callable(v) and getattr(v, "__module__", None) == K.__name__}
    checked = {k.__name__ for k in CASES} | {k.__name__ for k in FRACTALS}
    assert defined == checked
    assert set(NOT_AGREEING) <= checked
