# Toolchain choices shared by every target: the linker and the warning sets.

# LibTorch executables link a dozen large shared libraries; mold links them in a fraction of the
# time ld.bfd takes, which is most of a learner's rebuild after editing one exercise file.
find_program(TORCHLINGS_MOLD mold)
if(TORCHLINGS_MOLD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12.1)
  set(TORCHLINGS_LINKER "mold")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fuse-ld=mold>")
else()
  set(TORCHLINGS_LINKER "default")
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
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)

# Warnings for the learner's own file: the same hints, never fatal (a learner mid-edit should see
# their test results, not a wall of -Werror).
add_library(torchlings_learner_warnings INTERFACE)
target_compile_options(torchlings_learner_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -fmax-errors=5>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
