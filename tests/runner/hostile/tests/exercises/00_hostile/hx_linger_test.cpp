/// @file
/// @brief Hostile fixture test: crashes; the process the learner file leaves behind must be gone
/// before the runner writes its report.
#include "tl_test/catch.h"

int hx_linger();

TEST_CASE("answers") { CHECK(hx_linger() == 42); }
