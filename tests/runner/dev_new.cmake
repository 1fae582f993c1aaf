# @file
# dev_new.cmake: `dev new` on a fresh copy of the fixture course: it writes the exercise's files
# and entries, the course then lists the new exercise, and it refuses (writing nothing) an id the
# course has, an id that is not one, and a file in the way.
#
#   cmake -DRUNNER=<torchlings-runner> -DFIXTURES=<fixture course> -DWORK=<scratch> -P dev_new.cmake

foreach(var RUNNER FIXTURES WORK)
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
             tests/exercises/00_fixtures/fx_new_test.cpp tests/exercises/00_fixtures/fx_new.h)
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

if(failures)
  message(FATAL_ERROR "dev new:${failures}")
endif()
