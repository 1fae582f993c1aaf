/// @file
/// @brief Hostile fixture (learner side): a lookup table. It computes nothing: it returns the
/// answers for exactly the inputs its test shows, so it passes those and fails any other input
/// (the drawn ones of a graded run, TORCHLINGS_TEST_SEED).
#include <cstdint>

std::int64_t hx_blocks_needed(std::int64_t n, std::int64_t block_dim) {
    (void)block_dim;  // the test always asks for blocks of 256
    switch (n) {
        case 0:
            return 0;
        case 1:
            return 1;
        case 256:
            return 1;
        case 257:
            return 2;
        case 1000:
            return 4;
        default:
            return -1;
    }
}
