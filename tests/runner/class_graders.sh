#!/bin/sh
# class_graders.sh: a class template grades itself, on both platforms, end to end.
#
#   RUNNER=<torchlings-runner> FIXTURES=<fixture course> SOURCE_ROOT=<course> WORK=<scratch>
#   [GENERATOR=<CMake generator>] [CXX_COMPILER=<compiler>] [CATCH2_DIR=...] [JSON_DIR=...]
#   sh class_graders.sh
#
# A class course is made from the fixture course (fx_pass with an untouched TODO stub, fx_todo,
# and fx_compile_error, whose stub does not compile: 2 + 3 + 2 test cases), exported with
# `export --learner`, and built on its own (tests/runner/class_build: no LibTorch). Then exactly
# what each platform runs, with the environment it sets:
#  - Classroom 50: graders/classroom50/autograder.py, installed apart as a teacher installs it,
#    run in the learner's checkout with CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, COMMIT_URL, ...
#  - Gradescope: graders/gradescope/run_autograder, run in TORCHLINGS_AUTOGRADER_ROOT (for
#    /autograder) holding source/ (the zip's contents), submission/ and results/.
# Untouched stubs score 0 of 7, every case of the exercise that does not compile still listed;
# one solved exercise scores exactly its 2 cases; the solutions score 7 of 7; an edited test is
# refused with a clear message (so is a file of the submission's that would replace one of the
# course's, and a header added where the tests' includes would find it), and a stray notes.txt is
# passed over with a note. Each result file is validated the way its platform validates it
# (validate_results.py). The zip the export prints has setup.sh and run_autograder at its root,
# and Gradescope's source/ is that zip unpacked, as Gradescope unpacks it (both scripts included).
# Only ./torchlings is replaced (TORCHLINGS_COMMAND: the runner binary on this build), since the
# wrapper would set up the real course. Prints "ok", "FAIL: <why>", or "TL_SKIP: <why>".
set -u
for var in RUNNER FIXTURES SOURCE_ROOT WORK; do
  eval "value=\${$var:-}"
  [ -n "$value" ] || { echo "class_graders.sh: $var is not set"; exit 2; }
done
fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
skip() { printf 'TL_SKIP: %s\n' "$*"; exit 0; }
command -v python3 >/dev/null 2>&1 || skip "no python3 to run Classroom 50's autograder.py"
command -v bash >/dev/null 2>&1 || skip "no bash to run Gradescope's run_autograder"
validate="python3 $SOURCE_ROOT/tests/runner/validate_results.py"

rm -rf "$WORK"
mkdir -p "$WORK"
course="$WORK/course"
class="$WORK/class"
lesson=exercises/00_fixtures
tests=tests/exercises/00_fixtures

# --- The class course, from the fixture course --------------------------------------------
cp -R "$FIXTURES" "$course"
for id in fx_fail fx_crash fx_hang fx_skip; do
  rm -f "$course/$lesson/$id.cpp" "$course/$tests/${id}_test.cpp"
done
rm -f "$course/$lesson/info.ko.md"
cat >"$course/$lesson/info.md" <<'EOF'
# Lesson 00 exercises

## fx_pass: Adds

timeout_s: 10

### Hint

Add the two numbers.

## fx_todo: Adds and divides

timeout_s: 10

### Hint

Replace the throws.

## fx_compile_error: Adds, once it compiles

timeout_s: 10

### Hint

Declare every name you use.
EOF
cat >"$course/$lesson/fx_pass.cpp" <<'EOF'
/// @file
/// @brief Class fixture (learner side): an untouched stub.
#include <stdexcept>

int fx_add(int /*a*/, int /*b*/) {
    // TODO: return the sum of a and b.
    throw std::logic_error("TODO: return the sum of a and b");
}
EOF
mkdir -p "$WORK/solutions"
cp "$FIXTURES/solutions/00_fixtures/fx_pass.cpp" "$WORK/solutions/fx_pass.cpp"
printf 'int fx_add(int a, int b) { return a + b; }\nint fx_divide(int a, int b) { return a / b; }\n' \
  >"$WORK/solutions/fx_todo.cpp"
printf 'int fx_add(int a, int b) { return a + b; }\n' >"$WORK/solutions/fx_compile_error.cpp"
# The index that configure reads, written from the info.md above as a maintainer writes it.
"$RUNNER" --root "$course" --color=never dev index >"$WORK/index.out" 2>&1 </dev/null ||
  { cat "$WORK/index.out"; fail "dev index failed on the class course"; }

