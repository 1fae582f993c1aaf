/// @file
/// @brief Unit tests of running child processes: output, exit status, signals, time limits.
#include "tl_test/catch.h"

#include <csignal>

#include "core/errors.h"
#include "core/process.h"
#include "core/text.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
using namespace std::chrono_literals;

namespace {

tl::ProcessResult shell(const std::string& script,
                        std::optional<std::chrono::milliseconds> timeout = {},
                        const std::filesystem::path& cwd = {}) {
    return tl::run_process({{"sh", "-c", script}, cwd, tl::OutputMode::kCapture, timeout});
}

}  // namespace

TEST_CASE("stdout and stderr are captured together, with the exit status") {
    const tl::ProcessResult result = shell("echo out; echo err >&2; exit 3");
    CHECK(result.exit_code == 3);
    CHECK(result.signal == 0);
    CHECK_FALSE(result.timed_out);
    CHECK_FALSE(result.succeeded());
    CHECK(result.output == "out\nerr\n");
}

TEST_CASE("the key reaches the child through a pipe of its own, which then ends") {
    tl::ProcessSpec spec{{"sh", "-c",
                          "cat <&$TORCHLINGS_EVENTS_KEY_FD >&$TORCHLINGS_EVENTS_FD; "
                          "echo \" $TORCHLINGS_EVENTS_FD $TORCHLINGS_EVENTS_KEY_FD\""},
                         {},
                         tl::OutputMode::kCapture,
                         10s};
    spec.events_pipe = true;
    spec.events_key = "0123456789abcdef0123456789abcdef";
    const tl::ProcessResult result = tl::run_process(spec);
    CHECK(result.succeeded());
    CHECK(result.events == spec.events_key);  // cat ended: nothing else holds the write end
    CHECK(result.output == " 3 4\n");
}

TEST_CASE("arguments are passed as they are, never through a shell") {
    const tl::ProcessResult result = tl::run_process(
        {{"printf", "%s|", "a b", "$(not run)", ";"}, {}, tl::OutputMode::kCapture, {}});
    CHECK(result.succeeded());
    CHECK(result.output == "a b|$(not run)|;|");
}

TEST_CASE("the child runs in the folder it is given, with no stdin") {
    const tl::testing::TempDir dir;
    const tl::ProcessResult result = shell("pwd; cat", {}, dir.path());
    CHECK(result.succeeded());
    CHECK(tl::same_path(std::filesystem::path(result.output.substr(0, result.output.size() - 1)),
                        dir.path()));
}

TEST_CASE("a child killed by a signal reports the signal") {
    const tl::ProcessResult result = shell("kill -SEGV $$");
    CHECK(result.signal == SIGSEGV);
    CHECK(result.exit_code == -1);
    CHECK(tl::signal_name(result.signal) == "SIGSEGV");
}

TEST_CASE("a child past its time limit is stopped with its whole process group") {
    // The grandchild (sleep) holds the output pipe open; it must die with the group.
    const tl::ProcessResult result = shell("echo started; sleep 30 & wait", 300ms);
    CHECK(result.timed_out);
    CHECK(result.output == "started\n");
    CHECK(result.seconds < 5.0);
}

TEST_CASE("an output limit keeps the end of a flood of output") {
    tl::ProcessSpec spec{
        {"sh", "-c", "i=0; while [ $i -lt 5000 ]; do echo line $i; i=$((i+1)); done"},
        {},
        tl::OutputMode::kCapture,
        std::nullopt,
        1000};
    const tl::ProcessResult result = tl::run_process(spec);
    CHECK(result.succeeded());
    CHECK(result.output_truncated);
    CHECK(result.output.size() == 1000);
    CHECK_THAT(result.output, Catch::Matchers::EndsWith("line 4999\n"));
}

TEST_CASE("a program that does not exist is an environment error naming it") {
    REQUIRE_THROWS_AS(tl::run_process({{"tl-no-such-program"}, {}, tl::OutputMode::kCapture, {}}),
                      tl::EnvironmentError);
    REQUIRE_THROWS_WITH(tl::run_process({{"tl-no-such-program"}, {}, tl::OutputMode::kCapture, {}}),
                        Catch::Matchers::ContainsSubstring("cannot run tl-no-such-program"));
    REQUIRE_THROWS_WITH(shell("true", {}, "/no/such/folder"),
                        Catch::Matchers::ContainsSubstring("cannot enter /no/such/folder"));
}

TEST_CASE("signal names and meanings") {
    CHECK(tl::signal_name(SIGABRT) == "SIGABRT");
    CHECK(tl::signal_name(SIGFPE) == "SIGFPE");
    CHECK(tl::signal_name(SIGBUS) == "SIGBUS");
    CHECK(tl::signal_name(SIGILL) == "SIGILL");
    CHECK(tl::signal_name(SIGKILL) == "SIGKILL");
    CHECK(tl::signal_name(99) == "signal 99");
    CHECK_THAT(tl::signal_meaning(SIGSEGV), Catch::Matchers::ContainsSubstring("bad pointer"));
    CHECK_FALSE(tl::signal_meaning(SIGUSR1).empty());
}

TEST_CASE("find_program searches PATH") {
    REQUIRE(tl::find_program("sh"));
    CHECK(tl::find_program("sh")->filename() == "sh");
    CHECK_FALSE(tl::find_program("tl-no-such-program"));
    CHECK_FALSE(tl::find_program(""));
}
