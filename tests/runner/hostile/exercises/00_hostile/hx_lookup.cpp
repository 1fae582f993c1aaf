/// @file
/// @brief Hostile fixture (learner side): a lookup table. It computes nothing: it returns the
/// answers for exactly the inputs its test shows, so it passes those and fails any other input
/// (the drawn ones of a graded run, TORCHLINGS_TEST_SEED), even though it unsets that variable
/// before main.
#include <cstdint>
#include <cstdlib>

namespace {
// It also tries to switch the drawn inputs off: this initialiser runs before main and unsets the
// variable the tests read. They read the seed the program started with, so nothing changes.
[[maybe_unused]] const bool kSeedUnset = [] {
    ::unsetenv("TORCHLINGS_TEST_SEED");
    return true;
}();
}  // namespace

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
