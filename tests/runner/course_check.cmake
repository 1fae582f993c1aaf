# @file
# The course check (cmake/TorchlingsCourse.cmake) on a small course that it writes, indexes with
# the runner (`dev index`) and then breaks:
#   cmake -D WORK=<folder> -D CASE=<case> -D CHECK=<TorchlingsCourse.cmake>
#         -D RUNNER=<torchlings-runner> -P course_check.cmake
# CASE ok, learner_copy, stale_info (an info.md edited since the index was written: a warning
# that names the fix, and the lesson left out) and learner_copy_hint (the same edit in a learner
# copy: its index is taken as exported, no warning) must pass; every other case must fail, naming
# the file at fault (mistake_badly_named: `dev index` must, since the catalogue does not parse;
# export_stale_index: `export` must, refusing to copy an index older than its info.md).
foreach(var WORK CASE CHECK RUNNER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "course_check.cmake: -D${var}=... is required")
  endif()
endforeach()

set(root "${WORK}/${CASE}")
file(REMOVE_RECURSE "${root}")
file(WRITE "${root}/lessons/01_demo/README.md" "# Lesson 01 — Demo\n")
file(WRITE "${root}/exercises/01_demo/info.md"
     "## demo: A demo\n\ntimeout_s: 5\n\n### Hint\n\n```cpp\n## not_an_exercise: in code\n```\n")
file(WRITE "${root}/exercises/01_demo/demo.cpp" "int demo() { return 0; }  // TODO: return 1\n")
file(WRITE "${root}/solutions/01_demo/demo.cpp" "int demo() {\n    return 1;\n}\n")
file(WRITE "${root}/tests/exercises/01_demo/demo_test.cpp" "// tests\n")
file(WRITE "${root}/solutions/01_demo/mistakes/demo.md"
     "# Mistakes: demo\n\n## returns_zero: Returns 0\n\nThe test expects 1.\n\n"
     "```diff\n-    return 1;\n+    return 0;\n```\n")

execute_process(COMMAND "${RUNNER}" --root "${root}" --color=never dev index
                RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "course check, case ${CASE}: dev index failed (${code}):\n${output}")
endif()

set(expected "course check: ok, 1 lessons and 1 exercises")
set(command "${CMAKE_COMMAND}" -D "ROOT=${root}" -P "${CHECK}")
if(CASE STREQUAL "ok")
elseif(CASE STREQUAL "stale_info")
  file(APPEND "${root}/exercises/01_demo/info.md" "\n### Hint\n\nA hint added later.\n")
  set(expected "exercises/01_demo/info.md has changed since exercises/index.json was written")
elseif(CASE STREQUAL "learner_copy")
  file(REMOVE_RECURSE "${root}/solutions")
elseif(CASE STREQUAL "learner_copy_hint")
  file(REMOVE_RECURSE "${root}/solutions")
  file(APPEND "${root}/exercises/01_demo/info.md" "\n### Hint\n\nA hint a teacher added.\n")
  set(expected "course check: ok, 1 lessons and 1 exercises")
  set(unexpected "has changed since")
elseif(CASE STREQUAL "export_stale_index")
  file(APPEND "${root}/exercises/01_demo/info.md" "\n### Hint\n\nA hint added later.\n")
  set(command "${RUNNER}" --root "${root}" --color=never export --learner "${WORK}/${CASE}-copy")
  set(expected "export: exercises/index.json is older than exercises/01_demo/info.md; run `./torchlings dev index`")
elseif(CASE STREQUAL "undeclared_stub")
  file(WRITE "${root}/exercises/01_demo/extra.cpp" "// TODO\n")
  set(expected "exercises/01_demo/extra.cpp belongs to no exercise: exercises/01_demo/info.md declares demo")
elseif(CASE STREQUAL "undeclared_solution")
  file(WRITE "${root}/solutions/01_demo/extra.cpp" "\n")
  set(expected "solutions/01_demo/extra.cpp belongs to no exercise")
