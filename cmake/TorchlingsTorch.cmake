# Locate LibTorch, decide whether the project's CUDA kernels are compiled, and report both.
#
# LibTorch is the Torch_DIR given, else the first that cmake/TorchlingsFindTorch.cmake finds (the
# search ./torchlings runs too; its top says where it looks, in which order): what the user names
# (Torch_DIR, LIBTORCH, CMAKE_PREFIX_PATH), the torch package of TORCHLINGS_PYTHON or python3, the
# course's cache venv. TORCHLINGS_TORCH_SEARCH chooses and orders those steps.
#
# A CUDA LibTorch also needs nvcc here (no GPU): CMAKE_CUDA_COMPILER / CUDACXX, else nvcc on PATH.
# ./torchlings passes the one it chose (an installed toolkit of the torch's major CUDA version,
# else nvcc from PyPI in cuda-X.Y/ of the course's cache folder) with CUDAToolkit_ROOT,
# and says where it came from in TORCHLINGS_CUDA_TOOLKIT_FROM and _NOTE, written for `doctor`.

set(TORCHLINGS_PYTHON "" CACHE FILEPATH "Python interpreter whose torch package provides LibTorch")
set(TORCHLINGS_TORCH_SEARCH "named;python;cache" CACHE STRING
    "Where to look for LibTorch, in order: named (Torch_DIR, CMAKE_PREFIX_PATH, LIBTORCH), python, cache")
set(TORCHLINGS_CUDA_TOOLKIT_FROM "" CACHE STRING
    "Where the CUDA toolkit came from (installed, pypi, CUDACXX, CUDAToolkit_ROOT); set by ./torchlings")
set(TORCHLINGS_CUDA_TOOLKIT_NOTE "" CACHE STRING
    "Why this CUDA toolkit was chosen when it is not the obvious one; set by ./torchlings")

# The JSON text of a value: a string (quotes, backslashes, newlines and tabs escaped), or null
# when it is empty, "-NOTFOUND" or, with the kind "string", always a string; with the kind "bool",
# true or false.
function(_tl_json_value out_var kind value)
  if(kind STREQUAL "bool")
    if(value)
      set(${out_var} "true" PARENT_SCOPE)
    else()
      set(${out_var} "false" PARENT_SCOPE)
    endif()
    return()
  endif()
  if(kind STREQUAL "optional" AND (value STREQUAL "" OR value MATCHES "-NOTFOUND$"))
    set(${out_var} "null" PARENT_SCOPE)
    return()
  endif()
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  set(${out_var} "\"${value}\"" PARENT_SCOPE)
endfunction()

include(TorchlingsFindTorch)   # the search, shared with ./torchlings
if(NOT Torch_DIR OR NOT EXISTS "${Torch_DIR}/TorchConfig.cmake")
  torchlings_find_torch(_tl_torch_dir _tl_torch_origin)
  if(_tl_torch_dir)
    set(Torch_DIR "${_tl_torch_dir}" CACHE PATH "Folder holding TorchConfig.cmake" FORCE)
    # Where the search found it, for `doctor`, kept with the folder it is about: a Torch_DIR
    # given later on the command line makes it stale.
    set(TORCHLINGS_TORCH_ORIGIN "${_tl_torch_origin}|${_tl_torch_dir}" CACHE INTERNAL "")
  endif()
endif()
set(_tl_torch_origin "Torch_DIR")   # given to CMake, or kept in its cache
if(TORCHLINGS_TORCH_ORIGIN MATCHES "^(.*)\\|(.*)$" AND CMAKE_MATCH_2 STREQUAL Torch_DIR)
  set(_tl_torch_origin "${CMAKE_MATCH_1}")
endif()

