#!/bin/bash
# The grade's attack cases run against another commit: this checkout's hostile course (its learner
# files and tests) and its fault cases (tests/runner/faults.sh), on a build of that commit's runner
# and test support. What a case says there is what that commit let through, so a defence is shown
# to matter by its case failing on the commit before it (runner/README.md, "Forged results").
#
#   scripts/ci/attacks_against.sh <commit> [<case> ...]
#
# Default cases, one per way the issue of forged grades names (a learner file that passes without
# the work): the call table redirected (call_table_redirect), the key read through the memory file
# (key_read_from_memory), the tests patched through it (tests_patched_in_memory,
# tests_patched_unsandboxed), other test programs and the course written over
# (overwrite_build_and_course), a report rewritten after the runner exits (lingering_rewrite).
# Prints each case's verdict there: "held" (the case passes), "let through" with the line of the
# grade that shows it (a stub's full pass, a rewritten result, a test program written over), or,
# when the case fails otherwise, its FAIL line; then exits 0, or 2 when the commit could not be
# built.
#
# Needs git, cmake and ninja, and a configured build of this checkout (build/ci or build/dev), whose
# compiler and LibTorch it reuses; the commit is built without CUDA, benchmarks or stub checks, and
# only the runner and the fixtures the cases use. WORK (default /tmp/torchlings-attacks-<commit>)
# holds the worktree and its build; KEEP=1 keeps them afterwards. Linux only, as the cases are.
set -euo pipefail
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
commit=${1:?usage: $0 <commit> [<case> ...]}
shift
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(call_table_redirect key_read_from_memory tests_patched_in_memory
                                 tests_patched_unsandboxed overwrite_build_and_course
                                 lingering_rewrite)
rev=$(git -C "$ROOT" rev-parse --short "$commit^{commit}")
work=${WORK:-/tmp/torchlings-attacks-$rev}

cache=""
for preset in ci dev; do
  [ -f "$ROOT/build/$preset/CMakeCache.txt" ] && { cache="$ROOT/build/$preset/CMakeCache.txt"; break; }
done
[ -n "$cache" ] || { echo "$0: no configured build of this checkout (build/ci or build/dev): run ./torchlings test first" >&2; exit 2; }
cached() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }

cleanup() { [ "${KEEP:-0}" = 1 ] || { git -C "$ROOT" worktree remove --force "$work/tree" 2>/dev/null || true; rm -rf "$work"; }; }
trap cleanup EXIT
rm -rf "$work"
mkdir -p "$work"
git -C "$ROOT" worktree add --detach --force "$work/tree" "$rev" >/dev/null
# This checkout's hostile course in place of the commit's: the attacks are this checkout's.
rm -rf "$work/tree/tests/runner/hostile"
cp -R "$ROOT/tests/runner/hostile" "$work/tree/tests/runner/hostile"

echo "building $rev's runner and the fixtures (log: $work/build.log) ..."
if ! { cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_C_COMPILER="$(cached CMAKE_C_COMPILER)" -DCMAKE_CXX_COMPILER="$(cached CMAKE_CXX_COMPILER)" \
         -DTorch_DIR="$(cached Torch_DIR)" \
         -DTORCHLINGS_CUDA=OFF -DTORCHLINGS_BENCHMARKS=OFF -DTORCHLINGS_STUB_CHECK=OFF &&
       cmake --build "$work/build" --target torchlings-runner; } >"$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log"
  echo "$0: $rev could not be built (above)" >&2
  exit 2
fi

for case_name in "${cases[@]}"; do
  log="$work/$case_name.log"
  RUNNER="$work/build/bin/torchlings-runner" FIXTURES="$work/tree/tests/runner/fixtures" \
    HOSTILE="$work/tree/tests/runner/hostile" BUILD="$work/build" WORK="$work/faults" \
    SOURCE_ROOT="$work/tree" sh "$ROOT/tests/runner/faults.sh" "$case_name" >"$log" 2>&1 || true
  verdict=$(grep -E '^(ok|FAIL: .*|TL_SKIP: .*)$' "$log" | tail -n 1)
  # Let through: what the grade shows, not merely the first expectation that failed (an older
  # runner words things differently): a full pass of a stub, a result rewritten after the
  # runner's exit, or another test program written over.
  through=$(grep -E '^[a-z_]+: ([0-9]+)/\1 tests passed\. Done!|"forged": true|the test program overwrote|rewritten after the runner exited' "$log" | head -n 1)
  case $verdict in
    ok) echo "$case_name: held" ;;
    FAIL:*) if [ -n "$through" ]; then
              echo "$case_name: let through: $through"
            else
              echo "$case_name: not held as the case expects, yet no pass was let through: ${verdict#FAIL: } (see $log)"
            fi ;;
    *) echo "$case_name: ${verdict:-no verdict (see $log)}" ;;
  esac
done
