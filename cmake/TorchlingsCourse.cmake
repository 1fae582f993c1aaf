# The course's structure as CMake reads it, and its check (like rustlings' `dev check`): which
# exercises each lesson declares (exercises/index.json, written from each lesson's
# exercises/NN_topic/info.md by `./torchlings dev index`), and whether the files agree.
# Included by TorchlingsExercises.cmake; also runs on its own, building nothing:
#   cmake -D ROOT=<course folder> -P cmake/TorchlingsCourse.cmake
#
# The path rules and the default time limit have one owner, TorchlingsLayout.cmake, which sets
# TORCHLINGS_LAYOUT_<name> (kDefaultTimeoutS, kLearnerFile, kSolutionFile, ...).
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  cmake_policy(SET CMP0057 NEW)  # if(IN_LIST); in a configure the project's minimum sets it
endif()
include("${CMAKE_CURRENT_LIST_DIR}/TorchlingsLayout.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/TorchlingsMistakes.cmake")

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

# torchlings_mistake_catalogue(<out> <root> <folder> <id>): the exercise's catalogue of mistakes
# (kMistakeFile, which the runner reads into kMistakeIndex); it may not exist.
function(torchlings_mistake_catalogue out root folder id)
  torchlings_layout_path(path kMistakeFile "${root}" "${folder}" "${id}")
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

# torchlings_check_mistakes(<root> <folder> <ids>): the lesson's folder of catalogues holds one
# file per declared exercise, named as kMistakeFile says, and nothing else. What each catalogue
# says is checked where it is applied (torchlings_apply_mistakes).
function(torchlings_check_mistakes root folder ids)
  torchlings_layout_path(info kExerciseInfo "${root}" "${folder}" "")
  file(RELATIVE_PATH info_name "${root}" "${info}")
  # The folder and the name around {id}: solutions/<folder>/mistakes/ and .md.
  torchlings_layout_path(pattern kMistakeFile "${root}" "${folder}" "{id}")
  string(FIND "${pattern}" "{id}" at)
  string(SUBSTRING "${pattern}" 0 ${at} catalogue)
  math(EXPR after "${at} + 4")
  string(SUBSTRING "${pattern}" ${after} -1 suffix)
  if(NOT IS_DIRECTORY "${catalogue}")
    return()
  endif()
  file(GLOB entries LIST_DIRECTORIES true RELATIVE "${catalogue}" "${catalogue}*")
  foreach(name IN LISTS entries)
    file(RELATIVE_PATH shown "${root}" "${catalogue}${name}")
    string(LENGTH "${name}" length)
    string(LENGTH "${suffix}" suffix_length)
    set(id "")
    if(length GREATER suffix_length AND NOT IS_DIRECTORY "${catalogue}${name}")
      math(EXPR stem "${length} - ${suffix_length}")
      string(SUBSTRING "${name}" ${stem} -1 tail)
      if(tail STREQUAL suffix)
        string(SUBSTRING "${name}" 0 ${stem} id)
      endif()
    endif()
    if(id STREQUAL "")
      message(FATAL_ERROR "${shown} is not a catalogue of mistakes: the folder holds one file "
                          "per exercise, ${TORCHLINGS_LAYOUT_kMistakeFile}, and nothing else")
    endif()
    if(NOT id IN_LIST ids)
      list(JOIN ids ", " declared)
      message(FATAL_ERROR "${shown} is in the catalogue of mistakes but names no exercise: "
                          "${info_name} declares ${declared}. A mistake goes in "
                          "${TORCHLINGS_LAYOUT_kMistakeFile}.")
    endif()
  endforeach()
endfunction()