# --- Export, and the build of the learner copy ---------------------------------------------
"$RUNNER" --root "$course" --build-dir "$WORK/course-build" --state "$WORK/export-state.json" \
  --color=never export --learner "$class" >"$WORK/export.out" 2>&1 </dev/null
code=$?
cat "$WORK/export.out"
[ "$code" = 0 ] || fail "export exited $code"
for file in graders/classroom50/autograder.py graders/classroom50/runtime.json \
            graders/gradescope/setup.sh graders/gradescope/run_autograder graders/gradescope/Dockerfile; do
  [ -f "$class/$file" ] || fail "the export has no $file"
done
[ -e "$class/solutions" ] && fail "the export has solutions/"
# runtime.json as Classroom 50's runtime.go reads it: known keys only, runs-on a label or a list
# of 1 to 10, apt a list of package names (its grade job runs sudo apt-get install with them).
python3 - "$class/graders/classroom50/runtime.json" <<'PY' || fail "runtime.json is not a runtime Classroom 50 accepts"
import json, re, sys
runtime = json.load(open(sys.argv[1], encoding="utf-8"))
known = {"runs-on", "container", "python", "node", "java", "go", "rust", "apt"}
assert set(runtime) <= known, f"keys Classroom 50 rejects: {set(runtime) - known}"
labels = runtime["runs-on"]
labels = [labels] if isinstance(labels, str) else labels
assert isinstance(labels, list) and 1 <= len(labels) <= 10 and all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", l) for l in labels)  # RunsOnLabelPattern
assert not ("apt" in runtime and "container" in runtime), "apt and container together"
apt = runtime.get("apt")
assert isinstance(apt, list) and apt, "no apt list: the hosted runner lacks the course's packages"
assert all(re.fullmatch(r"[a-z0-9][a-z0-9.+-]{0,63}", name) for name in apt), apt  # AptPackagePattern
assert "g++" in apt and "cmake" in apt, apt
PY
cp -R "$class" "$WORK/pristine"

# The zip command the export printed, run as printed: setup.sh and run_autograder at the root.
zip_command=$(grep -E '^ +cd .* && zip ' "$WORK/export.out" | sed 's/^ *//')
[ -n "$zip_command" ] || fail "the export printed no zip command"
command -v zip >/dev/null 2>&1 || skip "no zip to make Gradescope's autograder.zip as the export says"
(eval "$zip_command") || fail "the zip command failed: $zip_command"
python3 -m zipfile -l "$WORK/autograder.zip" >"$WORK/zip.list" || fail "no $WORK/autograder.zip"
for entry in setup.sh run_autograder torchlings-manifest.json "$lesson/fx_todo.cpp" "$tests/fx_todo_test.cpp"; do
  grep -Eq "^$entry " "$WORK/zip.list" || { cat "$WORK/zip.list"; fail "the zip lacks $entry at its place"; }
done
grep -q "^graders/" "$WORK/zip.list" && fail "the zip carries graders/"

generator=${GENERATOR:-}
if [ -z "$generator" ]; then
  command -v ninja >/dev/null 2>&1 && generator=Ninja || generator="Unix Makefiles"
fi
configure_class() {  # configure_class <course> <build folder>
  set -- -S "$SOURCE_ROOT/tests/runner/class_build" -B "$2" -G "$generator" \
    -DCMAKE_BUILD_TYPE=Release "-DCOURSE=$1"
  [ -n "${CXX_COMPILER:-}" ] && set -- "$@" "-DCMAKE_CXX_COMPILER=$CXX_COMPILER"
  [ -n "${CATCH2_DIR:-}" ] && set -- "$@" "-DCatch2_DIR=$CATCH2_DIR"
  [ -n "${JSON_DIR:-}" ] && set -- "$@" "-Dnlohmann_json_DIR=$JSON_DIR"
  cmake "$@" >"$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log"; fail "the learner copy does not configure"; }
}
configure_class "$class" "$WORK/build"

TORCHLINGS_COMMAND="$RUNNER --build-dir $WORK/build --state $WORK/state.json --color=never"
export TORCHLINGS_COMMAND

