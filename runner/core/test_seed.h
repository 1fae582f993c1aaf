/// @file
/// @brief Hidden inputs: the seed from which the exercises' tests draw inputs beyond their fixed
/// ones (tests/support/include/tl_test/drawn.h). A grading run chooses one, gives it to every test
/// program it starts (TORCHLINGS_TEST_SEED) and records it in its reports, so that its inputs can
/// be replayed: `TORCHLINGS_TEST_SEED=<n> ./torchlings check <id>`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace torchlings::runner {

/// The environment variable that holds the seed, for the runner and for the tests alike.
inline constexpr const char* kTestSeedVariable = "TORCHLINGS_TEST_SEED";

/// The seed of a grading run, and where it came from.
struct TestSeed {
    std::uint64_t value = 0;
    bool pinned = false;  ///< TORCHLINGS_TEST_SEED set it; otherwise drawn for this run
};

/// The seed `text` holds, by the tests' own rule (tl_test::parse_test_seed): nothing when it is
/// empty, else decimal digits of a number from 0 to 2^64 - 1. Throws EnvironmentError naming
/// the variable and what it expects otherwise.
[[nodiscard]] std::optional<std::uint64_t> parse_test_seed(std::string_view text);

/// The seed of a grading run: TORCHLINGS_TEST_SEED's when it holds one (pinned), else a fresh one
/// from std::random_device, below 2^32 (short to type, and exact in any JSON reader). Throws
/// EnvironmentError when the variable holds something that is not a seed.
[[nodiscard]] TestSeed grading_test_seed();

/// One line for the run's summary: which seed drew the inputs, whether it was set or drawn, and
/// the command that replays them.
[[nodiscard]] std::string test_seed_summary(const TestSeed& seed);

}  // namespace torchlings::runner
