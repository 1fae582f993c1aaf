/// @file
/// @brief Hostile fixture test: fails, so that the report shows what the learner file printed;
/// what it wrote over must be left unchanged.
#include "tl_test/catch.h"

int hx_overwrite();

TEST_CASE("answers") { CHECK(hx_overwrite() == 0); }
