#!/bin/bash
# A class of this course graded as its platform grades it, on the platform's own base system, from
# a real export (`./torchlings export --learner`) of this checkout's committed HEAD:
#
#   scripts/ci/class_platform_check.sh classroom50   Classroom 50's default grade job: a stock Ubuntu
#       24.04 root (ubuntu-latest), only the packages the exported runtime.json lists installed
#       the way its workflow installs them (sudo apt-get install -y --no-install-recommends), and
#       the autograder run by the non-root user `runner` (passwordless sudo, as GitHub gives it)
#       in a clone of the class repository, with
#       the environment Classroom 50's runner.py gives it (CI=true, CLASSROOM, ASSIGNMENT,
#       SUBMISSION_TAG, USERNAME, OWNER, COMMIT_URL, RELEASE_URL, REVIEW_URL, ...). Its Python is
#       the root's (Ubuntu's 3.12; the hosted job's setup-python gives 3.14).
#   scripts/ci/class_platform_check.sh gradescope    Gradescope's default base image: a stock Ubuntu
#       22.04 root; the autograder zip, made with the command the export prints, unpacked into
#       /autograder/source; run_autograder copied to /autograder/run_autograder; setup.sh run
#       once as root (the image build); each submission graded by /autograder/run_autograder
#       as root in a fresh copy of that image, its files in /autograder/submission, its score read
#       from /autograder/results/results.json. Then Classroom 50 with that same image as its
#       container (graders/gradescope/Dockerfile builds it with the same steps): the job as root in
#       /__w, the autograder grading in the image's built copy of the class.
#   scripts/ci/class_platform_check.sh gradescope-docker
#       Gradescope's steps in a real Docker container with Docker's default settings, the host's
#       network aside (--network host) (root
#       without CAP_SYS_ADMIN, Docker's seccomp profile, its own /proc, a 64 MB /dev/shm): the
#       class's own graders/gradescope/Dockerfile built as its comment says (the zip unpacked into
#       source/, `docker build`), each submission graded by `docker run ... /autograder/
#       run_autograder` in a new container of that image. The base image is GRADESCOPE_BASE when
#       set (gradescope/autograder-base:ubuntu-22.04 where Docker Hub is reachable), else a stock
#       Ubuntu 22.04 root made here and imported (`docker import`). Needs a running Docker engine
#       (on Debian: apt-get install docker.io); not part of .ci/run, whose machines run none.
#
# Three submissions each: the untouched stubs score 0 with every case listed; one solved exercise
# (count_devices) scores exactly its cases; every exercise solved scores full marks. On Gradescope a
# fourth: that answer with code that writes over every other exercise's test program before main
# scores as the answer alone, and (in the chroot, where the image can be read afterwards) leaves
# every other test program as it was. Each result
# file is checked the way its platform checks it (tests/runner/validate_results.py). The wall time
# and peak memory (GNU time's maximum resident set size: the largest process of the grading) of the set-up
# and of every submission are printed; in gradescope-docker the wall time only (the grade runs in
# Docker's container, not under GNU time). No pip cache is lent: every download happens, as on the
# platform (on Classroom 50 the first submission is the cold one; the next two reuse its work).
# Needs root, a built torchlings-runner (RUNNER, default: the newest under build/) for the export,
# zip, and what scripts/ci/stock_root.sh needs; STOCK_ROOT, STOCK_MIRROR, STOCK_KEEP, STOCK_BASES
# and STOCK_OWN_NETWORK as there (gradescope-docker always shares this machine's network). CLASS_LESSONS: the lessons whose exercises the class takes
# (`export --lessons`, e.g. 01 or 01-03: one assignment per unit; default: every lesson); it must include 01, whose
# count_devices is the one solved exercise. Exit status 0 only if every submission scored as it
# should.
set -euo pipefail
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
PLATFORM=${1:-}
# The sandbox each grade is expected to run in. Classroom 50's default job grades on a VM, where
# the runner's sandbox starts (on GitHub's Ubuntu 24.04 once autograder.py has loaded bwrap's
# AppArmor profile, which this kernel does not need): the root is entered as a machine's root
# (stock_root.sh, enter_root) and every report must say bubblewrap. Gradescope grades in a Docker
# container, whose root has no CAP_SYS_ADMIN and whose default seccomp profile refuses new
# namespaces: bwrap cannot start there ("Creating new namespace failed: Operation not permitted",
# gradescope-docker), so its root is a plain chroot, where it cannot either; the runner, as root,
# then runs the test programs as a separate user, and every report must say so (so must
# Classroom 50 in that image).
case $PLATFORM in
  classroom50) STOCK_SUITE=noble ;;
  gradescope) STOCK_SUITE=jammy STOCK_ENTER=chroot ;;
  # Docker's daemon downloads through this machine's network, not a namespace of the check's.
  gradescope-docker) STOCK_SUITE=jammy STOCK_OWN_NETWORK=0 ;;
  *) echo "usage: $0 classroom50|gradescope|gradescope-docker" >&2; exit 64 ;;
