/// @file
/// @brief Hostile fixture test: passes; the check must end all the same.
#include "tl_test/catch.h"

int hx_stop_parent();

TEST_CASE("answers") { CHECK(hx_stop_parent() == 5); }
