/// @file
/// @brief Unit tests of reading the torchlings reporter's JSON Lines.
#include "tl_test/catch.h"

#include "core/events.h"

namespace tl = torchlings::runner;

namespace {

constexpr const char* kRun = R"LOG({"event":"run_start"}
{"event":"case_start","name":"passes","tags":[]}
{"event":"case_end","name":"passes","status":"passed","skip_reason":null,"duration_s":0.25}
{"event":"case_start","name":"fails","tags":["gpu"],"file":"/c/t.cpp","line":11}
{"event":"assertion","case":"fails","ok":false,"macro":"CHECK","expr":"f(2) == 4","expanded":"5 == 4","message":"","messages":["adding 2 and 2"],"file":"/c/t.cpp","line":12,"kind":"assertion"}
{"event":"assertion","case":"fails","ok":false,"macro":"REQUIRE","expr":"g()","expanded":"","message":"TODO: write g","messages":[],"file":"/c/t.cpp","line":13,"kind":"todo"}
{"event":"case_end","name":"fails","status":"failed","skip_reason":null,"duration_s":0.5}
{"event":"case_start","name":"skips","tags":[]}
{"event":"case_end","name":"skips","status":"skipped","skip_reason":"needs a CUDA GPU","duration_s":0.0}
{"event":"run_end","passed":1,"failed":1,"skipped":1}
)LOG";

}  // namespace

TEST_CASE("a complete run is read case by case") {
    const tl::TestRun run = tl::parse_test_events(kRun);
    CHECK(run.started);
    CHECK(run.finished);
    CHECK(run.unreadable_lines == 0);
    REQUIRE(run.cases.size() == 3);
    CHECK(run.count(tl::CaseStatus::kPassed) == 1);
    CHECK(run.count(tl::CaseStatus::kFailed) == 1);
    CHECK(run.count(tl::CaseStatus::kSkipped) == 1);
    CHECK(run.cases[0].duration_s == Catch::Approx(0.25));
    CHECK(run.cases[1].tags == std::vector<std::string>{"gpu"});
    CHECK(run.cases[1].file == "/c/t.cpp");  // where its TEST_CASE is
    CHECK(run.cases[1].line == 11);
    CHECK(run.cases[0].file.empty());  // an older program's events say nothing of it
    CHECK(run.cases[0].line == 0);
    CHECK(run.cases[2].skip_reason == "needs a CUDA GPU");
    CHECK(run.interrupted_case() == nullptr);

    const tl::TestCaseResult* failed = run.first_failure();
    REQUIRE(failed != nullptr);
    CHECK(failed->name == "fails");
    REQUIRE(failed->failures.size() == 2);
    const tl::Failure& first = failed->failures[0];
    CHECK(first.kind == tl::FailureKind::kAssertion);
    CHECK(first.macro == "CHECK");
    CHECK(first.expr == "f(2) == 4");
    CHECK(first.expanded == "5 == 4");
    CHECK(first.messages == std::vector<std::string>{"adding 2 and 2"});
    CHECK(first.file == "/c/t.cpp");
    CHECK(first.line == 12);
    CHECK(failed->failures[1].kind == tl::FailureKind::kTodo);
}

TEST_CASE("a crash leaves a truncated last line and an unfinished case") {
    const std::string text = R"LOG({"event":"run_start"}
{"event":"case_start","name":"first","tags":[]}
{"event":"case_end","name":"first","status":"passed","skip_reason":null,"duration_s":0.1}
{"event":"case_start","name":"second","tags":[]}
{"event":"assertion","case":"second","ok":false,"ma)LOG";
    const tl::TestRun run = tl::parse_test_events(text);
    CHECK(run.started);
    CHECK_FALSE(run.finished);
    CHECK(run.unreadable_lines == 1);
    REQUIRE(run.cases.size() == 2);
    CHECK(run.cases[1].status == tl::CaseStatus::kUnfinished);
    REQUIRE(run.interrupted_case() != nullptr);
    CHECK(run.interrupted_case()->name == "second");
    CHECK(run.first_failure() == run.interrupted_case());
}

TEST_CASE("a signal caught by Catch2 ends the case with a crash failure") {
    const std::string text = R"LOG({"event":"run_start"}
{"event":"case_start","name":"aborts","tags":[]}
{"event":"assertion","case":"aborts","ok":false,"macro":"CHECK","expr":"f(-1) == 1","expanded":"","message":"SIGABRT - Abort (abnormal termination) signal","messages":[],"file":"/c/t.cpp","line":9,"kind":"crash"}
{"event":"case_end","name":"aborts","status":"failed","skip_reason":null,"duration_s":0.0}
{"event":"run_end","passed":0,"failed":1,"skipped":0}
)LOG";
    const tl::TestRun run = tl::parse_test_events(text);
    REQUIRE(run.interrupted_case() != nullptr);
    CHECK(run.interrupted_case()->failures.front().kind == tl::FailureKind::kCrash);
}

