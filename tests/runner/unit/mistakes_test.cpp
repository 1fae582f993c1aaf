/// @file
/// @brief Unit tests of the catalogue of mistakes: reading a mistake's header, and judging a run
/// of its test program.
#include "tl_test/catch.h"

#include <csignal>

#include "core/errors.h"
#include "maintainer/mistakes.h"

namespace tl = torchlings::runner;

namespace {

tl::TestCaseResult make_case(const std::string& name, tl::CaseStatus status, bool gpu = false,
                             tl::FailureKind kind = tl::FailureKind::kAssertion) {
    tl::TestCaseResult result;
    result.name = name;
    result.status = status;
    if (gpu) {
        result.tags = {"gpu"};
    }
    if (status == tl::CaseStatus::kFailed) {
        tl::Failure failure;
        failure.kind = kind;
        result.failures.push_back(failure);
    }
    return result;
}

tl::TestProgramRun program_run(std::vector<tl::TestCaseResult> cases,
                               tl::ProcessResult process = {}) {
    tl::TestProgramRun run;
    run.events.started = true;
    run.events.finished = true;
    run.events.cases = std::move(cases);
    if (process.signal == 0 && !process.timed_out) {
        process.exit_code = 0;
    }
    run.process = process;
    run.verdict = tl::classify(run.process, run.events);
    run.timeout_s = 2;
    return run;
}

tl::Mistake mistake(bool gpu_only) {
    tl::Mistake m;
    m.exercise_id = "demo";
    m.slug = "wrong";
    m.title = "A wrong answer";
    m.gpu_only = gpu_only;
    return m;
}

}  // namespace

TEST_CASE("mistake header: a title line, then the lines that explain it") {
    const tl::Mistake m = tl::parse_mistake(
        "// Mistake: Always the CPU\n// It ignores the report.\n// Caught with a GPU only.\n"
        "#include \"x.h\"\n// not the header\n",
        "choose_device", "always_cpu", "x.cpp");
    CHECK(m.title == "Always the CPU");
    CHECK(m.gpu_only);
    CHECK(m.why == std::vector<std::string>{"It ignores the report."});
    CHECK_FALSE(tl::parse_mistake("// Mistake: T\n", "id", "s", "x.cpp").gpu_only);
}

TEST_CASE("mistake header: a file without it names the file and the expected line") {
    CHECK_THROWS_WITH(
        tl::parse_mistake("#include \"x.h\"\n", "id", "s", "m/x.cpp"),
        Catch::Matchers::ContainsSubstring("m/x.cpp:1: expected \"// Mistake: <one-line title>\""));
    CHECK_THROWS_AS(tl::parse_mistake("// Mistake:   \n", "id", "s", "x.cpp"),
                    tl::EnvironmentError);
    CHECK_THROWS_AS(tl::parse_mistake("", "id", "s", "x.cpp"), tl::EnvironmentError);
}

TEST_CASE("a mistake is caught when a CPU case fails by assertion or exception") {
    const auto run =
        program_run({make_case("a", tl::CaseStatus::kPassed),
                     make_case("b", tl::CaseStatus::kFailed, false, tl::FailureKind::kException),
                     make_case("g", tl::CaseStatus::kSkipped, true)});
    const tl::MistakeVerdict verdict = tl::judge_mistake(mistake(false), run);
    CHECK(verdict.outcome == tl::MistakeOutcome::kCaught);
    CHECK(verdict.caught_by == std::vector<std::string>{"b"});
}

TEST_CASE("a mistake that passes, skips everything or is seen only by a GPU is not caught") {
    const auto passes = program_run({make_case("a", tl::CaseStatus::kPassed)});
    const tl::MistakeVerdict passed = tl::judge_mistake(mistake(false), passes);
    CHECK(passed.outcome == tl::MistakeOutcome::kProblem);
    CHECK_THAT(passed.problems.at(0), Catch::Matchers::ContainsSubstring("no test catches it"));

    const auto skipped = program_run({make_case("g", tl::CaseStatus::kSkipped, true)});
    CHECK_THAT(tl::judge_mistake(mistake(false), skipped).problems.at(0),
               Catch::Matchers::ContainsSubstring("every case was skipped"));

    const auto gpu_fails = program_run(
        {make_case("a", tl::CaseStatus::kPassed), make_case("g", tl::CaseStatus::kFailed, true)});
    CHECK_THAT(tl::judge_mistake(mistake(false), gpu_fails).problems.at(0),
               Catch::Matchers::ContainsSubstring("caught only by [gpu] cases (\"g\")"));
}

TEST_CASE("a mistake must fail by assertion, never by crashing or hanging") {
    tl::ProcessResult crashed;
    crashed.signal = SIGSEGV;
    auto run = program_run({make_case("a", tl::CaseStatus::kUnfinished)}, crashed);
    run.events.finished = false;
    run.verdict = tl::classify(run.process, run.events);
    CHECK_THAT(
        tl::judge_mistake(mistake(false), run).problems.at(0),
        Catch::Matchers::ContainsSubstring("a mistake must fail by assertion, not by crashing"));

    const auto caught_crash =
        program_run({make_case("a", tl::CaseStatus::kFailed, false, tl::FailureKind::kCrash)});
    CHECK(tl::judge_mistake(mistake(false), caught_crash).outcome == tl::MistakeOutcome::kProblem);
}

TEST_CASE("a GPU-only mistake: caught by a [gpu] case, skipped without a GPU") {
    const tl::Mistake gpu_only = mistake(true);
    const auto caught = program_run(
        {make_case("a", tl::CaseStatus::kPassed), make_case("g", tl::CaseStatus::kFailed, true)});
    CHECK(tl::judge_mistake(gpu_only, caught).outcome == tl::MistakeOutcome::kCaught);

    const auto no_gpu = program_run(
        {make_case("a", tl::CaseStatus::kPassed), make_case("g", tl::CaseStatus::kSkipped, true)});
    CHECK(tl::judge_mistake(gpu_only, no_gpu).outcome == tl::MistakeOutcome::kSkipped);

    const auto missed = program_run(
        {make_case("a", tl::CaseStatus::kPassed), make_case("g", tl::CaseStatus::kPassed, true)});
    CHECK_THAT(tl::judge_mistake(gpu_only, missed).problems.at(0),
               Catch::Matchers::ContainsSubstring("no test catches it"));

    // Caught on the CPU after all: the header says otherwise, so the counts would be wrong.
    const auto on_cpu = program_run(
        {make_case("a", tl::CaseStatus::kFailed), make_case("g", tl::CaseStatus::kSkipped, true)});
    CHECK_THAT(tl::judge_mistake(gpu_only, on_cpu).problems.at(0),
               Catch::Matchers::ContainsSubstring("caught without a GPU too"));

    const auto no_gpu_case = program_run({make_case("a", tl::CaseStatus::kPassed)});
    CHECK_THAT(tl::judge_mistake(gpu_only, no_gpu_case).problems.at(0),
               Catch::Matchers::ContainsSubstring("has no [gpu] case"));
}
