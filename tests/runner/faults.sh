#!/bin/sh
# faults.sh: the runner's fault-injection suite, one case per call (CTest label "faults").
#
#   RUNNER=<torchlings-runner> FIXTURES=<fixture course> HOSTILE=<hostile course>
#   BUILD=<build folder> WORK=<scratch folder> SOURCE_ROOT=<course> [PRESET=<preset>]
#   sh faults.sh <case>
#
# Each case injects one fault (hostile learner code from the hostile course, a broken or
# unwritable file, a signal to the runner, a second runner at the same time) and asserts the
# exit code, the message, and that no file and no progress is lost. A case prints what it ran
# and "FAIL: <why>" (exit 1) or "ok" (exit 0); "TL_SKIP: <why>" when this machine cannot inject
# the fault. The runner's table of promises (runner/README.md) names the case behind each row.
set -u

case_name=${1:?usage: faults.sh <case>}
for var in RUNNER FIXTURES HOSTILE BUILD WORK SOURCE_ROOT; do
  eval "value=\${$var:-}"
  [ -n "$value" ] || { echo "faults.sh: $var is not set"; exit 2; }
done
WORK="$WORK/$case_name"
rm -rf "$WORK"
mkdir -p "$WORK"
OUT="$WORK/out"
STATE="$WORK/state.json"

fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
skip() { printf 'TL_SKIP: %s\n' "$*"; exit 0; }
# What the set-up prints where this machine lacks the course's packages and cannot install them
# (not root, or root without a network, as on an offline GPU server): the set-up cases then skip.
LACKS_PACKAGES='missing system packages|시스템 패키지가 없습니다|apt-get install failed|apt-get install이 실패했습니다'

# run <runner args...>: the runner on a course (default: the fixtures), output in $OUT, code in $rc.
COURSE=$FIXTURES
run() {
  "$RUNNER" --root "$COURSE" --build-dir "$BUILD" --state "$STATE" --color=never "$@" \
    >"$OUT" 2>&1 </dev/null
  rc=$?
  printf -- '--- torchlings %s\n' "$*"
  cat "$OUT"
  printf '(exit code %s)\n' "$rc"
}
expect_rc() { [ "$rc" = "$1" ] || fail "exit code $rc, expected $1"; }
expect() { for regex in "$@"; do grep -Eq -- "$regex" "$OUT" || fail "the output lacks /$regex/"; done; }
expect_not() { for regex in "$@"; do grep -Eq -- "$regex" "$OUT" && fail "the output has /$regex/"; done; return 0; }
expect_file() { grep -Eq -- "$2" "$1" || { cat "$1"; fail "$1 lacks /$2/"; }; }
prebuild() { cmake --build "$BUILD" --target "$@" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; fail "cannot build $*"; }; }

# alive <pid>: the process exists and is not a zombie.
alive() {
  [ -r "/proc/$1/stat" ] || { kill -0 "$1" 2>/dev/null; return; }
  state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}
# gone_within <seconds> <pid>...: every process ends within that time.
gone_within() {
  limit=$1; shift
  waited=0
  while :; do
    left=""
    for pid in "$@"; do alive "$pid" && left="$left $pid"; done
    [ -z "$left" ] && return 0
    [ "$waited" -ge "$((limit * 10))" ] && { kill -9 $left 2>/dev/null; fail "still running after ${limit} s:$left"; }
    sleep 0.1; waited=$((waited + 1))
  done
}

