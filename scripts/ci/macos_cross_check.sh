#!/bin/bash
# Proves, on Linux and without a Mac, that the course's C++ compiles and links for macOS on Apple
# silicon (aarch64-macos): `zig c++` (clang, libc++ and the macOS SDK's headers, from the
# `ziglang` package on PyPI) cross-compiles it against LibTorch from the macOS arm64 torch wheel,
# and every program it links is checked to be an arm64 Mach-O executable. Nothing runs: this
# machine cannot run a Mach-O.
#
#   scripts/ci/macos_cross_check.sh            set up (cached), then build, in build/macos-cross:
#                                           1. torchlings_core and lesson_01 .. lesson_10
#                                           2. every exercise's solution test program (ex_<id>_solution)
#                                           3. the benchmarks (bench_*)
#                                           4. the runner (torchlings-runner)
#                                           5. the rest of what a learner's machine builds:
#                                              the learners' files with their tests (ex_<id>,
#                                              which `check` builds) and the listing programs
#                                              (ex_<id>_cases, for a file that does not
#                                              compile); the test programs of the device layer,
#                                              the test support, the stand-in, the runner and
#                                              lesson 10; cheatsheet_gen
#   scripts/ci/macos_cross_check.sh --fresh    the same in a new build folder (what CI runs)
#   MACOS_CROSS_DIR=<empty folder> scripts/ci/macos_cross_check.sh --fresh
#                                           the same from an empty cache (everything prepared)
#   scripts/ci/macos_cross_check.sh --stage 2  stages 1 and 2 only (--stage 1: stage 1 only, ...)
#
# At the end it prints how long it took, what it downloaded (MB) and which programs came out as
# arm64 Mach-O executables; it exits non-zero when any target it tried did not build.
#
# Everything it downloads or builds for the target is kept in <cache folder>/macos-cross/
# (scripts/setup/cache_dir.sh names the cache folder), or in MACOS_CROSS_DIR when it is set: a
# second run downloads nothing.
#   venv/            ziglang (pinned: MACOS_CROSS_ZIG, default below), run as `python -m ziglang`
#   bin/             zig-cc, zig-c++, zig-ar, zig-ranlib: the compilers and archivers CMake uses
#                    (cmake/toolchains/macos-arm64-zig.cmake, the `macos-cross` preset)
#   zig-cache/       zig's own cache (libc++ and the runtime it builds for the target, once)
#   downloads/       the torch wheel for macosx_14_0_arm64 (the version of the cache venv's torch,
#                    or MACOS_CROSS_TORCH), Debian's source archives of Catch2 and Google Benchmark
#                    (their URLs from trixie's source index, read with a private apt state in
#                    apt/, never the system's)
#   torch-<version>/ the wheel's torch/include, torch/lib (dylibs) and torch/share
#   prefix/          Catch2 v3 and Google Benchmark, built here for the target; CLI11's and
#                    nlohmann-json's headers and CMake files, copied from this machine (header-only,
#                    the same on every platform). The runner's and the reporter's HMAC and hashes
#                    come from CommonCrypto there, part of macOS (runner/core/system_crypto.h).
#   gloo/include     Gloo's headers, fetched as the set-up fetches them on a Mac (lesson 10's
#                    c10d::ProcessGroupGloo; the macOS wheel is built with Gloo)
#
# Needs: python3 with venv, curl, unzip, tar, CMake 3.25+, Ninja, file, apt-get (the first run
# only), and the Debian packages libcli11-dev and nlohmann-json3-dev (headers only). As root with
# apt-get, it installs those of curl, unzip, file and the two packages that are missing.
set -euo pipefail
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=../setup/cache_dir.sh
. "$ROOT/scripts/setup/cache_dir.sh"   # sets CACHE_DIR, the course's cache folder
X="${MACOS_CROSS_DIR:-$CACHE_DIR/macos-cross}"
BUILD="$ROOT/build/macos-cross"
ZIG_SPEC="ziglang==${MACOS_CROSS_ZIG:-0.17.1}"
TARGET_TRIPLE=aarch64-macos.14.0   # the torch wheel's own floor (macosx_14_0_arm64)
JOBS="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
start=$(date +%s)
say() { printf 'macos-cross: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

fresh=0 last_stage=5
while [ $# -gt 0 ]; do
  case "$1" in
    --fresh) fresh=1 ;;
    --stage) shift; last_stage="${1:-}"
             case "$last_stage" in 1|2|3|4|5) ;; *) die "--stage takes 1 to 5" ;; esac ;;
    *) die "unknown option '$1' (expected --fresh or --stage N)" ;;
  esac
  shift
