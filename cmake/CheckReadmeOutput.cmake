# cmake -D DEMO=<lesson binary> -D README=<lesson README.md> -P CheckReadmeOutput.cmake
#
# Fails when the output a lesson's README shows and the demo's real output have drifted apart in
# structure. The README marks its shown output with a line `<!-- demo-output -->` directly above a
# ```text fence. Both outputs are reduced to their skeleton: a line "Key: value" becomes "Key:",
# any other line keeps its text with digits replaced by '#'. Sections whose header starts with
# "== GPU" repeat once per GPU, so they are dropped from both sides (the README is written on a
# machine without one). A run of "- " bullets counts as one line (their text is free). The
# skeletons must then be equal, line by line.
cmake_minimum_required(VERSION 3.25)

function(skeleton text out_var)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(result "")
  set(in_gpu_section FALSE)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "[ \t\r]+$" "" line "${line}")
    if(line STREQUAL "")
      continue()
    endif()
    if(line MATCHES "^== ")
      if(line MATCHES "^== GPU")
        set(in_gpu_section TRUE)
        continue()
      endif()
      set(in_gpu_section FALSE)
    endif()
    if(in_gpu_section)
      continue()
    endif()
    if(line MATCHES "^- ")
      # Bullets are free text (explanations that depend on the machine); keep one per run.
      list(LENGTH result n)
      if(n GREATER 0)
        list(GET result -1 previous)
        if(previous STREQUAL "- ...")
          continue()
        endif()
      endif()
      list(APPEND result "- ...")
    elseif(line MATCHES "^([^:]+):")
      string(REGEX REPLACE "[ \t]+$" "" key "${CMAKE_MATCH_1}")
      list(APPEND result "${key}:")
    else()
      string(REGEX REPLACE "[0-9]+" "#" line "${line}")
      list(APPEND result "${line}")
    endif()
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

if(NOT EXISTS "${README}")
  message(FATAL_ERROR "README not found: ${README}")
endif()
file(READ "${README}" readme)
string(FIND "${readme}" "<!-- demo-output -->" marker)
if(marker EQUAL -1)
  message(FATAL_ERROR "${README}: expected a line <!-- demo-output --> above the shown output")
endif()
string(SUBSTRING "${readme}" ${marker} -1 rest)
if(NOT rest MATCHES "<!-- demo-output -->[ \t\r]*\n```text[ \t\r]*\n")
  message(FATAL_ERROR "${README}: expected a ```text fence right after <!-- demo-output -->")
endif()
string(REGEX REPLACE "^<!-- demo-output -->[ \t\r]*\n```text[ \t\r]*\n" "" rest "${rest}")
string(FIND "${rest}" "\n```" fence_end)
if(fence_end EQUAL -1)
  message(FATAL_ERROR "${README}: the ```text fence after <!-- demo-output --> is never closed")
endif()
string(SUBSTRING "${rest}" 0 ${fence_end} shown)
# The first shown line is the command itself ("$ ./torchlings run 01"): not program output.
string(REGEX REPLACE "^\\$[^\n]*\n" "" shown "${shown}")

execute_process(COMMAND "${DEMO}" OUTPUT_VARIABLE actual ERROR_VARIABLE errors
                RESULT_VARIABLE rc TIMEOUT 100)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DEMO} exited with ${rc}:\n${actual}\n${errors}")
endif()

skeleton("${shown}" shown_skeleton)
skeleton("${actual}" actual_skeleton)
list(LENGTH shown_skeleton n_shown)
list(LENGTH actual_skeleton n_actual)
set(i 0)
while(i LESS n_shown AND i LESS n_actual)
  list(GET shown_skeleton ${i} s)
  list(GET actual_skeleton ${i} a)
  if(NOT s STREQUAL a)
    math(EXPR line "${i} + 1")
    message(FATAL_ERROR "README and demo output differ at skeleton line ${line}:\n"
                        "  README shows: ${s}\n  demo prints:  ${a}\n"
                        "Update the README's shown output (run the lesson and paste it).\n"
                        "Demo output was:\n${actual}")
  endif()
  math(EXPR i "${i} + 1")
endwhile()
if(NOT n_shown EQUAL n_actual)
  message(FATAL_ERROR "README shows ${n_shown} structural lines, the demo prints ${n_actual}. "
                      "Update the README's shown output.\nDemo output was:\n${actual}")
endif()
message(STATUS "README output matches the demo (${n_actual} structural lines)")
