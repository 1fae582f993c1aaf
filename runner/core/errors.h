/// @file
/// @brief Exit codes of the torchlings runner and the exceptions that carry a failure to main().
///
/// Library code never exits: it throws one of these, and only main() turns them into exit codes.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace torchlings::runner {

/// How a runner command ended. Each value has exactly one meaning; main() returns it.
enum class ExitCode : int {
    kOk = 0,             ///< every checked exercise passes (or the command did what was asked)
    kTestsFailed = 1,    ///< a test failed, crashed or timed out
    kBuildError = 2,     ///< a target did not compile or link
    kEnvironment = 3,    ///< the set-up is incomplete: no build folder, a tool or binary missing
    kAllSkipped = 4,     ///< every test was skipped (for example: it needs a GPU)
    kTestsEdited = 5,    ///< check --verify-tests: the course's tests differ from the manifest
    kUsage = 64,         ///< the command line names something that does not exist
    kInterrupted = 130,  ///< the user pressed Ctrl-C; child processes were stopped
    kInternal = 70,      ///< a bug in the runner itself
};

/// One exit code and what it means, in a few words.
struct ExitCodeMeaning {
    ExitCode code;
    std::string_view brief;
};

/// Every exit code, in the order `--help` lists them: the one list of them. runner/README.md
/// explains each at length; a unit test keeps its table to these codes.
inline constexpr std::array kExitCodeMeanings{
    ExitCodeMeaning{ExitCode::kOk, "all checked exercises pass"},
    ExitCodeMeaning{ExitCode::kTestsFailed, "a test failed, crashed or timed out"},
    ExitCodeMeaning{ExitCode::kBuildError, "build error"},
    ExitCodeMeaning{ExitCode::kEnvironment, "environment problem (set-up, missing tool or binary)"},
    ExitCodeMeaning{ExitCode::kAllSkipped, "every test was skipped (e.g. needs a GPU)"},
    ExitCodeMeaning{ExitCode::kTestsEdited, "tests edited (check --verify-tests)"},
    ExitCodeMeaning{ExitCode::kUsage, "usage error"},
    ExitCodeMeaning{ExitCode::kInternal, "a bug in the runner"},
    ExitCodeMeaning{ExitCode::kInterrupted, "interrupted"},
};

/// "Exit codes: 0 all checked exercises pass, 1 ...", wrapped for `--help`.
[[nodiscard]] std::string exit_codes_help();

/// The command line asks for something that does not exist (exit code 64).
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// The environment is not ready (exit code 3): carries the one command that fixes it, if known.
class EnvironmentError : public std::runtime_error {
  public:
    /// @param what what is wrong, in a full sentence
    /// @param fix  the command (or short instruction) that fixes it; empty when there is none
    explicit EnvironmentError(const std::string& what, std::string fix = {})
        : std::runtime_error(what), fix_(std::move(fix)) {}

    /// The command that fixes the problem, or an empty string.
    [[nodiscard]] const std::string& fix() const noexcept { return fix_; }

  private:
    std::string fix_;
};

/// The user interrupted a child process with Ctrl-C; the child's process group was stopped.
class Interrupted : public std::runtime_error {
  public:
    Interrupted() : std::runtime_error("interrupted") {}
};

/// The more serious of two outcomes, for a command that checks several exercises: interrupted,
/// internal, environment, usage, build error, test failure, success, all-skipped (so that a
/// batch reports "all skipped" only when every exercise in it was all skipped).
[[nodiscard]] ExitCode most_serious(ExitCode a, ExitCode b);

}  // namespace torchlings::runner
