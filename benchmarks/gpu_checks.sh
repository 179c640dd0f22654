#!/usr/bin/env bash
# The GPU checks in one command, for a lent GPU machine (the device tool runs it from the
# repository root there; that machine has Python 3.12 with numba and numba-cuda but no
# package registry):   bash benchmarks/gpu_checks.sh [TEST_PATH ...]
# 1. prints the GPU and the versions found; installs the wheels carried in .whl/ whose
#    version differs (README, "GPU backend": numpy, numba, numba-cuda, gast);
# 2. benchmarks/bench_gpu.py at full size (GPU_BENCH=quick for smaller, 0 to skip;
#    GPU_BENCH_ONLY=newton,chain for some workloads);
#    then benchmarks/cuda_cache_check.py: a second process loads the kernels from numba-cuda's
#    disk cache (GPU_CACHE_CHECK=0 skips);
# 3. tests/cuda on the GPU itself (NUMBA_ENABLE_CUDASIM=0: every kernel compiled for the
#    card and launched there; GPU_CUDA_TESTS=0 skips);
# 4. the TEST_PATHs given, with every differential test on cuda alone
#    (AG_TEST_BACKENDS=cuda), verbose, spread test by test over the workers (--dist load:
#    the random programs are one file), stopped with SIGINT after GPU_TEST_TIMEOUT seconds
#    so that pytest still lists what failed.
# GPU_BENCH_TIMEOUT / GPU_CACHE_TIMEOUT / GPU_CUDA_TIMEOUT (seconds) bound steps 2 and 3, to fit a
# device budget.
# Logs go to $OUT (the device tool brings them back) or /tmp/gpu_checks.
set -u
out=${OUT:-/tmp/gpu_checks}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 AUTOGRAPH_LITE_QUIET=1 NUMBA_ENABLE_CUDASIM=0
export AUTOGRAPH_LITE_CACHE_DIR=/tmp/ag_kernel_cache
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
py=${PYTHON:-python3}
version() { $py -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$1" 2>/dev/null; }

nvidia-smi -L 2>&1 | head -4
for w in .whl/*.whl; do
  [ -e "$w" ] || continue
  base=$(basename "$w"); name=$(echo "$base" | cut -d- -f1 | tr _ -); want=$(echo "$base" | cut -d- -f2)
  have=$(version "$name")
  [ "$have" = "$want" ] && continue
  if [ "$name" = numba ] && [[ "$(version llvmlite)" != 0.50.* ]]; then
    echo "not installing $base: llvmlite $(version llvmlite) is there, it needs 0.50"; continue
  fi
  $py -m pip install -q --no-index --no-deps --no-compile --no-cache-dir "$w" \
    && echo "installed $name $want (was ${have:-absent})"
done
for n in python numpy numba llvmlite numba-cuda cuda-bindings scipy gast hypothesis pytest pytest-xdist; do
  [ $n = python ] && { echo "python $($py -c 'import sys; print(sys.version.split()[0])')"; continue; }
  echo "$n $(version $n || echo absent)"
done | paste -sd' ' | tee "$out/versions.txt"

set -o pipefail
only=${GPU_BENCH_ONLY:+--only $GPU_BENCH_ONLY}
case "${GPU_BENCH:-full}" in
  0) ;;
  quick) timeout "${GPU_BENCH_TIMEOUT:-240}" $py benchmarks/bench_gpu.py --quick $only 2>&1 | tee "$out/bench_gpu.log" ;;
  *) timeout "${GPU_BENCH_TIMEOUT:-300}" $py benchmarks/bench_gpu.py $only 2>&1 | tee "$out/bench_gpu.log" ;;
esac
echo "bench exit $?"
if [ "${GPU_CACHE_CHECK:-1}" != 0 ]; then   # numba-cuda's disk cache across processes
  timeout "${GPU_CACHE_TIMEOUT:-300}" $py benchmarks/cuda_cache_check.py 2>&1 | tee "$out/cuda_cache.log"
  echo "cuda_cache_check exit $?"
fi

pytest_args=(-p no:cacheprovider -p no:benchmark -n "${GPU_TEST_JOBS:-16}"
             -W ignore::DeprecationWarning -W ignore::numba.core.errors.NumbaPerformanceWarning)
if [ "${GPU_CUDA_TESTS:-1}" != 0 ]; then
  echo "== pytest tests/cuda on the GPU"
  timeout "${GPU_CUDA_TIMEOUT:-300}" $py -m pytest tests/cuda -q --durations=5 "${pytest_args[@]}" 2>&1 \
    | tee "$out/pytest_cuda.log" | tail -n 25
  echo "pytest tests/cuda exit $?"
fi
if [ $# -gt 0 ]; then
  echo "== AG_TEST_BACKENDS=cuda pytest $*"
  AG_TEST_BACKENDS=${AG_TEST_BACKENDS:-cuda} timeout -s INT -k 30 "${GPU_TEST_TIMEOUT:-240}" \
    $py -m pytest "$@" -v -rf --dist load "${pytest_args[@]}" > "$out/pytest_more.log" 2>&1
  echo "pytest $* exit $?"
  grep -E "^(FAILED|ERROR)|passed|failed" "$out/pytest_more.log" | tail -n 60
fi