# --- The platforms ---------------------------------------------------------------------------
restore() { cp -R "$WORK/pristine/." "$class/"; rm -f "$class/result.json"; }

# Classroom 50: the teacher's copy of the autograder, outside the learner's checkout.
mkdir -p "$WORK/classroom50/autograders/course"
cp "$class/graders/classroom50/autograder.py" "$WORK/classroom50/autograders/course/autograder.py"
classroom50() {  # classroom50 <name>: the runner's step, in the checkout; output in $WORK/<name>.out
  (cd "$class" && env CLASSROOM=torchlings-fall ASSIGNMENT=course \
     SUBMISSION_TAG=submit/2026-11-25T18-00-00Z-0123abc USERNAME=learner OWNER=learner \
     ASSIGNMENT_TYPE=individual PAGES_BASE_URL=https://class.github.io/classroom50 \
     COMMIT_URL=https://github.com/class/torchlings-fall-course-learner/commit/0123abc \
     RELEASE_URL=https://github.com/class/torchlings-fall-course-learner/releases/tag/submit%2F2026-11-25T18-00-00Z-0123abc \
     REVIEW_URL=https://github.com/class/torchlings-fall-course-learner/compare/fff...0123abc \
     GITHUB_REPOSITORY=class/torchlings-fall-course-learner GITHUB_SHA=0123abc \
     CLASSROOM50_BUNDLE_DIR="$WORK/classroom50/autograders/course" \
     python3 "$WORK/classroom50/autograders/course/autograder.py") >"$WORK/$1.out" 2>&1 </dev/null
  code=$?
  printf -- '--- Classroom 50, %s (exit code %s)\n' "$1" "$code"
  cat "$WORK/$1.out"
}
validate50() {  # validate50 <score> <max> <tests>
  env CLASSROOM=torchlings-fall ASSIGNMENT=course SUBMISSION_TAG=submit/2026-11-25T18-00-00Z-0123abc \
    COMMIT_URL=https://github.com/class/torchlings-fall-course-learner/commit/0123abc \
    RELEASE_URL=https://github.com/class/torchlings-fall-course-learner/releases/tag/submit%2F2026-11-25T18-00-00Z-0123abc \
    REVIEW_URL=https://github.com/class/torchlings-fall-course-learner/compare/fff...0123abc \
    $validate classroom50 "$class/result.json" "$@" || fail "Classroom 50's result.json"
}

# Gradescope: /autograder as a folder of this test. As Gradescope builds its image, the whole
# zip is unpacked into source/ (setup.sh and run_autograder there too), run_autograder is copied
# to /autograder/run_autograder, and the class is configured and built there once (setup.sh's
# part). Each submission then starts from that image as it was, in a new container: the image is
# kept aside and copied back, times and all. GS_COURSE_FILE, when set (<path in the course>=
# <from>), adds a file to the teacher's source/, as a changed zip would.
ag="$WORK/autograder"
mkdir -p "$ag/submission" "$ag/results"
python3 -m zipfile -e "$WORK/autograder.zip" "$ag/source" || fail "cannot unpack the zip"
chmod +x "$ag/source/setup.sh" "$ag/source/run_autograder"  # the fixture course has no ./torchlings
cp "$ag/source/run_autograder" "$ag/run_autograder"
configure_class "$ag/source" "$ag/build"
# setup.sh's last step: every exercise built once from its stub (their verdicts are not kept).
(cd "$ag/source" && $RUNNER --build-dir "$ag/build" --state "$WORK/gs-image-state.json" \
   --color=never check --all) >"$WORK/gs-image.log" 2>&1 </dev/null
rm -rf "$WORK/gs-image"
cp -a "$ag" "$WORK/gs-image"
gradescope() {  # gradescope <name> [<file in submission>=<from>...]
  name=$1; shift
  rm -rf "$ag"
  cp -a "$WORK/gs-image" "$ag"
  if [ -n "${GS_COURSE_FILE:-}" ]; then
    mkdir -p "$(dirname "$ag/source/${GS_COURSE_FILE%%=*}")"
    cp "${GS_COURSE_FILE#*=}" "$ag/source/${GS_COURSE_FILE%%=*}"
  fi
  for pair in "$@"; do
    mkdir -p "$(dirname "$ag/submission/${pair%%=*}")"
    cp "${pair#*=}" "$ag/submission/${pair%%=*}"
  done
  (cd "$ag" && TORCHLINGS_AUTOGRADER_ROOT="$ag" \
     TORCHLINGS_COMMAND="$RUNNER --build-dir $ag/build --state $ag/state.json --color=never" \
     bash ./run_autograder) >"$WORK/$name.out" 2>&1 </dev/null
  code=$?
  printf -- '--- Gradescope, %s (exit code %s)\n' "$name" "$code"
  cat "$WORK/$name.out"
  [ "$code" = 0 ] || fail "run_autograder exited $code"
  [ -f "$ag/results/results.json" ] || fail "run_autograder wrote no results.json"
}
results="$ag/results/results.json"
has() { grep -Fq -- "$2" "$1" || { cat "$1"; fail "$1 lacks $2"; }; }

