#!/bin/sh
# Lesson 10's step times for several process counts: runs the demo under torchrun (one machine,
# a free port) with each count, and prints section 7 of rank 0's report as a table row.
#
#   benchmarks/distributed_steps.sh [N ...]      default: 1 2 4
# Environment: BUILD (default build/dev), TORCHRUN (default: the one the build found).
# The figures are medians of 10 steps after 2 warm-up steps, each step timed from a barrier; a
# step lasts as long as its slowest rank (the demo reports the maximum over the ranks).
# OMP_NUM_THREADS is 1 unless set: torchrun sets it so in each process only when it starts more
# than one, and a process alone would otherwise run ATen's own threads, a different program.
set -eu
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build/dev}
PROGRAM="$BUILD/bin/lesson_10"
if [ -z "${TORCHRUN:-}" ]; then
  TORCHRUN=$(sed -n 's/^torchrun=//p' "$BUILD/bin/lesson_10.launch" 2>/dev/null || true)
fi
[ -x "$PROGRAM" ] || { echo "build lesson_10 first: cmake --build $BUILD --target lesson_10" >&2; exit 3; }
[ -n "$TORCHRUN" ] || { echo "torchrun not found: set TORCHRUN=<path to torchrun>" >&2; exit 3; }
[ $# -gt 0 ] || set -- 1 2 4

echo "machine: $(getconf _NPROCESSORS_ONLN) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1); load average $(cut -d' ' -f1-3 /proc/loadavg); OMP_NUM_THREADS=$OMP_NUM_THREADS"
echo "| processes | all-reduced per step | step, by hand | step, Reducer |"
echo "|---|---|---|---|"
for n in "$@"; do
  out=$("$TORCHRUN" --standalone --no-python --nproc-per-node="$n" "$PROGRAM" --device cpu 2>/dev/null)
  field() { printf '%s\n' "$out" | sed -n "s/^$1: *//p" | tail -n 1; }
  printf '| %s | %s | %s | %s |\n' "$n" "$(field 'All-reduced per step')" \
    "$(field 'Step, by hand')" "$(field 'Step, Reducer')"
done
