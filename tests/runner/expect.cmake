# @file
# expect.cmake: runs one command and checks its exit code and its output, for end-to-end tests
# of the runner that need both (CTest alone checks one or the other). No Python needed.
#
#   cmake -P expect.cmake -- EXIT_CODE <regex>            e.g. 0, or 0|3
#                            [MATCH <regex>]...            each must occur in stdout+stderr
#                            [NO_MATCH <regex>]...         none may occur
#                            [BUILD <build-dir> <target>]  built first (cmake --build)
#                            [FRESH <file>]...             removed before the run (a state file)
#                            [GOLDEN <golden-file>]        stdout alone must equal the file
#                            [GOLDEN_FILE <produced> <golden-file>]
#                                                          a file the command writes (removed
#                                                          before the run) must equal the file
#                            [REPLACE <text> <placeholder>]...
#                                                          applied, in order, before comparing
#                            RUN <program> [<arg>...]      everything after RUN
#
# Regexes are CMake regexes; they may not contain ';'. The keyword is RUN, not COMMAND,
# because add_test() reserves COMMAND.
#
# Golden files. Before the comparison the output is normalised:
#  - each REPLACE text (such as the course root or the build folder) becomes its placeholder
#    (<root>, <build>);
#  - durations and times become <time>, <duration> and <timestamp>: `(0.4 s)`,
#    `"torchlings_duration_s": 0.0123`, `"duration": 12`, `time="0.012"`, ISO 8601 times;
#  - the sandbox that contained the test programs (`"torchlings_sandbox": "bubblewrap"`,
#    "separate user: <why>" or "none: <why>") becomes <sandbox>: it depends on the machine;
#  - the seed of a grading run's hidden inputs (`"torchlings_test_seed": 123`, the JUnit property
#    `torchlings.test_seed`, `TORCHLINGS_TEST_SEED=123` in text) becomes <seed>: each run draws
#    its own;
#  - single quotes become ASCII: GCC writes ‘name’ in a UTF-8 locale and 'name' elsewhere,
#    which XML escapes as &apos;name&apos;;
#  - a compiler's error message, after the `file:line:col: error: ` that the runner reports,
#    becomes `<compiler message>`: GCC and Clang word the same error differently;
#  - the source lines a compiler prints under an error (`  3 | code`, `    |   ^~~`, or Clang 16's
#    unnumbered line and its caret line) become one `<compiler context>` line: their layout is
#    the compiler's, not the runner's.
# On a mismatch the first differing lines are shown, `-` expected and `+` actual.
#
# To accept a new output (after an intended change), run the tests with the environment variable
# TORCHLINGS_UPDATE_GOLDEN=1: each golden test then rewrites its golden file with the normalised
# output instead of comparing (the exit code and MATCH checks still apply). Read the difference
# before committing it: a golden file that records a bug is a bug.

set(expected_code "")
set(matches "")
set(rejects "")
set(build_dir "")
set(build_target "")
set(command "")
set(fresh_files "")
set(golden "")
set(produced "")
set(replacements "")