esac
export STOCK_SUITE STOCK_ENTER STOCK_OWN_NETWORK
STOCK_ROOT=${STOCK_ROOT:-/tmp/torchlings-$PLATFORM}
STOCK_PIP_CACHE=none
. "$ROOT/scripts/ci/stock_root.sh"
say() { printf '%s: %s\n' "$PLATFORM" "$*" >&2; }

if [ -z "${RUNNER:-}" ]; then
  # The newest runner of the build folders that runs here (not one cross-built for another system).
  for candidate in $(ls -t "$ROOT"/build/*/bin/torchlings-runner 2>/dev/null); do
    if "$candidate" help >/dev/null 2>&1; then RUNNER=$candidate; break; fi
  done
fi
[ -x "${RUNNER:-}" ] || die "no torchlings-runner to export with: build the course first, or set RUNNER"
export RUNNER   # the same one in its own network (own_network runs this script again)
own_network "$@"
host_install zip || die "zip is needed for Gradescope's autograder.zip (apt-get install zip)"
WORK="$DIR.work"
rm -rf "$WORK"
mkdir -p "$WORK"
validate() { python3 "$ROOT/tests/runner/validate_results.py" "$@"; }

# --- The class: a real export of the committed course ----------------------------------------------
git clone -q --no-local "$ROOT" "$WORK/course"
"$RUNNER" --root "$WORK/course" --build-dir "$WORK/course-build" --state "$WORK/state.json" \
  --color=never export --learner "$WORK/torchlings-class" ${CLASS_LESSONS:+--lessons "$CLASS_LESSONS"} \
  >"$WORK/export.out" 2>&1 </dev/null \
  || { cat "$WORK/export.out" >&2; die "export --learner failed"; }
solved_one=exercises/01_availability/count_devices.cpp
[ -f "$WORK/torchlings-class/$solved_one" ] || die "the class has no $solved_one"
# Every solution file of an exercise the class has, by its path in the class
# (solutions/<lesson>/<file> -> exercises/<lesson>/<file>).
solutions=$(cd "$WORK/course/solutions" && for file in [0-9][0-9]_*/*.*; do
  case $file in */mistakes) ;; *) [ ! -f "$WORK/torchlings-class/exercises/$file" ] || echo "$file" ;; esac
done)

if [ "$PLATFORM" = gradescope-docker ]; then
  docker info >/dev/null 2>&1 \
    || die "no Docker engine answers (docker info): start one (on Debian: apt-get install docker.io)"
  IMAGE=torchlings-class-check:$$
  base=${GRADESCOPE_BASE:-}
  if [ -z "$base" ]; then
    make_stock_root
    base=torchlings-ubuntu-22.04-base:$$
    tar -C "$DIR" --one-file-system -c . | docker import - "$base" >/dev/null \
      || die "docker import of the stock root failed"
    trap 'docker rmi -f "$IMAGE" "$base" >/dev/null 2>&1 || true; cleanup' EXIT
  else
    trap 'docker rmi -f "$IMAGE" >/dev/null 2>&1 || true' EXIT
  fi
  part "the base image ($base)"
