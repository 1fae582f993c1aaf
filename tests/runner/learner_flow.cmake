# @file
# learner_flow.cmake: the learner's verbs end to end, on a fresh copy of the fixture course, so
# that nothing in the source tree changes: progress and list (and list --json's statuses) before
# and after checks, "done"
# turning into "changed" when the file is edited, solution refused then shown, reset refused
# without a terminal, then reset with a backup that keeps the learner's work, and export plus
# check --verify-tests. No Python needed.
#
#   cmake -DRUNNER=<torchlings-runner> -DFIXTURES=<fixture course> -DBUILD_DIR=<build>
#         -DWORK=<scratch folder> -P learner_flow.cmake
#
# The copy's stubs are restored from git's objects: GIT_DIR points at the source tree's
# repository (the test reports itself skipped when the course is not a git clone).

foreach(var RUNNER FIXTURES BUILD_DIR WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "learner_flow.cmake: -D${var}=... is required")
  endif()
endforeach()

set(course "${WORK}/course")
set(state "${WORK}/state.json")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY "${FIXTURES}/" DESTINATION "${course}")

include("${CMAKE_CURRENT_LIST_DIR}/output_problems.cmake")
set(failures "")
set(step_build_dir "${BUILD_DIR}")
set(step_state "${state}")

# json_statuses(<name> <expected>): `list --json`'s statuses, "id=status" for each exercise ("-"
# where it has none, as it has none until the progress file records a check), must be <expected>.
function(json_statuses name expected)
  step(${name} EXIT 0 ARGS list --json)  # sets failures here, passed on below
  string(JSON count ERROR_VARIABLE problem LENGTH "${last_output}" lessons 0 exercises)
  set(found "")
  if(problem)
    set(found "(not the course as JSON: ${problem})")
  else()
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON id GET "${last_output}" lessons 0 exercises ${i} id)
      string(JSON status ERROR_VARIABLE missing
             GET "${last_output}" lessons 0 exercises ${i} status)
      if(missing)
        set(status "-")
      endif()
      list(APPEND found "${id}=${status}")
    endforeach()
  endif()
  if(NOT found STREQUAL expected)
    string(APPEND failures "\n${name}: statuses ${found}, expected ${expected}")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# 1. Nothing checked yet: progress and list build nothing and say "not tried".
set(untried fx_crash=- fx_hang=- fx_skip=- fx_todo=-)
json_statuses(list_json_fresh "fx_pass=-;fx_fail=-;fx_compile_error=-;${untried}")
step(progress_fresh EXIT 0
  MATCH "00  Runner fixtures +.+ +0/7 +7 not tried" "Course +.+ +0/7 exercises done"
        "Next: ./torchlings check fx_pass"
  ARGS progress)
step(solution_refused EXIT 1
  MATCH "shown once your own passes \\(its status: not tried\\)" "solution fx_pass --force"
  ARGS solution fx_pass)
step(solution_forced EXIT 0 MATCH "Solution of fx_pass" "return b \\+ a" ARGS solution --force fx_pass)
step(solution_missing EXIT 3 MATCH "has no solutions .solutions/00_fixtures/fx_fail.cpp"
  ARGS solution fx_fail)

# 2. One pass, one failure, one build error.
step(check_pass EXIT 0 MATCH "fx_pass: 2/2 tests passed" ARGS check fx_pass)
step(check_fail EXIT 1 MATCH "fx_fail: 1/2 tests passed" ARGS check fx_fail)
step(check_compile_error EXIT 2 MATCH "fx_compile_error: build error" ARGS check fx_compile_error)
step(list_after_checks EXIT 0
  MATCH "done +fx_pass" "failing +fx_fail" "build error +fx_compile_error" "not tried +fx_crash"
        "Progress: 1/7 exercises done. Next: ./torchlings check fx_fail"
  ARGS list)
step(progress_after_checks EXIT 0
  MATCH " 1/7 +1 failing, 1 build error, 4 not tried"
  ARGS progress)
json_statuses(list_json_after_checks
  "fx_pass=done;fx_fail=failing;fx_compile_error=build_error;${untried}")

# 2b. The same learner in Korean (TORCHLINGS_LANG=ko): hints and titles from info.ko.md, the
# verdicts in Korean, the same progress.
set(ENV{TORCHLINGS_LANG} ko)
step(hint_ko EXIT 0
  MATCH "fx_fail 힌트 \\(테스트 하나가 값과 함께 실패합니다\\)" "1/1  같은 두 수라고 특별한 경우는 아닙니다\\."
        "마지막 힌트였습니다\\."
  ARGS hint fx_fail)
