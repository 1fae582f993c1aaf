/// @file drawn.h
/// @brief Hidden inputs: test values drawn from the seed in TORCHLINGS_TEST_SEED, on top of the
/// fixed ones.
///
/// A test's fixed inputs are in plain sight in tests/exercises/, so an answer could be prepared
/// for exactly them (a table of the expected results) without computing anything. When
/// TORCHLINGS_TEST_SEED holds a number, a test adds inputs drawn from it, which no such table
/// holds. The runner sets it, fresh for every grading run (`check --classroom50`, `--gradescope`,
/// `--junit`, `--json`; runner/README.md); unset or empty, only the fixed inputs run, so a
/// learner's everyday `check` is as deterministic and as fast as without it. A value that is not
/// a number fails each case that draws, with a message naming the variable.
///
/// The same seed draws the same values on every platform: std::mt19937_64 is fully specified,
/// and the bounded draw is done here rather than by std::uniform_int_distribution, whose
/// algorithm each standard library chooses. So the seed that a grader printed replays its inputs
/// anywhere: `TORCHLINGS_TEST_SEED=<n> ./torchlings check <id>`. Each use has a salt of its own
/// (its case's name, say), so that two uses draw different values. No LibTorch here.
///
/// @code
/// TEST_CASE("blocks_needed rounds up") {
///     for (const std::int64_t n : tl_test::with_drawn({0, 1, 256, 257}, 4, 0, 1 << 20,
///                                                     "blocks_needed rounds up")) {
///         INFO("n = " << n << tl_test::seed_note());
///         CHECK(ex::blocks_needed(n, 256) == (n + 255) / 256);
///     }
/// }
/// @endcode
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace tl_test {

/// The environment variable that holds the seed.
inline constexpr const char* kTestSeedVariable = "TORCHLINGS_TEST_SEED";

/// The seed `text` holds: nothing when it is empty, else a decimal number from 0 to 2^64 - 1,
/// digits only. Throws std::invalid_argument naming the variable and what it expects otherwise.
inline std::optional<std::uint64_t> parse_test_seed(std::string_view text) {
    if (text.empty()) {
        return std::nullopt;
    }
    std::uint64_t seed = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, seed);
    if (error != std::errc() || stop != end || text.front() < '0' || text.front() > '9') {
        throw std::invalid_argument(std::string(kTestSeedVariable) + "=\"" + std::string(text) +
                                    "\" is not a seed: expected a decimal number from 0 to " +
                                    std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                                    " (unset or empty: the fixed inputs only)");
    }
    return seed;
}

}  // namespace tl_test

/// TORCHLINGS_TEST_SEED as the program started with it, taken by the course's test main
/// (tests/support/run_key.h) before any code of the learner's file ran; absent from a program
/// linked without that main.
extern "C" __attribute__((weak, visibility("hidden"))) const char* tl_test_seed_at_start();

namespace tl_test {

/// The seed in TORCHLINGS_TEST_SEED, or nothing when it is unset or empty: the value the program
/// started with when it had one (a grading run's: a learner's file that unsets or changes the
/// variable changes nothing here), else the environment's now (a program started without it, or
/// without the course's test main). Throws std::invalid_argument (which fails the case) when it
/// holds anything else.
inline std::optional<std::uint64_t> test_seed() {
    const char* at_start = tl_test_seed_at_start != nullptr ? tl_test_seed_at_start() : nullptr;
    const char* value = at_start != nullptr ? at_start : std::getenv(kTestSeedVariable);
    return value == nullptr ? std::nullopt : parse_test_seed(value);
}

/// The generator of one use of the seed: std::mt19937_64 seeded from `seed` mixed with `salt`
/// (FNV-1a of the salt, then SplitMix64's finaliser), so that each salt draws its own values.
inline std::mt19937_64 drawn_generator(std::uint64_t seed, std::string_view salt) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : salt) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    std::uint64_t z = seed ^ hash;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return std::mt19937_64(z ^ (z >> 31));
}

/// A number in [lo, hi], each equally likely, the same for the same generator on every platform
/// (rejection sampling of the generator's 64-bit outputs). Throws std::invalid_argument when
/// lo > hi.
inline std::int64_t draw_between(std::mt19937_64& generator, std::int64_t lo, std::int64_t hi) {
    if (lo > hi) {
        throw std::invalid_argument("draw_between: lo " + std::to_string(lo) + " > hi " +
                                    std::to_string(hi));
    }
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t span_minus_one =
        static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    std::uint64_t x = generator();
    if (span_minus_one != kMax) {
        const std::uint64_t span = span_minus_one + 1;
        const std::uint64_t past = (kMax % span + 1) % span;  // 2^64 mod span: the biased tail
        while (past != 0 && x > kMax - past) {
            x = generator();
        }
        x %= span;
    }
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + x);
}

/// `fixed`, then, when TORCHLINGS_TEST_SEED holds a seed, `count` numbers drawn in [lo, hi] with
/// drawn_generator(seed, salt). Throws std::invalid_argument for a bad seed or lo > hi.
inline std::vector<std::int64_t> with_drawn(std::vector<std::int64_t> fixed, int count,
                                            std::int64_t lo, std::int64_t hi,
                                            std::string_view salt) {
    if (lo > hi) {
        throw std::invalid_argument("with_drawn: lo " + std::to_string(lo) + " > hi " +
                                    std::to_string(hi));
    }
    if (const std::optional<std::uint64_t> seed = test_seed()) {
        std::mt19937_64 generator = drawn_generator(*seed, salt);
        for (int i = 0; i < count; ++i) {
            fixed.push_back(draw_between(generator, lo, hi));
        }
    }
    return fixed;
}

/// What to append to a case's INFO() so that a failure says how to replay it:
/// " (TORCHLINGS_TEST_SEED=<n> draws the same inputs again)" when a seed is set, else nothing
/// (the fixed inputs need no seed to replay, and the message stays as it always was).
inline std::string seed_note() {
    const std::optional<std::uint64_t> seed = test_seed();
    if (!seed) {
        return {};
    }
    return " (" + std::string(kTestSeedVariable) + "=" + std::to_string(*seed) +
           " draws the same inputs again)";
}

}  // namespace tl_test