else
  make_stock_root
  part "the stock root"
fi
metric() {  # metric <what> [<GNU time's -v output>]: wall time, peak memory (when given), download
  local rss="" downloaded memory=""
  [ -z "${2:-}" ] || rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$2" | tail -n 1)
  [ -z "$rss" ] || memory=", largest process $(( rss / 1024 )) MiB"
  downloaded=$(( ($(received_bytes) - received_before) / 1000000 ))
  say "$1: $(( $(date +%s) - metric_started )) s$memory, downloaded $downloaded MB"
}
cases_of() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["tests"]))' "$1"; }
cases_named() {  # the cases whose name starts with "<id>: "
  python3 - "$1" "$2" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
prefix = sys.argv[2] + ": "
print(sum(1 for t in data["tests"] if t.get("test-name", t.get("name", "")).startswith(prefix)))
PY
}

failed=""
check_scores() {  # check_scores <platform> <file> <submission>: 1 when its score is not as it must be
  local platform=$1 file=$2 total ok=0
  total=$(cases_of "$file")
  # Every case is listed, whatever the score: a report without cases is a refusal or a crash.
  [ "$total" -gt 0 ] || { say "$3: the report lists no cases"; ok=1; }
  case $3 in
    *one_solved) validate "$platform" "$file" "$(cases_named "$file" count_devices)" "$total" "$total" || ok=1
                 [ "$(cases_named "$file" count_devices)" -gt 0 ] || ok=1 ;;
    *untouched) validate "$platform" "$file" 0 "$total" "$total" || ok=1 ;;
    *solved) validate "$platform" "$file" "$total" "$total" "$total" || ok=1 ;;
  esac
  say "$3: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(t["score"] for t in d["tests"]), "of", len(d["tests"]), "cases")' "$file")"
  # Which sandbox contained the tests (Classroom 50: torchlings_sandbox; Gradescope: in extra_data).
  local sandbox
  sandbox=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("torchlings_sandbox") or d.get("extra_data", {}).get("torchlings_sandbox", "not said"))' "$file")
  say "$3: sandbox: $sandbox"
  if [ "${STOCK_ENTER:-pivot}" = chroot ] || [ "$PLATFORM" = gradescope-docker ]; then
    case $sandbox in "separate user: "*) ;; *) say "$3: a container's grade says sandbox '$sandbox', not a separate user"; ok=1 ;; esac
  elif LEARNER=${C50_USER:-root} expect_sandbox; then
    [ "$sandbox" = bubblewrap ] || { say "$3: the grade ran without the sandbox ('$sandbox')"; ok=1; }
  fi
  return $ok
}

