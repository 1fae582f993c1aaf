# Toolchain choices shared by every target: the linker and the warning sets.

# LibTorch executables link a dozen large shared libraries; mold and lld link them in a fraction
# of the time ld.bfd takes (0.2 s against 1 s for one exercise), which is most of a learner's
# rebuild after editing one exercise file. mold before 2.4.0 sometimes lays a thread-local .tbss
# over the start of the read-only-after-relocation segment, and the program then fails to start
# ("cannot apply additional memory protection after relocation"; mold issue #1151, fixed in
# 2.4.0). Debian 12 ships mold 1.10 and Ubuntu 22.04 mold 1.0, so older molds are passed over.
# macOS (a Mach-O target) keeps its own linker: mold and ld.lld link ELF.
find_program(TORCHLINGS_MOLD mold)
find_program(TORCHLINGS_LLD ld.lld)
set(TORCHLINGS_LINKER "default")
if(TORCHLINGS_MOLD AND NOT APPLE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12.1)
  execute_process(COMMAND "${TORCHLINGS_MOLD}" --version OUTPUT_VARIABLE mold_version
                  ERROR_QUIET RESULT_VARIABLE mold_failed)
  string(REGEX MATCH "mold ([0-9]+\\.[0-9]+\\.[0-9]+)" mold_version "${mold_version}")
  if(NOT mold_failed AND CMAKE_MATCH_1 VERSION_GREATER_EQUAL 2.4.0)
    set(TORCHLINGS_LINKER "mold")
  endif()
endif()
if(TORCHLINGS_LINKER STREQUAL "default" AND TORCHLINGS_LLD AND NOT APPLE
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(TORCHLINGS_LINKER "lld")
endif()
if(NOT TORCHLINGS_LINKER STREQUAL "default")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fuse-ld=${TORCHLINGS_LINKER}>")
endif()

# Warnings for code the course ships (common/, solutions/, lessons/, tests). -Werror where the
# option asks for it; LibTorch's own headers are system includes, so they stay quiet.
add_library(torchlings_warnings INTERFACE)
target_compile_options(torchlings_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                            -Wno-unused-parameter>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${TORCHLINGS_WERROR}>>:-Werror>
  # GCC 12 at -O3 reports a false -Wrestrict inside std::string's operator+ (GCC bug 105329).
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
  # Inlined LibTorch guards (c10::OptionalDeviceGuard) trip GCC's -O3 maybe-uninitialized
  # analysis in the caller's code, where -isystem cannot silence it.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-maybe-uninitialized>
  # GCC 13 and 14 (Ubuntu 24.04, Debian 13) add -Wdangling-reference to -Wall: it reports a
  # reference bound to what a function returns whenever an argument is a temporary, true or not
  # (PyTorch's own build turns it off for the same reason), and -Werror would stop the build.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>,$<VERSION_GREATER_EQUAL:$<CXX_COMPILER_VERSION>,13>>:-Wno-dangling-reference>
  # Clang 22 adds __COUNTER__ to -Wpedantic's extensions (standard only in C2y), and every
  # TEST_CASE of Catch2 and TORCH_LIBRARY_IMPL of LibTorch expands to it in the course's own files.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>,$<VERSION_GREATER_EQUAL:$<CXX_COMPILER_VERSION>,22>>:-Wno-c2y-extensions>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)

# Warnings for the learner's own file: the same hints, never fatal (a learner mid-edit should see
# their test results, not a wall of -Werror).
add_library(torchlings_learner_warnings INTERFACE)
target_compile_options(torchlings_learner_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-fmax-errors=5>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>>:-ferror-limit=5>
  # An exercise's class declares the members its solution uses; an untouched stub does not use
  # them yet, and Clang (not GCC) would warn about each one before the learner has written a line.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>>:-Wno-unused-private-field>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

# How exercise files are optimised (the learner's file, the solution, the catalogued mistakes, and
# the precompiled headers they reuse, which must be built with the same -O). They call LibTorch,
# whose kernels are optimised already, so -O2 buys them nothing measurable, while -Og compiles
# a torch::nn exercise about two seconds sooner (1.8 and 2.6 s in two series alternating with
# -O2) and keeps every variable visible in a debugger. Debug builds keep -O0. The runner is built
# the same way: it waits on compilers and tests, never on its own code, and -Og builds it in about
# half the time of -O2 (8.6 -> 5.1 s for state.cpp), the first thing a fresh machine builds; so
# is the tests' Catch2 main (tests/support), which every exercise's first check waits for.
add_library(torchlings_light_optimisation INTERFACE)
target_compile_options(torchlings_light_optimisation INTERFACE
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<NOT:$<CONFIG:Debug>>>:-Og>)
