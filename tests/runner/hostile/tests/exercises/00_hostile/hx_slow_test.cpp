/// @file
/// @brief Hostile fixture test: passes after a while.
#include <catch2/catch.hpp>

int hx_slow();

TEST_CASE("is slow but right") { CHECK(hx_slow() == 7); }
