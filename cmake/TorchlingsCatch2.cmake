# Finds Catch2, v3 or v2 (2.13 or newer), and says which in TORCHLINGS_CATCH2_MAJOR; the
# test-support library (tests/support) passes that on to tl_test/catch.h and to the course's
# Catch2 main, the only two files that depend on it. Distributions ship one or the other:
# Debian 12 and Ubuntu 22.04 have 2.13, Ubuntu 24.04 and Colab 3.4, Debian 13 3.7.
# v3 is preferred where both are installed.
find_package(Catch2 3 QUIET)
if(NOT Catch2_FOUND)
  find_package(Catch2 2.13 QUIET)
endif()
if(NOT Catch2_FOUND)
  if(Catch2_CONSIDERED_VERSIONS)
    string(REPLACE ";" ", " _tl_catch2_seen "${Catch2_CONSIDERED_VERSIONS}")
    set(_tl_catch2_seen "found only Catch2 ${_tl_catch2_seen} (${Catch2_CONSIDERED_CONFIGS})")
  else()
    set(_tl_catch2_seen "found no Catch2 at all")
  endif()
  message(FATAL_ERROR
    "torchlings: the tests need Catch2 v3, or v2 from 2.13 on; CMake ${_tl_catch2_seen}.\n"
    "Install your distribution's package (apt-get install catch2), or point CMAKE_PREFIX_PATH "
    "or Catch2_DIR at a Catch2 installation.")
endif()
set(TORCHLINGS_CATCH2_MAJOR "${Catch2_VERSION_MAJOR}")
message(STATUS "Catch2 ${Catch2_VERSION} (${Catch2_DIR})")
include(Catch)  # catch_discover_tests, from the Catch2 found (its folder is on the module path)
