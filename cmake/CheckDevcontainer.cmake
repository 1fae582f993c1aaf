# The devcontainer sets itself up with the README's first command, exactly (a CTest, label `docs`):
#
#   cmake -D ROOT=<course root> -P cmake/CheckDevcontainer.cmake
#
# The README owns the command: the first line of its first ```sh block, without its # comment.
# scripts/ci/stock_debian_check.sh runs that same line on a stock Debian 13 root, so a devcontainer
# (Debian 13 too) whose postCreateCommand is that line does what CI proves. Fails when
# .devcontainer/devcontainer.json's postCreateCommand is anything else (another command, one with
# more in it, an array form), or when either file cannot be read.
cmake_minimum_required(VERSION 3.25)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -D ROOT=<course root> -P CheckDevcontainer.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

# The README's first command.
file(STRINGS "${ROOT}/README.md" lines)
set(in_block FALSE)
set(first "")
foreach(line IN LISTS lines)
  if(NOT in_block AND line MATCHES "^```sh[ \t]*$")
    set(in_block TRUE)
  elseif(in_block)
    string(REGEX REPLACE "[ \t]+#.*$" "" first "${line}")
    string(STRIP "${first}" first)
    break()
  endif()
endforeach()
if(first STREQUAL "" OR first MATCHES "^```")
  message(FATAL_ERROR "README.md: no first command (the first line of its first ```sh block)")
endif()

# The devcontainer's set-up command (devcontainer.json is JSON with comments, which CMake reads).
set(config "${ROOT}/.devcontainer/devcontainer.json")
if(NOT EXISTS "${config}")
  message(FATAL_ERROR ".devcontainer/devcontainer.json: missing")
endif()
file(READ "${config}" json)
string(JSON type ERROR_VARIABLE error TYPE "${json}" postCreateCommand)
if(error)
  message(FATAL_ERROR ".devcontainer/devcontainer.json: no postCreateCommand (${error})")
endif()
if(NOT type STREQUAL "STRING")
  message(FATAL_ERROR ".devcontainer/devcontainer.json: postCreateCommand is ${type}; make it the "
                      "README's first command as one string: \"${first}\"")
endif()
string(JSON command GET "${json}" postCreateCommand)

if(NOT command STREQUAL first)
  message(FATAL_ERROR ".devcontainer/devcontainer.json: postCreateCommand is \"${command}\", but "
                      "README.md's first command is \"${first}\"; they must be the same, so that "
                      "the devcontainer does what scripts/ci/stock_debian_check.sh proves")
endif()
message(STATUS "devcontainer: postCreateCommand is the README's first command (${first})")