# marked <value> [<name>]: the live processes whose environment holds HX_PID_FILE=<value> (and
# whose name is <name>): what a hostile test program started, found from outside whether or not
# it runs in the sandbox, where its own pids differ and it cannot write a file for us.
marked() {
  for file in $(grep -lzxF "HX_PID_FILE=$1" /proc/[0-9]*/environ 2>/dev/null); do
    pid=${file#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    [ -z "${2:-}" ] || [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || continue
    alive "$pid" && printf '%s ' "$pid"
  done
  return 0
}
# wait_for_marked <value> <name> <count> <seconds>: until that many such processes run.
wait_for_marked() {
  waited=0
  while [ "$(marked "$1" "$2" | wc -w)" -lt "$3" ]; do
    [ "$waited" -ge "$(($4 * 10))" ] && fail "$3 processes $2 never ran"
    sleep 0.1; waited=$((waited + 1))
  done
}

# needs_sandbox: skips the case where the runner cannot start its sandbox, as the runner decides
# (bwrap on PATH running `true` with the sandbox's options; core/process_group.cpp): without it,
# the attack would work, and harm the build folder.
needs_sandbox() {
  [ "${TORCHLINGS_SANDBOX:-auto}" != off ] || skip "TORCHLINGS_SANDBOX=off: test programs run without the sandbox"
  command -v bwrap >/dev/null 2>&1 || skip "bwrap is not installed, so test programs run without the sandbox"
  why=$(bwrap --ro-bind / / --dev /dev --proc /proc --remount-ro /proc --unshare-pid \
    --die-with-parent --new-session --cap-drop ALL -- true 2>&1) ||
    skip "bwrap cannot start here, so test programs run without the sandbox: $why"
}

# spin_then <signal>: `check hx_spin` in the background; once the test program and its child
# spin, the runner gets the signal; both must then be gone within 5 s. Sets $rc to the runner's.
spin_then() {
  prebuild ex_hx_spin
  COURSE=$HOSTILE
  HX_PID_FILE="$WORK/pids" "$RUNNER" --root "$COURSE" --build-dir "$BUILD" --state "$STATE" \
    --color=never check hx_spin >"$OUT" 2>&1 </dev/null &
  runner=$!
  wait_for_marked "$WORK/pids" ex_hx_spin 2 30
  pids=$(marked "$WORK/pids")
  echo "runner $runner, test program, its child (and the sandbox's processes): $pids; sending $1 to the runner"
  kill "-$1" "$runner"
  if [ "$1" = STOP ]; then
    # The watchdog stops the group at the limit (8 s) plus its grace, though the runner sleeps,
    # and resumes the runner.
    gone_within 20 $pids
    kill -CONT "$runner" 2>/dev/null
  else
    gone_within 5 $pids
  fi
  wait "$runner"
  rc=$?
  cat "$OUT"
  printf '(exit code %s)\n' "$rc"
}

git_dir() { git -C "$FIXTURES" rev-parse --absolute-git-dir 2>/dev/null; }

# as_other <command...>: the command as a user of no account, as the separate user would run.
as_other() { setpriv --reuid=1799999999 --regid=1799999999 --clear-groups "$@" 2>/dev/null; }
# needs_separate_user: skips unless the runner is root and a user of its own can reach the build
# folder's programs (a folder above it that only root may enter, as `mktemp -d` makes, leaves the
# level none, which the reports then say: separate_user_passes checks that).
needs_separate_user() {
  [ "$(id -u)" = 0 ] || skip "a separate user needs the runner to be root"
  as_other test -x "$BUILD/bin" ||
    skip "a separate user cannot reach $BUILD/bin (a folder above it only root may enter)"
}

# lingerer_stopped <TORCHLINGS_SANDBOX>: `check hx_linger`, whose test program crashes and, in the
# run that then lists its cases, leaves a process that waits for the runner to exit and then
# writes a passing result over Classroom 50's; no process of it may outlive the runner, and the
# result must stay the runner's (0 points).
lingerer_stopped() {
  prebuild ex_hx_linger
  COURSE=$HOSTILE
  HX_PID_FILE="$WORK/linger" HX_REPORT="$WORK/result.json" TORCHLINGS_SANDBOX=$1 \
    run check hx_linger --classroom50 "$WORK/result.json"
  left=$(marked "$WORK/linger")
  sleep 2  # the forgery would come within 20 ms of the runner's exit
  grep -q '"forged"' "$WORK/result.json" && { cat "$WORK/result.json"; fail "the result was rewritten after the runner exited"; }
  [ -z "$left" ] || { kill -9 $left 2>/dev/null; fail "processes of the test program outlived the runner: $left"; }
  expect_rc 1
  expect "hx_linger: 0/1 tests passed"
  expect_file "$WORK/result.json" '"score": 0,'
}

# overwrites_refused <refusal> <TORCHLINGS_SANDBOX> [check option...]: `check hx_overwrite` on a
# copy of the hostile course, whose test program writes over another test program of the build,
# the progress file (a forged record of another exercise done) and a test of the course; each
# write must fail with <refusal>, and nothing may have changed.
overwrites_refused() {
  refusal=$1 setting=$2
  shift 2
  prebuild ex_hx_overwrite ex_hx_slow
  cp -R "$HOSTILE" "$WORK/course"
  COURSE="$WORK/course"
  victim="$BUILD/bin/ex_hx_slow"
  cp "$victim" "$WORK/victim"
  HX_STATE="$STATE" TORCHLINGS_SANDBOX=$setting run check hx_overwrite --json "$@"
  if ! cmp -s "$victim" "$WORK/victim"; then
    rm -f "$victim"  # rebuilt by the next build that needs it
    fail "the test program overwrote $victim"
  fi
  expect_rc 1
  expect "ex_hx_slow: $refusal" "state.json: $refusal" "hx_overwrite_test.cpp: $refusal"
  cmp "$WORK/course/tests/exercises/00_hostile/hx_overwrite_test.cpp" \
    "$HOSTILE/tests/exercises/00_hostile/hx_overwrite_test.cpp" || fail "the test program wrote over a test of the course"
  grep -q hx_slow "$STATE" && { cat "$STATE"; fail "the test program forged progress in $STATE"; }
  return 0
}

case $case_name in
  # --- Verdicts -------------------------------------------------------------------------------
  forged_pass)
    # Exit handlers write an all-passed report to every descriptor copied before main and to
    # any --out file: the failing answer must stay failing, in the text, Classroom 50's result
    # and progress.
    COURSE=$HOSTILE
    run check hx_forge --classroom50 "$WORK/result.json"
    expect_rc 1
    expect "hx_forge: 1/2 tests passed|hx_forge: not passed"
    expect_not "Done!"
    expect_file "$WORK/result.json" '"max-score": 2'
    expect_file "$WORK/result.json" '"passed": false'
    [ "$(grep -c '"passed": true' "$WORK/result.json")" -le 1 ] || fail "the Classroom 50 result passes both cases"
    expect_file "$WORK/result.json" '^  "score": [01],$' 
    run list
    expect "failing +hx_forge"
    ;;
  forged_stream_exit)
    # In the failing test, the learner's code writes the rest of an all-passed report to every
    # pipe it holds and calls _exit(0) (a pass before the reports were signed): its lines carry
    # no valid MAC, so the run is refused and scores nothing; the teacher's reports flag it.
    COURSE=$HOSTILE
    run check hx_fake_stream --json --classroom50 "$WORK/result.json" --gradescope "$WORK/results.json"
    expect_rc 1
    expect "hx_fake_stream: not passed, refused: 2 lines of its test report did not come from the course's reporter" \
      '"type": "forged"|"status": "error"' '"torchlings_flags"' '"code": "exit-path"' '"detail": "ends the program: uses _exit"'
    expect_not "Done!"
    expect_file "$WORK/result.json" '"max-score": 2'
    [ "$(grep -c '"score": 1' "$WORK/result.json")" = 0 ] || fail "a refused run scores points"
    expect_file "$WORK/results.json" 'refused: exit-path|flagged: exit-path'
    [ "$(grep -c '"score": 1' "$WORK/results.json")" = 0 ] || fail "a refused run scores points on Gradescope"
    ;;
  key_from_environment)
    # A global's initializer looks for the run's key in every TORCHLINGS_ variable and every
    # descriptor in /proc/self/fd, then signs its forgery with what it found: the reporter took
    # the key (and both variables) first, so nothing it signs verifies.
    COURSE=$HOSTILE
    run check hx_steal_key --json
    expect_rc 1
    expect "hx_steal_key: not passed, refused: 2 lines of its test report did not come from the course's reporter" \
      '"code": "process-files"' '"code": "environment"' '"code": "descriptors"'
    ;;
  exit_handler_forgery)
    # Exit handlers (at_quick_exit, atexit) registered before main write a passing end of the
    # report to copies of every descriptor, after quick_exit(0) in the failing test.
    COURSE=$HOSTILE
    run check hx_exit_forge --junit "$WORK/junit.xml"
    expect_rc 1
    expect "hx_exit_forge: not passed, refused: [0-9]+ lines of its test report did not come from the course's reporter"
    expect_file "$WORK/junit.xml" 'property name="torchlings.flag.exit-path" value="flagged: exit-path: ends the program: uses _exit, at_quick_exit, atexit, quick_exit"'
    expect_file "$WORK/junit.xml" 'type="forged"'
    ;;
  interposed_functions)
    # The learner's file defines write() and HMAC(): in the test program they replace the C
    # library's and OpenSSL's, so the forgery is signed with the real key. Only the scan of the
    # learner's object can see that, and it refuses the run.
    COURSE=$HOSTILE
    run check hx_interpose --json
    expect_rc 1
    expect "hx_interpose: not passed, refused: the file defines HMAC, write outside any namespace" \
      '"code": "interposes-symbol"' '"refused": true'
    expect_not "Done!"
    ;;
  call_table_redirect)
    # The learner's file finds the call table's slots of HMAC and close in its own relocations
    # and points them at functions of its own (no C name replaced, so the scan refuses nothing):
    # they would turn the failed case into a pass before each line is signed, then end the
    # program with status 0 through execle. Full RELRO (-z now) binds the table and makes it
    # read-only before any initialiser runs, so the first write kills the program (with SIGSEGV;
    # built with AddressSanitizer, which catches it, with status 1).
    COURSE=$HOSTILE
    run check hx_got --json
    expect_rc 1
    expect "hx_got: 0/0 tests passed" \
      "(crashed with SIGSEGV|exited with status 1) before any test case started" \
      '"code": "processes"' "uses execle"
    expect_not "Done!" '"status": "pass"'
    ;;
  key_read_from_memory)
    # In the failing test, the learner's file reads the run's key through its own memory file
    # (self/mem under proc, which reads a page whatever its protection), signs a passing end with
    # it and ends with execle. Where the kernel gives secret memory (memfd_secret), the key's page
    # is out of that file's reach and the case fails; elsewhere the forgery verifies, and the
    # reports flag execle for the teacher.
    COURSE=$HOSTILE
    run check hx_mem_key --json
    expect '"code": "processes"' "uses execle"
    # Secret memory as the reporter makes it (tests/support/run_key.h): x86-64 or AArch64, and
    # memfd_secret, ftruncate and a shared mapping of one page all succeed.
    case $(uname -m) in x86_64|aarch64) secret_arch=1 ;; *) secret_arch=0 ;; esac
    if [ "$secret_arch" = 1 ] && python3 -c '
