# @file
# output_problems.cmake: the one check behind expect.cmake, learner_flow.cmake and dev_new.cmake,
# and the step() those two scripts are written in.
#
#   output_problems(<out-var> "<exit code>" "<expected code regex>" "<output>"
#                   "<list of regexes that must match>" "<list of regexes that must not>")
#
# Sets <out-var> to the problems found, one "\n  ..." line each, or to an empty string.

function(output_problems out code expected output matches rejects)
  set(problems "")
  if(NOT code MATCHES "^(${expected})$")
    string(APPEND problems "\n  exit code ${code}, expected ${expected}")
  endif()
  foreach(regex IN LISTS matches)
    if(NOT output MATCHES "${regex}")
      string(APPEND problems "\n  output does not match: ${regex}")
    endif()
  endforeach()
  foreach(regex IN LISTS rejects)
    if(output MATCHES "${regex}")
      string(APPEND problems "\n  output matches what it must not: ${regex}")
    endif()
  endforeach()
  set(${out} "${problems}" PARENT_SCOPE)
endfunction()

# step(<name> EXIT <code> [MATCH <regex>...] [NO_MATCH <regex>...] ARGS <runner args...>)
# Runs ${RUNNER} on the course ${course} with the build folder ${step_build_dir} and the progress
# file ${step_state}; shows its output, adds its problems to `failures` and keeps its output in
# `last_output` (both in the caller's scope).
function(step name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "EXIT" "MATCH;NO_MATCH;ARGS")
  execute_process(
    COMMAND "${RUNNER}" --root "${course}" --build-dir "${step_build_dir}" --state "${step_state}"
            --color=never ${ARG_ARGS}
    RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output INPUT_FILE /dev/null)
  string(REPLACE ";" " " shown "${ARG_ARGS}")
  message("--- ${name}: torchlings ${shown}\n${output}(exit code ${code})")
  output_problems(problems "${code}" "${ARG_EXIT}" "${output}" "${ARG_MATCH}" "${ARG_NO_MATCH}")
  if(problems)
    set(failures "${failures}\n${name}:${problems}" PARENT_SCOPE)
  endif()
  set(last_output "${output}" PARENT_SCOPE)
endfunction()
