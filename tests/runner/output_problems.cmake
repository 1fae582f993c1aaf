# @file
# output_problems.cmake: the one check behind expect.cmake and learner_flow.cmake.
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
