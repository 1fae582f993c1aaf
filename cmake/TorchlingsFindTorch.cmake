# Where LibTorch is: the course's one search for it, for CMake (include(TorchlingsFindTorch), from
# TorchlingsTorch.cmake) and for ./torchlings, which runs it as a script before configuring:
#
#   cmake [-D TORCHLINGS_TORCH_SEARCH=<steps>] [-D TORCHLINGS_TORCH_VENV=<venv>] [-D ...] \
#         -P cmake/TorchlingsFindTorch.cmake
#
# prints the folder that holds TorchConfig.cmake (the Torch_DIR to configure with) and, on a second
# line, where it was found (see torchlings_find_torch), or nothing when no step finds one. The
# steps, in the order of TORCHLINGS_TORCH_SEARCH (default "named;python;cache"), the first that
# answers wins:
#   named   what the user names: Torch_DIR (a CMake variable, else the environment variable) when it
#           holds TorchConfig.cmake; $LIBTORCH/share/cmake/Torch (an unpacked libtorch archive);
#           for each entry of CMAKE_PREFIX_PATH (the CMake variable's, then the environment's),
#           <entry>/share/cmake/Torch, then <entry>/Torch;
#   python  the torch package (torch.utils.cmake_prefix_path) of TORCHLINGS_PYTHON, else of python3
#           on PATH (Colab, GPU servers);
#   cache   the torch package of the course's cache venv: TORCHLINGS_TORCH_VENV, by default
#           venv/ in the course's cache folder (scripts/setup/cache_dir.sh names it), which
#           ./torchlings creates on first use and every later build on the machine reuses.
# ./torchlings passes TORCHLINGS_TORCH_SEARCH=named;cache and the venv of TORCHLINGS_TORCH_SPEC
# when a torch is named: then python3's torch does not count.

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  cmake_policy(VERSION 3.25)   # CMakeLists.txt's floor (cmake/CheckCourseText.cmake holds it to it)
endif()

