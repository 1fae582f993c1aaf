/// @file
/// @brief Unit tests of the machine-readable results of `check` (Exercism results.json v3,
/// JUnit XML, Classroom 50, Gradescope), made from hand-built outcomes over the fixture course.
#include "tl_test/catch.h"

#include <csignal>
#include <sstream>

#include "teacher/reports.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
using nlohmann::json;

namespace {

const std::filesystem::path kFixtures = TL_RUNNER_FIXTURES;

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

tl::TestCaseResult make_case(const std::string& name, tl::CaseStatus status,
                             std::vector<std::string> tags = {}) {
    tl::TestCaseResult result;
    result.name = name;
    result.status = status;
    result.tags = std::move(tags);
    result.duration_s = 0.125;
    return result;
}

/// The case as declared at `line` of a fixture test file, as the test program reports it.
tl::TestCaseResult declared_at(tl::TestCaseResult result, const std::string& test_file, int line) {
    result.file = (kFixtures / "tests/exercises/00_fixtures" / test_file).string();
    result.line = line;
    return result;
}

tl::Failure check_failure(const std::string& test_file, int line) {
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

tl::CheckOutcome failing(ReportFixture& fixture) {
    tl::TestCaseResult failed = declared_at(
        make_case("adds equal numbers", tl::CaseStatus::kFailed), "fx_fail_test.cpp", 9);
    failed.failures.push_back(check_failure("fx_fail_test.cpp", 11));
    return fixture.ran(
        "fx_fail",
        {declared_at(make_case("adds different numbers", tl::CaseStatus::kPassed, {"task_1"}),
                     "fx_fail_test.cpp", 7),
         failed});
}

tl::CheckOutcome crashed(ReportFixture& fixture) {
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

tl::CheckOutcome skipped_case(ReportFixture& fixture) {
    tl::TestCaseResult skipped = make_case("uses a device", tl::CaseStatus::kSkipped, {"gpu"});
    skipped.skip_reason = "needs a device this fixture never has";
    return fixture.ran("fx_skip", {skipped});
}

}  // namespace

TEST_CASE("exercism: a pass lists every case with its source and task") {
    // A case's code: its lines from where the test program said its TEST_CASE is, to the next.
    ReportFixture fixture;
    const tl::CheckOutcome outcome = fixture.ran(
        "fx_pass",
        {declared_at(make_case("adds small numbers", tl::CaseStatus::kPassed, {"task_2"}),
                     "fx_pass_test.cpp", 7),
         declared_at(make_case("adds negative numbers", tl::CaseStatus::kPassed),
                     "fx_pass_test.cpp", 9)});
    const json results = tl::exercism_results(fixture.context(), outcome);
    CHECK(results["version"] == 3);
    CHECK(results["status"] == "pass");
    CHECK(results["message"].is_null());
    REQUIRE(results["tests"].size() == 2);
    const json& first = results["tests"][0];
    CHECK(first["name"] == "adds small numbers");
    CHECK(first["status"] == "pass");
    CHECK(first["message"].is_null());
    CHECK(first["output"].is_null());
    CHECK(first["test_code"] == "TEST_CASE(\"adds small numbers\") { CHECK(fx_add(2, 2) == 4); }");
    CHECK(first["task_id"] == 2);
    CHECK(first["torchlings_duration_s"] == 0.125);
    CHECK_FALSE(results["tests"][1].contains("task_id"));
    CHECK(results["torchlings_skipped"] == json::array());
    CHECK_FALSE(results.contains("torchlings_output"));
    // One exercise: check --json prints exactly its results.
    CHECK(tl::check_json(fixture.context(), {outcome}) == results);
}

TEST_CASE("exercism: a failed check carries the expression, values, INFO and location") {
    ReportFixture fixture;
    const json results = tl::exercism_results(fixture.context(), failing(fixture));
    CHECK(results["status"] == "fail");
    CHECK(results["message"].is_null());
    REQUIRE(results["tests"].size() == 2);
    CHECK(results["tests"][0]["status"] == "pass");
    CHECK(results["tests"][0]["task_id"] == 1);
    const json& failed = results["tests"][1];
    CHECK(failed["status"] == "fail");
    CHECK(failed["message"] ==
          "CHECK( fx_add(2, 2) == 4 )\n"
          "with values:\n"
          "  5 == 4\n"
          "info: adding 2 and 2\n"
          "at tests/exercises/00_fixtures/fx_fail_test.cpp:11");
    CHECK(failed["test_code"] ==
          "TEST_CASE(\"adds equal numbers\") {\n"
          "    INFO(\"adding 2 and 2\");\n"
          "    CHECK(fx_add(2, 2) == 4);\n"
          "}");
}

TEST_CASE("exercism: TODO stubs fail, unexpected exceptions are errors") {
    ReportFixture fixture;
    tl::TestCaseResult todo = make_case("adds two numbers", tl::CaseStatus::kFailed);
    tl::Failure thrown;
    thrown.kind = tl::FailureKind::kTodo;
    thrown.macro = "CHECK";
    thrown.expr = "fx_add(2, 2) == 4";
    thrown.message = "TODO: return the sum of a and b";
    todo.failures.push_back(thrown);
    tl::TestCaseResult exception = make_case("divides", tl::CaseStatus::kFailed);
    thrown.kind = tl::FailureKind::kException;
    thrown.macro.clear();
    thrown.expr.clear();
    thrown.message = "division is not written yet";
    thrown.file = (kFixtures / "tests/exercises/00_fixtures/fx_todo_test.cpp").string();
    thrown.line = 13;
    exception.failures.push_back(thrown);
    const json results =
        tl::exercism_results(fixture.context(), fixture.ran("fx_todo", {todo, exception}));
    CHECK(results["status"] == "fail");
    CHECK(results["tests"][0]["status"] == "fail");
    CHECK(results["tests"][0]["message"] ==
          "The exercise still has a TODO; the stub says:\n"
          "  TODO: return the sum of a and b\n"
          "Replace the TODO in exercises/00_fixtures/fx_todo.cpp with your code.");
    CHECK(results["tests"][1]["status"] == "error");
    CHECK(results["tests"][1]["message"] ==
          "An exception that nothing caught was thrown:\n"
          "  division is not written yet\n"
          "It was thrown after the check at tests/exercises/00_fixtures/fx_todo_test.cpp:13.");
}

TEST_CASE("exercism: a build error is an error with the compiler's message and the log") {
    ReportFixture fixture;
    const json results =
        tl::exercism_results(fixture.context(), fixture.build_error("fx_compile_error"));
    CHECK(results["status"] == "error");
    CHECK(results["message"] ==
          "The build failed:\n"
          "exercises/00_fixtures/fx_compile_error.cpp:3:43: error: 'missing_value' was not "
          "declared in this scope\n"
          "    3 | int fx_add(int a, int b) { return a + b + missing_value; }\n"
          "      |                                           ^~~~~~~~~~~~~\n"
          "Full build log: " +
              (fixture.build_dir() / "logs/ex_fx_compile_error.build.log").string());
    CHECK(results["tests"] == json::array());
}

TEST_CASE("exercism: a crash is an error on its case, and the cases after it never ran") {
    ReportFixture fixture;
    tl::CheckOutcome outcome = crashed(fixture);
    outcome.run->process.output = "partial line";
    const json results = tl::exercism_results(fixture.context(), outcome);
    CHECK(results["status"] == "error");
    CHECK(results["message"] ==
          "The test program crashed with SIGABRT while running \"aborts on a negative "
          "argument\".\n"
          "SIGABRT: " +
              tl::signal_meaning(SIGABRT) +
              "\nIt happened before the first check of the test case at "
              "tests/exercises/00_fixtures/fx_crash_test.cpp:9.");
    REQUIRE(results["tests"].size() == 3);
    CHECK(results["tests"][0]["status"] == "pass");
    const json& running = results["tests"][1];
    CHECK(running["status"] == "error");
    CHECK(running["message"].get<std::string>().rfind(
              "The test program crashed with SIGABRT while running this test.\n", 0) == 0);
    CHECK(running["output"] == "partial line");
    const json& never = results["tests"][2];
    CHECK(never["name"] == "never runs");
    CHECK(never["status"] == "error");
    CHECK(never["message"] ==
          "This test never ran: the test program crashed with SIGABRT while running \"aborts "
          "on a negative argument\".");
    CHECK(never["test_code"].is_null());  // never started: the program never said where it is
    CHECK_FALSE(never.contains("torchlings_duration_s"));
    CHECK(results["torchlings_output"] == "partial line\n");
}

TEST_CASE("exercism: a time-out names the limit, and output is capped at 500 characters") {
    ReportFixture fixture;
    tl::ProcessResult process;
    process.timed_out = true;
    process.signal = SIGKILL;
    process.output = std::string(600, 'x') + "the end\n";
    const json results = tl::exercism_results(
        fixture.context(),
        fixture.ran("fx_hang", {make_case("waits forever", tl::CaseStatus::kUnfinished)}, process));
    CHECK(results["status"] == "error");
    CHECK(results["message"] ==
          "Stopped after 2 s while running \"waits forever\".\n"
          "The time limit of this exercise is 2 s. Look for a loop that never ends or a wait "
          "that never returns.");
    REQUIRE(results["tests"].size() == 1);
    const json& stopped = results["tests"][0];
    CHECK(stopped["status"] == "error");
    CHECK(stopped["message"] ==
          "Stopped after 2 s while running this test.\n"
          "The time limit of this exercise is 2 s. Look for a loop that never ends or a wait "
          "that never returns.");
    const std::string output = stopped["output"].get<std::string>();
    CHECK(output.size() <= 500);
    CHECK(output.rfind("[output truncated", 0) == 0);
    CHECK(output.substr(output.size() - 8) == "the end\n");
    CHECK_FALSE(stopped.contains("torchlings_duration_s"));  // it never ended
}

TEST_CASE("exercism: skipped cases are listed apart, never as passed") {
    ReportFixture fixture;
    SECTION("every case skipped: nothing was checked, an error") {
        const json results = tl::exercism_results(fixture.context(), skipped_case(fixture));
        CHECK(results["status"] == "error");
        CHECK(results["message"] ==
              "Every test was skipped (1 of 1), so nothing was checked on this machine: needs "
              "a device this fixture never has.");
        CHECK(results["tests"] == json::array());
        CHECK(results["torchlings_skipped"] == json::parse(R"([{"name": "uses a device",
                              "reason": "needs a device this fixture never has"}])"));
    }
    SECTION("some skipped: the others decide") {
        tl::TestCaseResult skipped = make_case("on a GPU", tl::CaseStatus::kSkipped, {"gpu"});
        skipped.skip_reason = "no GPU";
        const json results = tl::exercism_results(
            fixture.context(),
            fixture.ran("fx_pass",
                        {make_case("adds small numbers", tl::CaseStatus::kPassed), skipped}));
        CHECK(results["status"] == "pass");
        REQUIRE(results["tests"].size() == 1);
        CHECK(results["tests"][0]["name"] == "adds small numbers");
        CHECK(results["torchlings_skipped"] ==
              json::parse(R"([{"name": "on a GPU", "reason": "no GPU"}])"));
    }
}

TEST_CASE("exercism: no test case run, and text that is not UTF-8") {
    ReportFixture fixture;
    tl::ProcessResult process = ReportFixture::finished();
    process.output = "bad byte \xff here\n";
    const json results =
        tl::exercism_results(fixture.context(), fixture.ran("fx_pass", {}, process));
    CHECK(results["status"] == "error");
    CHECK(results["message"] == "The test program ran no test cases.");
    CHECK(results["torchlings_output"] == "bad byte \xEF\xBF\xBD here\n");
    CHECK_NOTHROW(results.dump());
}

TEST_CASE("check --json: several exercises, the worst status on top") {
    ReportFixture fixture;
    const json results = tl::check_json(
        fixture.context(),
        {fixture.ran("fx_pass", {make_case("adds small numbers", tl::CaseStatus::kPassed)}),
         failing(fixture)});
    CHECK(results["version"] == 3);
    CHECK(results["status"] == "fail");
    REQUIRE(results["exercises"].size() == 2);
    CHECK(results["exercises"][0]["id"] == "fx_pass");
    CHECK(results["exercises"][0]["lesson"] == "00");
    CHECK(results["exercises"][0]["status"] == "pass");
    CHECK(results["exercises"][1]["id"] == "fx_fail");
    CHECK(results["exercises"][1]["status"] == "fail");
    CHECK(results["exercises"][1]["tests"].size() == 2);

    const json with_error = tl::check_json(
        fixture.context(), {failing(fixture), fixture.build_error("fx_compile_error")});
    CHECK(with_error["status"] == "error");
}

TEST_CASE("junit: suites, counts, failures, errors, skips and the build") {
    ReportFixture fixture;
    const std::string xml = tl::junit_report(
        fixture.context(), {failing(fixture), fixture.build_error("fx_compile_error"),
                            crashed(fixture), skipped_case(fixture)});
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"torchlings "
                    "check\" tests=\"7\" failures=\"1\" errors=\"2\" skipped=\"2\"",
                    0) == 0);
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "<testsuite name=\"fx_fail\" tests=\"2\" failures=\"1\" "
                        "errors=\"0\" skipped=\"0\" time=\"0.750\""));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "    <testcase name=\"adds different numbers\" classname=\"00.fx_fail\" "
                        "time=\"0.125\"/>\n"));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "      <failure message=\"CHECK( fx_add(2, 2) == 4 ) with 5 "
                        "== 4\" type=\"assertion\">CHECK( fx_add(2, 2) == 4 )\n"
                        "with values:\n"));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "    <testcase name=\"build\" classname=\"00.fx_compile_error\""
                        " time=\"0.000\">\n      <error message=\"exercises/"
                        "00_fixtures/fx_compile_error.cpp:3:43: error: &apos;"
                        "missing_value&apos; was not declared in this scope\" "
                        "type=\"build\">The build failed:\n"));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "<error message=\"The test program crashed with SIGABRT\" "
                        "type=\"crash\">"));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "    <testcase name=\"never runs\" classname=\"00.fx_crash\" "
                        "time=\"0.000\">\n      <skipped message=\"not run: the "
                        "program stopped early\"/>\n    </testcase>\n"));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "<testsuite name=\"fx_skip\" tests=\"1\" failures=\"0\" "
                        "errors=\"0\" skipped=\"1\""));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "<skipped message=\"needs a device this fixture never "
                        "has\"/>"));
    CHECK(xml.substr(xml.size() - 14) == "</testsuites>\n");
}