done
# What is missing of what it needs, by Debian package: the tools, then the two header-only libraries.
missing=()
for tool in curl unzip file; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ -d /usr/include/CLI ] || missing+=(libcli11-dev)
[ -d /usr/include/nlohmann ] || missing+=(nlohmann-json3-dev)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  say "installing ${missing[*]}"
  # A check beside this one may be using apt: wait for its locks. Empty package lists: update.
  apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
      --no-install-recommends "${missing[@]}" >/dev/null
  }
  apt_install || { apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && apt_install; } \
    || die "could not install ${missing[*]} (apt-get install ${missing[*]})"
fi
for tool in python3 curl unzip tar cmake ninja file; do
  command -v "$tool" >/dev/null 2>&1 || die "needs '$tool', which is not installed"
done
mkdir -p "$X/downloads" "$X/src" "$X/prefix/include" "$X/prefix/lib" "$X/logs"

# What was downloaded: the bytes of downloads/ and those apt fetched for its index (apt/fetched),
# before and after.
downloaded_bytes() {
  { du -sb "$X/downloads" 2>/dev/null || true; cat "$X/apt/fetched" 2>/dev/null || true; } \
    | awk '{s += $1} END {print s + 0}'
}
bytes_before=$(downloaded_bytes)
# Runs a long step with its output in logs/<name>.log; on failure shows the log's end and stops.
logged() {
  local name=$1; shift
  if ! "$@" >"$X/logs/$name.log" 2>&1; then
    tail -n 40 "$X/logs/$name.log" >&2
    die "$name failed (whole log: $X/logs/$name.log)"
  fi
}

# --- 1. zig, and the wrappers CMake uses ---------------------------------------------------------
if [ ! -x "$X/venv/bin/python" ] || ! "$X/venv/bin/python" -m pip show -q ziglang >/dev/null 2>&1 \
   || [ "$("$X/venv/bin/python" -m pip show ziglang | sed -n 's/^Version: //p')" != "${ZIG_SPEC#*==}" ]; then
  say "installing $ZIG_SPEC from PyPI into $X/venv"
  rm -rf "$X/venv"
  python3 -m venv "$X/venv"
  if ! compgen -G "$X/downloads/ziglang-${ZIG_SPEC#*==}-*.whl" >/dev/null; then
    "$X/venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
      -d "$X/downloads" "$ZIG_SPEC" || die "could not download $ZIG_SPEC from PyPI"
  fi
  "$X/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index \
    --find-links "$X/downloads" "$ZIG_SPEC" || die "could not install $ZIG_SPEC"
fi
mkdir -p "$X/bin" "$X/zig-cache"
# $1: the wrapper's name; $2: the zig command and its first arguments; $3: a loop body that
# filters "$@" (empty: none).
write_wrapper() {
  cat >"$X/bin/$1.new" <<EOF
#!/bin/sh
# Written by scripts/ci/macos_cross_check.sh: $2 for $TARGET_TRIPLE.
ZIG_GLOBAL_CACHE_DIR='$X/zig-cache'; ZIG_LOCAL_CACHE_DIR='$X/zig-cache'
export ZIG_GLOBAL_CACHE_DIR ZIG_LOCAL_CACHE_DIR
$3
exec '$X/venv/bin/python' -m ziglang $2 "\$@"
EOF
  chmod +x "$X/bin/$1.new"
  mv "$X/bin/$1.new" "$X/bin/$1"
}
# zig builds in Debug mode, with UBSan's checks, wherever no -O is given (CMake's try_compile):
# no sanitizer, as a Mac's clang.
write_wrapper zig-cc "cc -target $TARGET_TRIPLE -fno-sanitize=all" ""
write_wrapper zig-c++ "c++ -target $TARGET_TRIPLE -fno-sanitize=all" ""
# Archives in the BSD format of macOS's own ar.
write_wrapper zig-ar "ar --format=darwin" ""
# CMake calls Apple's ranlib with its options (-c, -no_warning_for_no_symbols), which llvm-ranlib
# does not know; an index is all it needs.
write_wrapper zig-ranlib "ranlib" 'for a do shift; case $a in -*) ;; *) set -- "$@" "$a" ;; esac; done'

