/// @file
/// @brief Unit tests of the catalogue of mistakes: reading its Markdown, signatures, and judging a
/// run of a mistake's test program.
#include "tl_test/catch.h"

#include <algorithm>
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

TEST_CASE(
    "mistake catalogue: headings, the why in paragraphs, GPU only and signature, the diff apart") {
    const std::string text =
        "# Mistakes: choose_device\n\nIntroduction, not a mistake.\n\n"
        "## always_cpu: Always the CPU\n\nIt ignores the report,\nwhich says CUDA.\n\n"
        "A second paragraph.\n\n"
        "caught by: \"reads the report\" (assertion); \"a \\\"quoted\\\"; name, too\" (exception); "
        "\"one more\" (crash)\n\n"
        "```diff\n-    return a;\n+    return b;\n\n+## not_a_heading: inside the diff\n```\n\n"
        "## gpu_case: Seen on a GPU only\n\nWhy.\n\nGPU only: meta cannot show it.\n\ncaught by:\n";
    const std::vector<tl::Mistake> mistakes =
        tl::parse_mistake_catalogue(text, "choose_device", "m.md");
    REQUIRE(mistakes.size() == 2);
    const tl::Mistake& first = mistakes[0];
    CHECK(first.slug == "always_cpu");
    CHECK(first.title == "Always the CPU");
    CHECK(first.line == 5);
    CHECK(first.why == std::vector<std::string>{"It ignores the report, which says CUDA.",
                                                "A second paragraph."});
    CHECK_FALSE(first.gpu_only);
    CHECK(first.caught_by_line == 12);
    CHECK(first.caught_by == tl::Signature{{"a \"quoted\"; name, too", tl::CaseFailure::kException},
                                           {"one more", tl::CaseFailure::kCrash},
                                           {"reads the report", tl::CaseFailure::kAssertion}});
    CHECK(mistakes[1].gpu_only);
    CHECK(mistakes[1].gpu_reason == "meta cannot show it.");
    CHECK(mistakes[1].why == std::vector<std::string>{"Why."});
    CHECK(mistakes[1].caught_by.empty());  // a bare `caught by:`: not recorded yet
    CHECK(mistakes[1].caught_by_line == 27);
}

TEST_CASE("mistake catalogue: a bad heading, a repeated slug or a bad signature names the line") {
    CHECK_THROWS_WITH(tl::parse_mistake_catalogue("## Bad-Slug: T\n", "id", "m.md"),
                      Catch::Matchers::ContainsSubstring("m.md:1: a mistake's heading is"));
    CHECK_THROWS_WITH(tl::parse_mistake_catalogue("## a: T\n\n## a: U\n", "id", "m.md"),
                      Catch::Matchers::ContainsSubstring("m.md:3: the slug 'a' is used twice"));
    CHECK_THROWS_WITH(tl::parse_mistake_catalogue("## a:   \n", "id", "m.md"),
                      Catch::Matchers::ContainsSubstring("m.md:1: mistake 'a' has no title"));
    for (const char* bad :
         {"caught by: name (assertion)\n", "caught by: \"n\" (slow)\n",
          "caught by: \"n\" (assertion);\n", "caught by: \"n (assertion)\n",
          "caught by: \"n\" (assertion) \"m\" (crash)\n", "caught by: \"\" (crash)\n"}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH(tl::parse_mistake_catalogue(std::string("## a: T\n") + bad, "id", "m.md"),
                          Catch::Matchers::ContainsSubstring("m.md:2: expected"));
    }
    CHECK_THROWS_WITH(
        tl::parse_mistake_catalogue("## a: T\ncaught by: \"x\" (crash)\ncaught by:\n", "id",
                                    "m.md"),
        Catch::Matchers::ContainsSubstring("m.md:3: mistake 'a' has a second \"caught by:\" line"));
}

