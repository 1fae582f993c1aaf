/// @file
/// @brief Unit tests of classifying a test program's run and of the stub check's rules.
#include "tl_test/catch.h"

#include <csignal>

#include "core/exercise_run.h"
#include "maintainer/verbs.h"

namespace tl = torchlings::runner;

namespace {

tl::TestCaseResult make_case(const std::string& name, tl::CaseStatus status,
                             const std::vector<tl::FailureKind>& kinds = {}) {
    tl::TestCaseResult result;
    result.name = name;
    result.status = status;
    for (tl::FailureKind kind : kinds) {
        tl::Failure failure;
        failure.kind = kind;
        result.failures.push_back(failure);
    }
    return result;
}

tl::TestRun finished_run(std::vector<tl::TestCaseResult> cases) {
    tl::TestRun run;
    run.started = true;
    run.finished = true;
    run.cases = std::move(cases);
    return run;
}

tl::TestProgramRun program_run(tl::TestRun events, tl::ProcessResult process = {}) {
    if (process.exit_code == -1 && process.signal == 0 && !process.timed_out) {
        process.exit_code = 0;
    }
    tl::TestProgramRun run;
    run.events = std::move(events);
    run.process = process;
    run.verdict = tl::classify(run.process, run.events);
    run.timeout_s = 2;
    return run;
}

}  // namespace

TEST_CASE("classify: how the process ended comes first, then what it reported") {
    tl::ProcessResult exited;
    exited.exit_code = 0;
    const auto passed = finished_run(
        {make_case("a", tl::CaseStatus::kPassed), make_case("b", tl::CaseStatus::kSkipped)});
    CHECK(tl::classify(exited, passed) == tl::Verdict::kPassed);
    CHECK(tl::classify(exited, finished_run({make_case("b", tl::CaseStatus::kSkipped)})) ==
          tl::Verdict::kAllSkipped);
    CHECK(tl::classify(exited, finished_run({make_case("a", tl::CaseStatus::kPassed),
                                             make_case("c", tl::CaseStatus::kFailed)})) ==
          tl::Verdict::kFailed);
    CHECK(tl::classify(exited, finished_run({})) == tl::Verdict::kNoTests);
    CHECK(tl::classify(exited, tl::TestRun{}) == tl::Verdict::kNoReport);

    tl::TestRun cut = finished_run({make_case("a", tl::CaseStatus::kUnfinished)});
    cut.finished = false;
    CHECK(tl::classify(exited, cut) == tl::Verdict::kExitedEarly);

    tl::ProcessResult crashed;
    crashed.signal = SIGSEGV;
    CHECK(tl::classify(crashed, passed) == tl::Verdict::kCrashed);
    tl::ProcessResult stopped;
    stopped.timed_out = true;
    stopped.signal = SIGKILL;
    CHECK(tl::classify(stopped, cut) == tl::Verdict::kTimedOut);
    // A pass needs the exit status to agree with the report.
    tl::ProcessResult exited_seven;
    exited_seven.exit_code = 7;
    CHECK(tl::classify(exited_seven, passed) == tl::Verdict::kContradicted);
    CHECK(tl::classify(exited_seven, finished_run({make_case("b", tl::CaseStatus::kSkipped)})) ==
          tl::Verdict::kContradicted);
    tl::ProcessResult exited_zero_with_failure;
    exited_zero_with_failure.exit_code = 0;
    CHECK(tl::classify(exited_zero_with_failure,
                       finished_run({make_case("a", tl::CaseStatus::kFailed)})) ==
          tl::Verdict::kFailed);
}

TEST_CASE("stub check: every case must fail by assertion, exception or TODO") {
    const auto good = program_run(
        finished_run({make_case("a", tl::CaseStatus::kFailed, {tl::FailureKind::kAssertion}),
                      make_case("b", tl::CaseStatus::kFailed, {tl::FailureKind::kException}),
                      make_case("c", tl::CaseStatus::kFailed, {tl::FailureKind::kTodo}),
                      make_case("gpu", tl::CaseStatus::kSkipped)}));
    CHECK(tl::stub_problems(good).empty());

    const auto passes = program_run(finished_run({make_case("a", tl::CaseStatus::kPassed)}));
    REQUIRE(tl::stub_problems(passes).size() == 1);
    CHECK_THAT(tl::stub_problems(passes)[0],
               Catch::Matchers::ContainsSubstring("\"a\" passes on the stub"));
}

TEST_CASE("stub check: crashing, hanging or running nothing is never a proper failure") {
    tl::ProcessResult crashed;
    crashed.signal = SIGABRT;
    tl::TestRun cut = finished_run({make_case("boom", tl::CaseStatus::kUnfinished)});
    cut.finished = false;
    CHECK_THAT(tl::stub_problems(program_run(cut, crashed)).at(0),
               Catch::Matchers::ContainsSubstring("not by crashing: SIGABRT (in \"boom\")"));

    tl::ProcessResult stopped;
    stopped.timed_out = true;
    CHECK_THAT(tl::stub_problems(program_run(cut, stopped)).at(0),
               Catch::Matchers::ContainsSubstring("not by hanging: stopped after 2 s"));

    CHECK_THAT(tl::stub_problems(program_run(finished_run({}))).at(0),
               Catch::Matchers::ContainsSubstring("no test cases"));

    const auto caught = program_run(
        finished_run({make_case("a", tl::CaseStatus::kFailed, {tl::FailureKind::kCrash})}));
    CHECK_THAT(tl::stub_problems(caught).at(0),
               Catch::Matchers::ContainsSubstring("not by crashing"));
}
