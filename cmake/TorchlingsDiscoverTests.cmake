# Registers the Catch2 test cases of a test executable with CTest, with a list of labels and a
# skip pattern:
#  - the cases that run anywhere form ONE CTest test, `<prefix><n> cases`, one process that runs
#    exactly the cases listed (by name). Each process pays LibTorch's start (about 0.4 s of CPU,
#    most of it registering operators), so one per program rather than one per case keeps
#    `./torchlings test` short: 308 case processes of the exercise solutions took 130 s of CPU.
#    Catch2 names each failing case in the output that CTest shows on failure. A case among them
#    that skips (TL_SKIP) fails the test: only [gpu] cases may skip, so the tag is missing. So
#    does a case that runs no assertion (--warn NoAssertions): the runner refuses a learner's
#    pass with none (a test body patched to return), which holds only while every case has one.
#  - each case tagged [gpu] is its own CTest test, `<prefix><case name>`, with the extra label
#    "gpu", reported skipped where there is no GPU: one such case skipping cannot hide another
#    one failing.
# Catch2's catch_discover_tests (v2's and v3's) has neither split, and v2's splits list-valued
# PROPERTIES in its generated file, losing all labels but the first; this helper writes the file
# itself, from the course main's own listing, which is the same with Catch2 v2 and v3. Discovery
# runs after each link, so ctest always sees the cases of the binary that exists.
# A test spec part that matches no case makes the program exit non-zero with either version
# (tests/support/catch_main.cpp), so a case that this file names but the program does not know
# fails its test instead of passing unseen.

set(_TORCHLINGS_DISCOVER_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

# torchlings_discover_tests(<target> PREFIX <text> LABELS <label>... [TIMEOUT <s>])
function(torchlings_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "PREFIX;TIMEOUT" "LABELS")
  # A cross build (cmake/toolchains/) makes programs that this machine cannot start: nothing to
  # list, and nothing for ctest to run.
  if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
    return()
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  string(REPLACE ";" "," labels_csv "${ARG_LABELS}")
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "EXE=$<TARGET_FILE:${target}>" -D "TARGET=${target}"
            -D "PREFIX=${ARG_PREFIX}" -D "LABELS=${labels_csv}" -D "TIMEOUT=${ARG_TIMEOUT}"
            -D "OUT=${ctest_file}" -D "WORKDIR=${CMAKE_CURRENT_BINARY_DIR}"
            -P "${_TORCHLINGS_DISCOVER_SCRIPT}"
    VERBATIM)
  # A new version of this file relinks the program, so that its cases are registered anew.
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_TORCHLINGS_DISCOVER_SCRIPT}")
  # Until the first build the file does not exist: say so in ctest instead of showing nothing.
  set(include_text "if(EXISTS [==[${ctest_file}]==])\n  include([==[${ctest_file}]==])\nelse()\n")
  string(APPEND include_text "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\nendif()\n")
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake"
       CONTENT "${include_text}" @ONLY)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES
               "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
endfunction()

# --- Script mode: list the cases of EXE and write OUT. ---
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED EXE)
  cmake_policy(VERSION 3.25)
  # One start of the program lists every case with its kind (tests/support/catch_main.cpp):
  # "gpu" or "any", a tab, the name.
  execute_process(COMMAND "${EXE}" --list-cases-for-ctest
                  OUTPUT_VARIABLE output RESULT_VARIABLE rc TIMEOUT 60)
  if(rc LESS 0 OR rc MATCHES "[a-zA-Z]")
    message(FATAL_ERROR "listing the test cases of ${EXE} failed: ${rc}")
  endif()
  string(REPLACE ";" "\\;" output "${output}")
  string(REPLACE "\n" ";" lines "${output}")
  set(all_cases "")
  set(gpu_cases "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^(gpu|any)\t(.+)$")
      list(APPEND all_cases "${CMAKE_MATCH_2}")
      if(CMAKE_MATCH_1 STREQUAL "gpu")
        list(APPEND gpu_cases "${CMAKE_MATCH_2}")
      endif()
    endif()
  endforeach()
  # A program that never started (127: a library not found or not loadable) or that exits before
  # main() (a static initialiser that calls exit) lists nothing: no case at all is that failure,
  # and registering nothing would hide every case of the program.
  if(NOT all_cases)
    message(FATAL_ERROR "listing the test cases of ${EXE} gave none (exit code ${rc}): "
                        "run it by hand to see why it does not start")
  endif()
  string(REPLACE "," ";" labels "${LABELS}")
  # Catch2's test spec parser (the same in v2.13 and v3) reads \ , [ ] as syntax anywhere in a
  # name, and ~ " at its start: escape them (a backslash escapes the next character) to select
  # exactly one case by name. (A * in the middle of a name is literal; no course case name starts
  # or ends with one, nor starts with -, a space or "exclude:", which no escape can neutralise.)
  function(case_spec name out_var)
    string(REPLACE "\\" "\\\\" name "${name}")
    foreach(char , [ ])
      string(REPLACE "${char}" "\\${char}" name "${name}")
    endforeach()
    if(name MATCHES "^[~\"]")
      string(PREPEND name "\\")
    endif()
    set(${out_var} "${name}" PARENT_SCOPE)
  endfunction()
  set(content "# Generated from ${EXE} after its last link; do not edit.\n")
  set(anywhere_specs "")
  set(anywhere_count 0)
  foreach(name IN LISTS all_cases)
    case_spec("${name}" spec)
    if(name IN_LIST gpu_cases)
      set(case_labels "${labels}")
      list(APPEND case_labels gpu)
      string(APPEND content
        "add_test([==[${PREFIX}${name}]==] [==[${EXE}]==] [==[${spec}]==])\n"
        "set_tests_properties([==[${PREFIX}${name}]==] PROPERTIES WORKING_DIRECTORY [==[${WORKDIR}]==]"
        " LABELS [==[${case_labels}]==] TIMEOUT ${TIMEOUT} SKIP_REGULAR_EXPRESSION [==[TL_SKIP: ]==])\n")
    else()
      # A comma between names is Catch2's "or"; list() would split at the ; that case_spec keeps.
      if(anywhere_count EQUAL 0)
        set(anywhere_specs "${spec}")
      else()
        string(APPEND anywhere_specs ",${spec}")
      endif()
      math(EXPR anywhere_count "${anywhere_count} + 1")
    endif()
  endforeach()
  if(anywhere_count GREATER 0)
    if(anywhere_count EQUAL 1)
      set(group "${PREFIX}1 case")
    else()
      set(group "${PREFIX}${anywhere_count} cases")
    endif()
    # Each case keeps its own time limit: the group's is their sum.
    math(EXPR group_timeout "${TIMEOUT} * ${anywhere_count}")
    string(APPEND content
      "add_test([==[${group}]==] [==[${EXE}]==] [==[${anywhere_specs}]==] --warn NoAssertions)\n"
      "set_tests_properties([==[${group}]==] PROPERTIES WORKING_DIRECTORY [==[${WORKDIR}]==]"
      " LABELS [==[${labels}]==] TIMEOUT ${group_timeout} FAIL_REGULAR_EXPRESSION [==[TL_SKIP: ]==])\n")
  endif()
  file(WRITE "${OUT}" "${content}")
endif()