# 1. Untouched stubs: 0 of 7, and the exercise that does not compile lists both its cases.
restore
classroom50 untouched
[ "$code" = 0 ] || fail "autograder.py exited $code"
validate50 0 7 7
has "$class/result.json" '"fx_compile_error: adds small numbers"'
has "$class/result.json" '"fx_compile_error: adds negative numbers"'
has "$class/result.json" '"fx_todo: divides"'
restore
gradescope gs_untouched
$validate gradescope "$results" 0 7 7 || fail "Gradescope's results.json"
has "$results" '"fx_compile_error: adds negative numbers"'
has "$results" 'The build failed'

# The learner's program is linked with full RELRO: its table of library calls is bound before
# main and read-only, so a learner file cannot redirect the reporter's calls.
if command -v readelf >/dev/null 2>&1; then
  readelf -d "$WORK/build/bin/ex_fx_pass" >"$WORK/dynamic.txt" 2>&1 || fail "readelf -d ex_fx_pass"
  grep -Eq 'BIND_NOW|FLAGS_1.* NOW' "$WORK/dynamic.txt" \
    || { cat "$WORK/dynamic.txt"; fail "ex_fx_pass is not linked with -z now (full RELRO)"; }
  readelf -lW "$WORK/build/bin/ex_fx_pass" | grep -q GNU_RELRO \
    || fail "ex_fx_pass has no GNU_RELRO segment"
fi

# 2. One exercise solved: exactly its two cases.
restore
cp "$WORK/solutions/fx_pass.cpp" "$class/$lesson/fx_pass.cpp"
classroom50 one_solved
validate50 2 7 7
restore
gradescope gs_one_solved "fx_pass.cpp=$WORK/solutions/fx_pass.cpp"  # uploaded as a file
$validate gradescope "$results" 2 7 7 || fail "Gradescope's results.json"
has "$WORK/gs_one_solved.out" "fx_pass.cpp -> $lesson/fx_pass.cpp"

# 3. The solutions: 7 of 7 (submitted to Gradescope as a repository of the class).
restore
for id in fx_pass fx_todo fx_compile_error; do cp "$WORK/solutions/$id.cpp" "$class/$lesson/$id.cpp"; done
classroom50 solved
validate50 7 7 7
restore
gradescope gs_solved "$lesson/fx_pass.cpp=$WORK/solutions/fx_pass.cpp" \
  "$lesson/fx_todo.cpp=$WORK/solutions/fx_todo.cpp" \
  "$lesson/fx_compile_error.cpp=$WORK/solutions/fx_compile_error.cpp" \
  "README.md=$WORK/pristine/lessons/00_fixtures/README.md"
$validate gradescope "$results" 7 7 7 || fail "Gradescope's results.json"

# 4. An edited test is refused, with a clear message, on both.
restore
printf 'TEST_CASE("free point") { CHECK(true); }\n' >>"$class/$tests/fx_todo_test.cpp"
classroom50 edited
[ "$code" = 0 ] && fail "autograder.py graded a submission whose test was edited"
has "$WORK/edited.out" "not graded: these files differ from the class's"
has "$WORK/edited.out" "  $tests/fx_todo_test.cpp"
[ -f "$class/result.json" ] && fail "autograder.py left a result.json for an edited test"
restore
cp "$WORK/pristine/$tests/fx_todo_test.cpp" "$WORK/edited_test.cpp"
printf 'TEST_CASE("free point") { CHECK(true); }\n' >>"$WORK/edited_test.cpp"
gradescope gs_edited "$tests/fx_todo_test.cpp=$WORK/edited_test.cpp" \
  "fx_todo.cpp=$WORK/solutions/fx_todo.cpp"