# --- 2. LibTorch: the macOS arm64 wheel of the cache venv's torch version --------------------------
torch_version="${MACOS_CROSS_TORCH:-}"
if [ -z "$torch_version" ]; then
  for v in "$CACHE_DIR"/venv/lib/python3*/site-packages/torch/version.py; do
    [ -f "$v" ] && torch_version=$(sed -n "s/^__version__ = '\([0-9.]*\).*/\1/p" "$v")
  done
fi
if [ -z "$torch_version" ]; then
  newest=$(sed -n 's/^set(TORCHLINGS_TORCH_NEWEST "\([0-9.]*\)".*/\1/p' "$ROOT/cmake/TorchlingsSupport.cmake")
  torch_version="$newest.0"
  say "no torch in $CACHE_DIR/venv: using torch $torch_version (MACOS_CROSS_TORCH names another)"
fi
TORCH="$X/torch-$torch_version/torch"
if [ ! -f "$TORCH/share/cmake/Torch/TorchConfig.cmake" ] || [ ! -f "$TORCH/lib/libtorch_cpu.dylib" ]; then
  wheel=$(ls "$X/downloads/torch-$torch_version-"*-macosx_*_arm64.whl 2>/dev/null | head -n 1 || true)
  if [ -z "$wheel" ]; then
    say "downloading the macOS arm64 wheel of torch $torch_version from PyPI"
    "$X/venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
      --platform macosx_14_0_arm64 --only-binary=:all: --python-version 3.12 \
      -d "$X/downloads" "torch==$torch_version" || die "could not download torch $torch_version for macOS arm64"
    wheel=$(ls "$X/downloads/torch-$torch_version-"*-macosx_*_arm64.whl | head -n 1)
  fi
  say "unpacking $(basename "$wheel") (headers, dylibs, CMake files)"
  rm -rf "$X/torch-$torch_version"
  mkdir -p "$X/torch-$torch_version.part"
  unzip -q -o "$wheel" 'torch/include/*' 'torch/lib/*' 'torch/share/*' 'torch/version.py' \
    -d "$X/torch-$torch_version.part"
  mv "$X/torch-$torch_version.part" "$X/torch-$torch_version"
fi
# Only one torch-* folder: the toolchain file puts every one on the find root path.
for other in "$X"/torch-*; do
  [ "$other" = "$X/torch-$torch_version" ] || rm -rf "$other"
done

