# The course's structure as CMake reads it, and its check (like rustlings' `dev check`): which
# exercises each lesson's exercises/NN_topic/info.md declares, and whether the files agree.
# Included by TorchlingsExercises.cmake; also runs on its own, building nothing:
#   cmake -D ROOT=<course folder> -P cmake/TorchlingsCourse.cmake
#
# The path rules and the default time limit have one owner, the runner's layout.h; they are
# read here as TORCHLINGS_LAYOUT_<name> (kDefaultTimeoutS, kLearnerFile, kSolutionFile, ...).
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  cmake_policy(SET CMP0057 NEW)  # if(IN_LIST); in a configure the project's minimum sets it
endif()
set(TORCHLINGS_LAYOUT_H "${CMAKE_CURRENT_LIST_DIR}/../runner/core/layout.h")
file(STRINGS "${TORCHLINGS_LAYOUT_H}" layout_lines REGEX "^inline constexpr [a-z_:]+ k[A-Za-z]+ = ")
foreach(line IN LISTS layout_lines)
  string(REGEX REPLACE "^inline constexpr [a-z_:]+ (k[A-Za-z]+) = \"?([^\";]*)\"?;.*" "\\1;\\2"
         name_value "${line}")
  list(GET name_value 0 name)
  list(GET name_value 1 value)
  set(TORCHLINGS_LAYOUT_${name} "${value}")
endforeach()
if(NOT TORCHLINGS_LAYOUT_kDefaultTimeoutS OR NOT TORCHLINGS_LAYOUT_kTestFile)
  message(FATAL_ERROR "could not read the course layout from ${TORCHLINGS_LAYOUT_H}")
endif()

# <out> = <root>/ + the layout pattern TORCHLINGS_LAYOUT_<kind> for one lesson folder and id
# (and, for kMistakeFile, a slug: the optional last argument).
function(torchlings_layout_path out kind root folder id)
  string(REPLACE "{lesson}" "${folder}" path "${TORCHLINGS_LAYOUT_${kind}}")
  string(REPLACE "{id}" "${id}" path "${path}")
  if(ARGC GREATER 5)
    string(REPLACE "{slug}" "${ARGV5}" path "${path}")
  endif()
  set(${out} "${root}/${path}" PARENT_SCOPE)
endfunction()