if(NOT Torch_DIR OR NOT EXISTS "${Torch_DIR}/TorchConfig.cmake")
  message(FATAL_ERROR
    "torchlings: LibTorch was not found.\n"
    "Looked at Torch_DIR, CMAKE_PREFIX_PATH, $LIBTORCH, the torch package of python3 and of the "
    "course's cache venv. The simplest fix is to let the course install it:\n"
    "    ./torchlings run 01        (installs the torch wheel into the course's cache venv)\n"
    "or name an existing one:\n"
    "    cmake --preset dev -DTorch_DIR=<libtorch>/share/cmake/Torch\n")
endif()

# A CUDA LibTorch runs Caffe2's cuda.cmake, which needs the CUDA toolkit (nvcc) at configure time
# but no GPU or driver. Whether this LibTorch has CUDA is decided before loading it, by the
# presence of its CUDA library.
get_filename_component(_torch_root "${Torch_DIR}/../../.." ABSOLUTE)
if(EXISTS "${_torch_root}/lib/libtorch_cuda.so")
  set(TORCHLINGS_TORCH_HAS_CUDA ON)
else()
  set(TORCHLINGS_TORCH_HAS_CUDA OFF)
endif()
# PyPI's CUDA wheel installed without its CUDA libraries, where there is no NVIDIA driver and
# PyTorch's CPU index cannot be reached (scripts/setup/torch_wheel.py marks its venv with
# .torchlings-cpu-use): used as a CPU-only LibTorch. Torch's own config cannot load it (a CUDA
# build's config needs the CUDA toolkit, and links libtorch_cuda.so, whose cuDNN, cuBLAS, NCCL...
# are not there), so the target `torch` is made here from what a CPU-only program links:
# libtorch_cpu.so and libc10.so, Torch's two include folders and torch_cpu's compile definitions
# as the wheel's Caffe2Targets.cmake records them. libtorch_cpu.so's own needs (the CUDA runtime and
# CUPTI, for its profiler) were installed beside it; no kernel is compiled.
get_filename_component(_tl_python_prefix "${_torch_root}/../../../.." ABSOLUTE)
set(TORCHLINGS_TORCH_CPU_USE OFF)
if(TORCHLINGS_TORCH_HAS_CUDA AND EXISTS "${_tl_python_prefix}/.torchlings-cpu-use")
  set(TORCHLINGS_TORCH_HAS_CUDA OFF)
  set(TORCHLINGS_TORCH_CPU_USE ON)
endif()

# The version from the wheel's version.py (a libtorch archive has build-version instead), read
# before Torch's own config runs, so that a LibTorch outside the supported range stops here with
# one clear message rather than somewhere inside Torch's CMake files.
set(TORCHLINGS_TORCH_VERSION "unknown")
set(_torch_cuda "none")
if(EXISTS "${_torch_root}/version.py")
  file(STRINGS "${_torch_root}/version.py" _ver REGEX "^__version__")
  string(REGEX REPLACE ".*'([^']+)'.*" "\\1" TORCHLINGS_TORCH_VERSION "${_ver}")
  file(STRINGS "${_torch_root}/version.py" _cuda_line REGEX "^cuda")
  if(_cuda_line MATCHES "'([0-9.]+)'")
    set(_torch_cuda "${CMAKE_MATCH_1}")
  endif()
