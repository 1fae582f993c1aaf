# @file
# What the small builds of course exercises without LibTorch share (class_build/ for
# class_graders.sh, dev_new_build/ for dev_new.cmake): C++20, programs in <build>/bin, and the
# course's own CMake modules with its toolchain and Catch2 set-up. Sets source_root, the course.
get_filename_component(source_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
list(APPEND CMAKE_MODULE_PATH "${source_root}/cmake")
include(TorchlingsToolchain)
include(TorchlingsCatch2)
include(TorchlingsSystemCrypto)
