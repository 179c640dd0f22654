"""The cuda tests run on Numba's simulator (tests/conftest.py), which runs a kernel's source
as Python: it would accept kernels a GPU cannot compile. So every kernel a test module
launches is recorded with its argument types, and after the module's tests, one
subprocess outside the simulator compiles each for a real GPU with ``cuda.compile_ptx``
(compile_ptx.py); a kernel that does not compile fails the module (an error at its
last test's teardown, listing the kernels).

On a machine with a GPU (``NUMBA_ENABLE_CUDASIM=0 pytest tests/cuda``) every launch compiles
its kernel for that GPU anyway, so nothing is recorded."""
import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from numba.np import numpy_support

from autograph_lite.backends import cuda as cuda_backend

# test_cuda_ops.py runs a sample of tests/ops's property tests (their strategies and op lists)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "ops"))

_RECORDS = {}    # module source -> {kernel name -> set of argument type tuples}
_load = cuda_backend.load


def _arg_type(a):
    t = numba.typeof(a)   # simulator device arrays carry their Numba type
    if isinstance(t, numba.types.Array):
        return ("a", numpy_support.as_dtype(t.dtype).str, t.ndim, t.layout)
    return ("s", np.asarray(a).dtype.str)


class _Recorded:
    """A simulator kernel that notes the argument types of each launch."""

    def __init__(self, kernel, source, name):
        self.kernel, self.source, self.name = kernel, source, name

    def __getitem__(self, config):
        launch = self.kernel[config]

        def run(*args):
            types = tuple(_arg_type(a) for a in args)
            _RECORDS.setdefault(self.source, {}).setdefault(self.name, set()).add(types)
            return launch(*args)
        return run


def _recording_load(source):
    ns = _load(source)
    if not ns.get("_recorded"):
        for name in [k for k in ns if k.startswith("k_")]:
            ns[name] = _Recorded(ns[name], source, name)
        ns["_recorded"] = True
    return ns


if numba.config.ENABLE_CUDASIM:
    cuda_backend.load = _recording_load


@pytest.fixture(scope="module", autouse=True)
def kernels_compile_for_a_gpu(tmp_path_factory):
    _RECORDS.clear()
    yield
    if not _RECORDS:
        return
    path = tmp_path_factory.mktemp("ptx") / "kernels.json"
    path.write_text(json.dumps([
        {"source": src, "kernels": {k: sorted(sigs) for k, sigs in kernels.items()}}
        for src, kernels in _RECORDS.items()]))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    script = os.path.join(os.path.dirname(__file__), "compile_ptx.py")
    done = subprocess.run([sys.executable, script, str(path)], env=env, capture_output=True,
                          text=True, timeout=900)
    if done.returncode:
        pytest.fail("kernels the simulator ran do not compile for a GPU:\n"
                    + done.stdout[-6000:] + done.stderr[-3000:], pytrace=False)