elseif(EXISTS "${_torch_root}/build-version")
  file(STRINGS "${_torch_root}/build-version" _ver LIMIT_COUNT 1)
  set(TORCHLINGS_TORCH_VERSION "${_ver}")
  if(_ver MATCHES "\\+cu([0-9]+)([0-9])$")        # 2.9.1+cu128
    set(_torch_cuda "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
  endif()
endif()
include(TorchlingsSupport)     # the stated support range: torch, CMake, compiler

include(CheckLanguage)
set(TORCHLINGS_CUDA_KERNELS OFF)
if(TORCHLINGS_TORCH_HAS_CUDA)
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR
      "torchlings: this LibTorch was built with CUDA ${_torch_cuda}, and configuring it needs the "
      "CUDA toolkit (nvcc; a GPU is not needed), which was not found. ./torchlings setup installs "
      "a matching nvcc from PyPI; or name an installed toolkit (-DCMAKE_CUDA_COMPILER=<nvcc>, "
      "CUDACXX=<nvcc>, or nvcc on PATH), or use a CPU-only LibTorch.")
  endif()
  # Architectures for the language check; Torch turns the variable OFF again below, so each
  # CUDA target sets its own from TORCHLINGS_CUDA_ARCHITECTURES.
  set(CMAKE_CUDA_ARCHITECTURES ${TORCHLINGS_CUDA_ARCHITECTURES})
  # The .cu files include no LibTorch headers, so C++17 (which every nvcc 11+ accepts) suffices.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_EXTENSIONS OFF)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_language(CUDA)
  # Torch warns about (and ignores) CMAKE_CUDA_ARCHITECTURES; it reads TORCH_CUDA_ARCH_LIST.
  unset(CMAKE_CUDA_ARCHITECTURES)
  unset(CMAKE_CUDA_ARCHITECTURES CACHE)
  # Tell Torch which architectures to add, so it does not append its long default list: the same
  # as TORCHLINGS_CUDA_ARCHITECTURES, in Torch's spelling ("75-real;90" -> "7.5;9.0").
  set(_tl_arch_list "")
  foreach(_tl_arch IN LISTS TORCHLINGS_CUDA_ARCHITECTURES)
    string(REGEX REPLACE "^([0-9]+)([0-9])(-real|-virtual)?$" "\\1.\\2" _tl_arch "${_tl_arch}")
    list(APPEND _tl_arch_list "${_tl_arch}")
  endforeach()
  set(TORCH_CUDA_ARCH_LIST "${_tl_arch_list}" CACHE STRING "Architectures Torch adds to CUDA flags")
  find_package(CUDAToolkit REQUIRED)
  # CUDA 12.9+ ships NVTX 3 only (header-only); older Caffe2 configs still ask for nvToolsExt.
  if(NOT TARGET CUDA::nvToolsExt AND TARGET CUDA::nvtx3)
    add_library(CUDA::nvToolsExt INTERFACE IMPORTED)
    target_compile_definitions(CUDA::nvToolsExt INTERFACE TORCH_CUDA_USE_NVTX3)
    target_link_libraries(CUDA::nvToolsExt INTERFACE CUDA::nvtx3)
  endif()
  if(TORCHLINGS_CUDA)
    set(TORCHLINGS_CUDA_KERNELS ON)
  endif()
  # nvcc of another major CUDA version than the LibTorch's (Colab's 12.8 against a cu13 wheel) still
  # builds, but say so once, with both versions and the fix; ./torchlings, when it chose another
  # toolkit for that reason, passes its own note instead.
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" TORCHLINGS_NVCC_VERSION "${CMAKE_CUDA_COMPILER_VERSION}")
  set(_tl_cuda_note "${TORCHLINGS_CUDA_TOOLKIT_NOTE}")
  if(NOT _tl_cuda_note AND _torch_cuda MATCHES "^([0-9]+)\\." )
    set(_tl_torch_major "${CMAKE_MATCH_1}")
    if(CMAKE_CUDA_COMPILER_VERSION MATCHES "^([0-9]+)\\." AND NOT CMAKE_MATCH_1 EQUAL _tl_torch_major)
      string(CONCAT _tl_cuda_note
             "nvcc ${TORCHLINGS_NVCC_VERSION} (${CMAKE_CUDA_COMPILER}) is not of CUDA "
             "${_tl_torch_major}, which LibTorch ${TORCHLINGS_TORCH_VERSION} was built with (CUDA "
             "${_torch_cuda}): the kernels build, but to match, install CUDA toolkit "
             "${_torch_cuda} and set CUDACXX=<its nvcc>")
      if(_tl_torch_major GREATER_EQUAL 13)
        string(APPEND _tl_cuda_note ", or let ./torchlings install nvcc ${_torch_cuda} from PyPI "
                                    "(a new build folder, without CUDACXX)")
      else()
        string(APPEND _tl_cuda_note " (PyPI has nvcc for CUDA 13 and later only)")
      endif()
    endif()
  endif()
  if(_tl_cuda_note)
    message(STATUS "torchlings: CUDA toolkit: ${_tl_cuda_note}")
  endif()