# torchlings_index_entry(<out> <root> <kind> <source> <left out> <key>...): the entry under
# "lessons" and the <key>s of the course index TORCHLINGS_LAYOUT_<kind> (kExerciseIndex,
# kMistakeIndex: JSON that the runner writes from the course's Markdown, `./torchlings dev index`),
# when it records the SHA-256 of <source> (the Markdown file it was made from) as that file is now.
# Otherwise (no index, no entry, another hash) "", and a warning that names <source>, says that
# <left out> is left out of this build and gives the command: configure goes on, so that a
# maintainer can still build the runner that writes the index. A learner copy (no solutions/:
# `export --learner`, which refuses a stale index) takes its index as exported, whatever its
# Markdown says now: there the index is one of the course files the graders pin, and a teacher
# who fixes a hint in a running class's info.md changes prose only.
function(torchlings_index_entry out root kind source left_out)
  set(${out} "" PARENT_SCOPE)
  set(index "${TORCHLINGS_LAYOUT_${kind}}")
  file(RELATIVE_PATH shown "${root}" "${source}")
  set(fix "${left_out} left out of this build. Run `./torchlings dev index` (it writes "
          "${index} from the course's Markdown) and commit what it writes.")
  if(NOT EXISTS "${root}/${index}")
    message(WARNING "${index} does not exist. " ${fix})
    return()
  endif()
  file(READ "${root}/${index}" json)
  string(JSON entry ERROR_VARIABLE missing GET "${json}" lessons ${ARGN})
  if(missing)
    message(WARNING "${shown} is not in ${index}. " ${fix})
    return()
  endif()
  string(JSON recorded GET "${entry}" sha256)
  file(SHA256 "${source}" actual)
  if(NOT actual STREQUAL recorded AND IS_DIRECTORY "${root}/solutions")
    message(WARNING "${shown} has changed since ${index} was written. " ${fix})
    return()
  endif()
  set(${out} "${entry}" PARENT_SCOPE)
endfunction()

# torchlings_read_exercises(<root> <folder>): sets TORCHLINGS_IDS (in info.md's order) and
# TORCHLINGS_TIMEOUT_<id> for the lesson <folder>, from kExerciseIndex (exercises/index.json), which
# the format's one reader, the runner, writes from each lesson's info.md (runner/core/
# course_parse.cpp); CMake reads no Markdown. TORCHLINGS_IDS is empty, with a warning, when the
# index does not hold the lesson's info.md as it is now (torchlings_index_entry).
function(torchlings_read_exercises root folder)
  set(TORCHLINGS_IDS "" PARENT_SCOPE)
  torchlings_layout_path(info kExerciseInfo "${root}" "${folder}" "")
  torchlings_index_entry(lesson "${root}" kExerciseIndex "${info}"
                         "The exercises of lessons/${folder} are" "${folder}")
  if(lesson STREQUAL "")
    return()
  endif()
  string(JSON count LENGTH "${lesson}" exercises)
  if(count EQUAL 0)
    file(RELATIVE_PATH shown "${root}" "${info}")
    message(FATAL_ERROR "${shown} declares no exercise (expected `## id: title` headings)")
  endif()
  set(ids "")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON id GET "${lesson}" exercises ${i} id)
    string(JSON timeout GET "${lesson}" exercises ${i} timeout_s)
    list(APPEND ids ${id})
    set(TORCHLINGS_TIMEOUT_${id} ${timeout} PARENT_SCOPE)
  endforeach()
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
      if(NOT TORCHLINGS_IDS)
        continue()  # not in the index as it is now: said above
      endif()
      torchlings_check_lesson_files("${ROOT}" "${folder}" "${TORCHLINGS_IDS}")
      list(LENGTH TORCHLINGS_IDS n)
      math(EXPR count "${count} + ${n}")
      foreach(id IN LISTS TORCHLINGS_IDS)
        torchlings_mistake_catalogue(catalogue "${ROOT}" "${folder}" ${id})
        if(EXISTS "${catalogue}" AND IS_DIRECTORY "${ROOT}/solutions")
          torchlings_layout_path(solution kSolutionFile "${ROOT}" "${folder}" ${id})
          torchlings_apply_mistakes("${ROOT}" "${folder}" ${id} "${solution}" SLUGS slugs)
          list(LENGTH slugs n)
          math(EXPR mistakes "${mistakes} + ${n}")
        endif()
      endforeach()
    endif()
  endforeach()
  list(LENGTH lesson_folders lessons)
  message("course check: ok, ${lessons} lessons and ${count} exercises agree with their files "
          "(${mistakes} catalogued mistakes)")
endif()
