"""Compiles recorded cuda-backend kernels for a real GPU with ``cuda.compile_ptx`` (run as
a script, outside the simulator: tests/cuda/conftest.py records each kernel's argument
types while the simulator runs it, then runs this on them).

The simulator runs a kernel's Python source as Python, so it accepts code numba-cuda
cannot compile (a NumPy function the CUDA target lacks, an allocation, a Python object);
this types and lowers every kernel the tests launched, for compute capability 8.0, without a
GPU or driver (numba-cuda needs only NVRTC: the test extra's nvidia-cuda-nvrtc-cu12).

Usage: python compile_ptx.py RECORDS.json; prints each failure and exits 1 if any.
"""
import json
import os
import sys

os.environ.pop("NUMBA_ENABLE_CUDASIM", None)

import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

CC = (8, 0)


def numba_type(spec):
    """A recorded argument type: ["a", dtype, ndim, layout] or ["s", dtype]."""
    scalar = numba.from_dtype(np.dtype(spec[1]))
    return numba.types.Array(scalar, spec[2], spec[3]) if spec[0] == "a" else scalar


def main(path):
    with open(path) as f:
        modules = json.load(f)
    failures, count = [], 0
    for module in modules:
        ns = {"__name__": "autograph_lite_cuda_kernels"}
        # (cache=True needs a file: this module has none)
        exec(compile(module["source"].replace("cache=True", "cache=False"),
                     "<autograph_lite cuda kernels>", "exec"), ns)
        for name, signatures in module["kernels"].items():
            for sig in signatures:
                types = tuple(numba_type(s) for s in sig)
                count += 1
                try:
                    cuda.compile_ptx(ns[name].py_func, types, cc=CC)
                except Exception as e:  # report every kernel, not just the first
                    kernel = module["source"].split(f"def {name}(")[1].split("\n\n\n")[0]
                    failures.append(f"{name}{types}: {type(e).__name__}: "
                                    f"{str(e).splitlines()[0] if str(e) else ''}\n"
                                    f"def {name}({kernel}")
    for f in failures:
        print(f, end="\n\n")
    print(f"{count} kernel signatures, {len(failures)} failed to compile for a GPU")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
