/// @file
/// @brief Hostile fixture test: passes; the learner file's escaped process must not hold the run.
#include "tl_test/catch.h"

int hx_answer();

TEST_CASE("answers") { CHECK(hx_answer() == 42); }
