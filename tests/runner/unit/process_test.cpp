/// @file
/// @brief Unit tests of running child processes: output, exit status, signals, time limits.
#include "tl_test/catch.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/errors.h"
#include "core/process.h"
#include "core/text.h"
#include "temp_dir.h"
#include "tl_test/skip.h"

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

TEST_CASE("the spec's variables reach the child over the runner's, in the sandbox too") {
    setenv("TL_PROCESS_TEST_KEPT", "kept", 1);
    setenv("TL_PROCESS_TEST_SET", "runner's", 1);
    for (const bool contained : {false, true}) {
        INFO((contained ? "in the sandbox" : "without it"));
        tl::ProcessSpec spec{{"sh", "-c", "echo \"$TL_PROCESS_TEST_SET $TL_PROCESS_TEST_KEPT\""},
                             {},
                             tl::OutputMode::kCapture,
                             10s};
        spec.sandboxed = contained;
        spec.environment = {{"TL_PROCESS_TEST_SET", "spec's"}};
        const tl::ProcessResult result = tl::run_process(spec);
        CHECK(result.succeeded());
        CHECK(result.output == "spec's kept\n");
    }
    unsetenv("TL_PROCESS_TEST_KEPT");
    unsetenv("TL_PROCESS_TEST_SET");
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

// --- The sandbox (where bubblewrap starts; elsewhere these report skipped) ---

namespace {

/// A captured run of a shell script inside the sandbox.
tl::ProcessResult sandboxed(const std::string& script, const std::filesystem::path& cwd = {}) {
    tl::ProcessSpec spec{{"sh", "-c", script}, cwd, tl::OutputMode::kCapture, 20s};
    spec.sandboxed = true;
    return tl::run_process(spec);
}

/// The processes whose command line holds `word`.
int processes_with(const std::string& word) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        const std::string line((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        count += line.find(word) != std::string::npos ? 1 : 0;
    }
    return count;
}

}  // namespace

TEST_CASE("sandbox: a test program writes nothing but a temporary folder of its own") {
    if (!tl::sandbox().active) {
        TL_SKIP("the sandbox cannot start here (" << tl::sandbox().description << ")");
    }
    const tl::testing::TempDir dir;
    const std::string outside = (dir.path() / "written").string();
    const std::string name = "tl_sandbox_" + std::to_string(getpid());
    const std::string script = "echo kept > \"$TMPDIR/" + name + "\" && cat \"$TMPDIR/" + name +
                               "\" && echo \"$TMPDIR\"; echo x > " + outside +
                               " || echo refused; pwd";
    const tl::ProcessResult result = sandboxed(script, dir.path());
    CHECK(result.succeeded());
    const std::vector<std::string> lines = tl::split_lines(result.output);
    REQUIRE(lines.size() >= 4);
    CHECK(lines[0] == "kept");
    CHECK(lines[1] == "/dev/shm");  // the sandbox's own, in memory
    CHECK_THAT(result.output, Catch::Matchers::ContainsSubstring("Read-only file system"));
    CHECK(lines[lines.size() - 2] == "refused");
    CHECK(tl::same_path(lines.back(), dir.path()));
    CHECK_FALSE(std::filesystem::exists(outside));
    CHECK_FALSE(std::filesystem::exists("/dev/shm/" + name));  // gone with the sandbox
}

TEST_CASE("sandbox: every process a test program starts has ended when its run returns") {
    if (!tl::sandbox().active) {
        TL_SKIP("the sandbox cannot start here (" << tl::sandbox().description << ")");
    }
    // A process in a session of its own, holding no output, outlives the program by far.
    const std::string mark = "600.4242" + std::to_string(getpid());
    const tl::ProcessResult result =
        sandboxed("setsid sleep " + mark + " </dev/null >/dev/null 2>&1 & echo started");
    CHECK(result.succeeded());
    CHECK(result.output == "started\n");
    CHECK(result.seconds < 10.0);
    CHECK(processes_with(mark) == 0);
}

TEST_CASE("sandbox: a test program cannot see or signal the runner") {
    if (!tl::sandbox().active) {
        TL_SKIP("the sandbox cannot start here (" << tl::sandbox().description << ")");
    }
    const std::string runner = std::to_string(getpid());
    const tl::ProcessResult result = sandboxed("kill -STOP $PPID; kill -0 " + runner +
                                               " 2>/dev/null && echo reached || echo unseen; "
                                               "ls /proc | grep -c '^[0-9]'");
    CHECK(result.succeeded());
    const std::vector<std::string> lines = tl::split_lines(result.output);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "unseen");
    CHECK(std::stoi(lines[1]) <= 4);  // bwrap's first process, sh, ls, grep
}

TEST_CASE("sandbox: a signal that ends a test program is reported as the signal") {
    if (!tl::sandbox().active) {
        TL_SKIP("the sandbox cannot start here (" << tl::sandbox().description << ")");
    }
    const tl::ProcessResult crashed = sandboxed("kill -SEGV $$");
    CHECK(crashed.signal == SIGSEGV);
    CHECK(crashed.exit_code == -1);
    const tl::ProcessResult exited = sandboxed("exit 3");
    CHECK(exited.exit_code == 3);
    CHECK(exited.signal == 0);
    tl::ProcessSpec missing{{"tl-no-such-program"}, {}, tl::OutputMode::kCapture, {}};
    missing.sandboxed = true;
    REQUIRE_THROWS_WITH(tl::run_process(missing),
                        Catch::Matchers::ContainsSubstring("cannot run tl-no-such-program"));
}

TEST_CASE("sandbox: TORCHLINGS_SANDBOX takes auto or off, and says so otherwise") {
    setenv(tl::kSandboxVariable, "sometimes", 1);
    CHECK_THROWS_WITH(tl::sandbox(), Catch::Matchers::ContainsSubstring(
                                         "TORCHLINGS_SANDBOX=sometimes is not a setting") &&
                                         Catch::Matchers::ContainsSubstring("auto") &&
                                         Catch::Matchers::ContainsSubstring("off"));
    unsetenv(tl::kSandboxVariable);
    const tl::Sandbox& level = tl::sandbox();
    CHECK(level.active == (level.description == "bubblewrap"));
    CHECK((level.active || level.description.rfind("none: ", 0) == 0));
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