TEST_CASE("junit: XML special and control characters are escaped") {
    ReportFixture fixture;
    tl::CheckOutcome outcome = failing(fixture);
    tl::Failure& failure = outcome.run->events.cases[1].failures[0];
    failure.expr = "a < b && c > \"d\" || 'e'";
    failure.expanded = "1 < 0\x01\x1b[31m\ttab";
    const std::string xml = tl::junit_report(fixture.context(), {outcome});
    // In an attribute, tab and newline are character references too.
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        "message=\"CHECK( a &lt; b &amp;&amp; c &gt; &quot;d&quot; || "
                        "&apos;e&apos; ) with 1 &lt; 0\\x01\\x1B[31m&#9;tab\""));
    CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(
                        ">CHECK( a &lt; b &amp;&amp; c &gt; &quot;d&quot; || "
                        "&apos;e&apos; )\nwith values:\n  1 &lt; 0\\x01\\x1B[31m\t"
                        "tab\n"));
    CHECK(xml.find('\x01') == std::string::npos);
    CHECK(xml.find('\x1b') == std::string::npos);
}

TEST_CASE("classroom50: one point per case that ran, and skips carry no score") {
    ReportFixture fixture;
    const json report = tl::classroom50_result(
        fixture.context(), {failing(fixture), skipped_case(fixture), crashed(fixture)});
    CHECK(report["schema"] == "classroom50/result/v1");
    CHECK(report["score"] == 2);
    CHECK(report["max-score"] == 5);
    REQUIRE(report["tests"].size() == 5);
    CHECK(report["tests"][0] == json::parse(R"({"test-name": "fx_fail: adds different numbers",
                                   "passed": true, "score": 1, "max-score": 1})"));
    CHECK(report["tests"][1]["passed"] == false);
    CHECK(report["tests"][1]["score"] == 0);
    CHECK(report["tests"][4]["test-name"] == "fx_crash: never runs");
    CHECK(report["torchlings_skipped"] == json::parse(R"([{"name": "fx_skip: uses a device",
                          "reason": "needs a device this fixture never has"}])"));
    const std::string when = report["datetime"].get<std::string>();
    CHECK(when.size() == 20);
    CHECK(when.back() == 'Z');

    const json nothing = tl::classroom50_result(fixture.context(), {skipped_case(fixture)});
    CHECK(nothing["max-score"] == 0);
    CHECK(nothing["tests"] == json::array());
}

