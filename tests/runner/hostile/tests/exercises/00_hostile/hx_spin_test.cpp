/// @file
/// @brief Hostile fixture test: never ends, so the time limit or the runner's death stops it.
#include "tl_test/catch.h"

int hx_spin();

TEST_CASE("spins") { CHECK(hx_spin() == 0); }
