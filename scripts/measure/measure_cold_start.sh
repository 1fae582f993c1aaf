#!/bin/sh
# A new learner's first minutes, measured: a fresh clone of this course, then the commands the
# README starts with, each timed from the clone.
#
#   scripts/measure/measure_cold_start.sh [warm|empty] [--with-test]
#
#   warm   (default) the cache folder as it is on this machine (scripts/setup/cache_dir.sh names it):
#          the torch wheel's virtual environment is reused, as on a second clone or a classroom
#          machine prepared once;
#   empty  a new, empty cache folder: the set-up creates the virtual environment and downloads
#          the torch wheel (network needed), as on a brand-new machine.
#   --with-test   also time `./torchlings test` (the whole suite; the longest step by far).
#
# Steps, each on its own line with its time and the time since the clone:
#   set-up        ./torchlings setup: system packages checked (apt-get when root), LibTorch found
#                 or the wheel installed, the build folder configured; nothing built;
#   lesson 01     ./torchlings run 01: the runner, the device layer and lesson 01 built (at once),
#                 and its output printed;
#   first verdict ./torchlings check count_devices: the first exercise built and its tests run;
#   test          ./torchlings test (with --with-test).
# The clone and the temporary cache are removed afterwards. Run it on an otherwise idle machine.
set -eu
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
MODE=warm
WITH_TEST=no
for arg in "$@"; do
  case $arg in
    warm | empty) MODE=$arg ;;
    --with-test) WITH_TEST=yes ;;
    *) echo "usage: $0 [warm|empty] [--with-test]   (got '$arg')" >&2; exit 64 ;;
  esac
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/torchlings-cold-start-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ "$MODE" = empty ]; then
  export XDG_CACHE_HOME="$WORK/cache"
  mkdir -p "$XDG_CACHE_HOME"
fi
# The course's own preset and state only: nothing of this shell's course settings leaks in.
unset TORCHLINGS_PRESET TORCHLINGS_BUILD_DIR TORCHLINGS_ROOT CI
LOG="$WORK/log"

now() { date +%s.%N; }
START=$(now)
git clone --quiet "$ROOT" "$WORK/course"
cd "$WORK/course"

# step NAME COMMAND...: runs it with its output in the log, prints its time and the running total.
step() {
  name=$1
  shift
  t0=$(now)
  if ! "$@" >>"$LOG" 2>&1; then
    case $name in
      "first verdict") ;;  # the untouched exercise fails its tests: that is its verdict
      *) echo "$name failed: $*; its output:" >&2; tail -n 30 "$LOG" >&2; exit 1 ;;
    esac
  fi
  t1=$(now)
  printf '%-14s %7.1f s   (%6.1f s since the clone)\n' "$name" \
    "$(awk "BEGIN {print $t1 - $t0}")" "$(awk "BEGIN {print $t1 - $START}")"
}

printf 'cold start, %s cache, %s, %s cores\n' "$MODE" "$(uname -m)" "$(nproc)"
step "set-up" ./torchlings setup
step "lesson 01" ./torchlings run 01
step "first verdict" ./torchlings check count_devices
if [ "$WITH_TEST" = yes ]; then
  step "test" ./torchlings test
fi
