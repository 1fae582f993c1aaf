# @file
# expect.cmake: runs one command and checks its exit code and its output, for end-to-end tests
# of the runner that need both (CTest alone checks one or the other). No Python needed.
#
#   cmake -P expect.cmake -- EXIT_CODE <regex>            e.g. 0, or 0|3
#                            [MATCH <regex>]...            each must occur in stdout+stderr
#                            [NO_MATCH <regex>]...         none may occur
#                            [BUILD <build-dir> <target>]  built first (cmake --build)
#                            RUN <program> [<arg>...]      everything after RUN
#
# Regexes are CMake regexes; they may not contain ';'. The keyword is RUN, not COMMAND,
# because add_test() reserves COMMAND.

set(expected_code "")
set(matches "")
set(rejects "")
set(build_dir "")
set(build_target "")
set(command "")

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
  elseif(arg MATCHES "^(EXIT_CODE|MATCH|NO_MATCH|BUILD|RUN)$")
    set(mode "${arg}")
  else()
    message(FATAL_ERROR "expect.cmake: unexpected argument '${arg}'; expected EXIT_CODE, MATCH, "
                        "NO_MATCH, BUILD or RUN")
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

string(REPLACE ";" " " shown_command "${command}")
execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("$ ${shown_command}\n${output}(exit code ${code})")

set(problems "")
if(NOT code MATCHES "^(${expected_code})$")
  string(APPEND problems "\n  exit code ${code}, expected ${expected_code}")
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
if(problems)
  message(FATAL_ERROR "expect.cmake: ${problems}")
endif()
