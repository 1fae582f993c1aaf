/// @file
/// @brief Hostile fixture test: fixed inputs in plain sight, and, with TORCHLINGS_TEST_SEED set,
/// inputs drawn from it (tl_test/drawn.h), each with its expected value computed here.
#include <cstdint>

#include "tl_test/catch.h"
#include "tl_test/drawn.h"

std::int64_t hx_blocks_needed(std::int64_t n, std::int64_t block_dim);

TEST_CASE("blocks of 256 cover n elements") {
    for (const std::int64_t n :
         tl_test::with_drawn({0, 1, 256, 257, 1000}, 8, 0, 1000000, "blocks of 256")) {
        INFO("n = " << n << tl_test::seed_note());
        CHECK(hx_blocks_needed(n, 256) == (n + 255) / 256);
    }
}
