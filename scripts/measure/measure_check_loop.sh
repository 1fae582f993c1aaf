#!/bin/sh
# The learner's loop: with everything built, how long from saving an exercise file to the verdict
# of `./torchlings check <id>`? Touches the file (a save without changing it), times the check
# RUNS times, and prints each run and the median. The exercise's verdict does not matter here.
#
#   scripts/measure/measure_check_loop.sh [exercise-id] [runs]     one exercise (default count_devices, 5)
#   scripts/measure/measure_check_loop.sh --all [runs]             every exercise of the course (default 3):
#                                                          a Markdown table, median per exercise,
#                                                          then the slowest and the course median
#
# Each exercise is built once before it is timed, so the figures are the save-to-verdict loop,
# not the first build. Run it on an otherwise idle machine: other builds skew every figure.
set -eu
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)

median() {  # the median of the numbers on stdin, one per line
  sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}

# measure ID RUNS: prints one time per line (seconds), after one untimed warm-up check.
measure() {
  file=$(find "$ROOT/exercises" -name "$1.cpp" | head -n 1)
  [ -n "$file" ] || { echo "no exercise file named $1.cpp under exercises/" >&2; exit 64; }
  "$ROOT/torchlings" check "$1" >/dev/null 2>&1 || true   # warm: everything built once
  i=0
  while [ "$i" -lt "$2" ]; do
    touch "$file"
    start=$(date +%s.%N)
    "$ROOT/torchlings" check "$1" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk "BEGIN {print $end - $start}"
    i=$((i + 1))
  done
}

machine="$(uname -m), $(nproc) cores"

if [ "${1:-}" = "--all" ]; then
  RUNS=${2:-3}
  # The exercises in course order, as the runner reads info.md (`list --json`).
  ids=$("$ROOT/torchlings" list --json | python3 "$ROOT/docs/course_listing.py" -) || exit 3
  [ -n "$ids" ] || { echo "no exercises declared under $ROOT/exercises/*/info.md" >&2; exit 3; }
  medians=""
  printf '| exercise | median save -> verdict (s) |\n|---|---|\n'
  for id in $ids; do
    m=$(measure "$id" "$RUNS" | median)
    printf '| %s | %.2f |\n' "$id" "$m"
    medians="$medians$id $m
"
  done
  slowest=$(printf '%s' "$medians" | sort -k2 -g | tail -n 1)
  course=$(printf '%s' "$medians" | awk '{print $2}' | median)
  printf '\nslowest: %s (%.2f s); median over %d exercises: %.2f s; %d runs each (%s)\n' \
    "${slowest% *}" "${slowest#* }" "$(printf '%s' "$medians" | wc -l)" "$course" "$RUNS" "$machine"
  exit 0
fi

ID=${1:-count_devices}
RUNS=${2:-5}
times=$(measure "$ID" "$RUNS")
printf '%s\n' "$times" | awk '{printf "run %d: %.2f s\n", NR, $1}'
printf 'check %s: median %.2f s over %d runs (%s)\n' "$ID" "$(printf '%s\n' "$times" | median)" \
  "$RUNS" "$machine"
