# @file
# dev_new.cmake: `dev new` on a fresh copy of the fixture course: it writes the exercise's files
# and entries, the course then lists the new exercise, and it refuses (writing nothing) an id the
# course has, an id that is not one, and a file in the way.
# Then on a copy of this course with one lesson: the runner's help shows `dev`; a new exercise
# passes `dev check`; built as the ci preset builds it (the exercise alone, no LibTorch:
# dev_new_build/), its stub fails its test by assertion, its solution passes, and the test catches
# the example mistake of its catalogue with the signature recorded there; last, `dev check` fails
# on Given code that the stub and the solution give differently.
#
#   cmake -DRUNNER=<torchlings-runner> -DFIXTURES=<fixture course> -DWORK=<scratch>
#         -DSOURCE_ROOT=<this course> -DCATCH_MAIN=<libtorchlings_catch_main.a>
#         "-DCATCH_MAIN_INCLUDES=<its include folders>" [-DGENERATOR=<generator>]
#         [-DCXX_COMPILER=<compiler>] [-DCATCH2_DIR=<Catch2's CMake folder>] -P dev_new.cmake

foreach(var RUNNER FIXTURES WORK SOURCE_ROOT CATCH_MAIN CATCH_MAIN_INCLUDES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "dev_new.cmake: -D${var}=... is required")
  endif()
endforeach()
set(course "${WORK}/course")
file(REMOVE_RECURSE "${WORK}")
file(COPY "${FIXTURES}/" DESTINATION "${course}")
include("${CMAKE_CURRENT_LIST_DIR}/output_problems.cmake")
set(failures "")
set(step_build_dir "${WORK}/no-build")
set(step_state "${WORK}/state.json")

function(tree_digest out)
  file(GLOB_RECURSE files RELATIVE "${course}" "${course}/*")
  list(SORT files)
  set(all "")
  foreach(file IN LISTS files)
    file(SHA256 "${course}/${file}" hash)
    string(APPEND all "${file} ${hash}\n")
  endforeach()
  set(${out} "${all}" PARENT_SCOPE)
endfunction()

step(new EXIT 0 MATCH "created exercises/00_fixtures/fx_new.cpp"
     "created tests/exercises/00_fixtures/fx_new_test.cpp" "edited +exercises/00_fixtures/info.md"
     ARGS dev new 00 fx_new)
foreach(file exercises/00_fixtures/fx_new.cpp solutions/00_fixtures/fx_new.cpp
             tests/exercises/00_fixtures/fx_new_test.cpp tests/exercises/00_fixtures/fx_new.h
             solutions/00_fixtures/mistakes/fx_new.md)
  if(NOT EXISTS "${course}/${file}")
    string(APPEND failures "\nnew: ${file} was not written")
  endif()
endforeach()
file(READ "${course}/exercises/00_fixtures/fx_new.cpp" stub)
if(NOT stub MATCHES "// TODO: " OR NOT stub MATCHES "TL_TODO\\(")
  string(APPEND failures "\nnew: the stub has no TODO line or no TL_TODO")
endif()
file(READ "${course}/exercises/pristine.json" pristine)
if(NOT pristine MATCHES "exercises/00_fixtures/fx_new.cpp")
  string(APPEND failures "\nnew: pristine.json does not list the new stub")
endif()
step(listed EXIT 0 MATCH "fx_new +TODO\\(author\\) title" ARGS list)
step(pristine_agrees EXIT 0 MATCH "pristine: ok" ARGS pristine)

tree_digest(before)
step(existing_id EXIT 64 MATCH "already has an exercise fx_new" ARGS dev new 00 fx_new)
step(bad_id EXIT 64 MATCH "is not an exercise id" ARGS dev new 00 Fx-New)
file(WRITE "${course}/tests/exercises/00_fixtures/fx_other_test.cpp" "// in the way\n")
tree_digest(before)
step(file_in_way EXIT 3 MATCH "fx_other_test.cpp already exists. nothing was written"
     ARGS dev new 00 fx_other)
tree_digest(after)
if(NOT before STREQUAL after)
  string(APPEND failures "\nfile_in_way: the course changed although dev new refused")
endif()

# --- A new exercise passes the course's checks and its proofs ---
step(help EXIT 0 MATCH "\n +dev +Maintainers: dev new" ARGS --help)

