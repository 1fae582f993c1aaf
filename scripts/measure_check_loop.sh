#!/bin/sh
# The learner's loop: with everything built, how long from saving an exercise file to the verdict
# of `./torchlings check <id>`? Touches the file (a save without changing it), times the check,
# five times, and prints each run and the median. The exercise's verdict does not matter here.
#
#   scripts/measure_check_loop.sh [exercise-id] [runs]
set -eu
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
ID=${1:-count_devices}
RUNS=${2:-5}
FILE=$(find "$ROOT/exercises" -name "$ID.cpp" | head -n 1)
[ -n "$FILE" ] || { echo "no exercise file named $ID.cpp under exercises/" >&2; exit 64; }

"$ROOT/torchlings" check "$ID" >/dev/null 2>&1 || true   # warm: everything built once
times=""
i=0
while [ "$i" -lt "$RUNS" ]; do
  touch "$FILE"
  start=$(date +%s.%N)
  "$ROOT/torchlings" check "$ID" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  t=$(awk "BEGIN {print $end - $start}")
  printf 'run %d: %.2f s\n' "$((i + 1))" "$t"
  times="$times $t"
  i=$((i + 1))
done
median=$(printf '%s\n' $times | sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}')
printf 'check %s: median %.2f s over %d runs (%s, %s cores)\n' "$ID" "$median" "$RUNS" \
  "$(uname -m)" "$(nproc)"
