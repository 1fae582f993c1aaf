/// @file
/// @brief The seed of a grading run's hidden inputs.
#include "core/test_seed.h"

#include <tl_test/drawn.h>

#include <cstdlib>
#include <limits>
#include <random>
#include <system_error>

#include "core/context.h"
#include "core/errors.h"

namespace torchlings::runner {

std::optional<std::uint64_t> parse_test_seed(std::string_view text) {
    try {
        return tl_test::parse_test_seed(text);  // the tests' own rule, so both agree
    } catch (const std::invalid_argument&) {
        throw EnvironmentError(std::string(kTestSeedVariable) + "=" + std::string(text) +
                                   " is not a seed: expected a decimal number from 0 to " +
                                   std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                                   " (unset or empty: a fresh seed for each grading run)",
                               std::string("unset ") + kTestSeedVariable);
    }
}

TestSeed grading_test_seed() {
    const char* value = std::getenv(kTestSeedVariable);
    if (value != nullptr) {
        if (const std::optional<std::uint64_t> pinned = parse_test_seed(value)) {
            return {*pinned, true};
        }
    }
    std::random_device device;
    return {static_cast<std::uint64_t>(device()) & 0xffffffffULL, false};
}

bool Context::draws_test_inputs() const {
    if (fixed_test_inputs_) {
        return false;
    }
    const char* inherited = std::getenv(kTestSeedVariable);
    return test_seed_.has_value() || (inherited != nullptr && *inherited != '\0');
}

std::string test_seed_summary(const TestSeed& seed) {
    const std::string setting = std::string(kTestSeedVariable) + "=" + std::to_string(seed.value);
    return "Test seed: " + setting + (seed.pinned ? " (as set)" : " (fresh for this run)") +
           ", from which the tests that draw inputs drew them; " + setting + " " +
           std::string(kCommand) + " check <id> replays them.";
}

}  // namespace torchlings::runner