$validate gradescope "$results" 0 0 0 || fail "Gradescope's results.json of a refusal"
has "$results" "Not graded: files of the course other than your exercise files differ from the class's: $tests/fx_todo_test.cpp."
has "$WORK/gs_edited.out" "submission: $tests/fx_todo_test.cpp differs from the class's"
# An edited ./torchlings-like file of the course is never run: refused the same way.
restore
printf '#!/bin/sh\necho forged\n' >"$WORK/forged"
gradescope gs_forged "torchlings-manifest.json=$WORK/forged" "fx_todo.cpp=$WORK/solutions/fx_todo.cpp"
$validate gradescope "$results" 0 0 0 || fail "Gradescope's results.json of a refusal"
has "$results" "differ from the class's: torchlings-manifest.json."
restore
printf '{}' >"$class/torchlings-manifest.json"
classroom50 forged_manifest
[ "$code" = 0 ] && fail "autograder.py graded a checkout whose manifest was replaced"
has "$WORK/forged_manifest.out" "  torchlings-manifest.json"
restore
# A file the manifest does not list, where the tests' includes would find it first (in the
# course itself, not from the submission): check --verify-tests refuses, and still writes the
# Gradescope results, scoring 0.
printf '#define CHECK(x) ((void)0)\n#include_next <tl_test/catch.h>\n' >"$WORK/shadow.h"
GS_COURSE_FILE="$tests/tl_test/catch.h=$WORK/shadow.h" gradescope gs_shadow "fx_todo.cpp=$WORK/solutions/fx_todo.cpp"
$validate gradescope "$results" 0 0 0 || fail "Gradescope's results.json of a refusal"
has "$results" "Not graded: files of the course other than your exercise files"
has "$results" "$tests/tl_test/catch.h is not in the class's copy"
has "$WORK/gs_shadow.out" "$tests/tl_test/catch.h is not in the class's copy"
# A stray file that no build step takes in (a learner's notes) is passed over with a note, on both.
printf 'my notes\n' >"$WORK/notes.txt"
GS_COURSE_FILE="notes.txt=$WORK/notes.txt" gradescope gs_notes "fx_pass.cpp=$WORK/solutions/fx_pass.cpp"
$validate gradescope "$results" 2 7 7 || fail "Gradescope's results.json with a stray notes.txt"
has "$WORK/gs_notes.out" "notes.txt passed over"
restore
cp "$WORK/notes.txt" "$class/notes.txt"
classroom50 notes
[ "$code" = 0 ] || fail "autograder.py did not grade a checkout with a stray notes.txt"
validate50 0 7 7
rm -f "$class/notes.txt"
restore

# 5. Classroom 50 in the class's image (graders/gradescope/Dockerfile as the runtime's container):
# the autograder finds TORCHLINGS_CLASS_COURSE, takes only the learner's exercise files from the
# checkout into the image's built copy, and grades there.
rm -rf "$ag" && cp -a "$WORK/gs-image" "$ag"
cp "$WORK/solutions/fx_pass.cpp" "$class/$lesson/fx_pass.cpp"
saved_command=$TORCHLINGS_COMMAND
TORCHLINGS_CLASS_COURSE="$ag/source"
TORCHLINGS_COMMAND="$RUNNER --build-dir $ag/build --state $ag/state.json --color=never"
export TORCHLINGS_CLASS_COURSE TORCHLINGS_COMMAND
classroom50 image_one_solved
[ "$code" = 0 ] || fail "autograder.py exited $code in the class's image"
has "$WORK/image_one_solved.out" "grading in the class image's copy of the course"
validate50 2 7 7
cmp -s "$ag/source/$lesson/fx_pass.cpp" "$WORK/solutions/fx_pass.cpp" \
  || fail "the learner's file was not taken into the image's copy"
# An image built from another export is refused, not graded with the wrong tests.
printf '{}' >"$ag/source/torchlings-manifest.json"
classroom50 image_other_export
[ "$code" = 0 ] && fail "autograder.py graded in an image of another export"
has "$WORK/image_other_export.out" "is not of the export this autograder belongs to"
unset TORCHLINGS_CLASS_COURSE
TORCHLINGS_COMMAND=$saved_command
restore
echo ok
