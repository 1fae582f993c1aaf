/// @file
/// @brief Hostile fixture test: would pass, if it ever ran.
#include "tl_test/catch.h"

int hx_value();

TEST_CASE("returns one") { CHECK(hx_value() == 1); }
