/// @file
/// @brief Hostile fixture test: never ends, so the time limit or the runner's death stops it.
#include <catch2/catch.hpp>

int hx_spin();

TEST_CASE("spins") { CHECK(hx_spin() == 0); }