# --- 3. Source archives of the compiled libraries, from Debian's archive ---------------------------
# Their URLs come from trixie's source index (Catch2 v3 and Benchmark 1.9, as Debian 13 has them),
# fetched once into a private apt state; a source archive already in downloads/ is used as it is.
apt_state() {
  printf '%s\n' -o "Dir::Etc::SourceList=$X/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o "Dir::State::Lists=$X/apt/lists" -o "Dir::Cache=$X/apt/cache" -o Debug::NoLocking=1 \
    -o APT::Sandbox::User=root
}
source_archive() {   # $1: the source package; prints the path of its .orig.tar.gz in downloads/
  local package=$1 found uri sum
  found=$(ls "$X/downloads/${package}"_*.orig.tar.gz 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$found" ]; then printf '%s\n' "$found"; return; fi
  mapfile -t opts < <(apt_state)
  if [ ! -d "$X/apt/lists" ] || ! compgen -G "$X/apt/lists/*Sources*" >/dev/null; then
    say "reading Debian trixie's source index (once, into $X/apt)"
    mkdir -p "$X/apt/lists/partial" "$X/apt/cache/archives/partial"
    echo "deb-src http://deb.debian.org/debian trixie main" >"$X/apt/sources.list"
    apt-get "${opts[@]}" update >"$X/logs/apt-update.log" 2>&1 \
      || { tail -n 5 "$X/logs/apt-update.log" >&2; die "could not read Debian's source index"; }
    # "Fetched 10.7 MB in 2s (5855 kB/s)"
    sed -n 's/^Fetched \([0-9.]*\) \([kMG]\)B .*/\1 \2/p' "$X/logs/apt-update.log" \
      | awk '{print int($1 * ($2 == "k" ? 1e3 : $2 == "M" ? 1e6 : 1e9))}' >"$X/apt/fetched"
  fi
  # Every version the index lists, newest first: the mirror may already have dropped one.
  for version in $(apt-cache "${opts[@]}" showsrc "$package" 2>/dev/null \
                   | sed -n 's/^Version: //p' | sort -rV); do
    read -r uri sum < <(apt-get "${opts[@]}" source --print-uris "$package=$version" 2>/dev/null \
      | awk '/\.orig\.tar\.gz'"'"' / {gsub("'"'"'", "", $1); print $1, $4}') || true
    [ -n "${uri:-}" ] || continue
    if curl -sfL --retry 2 -o "$X/downloads/.part" "$uri" \
       && [ "SHA256:$(sha256sum "$X/downloads/.part" | cut -d' ' -f1)" = "$sum" ]; then
      mv "$X/downloads/.part" "$X/downloads/$(basename "$uri")"
      say "downloaded $(basename "$uri")"
      printf '%s\n' "$X/downloads/$(basename "$uri")"
      return
    fi
    rm -f "$X/downloads/.part"
    say "$(basename "$uri") is not on the mirror (any more): trying the next version"
  done
  die "could not download the source of $package from Debian's archive"
}
# $1: archive; unpacks it into src/ and prints the folder it made.
unpack() {
  local top
  top=$(tar tzf "$1" | head -n 1 | cut -d/ -f1)
  if [ ! -d "$X/src/$top" ]; then   # unpacked beside, then moved: a cut-short run leaves no half
    rm -rf "$X/src/.unpacking" && mkdir -p "$X/src/.unpacking"
    tar xzf "$1" -C "$X/src/.unpacking" && mv "$X/src/.unpacking/$top" "$X/src/$top"
    rm -rf "$X/src/.unpacking"
  fi
  printf '%s\n' "$X/src/$top"
}
cross_cmake() {   # CMake with the course's cross toolchain, for a library installed into prefix/
  cmake -G Ninja --toolchain "$ROOT/cmake/toolchains/macos-arm64-zig.cmake" \
    -DTORCHLINGS_MACOS_CROSS_DIR="$X" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$X/prefix" "$@"
}

# OpenSSL's libcrypto, which earlier versions of this script built for the target: nothing uses it
# now, and its headers on the include path would hide an #include <openssl/...> from this check.
rm -rf "$X/prefix/include/openssl" "$X/prefix/lib/libcrypto.a" "$X/prefix/.openssl" \
       "$X"/downloads/openssl_* "$X"/src/openssl-*
# Each library's stamp names the zig, the target and a hash of how it is compiled (the toolchain
# file, the compiler wrappers, cross_cmake): a change to any of them rebuilds it.
built_with="$ZIG_SPEC $TARGET_TRIPLE $({ declare -f cross_cmake
  cat "$ROOT/cmake/toolchains/macos-arm64-zig.cmake" "$X/bin/zig-cc" "$X/bin/zig-c++"; } | sha256sum | cut -c1-16)"
if [ "$(cat "$X/prefix/.catch2" 2>/dev/null)" != "$built_with" ]; then
  archive=$(source_archive catch2) || exit 1
  src=$(unpack "$archive") || exit 1
  say "building Catch2 $(basename "$src") for aarch64-macos (once)"
  rm -rf "$X/src/build-catch2"
  logged catch2-configure cross_cmake -S "$src" -B "$X/src/build-catch2" -DBUILD_TESTING=OFF \
    -DCATCH_INSTALL_DOCS=OFF -DCATCH_INSTALL_EXTRAS=ON
  logged catch2-build cmake --build "$X/src/build-catch2" --target install -j "$JOBS"
  printf '%s\n' "$built_with" >"$X/prefix/.catch2"
