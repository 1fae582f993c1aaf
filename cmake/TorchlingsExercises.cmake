# The exercise pipeline. One test source per exercise, compiled ONCE into an object library and
# linked twice: with the learner's file into ex_<id> (built on demand by `torchlings check`) and
# with the reference solution into ex_<id>_solution (default build, registered with CTest).
# Nothing else ever links a learner's file, so a learner's compile error breaks one exercise only.

include(TorchlingsCourse)  # the layout (TorchlingsLayout.cmake), reading info.md, the course check
# The one source of every listing program ex_<id>_cases (below): nothing, since the tests' objects
# and the Catch2 main hold all it runs.
set(TORCHLINGS_CASES_SOURCE "${CMAKE_BINARY_DIR}/torchlings_cases_listing.cpp")
file(CONFIGURE OUTPUT "${TORCHLINGS_CASES_SOURCE}"
     CONTENT "// The listing programs ex_<id>_cases: the tests' objects and the Catch2 main only.\n")

# torchlings_add_exercise(<id> LESSON NN LEARNER file TEST file [SOLUTION file]
#                         [MISTAKES file...] [TIMEOUT s] [NO_TORCH] [NO_CTEST]
#                         [CUDA] [LIBRARIES lib...] [NO_PCH])
# The test side links torchlings::core and LIBRARIES (the lesson's other libraries of common/);
# it reuses <torch/torch.h> precompiled unless NO_PCH (torchlings_add_lesson's).
# Each of MISTAKES (the sources that TorchlingsMistakes.cmake generates from the catalogue's hunks
# in TorchlingsLayout.cmake's kMistakeIndex, one per mistake, named <slug>.cpp) is linked with the tests
# too, into ex_<id>_mistake_<slug>; with TORCHLINGS_STUB_CHECK, CTest proves that the tests catch
# it.
# CUDA (lesson 09): when this build compiles CUDA kernels, the learner's file, the solution and the
# mistakes are compiled by nvcc as CUDA, and the test side sees TL_EXERCISE_CUDA=1; otherwise they
# are plain C++ and TL_EXERCISE_CUDA=0. Their __host__ __device__ bodies are tested on the CPU
# either way.
# The files that the files after `folder` #include with `pattern` (its first group names the
# file, e.g. "<(torchlings/[^>]+)>") and that exist under `folder`, into out_var.
function(_tl_included_files out_var pattern folder)
  set(found "")
  foreach(file IN LISTS ARGN)
    file(STRINGS "${file}" lines REGEX "#include ${pattern}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE ".*#include ${pattern}.*" "\\1" header "${line}")
      if(EXISTS "${folder}/${header}")
        list(APPEND found "${folder}/${header}")
      endif()
    endforeach()
  endforeach()
  set(${out_var} "${found}" PARENT_SCOPE)
endfunction()

function(torchlings_add_exercise id)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_TORCH;NO_CTEST;CUDA;NO_PCH"
                        "LESSON;LEARNER;SOLUTION;TEST;TIMEOUT" "MISTAKES;LIBRARIES")
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${TORCHLINGS_LAYOUT_kDefaultTimeoutS})
  endif()
  get_filename_component(test_dir "${ARG_TEST}" DIRECTORY)

  # The test side: compiled once, whichever file it is later linked with.
  add_library(ex_${id}_tests OBJECT "${ARG_TEST}")
  target_include_directories(ex_${id}_tests PUBLIC "${test_dir}")
  target_link_libraries(ex_${id}_tests PUBLIC torchlings_catch_main PRIVATE torchlings_warnings)
  if(NOT ARG_NO_TORCH)
    target_link_libraries(ex_${id}_tests PUBLIC torchlings_test_support torchlings::core
                                                ${ARG_LIBRARIES} torch)
    if(NOT ARG_NO_PCH)
      torchlings_use_pch(ex_${id}_tests)
    endif()
  endif()

  # The cases the tests declare, listed without the learner's file, for the reports of a file
  # that does not compile: each of its cases must still be listed (and score 0). Catch2 itself
  # names them, from the tests' objects (already built: the runner's build goes on past the
  # learner's error) and the course's Catch2 main, linked with the learner's symbols left
  # unresolved; the program only ever runs with --list-cases-for-ctest, which calls none of
  # them. Not PIE and bound lazily, so that the loader never looks for those symbols. Built by
  # the runner on demand (a link of a second or two), never by default.
  add_executable(ex_${id}_cases "${TORCHLINGS_CASES_SOURCE}")
  target_link_libraries(ex_${id}_cases PRIVATE ex_${id}_tests)
  set_target_properties(ex_${id}_cases PROPERTIES EXCLUDE_FROM_ALL ON POSITION_INDEPENDENT_CODE OFF)
  if(APPLE)
    target_link_options(ex_${id}_cases PRIVATE "LINKER:-undefined,dynamic_lookup")
  else()
    target_link_options(ex_${id}_cases PRIVATE "LINKER:--unresolved-symbols=ignore-all"
                                               "LINKER:-z,lazy" "-no-pie")
  endif()

  # The learner's side: their file plus the tests. Warnings shown, never fatal.
  # The reporter's .preinit_array entry comes first (object sources link before the target's own
  # objects): it takes the run's key before any code of the learner's file runs.
  add_executable(ex_${id} "${ARG_LEARNER}" $<TARGET_OBJECTS:torchlings_reporter_first>)
  target_link_libraries(ex_${id} PRIVATE ex_${id}_tests torchlings_learner_warnings
                                        torchlings_light_optimisation)
  if(NOT TORCHLINGS_STUB_CHECK OR ARG_NO_CTEST)
    set_target_properties(ex_${id} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  # Full RELRO: every library call is bound before main and the table of them is then read-only,
  # so code in the learner's file cannot point the reporter's calls (HMAC, write, close) at its
  # own functions. Mach-O binds its own way; this is for ELF.
  if(NOT APPLE)
    target_link_options(ex_${id} PRIVATE "LINKER:-z,relro" "LINKER:-z,now")
  endif()
  if(ARG_SOLUTION)
    add_executable(ex_${id}_solution "${ARG_SOLUTION}" $<TARGET_OBJECTS:torchlings_reporter_first>)
    target_link_libraries(ex_${id}_solution PRIVATE ex_${id}_tests torchlings_warnings
                                                 torchlings_light_optimisation)
    if(NOT ARG_NO_CTEST)
      # The cases that run anywhere are one CTest test, each [gpu] case its own (label gpu,
      # reported skipped where there is no GPU); see cmake/TorchlingsDiscoverTests.cmake.
      torchlings_discover_tests(ex_${id}_solution PREFIX "${id}/solution/"
        LABELS solution lesson${ARG_LESSON} ${id} TIMEOUT ${ARG_TIMEOUT})
    endif()
  endif()

  # Light learner files (c10, ATen/core and ATen/ops headers) compile in two or three seconds on
  # their own. Files that need torch::nn, the optimizers, the data API, autocast or c10d pull in
  # most of LibTorch (10 to 20 s of CPU). Each takes the precompiled headers that cover it
  # (cmake/TorchlingsLessons.cmake: light for tensors only, modules for the rest; none for
  # files of c10 headers alone, which compile faster than any of them loads). The solution (or,
  # in a learner copy without solutions, the stub), the exercise's API header, the local headers
  # it includes and the course headers (<torchlings/...>) any of them includes decide.
  if(NOT ARG_NO_TORCH)
    if(ARG_SOLUTION)
      set(scanned "${ARG_SOLUTION}")
    else()
      set(scanned "${ARG_LEARNER}")
    endif()
    if(EXISTS "${test_dir}/${id}.h")
      list(APPEND scanned "${test_dir}/${id}.h")
      _tl_included_files(local "\"([^\"]+)\"" "${test_dir}" "${test_dir}/${id}.h")
      list(APPEND scanned ${local})
    endif()
    _tl_included_files(course_headers "<(torchlings/[^>]+)>" "${PROJECT_SOURCE_DIR}/common/include"
                       ${scanned})
    set(heavy FALSE)
    set(tensors FALSE)
    foreach(file IN LISTS scanned course_headers)
      file(STRINGS "${file}" heavy_includes
           REGEX "#include <(torch/(nn|optim|serialize|torch|data|csrc)|ATen/(ATen|autocast_mode)\\.h)")
      file(STRINGS "${file}" tensor_includes REGEX "#include <ATen/")
      if(heavy_includes)
        set(heavy TRUE)
      endif()
      if(tensor_includes)
        set(tensors TRUE)
      endif()
    endforeach()
  endif()

  # The catalogue of mistakes: each one linked with the tests like a learner's file (its
  # warnings shown, never fatal: it is a learner's answer), built by default only for CI.
  set(mistake_targets "")
  foreach(mistake IN LISTS ARG_MISTAKES)
    get_filename_component(slug "${mistake}" NAME_WE)
    set(target ex_${id}_mistake_${slug})
    add_executable(${target} "${mistake}" $<TARGET_OBJECTS:torchlings_reporter_first>)
    target_link_libraries(${target} PRIVATE ex_${id}_tests torchlings_learner_warnings
                                            torchlings_light_optimisation)
    list(APPEND mistake_targets ${target})
    if(NOT TORCHLINGS_STUB_CHECK OR ARG_NO_CTEST)
      set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL ON)
    else()
      # Passes when the tests catch it by assertion or exception; skipped (TL_SKIP, as a
      # skipped [gpu] case) when only a [gpu] case can and there is no GPU.
      add_test(NAME "${id}/mistake/${slug}"
               COMMAND torchlings-runner --root "${PROJECT_SOURCE_DIR}"
                       --build-dir "${CMAKE_BINARY_DIR}" --color=never
                       verify-mistake ${id} ${slug})
      set_tests_properties("${id}/mistake/${slug}" PROPERTIES
        LABELS "mistake;lesson${ARG_LESSON};${id}" TIMEOUT 120
        SKIP_REGULAR_EXPRESSION "TL_SKIP: ")
    endif()
  endforeach()

  if(ARG_CUDA)
    _torchlings_exercise_cuda(${id} "${ARG_LEARNER};${ARG_SOLUTION};${ARG_MISTAKES}"
                              "${mistake_targets}")
  endif()

  # The precompiled headers chosen above; files compiled as CUDA (by nvcc) take none.
  if(NOT ARG_NO_TORCH AND (heavy OR tensors) AND NOT (ARG_CUDA AND TORCHLINGS_CUDA_KERNELS))
    set(weight MODULES)
    if(NOT heavy)
      set(weight LIGHT)
    endif()
    foreach(target IN ITEMS ex_${id} ex_${id}_solution ${mistake_targets})
      if(TARGET ${target})
        torchlings_use_pch(${target} ${weight})
      endif()
    endforeach()
  endif()

  # CI: the untouched stub must fail every case by assertion or exception.
  if(TORCHLINGS_STUB_CHECK AND NOT ARG_NO_CTEST)
    add_test(NAME "${id}/stub_fails_by_assertion"
             COMMAND torchlings-runner --root "${PROJECT_SOURCE_DIR}" --build-dir "${CMAKE_BINARY_DIR}"
                     --color=never verify-stub ${id})
    set_tests_properties("${id}/stub_fails_by_assertion" PROPERTIES
      LABELS "stubcheck;exercise;lesson${ARG_LESSON};${id}" TIMEOUT 120)
    # And the solution passes every case with the assertions that
    # tests/exercises/assertion_counts.json records, which `check` compares a learner's passing
    # cases with (runner/core/assertion_counts.h).
    add_test(NAME "${id}/solution_assertions"
             COMMAND torchlings-runner --root "${PROJECT_SOURCE_DIR}" --build-dir "${CMAKE_BINARY_DIR}"
                     --color=never verify-solution ${id})
    set_tests_properties("${id}/solution_assertions" PROPERTIES
      LABELS "exercise;lesson${ARG_LESSON};${id}" TIMEOUT 120)
  endif()
