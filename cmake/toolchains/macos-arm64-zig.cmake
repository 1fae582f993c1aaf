# Cross-compiles the course for macOS on Apple silicon (aarch64-macos) from Linux, with `zig c++`
# (clang, libc++ and the macOS SDK's headers and stubs, from the `ziglang` package on PyPI).
# scripts/ci/macos_cross_check.sh prepares everything this file names and passes its folder:
#
#   TORCHLINGS_MACOS_CROSS_DIR   <cache folder>/macos-cross, holding
#     bin/zig-cc, bin/zig-c++, bin/zig-ar, bin/zig-ranlib   wrappers that run `zig` for the target
#     prefix/          Catch2 and Google Benchmark built for the target, the
#                      header-only libraries (CLI11, nlohmann-json), and a copy of the wheel's
#                      libomp.dylib named @rpath/libomp.dylib (OpenMP_omp_LIBRARY)
#     gloo/include     Gloo's headers (TORCHLINGS_GLOO_INCLUDE_DIR, lesson 10)
#     torch-<version>/torch   LibTorch from the macOS arm64 torch wheel (headers and dylibs)
#
# Nothing of the Linux host's /usr is searched for headers, libraries or CMake packages: only the
# folders above are (the find root path), and programs (python3, doxygen) come from the host.
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR arm64)
set(CMAKE_OSX_ARCHITECTURES arm64 CACHE STRING "Build architectures for macOS")
# CMake's Darwin platform asks `sw_vers` (absent here) for the macOS version, and without one takes
# the system for a macOS older than 10.5, which had no run paths; the rules file, read after the
# platform's, says otherwise (the torch wheel's dylibs are named @rpath/...).
set(CMAKE_USER_MAKE_RULES_OVERRIDE "${CMAKE_CURRENT_LIST_DIR}/macos-arm64-zig-rules.cmake")

if(NOT TORCHLINGS_MACOS_CROSS_DIR)
  set(TORCHLINGS_MACOS_CROSS_DIR "$ENV{TORCHLINGS_MACOS_CROSS_DIR}")
endif()
if(NOT IS_DIRECTORY "${TORCHLINGS_MACOS_CROSS_DIR}/bin")
  message(FATAL_ERROR "macos-arm64-zig: TORCHLINGS_MACOS_CROSS_DIR (${TORCHLINGS_MACOS_CROSS_DIR}) "
                      "has no bin/: run scripts/ci/macos_cross_check.sh, which prepares it")
endif()
# try_compile() projects read this file again: they get the folder through the environment.
set(ENV{TORCHLINGS_MACOS_CROSS_DIR} "${TORCHLINGS_MACOS_CROSS_DIR}")

set(CMAKE_C_COMPILER "${TORCHLINGS_MACOS_CROSS_DIR}/bin/zig-cc")
set(CMAKE_CXX_COMPILER "${TORCHLINGS_MACOS_CROSS_DIR}/bin/zig-c++")
set(CMAKE_AR "${TORCHLINGS_MACOS_CROSS_DIR}/bin/zig-ar" CACHE FILEPATH "Archiver")
set(CMAKE_RANLIB "${TORCHLINGS_MACOS_CROSS_DIR}/bin/zig-ranlib" CACHE FILEPATH "Ranlib")

file(GLOB _tl_cross_torch LIST_DIRECTORIES true "${TORCHLINGS_MACOS_CROSS_DIR}/torch-*/torch")
set(CMAKE_FIND_ROOT_PATH "${TORCHLINGS_MACOS_CROSS_DIR}/prefix" ${_tl_cross_torch})
set(CMAKE_PREFIX_PATH "${TORCHLINGS_MACOS_CROSS_DIR}/prefix")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