fi
if [ "$(cat "$X/prefix/.benchmark" 2>/dev/null)" != "$built_with" ]; then
  archive=$(source_archive benchmark) || exit 1
  src=$(unpack "$archive") || exit 1
  say "building Google Benchmark $(basename "$src") for aarch64-macos (once)"
  rm -rf "$X/src/build-benchmark"
  logged benchmark-configure cross_cmake -S "$src" -B "$X/src/build-benchmark" \
    -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_GTEST_TESTS=OFF \
    -DBENCHMARK_ENABLE_WERROR=OFF -DBENCHMARK_INSTALL_DOCS=OFF -DBENCHMARK_ENABLE_LIBPFM=OFF \
    -DCMAKE_CXX_FLAGS=-Wno-c2y-extensions   # its -pedantic-errors and clang 22's __COUNTER__ warning
  logged benchmark-build cmake --build "$X/src/build-benchmark" --target install -j "$JOBS"
  printf '%s\n' "$built_with" >"$X/prefix/.benchmark"
fi

# --- 4. The wheel's OpenMP runtime under the name libtorch_cpu.dylib loads it by ----------------
# The wheel's libomp.dylib names itself /opt/llvm-openmp/lib/libomp.dylib (where PyTorch built it),
# and a program linked with it would look for it there; libtorch_cpu.dylib loads it from its own
# folder. Lesson 09's kernels (OpenMP) link a copy that names itself @rpath/libomp.dylib, so that
# both find the same runtime in the wheel's lib/ (two OpenMP runtimes in one process abort).
# On a Mac, `install_name_tool -id @rpath/libomp.dylib` on a copy does the same.
python3 - "$TORCH/lib/libomp.dylib" "$X/prefix/lib/libomp.dylib" <<'PYTHON'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
magic, _cpu, _sub, _type, ncmds = struct.unpack_from("<5I", data)
assert magic == 0xFEEDFACF, "not a 64-bit Mach-O"
off = 32
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<2I", data, off)
    if cmd == 0xD:  # LC_ID_DYLIB: the name that programs linked with it record
        start = off + struct.unpack_from("<I", data, off + 8)[0]
        name = b"@rpath/libomp.dylib"
        assert len(name) < off + size - start
        data[start:off + size] = name + bytes(off + size - start - len(name))
    off += size
try:
    same = open(sys.argv[2], "rb").read() == data
except OSError:
    same = False
if not same:  # a new file would relink every program that links it
    open(sys.argv[2], "wb").write(data)
PYTHON

# --- 5. Header-only libraries, copied from this machine, and Gloo's headers ------------------------
# A copy of folder $1 at $2, rewritten only when it differs (a new copy would rebuild every file
# that includes it).
copy_folder() {
  if ! diff -rq "$1" "$2" >/dev/null 2>&1; then
    rm -rf "$2"
    mkdir -p "$(dirname "$2")"
    cp -r "$1" "$2"
  fi
}
copy_headers() {   # $1: folder under /usr/include; $2: its CMake package folder; $3: its package
  [ -d "/usr/include/$1" ] || die "/usr/include/$1 is missing (apt-get install $3)"
  copy_folder "/usr/include/$1" "$X/prefix/include/$1"
  copy_folder "/usr/share/cmake/$2" "$X/prefix/share/cmake/$2"
}
copy_headers CLI CLI11 libcli11-dev
copy_headers nlohmann nlohmann_json nlohmann-json3-dev
# Gloo's headers as the set-up gets them on a Mac (scripts/setup/macos.py: Debian 13's
# libgloo-dev, checked, its config.h set for macOS), into $X/gloo/include.
python3 -c 'import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import macos
sys.exit(macos.gloo_headers(Path(sys.argv[2])) is None)' "$ROOT/scripts/setup" "$X" \
  || die "Gloo's headers could not be fetched (the lines above say why)"

# --- 6. The course, configured for aarch64-macos ---------------------------------------------------
[ "$fresh" = 1 ] && rm -rf "$BUILD"
export TORCHLINGS_MACOS_CROSS_DIR="$X"
say "configuring $BUILD (preset macos-cross, torch $torch_version)"
cd "$ROOT"
logged configure cmake --preset macos-cross -DTorch_DIR="$TORCH/share/cmake/Torch" \
  -DOpenMP_CXX_FLAGS=-fopenmp -DOpenMP_CXX_INCLUDE_DIR="$TORCH/include" \
  -DOpenMP_CXX_LIB_NAMES=omp -DOpenMP_omp_LIBRARY="$X/prefix/lib/libomp.dylib"