TEST_CASE("a signature is written sorted, on one line however long, and reads back the same") {
    const tl::Signature two{{"z case", tl::CaseFailure::kAssertion},
                            {"a \"case\" \\ here", tl::CaseFailure::kTimeout}};
    const std::string line = tl::format_signature(two);
    CHECK(line == "caught by: \"a \\\"case\\\" \\\\ here\" (timeout); \"z case\" (assertion)");
    CHECK(tl::parse_signature(line.substr(11), "m.md", 1) == tl::sorted_signature(two));
    CHECK(tl::format_signature({}) == "caught by:");

    tl::Signature long_one;
    for (int i = 0; i < 4; ++i) {
        long_one.push_back({"a rather long test case name number " + std::to_string(i),
                            tl::CaseFailure::kAssertion});
    }
    const std::string long_line = tl::format_signature(long_one);
    CHECK(long_line.find('\n') == std::string::npos);
    const auto parsed = tl::parse_mistake_catalogue("## a: T\n" + long_line + "\n", "id", "m.md");
    CHECK(parsed.at(0).caught_by == long_one);
}

TEST_CASE("a case marked sometimes may fail or pass: a race decides, the signature still matches") {
    using F = tl::CaseFailure;
    const tl::Signature recorded =
        tl::parse_signature("\"race\" (assertion, sometimes); \"steady\" (assertion)", "m.md", 1);
    REQUIRE(recorded.size() == 2);
    CHECK(recorded[0].sometimes);
    CHECK(tl::format_signature(recorded) ==
          "caught by: \"race\" (assertion, sometimes); \"steady\" (assertion)");
    CHECK(tl::signature_matches(recorded, {{"steady", F::kAssertion}}));
    CHECK(tl::signature_matches(recorded, {{"race", F::kAssertion}, {"steady", F::kAssertion}}));
    CHECK_FALSE(tl::signature_matches(recorded, {{"race", F::kAssertion}}));
    CHECK_FALSE(
        tl::signature_matches(recorded, {{"race", F::kException}, {"steady", F::kAssertion}}));
    CHECK_FALSE(
        tl::signature_matches(recorded, {{"other", F::kAssertion}, {"steady", F::kAssertion}}));
    // Recording again keeps the mark, whether the race failed this time or not.
    CHECK(tl::signature_to_record(recorded, {{"steady", F::kAssertion}}) == recorded);
    CHECK(tl::signature_to_record(recorded, {{"new", F::kAssertion}}) ==
          tl::Signature{{"new", F::kAssertion}, {"race", F::kAssertion, true}});
}

TEST_CASE(
    "recording a signature replaces its line, or adds one before the diff, and nothing else") {
    const std::string text =
        "# M\n\n## a: T\n\nWhy.\n\ncaught by:\n\n```diff\n-x\n+y\n```\n\n## b: U\n\nWhy b.\n\n"
        "```diff\n-p\n+q\n```\n";
    const auto mistakes = tl::parse_mistake_catalogue(text, "x", "m.md");
    const std::string line = "caught by: \"c\" (assertion)";
    CHECK(tl::with_signature_line(text, mistakes.at(0), line) ==
          "# M\n\n## a: T\n\nWhy.\n\ncaught by: \"c\" (assertion)\n\n```diff\n-x\n+y\n```\n\n## b: "
          "U\n\n"
          "Why b.\n\n```diff\n-p\n+q\n```\n");
    CHECK(tl::with_signature_line(text, mistakes.at(1), line) ==
          "# M\n\n## a: T\n\nWhy.\n\ncaught by:\n\n```diff\n-x\n+y\n```\n\n## b: U\n\nWhy b.\n\n"
          "caught by: \"c\" (assertion)\n\n```diff\n-p\n+q\n```\n");
}

