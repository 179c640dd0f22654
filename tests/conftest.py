"""Suite set-up: a per-session kernel cache folder, the hypothesis profiles, the backend
fixture. The differential check every feature goes through lives in differential.py.

Hypothesis profiles (pass ``--hypothesis-profile=NAME`` to pytest):
- ``ci`` (the default): derandomized, so CI sees the same examples on every run; each
  property test is shaped so that this many examples draw every op, every rank <= 3 and
  every dtype family it covers (see tests/ops/ops_strategies.py).
- ``deep``: fresh random examples, 20x as many, for long runs looking for new failures.
(``AG_HYPOTHESIS_PROFILE=NAME`` in the environment does the same.)
"""
import os
import sys
import tempfile

from hypothesis import HealthCheck, Phase, settings

os.environ.setdefault("AUTOGRAPH_LITE_CACHE_DIR", os.path.join(tempfile.gettempdir(),
                                                               "autograph_lite_test_cache"))
os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
# The cuda backend's tests run on Numba's CUDA simulator; numba reads this at its import,
# for the whole process (the cpu backend does not use it). pytest imports numba before this
# file (pyproject's filterwarnings names a Numba warning), so numba reads it again here,
# before anything imports numba.cuda.
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
# Kernels compile at LLVM -O0 in the suite: compiling is nearly all of its time (a warm
# kernel cache runs tests/ops/test_matrices.py in 5 s, a cold one in 133 s at Numba's
# default -O3 and 87 s at -O0), and LLVM's optimizations do not change what a kernel
# computes (no fast-math: the floating-point operations and their order stay), except
# where Numba's IR holds poison (an int64 overflow under `nsw`, which the kernels no longer
# emit: test_dtype_casts.py compiles its test of that at -O3). Users, examples,
# benchmarks and the random-program harness keep Numba's default.
os.environ.setdefault("NUMBA_OPT", "0")
if "numba" in sys.modules:
    from numba.core import config as _numba_config
    _numba_config.reload_config()

import pytest  # noqa: E402

from differential import BACKENDS  # noqa: E402

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=15, deadline=None, derandomize=True,
                          suppress_health_check=_QUIET, print_blob=True)
settings.register_profile("deep", max_examples=400, deadline=None, derandomize=False,
                          suppress_health_check=_QUIET, print_blob=True)
# the ci profile without shrinking, for tests/mutation_check.py (a failing example is enough
# there, and shrinking one compiles a kernel per step)
settings.register_profile("mutation", settings.get_profile("ci"),
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile(os.environ.get("AG_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param