# The Torch folder of the torch package of `python` (<package>/share/cmake/Torch, where
# torch.utils.cmake_prefix_path points), or "" when that Python does not exist, does not run, or has
# no torch that imports. One exception: in a venv where the set-up installed PyPI's wheel without
# its CUDA libraries (marked .torchlings-cpu-use: scripts/setup/torch_wheel.py), torch cannot be
# imported but is a CPU-only LibTorch all the same, so there the package is only located.
function(_torchlings_torch_dir_of_python python out_var)
  set(${out_var} "" PARENT_SCOPE)
  if(python AND EXISTS "${python}")
    execute_process(
      COMMAND "${python}" -c "import importlib.util, os, sys; spec = importlib.util.find_spec('torch'); folder = spec.submodule_search_locations[0]; os.path.exists(os.path.join(sys.prefix, '.torchlings-cpu-use')) or __import__('torch.utils'); print(os.path.join(folder, 'share', 'cmake'))"
      OUTPUT_VARIABLE prefix ERROR_QUIET RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND NOT prefix STREQUAL "")
      set(${out_var} "${prefix}/Torch" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# The candidates of the named step, in order, each "<folder>|<where it comes from>"; the first
# folder that holds TorchConfig.cmake counts.
function(_torchlings_named_torch_dirs out_var)
  set(dirs "${Torch_DIR}|Torch_DIR" "$ENV{Torch_DIR}|Torch_DIR")
  if(NOT "$ENV{LIBTORCH}" STREQUAL "")
    list(APPEND dirs "$ENV{LIBTORCH}/share/cmake/Torch|LIBTORCH=$ENV{LIBTORCH}")
  endif()
  string(REPLACE ":" ";" env_prefixes "$ENV{CMAKE_PREFIX_PATH}")
  foreach(prefix IN LISTS CMAKE_PREFIX_PATH env_prefixes)
    if(NOT prefix STREQUAL "")
      list(APPEND dirs "${prefix}/share/cmake/Torch|CMAKE_PREFIX_PATH's ${prefix}"
                       "${prefix}/Torch|CMAKE_PREFIX_PATH's ${prefix}")
    endif()
  endforeach()
  set(${out_var} "${dirs}" PARENT_SCOPE)
endfunction()

# torchlings_find_torch(<out_var> [<origin_var>]): the Torch_DIR that the steps of
# TORCHLINGS_TORCH_SEARCH find (see the top of this file), or "". <origin_var> gets where it was
# found, in words (`doctor` shows them): "Torch_DIR", "LIBTORCH=<folder>", "CMAKE_PREFIX_PATH's
# <entry>", "python3's torch package <folder>", "the course's cache venv <venv>" or "CMake's
# package search".
function(torchlings_find_torch out_var)
  set(steps "named;python;cache")
  if(DEFINED TORCHLINGS_TORCH_SEARCH)
    set(steps "${TORCHLINGS_TORCH_SEARCH}")
  endif()
  set(${out_var} "" PARENT_SCOPE)
  # Each step's candidates, "<candidate>|<origin>": a Torch folder, or python=<a Python> for its
  # torch package's folder (asked only when no candidate before it answered: importing torch takes
  # seconds).
  foreach(step IN LISTS steps)
    set(candidates "")
    if(step STREQUAL "named")
      _torchlings_named_torch_dirs(candidates)
    elseif(step STREQUAL "python")
      find_program(_tl_python3 NAMES python3 python NO_CACHE)
      set(candidates "python=${TORCHLINGS_PYTHON}|python3's torch package"
                     "python=${_tl_python3}|python3's torch package")
    elseif(step STREQUAL "cache")
      set(venv "${TORCHLINGS_TORCH_VENV}")
      if(venv STREQUAL "")
        execute_process(COMMAND sh "${_TORCHLINGS_FIND_TORCH_DIR}/../scripts/setup/cache_dir.sh"
                        OUTPUT_VARIABLE cache_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
        set(venv "${cache_dir}/venv")
      endif()
      # A venv whose install was cut short (scripts/setup/torch_wheel.py's marker is still in it)
      # is no LibTorch, also for a CMake run by hand; ./torchlings removes it and installs again.
      if(NOT EXISTS "${venv}/.torchlings-installing")
        set(candidates "python=${venv}/bin/python|the course's cache venv ${venv}")
      endif()
    endif()
    foreach(candidate IN LISTS candidates)
      string(FIND "${candidate}" "|" bar REVERSE)
      string(SUBSTRING "${candidate}" 0 ${bar} dir)
      math(EXPR bar "${bar} + 1")
      string(SUBSTRING "${candidate}" ${bar} -1 origin)
      if(dir MATCHES "^python=(.*)$")
        _torchlings_torch_dir_of_python("${CMAKE_MATCH_1}" dir)
      endif()
      if(NOT dir STREQUAL "" AND EXISTS "${dir}/TorchConfig.cmake")
        if(origin MATCHES "^python3")  # name the package: <package>/share/cmake/Torch
          get_filename_component(package "${dir}/../../.." ABSOLUTE)
          string(APPEND origin " ${package}")
        endif()
        set(${out_var} "${dir}" PARENT_SCOPE)
        if(ARGC GREATER 1)
          set(${ARGV1} "${origin}" PARENT_SCOPE)
        endif()
        return()
      endif()
    endforeach()
    # A configure also asks find_package, which looks further (Torch_ROOT, the user package
    # registry, system prefixes such as a distribution's libtorch-dev). It loads what it finds, so
    # it comes after the folders named above; a script cannot call it.
    if(step STREQUAL "named" AND NOT CMAKE_SCRIPT_MODE_FILE)
      find_package(Torch QUIET CONFIG)
      if(Torch_FOUND)
        set(${out_var} "${Torch_DIR}" PARENT_SCOPE)
        if(ARGC GREATER 1)
          set(${ARGV1} "CMake's package search" PARENT_SCOPE)
        endif()
        return()
      endif()
    endif()
  endforeach()
endfunction()

set(_TORCHLINGS_FIND_TORCH_DIR "${CMAKE_CURRENT_LIST_DIR}")

# --- Script mode: print what the search finds. ---
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  torchlings_find_torch(torch_dir origin)
  if(torch_dir)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${torch_dir}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${origin}")
  endif()
endif()
