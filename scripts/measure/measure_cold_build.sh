#!/bin/sh
# Cold build: configure and build every default target in a fresh folder, LibTorch already
# installed (it is found the usual way). Prints the wall time of each step.
#
#   scripts/measure/measure_cold_build.sh [preset]      (default: dev)
set -eu
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
PRESET=${1:-dev}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/torchlings-cold-XXXXXX")
trap 'rm -rf "$DIR"' EXIT

t0=$(date +%s.%N)
(cd "$ROOT" && cmake --preset "$PRESET" -B "$DIR" >"$DIR.configure.log" 2>&1)
t1=$(date +%s.%N)
cmake --build "$DIR" >"$DIR.build.log" 2>&1
t2=$(date +%s.%N)
printf 'configure: %.1f s\nbuild:     %.1f s\ntotal:     %.1f s  (preset %s, %s cores)\n' \
  "$(awk "BEGIN {print $t1 - $t0}")" "$(awk "BEGIN {print $t2 - $t1}")" "$(awk "BEGIN {print $t2 - $t0}")" "$PRESET" "$(nproc)"
rm -f "$DIR.configure.log" "$DIR.build.log"