endif()

if(TORCHLINGS_TORCH_CPU_USE)
  add_library(torch SHARED IMPORTED)
  set(_tl_cpu_definitions "")
  file(READ "${_torch_root}/share/cmake/Caffe2/Caffe2Targets.cmake" _tl_targets)
  if(_tl_targets MATCHES "set_target_properties\\(torch_cpu PROPERTIES[^)]*INTERFACE_COMPILE_DEFINITIONS \"([^\"]*)\"")
    set(_tl_cpu_definitions "${CMAKE_MATCH_1}")
  endif()
  set_target_properties(torch PROPERTIES
    IMPORTED_LOCATION "${_torch_root}/lib/libtorch_cpu.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_torch_root}/include;${_torch_root}/include/torch/csrc/api/include"
    INTERFACE_COMPILE_DEFINITIONS "${_tl_cpu_definitions}"
    INTERFACE_LINK_LIBRARIES "${_torch_root}/lib/libc10.so")
  target_compile_features(torch INTERFACE cxx_std_20)
  set(TORCH_LIBRARIES torch)
  set(_torch_cuda "none")
else()
  find_package(Torch REQUIRED CONFIG)
endif()
# TL_TORCH_CUDA: 1 when the course links LibTorch's CUDA libraries (libtorch_cuda, libc10_cuda),
# else 0. Code that calls into them (data_parallel's Scatter and Gather, CUDA streams and graphs)
# is compiled only with 1. The CUDA headers alone decide nothing: a CPU-only LibTorch may still
# ship ATen/cuda, and a CUDA toolkit may put cuda_runtime_api.h on the default include path, yet
# neither links. On the target `torch`, so that the precompiled headers see it too.
if(TORCHLINGS_TORCH_HAS_CUDA)
  set_property(TARGET torch APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS TL_TORCH_CUDA=1)
else()
  set_property(TARGET torch APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS TL_TORCH_CUDA=0)
endif()
if(TORCHLINGS_TORCH_HAS_CUDA)
  # Torch's cuda.cmake leaves CMAKE_CUDA_ARCHITECTURES undefined (or OFF). CMake 4 refuses an empty
  # value in every later CUDA check (FindOpenMP's try_compile among them: "CUDA_ARCHITECTURES is
  # empty for target cmTC_..."), so give it the course's list again, now that Torch has loaded.
  set(CMAKE_CUDA_ARCHITECTURES "${TORCHLINGS_CUDA_ARCHITECTURES}")
endif()

