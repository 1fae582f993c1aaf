# cmake -D DEMO=<lesson binary> -D "README=<README.md>[|<README.ko.md>...]"
#       [-D LAUNCH=<launcher|args>] -P CheckReadmeOutput.cmake
#
# Fails when the output a lesson's README shows and the demo's real output have drifted apart in
# structure. The demo runs once; every page given (the English README and its translations, '|'
# between them) is held to that one output. A README marks its shown output with a line
# `<!-- demo-output -->` directly above a ```text fence (exactly one per README: the run on a
# machine without a GPU). Both outputs are reduced to their skeleton: a line "Key: value" becomes
# "Key:", any other line keeps its text with digits replaced by '#'. Sections whose header starts
# with "== GPU" repeat once per GPU, so they are dropped from both sides. A run of "- " bullets
# counts as one line (their text is free). The skeletons must then be equal, line by line.
#
# A README may also show a whole run on a real GPU under `<!-- gpu-output -->` (same fence rules).
# Its values are that machine's, but with its GPU sections dropped its skeleton must equal the
# demo's too, so that it cannot silently drift either. Excerpts of GPU runs go in fences without
# a marker and are not checked.
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

# The ```text fence right after the marker at offset `at` in `readme`, without its first line
# when that is the command itself ("$ ./torchlings run 01").
function(fence_after readme at marker out_var)
  string(SUBSTRING "${readme}" ${at} -1 rest)
  if(NOT rest MATCHES "^${marker}[ \t\r]*\n```text[ \t\r]*\n")
    message(FATAL_ERROR "${README}: expected a ```text fence right after ${marker}")
  endif()
  string(REGEX REPLACE "^${marker}[ \t\r]*\n```text[ \t\r]*\n" "" rest "${rest}")
  string(FIND "${rest}" "\n```" fence_end)
  if(fence_end EQUAL -1)
    message(FATAL_ERROR "${README}: the ```text fence after ${marker} is never closed")
  endif()
  string(SUBSTRING "${rest}" 0 ${fence_end} shown)
  string(REGEX REPLACE "^\\$[^\n]*\n" "" shown "${shown}")
  set(${out_var} "${shown}" PARENT_SCOPE)
endfunction()

# Offsets of every occurrence of `marker` in `text`.
function(find_all text marker out_var)
  set(offsets "")
  set(base 0)
  string(LENGTH "${marker}" marker_length)
  while(TRUE)
    string(FIND "${text}" "${marker}" at)
    if(at EQUAL -1)
      break()
    endif()
    math(EXPR absolute "${base} + ${at}")
    list(APPEND offsets ${absolute})
    math(EXPR skip "${at} + ${marker_length}")
    string(SUBSTRING "${text}" ${skip} -1 text)
    math(EXPR base "${base} + ${skip}")
  endwhile()
  set(${out_var} "${offsets}" PARENT_SCOPE)
endfunction()

# Compares the skeleton of `shown` with `actual_skeleton`; `what` names the block in messages.
function(compare_with_demo shown actual_skeleton actual what)
  skeleton("${shown}" shown_skeleton)
  list(LENGTH shown_skeleton n_shown)
  list(LENGTH actual_skeleton n_actual)
  set(i 0)
  while(i LESS n_shown AND i LESS n_actual)
    list(GET shown_skeleton ${i} s)
    list(GET actual_skeleton ${i} a)
    if(NOT s STREQUAL a)
      math(EXPR line "${i} + 1")
      message(FATAL_ERROR "${what} and demo output differ at skeleton line ${line}:\n"
                          "  README shows: ${s}\n  demo prints:  ${a}\n"
                          "Update the README's shown output (run the lesson and paste it).\n"
                          "Demo output was:\n${actual}")
    endif()
    math(EXPR i "${i} + 1")
  endwhile()
  if(NOT n_shown EQUAL n_actual)
    message(FATAL_ERROR "${what} shows ${n_shown} structural lines, the demo prints ${n_actual}. "
                        "Update the README's shown output.\nDemo output was:\n${actual}")
  endif()
endfunction()

# Each page (a path) read: its text in the caller's `text_<n>`, its shown output in `shown_<n>`.
function(read_pages)
  set(n 0)
  foreach(README IN LISTS ARGN)
    if(NOT EXISTS "${README}")
      message(FATAL_ERROR "README not found: ${README}")
    endif()
    file(READ "${README}" readme)
    find_all("${readme}" "<!-- demo-output -->" demo_markers)
    list(LENGTH demo_markers n_demo)
    if(n_demo EQUAL 0)
      message(FATAL_ERROR "${README}: expected a line <!-- demo-output --> above the shown output")
    elseif(n_demo GREATER 1)
      message(FATAL_ERROR "${README}: <!-- demo-output --> appears ${n_demo} times; mark only the "
                          "run without a GPU with it (a whole GPU run takes <!-- gpu-output -->)")
    endif()
    fence_after("${readme}" ${demo_markers} "<!-- demo-output -->" shown)
    set(text_${n} "${readme}" PARENT_SCOPE)
    set(shown_${n} "${shown}" PARENT_SCOPE)
    math(EXPR n "${n} + 1")
  endforeach()
endfunction()

string(REPLACE "|" ";" readmes "${README}")
if(NOT readmes)
  message(FATAL_ERROR "no README given: -D README=<lesson README.md>[|<translation>...]")
endif()
# Every page is read before the demo runs: a page without its marked output fails at once.
read_pages(${readmes})

# LAUNCH (optional): the launcher that starts the demo, its arguments separated by '|' (lessons
# run as a job of several processes: torchrun ... --nproc-per-node=N).
set(command "${DEMO}")
if(LAUNCH)
  string(REPLACE "|" ";" command "${LAUNCH}")
  list(APPEND command "${DEMO}")
endif()
execute_process(COMMAND ${command} OUTPUT_VARIABLE actual ERROR_VARIABLE errors
                RESULT_VARIABLE rc TIMEOUT 100)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${command} exited with ${rc}:\n${actual}\n${errors}")
endif()

skeleton("${actual}" actual_skeleton)
list(LENGTH actual_skeleton n_actual)
set(page 0)
foreach(README IN LISTS readmes)
  cmake_path(GET README FILENAME name)
  compare_with_demo("${shown_${page}}" "${actual_skeleton}" "${actual}"
                    "${name} (<!-- demo-output -->)")
  find_all("${text_${page}}" "<!-- gpu-output -->" gpu_markers)
  set(n_gpu 0)
  foreach(at IN LISTS gpu_markers)
    fence_after("${text_${page}}" ${at} "<!-- gpu-output -->" gpu_shown)
    math(EXPR n_gpu "${n_gpu} + 1")
    compare_with_demo("${gpu_shown}" "${actual_skeleton}" "${actual}"
                      "${name} (<!-- gpu-output --> number ${n_gpu})")
  endforeach()
  message(STATUS "${name}: output matches the demo (${n_actual} structural lines; "
                 "${n_gpu} GPU run(s) checked too)")
  math(EXPR page "${page} + 1")
endforeach()
