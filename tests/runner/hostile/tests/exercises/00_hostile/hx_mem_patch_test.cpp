/// @file
/// @brief Hostile fixture test: the second case fails on the learner file's wrong answer, which
/// then tries to pass anyway (see exercises/00_hostile/hx_mem_patch.cpp).
#include "tl_test/catch.h"

int fx_add(int a, int b);

TEST_CASE("adds different numbers") { CHECK(fx_add(2, 3) == 5); }

TEST_CASE("adds equal numbers") { CHECK(fx_add(2, 2) == 4); }