# torchlings_mistake_files(<out> <root> <folder> <id>): the catalogued mistakes of one exercise
# (kMistakeFile with every slug), sorted.
function(torchlings_mistake_files out root folder id)
  torchlings_layout_path(pattern kMistakeFile "${root}" "${folder}" "${id}" "*")
  file(GLOB files "${pattern}")
  list(SORT files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# torchlings_check_mistakes(<root> <folder> <ids>): every folder of the lesson's catalogue of
# mistakes names a declared exercise, and every mistake is named [a-z0-9_]+.cpp and starts with
# the header line kMistakeTitle + a title.
function(torchlings_check_mistakes root folder ids)
  torchlings_layout_path(info kExerciseInfo "${root}" "${folder}" "")
  file(RELATIVE_PATH info_name "${root}" "${info}")
  # The catalogue's folder is the part of the pattern before {id}: solutions/<folder>/mistakes/.
  torchlings_layout_path(pattern kMistakeFile "${root}" "${folder}" "{id}" "{slug}")
  string(FIND "${pattern}" "{id}" at)
  string(SUBSTRING "${pattern}" 0 ${at} catalogue)
  if(NOT IS_DIRECTORY "${catalogue}")
    return()
  endif()
  file(GLOB entries LIST_DIRECTORIES true RELATIVE "${catalogue}" "${catalogue}*")
  foreach(name IN LISTS entries)
    if(NOT name IN_LIST ids)
      file(RELATIVE_PATH shown "${root}" "${catalogue}${name}")
      list(JOIN ids ", " declared)
      message(FATAL_ERROR "${shown} is in the catalogue of mistakes but names no exercise: "
                          "${info_name} declares ${declared}. A mistake goes in "
                          "${TORCHLINGS_LAYOUT_kMistakeFile}.")
    endif()
  endforeach()
  string(LENGTH "${TORCHLINGS_LAYOUT_kMistakeTitle}" title_length)
  foreach(id IN LISTS ids)
    torchlings_layout_path(mistake_folder kMistakeFile "${root}" "${folder}" "${id}" "")
    get_filename_component(mistake_folder "${mistake_folder}" DIRECTORY)
    file(GLOB files LIST_DIRECTORIES true "${mistake_folder}/*")
    foreach(file IN LISTS files)
      file(RELATIVE_PATH shown "${root}" "${file}")
      get_filename_component(name "${file}" NAME)
      if(IS_DIRECTORY "${file}" OR NOT name MATCHES "^[a-z0-9_]+\\.cpp$")
        message(FATAL_ERROR "${shown}: a catalogued mistake is a file named <slug>.cpp, the slug "
                            "in [a-z0-9_]+")
      endif()
      file(READ "${file}" head LIMIT 400)
      string(REGEX REPLACE "\n.*" "" first "${head}")
      string(SUBSTRING "${first}" 0 ${title_length} prefix)
      string(SUBSTRING "${first}" ${title_length} -1 title)
      string(STRIP "${title}" title)
      if(NOT prefix STREQUAL "${TORCHLINGS_LAYOUT_kMistakeTitle}" OR title STREQUAL "")
        message(FATAL_ERROR "${shown} has no mistake header: its first line must be "
                            "\"${TORCHLINGS_LAYOUT_kMistakeTitle}<one-line title>\", then "
                            "`//` lines saying why it is wrong and how the tests see it "
                            "(runner/README.md)")
      endif()
    endforeach()
  endforeach()
endfunction()

# torchlings_read_exercises(<root> <folder>): sets TORCHLINGS_IDS (in file order) and
# TORCHLINGS_TIMEOUT_<id> from the `## id: title` and `timeout_s: N` lines of the lesson's info.md
# that are outside code blocks and hints.
function(torchlings_read_exercises root folder)
  torchlings_layout_path(info kExerciseInfo "${root}" "${folder}" "")
  file(STRINGS "${info}" lines REGEX "^(## |### |timeout_s:|```|~~~)")
  set(ids "")
  set(in_fence FALSE)
  set(in_hint FALSE)
  foreach(line IN LISTS lines)
    if(line MATCHES "^(```|~~~)")
      if(in_fence)
        set(in_fence FALSE)
      else()
        set(in_fence TRUE)
      endif()
    elseif(in_fence)
    elseif(line MATCHES "^## ([a-z][a-z0-9_]*):")
      set(id "${CMAKE_MATCH_1}")
      list(APPEND ids ${id})
      set(TORCHLINGS_TIMEOUT_${id} ${TORCHLINGS_LAYOUT_kDefaultTimeoutS} PARENT_SCOPE)
      set(in_hint FALSE)
    elseif(line MATCHES "^### ")
      set(in_hint TRUE)
    elseif(NOT in_hint AND ids AND line MATCHES "^timeout_s: *([0-9]+)")
      set(TORCHLINGS_TIMEOUT_${id} ${CMAKE_MATCH_1} PARENT_SCOPE)
    endif()
  endforeach()
  if(NOT ids)
    file(RELATIVE_PATH shown "${root}" "${info}")
    message(FATAL_ERROR "${shown} declares no exercise (expected `## id: title` headings)")
  endif()
  set(TORCHLINGS_IDS "${ids}" PARENT_SCOPE)
endfunction()

# torchlings_check_lesson_files(<root> <folder> <ids> [FIXTURES]): every declared exercise has its
# stub, test and (where the course has solutions/) solution; every stub, solution and test is
# declared; every stub has a TODO. FIXTURES (the runner's test course): no solutions needed, and
# stubs need no TODO.
function(torchlings_check_lesson_files root folder ids)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "FIXTURES" "" "")
  torchlings_layout_path(info kExerciseInfo "${root}" "${folder}" "")
  file(RELATIVE_PATH info_name "${root}" "${info}")
  foreach(kind IN ITEMS kLearnerFile kSolutionFile kTestFile)
    torchlings_layout_path(pattern ${kind} "${root}" "${folder}" "*")
    string(REPLACE "*" ";" before_after "${pattern}")
    list(GET before_after 0 before)
    list(GET before_after 1 after)
    string(LENGTH "${before}" skip)
    file(GLOB present "${pattern}")
    foreach(file IN LISTS present)
      string(SUBSTRING "${file}" ${skip} -1 name)
      string(REPLACE "${after}" "" name "${name}")
      if(NOT name IN_LIST ids)
        file(RELATIVE_PATH shown "${root}" "${file}")
        list(JOIN ids ", " declared)
        message(FATAL_ERROR "${shown} belongs to no exercise: ${info_name} declares ${declared}. "
                            "Declare it there (`## ${name}: title`) or remove the file.")
      endif()
    endforeach()
  endforeach()
  foreach(id IN LISTS ids)
    torchlings_layout_path(learner kLearnerFile "${root}" "${folder}" ${id})
    torchlings_layout_path(test kTestFile "${root}" "${folder}" ${id})
    set(required "${learner}" "${test}")
    # A learner copy (`torchlings export --learner`) has no solutions/ folder at all.
    if(IS_DIRECTORY "${root}/solutions" AND NOT ARG_FIXTURES)
      torchlings_layout_path(solution kSolutionFile "${root}" "${folder}" ${id})
      list(APPEND required "${solution}")
    endif()
    foreach(file IN LISTS required)
      if(NOT EXISTS "${file}")
        file(RELATIVE_PATH shown "${root}" "${file}")
        message(FATAL_ERROR "${info_name} declares the exercise '${id}', so ${shown} must exist")
      endif()
    endforeach()
    if(NOT ARG_FIXTURES)
      file(STRINGS "${learner}" todo REGEX "TODO" LIMIT_COUNT 1)
      if(NOT todo)
        file(RELATIVE_PATH shown "${root}" "${learner}")
        message(FATAL_ERROR "${shown} has no TODO: a stub marks every change a learner makes "
                            "with a TODO comment")
      endif()
    endif()
  endforeach()
  if(IS_DIRECTORY "${root}/solutions" AND NOT ARG_FIXTURES)
    torchlings_check_mistakes("${root}" "${folder}" "${ids}")
  endif()
