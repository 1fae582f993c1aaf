# @file
# How configure applies a catalogue of mistakes (cmake/TorchlingsMistakes.cmake), from the hunks
# that the runner's `dev index` writes into solutions/mistakes.json, on a one-lesson course that
# this script writes:
#   cmake -D WORK=<folder> -D CASE=<case> -D MODULE=<TorchlingsCourse.cmake>
#         -D RUNNER=<torchlings-runner> -P mistake_hunks.cmake
# CASE applies: C++ full of what CMake's lists mangle (; [ ] \ " ${}) comes out exactly, with
# #line directives to the solution and the .md; an unchanged result is not written again; a
# solution edit away from the mistake still applies. stale_index and no_index: a catalogue that
# the index does not hold as it is now is warned about and builds no mistake. The cases of a
# catalogue that does not parse must stop `dev index` with the message they name; the others
# (the solution changed under a hunk, hunks that overlap) must stop configure.
cmake_minimum_required(VERSION 3.25)

# The child: apply the exercise's mistakes, as configure does (a stop is its exit code and
# message).
if(DEFINED APPLY_ROOT)
  include("${MODULE}")
  torchlings_apply_mistakes("${APPLY_ROOT}" 01_demo demo "${APPLY_ROOT}/solutions/01_demo/demo.cpp"
                            OUTPUT_DIR "${APPLY_OUT}" SOURCES sources)
  list(LENGTH sources count)
  message("applied: ${count} mistakes")
  return()
endif()

foreach(var WORK CASE MODULE RUNNER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "mistake_hunks.cmake: -D${var}=... is required")
  endif()
endforeach()
set(root "${WORK}/${CASE}")
file(REMOVE_RECURSE "${root}")
set(solution "${root}/solutions/01_demo/demo.cpp")
set(md "${root}/solutions/01_demo/mistakes/demo.md")
set(out "${root}/build/mistakes/01_demo/demo")
file(WRITE "${root}/lessons/01_demo/README.md" "# Lesson 01 — Demo\n")
file(WRITE "${root}/exercises/01_demo/info.md" "## demo: A demo\n")

# A solution with every character that a careless CMake list would split, drop or reinterpret.
file(WRITE "${solution}" [=[
/// @file demo.cpp
#include "demo.h"

#define TL_JOIN(a, b) \
    a##b

namespace ex {

// Parts: [a; b], "quoted \"text\"", a backslash \ and ${NOT_A_VARIABLE}.
int demo(const int* values, int n) {
    int total = 0;
    for (int i = 0; i < n; ++i) {
        total += values[i];
    }
    return total;
}

const char* name() { return "demo;[x]\\n"; }

}  // namespace ex
]=])

# Two hunks: one replaces a line, one only adds (anchored by a context line).
set(catalogue [=[
# Mistakes: demo

Plausible wrong answers.

## skips_the_last: The loop stops one short

`i < n - 1` drops values[n - 1]; a [x; y] test sees it.

caught by: "sums \"all\"; of them" (assertion)

```diff
-    for (int i = 0; i < n; ++i) {
+    for (int i = 0; i < n - 1; ++i) {
@@
 const char* name() { return "demo;[x]\\n"; }
+const char* more() { return "${NOT_A_VARIABLE};\\"; }
```

## returns_zero: Returns 0

Nothing is added.

```diff
     return total;
+    // [unreachable]; \ "
@@
 int demo(const int* values, int n) {
+    return 0;
```
]=])
file(WRITE "${md}" "${catalogue}")

