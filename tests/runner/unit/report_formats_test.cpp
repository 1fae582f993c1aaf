/// @file
/// @brief Unit tests of the other machine-readable results of `check`: --json over several
/// exercises, JUnit XML, Classroom 50 and Gradescope scores.
#include "core/process.h"
#include "report_fixture.h"

using namespace tl_report_test;  // NOLINT(google-build-using-namespace): the fixture's helpers

TEST_CASE("check --json: several exercises, the worst status on top") {
    ReportFixture fixture;
    const json results = tl::check_json(tl::describe_all(
        fixture.context(),
        {fixture.ran("fx_pass", {make_case("adds small numbers", tl::CaseStatus::kPassed)}),
         failing(fixture)}));
    CHECK(results["version"] == 3);
    CHECK(results["status"] == "fail");
    REQUIRE(results["exercises"].size() == 2);
    CHECK(results["exercises"][0]["id"] == "fx_pass");
    CHECK(results["exercises"][0]["lesson"] == "00");
    CHECK(results["exercises"][0]["status"] == "pass");
    CHECK(results["exercises"][1]["id"] == "fx_fail");
    CHECK(results["exercises"][1]["status"] == "fail");
    CHECK(results["exercises"][1]["tests"].size() == 2);

    const json with_error = tl::check_json(tl::describe_all(
        fixture.context(), {failing(fixture), fixture.build_error("fx_compile_error")}));
    CHECK(with_error["status"] == "error");
}

TEST_CASE("junit: suites, counts, failures, errors, skips and the build") {
    ReportFixture fixture;
    const std::string xml = tl::junit_report(tl::describe_all(
        fixture.context(), {failing(fixture), fixture.build_error("fx_compile_error"),
                            crashed(fixture), skipped_case(fixture)}));
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"torchlings "
                    "check\" tests=\"7\" failures=\"1\" errors=\"2\" skipped=\"2\"",
                    0) == 0);
    for (const char* expected :
         {"<testsuite name=\"fx_fail\" tests=\"2\" failures=\"1\" "
          "errors=\"0\" skipped=\"0\" time=\"0.750\"",
          "    <testcase name=\"adds different numbers\" classname=\"00.fx_fail\" "
          "time=\"0.125\"/>\n",
          "      <failure message=\"CHECK( fx_add(2, 2) == 4 ) with 5 "
          "== 4\" type=\"assertion\">CHECK( fx_add(2, 2) == 4 )\n"
          "with values:\n",
          "    <testcase name=\"build\" classname=\"00.fx_compile_error\""
          " time=\"0.000\">\n      <error message=\"exercises/"
          "00_fixtures/fx_compile_error.cpp:3:43: error: &apos;"
          "missing_value&apos; was not declared in this scope\" "
          "type=\"build\">The build failed:\n",
          "<error message=\"The test program crashed with SIGABRT\" "
          "type=\"crash\">",
          "    <testcase name=\"never runs\" classname=\"00.fx_crash\" "
          "time=\"0.000\">\n      <skipped message=\"not run: the "
          "program stopped early\"/>\n    </testcase>\n",
          "<testsuite name=\"fx_skip\" tests=\"1\" failures=\"0\" "
          "errors=\"0\" skipped=\"1\"",
          "<skipped message=\"needs a device this fixture never "
          "has\"/>"}) {
        CHECK_THAT(xml, Catch::Matchers::ContainsSubstring(expected));
    }
    CHECK(xml.substr(xml.size() - 14) == "</testsuites>\n");
}

TEST_CASE("junit: XML special and control characters are escaped") {
    ReportFixture fixture;
    tl::CheckOutcome outcome = failing(fixture);
    tl::Failure& failure = outcome.run->events.cases[1].failures[0];
    failure.expr = "a < b && c > \"d\" || 'e'";
    failure.expanded = "1 < 0\x01\x1b[31m\ttab";
    const std::string xml = tl::junit_report(tl::describe_all(fixture.context(), {outcome}));
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
    const json report = tl::classroom50_result(tl::describe_all(
        fixture.context(), {failing(fixture), skipped_case(fixture), crashed(fixture)}));
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

    const json nothing =
        tl::classroom50_result(tl::describe_all(fixture.context(), {skipped_case(fixture)}));
    CHECK(nothing["max-score"] == 0);
    CHECK(nothing["tests"] == json::array());
}