# Nothing of the Linux host's /usr or /usr/local on a compile or link line (grep -m: no pipe that
# a full screen of matches could break under pipefail).
if leaks=$(grep -m 3 -nE '(-I|-isystem |-L| )/usr/(local/)?(include|lib)' "$BUILD/build.ninja"); then
  printf '%s\n' "$leaks" >&2
  die "the build names the Linux host's /usr/include, /usr/lib or /usr/local (above)"
fi

# --- 7. The stages ---------------------------------------------------------------------------------
all_targets=$(ninja -C "$BUILD" -t targets all | sed -n 's/^\([A-Za-z0-9_-]*\): phony$/\1/p' | sort -u)
stage_targets() {
  case "$1" in
    1) echo torchlings_core; printf '%s\n' "$all_targets" | grep -E '^lesson_[0-9]+$' | sort ;;
    2) printf '%s\n' "$all_targets" | grep -E '^ex_.*_solution$' | sort ;;
    3) printf '%s\n' "$all_targets" | grep -E '^bench_' | sort ;;
    4) echo torchlings-runner ;;
    5) # for each ex_<id>_solution, the learner's file (ex_<id>) and the listing program that
       # names the cases of a file that does not compile (ex_<id>_cases); then every other
       # program of the default build (a program in bin/ that is also a target's name)
       printf '%s\n' "$all_targets" | sed -n 's/^\(ex_.*\)_solution$/\1/p'
       printf '%s\n' "$all_targets" | sed -n 's/^\(ex_.*\)_solution$/\1_cases/p'
       sed -n 's/^build bin\/\([A-Za-z0-9_-]*\): .*/\1/p' "$BUILD/build.ninja" \
         | grep -vE '^(lesson_[0-9]+|ex_.*|bench_.*|torchlings-runner)$' \
         | grep -Fx -f <(printf '%s\n' "$all_targets") ;;
  esac | sort -u
}
stage_names=("" "device layer and lessons" "exercise solutions" "benchmarks" "runner"
             "learners' files and test programs")
