# The course's stated support range, in one place. Configure stops with one message when the
# LibTorch or the compiler is older than the range; a LibTorch newer than the newest one tested
# gets a warning and goes on (a new Colab runtime should not lock learners out).
#
#   torch   2.9 .. 2.15    oldest: 2.9 (October 2025), so that a Colab runtime or GPU server of the
#                          past year works; newest: the wheel the course's own set-up installs. CI
#                          builds and tests both (scripts/ci/compat_check.sh reads the oldest here).
#   CMake   3.25 .. 4.x    cmake_minimum_required() in CMakeLists.txt states the floor.
#   GCC     11 ..          11 is Ubuntu 22.04's; 12 Debian 12's; 13 Ubuntu 24.04's (Colab); 14
#                          Debian 13's.
#   Clang   15 ..          ./torchlings uses the distribution's own Clang with its OpenMP runtime
#                          (Debian 13: 19, Ubuntu 24.04: 18; Debian 12, whose own is 14: the newest
#                          it packages); the floor is the wrapper's CLANG_OLDEST too. CI builds and
#                          tests with the Clang 16 of its Debian 12 machine.
set(TORCHLINGS_TORCH_OLDEST "2.9" CACHE INTERNAL "Oldest supported torch (major.minor)")
set(TORCHLINGS_TORCH_NEWEST "2.15" CACHE INTERNAL "Newest torch the course was tested with")
set(TORCHLINGS_GCC_OLDEST "11" CACHE INTERNAL "Oldest supported GCC")
set(TORCHLINGS_CLANG_OLDEST "15" CACHE INTERNAL "Oldest accepted Clang")

set(_fix_torch
    "Use a supported torch: let the course install one into its cache folder with\n"
    "    TORCHLINGS_TORCH_SPEC='torch>=${TORCHLINGS_TORCH_OLDEST}' ./torchlings run 01\n"
    "or upgrade your Python's torch (pip install -U torch), or point Torch_DIR at another LibTorch.")

# major.minor of e.g. "2.11.0+cu130" or "2.15.0.dev20261101".
if(TORCHLINGS_TORCH_VERSION MATCHES "^([0-9]+)\\.([0-9]+)")
  set(TORCHLINGS_TORCH_MINOR "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
  if(TORCHLINGS_TORCH_MINOR VERSION_LESS TORCHLINGS_TORCH_OLDEST)
    message(FATAL_ERROR
      "torchlings: LibTorch ${TORCHLINGS_TORCH_VERSION} (from ${Torch_DIR}) is older than the "
      "oldest the course supports, ${TORCHLINGS_TORCH_OLDEST}.\n" ${_fix_torch})
  endif()
  set(TORCHLINGS_TORCH_SUPPORT "supported")
  if(TORCHLINGS_TORCH_MINOR VERSION_GREATER TORCHLINGS_TORCH_NEWEST)
    set(TORCHLINGS_TORCH_SUPPORT "newer than tested")
    message(WARNING
      "torchlings: LibTorch ${TORCHLINGS_TORCH_VERSION} is newer than the newest the course was "
      "tested with (${TORCHLINGS_TORCH_NEWEST}). It should work; if something breaks, "
      "TORCHLINGS_TORCH_SPEC='torch==${TORCHLINGS_TORCH_NEWEST}.*' ./torchlings ... uses a tested one.")
  endif()
else()
  set(TORCHLINGS_TORCH_SUPPORT "unknown version")
  message(WARNING "torchlings: could not read this LibTorch's version (from ${Torch_DIR}); "
                  "the course supports ${TORCHLINGS_TORCH_OLDEST} to ${TORCHLINGS_TORCH_NEWEST}.")
endif()

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS TORCHLINGS_GCC_OLDEST)
  message(FATAL_ERROR
    "torchlings: GCC ${CMAKE_CXX_COMPILER_VERSION} is too old; the course needs GCC "
    "${TORCHLINGS_GCC_OLDEST} or newer (C++20 and LibTorch's headers). Install a newer g++ and "
    "configure again with CXX=g++-<version> in a new build folder.")
elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang"
       AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS TORCHLINGS_CLANG_OLDEST)
  message(FATAL_ERROR
    "torchlings: Clang ${CMAKE_CXX_COMPILER_VERSION} is too old; the course needs Clang "
    "${TORCHLINGS_CLANG_OLDEST} or newer, or GCC ${TORCHLINGS_GCC_OLDEST} or newer.")
endif()