step(check_pass_ko EXIT 0
  MATCH "fx_pass \\(강의 00\\): 모든 테스트를 통과합니다" "fx_pass: 테스트 2개 중 2개 통과\\. 완료!"
        "다음: \\./torchlings check fx_fail"
  NO_MATCH "tests passed"
  ARGS check fx_pass)
step(check_fail_ko EXIT 1 MATCH "fx_fail: 테스트 2개 중 1개 통과" "막혔나요\\? \\./torchlings hint fx_fail"
  ARGS check fx_fail)
step(list_ko EXIT 0
  MATCH "완료 +fx_pass" "실패 +fx_fail" "빌드 오류 +fx_compile_error" "힌트 1개 \\(1개 공개됨\\)"
        "진행: 연습 문제 7개 중 1개 완료\\. 다음: \\./torchlings check fx_fail"
  ARGS list)
set(ENV{TORCHLINGS_LANG} en)

# 3. The solution: refused before "done", shown (with a diff) after.
step(solution_shown EXIT 0
  MATCH "Solution of fx_pass" "return b \\+ a" "--- yours: exercises/00_fixtures/fx_pass.cpp"
        "\\+\\+\\+ solution: solutions/00_fixtures/fx_pass.cpp" "-int fx_add\\(int a, int b\\) \\{ return a \\+ b\\; \\}"
  ARGS solution fx_pass)

# 4. Editing a done exercise makes it "changed": done means the file is the one that passed.
file(APPEND "${course}/exercises/00_fixtures/fx_pass.cpp" "// an edit after the pass\n")
step(list_after_edit EXIT 0 MATCH "changed +fx_pass" "Progress: 0/7" ARGS list)
json_statuses(list_json_after_edit
  "fx_pass=changed;fx_fail=failing;fx_compile_error=build_error;${untried}")
step(solution_after_edit EXIT 1 MATCH "your file has changed since" ARGS solution fx_pass)

# 5. Reset: refused without a terminal unless --yes; then a backup, then the original stub.
execute_process(COMMAND git -C "${FIXTURES}" rev-parse --absolute-git-dir
                RESULT_VARIABLE git_code OUTPUT_VARIABLE git_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT git_code EQUAL 0)
  message("TL_SKIP: the course is not a git clone, so reset has no original stubs to restore")
else()
  set(ENV{GIT_DIR} "${git_dir}")
  set(todo "${course}/exercises/00_fixtures/fx_todo.cpp")
  file(READ "${todo}" original)
  file(APPEND "${todo}" "// the learner's own work\n")
  step(reset_without_terminal EXIT 64 MATCH "confirm with --yes" ARGS reset fx_todo)
  set(ENV{TORCHLINGS_LANG} ko)
  step(reset_without_terminal_ko EXIT 64
    MATCH "물어볼 터미널이 없으니 --yes로 확인해 주세요: \\./torchlings reset --yes fx_todo"
    ARGS reset fx_todo)
  set(ENV{TORCHLINGS_LANG} en)
  step(reset EXIT 0
    MATCH "fx_todo: your file is saved as (\\.torchlings/backups/[0-9-]+/exercises/00_fixtures/fx_todo.cpp)"
    ARGS reset --yes fx_todo)
  string(REGEX MATCH "\\.torchlings/backups/[0-9-]+/exercises/00_fixtures/fx_todo.cpp" backup
         "${last_output}")
  if(NOT backup OR NOT EXISTS "${course}/${backup}")
    string(APPEND failures "\nreset: the backup ${backup} does not exist")
  else()
    file(READ "${course}/${backup}" saved)
    if(NOT saved MATCHES "the learner's own work")
      string(APPEND failures "\nreset: the backup lacks the learner's work")
    endif()
  endif()
  file(READ "${todo}" restored)
  if(NOT restored STREQUAL original)
    string(APPEND failures "\nreset: ${todo} is not the original stub")
  endif()
  step(reset_again EXIT 0 MATCH "already the original stub" ARGS reset --yes fx_todo)
  step(reset_unknown EXIT 64 MATCH "no exercise or lesson called .fx_nope." ARGS reset fx_nope)
  unset(ENV{GIT_DIR})
endif()

