/// @file
/// @brief Unit tests of the reference solution's assertion counts: the record, the flag a
/// learner's run gets, and what verify-solution finds.
#include "tl_test/catch.h"

#include "core/assertion_counts.h"
#include "core/errors.h"
#include "maintainer/verbs.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;

namespace {

tl::TestCaseResult a_case(std::string name, tl::CaseStatus status, int assertions,
                          std::vector<std::string> tags = {}) {
    tl::TestCaseResult result;
    result.name = std::move(name);
    result.status = status;
    result.assertions = assertions;
    result.tags = std::move(tags);
    return result;
}

tl::TestRun run_of(std::vector<tl::TestCaseResult> cases) {
    tl::TestRun run;
    run.started = run.finished = true;
    run.cases = std::move(cases);
    return run;
}

}  // namespace

TEST_CASE("a passing case with fewer assertions than the reference is flagged, not refused") {
    const std::map<std::string, int> reference{{"sums", 6}, {"sizes", 3}};
    const tl::TestRun run = run_of(
        {a_case("sums", tl::CaseStatus::kPassed, 5), a_case("sizes", tl::CaseStatus::kPassed, 3)});
    const auto flag = tl::fewer_assertions_flag(run, reference);
    REQUIRE(flag.has_value());
    CHECK(flag->code == "fewer-assertions");
    CHECK_FALSE(flag->refused);
    CHECK(flag->detail ==
          "passed with fewer assertions than the reference solution runs: \"sums\" ran 5 of its "
          "6 assertions");
}

TEST_CASE("as many or more assertions, a failing case, or a case without a record: no flag") {
    const std::map<std::string, int> reference{{"sums", 6}};
    // More: a graded run's drawn inputs, or a GPU, add assertions.
    CHECK_FALSE(tl::fewer_assertions_flag(run_of({a_case("sums", tl::CaseStatus::kPassed, 13)}),
                                          reference));
    CHECK_FALSE(
        tl::fewer_assertions_flag(run_of({a_case("sums", tl::CaseStatus::kPassed, 6)}), reference));
    // A failing case stops at its first failed REQUIRE: it proves nothing.
    CHECK_FALSE(
        tl::fewer_assertions_flag(run_of({a_case("sums", tl::CaseStatus::kFailed, 1)}), reference));
    CHECK_FALSE(tl::fewer_assertions_flag(run_of({a_case("other", tl::CaseStatus::kPassed, 1)}),
                                          reference));
    // An older test program that does not report counts.
    CHECK_FALSE(tl::fewer_assertions_flag(run_of({a_case("sums", tl::CaseStatus::kPassed, -1)}),
                                          reference));
}

TEST_CASE("the record is written one case a line and read back, and a bad one is named") {
    const tl::testing::TempDir dir;
    const tl::AssertionCounts counts{{"b_exercise", {{"z case", 2}, {"a \"quoted\" case", 10}}},
                                     {"a_exercise", {{"one", 1}}}};
    const std::string text = tl::assertion_counts_json(counts);
    CHECK(text ==
          "{\n  \"a_exercise\": {\n    \"one\": 1\n  },\n  \"b_exercise\": {\n"
          "    \"a \\\"quoted\\\" case\": 10,\n    \"z case\": 2\n  }\n}\n");
    CHECK(tl::read_assertion_counts(dir.write("counts.json", text)) == counts);
    CHECK(tl::read_assertion_counts(dir.path() / "absent.json").empty());
    for (const char* bad : {"[1, 2]", "{\"x\": 3}", "{\"x\": {\"case\": -1}}",
                            "{\"x\": {\"case\": \"7\"}}", "{not json"}) {
        INFO(bad);
        CHECK_THROWS_AS(tl::read_assertion_counts(dir.write("bad.json", bad)),
                        tl::EnvironmentError);
    }
}

TEST_CASE("verify-solution: every case passes with the assertions recorded") {
    tl::TestProgramRun run;
    run.verdict = tl::Verdict::kPassed;
    run.events = run_of({a_case("sums", tl::CaseStatus::kPassed, 6),
                         a_case("on a GPU", tl::CaseStatus::kSkipped, 0, {"gpu"})});
    CHECK(tl::solution_problems(run, {{"sums", 6}}).empty());
    CHECK(tl::solution_problems(run, {{"sums", 7}}) ==
          std::vector<std::string>{"\"sums\" runs 6 assertions; the record says 7"});
    CHECK(tl::solution_problems(run, {{"sums", 5}}) ==
          std::vector<std::string>{"\"sums\" runs 6 assertions; the record says 5"});
    CHECK(
        tl::solution_problems(run, {}) ==
        std::vector<std::string>{"\"sums\" runs 6 assertions, and the record has no count for it"});
    CHECK(tl::solution_problems(run, {{"sums", 6}, {"gone", 2}}).size() == 1);

    // Where a [gpu] case ran, more than the record (taken without a GPU) is allowed; fewer is not.
    run.events.cases[1] = a_case("on a GPU", tl::CaseStatus::kPassed, 4, {"gpu"});
    CHECK(tl::solution_problems(run, {{"sums", 5}}).empty());
    CHECK(tl::solution_problems(run, {{"sums", 7}}).size() == 1);

    run.verdict = tl::Verdict::kFailed;
    run.events.cases[0].status = tl::CaseStatus::kFailed;
    CHECK(tl::solution_problems(run, {}) ==
          std::vector<std::string>{"\"sums\" fails with the solution"});
    run.verdict = tl::Verdict::kTimedOut;
    run.timeout_s = 30;
    CHECK(tl::solution_problems(run, {}) ==
          std::vector<std::string>{
              "the solution's test program was stopped at its time limit (30 s)"});
}
