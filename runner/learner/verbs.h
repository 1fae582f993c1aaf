/// @file
/// @brief The learner's verbs: list, run, check, progress, watch, reset, solution, hint, test,
/// doctor. Each returns the ExitCode it ended with and throws UsageError or EnvironmentError for
/// the problems main() reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/errors.h"

namespace torchlings::runner {

/// `list`: lessons and their exercises with file, hints and status. With `json`, the same course
/// as one JSON document on stdout (runner/README.md, "list --json"): what scripts read instead of
/// parsing info.md themselves.
ExitCode list_command(Context& context, bool json = false);

/// Options of `run`.
struct RunOptions {
    std::string lesson;                   ///< "01", "1" or "01_availability"
    std::string device = "auto";          ///< passed as --device
    std::vector<std::string> extra_args;  ///< passed after --device
    int processes = 0;                    ///< lessons launched by torchrun: 0 = the lesson's own
};

/// `run NN`: builds lesson_NN quietly, then runs it on the terminal and returns its exit code
/// (as an int: a lesson's own code has no runner meaning).
int run_command(Context& context, const RunOptions& options);

/// Options of `check` and `verify-stub`: what to check.
struct CheckOptions {
    std::vector<std::string> targets;  ///< exercise ids and lesson numbers
    bool all = false;                  ///< every exercise of the course
};

/// `check`: builds each exercise, runs its tests, explains the first failure, records progress.
ExitCode check_command(Context& context, const CheckOptions& options);

/// `progress`: a bar per lesson and for the course, with counts; builds nothing.
ExitCode progress_command(Context& context);

/// Options of `watch`.
struct WatchOptions {
    std::string target;  ///< an exercise id; empty: the first exercise not done
    bool poll = false;   ///< poll the file instead of using file notifications
    double poll_interval_s = 0.25;
};

/// `watch [ID]`: checks the current exercise on each save of its file; keys n (next, once
/// done), h (hint), l (list), c (check again), q (quit). Never advances by itself. Without a
/// terminal it explains the plain commands instead and returns kOk.
ExitCode watch_command(Context& context, const WatchOptions& options);

/// Options of `reset`.
struct ResetOptions {
    std::vector<std::string> targets;  ///< exercise ids and lesson numbers
    bool all = false;                  ///< every exercise
    bool yes = false;                  ///< do not ask for confirmation
};

/// `reset ID|NN`: copies each learner file to a timestamped backup that it names, then
/// restores the pristine stub. Asks first on a terminal unless `yes`.
ExitCode reset_command(Context& context, const ResetOptions& options);

/// Options of `solution`.
struct SolutionOptions {
    std::string id;
    bool force = false;  ///< show it even though the exercise is not done
    bool diff = true;    ///< also show a diff between the learner's file and the solution
};

/// `solution ID`: the reference solution, once the exercise is done (or when forced).
ExitCode solution_command(Context& context, const SolutionOptions& options);

/// `hint ID`: reveals one more hint each call.
/// `again` is how to ask for the next one (default: the command; `watch` says "press h").
ExitCode hint_command(Context& context, std::string_view id, std::string_view again = {});

/// `test`: builds everything, then runs ctest. kBuildError when the build fails, kTestsFailed
/// when a test fails.
ExitCode suite_command(Context& context, const std::vector<std::string>& ctest_args);

/// `doctor`: reports the tools, the GPU, the build configuration, and what to fix.
ExitCode doctor_command(Context& context);

}  // namespace torchlings::runner