set(mode "")
set(started FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  set(arg "${CMAKE_ARGV${i}}")
  if(NOT started)
    if(arg STREQUAL "--")
      set(started TRUE)
    endif()
    continue()
  endif()
  if(mode STREQUAL "RUN")
    list(APPEND command "${arg}")
  elseif(mode STREQUAL "EXIT_CODE")
    set(expected_code "${arg}")
    set(mode "")
  elseif(mode STREQUAL "MATCH")
    list(APPEND matches "${arg}")
    set(mode "")
  elseif(mode STREQUAL "NO_MATCH")
    list(APPEND rejects "${arg}")
    set(mode "")
  elseif(mode STREQUAL "BUILD")
    set(build_dir "${arg}")
    set(mode "BUILD_TARGET")
  elseif(mode STREQUAL "BUILD_TARGET")
    set(build_target "${arg}")
    set(mode "")
  elseif(mode STREQUAL "FRESH")
    list(APPEND fresh_files "${arg}")
    set(mode "")
  elseif(mode STREQUAL "GOLDEN")
    set(golden "${arg}")
    set(mode "")
  elseif(mode STREQUAL "GOLDEN_FILE")
    set(produced "${arg}")
    set(mode "GOLDEN")
  elseif(mode STREQUAL "REPLACE")
    list(APPEND replacements "${arg}")
    set(mode "REPLACE_WITH")
  elseif(mode STREQUAL "REPLACE_WITH")
    list(APPEND replacements "${arg}")
    set(mode "")
  elseif(arg MATCHES "^(EXIT_CODE|MATCH|NO_MATCH|BUILD|FRESH|GOLDEN|GOLDEN_FILE|REPLACE|RUN)$")
    set(mode "${arg}")
  else()
    message(FATAL_ERROR "expect.cmake: unexpected argument '${arg}'; expected EXIT_CODE, MATCH, "
                        "NO_MATCH, BUILD, FRESH, GOLDEN, GOLDEN_FILE, REPLACE or RUN")
  endif()
endforeach()
if(NOT command OR expected_code STREQUAL "")
  message(FATAL_ERROR "expect.cmake: needs EXIT_CODE <regex> and RUN <program> [args...]")
endif()

if(build_target)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build_dir}" --target "${build_target}"
                  RESULT_VARIABLE build_code OUTPUT_VARIABLE build_output ERROR_VARIABLE build_output)
  if(NOT build_code EQUAL 0)
    message(FATAL_ERROR "expect.cmake: building ${build_target} failed (${build_code}):\n${build_output}")
  endif()
endif()

foreach(file IN LISTS fresh_files produced)
  file(REMOVE "${file}")
endforeach()

string(REPLACE ";" " " shown_command "${command}")
if(golden AND NOT produced)
  # stdout alone is compared; stderr (progress, warnings) only joins it for MATCH.
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  set(output "${stdout}${stderr}")
  message("$ ${shown_command}\n${stdout}--- stderr:\n${stderr}(exit code ${code})")
else()
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  message("$ ${shown_command}\n${output}(exit code ${code})")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/output_problems.cmake")
output_problems(problems "${code}" "${expected_code}" "${output}" "${matches}" "${rejects}")

# --- Golden files ---

