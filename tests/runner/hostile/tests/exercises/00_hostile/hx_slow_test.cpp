/// @file
/// @brief Hostile fixture test: passes after a while.
#include "tl_test/catch.h"

int hx_slow();

TEST_CASE("is slow but right") { CHECK(hx_slow() == 7); }