elseif(CASE STREQUAL "undeclared_test")
  file(WRITE "${root}/tests/exercises/01_demo/extra_test.cpp" "\n")
  set(expected "tests/exercises/01_demo/extra_test.cpp belongs to no exercise")
elseif(CASE STREQUAL "missing_test")
  file(REMOVE "${root}/tests/exercises/01_demo/demo_test.cpp")
  set(expected "declares the exercise 'demo', so tests/exercises/01_demo/demo_test.cpp must exist")
elseif(CASE STREQUAL "missing_solution")
  file(REMOVE "${root}/solutions/01_demo/demo.cpp")
  set(expected "declares the exercise 'demo', so solutions/01_demo/demo.cpp must exist")
elseif(CASE STREQUAL "stub_without_todo")
  file(WRITE "${root}/exercises/01_demo/demo.cpp" "int demo() { return 0; }\n")
  set(expected "exercises/01_demo/demo.cpp has no TODO")
elseif(CASE STREQUAL "folder_without_lesson")
  file(WRITE "${root}/exercises/02_orphan/info.md" "## orphan: An orphan\n")
  set(expected "exercises/02_orphan belongs to no lesson: expected lessons/02_orphan/README.md")
elseif(CASE STREQUAL "mistake_of_no_exercise")
  file(WRITE "${root}/solutions/01_demo/mistakes/dmeo.md" "## typo: T\n")
  set(expected "solutions/01_demo/mistakes/dmeo.md is in the catalogue of mistakes but names no exercise: exercises/01_demo/info.md declares demo")
elseif(CASE STREQUAL "mistake_old_layout")
  file(WRITE "${root}/solutions/01_demo/mistakes/demo/bare.cpp" "int demo() { return 2; }\n")
  set(expected "solutions/01_demo/mistakes/demo is not a catalogue of mistakes: the folder holds one file per exercise")
elseif(CASE STREQUAL "mistake_badly_named")
  file(APPEND "${root}/solutions/01_demo/mistakes/demo.md" "\n## Bad-Name: T\n")
  set(command "${RUNNER}" --root "${root}" --color=never dev index)
  set(expected "solutions/01_demo/mistakes/demo.md:12: a mistake's heading is `## <slug>: <title>`, the slug in [a-z0-9_]+; got \"## Bad-Name: T\"")
elseif(CASE STREQUAL "mistake_hunk_stale")
  # The solution changed where the mistake is: its hunk no longer applies.
  file(WRITE "${root}/solutions/01_demo/demo.cpp" "int demo() {\n    return 2 - 1;\n}\n")
  set(expected "solutions/01_demo/mistakes/demo.md:8: mistake 'returns_zero', hunk 1 of 1 no longer applies: its old text (the ' ' and '-' lines) is not in solutions/01_demo/demo.cpp")
elseif(CASE STREQUAL "mistake_hunk_twice")
  file(WRITE "${root}/solutions/01_demo/demo.cpp"
       "int demo() {\n    return 1;\n}\nint again() {\n    return 1;\n}\n")
  set(expected "solutions/01_demo/mistakes/demo.md:8: mistake 'returns_zero', hunk 1 of 1 is ambiguous: its old text occurs more than once in solutions/01_demo/demo.cpp")
else()
  message(FATAL_ERROR "course_check.cmake: unknown CASE ${CASE}")
endif()

execute_process(COMMAND ${command}
                RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REGEX REPLACE "[ \n]+" " " flat "${output}")  # CMake wraps its error messages
string(FIND "${flat}" "${expected}" at)
set(passes "^(ok|learner_copy|learner_copy_hint|stale_info)$")
if(unexpected)
  string(FIND "${flat}" "${unexpected}" unwanted)
else()
  set(unwanted -1)
endif()
if(at EQUAL -1 OR NOT unwanted EQUAL -1 OR (CASE MATCHES "${passes}" AND NOT code EQUAL 0) OR
   (NOT CASE MATCHES "${passes}" AND code EQUAL 0))
  message(FATAL_ERROR "course check, case ${CASE}: expected \"${expected}\" "
                      "(exit code ${code}), got:\n${output}")
endif()
message("course check, case ${CASE}: as expected")