TEST_CASE("gradescope: one point per case, integer scores, skips listed apart") {
    ReportFixture fixture;
    const json report = tl::gradescope_results(
        fixture.context(), {failing(fixture), skipped_case(fixture), crashed(fixture)});
    CHECK_FALSE(report.contains("score"));  // the tests' sum is the score
    REQUIRE(report["tests"].size() == 5);
    const json& passed = report["tests"][0];
    CHECK(passed["name"] == "fx_fail: adds different numbers");
    CHECK(passed["score"] == 1);
    CHECK(passed["score"].is_number_integer());
    CHECK(passed["max_score"] == 1);
    CHECK(passed["status"] == "passed");
    CHECK(passed["visibility"] == "visible");
    CHECK(report["tests"][1]["status"] == "failed");
    CHECK(report["tests"][1]["output"].get<std::string>().rfind("CHECK( fx_add(2, 2) == 4 )\n",
                                                                0) == 0);
    CHECK(report["extra_data"]["torchlings_skipped"].size() == 1);
    CHECK_THAT(report["output"].get<std::string>(),
               Catch::Matchers::ContainsSubstring("fx_skip: uses a device"));

    const json refused = tl::gradescope_refusal("Not graded: edited tests.");
    CHECK(refused["score"] == 0);
    CHECK(refused["tests"] == json::array());
}