TEST_CASE("gradescope: one point per case, integer scores, skips listed apart") {
    ReportFixture fixture;
    const json report = tl::gradescope_results(tl::describe_all(
        fixture.context(), {failing(fixture), skipped_case(fixture), crashed(fixture)}));
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

TEST_CASE("classroom50 and gradescope: the results say which sandbox contained the tests") {
    ReportFixture fixture;
    const std::vector<tl::ExerciseReport> reports =
        tl::describe_all(fixture.context(), {failing(fixture)});
    const std::string level = tl::sandbox().description;
    CHECK((level == "bubblewrap" || level.rfind("none: ", 0) == 0));
    CHECK(tl::classroom50_result(reports)["torchlings_sandbox"] == level);
    CHECK(tl::gradescope_results(reports)["extra_data"]["torchlings_sandbox"] == level);
}

TEST_CASE("every format records the seed of the hidden inputs, and none without one") {
    ReportFixture fixture;
    const std::vector<tl::ExerciseReport> one =
        tl::describe_all(fixture.context(), {failing(fixture)});
    const std::vector<tl::ExerciseReport> two = tl::describe_all(
        fixture.context(),
        {failing(fixture),
         fixture.ran("fx_pass", {make_case("adds small numbers", tl::CaseStatus::kPassed)})});
    constexpr std::uint64_t kSeed = 18446744073709551615ULL;  // the largest: exact in the JSON
    CHECK(tl::classroom50_result(one, {}, kSeed)["torchlings_test_seed"] == kSeed);
    const json gradescope = tl::gradescope_results(one, {}, 31337);
    CHECK(gradescope["extra_data"]["torchlings_test_seed"] == 31337);
    CHECK_THAT(
        gradescope["output"].get<std::string>(),
        Catch::Matchers::ContainsSubstring(
            "Test seed: TORCHLINGS_TEST_SEED=31337, from which the tests that draw inputs drew "
            "them; TORCHLINGS_TEST_SEED=31337 "
            "./torchlings check <id> replays them."));
    CHECK(tl::check_json(one, 7)["torchlings_test_seed"] == 7);
    CHECK(tl::check_json(two, 7)["torchlings_test_seed"] == 7);
    const std::string xml = tl::junit_report(two, 7);
    const std::string property =
        "    <properties>\n      <property name=\"torchlings.test_seed\" value=\"7\"/>\n";
    REQUIRE(xml.find(property) != std::string::npos);
    CHECK(xml.find(property, xml.find(property) + 1) != std::string::npos);  // each suite

    CHECK_FALSE(tl::classroom50_result(one).contains("torchlings_test_seed"));
    CHECK_FALSE(tl::gradescope_results(one)["extra_data"].contains("torchlings_test_seed"));
    CHECK_THAT(tl::gradescope_results(one)["output"].get<std::string>(),
               !Catch::Matchers::ContainsSubstring("TORCHLINGS_TEST_SEED"));
    CHECK_FALSE(tl::check_json(one).contains("torchlings_test_seed"));
    CHECK_FALSE(tl::check_json(two).contains("torchlings_test_seed"));
    CHECK(tl::junit_report(two).find("torchlings.test_seed") == std::string::npos);
}

TEST_CASE("scores: a refused report scores every declared case 0, not only those it showed") {
    ReportFixture fixture;
    // The program showed one case of the five its tests declare, and its report was refused.
    tl::CheckOutcome outcome =
        fixture.ran("fx_pass", {make_case("adds small numbers", tl::CaseStatus::kPassed)});
    outcome.run->verdict = tl::Verdict::kRefused;
    outcome.run->refusal = "a line of the report has no valid signature";
    const tl::DeclaredCases declared = {{"fx_pass",
                                         {{"adds small numbers", false},
                                          {"adds negative numbers", false},
                                          {"adds zero", false},
                                          {"adds large numbers", false},
                                          {"adds twice", false}}}};
    const json classroom =
        tl::classroom50_result(tl::describe_all(fixture.context(), {outcome}), declared);
    CHECK(classroom["max-score"] == 5);
    CHECK(classroom["score"] == 0);
    const json gradescope =
        tl::gradescope_results(tl::describe_all(fixture.context(), {outcome}), declared);
    REQUIRE(gradescope["tests"].size() == 5);
    for (const json& test : gradescope["tests"]) {
        CHECK(test["score"] == 0);
    }
}

TEST_CASE("scores: a build error scores every declared case 0") {
    ReportFixture fixture;
    const tl::DeclaredCases declared = {
        {"fx_compile_error", {{"adds small numbers", false}, {"adds negative numbers", false}}}};
    const json report = tl::classroom50_result(
        tl::describe_all(fixture.context(), {fixture.build_error("fx_compile_error")}), declared);
    CHECK(report["max-score"] == 2);
    CHECK(report["score"] == 0);
    REQUIRE(report["tests"].size() == 2);
    CHECK(report["tests"][0]["test-name"] == "fx_compile_error: adds small numbers");
    CHECK(report["tests"][1]["test-name"] == "fx_compile_error: adds negative numbers");
    const json gradescope = tl::gradescope_results(
        tl::describe_all(fixture.context(), {fixture.build_error("fx_compile_error")}), declared);
    REQUIRE(gradescope["tests"].size() == 2);
    for (const json& test : gradescope["tests"]) {
        CHECK(test["score"] == 0);
        CHECK(test["output"].get<std::string>().rfind("The build failed:\n", 0) == 0);
    }
    // Not even listed (a build folder without the listing programs): one case, scoring 0.
    const json unlisted = tl::classroom50_result(
        tl::describe_all(fixture.context(), {fixture.build_error("fx_compile_error")}));
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
    const json results = tl::exercism_results(tl::describe(fixture.context(), failing(fixture)));
    CHECK(results["tests"][0]["test_code"] ==
          "TEST_CASE(\"adds different numbers\") { CHECK(fx_add(2, 3) == 5); }");
    // A case whose file is not the exercise's test file (a shared header): no code, no line.
    tl::TestCaseResult elsewhere = make_case("from a header", tl::CaseStatus::kPassed);
    elsewhere.file = "/elsewhere/shared_cases.h";
    elsewhere.line = 3;
    const json other =
        tl::exercism_results(tl::describe(fixture.context(), fixture.ran("fx_pass", {elsewhere})));
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
    const json report =
        tl::classroom50_result(tl::describe_all(fixture.context(), {outcome}), declared);
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
    const json with_gpu =
        tl::classroom50_result(tl::describe_all(fixture.context(), {broken, ran}), declared);
    CHECK(with_gpu["max-score"] == 3);
    CHECK(with_gpu["torchlings_skipped"].empty());

    // It skipped itself: no GPU, so the build error's GPU case is not scored either.
    const tl::CheckOutcome skipped =
        fixture.ran("demo", {make_case("on a GPU", tl::CaseStatus::kSkipped, {"gpu"})});
    const json without_gpu =
        tl::classroom50_result(tl::describe_all(fixture.context(), {broken, skipped}), declared);
    CHECK(without_gpu["max-score"] == 1);
    CHECK(without_gpu["torchlings_skipped"].size() == 2);
}

TEST_CASE("flags: every format tells the teacher what a file does that no answer needs") {
    ReportFixture fixture;
    tl::CheckOutcome outcome = failing(fixture);
    tl::IntegrityFlag exits;
    exits.code = "exit-path";
    exits.detail = "uses _exit";
    tl::IntegrityFlag reporter;
    reporter.code = "reporter";
    reporter.detail = "writes the report's pipe";
    reporter.refused = true;
    outcome.flags = {exits, reporter};
    const std::vector<tl::ExerciseReport> reports = tl::describe_all(fixture.context(), {outcome});

    const json flags = tl::exercism_results(reports.front())["torchlings_flags"];
    REQUIRE(flags.size() == 2);
    CHECK(flags[1] ==
          json{{"code", "reporter"}, {"detail", "writes the report's pipe"}, {"refused", true}});

    // Gradescope: in a hidden case worth nothing, which students never see; not in "output".
    const json gradescope = tl::gradescope_results(reports);
    CHECK_THAT(gradescope["output"].get<std::string>(),
               !Catch::Matchers::ContainsSubstring("teacher"));
    const json& teacher = gradescope["tests"].back();
    CHECK(teacher["visibility"] == "hidden");
    CHECK(teacher["max_score"] == 0);
    CHECK(teacher["output"] ==
          "fx_fail: flagged: exit-path: uses _exit\n"
          "fx_fail: refused: reporter: writes the report's pipe");
    REQUIRE(gradescope["extra_data"]["torchlings_flags"].size() == 2);
    CHECK(gradescope["extra_data"]["torchlings_flags"][0]["exercise"] == "fx_fail");

    const json classroom = tl::classroom50_result(reports);
    CHECK(classroom["torchlings_flags"] == gradescope["extra_data"]["torchlings_flags"]);

    CHECK_THAT(tl::junit_report(reports),
               Catch::Matchers::ContainsSubstring(
                   "<property name=\"torchlings.flag.reporter\" "
                   "value=\"refused: reporter: writes the report&apos;s pipe\"/>"));
}
