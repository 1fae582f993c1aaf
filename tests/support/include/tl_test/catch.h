/// @file
/// @brief The course's one include of Catch2, v2 (2.13) or v3, whichever the build found.
///
/// Every test source includes this header, never Catch2's own, and writes Catch2 v3's names:
///
///  - `Catch::Approx`;
///  - the string matchers `Catch::Matchers::ContainsSubstring`, `StartsWith`, `EndsWith` and
///    `Matches` (for `CHECK_THAT` and `CHECK_THROWS_WITH`).
///
/// On v2 it supplies those names itself, so a test reads the same on either version. CMake
/// (cmake/TorchlingsCatch2.cmake) says which version was found in tl_test/catch_version.h. On v3 it
/// includes only the headers the tests use, not catch_all.hpp, which would add seconds to every
/// exercise's compile. The course's main and reporter are in tests/support/catch_main.cpp.
#pragma once

#include "tl_test/catch_version.h"

#if TL_CATCH2_MAJOR >= 3

#include <catch2/catch_approx.hpp>
#include <catch2/catch_message.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#else

#include <catch2/catch.hpp>

#include <string>

namespace Catch {
using Detail::Approx;  // v2 has it in the global namespace only, as ::Approx

namespace Matchers {
/// v3's name for v2's string Contains (v3's Contains looks for an element of a range).
inline StdString::ContainsMatcher ContainsSubstring(
    const std::string& text, CaseSensitive::Choice sensitivity = CaseSensitive::Yes) {
    return Contains(text, sensitivity);
}
}  // namespace Matchers
}  // namespace Catch

#endif