# The learner's own CUDA files (lesson 09's exercises) are compiled for one architecture, not for
# every one of TORCHLINGS_CUDA_ARCHITECTURES: each costs about half a second of every save. With
# GPUs that nvidia-smi names and the list has, their machine code ("90-real"); otherwise PTX for
# the list's first architecture ("75-virtual"), which the driver compiles for whatever GPU runs it
# (on a machine without one, the compile still checks the device code). The catalogued mistakes
# take the same list; the solutions and common/ keep the whole one.
set(TORCHLINGS_LEARNER_CUDA_ARCHITECTURES "")
if(TORCHLINGS_TORCH_HAS_CUDA)
  set(_tl_listed "")
  foreach(_tl_arch IN LISTS TORCHLINGS_CUDA_ARCHITECTURES)
    string(REGEX REPLACE "-(real|virtual)$" "" _tl_arch "${_tl_arch}")
    list(APPEND _tl_listed "${_tl_arch}")
  endforeach()
  find_program(TORCHLINGS_NVIDIA_SMI nvidia-smi)
  set(_tl_gpu_archs "")
  if(TORCHLINGS_NVIDIA_SMI)
    execute_process(COMMAND "${TORCHLINGS_NVIDIA_SMI}" --query-gpu=compute_cap
                            --format=csv,noheader
                    OUTPUT_VARIABLE _tl_caps RESULT_VARIABLE _tl_failed ERROR_QUIET)
    if(NOT _tl_failed)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]" _tl_caps "${_tl_caps}")
      foreach(_tl_cap IN LISTS _tl_caps)
        string(REPLACE "." "" _tl_cap "${_tl_cap}")
        list(APPEND _tl_gpu_archs "${_tl_cap}")
      endforeach()
      list(REMOVE_DUPLICATES _tl_gpu_archs)
    endif()
  endif()
  foreach(_tl_arch IN LISTS _tl_gpu_archs)
    if(NOT _tl_arch IN_LIST _tl_listed)
      # A GPU the list lacks: compile the whole list, as for the solutions.
      set(TORCHLINGS_LEARNER_CUDA_ARCHITECTURES "${TORCHLINGS_CUDA_ARCHITECTURES}")
      break()
    endif()
    list(APPEND TORCHLINGS_LEARNER_CUDA_ARCHITECTURES "${_tl_arch}-real")
  endforeach()
  if(NOT TORCHLINGS_LEARNER_CUDA_ARCHITECTURES AND _tl_listed)
    list(GET _tl_listed 0 _tl_first)
    set(TORCHLINGS_LEARNER_CUDA_ARCHITECTURES "${_tl_first}-virtual")
  endif()
endif()
include(TorchlingsLinking)     # link options every program that uses LibTorch needs (lesson 06)
# The project's .cu files include no LibTorch headers; they get their architectures from the
# per-target property, so Torch's -gencode flags would only compile everything twice.
string(REGEX REPLACE "-gencode[ =]arch=compute_[0-9a-z]+,code=(sm|compute)_[0-9a-z]+" ""
       CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS}")
# With Clang 18 or newer as the C++ compiler, Torch's cuda.cmake asks nvcc's host compiler for
# Clang 17's name mangling (-Xcompiler=-fclang-abi-compat=17). nvcc's host compiler is GCC here
# (nvcc's default, whatever compiles the .cpp files), which rejects the option; and the .cu files
# export only plain functions of pointers and sizes, whose names both manglings spell alike. Only
# the cache says which host compiler nvcc is given: Torch sets a plain variable of that name to the
# C++ compiler, which nvcc never sees.
if(NOT "$CACHE{CMAKE_CUDA_HOST_COMPILER}" MATCHES "clang")
  string(REPLACE "-Xcompiler=-fclang-abi-compat=17" "" CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS}")
endif()

# Gloo's headers, which ProcessGroupGloo.hpp includes and the wheel does not ship (lesson 10's
# process groups on the CPU; Debian and Ubuntu: libgloo-dev). Headers only: nothing is linked.
find_path(TORCHLINGS_GLOO_INCLUDE_DIR gloo/algorithm.h
          DOC "Folder holding gloo/algorithm.h (libgloo-dev), for c10d::ProcessGroupGloo")
if(TORCHLINGS_GLOO_INCLUDE_DIR)
  message(STATUS "torchlings: Gloo headers: ${TORCHLINGS_GLOO_INCLUDE_DIR}")
elseif(APPLE)
  message(STATUS "torchlings: Gloo headers: not found (lesson 10 needs them: "
                 "./torchlings setup fetches them and reconfigures)")
else()
  message(STATUS "torchlings: Gloo headers: not found (lesson 10 needs them: "
                 "sudo apt-get install libgloo-dev, then reconfigure)")
endif()