endfunction()

# The CUDA option of torchlings_add_exercise: one decision, made here, for every exercise file
# (the learner's, the solution, the catalogued mistakes).
function(_torchlings_exercise_cuda id sources mistake_targets)
  if(NOT TORCHLINGS_CUDA_KERNELS)
    target_compile_definitions(ex_${id}_tests PRIVATE TL_EXERCISE_CUDA=0)
    return()
  endif()
  target_compile_definitions(ex_${id}_tests PRIVATE TL_EXERCISE_CUDA=1)
  set(targets ex_${id} ${mistake_targets})
  if(TARGET ex_${id}_solution)
    list(APPEND targets ex_${id}_solution)
  endif()
  # Source properties are per directory: these targets are created in the calling one.
  set_source_files_properties(${sources} PROPERTIES LANGUAGE CUDA)
  foreach(target IN LISTS targets)
    set_target_properties(${target} PROPERTIES
      CUDA_ARCHITECTURES "${TORCHLINGS_CUDA_ARCHITECTURES}" LINKER_LANGUAGE CXX)
    target_link_libraries(${target} PRIVATE CUDA::cudart)
  endforeach()
  # The learner's file, compiled on every save, and the catalogued mistakes, which only have to
  # build and run where the learner's file does: for one architecture (cmake/TorchlingsTorch.cmake).
  # The solution keeps the whole list, so that every architecture is still compiled once.
  foreach(target IN ITEMS ex_${id} ${mistake_targets})
    set_target_properties(${target} PROPERTIES
      CUDA_ARCHITECTURES "${TORCHLINGS_LEARNER_CUDA_ARCHITECTURES}")
  endforeach()
