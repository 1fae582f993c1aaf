/// @file
/// @brief Exit codes of the torchlings runner and the exceptions that carry a failure to main().
///
/// Library code never exits: it throws one of these, and only main() turns them into exit codes.
#pragma once

#include <stdexcept>
#include <string>
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
