/// @file
/// @brief Unit tests of Exercism's results.json (v3), the format `check --json` writes for one
/// exercise, made from hand-built outcomes over the fixture course.
#include "report_fixture.h"

using namespace tl_report_test;  // NOLINT(google-build-using-namespace): the fixture's helpers

TEST_CASE("exercism: a pass lists every case with its source and task") {
    // A case's code: its lines from where the test program said its TEST_CASE is, to the next.
    ReportFixture fixture;
    const tl::CheckOutcome outcome = fixture.ran(
        "fx_pass",
        {declared_at(make_case("adds small numbers", tl::CaseStatus::kPassed, {"task_2"}),
                     "fx_pass_test.cpp", 7),
         declared_at(make_case("adds negative numbers", tl::CaseStatus::kPassed),
                     "fx_pass_test.cpp", 9)});
    const json results = tl::exercism_results(tl::describe(fixture.context(), outcome));
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
    CHECK(tl::check_json(tl::describe_all(fixture.context(), {outcome})) == results);
}

TEST_CASE("exercism: a failed check carries the expression, values, INFO and location") {
    ReportFixture fixture;
    const json results = tl::exercism_results(tl::describe(fixture.context(), failing(fixture)));
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
    const json results = tl::exercism_results(
        tl::describe(fixture.context(), fixture.ran("fx_todo", {todo, exception})));
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
    const json results = tl::exercism_results(
        tl::describe(fixture.context(), fixture.build_error("fx_compile_error")));
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
    const json results = tl::exercism_results(tl::describe(fixture.context(), outcome));
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
    const json results = tl::exercism_results(tl::describe(
        fixture.context(),
        fixture.ran("fx_hang", {make_case("waits forever", tl::CaseStatus::kUnfinished)},
                    process)));
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
        const json results =
            tl::exercism_results(tl::describe(fixture.context(), skipped_case(fixture)));
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
        const json results = tl::exercism_results(tl::describe(
            fixture.context(),
            fixture.ran("fx_pass",
                        {make_case("adds small numbers", tl::CaseStatus::kPassed), skipped})));
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
        tl::exercism_results(tl::describe(fixture.context(), fixture.ran("fx_pass", {}, process)));
    CHECK(results["status"] == "error");
    CHECK(results["message"] == "The test program ran no test cases.");
    CHECK(results["torchlings_output"] == "bad byte \xEF\xBF\xBD here\n");
    CHECK_NOTHROW(results.dump());
}
