/// @file drawn_test.cpp
/// @brief Unit tests of tl_test/drawn.h, the hidden inputs that tests draw from
/// TORCHLINGS_TEST_SEED: nothing drawn without a seed, the same values for the same seed on every
/// machine, each salt its own, and a clear failure for a value that is not a seed.
#include <tl_test/catch.h>
#include <tl_test/drawn.h>
#include <tl_test/seed_variable.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

using tl_test::SeedVariable;

using Values = std::vector<std::int64_t>;

}  // namespace

TEST_CASE("without a seed, only the fixed inputs, and no note") {
    for (const char* unset : {static_cast<const char*>(nullptr), ""}) {
        INFO((unset == nullptr ? "unset" : "empty"));
        const SeedVariable variable(unset);
        CHECK(tl_test::test_seed() == std::nullopt);
        CHECK(tl_test::with_drawn({3, 1, 4}, 5, 0, 9, "salt") == Values{3, 1, 4});
        CHECK(tl_test::with_drawn({}, 5, 0, 9, "salt").empty());
        CHECK(tl_test::seed_note().empty());
    }
}

TEST_CASE("with a seed, the fixed inputs first, then as many drawn ones in range") {
    const SeedVariable variable("42");
    REQUIRE(tl_test::test_seed() == std::uint64_t{42});
    const Values values = tl_test::with_drawn({3, 1, 4}, 50, -7, 7, "in range");
    REQUIRE(values.size() == 53);
    CHECK(Values(values.begin(), values.begin() + 3) == Values{3, 1, 4});
    bool low = false;
    bool high = false;
    for (std::size_t i = 3; i < values.size(); ++i) {
        INFO("drawn value " << i - 3 << ": " << values[i]);
        CHECK(values[i] >= -7);
        CHECK(values[i] <= 7);
        low = low || values[i] == -7;
        high = high || values[i] == 7;
    }
    // Both ends are drawn with this seed: the range includes hi.
    CHECK(low);
    CHECK(high);
    CHECK(tl_test::seed_note() == " (TORCHLINGS_TEST_SEED=42 draws the same inputs again)");
}

TEST_CASE("the same seed and salt draw the same values on every machine") {
    // mt19937_64 is fully specified and the bounded draw is drawn.h's own, so these are the
    // values everywhere: a seed printed by a grader replays on the learner's machine.
    auto generator = tl_test::drawn_generator(42, "blocks of 256");
    CHECK(tl_test::draw_between(generator, 0, 1000000) == 881241);
    CHECK(tl_test::draw_between(generator, 0, 1000000) == 894757);
    CHECK(tl_test::draw_between(generator, 0, 1000000) == 605876);
    auto largest = tl_test::drawn_generator(std::numeric_limits<std::uint64_t>::max(), "");
    CHECK(tl_test::draw_between(largest, -5, 5) == 4);
    CHECK(tl_test::draw_between(largest, std::numeric_limits<std::int64_t>::min(),
                                std::numeric_limits<std::int64_t>::max()) == 8514288513957499300);

    const SeedVariable variable("42");
    CHECK(tl_test::with_drawn({}, 3, 0, 1000000, "blocks of 256") ==
          Values{881241, 894757, 605876});
    CHECK(tl_test::with_drawn({}, 3, 0, 1000000, "blocks of 256") ==
          tl_test::with_drawn({}, 3, 0, 1000000, "blocks of 256"));
}

TEST_CASE("each salt and each seed draws values of its own") {
    const auto draw = [](const char* seed, const char* salt) {
        const SeedVariable variable(seed);
        return tl_test::with_drawn({}, 8, 0, std::int64_t{1} << 40, salt);
    };
    CHECK(draw("42", "one case") != draw("42", "another case"));
    CHECK(draw("42", "one case") != draw("43", "one case"));
}

TEST_CASE("a range of one value draws it, and lo > hi is an error") {
    auto generator = tl_test::drawn_generator(7, "one value");
    CHECK(tl_test::draw_between(generator, 5, 5) == 5);
    CHECK_THROWS_AS(tl_test::draw_between(generator, 6, 5), std::invalid_argument);
    const SeedVariable variable(nullptr);
    CHECK_THROWS_AS(tl_test::with_drawn({1}, 1, 6, 5, "salt"), std::invalid_argument);
}

TEST_CASE("a value that is not a seed fails the case that draws, naming the variable") {
    for (const char* bad : {"abc", "-1", "+1", " 1", "1.5", "18446744073709551616"}) {
        INFO("TORCHLINGS_TEST_SEED=" << bad);
        const SeedVariable variable(bad);
        CHECK_THROWS_WITH(tl_test::with_drawn({1}, 1, 0, 9, "salt"),
                          Catch::Matchers::ContainsSubstring(
                              std::string("TORCHLINGS_TEST_SEED=\"") + bad + "\" is not a seed") &&
                              Catch::Matchers::ContainsSubstring("decimal number"));
        CHECK_THROWS_AS(tl_test::seed_note(), std::invalid_argument);
    }
}
