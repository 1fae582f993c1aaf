/// @file
/// @brief Unit tests of the seed of a grading run's hidden inputs: how it is read and drawn, and
/// that every test program gets it (core/test_seed.h). Recording it: report_formats_test.cpp;
/// a whole grading run: faults.sh's case lookup_table.
#include <sys/stat.h>

#include <cstdlib>
#include <set>
#include <string>

#include "core/errors.h"
#include "core/exercise_run.h"
#include "core/test_seed.h"
#include "report_fixture.h"
#include "tl_test/catch.h"
#include "tl_test/drawn.h"
#include "tl_test/seed_variable.h"

using namespace tl_report_test;  // NOLINT(google-build-using-namespace): the fixture's helpers

namespace {

using tl_test::SeedVariable;

}  // namespace

TEST_CASE("a seed is decimal digits of a number below 2^64, or nothing when empty") {
    CHECK(tl::parse_test_seed("") == std::nullopt);
    CHECK(tl::parse_test_seed("0") == 0U);
    CHECK(tl::parse_test_seed("007") == 7U);
    CHECK(tl::parse_test_seed("18446744073709551615") == 18446744073709551615ULL);
    for (const char* bad :
         {"abc", "12x", "-1", "+1", " 1", "1 ", "0x10", "1e3", "18446744073709551616"}) {
        INFO("TORCHLINGS_TEST_SEED=" << bad);
        CHECK_THROWS_AS(tl::parse_test_seed(bad), tl::EnvironmentError);
        CHECK_THROWS_WITH(tl::parse_test_seed(bad),
                          Catch::Matchers::ContainsSubstring(std::string("TORCHLINGS_TEST_SEED=") +
                                                             bad + " is not a seed") &&
                              Catch::Matchers::ContainsSubstring("decimal number"));
    }
}

TEST_CASE("the runner reads a seed exactly as the tests do") {
    // tl_test/drawn.h is the tests' side: a value the runner takes, the tests must take the same.
    for (const char* text : {"", "0", "42", "007", "18446744073709551615", "18446744073709551616",
                             "abc", "-1", "+1", " 1", "4 2"}) {
        INFO("TORCHLINGS_TEST_SEED=\"" << text << "\"");
        std::optional<std::uint64_t> runner;
        std::optional<std::uint64_t> tests;
        bool runner_refuses = false;
        bool tests_refuse = false;
        try {
            runner = tl::parse_test_seed(text);
        } catch (const tl::EnvironmentError&) {
            runner_refuses = true;
        }
        try {
            tests = tl_test::parse_test_seed(text);
        } catch (const std::invalid_argument&) {
            tests_refuse = true;
        }
        CHECK(runner_refuses == tests_refuse);
        CHECK(runner == tests);
    }
}

TEST_CASE("grading takes TORCHLINGS_TEST_SEED when it is set, else draws a fresh seed") {
    {
        const SeedVariable pinned("123");
        const tl::TestSeed seed = tl::grading_test_seed();
        CHECK(seed.value == 123U);
        CHECK(seed.pinned);
        CHECK_THAT(tl::test_seed_summary(seed),
                   Catch::Matchers::ContainsSubstring("TORCHLINGS_TEST_SEED=123 (as set)") &&
                       Catch::Matchers::ContainsSubstring(
                           "TORCHLINGS_TEST_SEED=123 ./torchlings check <id> replays them"));
    }
    {
        const SeedVariable bad("twelve");
        CHECK_THROWS_WITH(tl::grading_test_seed(),
                          Catch::Matchers::ContainsSubstring("TORCHLINGS_TEST_SEED=twelve"));
    }
    for (const char* unset : {static_cast<const char*>(nullptr), ""}) {
        INFO((unset == nullptr ? "unset" : "empty"));
        const SeedVariable variable(unset);
        std::set<std::uint64_t> drawn;
        for (int i = 0; i < 4; ++i) {
            const tl::TestSeed seed = tl::grading_test_seed();
            CHECK_FALSE(seed.pinned);
            CHECK(seed.value < (std::uint64_t{1} << 32));
            drawn.insert(seed.value);
        }
        // Fresh each time: four draws of 32 bits are all equal once in 2^96.
        CHECK(drawn.size() > 1);
        CHECK_THAT(
            tl::test_seed_summary({5, false}),
            Catch::Matchers::ContainsSubstring("TORCHLINGS_TEST_SEED=5 (fresh for this run)"));
    }
}

TEST_CASE("every test program of a grading run gets its seed, else the runner's variable") {
    ReportFixture fixture;
    // A stand-in for fx_pass's test program that prints the variable it was given (and then
    // reports nothing, which is all the runner needs here), in the sandbox where it starts.
    const std::filesystem::path program = fixture.build_dir() / "bin" / "ex_fx_pass";
    std::filesystem::create_directories(program.parent_path());
    std::ofstream(program) << "#!/bin/sh\necho \"seed=${TORCHLINGS_TEST_SEED-unset}\"\n";
    chmod(program.c_str(), 0755);
    const tl::Exercise& exercise = fixture.context().course().resolve_exercise("fx_pass");
    const auto seen = [&] {
        const std::string output = tl::run_test_program(fixture.context(), exercise).process.output;
        return output.substr(0, output.find('\n'));
    };

    {
        const SeedVariable unset(nullptr);
        CHECK(seen() == "seed=unset");  // a learner's check: fixed inputs only
    }
    {
        const SeedVariable replay("5");
        CHECK(seen() == "seed=5");  // TORCHLINGS_TEST_SEED=5 ./torchlings check fx_pass
        fixture.context().set_test_seed({42, false});
        CHECK(seen() == "seed=42");  // the grading run's own seed, over the runner's variable
    }
    {
        const SeedVariable unset(nullptr);
        CHECK(seen() == "seed=42");
    }
}