function(apply_child result_var output_var)
  execute_process(COMMAND "${CMAKE_COMMAND}" -D "APPLY_ROOT=${root}" -D "APPLY_OUT=${out}"
                          -D "MODULE=${MODULE}" -P "${CMAKE_CURRENT_LIST_FILE}"
                  RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  string(REGEX REPLACE "[ \n]+" " " output "${output}")  # CMake wraps its error messages
  set(${result_var} "${code}" PARENT_SCOPE)
  set(${output_var} "${output}" PARENT_SCOPE)
endfunction()

# The runner writes the index from the catalogue, as `./torchlings dev index` does.
function(index_course result_var output_var)
  execute_process(COMMAND "${RUNNER}" --root "${root}" --color=never dev index
                  RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  string(REGEX REPLACE "[ \n]+" " " output "${output}")
  set(${result_var} "${code}" PARENT_SCOPE)
  set(${output_var} "${output}" PARENT_SCOPE)
endfunction()

function(index_or_fail)
  index_course(code output)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "dev index should accept the catalogue, got (exit code ${code}):\n${output}")
  endif()
endfunction()

# Without the `#line` lines, each generated source must be the expected text exactly.
function(expect_source slug expected)
  file(READ "${out}/${slug}.cpp" text)
  string(REGEX REPLACE "#line [0-9]+ \"[^\"\n]*\"\n" "" code "${text}")
  if(NOT code STREQUAL expected)
    message(FATAL_ERROR "mistake ${slug}: expected\n${expected}\ngot\n${code}")
  endif()
endfunction()

function(expect_contains slug piece)
  file(READ "${out}/${slug}.cpp" text)
  string(FIND "${text}" "${piece}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "mistake ${slug}: expected to find\n${piece}\nin\n${text}")
  endif()
endfunction()

# A maintainer's edit of the solution: every `from` becomes `to`.
function(edit_solution from to)
  file(READ "${solution}" base)
  string(REPLACE "${from}" "${to}" base "${base}")
  file(WRITE "${solution}" "${base}")
endfunction()

# Who must stop, with what: `dev index` (a catalogue that does not parse) or configure.
set(stopped_by configure)
if(CASE STREQUAL "applies")
  index_or_fail()
  apply_child(code output)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "the catalogue should apply, got:\n${output}")
  endif()
  file(READ "${solution}" base)
  string(REPLACE "    for (int i = 0; i < n; ++i) {" "    for (int i = 0; i < n - 1; ++i) {"
         expected "${base}")
  string(REPLACE [=[const char* name() { return "demo;[x]\\n"; }
]=] [=[const char* name() { return "demo;[x]\\n"; }
const char* more() { return "${NOT_A_VARIABLE};\\"; }
]=] expected "${expected}")
  expect_source(skips_the_last "${expected}")
  string(REPLACE "    return total;\n" "    return total;\n    // [unreachable]; \\ \"\n" expected
         "${base}")
  string(REPLACE "int demo(const int* values, int n) {\n"
         "int demo(const int* values, int n) {\n    return 0;\n" expected "${expected}")
  expect_source(returns_zero "${expected}")
  # Unchanged lines point at the solution, added ones at their .md line; the line after an added
  # one is the solution's again.
  expect_contains(skips_the_last "#line 1 \"${solution}\"\n/// @file demo.cpp\n")
  expect_contains(skips_the_last
                  "#line 13 \"${md}\"\n    for (int i = 0; i < n - 1; ++i) {\n#line 13 \"${solution}\"\n")
  expect_contains(skips_the_last "#line 16 \"${md}\"\nconst char* more()")
  expect_contains(returns_zero "#line 28 \"${md}\"\n    return 0;\n#line 11 \"${solution}\"\n")
  # Written once: a second configure with nothing changed leaves the file alone.
  file(TIMESTAMP "${out}/returns_zero.cpp" before "%s")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
  file(WRITE "${out}/removed_mistake.cpp" "// from a mistake since removed\n")
  apply_child(code output)
  file(TIMESTAMP "${out}/returns_zero.cpp" after "%s")
  if(NOT before STREQUAL after OR EXISTS "${out}/removed_mistake.cpp")
    message(FATAL_ERROR "an unchanged mistake was written again (${before} -> ${after}), or a "
                        "removed one's source was left behind")
  endif()
  message("mistake hunks, case applies: as expected")
  return()
elseif(CASE STREQUAL "edit_elsewhere")
  # A solution edit away from every hunk: still applies, the #line numbers follow.
  index_or_fail()
  edit_solution("namespace ex {\n" "namespace ex {\n\n// A new comment line.\n")
  apply_child(code output)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "an edit away from the mistakes should cost nothing, got:\n${output}")
  endif()
  expect_contains(returns_zero "#line 28 \"${md}\"\n    return 0;\n#line 13 \"${solution}\"\n")
  message("mistake hunks, case edit_elsewhere: as expected")
  return()
