# Helpers for the numbered folders: lessons/NN_topic and tests/exercises/NN_topic.

# add_subdirectory() every NN_* folder of <parent> that has a CMakeLists.txt, in order, so that a
# new lesson is a new folder and nothing else.
function(torchlings_add_numbered_subdirectories parent)
  file(GLOB children LIST_DIRECTORIES true RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}/${parent}"
       "${CMAKE_CURRENT_SOURCE_DIR}/${parent}/[0-9][0-9]_*")
  list(SORT children)
  foreach(child IN LISTS children)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${parent}/${child}/CMakeLists.txt")
      add_subdirectory("${parent}/${child}")
    endif()
  endforeach()
endfunction()

# Three targets own precompiled LibTorch headers, and the targets that need them reuse them
# (REUSE_FROM needs the same flags, so all of them link the same warnings and torch). Loading a
# precompiled header costs time in proportion to its size, so each exercise takes the smallest
# one that covers what it includes (cmake/TorchlingsExercises.cmake decides):
#  - torchlings_pch_light: the tensor core (ATen/core/Tensor.h and the c10 and ATen/ops headers the
#    exercises use most). Parsing those headers takes about 5 s; loading them precompiled, about
#    1.5 s. Files of c10 headers alone (1 s) do without.
#  - torchlings_pch_modules: what the heavier exercises include (torch::nn's Module and Cloneable,
#    the optimizers, serialization, the data API, autocast, c10d): about 5.5 s per file, against
#    8.5 s with all of <torch/torch.h> precompiled and 13 to 18 s without. Most of what remains
#    is GCC instantiating, at the end of every file, the templates those headers' inline
#    functions use: a precompiled header cannot keep them (Clang's -fpch-instantiate-templates
#    can; see docs/performance.md, "Why Clang").
#  - torchlings_pch: <torch/torch.h>, for the lessons, benchmarks and tests, which include it.
# The exercises' two are built with the exercise files' -Og (cmake/TorchlingsToolchain.cmake).
if(TORCHLINGS_PCH)
  # CONFIGURE writes only when the content changes: a reconfigure must not rebuild the header.
  foreach(owner IN ITEMS pch pch_light pch_modules)
    file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/pch/${owner}.cpp"
         CONTENT "// Owner of precompiled LibTorch headers.\n")
    add_library(torchlings_${owner} OBJECT "${CMAKE_BINARY_DIR}/pch/${owner}.cpp")
    target_link_libraries(torchlings_${owner} PRIVATE torch torchlings_warnings)
  endforeach()
  target_link_libraries(torchlings_pch_light PRIVATE torchlings_light_optimisation)
  target_link_libraries(torchlings_pch_modules PRIVATE torchlings_light_optimisation)
  target_precompile_headers(torchlings_pch PRIVATE <torch/torch.h>)
  set(_tl_light_headers
    <ATen/core/Tensor.h> <c10/core/Device.h> <c10/core/DeviceType.h> <c10/core/ScalarType.h>
    <ATen/ops/arange.h> <ATen/ops/empty.h> <ATen/ops/full.h> <ATen/ops/ones.h>
    <ATen/ops/randn.h> <ATen/ops/zeros.h> <stdexcept> <string> <vector>)
  target_precompile_headers(torchlings_pch_light PRIVATE ${_tl_light_headers})
  # c10d's headers exist only in a LibTorch built with distributed support.
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/pch/modules.h" CONTENT [=[
// The LibTorch headers of the exercises that need more than tensors (precompiled).
#pragma once
#include <ATen/autocast_mode.h>
#include <torch/data/dataloader.h>
#include <torch/data/datasets/base.h>
#include <torch/data/datasets/map.h>
#include <torch/data/example.h>
#include <torch/data/samplers/sequential.h>
#include <torch/data/transforms/stack.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/optim/optimizer.h>
#include <torch/optim/sgd.h>
#include <torch/serialize.h>
#if __has_include(<torch/csrc/distributed/c10d/ProcessGroup.hpp>)
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#endif
]=])
  target_precompile_headers(torchlings_pch_modules PRIVATE ${_tl_light_headers}
                            "${CMAKE_BINARY_DIR}/pch/modules.h")
endif()

# torchlings_use_pch(<target> [LIGHT|MODULES]): give a LibTorch target precompiled headers (when
# enabled): all of LibTorch's, or the tensor core's (LIGHT), or the heavier exercises' (MODULES).
function(torchlings_use_pch target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "LIGHT;MODULES" "" "")
  if(TORCHLINGS_PCH)
    if(ARG_LIGHT)
      target_precompile_headers(${target} REUSE_FROM torchlings_pch_light)
    elseif(ARG_MODULES)
      target_precompile_headers(${target} REUSE_FROM torchlings_pch_modules)
    else()
      target_precompile_headers(${target} REUSE_FROM torchlings_pch)
    endif()
  endif()
