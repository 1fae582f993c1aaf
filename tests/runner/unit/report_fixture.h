/// @file
/// @brief The fixture of the reports' unit tests: a Context over the fixture course, and
/// hand-built outcomes (a pass, a failed check, a crash, a skipped case) to describe.
#pragma once

#include <csignal>
#include <sstream>

#include "teacher/reports.h"
#include "temp_dir.h"
#include "tl_test/catch.h"

namespace tl_report_test {

namespace tl = torchlings::runner;
using nlohmann::json;

inline const std::filesystem::path kFixtures = TL_RUNNER_FIXTURES;

/// A Context over a course (the fixture course by default), with a build folder of its own.
class ReportFixture {
  public:
    explicit ReportFixture(std::filesystem::path root = kFixtures)
        : context_(std::move(root), build_.path(), build_.path() / "state.json",
                   tl::Style(false, false), out_, err_) {}

    tl::Context& context() { return context_; }
    [[nodiscard]] const std::filesystem::path& build_dir() const { return build_.path(); }

    /// An outcome of a build that worked and a run with these events.
    tl::CheckOutcome ran(const std::string& id, std::vector<tl::TestCaseResult> cases,
                         tl::ProcessResult process = finished()) {
        tl::CheckOutcome outcome;
        outcome.exercise = &context_.course().resolve_exercise(id);
        outcome.build.ok = true;
        outcome.build.seconds = 0.5;
        tl::TestProgramRun run;
        run.process = std::move(process);
        run.events.started = true;
        run.events.finished = !run.process.timed_out && run.process.signal == 0;
        run.events.cases = std::move(cases);
        run.verdict = tl::classify(run.process, run.events);
        run.timeout_s = outcome.exercise->timeout_s;
        outcome.run = std::move(run);
        return outcome;
    }

    /// An outcome of a build that failed with the fixture's compiler error.
    /// A failed build of `id` whose log held no recognisable error.
    tl::CheckOutcome unrecognised_build_error(const std::string& id) {
        tl::CheckOutcome outcome;
        outcome.exercise = &context_.course().resolve_exercise(id);
        outcome.code = tl::ExitCode::kBuildError;
        outcome.build.log_path = build_.path() / "logs" / ("ex_" + id + ".build.log");
        return outcome;
    }

    tl::CheckOutcome build_error(const std::string& id) {
        tl::CheckOutcome outcome;
        outcome.exercise = &context_.course().resolve_exercise(id);
        outcome.code = tl::ExitCode::kBuildError;
        outcome.build.ok = false;
        outcome.build.log_path = build_.path() / "logs" / ("ex_" + id + ".build.log");
        tl::CompilerError error;
        error.file = (kFixtures / "exercises/00_fixtures" / (id + ".cpp")).string();
        error.line = 3;
        error.column = 43;
        error.message = "'missing_value' was not declared in this scope";
        error.headline = error.file + ":3:43: error: " + error.message;
        error.context = {"    3 | int fx_add(int a, int b) { return a + b + missing_value; }",
                         "      |                                           ^~~~~~~~~~~~~"};
        error.in_learner_file = true;
        outcome.compile_error = error;
        return outcome;
    }

    static tl::ProcessResult finished() {
        tl::ProcessResult process;
        process.exit_code = 0;
        process.seconds = 0.25;
        return process;
    }

  private:
    tl::testing::TempDir build_;
    std::ostringstream out_;
    std::ostringstream err_;
    tl::Context context_;
};

inline tl::TestCaseResult make_case(const std::string& name, tl::CaseStatus status,
                                    std::vector<std::string> tags = {}) {
    tl::TestCaseResult result;
    result.name = name;
    result.status = status;
    result.tags = std::move(tags);
    result.duration_s = 0.125;
    return result;
}

/// The case as declared at `line` of a fixture test file, as the test program reports it.
inline tl::TestCaseResult declared_at(tl::TestCaseResult result, const std::string& test_file,
                                      int line) {
    result.file = (kFixtures / "tests/exercises/00_fixtures" / test_file).string();
    result.line = line;
    return result;
}

inline tl::Failure check_failure(const std::string& test_file, int line) {
    tl::Failure failure;
    failure.kind = tl::FailureKind::kAssertion;
    failure.macro = "CHECK";
    failure.expr = "fx_add(2, 2) == 4";
    failure.expanded = "5 == 4";
    failure.messages = {"adding 2 and 2"};
    failure.file = (kFixtures / "tests/exercises/00_fixtures" / test_file).string();
    failure.line = line;
    return failure;
}

inline tl::CheckOutcome failing(ReportFixture& fixture) {
    tl::TestCaseResult failed = declared_at(
        make_case("adds equal numbers", tl::CaseStatus::kFailed), "fx_fail_test.cpp", 9);
    failed.failures.push_back(check_failure("fx_fail_test.cpp", 11));
    return fixture.ran(
        "fx_fail",
        {declared_at(make_case("adds different numbers", tl::CaseStatus::kPassed, {"task_1"}),
                     "fx_fail_test.cpp", 7),
         failed});
}

inline tl::CheckOutcome crashed(ReportFixture& fixture) {
    tl::ProcessResult process;
    process.signal = SIGABRT;
    tl::TestCaseResult running =
        make_case("aborts on a negative argument", tl::CaseStatus::kFailed);
    tl::Failure crash;
    crash.kind = tl::FailureKind::kCrash;
    crash.macro = "TEST_CASE";
    crash.file = (kFixtures / "tests/exercises/00_fixtures/fx_crash_test.cpp").string();
    crash.line = 9;
    running.failures.push_back(crash);
    tl::CheckOutcome outcome = fixture.ran(
        "fx_crash", {make_case("adds before the crash", tl::CaseStatus::kPassed), running},
        process);
    outcome.run->all_cases = {"adds before the crash", "aborts on a negative argument",
                              "never runs"};
    return outcome;
}

inline tl::CheckOutcome skipped_case(ReportFixture& fixture) {
    tl::TestCaseResult skipped = make_case("uses a device", tl::CaseStatus::kSkipped, {"gpu"});
    skipped.skip_reason = "needs a device this fixture never has";
    return fixture.ran("fx_skip", {skipped});
}

}  // namespace tl_report_test