TEST_CASE("scores: a build error scores every declared case 0") {
    ReportFixture fixture;
    const tl::DeclaredCases declared = {
        {"fx_compile_error", {{"adds small numbers", false}, {"adds negative numbers", false}}}};
    const json report = tl::classroom50_result(fixture.context(),
                                               {fixture.build_error("fx_compile_error")}, declared);
    CHECK(report["max-score"] == 2);
    CHECK(report["score"] == 0);
    REQUIRE(report["tests"].size() == 2);
    CHECK(report["tests"][0]["test-name"] == "fx_compile_error: adds small numbers");
    CHECK(report["tests"][1]["test-name"] == "fx_compile_error: adds negative numbers");
    const json gradescope = tl::gradescope_results(
        fixture.context(), {fixture.build_error("fx_compile_error")}, declared);
    REQUIRE(gradescope["tests"].size() == 2);
    for (const json& test : gradescope["tests"]) {
        CHECK(test["score"] == 0);
        CHECK(test["output"].get<std::string>().rfind("The build failed:\n", 0) == 0);
    }
    // Not even listed (a build folder without the listing programs): one case, scoring 0.
    const json unlisted =
        tl::classroom50_result(fixture.context(), {fixture.build_error("fx_compile_error")});
    CHECK(unlisted["max-score"] == 1);
    CHECK(unlisted["tests"][0]["test-name"] == "fx_compile_error: build");
}

