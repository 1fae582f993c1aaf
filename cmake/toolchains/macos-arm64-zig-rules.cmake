# Read after CMake's Darwin platform files (CMAKE_USER_MAKE_RULES_OVERRIDE of macos-arm64-zig.cmake):
# what that platform sets for macOS 10.5 and newer, which it cannot tell it is building for
# without `sw_vers`.
set(CMAKE_SHARED_LIBRARY_RUNTIME_C_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_CXX_FLAG "-Wl,-rpath,")
set(CMAKE_LINK_DEPENDENT_LIBRARY_FILES 0)