# Classroom 50's grade job, as the functions below run it: C50_USER runs the autograder in the
# checkout C50_WORK/class, installed apart in C50_WORK/_temp (where runner.py unpacks it), with the
# environment runner.py and GitHub Actions give it; C50_ENV adds variables (the class's image).
C50_ENV=""
classroom50_env() {
  printf '%s ' CI=true GITHUB_ACTIONS=true CLASSROOM=torchlings-fall ASSIGNMENT=course \
    SUBMISSION_TAG=submit/2026-11-27T10-00-00Z-0123abc USERNAME=learner OWNER=learner \
    ASSIGNMENT_TYPE=individual PAGES_BASE_URL=https://class.github.io/classroom50 \
    COMMIT_URL=https://github.com/class/torchlings-fall-course-learner/commit/0123abc \
    RELEASE_URL=https://github.com/class/torchlings-fall-course-learner/releases/tag/submit%2F2026-11-27T10-00-00Z-0123abc \
    REVIEW_URL=https://github.com/class/torchlings-fall-course-learner/compare/fff...0123abc
}
install_class50() {  # the class repository of one student, and the autograder installed apart
  [ -d "$WORK/torchlings-class/.git" ] || (cd "$WORK/torchlings-class" && git init -q && git add -A \
     && git -c user.name=teacher -c user.email=teacher@example.com commit -q -m "Course")
  rm -rf "$DIR$C50_WORK"
  git clone -q --no-local "$WORK/torchlings-class" "$DIR$C50_WORK/class"
  mkdir -p "$DIR$C50_WORK/_temp/classroom50-runtime/course"
  cp "$WORK/torchlings-class/graders/classroom50/autograder.py" "$DIR$C50_WORK/_temp/classroom50-runtime/course/"
  enter_root "$DIR" chown -R "$C50_USER:$C50_USER" "$C50_WORK"
}
grade50() {  # grade50 <name>: one push, graded
  local name=$1 checkout=$DIR$C50_WORK/class home
  home=$(enter_root "$DIR" getent passwd "$C50_USER" | cut -d: -f6)
  enter_root "$DIR" chown -R "$C50_USER:$C50_USER" "$C50_WORK/class"
  rm -f "$checkout/result.json"
  metric_started=$(date +%s) received_before=$(received_bytes)
  set +e
  # shellcheck disable=SC2046  # the variables are words without spaces
  enter_root "$DIR" --userspec="$C50_USER:$C50_USER" /usr/bin/env -i HOME="$home" USER="$C50_USER" \
    LANG=C.UTF-8 TERM=dumb PATH=/usr/local/bin:/usr/bin:/bin RUNNER_TEMP="$C50_WORK/_temp" \
    CLASSROOM50_BUNDLE_DIR="$C50_WORK/_temp/classroom50-runtime/course" \
    $(classroom50_env) $C50_ENV \
    /bin/bash -c "cd $C50_WORK/class && /usr/bin/time -v -o /tmp/grade.time \
      python3 $C50_WORK/_temp/classroom50-runtime/course/autograder.py" \
    >"$WORK/$name.out" 2>&1 </dev/null
  local code=$?
  set -e
  metric "$name" "$DIR/tmp/grade.time"
  if [ "$code" != 0 ] || [ ! -f "$checkout/result.json" ]; then
    tail -n 40 "$WORK/$name.out" >&2
    say "$name: the autograder exited $code (Classroom 50 records an error)"
    failed="$failed $name"
    return 0
  fi
  cp "$checkout/result.json" "$WORK/$name.result.json"
  (for assignment in $(classroom50_env); do export "${assignment?}"; done
   check_scores classroom50 "$WORK/$name.result.json" "$name") || failed="$failed $name"
}
three_pushes() {  # the untouched stubs, one exercise solved, all solved
  grade50 "${1}untouched"   # the next two reuse the first one's downloads
  cp "$WORK/course/solutions/01_availability/count_devices.cpp" "$DIR$C50_WORK/class/$solved_one"
  grade50 "${1}one_solved"
  for file in $solutions; do cp "$WORK/course/solutions/$file" "$DIR$C50_WORK/class/exercises/$file"; done
  grade50 "${1}solved"
}

if [ "$PLATFORM" = classroom50 ]; then
  # --- Classroom 50: the grade job's packages, then the autograder as `runner` ------------------
  apt=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["apt"]))' \
        "$WORK/torchlings-class/graders/classroom50/runtime.json")
  say "the workflow's step: sudo apt-get install -y --no-install-recommends $apt"
  in_root "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq >/dev/null \
    && apt-get install -y -qq --no-install-recommends $apt time >/dev/null" \
    || die "the runtime's apt packages do not install on $SUITE"
  # The hosted runner's user, with the passwordless sudo GitHub gives it.
  in_root "export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq --no-install-recommends sudo >/dev/null \
    && useradd --create-home --uid 1001 runner \
    && echo 'runner ALL=(ALL) NOPASSWD: ALL' >/etc/sudoers.d/runner && chmod 440 /etc/sudoers.d/runner"
  part "the grade job's packages"
  # The hosted runner's user; its first push is graded cold, as every push is on the platform. To
  # save time here, the next two reuse its download and build (the scores do not depend on it).
  C50_USER=runner C50_WORK=/home/runner/work
  install_class50
  three_pushes ""