endfunction()

# torchlings_add_lesson_exercises([ROOT dir] [FOLDER NN_topic] [FIXTURES] [NO_TORCH] [NO_CTEST]
#                                 [CUDA] [NO_PCH] [LIBRARIES lib...])
# Registers every exercise that the lesson's exercises/NN_topic/info.md declares, as the course
# index (kExerciseIndex) holds it, with its files where TorchlingsLayout.cmake puts them.
# Called by torchlings_add_lesson(). Like rustlings' `dev check`, configure stops on a declared
# exercise whose stub, test or solution is missing, on a stub, test or solution that info.md does
# not declare, and on a stub without a TODO. FIXTURES (the runner's test course): solutions are not
# built and stubs need no TODO.
function(torchlings_add_lesson_exercises)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "FIXTURES;NO_TORCH;NO_CTEST;CUDA;NO_PCH" "ROOT;FOLDER"
                        "LIBRARIES")
  if(NOT ARG_ROOT)
    set(ARG_ROOT "${PROJECT_SOURCE_DIR}")
  endif()
  if(NOT ARG_FOLDER)
    get_filename_component(ARG_FOLDER "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  endif()
  set(folder "${ARG_FOLDER}")
  string(SUBSTRING "${folder}" 0 2 number)
  torchlings_layout_path(info kExerciseInfo "${ARG_ROOT}" "${folder}" "")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${info}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               "${ARG_ROOT}/${TORCHLINGS_LAYOUT_kExerciseIndex}")
  torchlings_read_exercises("${ARG_ROOT}" "${folder}")
  if(NOT TORCHLINGS_IDS)
    return()  # the index does not hold this info.md as it is: said above
  endif()
  set(fixtures "")
  if(ARG_FIXTURES)
    set(fixtures FIXTURES)
  endif()
  torchlings_check_lesson_files("${ARG_ROOT}" "${folder}" "${TORCHLINGS_IDS}" ${fixtures})

  set(flags "")
  foreach(flag IN ITEMS NO_TORCH NO_CTEST CUDA NO_PCH)
    if(ARG_${flag})
      list(APPEND flags ${flag})
    endif()
  endforeach()
  if(ARG_LIBRARIES)
    list(APPEND flags LIBRARIES ${ARG_LIBRARIES})
  endif()
  foreach(id IN LISTS TORCHLINGS_IDS)
    torchlings_layout_path(learner kLearnerFile "${ARG_ROOT}" "${folder}" ${id})
    torchlings_layout_path(test kTestFile "${ARG_ROOT}" "${folder}" ${id})
    # A learner copy (`torchlings export --learner`) has no solutions/: no solution targets then.
    set(solution_args "")
    if(IS_DIRECTORY "${ARG_ROOT}/solutions" AND NOT ARG_FIXTURES)
      torchlings_layout_path(solution kSolutionFile "${ARG_ROOT}" "${folder}" ${id})
      set(solution_args SOLUTION "${solution}")
    endif()
    set(mistake_args "")
    if(solution_args)
      # The catalogue: each mistake's source is generated from the solution and the hunks that
      # the index holds into the build folder (cmake/TorchlingsMistakes.cmake); editing the
      # solution, the index or the .md (whose hash the index records) re-runs configure, and so
      # does a catalogue added later (the glob).
      torchlings_mistake_catalogue(catalogue "${ARG_ROOT}" "${folder}" ${id})
      file(GLOB present CONFIGURE_DEPENDS "${catalogue}")
      if(present)
        set(generated "${CMAKE_BINARY_DIR}/mistakes/${folder}/${id}")
        torchlings_apply_mistakes("${ARG_ROOT}" "${folder}" ${id} "${solution}"
                                  OUTPUT_DIR "${generated}" SOURCES mistakes)
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${catalogue}"
          "${solution}" "${ARG_ROOT}/${TORCHLINGS_LAYOUT_kMistakeIndex}")
        set(mistake_args MISTAKES ${mistakes})
      endif()
    endif()
    torchlings_add_exercise(${id} LESSON ${number} LEARNER "${learner}" ${solution_args}
                            ${mistake_args} TEST "${test}" TIMEOUT ${TORCHLINGS_TIMEOUT_${id}}
                            ${flags})
  endforeach()
endfunction()

torchlings_check_course_folders("${PROJECT_SOURCE_DIR}")
