# Facts that prose and tools must repeat, checked against their owner (a CTest, label `course`):
#
#   cmake -D ROOT=<course root> -P cmake/CheckCourseText.cmake
#
# Every place that states the oldest supported CMake says what CMakeLists.txt's
# cmake_minimum_required() says (it owns the floor; these cannot read it: a preset file, a -P
# script's own first line, a lesson's example CMakeLists.txt). The lessons' exercise tables are not
# checked here: `./torchlings dev index` writes them from each info.md, and its --check (a CTest
# too) says when one is stale.
cmake_minimum_required(VERSION 3.25)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -D ROOT=<course root> -P CheckCourseText.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

set(problems "")

# The CMake floor.
file(STRINGS "${ROOT}/CMakeLists.txt" floor_line REGEX "^cmake_minimum_required\\(VERSION [0-9.]+\\)")
if(NOT floor_line MATCHES "VERSION ([0-9]+)\\.([0-9]+)")
  message(FATAL_ERROR "CMakeLists.txt: no cmake_minimum_required(VERSION X.Y) line")
endif()
set(major "${CMAKE_MATCH_1}")
set(minor "${CMAKE_MATCH_2}")
set(floor "${major}.${minor}")
# file | a regular expression whose first group must equal the floor (one or more matches)
set(statements
  "CMakePresets.json|\"cmakeMinimumRequired\": {\"major\": ([0-9]+), \"minor\": ([0-9]+)"
  "cmake/CheckCourseText.cmake|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "cmake/TorchlingsDiscoverTests.cmake|cmake_policy\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "cmake/TorchlingsFindTorch.cmake|cmake_policy\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "cmake/TorchlingsSupport.cmake|CMake +([0-9]+)\\.([0-9]+) \\.\\. "
  "lessons/01_availability/README.md|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "lessons/01_availability/README.ko.md|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "docs/build_and_link.md|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "docs/build_and_link.ko.md|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)")
# The set-up and `doctor` read the floor from CMakeLists.txt itself (scripts/setup/packages.py, the
# runner as a compile definition): they have nothing to disagree with.
foreach(statement IN LISTS statements)
  string(FIND "${statement}" "|" bar)
  string(SUBSTRING "${statement}" 0 ${bar} file)
  math(EXPR after "${bar} + 1")
  string(SUBSTRING "${statement}" ${after} -1 regex)
  file(READ "${ROOT}/${file}" text)
  string(REGEX MATCHALL "${regex}" found "${text}")
  if(NOT found)
    string(APPEND problems "  ${file}: no statement of the CMake floor matching ${regex}\n")
  endif()
  foreach(match IN LISTS found)
    string(REGEX MATCH "${regex}" ignored "${match}")
    if((NOT CMAKE_MATCH_1 STREQUAL "" AND NOT CMAKE_MATCH_1 STREQUAL major)
       OR (NOT CMAKE_MATCH_2 STREQUAL "" AND NOT CMAKE_MATCH_2 STREQUAL minor))
      string(APPEND problems
        "  ${file}: '${match}' disagrees with CMakeLists.txt's cmake_minimum_required(VERSION ${floor})\n")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "The course's text disagrees with the files that own its facts:\n${problems}")
endif()
message(STATUS "course text: every statement of the CMake floor (${floor}) agrees")