else
  # --- Gradescope: the image (setup.sh), then each submission in a fresh copy of it -------------
  [ "$PLATFORM" = gradescope-docker ] \
    || in_root 'export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq --no-install-recommends time >/dev/null'
  # The zip as a teacher makes it: docs/teachers.md's command run as written, from a folder
  # beside the class (the page's ../torchlings-class); it must hold what the command `export`
  # printed puts in.
  zip_command=$(grep -E '^ +cd .* && zip ' "$WORK/export.out" | sed 's/^ *//')
  [ -n "$zip_command" ] || die "the export printed no zip command"
  (eval "$zip_command") || die "the zip command failed: $zip_command"
  mv "$WORK/autograder.zip" "$WORK/printed.zip"
  page_command=$(awk '/^1\. Make the zip/ {found = 1} found && /```sh/ {inside = 1; next}
                      inside && /```/ {exit} inside {sub(/^ +/, ""); print}' "$ROOT/docs/teachers.md")
  [ -n "$page_command" ] || die "docs/teachers.md has no zip command under '1. Make the zip'"
  (cd "$WORK/course" && eval "$page_command") \
    || die "docs/teachers.md's zip command failed: $page_command"
  listing() { python3 -c 'import sys, zipfile; print("\n".join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))' "$1"; }
  [ "$(listing "$WORK/autograder.zip")" = "$(listing "$WORK/printed.zip")" ] \
    || die "docs/teachers.md's zip command and the one export printed make different zips"
  untouched=() solved=()
  for file in $solutions; do
    untouched+=("exercises/$file=$WORK/torchlings-class/exercises/$file")
    solved+=("exercises/$file=$WORK/course/solutions/$file")
  done
  one_solved="count_devices.cpp=$WORK/course/solutions/01_availability/count_devices.cpp"
  # The same answer, with what one shared file would add to pass the whole course: before main,
  # it writes over every other exercise's test program beside its own. Graded as a separate user
  # it can write none of them, and it scores as the answer alone does.
  { cat "$WORK/course/solutions/01_availability/count_devices.cpp"
    cat <<'CPP'

#include <filesystem>
#include <fstream>

namespace {
[[maybe_unused]] const bool g_wrote_over_the_others = [] {
    std::error_code error;
    const auto folder = std::filesystem::read_symlink(std::string("/pr") + "oc/self/exe", error)
                            .parent_path();
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("ex_", 0) == 0 && name != "ex_count_devices") {
            std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << "written over";
        }
    }
    return true;
}();
}  // namespace
CPP
  } >"$WORK/hostile_count_devices.cpp"
  hostile="count_devices.cpp=$WORK/hostile_count_devices.cpp"
  put_submission() {  # put_submission <folder> <file in submission>=<from>...
    local folder=$1 pair
    shift
    for pair in "$@"; do
      mkdir -p "$(dirname "$folder/${pair%%=*}")"
      cp "${pair#*=}" "$folder/${pair%%=*}"
    done
  }
  scored() {  # scored <name> <results.json>: its score checked, else the submission counted failed
    [ -f "$2" ] || { say "$1: no results.json"; failed="$failed $1"; return 0; }
    cp "$2" "$WORK/$1.results.json"
    check_scores gradescope "$WORK/$1.results.json" "$1" || failed="$failed $1"
  }
fi
if [ "$PLATFORM" = gradescope-docker ]; then
  # The image as docs/teachers.md and the Dockerfile's comment build it, from the class folder.
  host_install unzip || die "unzip is needed to unpack the zip as the Dockerfile says (apt-get install unzip)"
  (cd "$WORK/torchlings-class" && rm -rf ../image && mkdir ../image \
     && unzip -q ../autograder.zip -d ../image/source && cp graders/gradescope/Dockerfile ../image/) \
    || die "the image's folder could not be made"
  metric_started=$(date +%s) received_before=$(received_bytes)
  docker build --force-rm --network host --build-arg BASE="$base" -t "$IMAGE" "$WORK/image" >"$WORK/setup.out" 2>&1 \
    || { tail -n 60 "$WORK/setup.out" >&2; die "docker build failed: the image does not build"; }
  metric "docker build (the image)"
  grade_docker() {  # grade_docker <name> <file in submission>=<from>...: a new container each
    local name=$1 sub=$WORK/$1.submission res=$WORK/$1.results
    shift
    rm -rf "$sub" "$res" && mkdir -p "$sub" "$res"
    put_submission "$sub" "$@"
    metric_started=$(date +%s) received_before=$(received_bytes)
    docker run --rm --network host -v "$sub:/autograder/submission" -v "$res:/autograder/results" \
      "$IMAGE" /autograder/run_autograder >"$WORK/$name.out" 2>&1 </dev/null \
      || { tail -n 40 "$WORK/$name.out" >&2; failed="$failed $name"; return 0; }
    metric "$name"
    scored "$name" "$res/results.json"
  }
  grade_docker untouched "${untouched[@]}"
  grade_docker one_solved "$one_solved"
  grade_docker hostile_one_solved "$hostile"
  grade_docker solved "${solved[@]}"
elif [ "$PLATFORM" = gradescope ]; then
  ag=$DIR/autograder
  mkdir -p "$ag/submission" "$ag/results"
  python3 -m zipfile -e "$WORK/autograder.zip" "$ag/source"
  cp "$ag/source/run_autograder" "$ag/run_autograder"
  chmod +x "$ag/run_autograder"
  metric_started=$(date +%s) received_before=$(received_bytes)
  in_root 'apt-get update -qq >/dev/null; cd /autograder/source && /usr/bin/time -v -o /tmp/setup.time bash ./setup.sh' \
    >"$WORK/setup.out" 2>&1 || { tail -n 60 "$WORK/setup.out" >&2; die "setup.sh failed: the image does not build"; }
  metric "setup.sh (the image)" "$DIR/tmp/setup.time"
  du -sh "$ag" >&2 || true
  rm -rf "$DIR/autograder.image"
  cp -a "$ag" "$DIR/autograder.image"
  grade_gs() {  # grade_gs <name> <file in submission>=<from>...
    local name=$1
    shift
    rm -rf "$ag"
    cp -a "$DIR/autograder.image" "$ag"
    put_submission "$ag/submission" "$@"
    metric_started=$(date +%s) received_before=$(received_bytes)
    in_root 'cd /autograder && /usr/bin/time -v -o /tmp/grade.time ./run_autograder' \
      >"$WORK/$name.out" 2>&1 || { tail -n 40 "$WORK/$name.out" >&2; failed="$failed $name"; return 0; }
    metric "$name" "$DIR/tmp/grade.time"
    scored "$name" "$ag/results/results.json"
  }
  grade_gs untouched "${untouched[@]}"
  grade_gs one_solved "$one_solved"
  grade_gs hostile_one_solved "$hostile"
  # Every other test program of the image is as it was (count_devices' own was rebuilt).
  programs() { (cd "$1/source" && find build -path '*/bin/ex_*' -type f ! -name 'ex_count_devices*' \
                 -exec sha256sum {} + | sort -k 2); }
  if ! diff <(programs "$DIR/autograder.image") <(programs "$ag") >"$WORK/hostile.diff"; then
    head -n 5 "$WORK/hostile.diff" >&2
    say "hostile_one_solved: the submission wrote over other exercises' test programs"
    failed="$failed hostile_one_solved"
  fi
  grade_gs solved "${solved[@]}"

  # --- Classroom 50 in the class's image: the same image (graders/gradescope/Dockerfile builds it
  # the way setup.sh built this one) as the runtime's container, where the job runs as root and
  # the autograder grades in the image's built copy of the class --------------------------------
  rm -rf "$ag" && cp -a "$DIR/autograder.image" "$ag"
  in_root 'apt-get install -y -qq --no-install-recommends python3 >/dev/null'
  C50_USER=root C50_WORK=/__w C50_ENV="TORCHLINGS_CLASS_COURSE=/autograder/source"
  install_class50
  three_pushes image_
fi

[ -z "$failed" ] || die "failed:$failed"
say "all the submissions scored as they should on $SUITE in $(( $(date +%s) - started )) s"
