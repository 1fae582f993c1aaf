#!/bin/sh
# The course on a GPU machine, with that machine's own Python torch as LibTorch (the path Colab
# and GPU servers take): configure, build, the whole test suite, every lesson on `cuda`, lesson 10
# under torchrun with NCCL (one rank per GPU), and the GPU benchmarks. What only a GPU can show
# comes first (lessons 08-10 and the kernels' benchmark are built and run before the rest), so a
# run cut short still has it. Each step's output goes to LOG_DIR (default build/gpu-check); a
# summary is printed at the end, and the exit status is non-zero if any step failed.
#
#   scripts/gpu_check.sh [LOG_DIR]
#
# Environment:
#   GPU_CHECK_ARCHS     CUDA architectures to compile (default: the GPU's own, from nvidia-smi)
#   GPU_CHECK_DEPS      a folder holding usr/ of unpacked Debian packages (Catch2, CLI11,
#                       nlohmann-json, Google Benchmark, OpenSSL) for a server that has no route to
#                       a package registry; without it the system's packages are used
#   GPU_CHECK_JOBS      parallel build and test jobs (default: the number of cores)
#   GPU_CHECK_TIMEOUT   seconds a lesson or benchmark step may take before it is stopped and
#                       counted failed (default 900; GNU coreutils' timeout). Builds have no limit,
#                       and the test steps have CTest's own, per test.
#   GPU_CHECK_SANITIZER 1: also run common_tests' [gpu] cases (the kernels, the device and timer
#                       code) under compute-sanitizer memcheck
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
  case $name in
    build* | configure | tests*) set -- "$@" ;;
    # In the foreground, so that Ctrl-C reaches the step too; KILL 30 s after a TERM it ignores.
    *) set -- timeout --foreground -k 30 "${GPU_CHECK_TIMEOUT:-900}" "$@" ;;
  esac
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
step build-gpu-first cmake --build "$BUILD" -j "$JOBS" --target lesson_08 lesson_09 lesson_10 \
  bench_kernels
for n in 08 09 10; do
  step "lesson_$n-cuda" "$BUILD/bin/lesson_$n" --device cuda
done
# One process per GPU this process can see (CUDA_VISIBLE_DEVICES counts; nvidia-smi lists them
# all); a run whose process group was not NCCL counts as a failure.
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null)
[ "${gpus:-0}" -ge 1 ] || gpus=1
step "lesson_10-torchrun-$gpus-cuda" python3 -m torch.distributed.run --standalone \
  --nproc-per-node="$gpus" --no-python "$BUILD/bin/lesson_10" --device cuda
grep -q "^Process group: *nccl" "$LOG/lesson_10-torchrun-$gpus-cuda.txt" || {
  echo "lesson_10-torchrun: the process group was not NCCL" | tee -a "$summary"
  failures=$((failures + 1))
}
step bench_kernels-cuda "$BUILD/bin/bench_kernels" --benchmark_filter=cuda \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
step build cmake --build "$BUILD" -j "$JOBS"
step tests-gpu-label ctest --test-dir "$BUILD" -j 4 -L gpu --output-on-failure
for n in 01 02 03 04 05 06 07; do
  step "lesson_$n-cuda" "$BUILD/bin/lesson_$n" --device cuda
done
step tests ctest --test-dir "$BUILD" -j "$JOBS" -LE gpu --output-on-failure
# Each solution's test program whole, in one process, as the runner runs it (ctest runs one case
# per process): a GPU case must not come after a stand-in case (tests/support/gpu_cases_first.py).
step solutions-whole-programs sh -c 'status=0
  for program in "$1"/bin/ex_*_solution; do
    "$program" >/dev/null 2>&1 || { echo "FAILED: $program"; "$program" 2>&1 | tail -n 30; status=1; }
  done
  exit $status' sh "$BUILD"
step bench_data_parallel "$BUILD/bin/bench_data_parallel" --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true
if [ "${GPU_CHECK_SANITIZER:-0}" = 1 ]; then
  command -v compute-sanitizer >/dev/null 2>&1 || PATH=$PATH:/usr/local/cuda/bin
  step sanitizer-memcheck compute-sanitizer --tool memcheck --leak-check no \
    "$BUILD/bin/common_tests" "[gpu]"
fi
if grep -l "no current CUDA context" "$LOG"/*.txt >/dev/null 2>&1; then
  echo "warning: a thread ran GPU work without a current CUDA context:" | tee -a "$summary"
  grep -l "no current CUDA context" "$LOG"/*.txt | tee -a "$summary"
  failures=$((failures + 1))
fi
grep -E "tests passed|tests failed" "$LOG/tests.txt" "$LOG/tests-gpu-label.txt" | tee -a "$summary"
echo "gpu_check: $failures step(s) failed; logs in $LOG" | tee -a "$summary"
[ "$failures" -eq 0 ]