endfunction()

# torchlings_check_course_folders(<root>): every numbered folder of exercises/, solutions/ and
# tests/exercises/ belongs to a lesson of the same name, and every lesson folder has its
# README.md (the runner reads the title there).
function(torchlings_check_course_folders root)
  foreach(parent IN ITEMS lessons exercises solutions tests/exercises)
    file(GLOB folders LIST_DIRECTORIES true RELATIVE "${root}/${parent}"
         "${root}/${parent}/[0-9][0-9]_*")
    foreach(folder IN LISTS folders)
      torchlings_layout_path(readme kLessonText "${root}" "${folder}" "")
      if(NOT EXISTS "${readme}")
        file(RELATIVE_PATH shown "${root}" "${readme}")
        message(FATAL_ERROR "${parent}/${folder} belongs to no lesson: expected ${shown}")
      endif()
    endforeach()
  endforeach()
endfunction()

# On its own (cmake -P): the whole course under ROOT.
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT ROOT)
    message(FATAL_ERROR "usage: cmake -D ROOT=<course folder> -P cmake/TorchlingsCourse.cmake")
  endif()
  get_filename_component(ROOT "${ROOT}" ABSOLUTE)
  torchlings_check_course_folders("${ROOT}")
  file(GLOB lesson_folders LIST_DIRECTORIES true RELATIVE "${ROOT}/lessons"
       "${ROOT}/lessons/[0-9][0-9]_*")
  set(count 0)
  set(mistakes 0)
  foreach(folder IN LISTS lesson_folders)
    torchlings_layout_path(info kExerciseInfo "${ROOT}" "${folder}" "")
    if(EXISTS "${info}")
      torchlings_read_exercises("${ROOT}" "${folder}")
      torchlings_check_lesson_files("${ROOT}" "${folder}" "${TORCHLINGS_IDS}")
      list(LENGTH TORCHLINGS_IDS n)
      math(EXPR count "${count} + ${n}")
      foreach(id IN LISTS TORCHLINGS_IDS)
        torchlings_mistake_files(files "${ROOT}" "${folder}" ${id})
        list(LENGTH files n)
        math(EXPR mistakes "${mistakes} + ${n}")
      endforeach()
    endif()
  endforeach()
  list(LENGTH lesson_folders lessons)
  message("course check: ok, ${lessons} lessons and ${count} exercises agree with their files "
          "(${mistakes} catalogued mistakes)")
endif()