endfunction()

# lessons/NN_topic/CMakeLists.txt: torchlings_add_lesson([CUDA_EXERCISES] [PROCESSES n]
#                                                       [LIBRARIES lib...] [NO_PCH])
# Builds lesson_NN from NN_topic.cpp; `torchlings run NN` runs it. It links torchlings::core, and
# the LIBRARIES of common/ it uses besides (torchlings::kernels, torchlings::distributed); so do
# its exercises' tests. NO_PCH (lesson 01, the first thing a fresh machine builds): neither the
# demo nor its exercises' tests wait for <torch/torch.h> precompiled (90 s on two cores, then about
# 14 s per file). They include only the LibTorch headers they use instead (the tests through
# tl_test/compare.h), and each compiles in a few seconds. The README's shown output is
# checked against the demo's real output by a test (label readme), and so is README.ko.md's.
# The exercises that exercises/NN_topic/info.md declares are registered too
# (cmake/TorchlingsExercises.cmake); CUDA_EXERCISES compiles their files as CUDA when this build
# compiles CUDA kernels.
# PROCESSES n: the demo is a job of several processes, launched the way PyTorch users launch
# them: `torchrun --standalone --no-python --nproc-per-node=n lesson_NN`. The lesson writes that
# declaration to <build>/bin/lesson_NN.launch (read by `torchlings run`), and the README check runs
# the demo the same way. Without torchrun the demo runs alone, as a job of one process.
function(torchlings_add_lesson)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "CUDA_EXERCISES;NO_PCH" "PROCESSES" "LIBRARIES")
  get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  string(SUBSTRING "${folder}" 0 2 number)
  set(target lesson_${number})
  add_executable(${target} "${folder}.cpp")
  target_link_libraries(${target} PRIVATE torchlings::core ${ARG_LIBRARIES} torch
                                          torchlings_warnings)
  if(NOT ARG_NO_PCH)
    torchlings_use_pch(${target})
  endif()
  set(launch "")
  if(ARG_PROCESSES)
    set(declaration "# How `torchlings run ${number}` starts ${target} (written by CMake).\n")
    set(torchrun "")
    if(TORCHLINGS_TORCHRUN)   # not TORCHLINGS_TORCHRUN-NOTFOUND
      set(torchrun "${TORCHLINGS_TORCHRUN}")
    endif()
    string(APPEND declaration "processes=${ARG_PROCESSES}\ntorchrun=${torchrun}\n")
    if(TORCHLINGS_TORCHRUN_MISSING)   # why there is none, when the set-up knows
      string(APPEND declaration "no_torchrun=${TORCHLINGS_TORCHRUN_MISSING}\n")
    endif()
    file(CONFIGURE OUTPUT "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${target}.launch"
         CONTENT "${declaration}")
    if(TORCHLINGS_TORCHRUN)
      set(launch "${TORCHLINGS_TORCHRUN}|--standalone|--no-python|--nproc-per-node=${ARG_PROCESSES}")
    endif()
  endif()
  # The page and its Korean translation (README.ko.md) show the same output: one run of the demo
  # is held to both.
  # (docs/check_readme_output.py says how the two outputs are compared.)
  set(pages --page "${CMAKE_CURRENT_SOURCE_DIR}/README.md")
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/README.ko.md")
    list(APPEND pages --page "${CMAKE_CURRENT_SOURCE_DIR}/README.ko.md")
  endif()
  add_test(NAME "lesson${number}/readme_matches_demo"
           COMMAND Python3::Interpreter "${PROJECT_SOURCE_DIR}/docs/check_readme_output.py"
                   ${pages} "--launch=${launch}" "$<TARGET_FILE:${target}>")
  set_tests_properties("lesson${number}/readme_matches_demo" PROPERTIES
                       LABELS "readme;lesson${number}" TIMEOUT 120)
  add_test(NAME "lesson${number}/rejects_bad_device"
           COMMAND ${target} --device cuda:x)
  set_tests_properties("lesson${number}/rejects_bad_device" PROPERTIES
    LABELS "lesson${number}" WILL_FAIL FALSE
    PASS_REGULAR_EXPRESSION "Invalid device 'cuda:x'.*expected one of")
  torchlings_layout_path(info kExerciseInfo "${PROJECT_SOURCE_DIR}" "${folder}" "")
  if(EXISTS "${info}")
    set(flags "")
    if(ARG_CUDA_EXERCISES)
      list(APPEND flags CUDA)
    endif()
    if(ARG_NO_PCH)
      list(APPEND flags NO_PCH)
    endif()
    torchlings_add_lesson_exercises(${flags} LIBRARIES ${ARG_LIBRARIES})
  endif()
endfunction()