# torchrun, the launcher that ships with torch (lesson 10 starts one process per device with it):
# beside the Python that holds this torch (a venv's bin/, or /usr/local/bin), else on PATH.
# Not with a torch used as CPU-only: its Python package, which torchrun is, needs the CUDA
# libraries left out.
set(TORCHLINGS_TORCHRUN_MISSING "")
if(TORCHLINGS_TORCH_CPU_USE)
  # Not cached: an empty cached value would count as found, and torchrun would never be looked
  # for again once `setup --cuda` brings the whole wheel.
  unset(TORCHLINGS_TORCHRUN CACHE)
  set(TORCHLINGS_TORCHRUN "")
  string(CONCAT TORCHLINGS_TORCHRUN_MISSING
         "this torch was installed without its CUDA libraries, and torchrun (Python's torch) "
         "cannot start without them: ./torchlings setup --cuda installs them (about 3 GB)")
  message(STATUS "torchlings: torchrun: none (${TORCHLINGS_TORCHRUN_MISSING})")
else()
  find_program(TORCHLINGS_TORCHRUN torchrun HINTS "${_tl_python_prefix}/bin"
               DOC "torchrun of the torch that provides LibTorch (lesson 10)")
  if(TORCHLINGS_TORCHRUN)
    message(STATUS "torchlings: torchrun: ${TORCHLINGS_TORCHRUN}")
  else()
    message(STATUS "torchlings: torchrun: not found (lesson 10 then runs as one process)")
  endif()
endif()

# --- What was found: printed now and written for `torchlings doctor`. ---
# The C++11 ABI: from Torch's flags when it states it, else from libc10's symbols (2.7+ wheels
# only ship the new ABI and no longer pass the define).
set(_abi "unknown")
if(TORCH_CXX_FLAGS MATCHES "_GLIBCXX_USE_CXX11_ABI=([01])")
  set(_abi "${CMAKE_MATCH_1}")
elseif(EXISTS "${_torch_root}/lib/libc10.so")
  file(STRINGS "${_torch_root}/lib/libc10.so" _cxx11_symbols REGEX "__cxx11" LIMIT_COUNT 1)
  if(_cxx11_symbols)
    set(_abi "1")
  else()
    set(_abi "0")
  endif()
endif()
if(_torch_cuda STREQUAL "none" AND TORCHLINGS_TORCH_HAS_CUDA)
  set(_torch_cuda "${CUDA_VERSION}")
endif()
message(STATUS "torchlings: LibTorch ${TORCHLINGS_TORCH_VERSION} from ${Torch_DIR}")
if(TORCHLINGS_TORCH_CPU_USE)
  message(STATUS "torchlings: LibTorch used as CPU-only (PyPI's CUDA wheel without its CUDA "
                 "libraries: libtorch_cpu.so and libc10.so linked); C++11 ABI: ${_abi}")
else()
  message(STATUS "torchlings: LibTorch built with CUDA: ${_torch_cuda}; C++11 ABI: ${_abi}")
endif()
if(TORCHLINGS_CUDA_KERNELS)
  message(STATUS "torchlings: CUDA kernels: compiled with ${CMAKE_CUDA_COMPILER} "
                 "${CMAKE_CUDA_COMPILER_VERSION} for ${TORCHLINGS_CUDA_ARCHITECTURES} "
                 "(your lesson 09 files: ${TORCHLINGS_LEARNER_CUDA_ARCHITECTURES})")
else()
  message(STATUS "torchlings: CUDA kernels: not compiled (CPU twins only)")
endif()
message(STATUS "torchlings: C++ compiler: ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} "
               "(${CMAKE_CXX_COMPILER})")
message(STATUS "torchlings: linker: ${TORCHLINGS_LINKER}")

set(_tl_cuda_from "")
if(CMAKE_CUDA_COMPILER)
  # installed | pypi | CUDACXX | CUDAToolkit_ROOT (./torchlings); a plain cmake found an
  # installed one.
  set(_tl_cuda_from "installed")
  if(TORCHLINGS_CUDA_TOOLKIT_FROM)
    set(_tl_cuda_from "${TORCHLINGS_CUDA_TOOLKIT_FROM}")
  endif()
endif()
if(_torch_cuda STREQUAL "none")
  set(_torch_cuda "")