# 6. A learner copy for a class: no solutions, a manifest, and edited tests refused.
set(copy "${WORK}/class")
step(export EXIT 0 MATCH "Exported [0-9]+ files" "torchlings-manifest.json" ARGS export --learner "${copy}")
if(EXISTS "${copy}/solutions")
  string(APPEND failures "\nexport: the learner copy has solutions/")
endif()
if(NOT EXISTS "${copy}/graders/classroom50/autograder.py" OR
   NOT EXISTS "${copy}/graders/gradescope/run_autograder")
  string(APPEND failures "\nexport: the learner copy has no graders")
endif()
step(export_again EXIT 64 MATCH "already exists and is not empty" ARGS export --learner "${copy}")
set(course "${copy}")
step(verify_tests_ok EXIT 0 MATCH "verify-tests: ok, [0-9]+ course files match" ARGS check --verify-tests)
file(APPEND "${copy}/exercises/00_fixtures/fx_todo.cpp" "// learners may edit their files\n")
step(verify_tests_learner_edit EXIT 0 MATCH "verify-tests: ok" ARGS check --verify-tests)
file(APPEND "${copy}/tests/exercises/00_fixtures/fx_fail_test.cpp" "// an edited test\n")
step(verify_tests_edited EXIT 5
  MATCH "tests/exercises/00_fixtures/fx_fail_test.cpp was edited" ARGS check --verify-tests)
step(verify_tests_blocks_check EXIT 5 NO_MATCH "fx_pass: 2/2" ARGS check --verify-tests fx_pass)

# 7. A known mistake: a course whose fx_fail has a solution and a catalogue, and a learner file
# equal to the source configure generates from them; check names the mistake, in English and in
# Korean, and so does a learner copy, which carries the catalogue without its diff.
set(course "${WORK}/mistake")
file(COPY "${FIXTURES}/" DESTINATION "${course}")
set(solution "${course}/solutions/00_fixtures/fx_fail.cpp")
file(WRITE "${solution}" [=[
/// @file
/// @brief Runner fixture (learner side): a wrong answer for equal arguments, so one test fails
/// with values to show.
int fx_add(int a, int b) { return a + b; }
]=])
file(WRITE "${course}/solutions/00_fixtures/mistakes/fx_fail.md" [=[
# Mistakes: fx_fail

## one_more_when_equal: Adds one more when the numbers are equal

A special case that nobody asked for.

caught by: "adds equal numbers" (assertion)

```diff
-int fx_add(int a, int b) { return a + b; }
+int fx_add(int a, int b) { return a == b ? a + b + 1 : a + b; }
```
]=])
# Indexed as `dev index` indexes it, then applied as configure applies it.
step(index_mistake EXIT 0 MATCH "wrote solutions/mistakes.json" ARGS dev index)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/TorchlingsCourse.cmake")
torchlings_apply_mistakes("${course}" 00_fixtures fx_fail "${solution}"
                          OUTPUT_DIR "${WORK}/generated" SOURCES generated)
file(READ "${generated}" generated_code)
string(REGEX REPLACE "#line [0-9]+ \"[^\"\n]*\"\n" "" generated_code "${generated_code}")
file(READ "${course}/exercises/00_fixtures/fx_fail.cpp" learner_code)
if(NOT generated_code STREQUAL learner_code)
  string(APPEND failures "\nknown mistake: the learner file is not the mistake's generated source:\n"
                         "${generated_code}")
endif()
step(check_known_mistake EXIT 1
  MATCH "fx_fail: 1/2 tests passed"
        "This looks like a known mistake: Adds one more when the numbers are equal\n  A special case"
  ARGS check fx_fail)
step(check_other_answer EXIT 0 NO_MATCH "known mistake" ARGS check fx_pass)
set(ENV{TORCHLINGS_LANG} ko)
step(check_known_mistake_ko EXIT 1 MATCH "알려진 실수로 보입니다: Adds one more" ARGS check fx_fail)
unset(ENV{TORCHLINGS_LANG})
set(copy "${WORK}/mistake_class")
step(export_with_mistakes EXIT 0 MATCH "the catalogue of mistakes of 1 exercises" ARGS export --learner "${copy}")
set(course "${copy}")
step(check_known_mistake_in_copy EXIT 1 MATCH "This looks like a known mistake: Adds one more"
  ARGS check fx_fail)

if(failures)
  message(FATAL_ERROR "learner_flow.cmake:${failures}")
endif()