TEST_CASE("empty output, garbage and unknown events are survivable") {
    const tl::TestRun empty = tl::parse_test_events("");
    CHECK_FALSE(empty.started);
    CHECK(empty.cases.empty());
    CHECK(empty.first_failure() == nullptr);

    const tl::TestRun noisy = tl::parse_test_events(
        "hello\n{\"event\":\"future_event\"}\n[1,2]\n{\"event\":\"run_start\"}\n");
    CHECK(noisy.started);
    CHECK(noisy.unreadable_lines == 2);
}

TEST_CASE("only the first report counts: events before its start or after its end are ignored") {
    const tl::TestRun run = tl::parse_test_events(
        "{\"event\":\"case_start\",\"name\":\"early\",\"tags\":[]}\n"
        "{\"event\":\"run_start\"}\n"
        "{\"event\":\"case_start\",\"name\":\"a\",\"tags\":[]}\n"
        "{\"event\":\"case_end\",\"name\":\"a\",\"status\":\"failed\"}\n"
        "{\"event\":\"run_end\",\"passed\":0,\"failed\":1,\"skipped\":0}\n"
        "{\"event\":\"run_start\"}\n"
        "{\"event\":\"case_start\",\"name\":\"a\",\"tags\":[]}\n"
        "{\"event\":\"case_end\",\"name\":\"a\",\"status\":\"passed\"}\n"
        "{\"event\":\"run_end\",\"passed\":1,\"failed\":0,\"skipped\":0}\n");
    REQUIRE(run.cases.size() == 1);
    CHECK(run.cases.front().status == tl::CaseStatus::kFailed);
    CHECK(run.ignored_events == 5);
}

TEST_CASE("kind names match the reporter's words") {
    CHECK(tl::kind_name(tl::FailureKind::kAssertion) == "assertion");
    CHECK(tl::kind_name(tl::FailureKind::kException) == "exception");
    CHECK(tl::kind_name(tl::FailureKind::kTodo) == "todo");
    CHECK(tl::kind_name(tl::FailureKind::kCrash) == "crash");
}

TEST_CASE("control characters from a test program are shown, never obeyed") {
    // An exception's message that would clear the screen and draw a forged verdict.
    constexpr const char* kForged = R"LOG({"event":"run_start"}
{"event":"case_start","name":"fails","tags":[]}
{"event":"assertion","case":"fails","ok":false,"macro":"","expr":"","expanded":"","message":"\u001b[2J\u001b[H5/5 \u009b32mDone!\r","messages":["\u0007bell"],"file":"/c/t.cpp","line":3,"kind":"exception"}
{"event":"case_end","name":"fails","status":"failed","skip_reason":null,"duration_s":0.1}
{"event":"run_end","passed":0,"failed":1,"skipped":0}
)LOG";
    const tl::TestRun run = tl::parse_test_events(kForged);
    const tl::TestCaseResult* failed = run.first_failure();
    REQUIRE(failed != nullptr);
    REQUIRE(failed->failures.size() == 1);
    CHECK(failed->failures[0].message == "\\x1b[2J\\x1b[H5/5 \\u009b32mDone!\\x0d");
    CHECK(failed->failures[0].messages == std::vector<std::string>{"\\x07bell"});
}