# A copy of this course with one lesson (what the course's checks read, and that lesson's files),
# so that work in progress elsewhere in the course cannot fail it; its pristine.json lists the
# lesson's stubs.
set(course "${WORK}/this_course")
set(lesson 01_availability)
foreach(part CMakeLists.txt CMakePresets.json cmake docs lessons/${lesson} exercises/${lesson}
             solutions/${lesson} tests/exercises/${lesson})
  get_filename_component(parent "${course}/${part}" DIRECTORY)
  file(COPY "${SOURCE_ROOT}/${part}" DESTINATION "${parent}")
endforeach()
step(pristine_here EXIT 0 ARGS pristine --write)
set(id scaffolded)
step(new_here EXIT 0 MATCH "created solutions/${lesson}/mistakes/${id}.md" ARGS dev new 01 ${id})
step(check_here EXIT 0 MATCH "ok +course layout" "ok +course text" "ok +Korean pages"
     "ok +the stubs' Given code" "pristine: ok" NO_MATCH "FAIL" ARGS dev check)

# Its stub, solution and mistakes built as the ci preset builds them, then proven as its tests
# prove them: verify-stub, the solution's program and its assertions, verify-mistake for each
# mistake.
set(build "${WORK}/build")
set(configure "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/dev_new_build" -B "${build}"
    -DCMAKE_BUILD_TYPE=Release "-DCOURSE=${course}" "-DLESSON=${lesson}" "-DEXERCISE=${id}"
    "-DCATCH_MAIN=${CATCH_MAIN}")
if(GENERATOR)
  list(APPEND configure -G "${GENERATOR}")
endif()
if(CXX_COMPILER)
  list(APPEND configure "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
if(CATCH2_DIR)
  list(APPEND configure "-DCatch2_DIR=${CATCH2_DIR}")
endif()
# (A list in one argument: quoted here, since the list `configure` would split it.)
execute_process(COMMAND ${configure} "-DCATCH_MAIN_INCLUDES=${CATCH_MAIN_INCLUDES}"
                RESULT_VARIABLE code OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(code EQUAL 0)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target proofs
                  RESULT_VARIABLE code OUTPUT_VARIABLE log ERROR_VARIABLE log)
endif()
if(NOT code EQUAL 0)
  message("${log}")
  string(APPEND failures "\nbuild: the new exercise does not configure or build (above)")
else()
  set(step_build_dir "${build}")
  step(stub_fails EXIT 0 MATCH "verify-stub ${id}: ok, 1 case fails" ARGS verify-stub ${id})
  execute_process(COMMAND "${build}/bin/ex_${id}_solution" RESULT_VARIABLE code
                  OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message("--- solution_passes: ex_${id}_solution\n${output}(exit code ${code})")
  if(NOT code EQUAL 0)
    string(APPEND failures "\nsolution_passes: ex_${id}_solution exits with ${code}")
  endif()
  # Its cases' assertions recorded, then proven current (as its <id>/solution_assertions test
  # does in the ci preset).
  step(solution_recorded EXIT 0 MATCH "verify-solution ${id}: ok" "recorded in"
       ARGS verify-solution --record ${id})
  step(solution_verified EXIT 0 MATCH "verify-solution ${id}: ok" NO_MATCH "recorded in"
       ARGS verify-solution ${id})
  file(READ "${build}/slugs.txt" slugs)
  if(NOT slugs)
    string(APPEND failures "\nmistakes: the catalogue of ${id} has no mistake")
  endif()
  foreach(slug IN LISTS slugs)
    step(mistake_${slug}_caught EXIT 0 MATCH "verify-mistake ${id}/${slug}: ok, caught by"
         NO_MATCH "TL_SKIP" "no signature recorded yet" ARGS verify-mistake ${id} ${slug})
  endforeach()
  set(step_build_dir "${WORK}/no-build")
endif()

# Given code that the stub and the solution give differently: dev check names the exercise, both
# files and the first line that differs.
file(APPEND "${course}/exercises/${lesson}/${id}.cpp"
     "\n// Given: a helper.\nint helper() { return 1; }\n")
file(APPEND "${course}/solutions/${lesson}/${id}.cpp"
     "\n// Given: a helper.\nint helper() { return 2; }\n")
step(given_differs EXIT 1 MATCH "FAIL +the stubs' Given code"
     "${id}: the Given code of exercises/${lesson}/${id}.cpp \\(from line [0-9]+\\) is not solutions/${lesson}/${id}.cpp's"
     "stub +line [0-9]+: int helper\\(\\) { return 1"
     "solution line [0-9]+: int helper\\(\\) { return 2"
     ARGS dev check)

if(failures)
  message(FATAL_ERROR "dev new:${failures}")
endif()
