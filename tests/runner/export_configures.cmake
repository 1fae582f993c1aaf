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
foreach(left_out IN ITEMS solutions .ci)
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
file(REMOVE_RECURSE "${WORK}")