# The text with what differs between machines and runs put in placeholders (see the header).
function(normalise var)
  set(text "${${var}}")
  set(pairs ${replacements})
  while(pairs)
    list(POP_FRONT pairs from to)
    string(REPLACE "${from}" "${to}" text "${text}")
  endwhile()
  string(REPLACE "‘" "'" text "${text}")
  string(REPLACE "’" "'" text "${text}")
  string(REPLACE "&apos;" "'" text "${text}")
  set(digit "[0-9]")
  set(iso "${digit}${digit}${digit}${digit}-${digit}${digit}-${digit}${digit}T${digit}${digit}:")
  string(REGEX REPLACE "${iso}${digit}${digit}:${digit}${digit}(\\.${digit}+)?Z?" "<timestamp>"
         text "${text}")
  string(REGEX REPLACE "\\(${digit}+(\\.${digit}+)? s\\)" "(<time>)" text "${text}")
  string(REGEX REPLACE "(\"[a-z_]*duration[a-z_]*\": )-?[0-9.eE+-]+" "\\1\"<duration>\""
         text "${text}")
  string(REGEX REPLACE "( time=\")[0-9.]+\"" "\\1<time>\"" text "${text}")
  string(REGEX REPLACE "(\"torchlings_sandbox\": )\"[^\"]*\"" "\\1\"<sandbox>\"" text "${text}")
  string(REGEX REPLACE "(\"torchlings_test_seed\": )[0-9]+" "\\1\"<seed>\"" text "${text}")
  string(REGEX REPLACE "(name=\"torchlings.test_seed\" value=\")[0-9]+" "\\1<seed>" text "${text}")
  string(REGEX REPLACE "TORCHLINGS_TEST_SEED=[0-9]+" "TORCHLINGS_TEST_SEED=<seed>" text "${text}")
  # A compiler's message for an error at a source location (the runner's headline, in every
  # format: up to the end of the line, of a JSON string or of an XML attribute).
  string(REGEX REPLACE "(\\.(cpp|cu|h):[0-9]+:[0-9]+: error: )[^\n\"\\\\]*" "\\1<compiler message>"
         text "${text}")
  # Source lines under a compiler error, raw (text, XML) or escaped in a JSON string: numbered
  # (GCC, Clang 17+), or Clang 16's quoted line followed by its caret line.
  string(REGEX REPLACE "(error: [^\n]*)(\n *[0-9]* \\| [^\n]*)+" "\\1\n    <compiler context>"
         text "${text}")
  string(REGEX REPLACE "(error: [^\"\\\\]*)(\\\\n *[0-9]* \\| [^\"\\\\]*)+"
         "\\1\\\\n    <compiler context>" text "${text}")
  string(REGEX REPLACE "(error: <compiler message>)\n[^\n]*\n *[~^][~^ ]*"
         "\\1\n    <compiler context>" text "${text}")
  string(REGEX REPLACE "(error: <compiler message>)\\\\n([^\"\\\\]|\\\\[^n])*\\\\n *[~^][~^ ]*"
         "\\1\\\\n    <compiler context>" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# Moves the first line of the variable named text_var (without its newline) into line_var.
function(pop_line text_var line_var)
  string(FIND "${${text_var}}" "\n" at)
  if(at EQUAL -1)
    set(${line_var} "${${text_var}}" PARENT_SCOPE)
    set(${text_var} "" PARENT_SCOPE)
    return()
  endif()
  string(SUBSTRING "${${text_var}}" 0 ${at} line)
  math(EXPR rest "${at} + 1")
  string(SUBSTRING "${${text_var}}" ${rest} -1 remaining)
  set(${line_var} "${line}" PARENT_SCOPE)
  set(${text_var} "${remaining}" PARENT_SCOPE)
endfunction()

# A unified-diff-like view of where two texts first differ, in the variable named out_var.
function(describe_difference expected actual out_var)
  set(line_no 0)
  set(before "")
  while(1)
    if(expected STREQUAL "" AND actual STREQUAL "")
      set(${out_var} "\n  the outputs differ only in a final newline" PARENT_SCOPE)
      return()
    endif()
    pop_line(expected old)
    pop_line(actual new)
    math(EXPR line_no "${line_no} + 1")
    if(NOT old STREQUAL new)
      break()
    endif()
    # The three common lines before the difference, as context.
    string(APPEND before "\n   ${old}")
    string(REGEX REPLACE "^\n[^\n]*(\n[^\n]*\n[^\n]*\n[^\n]*)$" "\\1" before "${before}")
  endwhile()
  set(diff "\n  @@ first difference at line ${line_no} @@${before}\n  -${old}")
  foreach(i RANGE 1 4)
    if(NOT expected STREQUAL "")
      pop_line(expected old)
      string(APPEND diff "\n  -${old}")
    endif()
  endforeach()
  string(APPEND diff "\n  +${new}")
  foreach(i RANGE 1 4)
    if(NOT actual STREQUAL "")
      pop_line(actual new)
      string(APPEND diff "\n  +${new}")
    endif()
  endforeach()
  set(${out_var} "${diff}" PARENT_SCOPE)
endfunction()

if(golden)
  if(produced)
    if(EXISTS "${produced}")
      file(READ "${produced}" actual)
    else()
      set(actual "")
      string(APPEND problems "\n  the command wrote no ${produced}")
    endif()
  else()
    set(actual "${stdout}")
  endif()
  normalise(actual)
  if("$ENV{TORCHLINGS_UPDATE_GOLDEN}" STREQUAL "1")
    file(WRITE "${golden}" "${actual}")
    message("expect.cmake: wrote ${golden} (TORCHLINGS_UPDATE_GOLDEN=1)")
  elseif(NOT EXISTS "${golden}")
    string(APPEND problems "\n  the golden file ${golden} does not exist; run the test with "
                           "TORCHLINGS_UPDATE_GOLDEN=1 to write it")
  else()
    file(READ "${golden}" expected)
    if(NOT expected STREQUAL actual)
      describe_difference("${expected}" "${actual}" difference)
      string(APPEND problems "\n  the output differs from ${golden} "
                             "(- expected, + actual, after normalising):${difference}\n  "
                             "If the new output is right, run the test with "
                             "TORCHLINGS_UPDATE_GOLDEN=1 and review the change.")
    endif()
  endif()
endif()

if(problems)
  message(FATAL_ERROR "expect.cmake: ${problems}")
endif()
