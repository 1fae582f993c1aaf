# torchlings_system_crypto: the system's cryptographic library, for the runner and the tests'
# reporter (runner/core/system_crypto.h, which both include as "core/system_crypto.h"): OpenSSL's
# libcrypto on Linux; CommonCrypto on macOS, which is part of the system. Included by the course's
# CMakeLists.txt and by the small fixture builds (tests/runner/standalone_build.cmake).
if(TARGET torchlings_system_crypto)
  return()
endif()
add_library(torchlings_system_crypto INTERFACE)
target_include_directories(torchlings_system_crypto INTERFACE "${CMAKE_CURRENT_LIST_DIR}/../runner")
if(NOT APPLE)
  find_package(OpenSSL 1.1 REQUIRED COMPONENTS Crypto)
  target_link_libraries(torchlings_system_crypto INTERFACE OpenSSL::Crypto)
endif()
