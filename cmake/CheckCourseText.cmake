# Facts that prose and tools must repeat, checked against their owner (a CTest, label `course`):
#
#   cmake -D ROOT=<course root> -P cmake/CheckCourseText.cmake
#
# 1. Each lesson README's `## Exercises` table lists exactly the exercises that the lesson's
#    exercises/NN_topic/info.md declares, in the same order (info.md owns the list).
# 2. Every place that states the oldest supported CMake says what CMakeLists.txt's
#    cmake_minimum_required() says (it owns the floor; these cannot read it: a preset file, a
#    -P script's own first line, a lesson's example CMakeLists.txt).
cmake_minimum_required(VERSION 3.25)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -D ROOT=<course root> -P CheckCourseText.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
include("${CMAKE_CURRENT_LIST_DIR}/TorchlingsCourse.cmake")

set(problems "")

# 1. The exercise tables.
file(GLOB lesson_dirs LIST_DIRECTORIES true RELATIVE "${ROOT}/lessons" "${ROOT}/lessons/[0-9][0-9]_*")
list(SORT lesson_dirs)
foreach(folder IN LISTS lesson_dirs)
  set(readme "${ROOT}/lessons/${folder}/README.md")
  if(NOT EXISTS "${ROOT}/exercises/${folder}/info.md" OR NOT EXISTS "${readme}")
    continue()
  endif()
  torchlings_read_exercises("${ROOT}" "${folder}")
  set(declared "${TORCHLINGS_IDS}")
  file(STRINGS "${readme}" lines)
  set(in_section FALSE)
  set(listed "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^## ")
      if(line MATCHES "^## Exercises")
        set(in_section TRUE)
      else()
        set(in_section FALSE)
      endif()
    elseif(in_section AND line MATCHES "^\\| `([a-z0-9_]+)` \\|")
      list(APPEND listed "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT listed STREQUAL declared)
    string(REPLACE ";" ", " declared_text "${declared}")
    string(REPLACE ";" ", " listed_text "${listed}")
    string(APPEND problems
      "  lessons/${folder}/README.md: its '## Exercises' table lists [${listed_text}], but "
      "exercises/${folder}/info.md declares [${declared_text}] (same ids, same order)\n")
  endif()
endforeach()

# 2. The CMake floor.
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
  "cmake/CheckReadmeOutput.cmake|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "cmake/CheckCourseText.cmake|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
  "cmake/CheckDevcontainer.cmake|cmake_minimum_required\\(VERSION ([0-9]+)\\.([0-9]+)\\)"
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
list(LENGTH lesson_dirs lesson_count)
message(STATUS "course text: ${lesson_count} lessons' exercise tables and the CMake floor (${floor}) agree")