import ctypes, mmap, os, sys
fd = ctypes.CDLL(None, use_errno=True).syscall(447, 0)
if fd < 0:
    sys.exit(1)
os.ftruncate(fd, mmap.PAGESIZE)
mmap.mmap(fd, mmap.PAGESIZE).close()
os.close(fd)' 2>/dev/null; then
      expect_rc 1
      expect "hx_mem_key: 1/2 tests passed" "the memory file cannot read the key's page"
    else
      # Without it the forgery verifies: only the scan's flag (above) shows it.
      echo "no secret memory here: the key's page is readable, and the forgery is only flagged"
      expect_rc 0
      expect "hx_mem_key: 2/2 tests passed"
    fi
    ;;
  tests_patched_in_memory)
    # Before main, the learner's file writes a return over every test case's code through its
    # own memory file, so that the real reporter would sign real passes of cases that check
    # nothing. In the sandbox /proc is read-only: the file does not open for writing, and the
    # tests run as written.
    needs_sandbox
    COURSE=$HOSTILE
    run check hx_mem_patch
    expect_rc 1
    expect "hx_mem_patch: 1/2 tests passed" "the memory file cannot be opened for writing"
    ;;
  tests_patched_unsandboxed)
    # The same without the sandbox: the patch takes, every case passes without an assertion, and
    # the run is refused.
    COURSE=$HOSTILE
    TORCHLINGS_SANDBOX=off run check hx_mem_patch --json
    expect_rc 1
    expect 'hx_mem_patch: not passed, refused: 2 test cases passed without running any of its checks'
    expect_not '"status": "pass"'
    ;;
  preinit_order)
    # The learner's own .preinit_array function runs before every C++ initialiser, and would
    # copy the key with tee(); the reporter's entry is linked first and has taken and closed the
    # key's pipe, so the forgery does not verify; the scan refuses the section as well.
    COURSE=$HOSTILE
    run check hx_preinit
    expect_rc 1
    expect "hx_preinit: not passed, refused: 2 lines of its test report did not come from the course's reporter" \
      "and the file puts a function in .preinit_array"
    ;;
  ifunc_resolver)
    # An indirect function's resolver runs while the loader relocates the program, before any
    # .preinit_array entry, and copies the key with tee(): its forgery verifies, and only the
    # scan of the learner's object, which refuses indirect functions, stops it.
    COURSE=$HOSTILE
    run check hx_ifunc --json
    expect_rc 1
    expect "hx_ifunc: not passed, refused: the file has indirect functions" '"code": "ifunc"'
    expect_not "Done!"
    ;;
  contradicted_exit_status)
    # The unit tests cover classify(); here, end to end: hx_forge's exit handlers append a report
    # of passes after the real one, which now fails verification: an error, never a pass.
    COURSE=$HOSTILE
    prebuild ex_hx_forge
    run check hx_forge --json
    expect_rc 1
    expect '"status": "error"' "the test report was refused"
    ;;
  static_exit)
    COURSE=$HOSTILE
    run check hx_static_exit
    expect_rc 1
    expect "exited with status 0 before any test case started" "code that runs before main\\(\\)"
    expect_not "^fix: +cmake" "reported no results"
    ;;
  every_exercise_reported)
    # One exercise's file missing, another exiting before main: --json, --gradescope and --junit
    # still describe both.
    cp -R "$HOSTILE" "$WORK/course"
    rm "$WORK/course/exercises/00_hostile/hx_slow.cpp"
    COURSE="$WORK/course"
    run check hx_static_exit hx_slow --gradescope "$WORK/results.json" --junit "$WORK/junit.xml" --json
    expect_rc 3
    expect '"id": "hx_static_exit"' '"id": "hx_slow"' "hx_slow.cpp is missing" "reset hx_slow"
    expect_file "$WORK/results.json" "hx_static_exit"
    expect_file "$WORK/results.json" "hx_slow"
    expect_file "$WORK/junit.xml" 'testsuite name="hx_static_exit'
    expect_file "$WORK/junit.xml" 'testsuite name="hx_slow'
    ;;
  concurrent_checks)
    # Four checks of one exercise at once: each reads its own results.
    prebuild ex_fx_fail ex_fx_pass
    pids=""
    for i in 1 2 3 4; do
      "$RUNNER" --root "$FIXTURES" --build-dir "$BUILD" --state "$WORK/state$i.json" \
        --color=never check fx_fail >"$WORK/out$i" 2>&1 </dev/null &
      pids="$pids $!"
    done
    "$RUNNER" --root "$FIXTURES" --build-dir "$BUILD" --state "$WORK/state5.json" \
      --color=never check fx_pass >"$WORK/out5" 2>&1 </dev/null
    [ $? = 0 ] || { cat "$WORK/out5"; fail "check fx_pass beside four others did not pass"; }
    i=0
    for job in $pids; do
      i=$((i + 1))
      wait "$job"; code=$?
      cat "$WORK/out$i"
      [ "$code" = 1 ] || fail "check $i: exit code $code, expected 1"
      expect_file "$WORK/out$i" "fx_fail: 1/2 tests passed"
    done
    ;;
  shadow_header)
    # In a learner copy, a header the manifest does not list, placed where the tests' includes
    # would find it before the course's, is refused.
    run export --learner "$WORK/class"
    expect_rc 0
    COURSE="$WORK/class"
    run check --verify-tests
    expect_rc 0
    mkdir -p "$WORK/class/tests/exercises/00_fixtures/tl_test"
    printf '#define CHECK(x) ((void)0)\n#include_next <tl_test/catch.h>\n' \
      >"$WORK/class/tests/exercises/00_fixtures/tl_test/catch.h"
    run check --verify-tests fx_fail
    expect_rc 5
    expect "tests/exercises/00_fixtures/tl_test/catch.h is not in the class's copy"
    expect_not "fx_fail: "
    ;;

  export_inside_course)
    # A target that resolves inside the course, through a symbolic link to it, is refused
    # however it is named; nothing is written there.
    cp -R "$FIXTURES" "$WORK/course"
    ln -s "$WORK/course" "$WORK/link"
    COURSE="$WORK/course"
    for target in "$WORK/link/class" "$WORK/link/lessons/class" "$WORK/course/../course/class"; do
      run export --learner "$target"
      expect_rc 64
      expect "must lie outside the course" "name a folder outside it"
      [ ! -e "$WORK/course/class" ] && [ ! -e "$WORK/course/lessons/class" ] ||
        fail "export wrote into the course through $target"
    done
    run export --learner "$WORK/class"
    expect_rc 0
    ;;

  # --- Processes ------------------------------------------------------------------------------
  escaped_process)
    # A process in a session of its own keeps the output pipe open for ten minutes: the check
    # ends anyway (a generous bound, not a timing test) and the process is stopped.
    # (The answer comes once the process has escaped, so a pass proves it ran.)
    prebuild ex_hx_escape
    COURSE=$HOSTILE
    start=$(date +%s)
    HX_PID_FILE="$WORK/pid" run check hx_escape
    took=$(($(date +%s) - start))
    expect_rc 0
    expect "hx_escape: 1/1 tests passed"
    [ "$took" -le 20 ] || fail "check took $took s; the limit is 5 s"
    gone_within 5 $(marked "$WORK/pid")
    ;;
  time_limit_group)
    prebuild ex_hx_spin
    COURSE=$HOSTILE
    HX_PID_FILE="$WORK/pids" run check hx_spin
    expect_rc 1
    expect "Stopped after 8 s"
    gone_within 5 $(marked "$WORK/pids")
    ;;
  stop_parent | stop_parent_unsandboxed)
    # In a test, the learner's code stops its parent with SIGSTOP: in the sandbox its parent is
    # the sandbox's first process, which ignores it, and the check ends as usual; without (as
    # TORCHLINGS_SANDBOX=off), the runner, which the watchdog resumes past the limit (5 s). The
    # check must end either way, with the test's own verdict.
    prebuild ex_hx_stop_parent
    COURSE=$HOSTILE
    [ "$case_name" = stop_parent ] || export TORCHLINGS_SANDBOX=off
    start=$(date +%s)
    "$RUNNER" --root "$COURSE" --build-dir "$BUILD" --state "$STATE" --color=never \
      check hx_stop_parent --classroom50 "$WORK/result.json" >"$OUT" 2>&1 </dev/null &
    runner=$!
    waited=0
    while alive "$runner" && [ "$waited" -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
    if alive "$runner"; then
      kill -CONT "$runner"; sleep 1; kill -9 "$runner" 2>/dev/null
      cat "$OUT"
      fail "the runner was still stopped 30 s later: its test program stopped it"
    fi
    wait "$runner"; rc=$?
    took=$(($(date +%s) - start))
    cat "$OUT"; printf '(exit code %s, %s s)\n' "$rc" "$took"
    expect_rc 0
    expect "hx_stop_parent: 1/1 tests passed"
    if grep -q '"torchlings_sandbox": "bubblewrap"' "$WORK/result.json"; then
      [ "$case_name" = stop_parent ] || fail "TORCHLINGS_SANDBOX=off, yet the result says bubblewrap"
      [ "$took" -le 4 ] || fail "check took $took s: the runner was stopped, not out of reach"
    else
      expect_file "$WORK/result.json" '"torchlings_sandbox": "(none|separate user): '
    fi
    ;;
  lingering_rewrite)
    # The learner's file crashes its test; in the run that then lists its cases, a global's
    # initializer leaves a process behind (a session of its own, no descriptor held) that waits
    # for the runner to exit, then writes a passing result over Classroom 50's. In the sandbox
    # it dies with that run, before the runner writes the result (where it could not write).
    needs_sandbox
    lingerer_stopped "${TORCHLINGS_SANDBOX:-auto}"
    expect_file "$WORK/result.json" '"torchlings_sandbox": "bubblewrap"'
    ;;
  overwrite_build_and_course)
    # The learner's code writes over another test program of the build, the progress file (a
    # forged record of another exercise done) and a test of the course: in the sandbox all of
    # it is read-only, and every write fails.
    needs_sandbox
    overwrites_refused "Read-only file system" "${TORCHLINGS_SANDBOX:-auto}"
    expect '"status": "fail"'
    expect_file "$STATE" '"hx_overwrite"'
    ;;
  overwrite_as_separate_user)
    # The same writes where bubblewrap cannot start and the runner is root (a container's root):
    # the program runs as a separate user, which owns nothing of the machine's, so every write
    # is refused, and the report names the level.
    needs_separate_user
    overwrites_refused "Permission denied" user --classroom50 "$WORK/result.json"
    expect_file "$WORK/result.json" '"torchlings_sandbox": "separate user: bwrap not tried \(TORCHLINGS_SANDBOX=user\)"'
    ;;
  lingering_as_separate_user)
    # lingering_rewrite where bubblewrap cannot start, as root: the process left behind belongs to
    # the separate user, which is killed whole before the result is written (and could not write
    # it anyway).
    needs_separate_user
    lingerer_stopped user
    expect_file "$WORK/result.json" '"torchlings_sandbox": "separate user: '
    ;;
  separate_user_passes)
    # A right answer passes as the separate user, with a temporary folder of its own. Where that
    # user cannot load a program (its libraries in a folder only root may enter, such as a
    # LibTorch under /root) or cannot open the GPU's device files, the runner says so in the
    # report and runs the programs as before.
    [ "$(id -u)" = 0 ] || skip "a separate user needs the runner to be root"
    gpu_closed=""  # a GPU device file such a user cannot open (the runner asks that too)
    for device in /dev/nvidia* /dev/kfd; do
      [ -c "$device" ] && ! as_other sh -c 'test -r "$1" && test -w "$1"' sh "$device" && gpu_closed=$device
    done
    closed='"torchlings_sandbox": "none: .*the separate user cannot run the test programs: uid [0-9]+ cannot'
    COURSE=$HOSTILE
    TORCHLINGS_SANDBOX=user run check hx_slow --classroom50 "$WORK/result.json"
    expect_rc 0
    expect "hx_slow: 1/1 tests passed"
    if [ -n "$gpu_closed" ]; then  # asked first
      expect_file "$WORK/result.json" "$closed open /dev/"
    elif ! as_other test -x "$BUILD/bin"; then
      expect_file "$WORK/result.json" "$closed run"
    else
      expect_file "$WORK/result.json" '"torchlings_sandbox": "separate user: '
    fi
    ls -d "${TMPDIR:-/tmp}"/torchlings-run-* 2>/dev/null && fail "a separate user's temporary folder was left behind"
    COURSE=$SOURCE_ROOT
    TORCHLINGS_SANDBOX=user run check count_devices --classroom50 "$WORK/course.json"
    library=$(LD_TRACE_LOADED_OBJECTS=1 "$BUILD/bin/ex_count_devices" | sed -n 's/.*libc10.so => \(.*\) (.*/\1/p')
    [ -n "$library" ] || skip "ex_count_devices does not load libc10.so"
    if [ -n "$gpu_closed" ]; then  # asked first
      expect_file "$WORK/course.json" "$closed open /dev/"
    elif ! as_other test -x "$BUILD/bin"; then
      expect_file "$WORK/course.json" "$closed run"
    elif ! as_other test -r "$library"; then
      expect_file "$WORK/course.json" "$closed load"
    else
      expect_file "$WORK/course.json" '"torchlings_sandbox": "separate user: '
    fi
    expect "count_devices: 0/[0-9]+ tests passed"
    ;;
  runner_sigkill)
    spin_then KILL
    [ "$rc" = 137 ] || fail "the runner's exit code is $rc, expected 137 (SIGKILL)"
    ;;
  runner_sighup)
    spin_then HUP
    [ "$rc" = 129 ] || fail "the runner's exit code is $rc, expected 129 (SIGHUP)"
    ;;
  runner_sigint)
    spin_then INT
    [ "$rc" = 130 ] || fail "the runner's exit code is $rc, expected 130 (Ctrl-C)"
    expect "interrupted"
    ;;
  runner_stopped)
    spin_then STOP
    [ "$rc" = 1 ] || fail "the runner's exit code is $rc, expected 1 (stopped at the limit)"
    expect "Stopped after 8 s"
    ;;

  # --- Hidden inputs --------------------------------------------------------------------------
  lookup_table)
    # A learner file that answers only the inputs its test shows (a table, no computing) passes
    # a learner's check, and fails a graded one: each grading run draws a fresh seed, gives it to
    # the test program, whose test then also draws inputs from it (tl_test/drawn.h), and records
    # it in the reports and the summary; the seed replays the same inputs.
    unset TORCHLINGS_TEST_SEED
    COURSE=$HOSTILE
    prebuild ex_hx_lookup
    run check hx_lookup
    expect_rc 0
    expect "hx_lookup: 1/1 tests passed"
    expect_not "TORCHLINGS_TEST_SEED"
    run check hx_lookup --classroom50 "$WORK/result.json"
    expect_rc 1
    expect "hx_lookup: 0/1 tests passed" \
      "Test seed: TORCHLINGS_TEST_SEED=[0-9]+ \(fresh for this run\), from which the tests that draw inputs drew them; TORCHLINGS_TEST_SEED=[0-9]+ \./torchlings check <id> replays them"
    seed=$(sed -n 's/.*Test seed: TORCHLINGS_TEST_SEED=\([0-9]*\) (fresh for this run).*/\1/p' "$OUT")
    [ -n "$seed" ] || fail "no seed in the summary"
    # The test program drew from the run's seed (it names it), and the result records it.
    expect "info: n = [0-9]+ \(TORCHLINGS_TEST_SEED=$seed draws the same inputs again\)"
    drawn=$(grep -Eo "n = [0-9]+ \(TORCHLINGS_TEST_SEED=$seed" "$OUT" | head -n 1)
    expect_file "$WORK/result.json" "\"torchlings_test_seed\": $seed,?\$"
    expect_file "$WORK/result.json" '"score": 0'
    # The seed replays the failure in a learner's check, with the same drawn input.
    TORCHLINGS_TEST_SEED=$seed run check hx_lookup
    expect_rc 1
    expect "info: $(printf '%s' "$drawn" | sed 's/[()]/\\&/g')"
    # A fresh seed for each run: the next one differs (but once in 2^32).
    run check hx_lookup --gradescope "$WORK/results.json"
    expect_rc 1
    expect_not "TORCHLINGS_TEST_SEED=$seed "
    expect_file "$WORK/results.json" '"torchlings_test_seed": [0-9]+'
    grep -Eq "\"torchlings_test_seed\": $seed,?\$" "$WORK/results.json" && fail "the seed was used twice"
    # A teacher pins it: the reports record that one.
    TORCHLINGS_TEST_SEED=$seed run check hx_lookup --junit "$WORK/junit.xml"
    expect_rc 1
    expect "Test seed: TORCHLINGS_TEST_SEED=$seed \(as set\)"
    expect_file "$WORK/junit.xml" "<property name=\"torchlings.test_seed\" value=\"$seed\"/>"
    # Empty: no seed, the fixed inputs only. Not a number: grading refuses to start (exit 3);
    # a learner's check fails the case that draws, naming the variable.
    TORCHLINGS_TEST_SEED= run check hx_lookup
    expect_rc 0
    TORCHLINGS_TEST_SEED=soon run check hx_lookup --classroom50 "$WORK/refused.json"
    expect_rc 3
    expect "TORCHLINGS_TEST_SEED=soon is not a seed: expected a decimal number"
    [ -e "$WORK/refused.json" ] && fail "a result was written for a run that did not grade"
    TORCHLINGS_TEST_SEED=soon run check hx_lookup
    expect_rc 1
    expect 'TORCHLINGS_TEST_SEED="soon" is not a seed: expected a decimal number'
    ;;

  fewer_assertions)
    # A copy of the hostile course whose record (tests/exercises/assertion_counts.json) counts
    # one assertion more for hx_slow's case than its test runs: what a run shows when the
    # learner's file patched the test's body to skip its last check. Nothing outside the process
    # can tell such a patch from an answer, so the graded run passes, and its reports flag it for
    # the teacher. Without a record, nothing is compared.
    prebuild ex_hx_slow
    cp -R "$HOSTILE" "$WORK/course"
    COURSE="$WORK/course"
    run check hx_slow --json
    expect_rc 0
    expect_not "fewer-assertions"
    printf '{\n  "hx_slow": {\n    "is slow but right": 2\n  }\n}\n' \
      >"$WORK/course/tests/exercises/assertion_counts.json"
    run check hx_slow --json --junit "$WORK/junit.xml" --classroom50 "$WORK/result.json" \
      --gradescope "$WORK/results.json"
    expect_rc 0
    expect "hx_slow: 1/1 tests passed" '"code": "fewer-assertions"' '"refused": false' \
      'passed with fewer assertions than the reference solution runs: .*is slow but right.* ran 1 of its 2 assertions'
    for report in junit.xml result.json results.json; do
      expect_file "$WORK/$report" 'fewer-assertions'
    done
    expect_file "$WORK/result.json" '"score": 1'
    # A record that cannot be read stops no check: the reports say it was not compared.
    printf '[1, 2]\n' >"$WORK/course/tests/exercises/assertion_counts.json"
    run check hx_slow --json
    expect_rc 0
    expect "hx_slow: 1/1 tests passed" '"code": "assertions-not-compared"' \
      'assertion_counts.json is not a JSON object of exercises'
    ;;

  # --- Progress -------------------------------------------------------------------------------
  hint_during_check)
    # Two hints given during a long check are kept when the check records its result.
    prebuild ex_hx_slow
    COURSE=$HOSTILE
    "$RUNNER" --root "$COURSE" --build-dir "$BUILD" --state "$STATE" --color=never \
      check hx_slow >"$WORK/check.out" 2>&1 </dev/null &
    checker=$!
    sleep 1
    run hint hx_slow
    expect_rc 0
    run hint hx_slow
    expect "2/2"
    wait "$checker"; code=$?
    cat "$WORK/check.out"
    [ "$code" = 0 ] || fail "check hx_slow: exit code $code"
    cat "$STATE"
    expect_file "$STATE" '"hints_revealed": 2'
    expect_file "$STATE" '"status": "done"'
    ;;
  deep_state)
    head -c 100000 /dev/zero | tr '\0' '[' >"$STATE"
    cp "$STATE" "$WORK/original"
    run list
    expect_rc 0
    expect "could not be used" "nests more than" "state.json.corrupt"
    cmp "$STATE.corrupt" "$WORK/original" || fail "the unreadable file was not kept as it was"
    head -c 100000 /dev/zero | tr '\0' '[' >"$STATE"
    run check fx_pass
    expect_rc 0
    expect "fx_pass: 2/2 tests passed"
    head -c 100000 /dev/zero | tr '\0' '{' >"$STATE"
    run hint fx_pass
    expect_rc 0
    expect "Hints for fx_pass"
    ;;
  corrupt_state_twice)
    # Each corruption is kept under a name of its own: the second never overwrites the first.
    printf '{"format_version": 2, "exercises": {' >"$STATE"
    cp "$STATE" "$WORK/first"
    run list
    expect_rc 0
    expect "could not be used" "kept as .*state.json.corrupt\\."
    printf '[[[ second' >"$STATE"
    cp "$STATE" "$WORK/second"
    run list
    expect_rc 0
    expect "kept as .*state.json.corrupt.1\\."
    cmp "$STATE.corrupt" "$WORK/first" || fail "the first corrupt file was overwritten"
    cmp "$STATE.corrupt.1" "$WORK/second" || fail "the second corrupt file was not kept as it was"
    ;;
  huge_state)
    head -c 20000000 /dev/zero | tr '\0' ' ' >"$STATE"
    run progress
    expect_rc 0
    expect "could not be used" "MiB"
    ;;
  state_is_folder)
    mkdir -p "$STATE/inside"
    run hint fx_pass
    expect_rc 0
    expect "could not be used \\(it is a folder\\)" "Hints for fx_pass"
    [ -d "$STATE.corrupt/inside" ] || fail "the folder was not set aside"
    ;;
  hints_overflow)
    for count in 2147483647 18446744073709551615 99999999999999999999 -5; do
      printf '{"format_version": 2, "exercises": {"fx_pass": {"status": "failing", "hints_revealed": %s}}}\n' \
        "$count" >"$STATE"
      run hint fx_pass
      expect_rc 0
      expect "Hints for fx_pass"
      [ "$count" = -5 ] && expect "1/2" || expect "2/2"
      expect_file "$STATE" '"status": "failing"'
    done
    ;;

  # --- Files ----------------------------------------------------------------------------------
  readonly_state)
    as=""
    course=$FIXTURES
    runner=$RUNNER
    if [ "$(id -u)" = 0 ]; then
      command -v setpriv >/dev/null 2>&1 || skip "running as root without setpriv: a folder cannot be made read-only"
      as="setpriv --reuid=65534 --regid=65534 --clear-groups"
      # Root ignores permissions, so the runner runs as nobody, who must reach the course and the
      # progress folder. A checkout inside a private folder (mktemp -d makes them 0700) is out of
      # its reach: then the course, the runner and the progress folder go to a folder of their
      # own that anyone can read.
      if ! $as test -r "$FIXTURES/lessons" || ! $as test -x "$WORK" || ! $as test -x "$RUNNER"; then
        open=$(mktemp -d "${TMPDIR:-/tmp}/torchlings-readonly-XXXXXX")
        chmod 755 "$open"
        cp -R "$FIXTURES" "$open/course"
        cp "$RUNNER" "$open/torchlings-runner"
        chmod -R a+rX "$open"
        course=$open/course
        runner=$open/torchlings-runner
        WORK=$open
      fi
    fi
    mkdir -p "$WORK/ro"
    printf '{"format_version": 2, "exercises": {"fx_pass": {"status": "failing", "hints_revealed": 1}}}\n' \
      >"$WORK/ro/state.json"
    cp "$WORK/ro/state.json" "$WORK/original"
    chmod 555 "$WORK/ro"
    $as "$runner" --root "$course" --build-dir "$BUILD" --state "$WORK/ro/state.json" \
      --color=never hint fx_pass >"$OUT" 2>&1 </dev/null
    rc=$?
    cat "$OUT"
    chmod 755 "$WORK/ro"
    expect_rc 0
    expect "Hints for fx_pass" "cannot save progress" "Permission denied" "chmod u\\+w"
    expect_not "internal error" "Success"
    cmp "$WORK/ro/state.json" "$WORK/original" || fail "the progress file changed"
    [ -z "${open:-}" ] || rm -rf "$open"
    ;;
  unwritable_build)
    # A build folder that belongs to another user (root's, made with sudo): the check says so,
    # names the folder and gives a fix that works, not "CMake could not re-configure" with a log
    # that could not be written. Run as nobody, since root writes anywhere.
    [ "$(id -u)" = 0 ] || skip "needs root, to run the runner as another user than the build's owner"
    command -v setpriv >/dev/null 2>&1 || skip "running as root without setpriv: no other user to run as"
    as="setpriv --reuid=65534 --regid=65534 --clear-groups"
    $as test -x "$BUILD/bin" || skip "the build folder is out of nobody's reach (a private parent folder)"
    prebuild ex_fx_pass
    open=$(mktemp -d "${TMPDIR:-/tmp}/torchlings-unwritable-XXXXXX")
    chmod 755 "$open"
    cp -R "$FIXTURES" "$open/course"
    cp "$RUNNER" "$open/torchlings-runner"
    chmod -R a+rX "$open"
    # Something to build: the exercise's file is newer than its program.
    touch "$FIXTURES/exercises/00_fixtures/fx_pass.cpp"
    $as "$open/torchlings-runner" --root "$open/course" --build-dir "$BUILD"       --state "$open/state.json" --color=never check fx_pass >"$OUT" 2>&1 </dev/null
    rc=$?
    cat "$OUT"
    rm -rf "$open"
    prebuild ex_fx_pass
    expect_rc 3
    expect "cannot be written by you \\(permission denied\\)" "chown -R" "rm -rf" \
      "could not be saved there either"
    expect_not "CMake could not re-configure" "Full log: .*logs/" "internal error" "^warning: cannot write"
    ;;
  torchlings_folder_is_file)
    # .torchlings/ is a file: hint still shows the hint and says why progress is not saved;
    # reset (which backs up first) stops before touching the learner's file.
    gd=$(git_dir) || skip "the course is not a git clone, so reset has no stubs to restore"
    cp -R "$FIXTURES" "$WORK/course"
    COURSE="$WORK/course"
    printf 'not a folder\n' >"$WORK/course/.torchlings"
    "$RUNNER" --root "$COURSE" --build-dir "$BUILD" --color=never hint fx_pass >"$OUT" 2>&1 </dev/null
    rc=$?; cat "$OUT"
    expect_rc 0
    expect "Hints for fx_pass" "Not a directory"
    expect_not "internal error"
    todo="$WORK/course/exercises/00_fixtures/fx_todo.cpp"
    printf '// the learner'"'"'s own work\n' >>"$todo"
    cp "$todo" "$WORK/work.cpp"
    GIT_DIR=$gd "$RUNNER" --root "$COURSE" --build-dir "$BUILD" --color=never reset --yes fx_todo \
      >"$OUT" 2>&1 </dev/null
    rc=$?; cat "$OUT"
    expect_rc 3
    expect "Not a directory" "^fix: .*mv .*/course/\\.torchlings .*/course/\\.torchlings\\.old"
    expect_not "internal error"
    cmp "$todo" "$WORK/work.cpp" || fail "the learner's file was replaced without a backup"
    ;;
  write_errno)
    prebuild ex_fx_pass
    run check fx_pass --junit /dev/full
    expect_rc 3
    expect "cannot write /dev/full: No space left on device" "free some disk space"
    printf 'x\n' >"$WORK/afile"
    run check fx_pass --classroom50 "$WORK/afile/result.json"
    expect_rc 3
    expect "Not a directory"
    expect_not ": Success"
    ;;
  learner_file_folder)
    cp -R "$FIXTURES" "$WORK/course"
    COURSE="$WORK/course"
    rm "$WORK/course/exercises/00_fixtures/fx_pass.cpp"
    mkdir "$WORK/course/exercises/00_fixtures/fx_pass.cpp"
    run check fx_pass
    expect_rc 3
    expect "fx_pass.cpp is a folder, not a file" "reset --yes fx_pass"
    expect_not "internal error"
    ;;

  # --- Command line and wrapper -----------------------------------------------------------------
  option_before_verb)
    run --device cpu run 00
    expect_rc 64
    expect "--device is an option of .run., so it goes after the verb" "\\./torchlings run 00 --device cpu"
    ;;
  wrapper_symlink)
    [ -n "${PRESET:-}" ] || skip "the build folder is not <course>/build/<preset>, where the wrapper looks"
    mkdir -p "$WORK/bin" "$WORK/elsewhere"
    ln -s "$SOURCE_ROOT/torchlings" "$WORK/bin/torchlings"
    (cd "$WORK/elsewhere" && TORCHLINGS_PRESET=$PRESET "$WORK/bin/torchlings" list) >"$OUT" 2>&1 </dev/null
    rc=$?; cat "$OUT"
    expect_rc 0
    expect "Progress: "
    [ -e "$WORK/bin/build" ] && fail "the wrapper made a build/ folder beside the link"
    [ -e "$WORK/elsewhere/build" ] && fail "the wrapper made a build/ folder in the working folder"
    ;;
  broken_venv | broken_venv_ko)
    # A cached venv whose python does not run: say so, and how to rebuild it; with a Korean locale
    # (and no TORCHLINGS_LANG), in Korean, as the runner chooses its language.
    mkdir -p "$WORK/course/cmake" "$WORK/course/scripts/setup" "$WORK/cache/torchlings/venv-torch-0.0.0/bin"
    cp "$SOURCE_ROOT/torchlings" "$SOURCE_ROOT/CMakeLists.txt" "$WORK/course/"
    cp "$SOURCE_ROOT/cmake/TorchlingsFindTorch.cmake" "$WORK/course/cmake/"
    cp "$SOURCE_ROOT"/scripts/setup/*.sh "$SOURCE_ROOT"/scripts/setup/*.py "$SOURCE_ROOT"/scripts/setup/*.txt \
       "$WORK/course/scripts/setup/"
    printf '#!/bin/sh\nexit 1\n' >"$WORK/cache/torchlings/venv-torch-0.0.0/bin/python"
    chmod +x "$WORK/cache/torchlings/venv-torch-0.0.0/bin/python"
    if [ "$case_name" = broken_venv_ko ]; then language=LANG=ko_KR.UTF-8; else language=TORCHLINGS_LANG=en; fi
    env -u Torch_DIR -u LIBTORCH -u CMAKE_PREFIX_PATH -u TORCHLINGS_LANG -u LC_ALL -u LC_MESSAGES \
      "$language" XDG_CACHE_HOME="$WORK/cache" TORCHLINGS_TORCH_SPEC="torch==0.0.0" \
      sh "$WORK/course/torchlings" list >"$OUT" 2>&1 </dev/null
    rc=$?; cat "$OUT"
    grep -Eq "$LACKS_PACKAGES" "$OUT" && skip "this machine lacks the course's system packages"
    expect_rc 3
    if [ "$case_name" = broken_venv_ko ]; then
      expect "가상 환경이 망가져 있습니다.*venv-torch-0.0.0" "다음 실행에서 다시 만듭니다: +rm -rf"
      expect_not "is broken"
    else
      expect "virtual environment .*venv-torch-0.0.0 is broken" "rm -rf"
    fi
    expect_not "pip could not install" "installing the" "설치합니다"
    ;;
  unfinished_venv)
    # A cached venv left by a set-up that was cut short (torch_wheel.py's marker is still in it):
    # removed and installed again, never taken for a working LibTorch. The torch asked for does not
    # exist, so the new install fails, with the message that says what to do.
    venv="$WORK/cache/torchlings/venv-torch-0.0.0"
    mkdir -p "$WORK/course/cmake" "$WORK/course/scripts/setup" "$venv"
    cp "$SOURCE_ROOT/torchlings" "$SOURCE_ROOT/CMakeLists.txt" "$WORK/course/"
    cp "$SOURCE_ROOT/cmake/TorchlingsFindTorch.cmake" "$WORK/course/cmake/"
    cp "$SOURCE_ROOT"/scripts/setup/*.sh "$SOURCE_ROOT"/scripts/setup/*.py "$SOURCE_ROOT"/scripts/setup/*.txt \
       "$WORK/course/scripts/setup/"
    python3 -m venv "$venv" || skip "python3 cannot make a venv here"
    : >"$venv/.torchlings-installing"; : >"$venv/left-by-the-cut-install"
    env -u Torch_DIR -u LIBTORCH -u CMAKE_PREFIX_PATH TORCHLINGS_LANG=en XDG_CACHE_HOME="$WORK/cache" \
      TORCHLINGS_TORCH_SPEC="torch==0.0.0" PIP_RETRIES=0 PIP_TIMEOUT=10 \
      sh "$WORK/course/torchlings" list >"$OUT" 2>&1 </dev/null
    rc=$?; cat "$OUT"
    grep -Eq "$LACKS_PACKAGES" "$OUT" && skip "this machine lacks the course's system packages"
    expect_rc 3
    expect "removing .*venv-torch-0.0.0, left unfinished by an earlier set-up" \
           "pip could not install 'torch==0.0.0'|not enough free space for the torch wheel"
    [ ! -e "$venv/left-by-the-cut-install" ] || fail "the unfinished venv was kept"
    [ -e "$venv/.torchlings-installing" ] || fail "the failed install did not leave its marker"
    ;;
  cuda_replaces_cpu_torch)
    # ./torchlings setup --cuda where the cache venv holds a CPU-only torch (no libtorch_cuda.so):
    # the venv is set aside, and the build folders that used it (and only those) are configured
    # again. The torch asked for does not exist, so the new install fails, and the CPU-only torch
    # comes back (free space short of the CUDA wheel's stops it the same way).
    venv="$WORK/cache/torchlings/venv-torch-0.0.0"
    mkdir -p "$WORK/course/cmake" "$WORK/course/scripts/setup" "$venv/lib/python3.99/site-packages/torch/lib" \
             "$WORK/course/build/dev-torch-0.0.0" "$WORK/course/build/other"
    cp "$SOURCE_ROOT/torchlings" "$SOURCE_ROOT/CMakeLists.txt" "$WORK/course/"
    cp "$SOURCE_ROOT/cmake/TorchlingsFindTorch.cmake" "$WORK/course/cmake/"
    cp "$SOURCE_ROOT"/scripts/setup/*.sh "$SOURCE_ROOT"/scripts/setup/*.py "$SOURCE_ROOT"/scripts/setup/*.txt \
       "$WORK/course/scripts/setup/"
    printf 'Torch_DIR:PATH=%s/lib/python3.99/site-packages/torch/share/cmake/Torch\n' "$venv" \
      >"$WORK/course/build/dev-torch-0.0.0/CMakeCache.txt"
    printf 'Torch_DIR:PATH=/opt/libtorch/share/cmake/Torch\n' >"$WORK/course/build/other/CMakeCache.txt"
    env -u Torch_DIR -u LIBTORCH -u CMAKE_PREFIX_PATH TORCHLINGS_LANG=en XDG_CACHE_HOME="$WORK/cache" \
      TORCHLINGS_TORCH_SPEC="torch==0.0.0" PIP_RETRIES=0 PIP_TIMEOUT=10 \
      sh "$WORK/course/torchlings" setup --cuda >"$OUT" 2>&1 </dev/null
    rc=$?; cat "$OUT"
    grep -Eq "$LACKS_PACKAGES" "$OUT" && skip "this machine lacks the course's system packages"
    expect_rc 3
    expect "replacing the CPU-only torch in .*venv-torch-0.0.0 with the CUDA one" \
           "pip could not install 'torch==0.0.0'|not enough free space for the torch wheel" \
           "the CUDA torch could not be installed: the CPU-only one is back in .*venv-torch-0.0.0"
    expect_not "CPU-only torch wheel \("
    [ -e "$venv/lib/python3.99/site-packages/torch/lib" ] || fail "the CPU-only torch was not put back"
    [ ! -e "$venv.cpu-only" ] || fail "the CPU-only torch was left aside"
    [ ! -e "$WORK/course/build/dev-torch-0.0.0/CMakeCache.txt" ] || fail "the build folder that used it was not reset"
    [ -e "$WORK/course/build/other/CMakeCache.txt" ] || fail "a build folder of another LibTorch was reset"
    ;;
  *)
    echo "faults.sh: no case called $case_name"; exit 2 ;;
esac
echo ok
