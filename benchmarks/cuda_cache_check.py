"""Does numba-cuda's disk cache serve the cuda backend's kernels to a new process?

    python benchmarks/cuda_cache_check.py      # on a machine with a GPU (gpu_checks.sh runs it)

Runs one program (bench_gpu.py's Newton: elementwise, reduction and loop kernels) in two fresh
processes sharing one empty kernel cache folder and prints each one's first-call time and
the numba-cuda cache files written. The second process should load every kernel from the
cache: no new files, and a faster first call (on an H200, session 49: 2.4 s against 3.5 s;
what is left is tracing and numba-cuda's own start-up on its first dispatcher call,
README "GPU backend"). Exit
status 1 if the second process's results differ or it wrote new cache files; 3 without a
GPU.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, time
import numpy as np
import autograph_lite as ag
from bench_gpu import newton   # (bench_gpu.py's workload (4))

a = np.linspace(0.5, 100.0, 100_000)
f = ag.defun(newton, backend="cuda")
t0 = time.perf_counter()
x = f(a)
first = time.perf_counter() - t0
print(json.dumps({"first_call_s": first, "sum": float(np.sum(x.numpy()))}))
"""


def main():
    os.environ.pop("NUMBA_ENABLE_CUDASIM", None)
    from numba import cuda
    if not cuda.is_available():
        print("cuda_cache_check: no CUDA GPU here")
        return 3
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as d:
        path = os.pathsep.join([str(root), str(root / "benchmarks"),
                                os.environ.get("PYTHONPATH", "")])
        env = dict(os.environ, AUTOGRAPH_LITE_CACHE_DIR=d, AUTOGRAPH_LITE_QUIET="1",
                   PYTHONPATH=path)
        runs, files = [], []
        for k in range(2):
            done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                                  text=True, timeout=600)
            if done.returncode:
                print(done.stdout, done.stderr[-3000:])
                return 1
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            files.append(sorted(p.name for p in Path(d).rglob("*.nb*")))
        for k, (r, f) in enumerate(zip(runs, files)):
            print(f"process {k + 1}: first call {r['first_call_s']:.2f} s, "
                  f"{len(f)} numba-cuda cache files")
        same = runs[0]["sum"] == runs[1]["sum"]
        print(f"results equal: {same}; second process wrote nothing new: "
              f"{files[0] == files[1]}; speed-up of the first call: "
              f"{runs[0]['first_call_s'] / runs[1]['first_call_s']:.1f}x")
        return 0 if same and files[0] == files[1] and files[0] else 1


if __name__ == "__main__":
    sys.exit(main())
