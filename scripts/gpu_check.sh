#!/bin/sh
# The course on a GPU machine, with that machine's own Python torch as LibTorch (the path Colab
# and GPU servers take): configure, build, the whole test suite, every lesson on `cuda`, and the
# GPU benchmarks. Each step's output goes to LOG_DIR (default build/gpu-check); a summary is
# printed at the end, and the exit status is non-zero if any step failed.
#
#   scripts/gpu_check.sh [LOG_DIR]
#
# Environment:
#   GPU_CHECK_ARCHS     CUDA architectures to compile (default: the GPU's own, from nvidia-smi)
#   GPU_CHECK_DEPS      a folder holding usr/ of unpacked Debian packages (Catch2, CLI11,
#                       nlohmann-json, Google Benchmark, OpenSSL) for a server that has no route to
#                       a package registry; without it the system's packages are used
#   GPU_CHECK_JOBS      parallel build and test jobs (default: the number of cores)
set -u
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
LOG=${1:-$ROOT/build/gpu-check}
BUILD=$ROOT/build/gpu
JOBS=${GPU_CHECK_JOBS:-$(nproc)}
mkdir -p "$LOG"
summary="$LOG/summary.txt"
: >"$summary"
failures=0
step() {  # step NAME COMMAND...: runs it, logs to LOG/NAME.txt, records ok/FAILED and seconds
  name=$1; shift
  t0=$(date +%s)
  if "$@" >"$LOG/$name.txt" 2>&1; then verdict=ok; else verdict="FAILED (exit $?)"; failures=$((failures + 1)); fi
  printf '%-28s %s in %s s\n' "$name" "$verdict" "$(( $(date +%s) - t0 ))" | tee -a "$summary"
}

torch_prefix=$(python3 -c 'import torch.utils; print(torch.utils.cmake_prefix_path)') \
  || { echo "gpu_check: python3 has no torch" >&2; exit 3; }
archs=${GPU_CHECK_ARCHS:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
  | head -n 1 | tr -d '.')}
[ -n "$archs" ] || archs=90
{
  echo "machine: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "torch:   $(python3 -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)')"
  echo "cmake:   $(cmake --version | head -n 1)"
  echo "c++:     $(${CXX:-c++} --version | head -n 1)"
  echo "nvcc:    $(nvcc --version 2>/dev/null | tail -n 1)"
  echo "cores:   $(nproc)"
} | tee -a "$summary"

set --
if [ -n "${GPU_CHECK_DEPS:-}" ]; then
  P=$GPU_CHECK_DEPS/usr
  LD_LIBRARY_PATH=$P/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}; export LD_LIBRARY_PATH
  set -- "-DCMAKE_PREFIX_PATH=$P;$P/lib/x86_64-linux-gnu/cmake;$P/share/cmake;$P/lib/cmake" \
    "-DOPENSSL_ROOT_DIR=$P" "-DOPENSSL_INCLUDE_DIR=$P/include" \
    "-DOPENSSL_CRYPTO_LIBRARY=$P/lib/x86_64-linux-gnu/libcrypto.so"
fi
cd "$ROOT" || exit 3
step configure cmake --preset dev -B "$BUILD" -DTorch_DIR="$torch_prefix/Torch" \
  -DTORCHLINGS_CUDA_ARCHITECTURES="$archs" "$@"
step build cmake --build "$BUILD" -j "$JOBS"
step tests ctest --test-dir "$BUILD" -j "$JOBS" -LE gpu --output-on-failure
step tests-gpu-label ctest --test-dir "$BUILD" -j 4 -L gpu --output-on-failure
for lesson in "$BUILD"/bin/lesson_[0-9][0-9]; do
  step "$(basename "$lesson")-cuda" "$lesson" --device cuda
done
step bench_kernels-cuda "$BUILD/bin/bench_kernels" --benchmark_filter=cuda \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
step bench_data_parallel "$BUILD/bin/bench_data_parallel" --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true
if grep -l "no current CUDA context" "$LOG"/*.txt >/dev/null 2>&1; then
  echo "warning: a thread ran GPU work without a current CUDA context:" | tee -a "$summary"
  grep -l "no current CUDA context" "$LOG"/*.txt | tee -a "$summary"
  failures=$((failures + 1))
fi
grep -E "tests passed|tests failed" "$LOG/tests.txt" "$LOG/tests-gpu-label.txt" | tee -a "$summary"
echo "gpu_check: $failures step(s) failed; logs in $LOG" | tee -a "$summary"
[ "$failures" -eq 0 ]