namespace {

/// A course of one exercise, "demo" in lesson 01, whose test source is `test_source`.
void write_demo_course(const tl::testing::TempDir& course, std::string_view test_source) {
    course.write("lessons/01_demo/README.md", "# Lesson 01 — Demo\n");
    course.write("exercises/01_demo/info.md", "## demo: Demo\n");
    course.write("tests/exercises/01_demo/demo_test.cpp", test_source);
}

}  // namespace

TEST_CASE("exercism: a case's code ends where the next case starts, or at the end") {
    ReportFixture fixture;
    const json results = tl::exercism_results(fixture.context(), failing(fixture));
    CHECK(results["tests"][0]["test_code"] ==
          "TEST_CASE(\"adds different numbers\") { CHECK(fx_add(2, 3) == 5); }");
    // A case whose file is not the exercise's test file (a shared header): no code, no line.
    tl::TestCaseResult elsewhere = make_case("from a header", tl::CaseStatus::kPassed);
    elsewhere.file = "/elsewhere/shared_cases.h";
    elsewhere.line = 3;
    const json other = tl::exercism_results(fixture.context(), fixture.ran("fx_pass", {elsewhere}));
    CHECK(other["tests"][0]["test_code"].is_null());
}

TEST_CASE("scores: after a build error, GPU cases count as the tests decided") {
    tl::testing::TempDir course;
    write_demo_course(course, R"test(#include "tl_test/catch.h"
TEST_CASE("on the CPU") { CHECK(true); }
TEST_CASE("on a GPU", "[gpu]") { CHECK(true); }
)test");
    ReportFixture fixture(course.path());
    const tl::CheckOutcome outcome = fixture.unrecognised_build_error("demo");
    // As the listing program ex_demo_cases names them.
    const tl::DeclaredCases declared = {{"demo", {{"on the CPU", false}, {"on a GPU", true}}}};
    // Alone, no [gpu] case of the batch ran or skipped: the NVIDIA driver decides.
    const json report = tl::classroom50_result(fixture.context(), {outcome}, declared);
    if (std::filesystem::exists("/dev/nvidia0")) {
        CHECK(report["max-score"] == 2);  // the GPU case would have run, and scores 0
        CHECK(report["torchlings_skipped"].empty());
    } else {
        CHECK(report["max-score"] == 1);  // it would have skipped itself: not scored
        REQUIRE(report["torchlings_skipped"].size() == 1);
        CHECK(report["torchlings_skipped"][0]["name"] == "demo: on a GPU");
        CHECK_THAT(report["torchlings_skipped"][0]["reason"].get<std::string>(),
                   Catch::Matchers::ContainsSubstring("needs a CUDA GPU"));
    }
    CHECK(report["tests"][0]["test-name"] == "demo: on the CPU");
    CHECK(report["tests"][0]["score"] == 0);

    // With other outcomes in the batch, the decision is the one their [gpu] cases made.
    const tl::CheckOutcome& broken = outcome;

    // Another exercise's GPU case ran: this machine has a GPU, whatever /dev shows.
    const tl::CheckOutcome ran =
        fixture.ran("demo", {make_case("on a GPU", tl::CaseStatus::kPassed, {"gpu"})});
    const json with_gpu = tl::classroom50_result(fixture.context(), {broken, ran}, declared);
    CHECK(with_gpu["max-score"] == 3);
    CHECK(with_gpu["torchlings_skipped"].empty());

    // It skipped itself: no GPU, so the build error's GPU case is not scored either.
    const tl::CheckOutcome skipped =
        fixture.ran("demo", {make_case("on a GPU", tl::CaseStatus::kSkipped, {"gpu"})});
    const json without_gpu = tl::classroom50_result(fixture.context(), {broken, skipped}, declared);
    CHECK(without_gpu["max-score"] == 1);
    CHECK(without_gpu["torchlings_skipped"].size() == 2);
}