elseif(CASE MATCHES "^(stale_index|no_index)$")
  # The catalogue edited after the index was written, or no index: a warning, and no mistake is
  # built (a source left from before is removed), but configure goes on.
  index_or_fail()
  apply_child(code output)
  set(expected "solutions/01_demo/mistakes/demo.md has changed since solutions/mistakes.json was written")
  if(CASE STREQUAL "no_index")
    file(REMOVE "${root}/solutions/mistakes.json")
    set(expected "solutions/mistakes.json does not exist")
  else()
    file(APPEND "${md}" "\nOne more line of prose.\n")
  endif()
  apply_child(code output)
  string(FIND "${output}" "${expected}" at)
  if(NOT code EQUAL 0 OR at EQUAL -1 OR NOT output MATCHES "CMake Warning"
     OR NOT output MATCHES "applied: 0 mistakes" OR NOT output MATCHES "./torchlings dev index"
     OR EXISTS "${out}/returns_zero.cpp")
    message(FATAL_ERROR "mistake hunks, case ${CASE}: expected a warning with \"${expected}\" "
                        "and no mistake built, got (exit code ${code}):\n${output}")
  endif()
  message("mistake hunks, case ${CASE}: as expected")
  return()
elseif(CASE STREQUAL "stale")
  index_or_fail()
  edit_solution("i < n;" "i != n;")
  set(expected "solutions/01_demo/mistakes/demo.md:12: mistake 'skips_the_last', hunk 1 of 2 no longer applies: its old text (the ' ' and '-' lines) is not in solutions/01_demo/demo.cpp")
elseif(CASE STREQUAL "twice")
  index_or_fail()
  file(APPEND "${solution}" "int other(const int* values, int n) {\n    int total = 0;\n    return total;\n}\n")
  set(expected "solutions/01_demo/mistakes/demo.md:24: mistake 'returns_zero', hunk 1 of 2 is ambiguous: its old text occurs more than once in solutions/01_demo/demo.cpp")
elseif(CASE STREQUAL "overlap")
  string(REPLACE "@@\n int demo(const int* values, int n) {\n+    return 0;"
         "@@\n     return total;\n+    // again" catalogue "${catalogue}")
  file(WRITE "${md}" "${catalogue}")
  index_or_fail()
  set(expected "mistake 'returns_zero', hunk 2 overlaps another hunk")
elseif(CASE STREQUAL "only_additions")
  set(stopped_by "dev index")
  string(REPLACE "@@\n int demo(const int* values, int n) {\n+    return 0;" "@@\n+    return 0;"
         catalogue "${catalogue}")
  file(WRITE "${md}" "${catalogue}")
  set(expected "demo.md:27: mistake 'returns_zero', hunk 2 of 2 has no old text: a hunk that only adds lines needs a context line")
elseif(CASE STREQUAL "bad_line")
  set(stopped_by "dev index")
  string(REPLACE "+    return 0;" "*    return 0;" catalogue "${catalogue}")
  file(WRITE "${md}" "${catalogue}")
  set(expected "demo.md:28: mistake 'returns_zero': a line of a diff block starts with ' ' (context), '-' (removed) or '+' (added)")
elseif(CASE STREQUAL "no_diff")
  set(stopped_by "dev index")
  file(APPEND "${md}" "\n## forgot_the_diff: No diff\n\nWhy.\n")
  set(expected "demo.md:31: mistake 'forgot_the_diff' has no ```diff block")
elseif(CASE STREQUAL "repeated_slug")
  set(stopped_by "dev index")
  file(APPEND "${md}" "\n## returns_zero: Again\n")
  set(expected "demo.md:31: the slug 'returns_zero' is used twice")
elseif(CASE STREQUAL "no_change")
  set(stopped_by "dev index")
  file(APPEND "${md}" "\n## same: Same\n\n```diff\n     return total;\n```\n")
  set(expected "demo.md:31: mistake 'same' changes nothing")
else()
  message(FATAL_ERROR "mistake_hunks.cmake: unknown CASE ${CASE}")
endif()

if(stopped_by STREQUAL "configure")
  apply_child(code output)
else()
  index_course(code output)
endif()
string(FIND "${output}" "${expected}" at)
if(code EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "mistake hunks, case ${CASE}: expected ${stopped_by} to stop with "
                      "\"${expected}\", got "
                      "(exit code ${code}):\n${output}")
endif()
message("mistake hunks, case ${CASE}: as expected")