stages=$(seq 1 "$last_stage")
failed=() built=() macho=() not_macho=() dylibs_wrong=()
# The dylibs a Mach-O loads (LC_LOAD_DYLIB and the like), one a line.
dylibs_of() {
  python3 - "$1" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
magic, _cpu, _sub, _type, ncmds, _size, _flags = struct.unpack_from("<7I", data)
assert magic == 0xFEEDFACF, "not a 64-bit Mach-O"
off = 32
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<2I", data, off)
    if cmd in (0xC, 0x80000018, 0x8000001F, 0x80000023):  # LOAD, LOAD_WEAK, REEXPORT, LOAD_UPWARD
        name_off = struct.unpack_from("<I", data, off + 8)[0]
        print(data[off + name_off:off + size].split(b"\0")[0].decode())
    off += size
EOF
}
# Every node of ninja's graph that depends, directly or not, on the outputs named (phony targets
# such as lesson_01 included), one a line.
dependents() {
  local -A seen=()
  local queue=("$@") node
  while [ ${#queue[@]} -gt 0 ]; do
    node=${queue[0]}
    queue=("${queue[@]:1}")
    [ -z "${seen[$node]:-}" ] || continue
    seen[$node]=1
    mapfile -t -O "${#queue[@]}" queue < <(ninja -C "$BUILD" -t query "$node" 2>/dev/null \
      | awk '/^  outputs:$/ {o = 1; next} /^  [^ ]/ {o = 0} o && /^    / {print $1}')
  done
  printf '%s\n' "${!seen[@]}"
}
for stage in $stages; do
  mapfile -t targets < <(stage_targets "$stage")
  [ ${#targets[@]} -gt 0 ] || die "stage $stage: no targets found in $BUILD"
  say "stage $stage (${stage_names[$stage]}): building ${#targets[@]} targets"
  t0=$(date +%s)
  ninja_status=0
  ninja -C "$BUILD" -k 0 -j "$JOBS" "${targets[@]}" >"$X/logs/stage$stage.log" 2>&1 \
    || ninja_status=$?
  # What failed to build, and every target that depends on it (whose older output, if any, is
  # not this run's).
  # "FAILED: out..." (Ninja 1.13 and later: "FAILED: [code=1] out..."), one output per element.
  mapfile -t failed_steps < <(sed -n 's/^FAILED: \(\[code=[^]]*\] \)\{0,1\}//p' "$X/logs/stage$stage.log" \
                                | tr ' ' '\n' | sed '/^$/d')
  if [ "$ninja_status" != 0 ] && [ ${#failed_steps[@]} -eq 0 ]; then   # e.g. an unknown target
    tail -n 20 "$X/logs/stage$stage.log" >&2
    die "stage $stage: ninja stopped without building (above; log: $X/logs/stage$stage.log)"
  fi
  [ ${#failed_steps[@]} -eq 0 ] || printf 'FAILED: %s\n' "${failed_steps[@]}" | awk 'NR <= 20' >&2
  declare -A broken=()
  if [ ${#failed_steps[@]} -gt 0 ]; then
    while read -r node; do broken[$node]=1; done < <(dependents "${failed_steps[@]}")
  fi
  for t in "${targets[@]}"; do
    out="$BUILD/bin/$t"
    [ "$t" = torchlings_core ] && out="$BUILD/common/libtorchlings_core.a"
    if [ -n "${broken[$t]:-}" ] || [ ! -f "$out" ]; then
      failed+=("$t")
      continue
    fi
    built+=("$t")
    [ "$t" = torchlings_core ] && continue   # a static library, not a program
    if file "$out" | grep -q 'Mach-O 64-bit arm64 executable'; then
      macho+=("$t")
      while read -r lib; do
        case "$lib" in
          @rpath/libtorch.dylib|@rpath/libtorch_cpu.dylib|@rpath/libc10.dylib|@rpath/libomp.dylib) ;;
          /usr/lib/libSystem.B.dylib|/usr/lib/libc++.1.dylib|/usr/lib/libc++abi.dylib) ;;
          /System/Library/Frameworks/*) ;;
          *) dylibs_wrong+=("$t: $lib") ;;
        esac
      done < <(dylibs_of "$out")
    else
      not_macho+=("$t: $(file -b "$out")")
    fi
  done
  unset broken
  say "stage $stage done in $(( $(date +%s) - t0 )) s (log: $X/logs/stage$stage.log)"
done

# --- 8. Report ----------------------------------------------------------------------------------
elapsed=$(( $(date +%s) - start ))
downloaded=$(( $(downloaded_bytes) - bytes_before ))
echo
echo "macos-cross: zig $("$X/venv/bin/python" -m ziglang version), torch $torch_version (macosx_14_0_arm64 wheel), target $TARGET_TRIPLE"
printf 'macos-cross: took %d min %02d s; downloaded %.1f MB\n' $((elapsed / 60)) $((elapsed % 60)) \
  "$(echo "$downloaded" | awk '{print $1 / 1000000}')"
echo "macos-cross: built ${#built[@]} targets; ${#macho[@]} arm64 Mach-O executables:"
printf '%s\n' "${macho[@]}" | fmt -w 100 | sed 's/^/  /'
if [ ${#macho[@]} -gt 0 ]; then
  echo "macos-cross: ${macho[0]} loads: $(dylibs_of "$BUILD/bin/${macho[0]}" | tr '\n' ' ')"
fi
status=0
if [ ${#not_macho[@]} -gt 0 ]; then
  echo "macos-cross: not arm64 Mach-O executables:"; printf '  %s\n' "${not_macho[@]}"; status=1
fi
if [ ${#dylibs_wrong[@]} -gt 0 ]; then
  echo "macos-cross: unexpected libraries:"; printf '  %s\n' "${dylibs_wrong[@]}"; status=1
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "macos-cross: FAILED to build (${#failed[@]}): ${failed[*]}"
  echo "macos-cross: the errors (logs: $X/logs/stage*.log):"
  for stage in $stages; do
    grep -hE ': (fatal )?error: |undefined symbol' "$X/logs/stage$stage.log" | sed "s|$ROOT/||g" \
      || true
  done | sort -u | awk 'NR <= 20 { print "  " $0 }'   # awk reads it all: no SIGPIPE upstream
  status=1
fi
exit $status