endif()
# Which torch wheel the set-up installed into its cache venv, and why (scripts/setup/torch_wheel.py
# writes the line); none for a LibTorch from anywhere else.
set(_tl_torch_wheel "")
if(EXISTS "${_tl_python_prefix}/.torchlings-wheel")
  file(STRINGS "${_tl_python_prefix}/.torchlings-wheel" _tl_torch_wheel LIMIT_COUNT 1)
endif()
set(_abi_bool OFF)
if(_abi STREQUAL "1")
  set(_abi_bool ON)
endif()
set(_tl_supported_torch "${TORCHLINGS_TORCH_OLDEST} to ${TORCHLINGS_TORCH_NEWEST}")
set(_tl_supported_cmake "${CMAKE_MINIMUM_REQUIRED_VERSION} to 4.x")
set(_tl_supported_gcc "${TORCHLINGS_GCC_OLDEST} or newer")
set(_tl_supported_clang "${TORCHLINGS_CLANG_OLDEST} or newer")
# What was found, for `torchlings doctor`: key, kind (string, optional: a string or null, bool),
# variable. cxx_compiler_chosen_by: ./torchlings passes CXX (named in CXX), clang (the newest
# clang++-N installed with its OpenMP runtime) or default (CMake's default, g++); null without the
# wrapper. Catch2 is found before this file (CMakeLists.txt), so its version is known here.
set(_tl_config "{}")
set(_tl_supported "{}")
foreach(_tl_entry IN ITEMS
    "torch_version|string|TORCHLINGS_TORCH_VERSION" "torch_cuda_version|optional|_torch_cuda"
    "cxx11_abi|bool|_abi_bool" "cuda_kernels|bool|TORCHLINGS_CUDA_KERNELS"
    "cuda_architectures|string|TORCHLINGS_CUDA_ARCHITECTURES" "torch_dir|string|Torch_DIR"
    "torch_found_by|optional|_tl_torch_origin" "torch_wheel|optional|_tl_torch_wheel"
    "cxx_compiler|string|CMAKE_CXX_COMPILER" "cxx_compiler_version|string|CMAKE_CXX_COMPILER_VERSION"
    "nvcc|optional|CMAKE_CUDA_COMPILER" "nvcc_version|optional|TORCHLINGS_NVCC_VERSION"
    "cuda_toolkit_from|optional|_tl_cuda_from" "cuda_toolkit_note|optional|_tl_cuda_note"
    "linker|string|TORCHLINGS_LINKER" "cmake_version|string|CMAKE_VERSION"
    "gloo_headers|optional|TORCHLINGS_GLOO_INCLUDE_DIR" "torchrun|optional|TORCHLINGS_TORCHRUN"
    "torchrun_missing|optional|TORCHLINGS_TORCHRUN_MISSING"
    "cxx_compiler_chosen_by|optional|TORCHLINGS_CXX_CHOSEN_BY" "catch2_version|string|Catch2_VERSION"
    "supported.torch|string|_tl_supported_torch" "supported.cmake|string|_tl_supported_cmake"
    "supported.gcc|string|_tl_supported_gcc" "supported.clang|string|_tl_supported_clang"
    "supported.this_torch|string|TORCHLINGS_TORCH_SUPPORT")
  string(REPLACE "|" ";" _tl_entry "${_tl_entry}")
  list(GET _tl_entry 0 _tl_key)
  list(GET _tl_entry 1 _tl_kind)
  list(GET _tl_entry 2 _tl_var)
  _tl_json_value(_tl_json "${_tl_kind}" "${${_tl_var}}")
  if(_tl_key MATCHES "^supported\\.(.*)$")
    string(JSON _tl_supported SET "${_tl_supported}" "${CMAKE_MATCH_1}" "${_tl_json}")
  else()
    string(JSON _tl_config SET "${_tl_config}" "${_tl_key}" "${_tl_json}")
  endif()
endforeach()
string(JSON _tl_config SET "${_tl_config}" "supported" "${_tl_supported}")
file(WRITE "${CMAKE_BINARY_DIR}/torchlings_config.json" "${_tl_config}\n")
