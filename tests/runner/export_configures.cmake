# @file
# export_configures.cmake: a learner copy of the course (`export --learner`) must configure and
# build on its own, without solutions/, with the preset a student's first command uses: it has the
# exercise targets, no solution tests, the
# catalogue of mistakes without its diffs, and its own runner accepts its own tests
# (check --verify-tests).
#
#   cmake -DRUNNER=<torchlings-runner> -DROOT=<course> -DWORK=<scratch folder>
#         -DTORCH_DIR=<folder of TorchConfig.cmake> -DGENERATOR=<generator> -P export_configures.cmake

foreach(var RUNNER ROOT WORK TORCH_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "export_configures.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run_or_fail what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${output}")
  endif()
  set(last_output "${output}" PARENT_SCOPE)
endfunction()

set(copy "${WORK}/course")
set(build "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")
run_or_fail("export" "${RUNNER}" --root "${ROOT}" --color=never export --learner "${copy}")
foreach(left_out IN ITEMS solutions .ci .github)
  if(EXISTS "${copy}/${left_out}")
    message(FATAL_ERROR "the learner copy has a ${left_out}/ folder")
  endif()
endforeach()

# What `check` says of a known mistake goes along; the diffs, which would show the solution, don't.
set(notes "${copy}/exercises/01_availability/mistakes/choose_device.md")
if(NOT EXISTS "${notes}")
  message(FATAL_ERROR "the learner copy has no ${notes}")
endif()
file(READ "${notes}" text)
if(NOT text MATCHES "\n## always_cpu: " OR NOT text MATCHES "\ncaught by:" OR text MATCHES "```diff")
  message(FATAL_ERROR "the learner copy's catalogue should keep the titles and signatures and "
                      "drop the diffs:\n${text}")
endif()

# Configured as a student's first command configures it (the wrapper's preset, benchmarks and
# all): every CMakeLists.txt of the copy must find its sources without solutions/.
run_or_fail("configuring the learner copy with the students' preset"
  "${CMAKE_COMMAND}" -E chdir "${copy}"
  "${CMAKE_COMMAND}" --preset dev -B "${build}" -G "${GENERATOR}" "-DTorch_DIR=${TORCH_DIR}")
if(NOT last_output MATCHES "bench_data_parallel: not built")
  message(FATAL_ERROR "configure should say that bench_data_parallel is left out:\n${last_output}")
endif()
run_or_fail("building the learner copy's runner"
  "${CMAKE_COMMAND}" --build "${build}" --target torchlings-runner)
run_or_fail("listing its targets" "${CMAKE_COMMAND}" --build "${build}" --target help)
if(NOT last_output MATCHES "ex_count_devices" OR last_output MATCHES "ex_count_devices_solution")
  message(FATAL_ERROR "the learner copy should have ex_count_devices and no solution targets:\n"
                      "${last_output}")
endif()
run_or_fail("listing its tests" "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -N -L solution)
if(NOT last_output MATCHES "Total Tests: 0")
  message(FATAL_ERROR "the learner copy has solution tests:\n${last_output}")
endif()
run_or_fail("check --verify-tests in the learner copy"
  "${build}/bin/torchlings-runner" --root "${copy}" --build-dir "${build}" --color=never
  check --verify-tests)
message("${last_output}")
if(NOT last_output MATCHES "verify-tests: ok")
  message(FATAL_ERROR "verify-tests did not accept the learner copy's own tests")
endif()

# One assignment per unit: `--lessons 01-02,05` takes those lessons' exercises and tests only;
# every lesson's page and program stay, the stubs' hashes and the graders' list of learner files
# shrink with it, and the copy's own tests still verify.
set(part "${WORK}/part")
run_or_fail("export --lessons" "${RUNNER}" --root "${ROOT}" --color=never export --learner "${part}"
  --lessons 01-02,05)
if(NOT last_output MATCHES "the exercises of lessons 01, 02, 05 only: ([0-9]+) of ([0-9]+)")
  message(FATAL_ERROR "export --lessons should say which lessons' exercises went along:\n"
                      "${last_output}")
endif()
file(GLOB kept LIST_DIRECTORIES true RELATIVE "${part}" "${part}/exercises/[0-9]*"
     "${part}/tests/exercises/[0-9]*")
list(SORT kept)
set(expected exercises/01_availability exercises/02_devices exercises/05_memory
    tests/exercises/01_availability tests/exercises/02_devices tests/exercises/05_memory)
if(NOT kept STREQUAL expected)
  message(FATAL_ERROR "export --lessons 01-02,05 kept ${kept}, not ${expected}")
endif()
foreach(lesson IN ITEMS 03_tensor_movement 10_distributed)
  if(NOT EXISTS "${part}/lessons/${lesson}/README.md")
    message(FATAL_ERROR "export --lessons left out lessons/${lesson}/: pages and programs stay")
  endif()
endforeach()
foreach(file IN ITEMS exercises/pristine.json exercises/index.json
                      graders/classroom50/autograder.py graders/gradescope/run_autograder)
  file(READ "${part}/${file}" text)
  if(NOT text MATCHES "exercises/05_memory/" OR text MATCHES "exercises/03_tensor_movement/")
    message(FATAL_ERROR "${file} of export --lessons 01-02,05 should name lesson 05's exercise "
                        "files and none of lesson 03's:\n${text}")
  endif()
endforeach()
# The record of the solutions' assertions keeps the exercises that went along, and no others.
file(READ "${part}/tests/exercises/assertion_counts.json" counts)
if(NOT counts MATCHES "\"choose_device\"" OR NOT counts MATCHES "\"peak_tracker\""
   OR counts MATCHES "\"same_device_add\"" OR counts MATCHES "\"snapshot_resume\"")
  message(FATAL_ERROR "the record of export --lessons 01-02,05 should count lessons 01 and 05's "
                      "exercises and none of lessons 03 and 10's:\n${counts}")
endif()
# The copy's index is the one `dev index` writes for it: no exercise whose info.md stayed behind.
run_or_fail("dev index --check in the copy of three lessons" "${RUNNER}" --root "${part}"
  --color=never dev index --check)
run_or_fail("check --verify-tests in the copy of three lessons" "${RUNNER}" --root "${part}"
  --build-dir "${WORK}/part-build" --state "${WORK}/part-state.json" --color=never
  check --verify-tests)
if(NOT last_output MATCHES "verify-tests: ok")
  message(FATAL_ERROR "verify-tests did not accept the copy of three lessons:\n${last_output}")
endif()
# Refused before anything is written: a backward range, a lesson the course lacks, a stray comma,
# and, from the three-lesson copy, a lesson whose exercises it does not have.
foreach(spec IN ITEMS "${ROOT}|03-01" "${ROOT}|11" "${ROOT}|,01" "${ROOT}|01," "${part}|03")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 course)
  list(GET spec 1 spec)
  execute_process(COMMAND "${RUNNER}" --root "${course}" --color=never export
                          --learner "${WORK}/refused" --lessons "${spec}"
                  RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT code EQUAL 64 OR EXISTS "${WORK}/refused")
    message(FATAL_ERROR "export --lessons '${spec}' should be refused (exit 64) before it "
                        "writes anything; it exited ${code}:\n${output}")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
