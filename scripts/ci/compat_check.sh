#!/bin/sh
# The course on the toolchain a Colab runtime or a GPU server brings, checked the way a learner
# there meets it: the OLDEST supported torch wheel (read from cmake/TorchlingsSupport.cmake),
# CMake 4 from PyPI, and GCC 11 (Ubuntu 22.04's) when it is installed.
#
#   scripts/ci/compat_check.sh            set up (cached), build, run every lesson and one exercise
#                                      solution per lesson (plus read_idx_images, which once
#                                      crashed on an older wheel); exit 0 only if all of it passed
#   scripts/ci/compat_check.sh --full     the same set-up, then the whole test suite (./torchlings test)
#   scripts/ci/compat_check.sh --setup    the set-up alone (the downloads and the configure), which
#                                      .ci/run does while the test suite builds
#
# Everything downloaded is kept in the course's cache folder (scripts/setup/cache_dir.sh names it):
# the torch wheel in venv-<spec>/, CMake 4 in cmake4/. A second run downloads nothing.
# Environment: COMPAT_CXX (default g++-11 when installed, else g++), COMPAT_TORCH_SPEC (default
# "torch~=<oldest>.0", the newest patch release of the oldest supported minor version).
set -eu
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
. "$ROOT/scripts/setup/cache_dir.sh"   # sets CACHE_DIR, the course's cache folder
say() { printf 'compat: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

full=0 setup_only=0
case "${1:-}" in
  --full) full=1 ;;
  --setup) setup_only=1 ;;
  "") ;;
  *) die "unknown option '$1' (expected nothing, --full or --setup)" ;;
esac

oldest=$(sed -n 's/^set(TORCHLINGS_TORCH_OLDEST "\([0-9.]*\)".*/\1/p' "$ROOT/cmake/TorchlingsSupport.cmake")
[ -n "$oldest" ] || die "cannot read TORCHLINGS_TORCH_OLDEST from cmake/TorchlingsSupport.cmake"
TORCHLINGS_TORCH_SPEC="${COMPAT_TORCH_SPEC:-torch~=$oldest.0}"
export TORCHLINGS_TORCH_SPEC

# --- CMake 4 from PyPI, as the wrapper installs it where the system's is missing or too old ----
CMAKE4="$CACHE_DIR/cmake4"
if [ ! -x "$CMAKE4/bin/cmake" ]; then
  say "installing CMake 4 from PyPI into $CMAKE4"
  mkdir -p "$CACHE_DIR"
  python3 -m venv "$CMAKE4" \
    && "$CMAKE4/bin/python" -m pip install --quiet --disable-pip-version-check "cmake>=4,<5" ninja \
    || { rm -rf "$CMAKE4"; die "could not install CMake 4 from PyPI into $CMAKE4"; }
fi
PATH="$CMAKE4/bin:$PATH"; export PATH

# --- GCC 11: installed when we may (root with apt-get), else the default compiler is used ------
if [ -z "${COMPAT_CXX:-}" ]; then
  if ! command -v g++-11 >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing g++-11 (Ubuntu 22.04's and Colab's compiler)"
    # A check run beside this one may be installing too: wait for apt's locks.
    wait_lock="-o DPkg::Lock::Timeout=600"
    # shellcheck disable=SC2086  # the option is two words
    DEBIAN_FRONTEND=noninteractive apt-get $wait_lock install -y -qq --no-install-recommends g++-11 >/dev/null 2>&1 \
      || { DEBIAN_FRONTEND=noninteractive apt-get $wait_lock update -qq >/dev/null \
           && DEBIAN_FRONTEND=noninteractive apt-get $wait_lock install -y -qq --no-install-recommends g++-11 >/dev/null; } \
      || say "could not install g++-11; using the default g++"
  fi
  if command -v g++-11 >/dev/null 2>&1; then COMPAT_CXX=g++-11; else COMPAT_CXX=g++; fi
fi
CXX=$COMPAT_CXX; export CXX

say "torch '$TORCHLINGS_TORCH_SPEC', $(cmake --version | head -n 1), $($CXX --version | head -n 1)"
cd "$ROOT"
if [ "$full" = 1 ]; then
  # The CUDA wheel, as below (a driverless machine would otherwise get it used as CPU-only).
  TORCHLINGS_PRESET=dev ./torchlings setup --cuda >/dev/null
  TORCHLINGS_PRESET=dev exec ./torchlings test
fi

# The wrapper installs the wheel into its own venv and configures the build folder named here:
# the CUDA wheel (setup --cuda), as on a GPU server or Colab, so that lesson 09's kernels compile
# with this GCC and the nvcc the set-up chooses for that torch; without it, a machine without a
# driver would get the wheel used as CPU-only and compile no kernel.
start=$(date +%s)
build="$ROOT/build/compat-$(printf '%s' "$TORCHLINGS_TORCH_SPEC" | tr -c 'A-Za-z0-9.' '-')"
TORCHLINGS_PRESET=compat TORCHLINGS_BUILD_DIR=$build ./torchlings setup --cuda >/dev/null || true
[ -f "$build/CMakeCache.txt" ] || die "the wrapper did not configure a compat build (see above)"
grep -q "CMAKE_CXX_COMPILER:.*$CXX" "$build/CMakeCache.txt" \
  || die "$build was configured with another compiler; remove it and run again"
if [ "$setup_only" = 1 ]; then say "set up in $(( $(date +%s) - start )) s: $build"; exit 0; fi
cat "$build/torchlings_config.json"

# One exercise per lesson (the first in each test folder), and the one that crashed before.
exercises=""
for dir in "$ROOT"/tests/exercises/[0-9][0-9]_*/; do
  first=$(ls "$dir" | sed -n 's/_test\.cpp$//p' | head -n 1)
  [ -n "$first" ] && exercises="$exercises $first"
done
case " $exercises " in *" read_idx_images "*) ;; *) exercises="$exercises read_idx_images" ;; esac
lessons=$(ls -d "$ROOT"/lessons/[0-9][0-9]_*/ | sed 's|.*/lessons/\([0-9][0-9]\)_.*|\1|')

# The cheat sheet names LibTorch calls for every supported version: it must compile here too.
targets="cheatsheet_check"
for n in $lessons; do targets="$targets lesson_$n"; done
for id in $exercises; do targets="$targets ex_${id}_solution"; done
say "building:$targets"
# shellcheck disable=SC2086  # the target list is meant to split
cmake --build "$build" --target $targets

failed=""
passed=0
for n in $lessons; do
  if "$build/bin/lesson_$n" --device cpu >"$build/lesson_$n.out" 2>&1; then
    say "lesson $n: ok"; passed=$((passed + 1))
  else
    say "lesson $n: FAILED (exit $?); its output:"; cat "$build/lesson_$n.out" >&2
    failed="$failed lesson_$n"
  fi
done
for id in $exercises; do
  if "$build/bin/ex_${id}_solution" >"$build/ex_$id.out" 2>&1; then
    say "exercise $id (solution): $(grep -E 'test cases|All tests passed' "$build/ex_$id.out" | tail -n 1)"
    passed=$((passed + 1))
  else
    say "exercise $id (solution): FAILED (exit $?); its output:"; cat "$build/ex_$id.out" >&2
    failed="$failed ex_${id}_solution"
  fi
done
say "done in $(( $(date +%s) - start )) s (set-up included)"
echo "compat: $passed passed, $(printf '%s' "$failed" | wc -w) failed"
[ -z "$failed" ] || die "failed:$failed"