TEST_CASE("a run's signature: failed cases and how, [gpu] ones apart") {
    auto crashed = make_case("d", tl::CaseStatus::kFailed, false, tl::FailureKind::kCrash);
    auto todo = make_case("e", tl::CaseStatus::kFailed, false, tl::FailureKind::kTodo);
    const auto run =
        program_run({make_case("b", tl::CaseStatus::kFailed),
                     make_case("a", tl::CaseStatus::kFailed, false, tl::FailureKind::kException),
                     make_case("p", tl::CaseStatus::kPassed), crashed, todo,
                     make_case("g", tl::CaseStatus::kFailed, true)});
    const tl::RunSignature signature = tl::run_signature(run);
    CHECK(signature.anywhere == tl::Signature{{"a", tl::CaseFailure::kException},
                                              {"b", tl::CaseFailure::kAssertion},
                                              {"d", tl::CaseFailure::kCrash},
                                              {"e", tl::CaseFailure::kException}});
    CHECK(signature.gpu == tl::Signature{{"g", tl::CaseFailure::kAssertion}});

    tl::ProcessResult stopped;
    stopped.timed_out = true;
    auto timed_out = program_run({make_case("slow", tl::CaseStatus::kUnfinished)}, stopped);
    timed_out.events.finished = false;
    timed_out.verdict = tl::classify(timed_out.process, timed_out.events);
    CHECK(tl::run_signature(timed_out).anywhere ==
          tl::Signature{{"slow", tl::CaseFailure::kTimeout}});
}

TEST_CASE("a run matches the mistake whose recorded signature it has, and only that") {
    tl::Mistake first = mistake(false);
    first.slug = "first";
    first.caught_by = {{"a", tl::CaseFailure::kAssertion}};
    tl::Mistake second = mistake(false);
    second.slug = "second";
    second.caught_by = {{"a", tl::CaseFailure::kAssertion}, {"b", tl::CaseFailure::kException}};
    tl::Mistake on_gpu = mistake(true);
    on_gpu.slug = "on_gpu";
    on_gpu.caught_by = {{"g", tl::CaseFailure::kAssertion}};
    tl::Mistake unrecorded = mistake(false);
    const std::vector<tl::Mistake> catalogue{unrecorded, first, second, on_gpu};

    const auto match = [&](std::vector<tl::TestCaseResult> cases) -> std::string {
        std::string slugs;
        for (const tl::Mistake* found :
             tl::matching_mistakes(catalogue, program_run(std::move(cases)))) {
            slugs += (slugs.empty() ? "" : " ") + found->slug;
        }
        return slugs;
    };
    using S = tl::CaseStatus;
    CHECK(match({make_case("a", S::kFailed), make_case("b", S::kPassed)}) == "first");
    // A [gpu] case failing too changes nothing for a mistake seen anywhere.
    CHECK(match({make_case("a", S::kFailed), make_case("g", S::kFailed, true)}) == "first");
    CHECK(match({make_case("a", S::kFailed),
                 make_case("b", S::kFailed, false, tl::FailureKind::kException)}) == "second");
    // The same cases failing another way, or one case more, is another answer.
    CHECK(match({make_case("a", S::kFailed), make_case("b", S::kFailed)}).empty());
    CHECK(match({make_case("a", S::kFailed, false, tl::FailureKind::kException)}).empty());
    CHECK(match({make_case("a", S::kFailed), make_case("c", S::kFailed)}).empty());
    // GPU-only: its [gpu] cases, and nothing else failing.
    CHECK(match({make_case("a", S::kPassed), make_case("g", S::kFailed, true)}) == "on_gpu");
    CHECK(match({make_case("a", S::kPassed), make_case("g", S::kSkipped, true)}).empty());

    // Two mistakes with one signature: both, in file order.
    tl::Mistake twin = first;
    twin.slug = "twin";
    const std::vector<tl::Mistake> twins{first, twin};
    CHECK(tl::matching_mistakes(twins, program_run({make_case("a", S::kFailed)})).size() == 2);
}

TEST_CASE("a learner's copy of the catalogue keeps everything but the diffs") {
    const std::string text =
        "# Mistakes: x\n\n## a: T\n\nWhy.\n\ncaught by: \"c\" (assertion)\n\n```diff\n-x\n+y\n"
        "\n```\n\n## b: U\n\nWhy not.\n\n```diff\n-p\n+q\n```\n";
    const std::string notes = tl::without_diffs(text);
    CHECK(notes ==
          "# Mistakes: x\n\n## a: T\n\nWhy.\n\ncaught by: \"c\" (assertion)\n\n## b: U\n\nWhy "
          "not.\n");
    const auto mistakes = tl::parse_mistake_catalogue(notes, "x", "n.md");
    REQUIRE(mistakes.size() == 2);
    CHECK(mistakes[0].caught_by.size() == 1);
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
