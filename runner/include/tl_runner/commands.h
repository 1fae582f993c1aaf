/// @file
/// @brief The runner's verbs. Each returns the ExitCode it ended with and throws UsageError or
/// EnvironmentError for the problems main() reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tl_runner/context.h"
#include "tl_runner/errors.h"

namespace torchlings::runner {

/// `list`: lessons and their exercises with file, hints and status.
ExitCode list_command(Context& context);

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

/// Options of `check` and `verify-stub`.
struct CheckOptions {
    std::vector<std::string> targets;  ///< exercise ids and lesson numbers
    bool all = false;                  ///< every exercise of the course
    bool json = false;                 ///< print check_json() on stdout, the text on stderr
    std::string junit_file;            ///< write junit_report() here when not empty
    std::string classroom_file;        ///< write classroom_report() here when not empty
    bool verify_tests = false;  ///< refuse (kTestsEdited) when tests differ from the manifest
};

/// `check`: builds each exercise, runs its tests, explains the first failure, records progress.
ExitCode check_command(Context& context, const CheckOptions& options);

/// `verify-stub` (CI): the untouched stub's already-built test program must fail every case
/// but the given ones, by assertion or exception. kOk when it does, kTestsFailed otherwise.
ExitCode verify_stub_command(Context& context, const CheckOptions& options);

/// `verify-mistake ID SLUG` (CI): the already-built test program of one catalogued mistake,
/// `ex_<id>_mistake_<slug>`, must fail by assertion or exception (see judge_mistake()). kOk when
/// it does, or when only a [gpu] case can catch it and none ran here (then the output says
/// "TL_SKIP:", which CTest reports as skipped); kTestsFailed otherwise.
ExitCode verify_mistake_command(Context& context, const std::string& id, const std::string& slug);

/// `mistakes` (maintainers): the catalogue of mistakes by lesson and exercise, with its counts
/// (catalogued, caught on the CPU, only with a GPU) and the exercises that have none.
ExitCode mistakes_command(Context& context);

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

/// Options of `export`.
struct ExportOptions {
    std::string learner_dir;  ///< where the learner copy goes; must not exist or be empty
};

/// `export --learner DIR`: the course without solutions/, as a template repository for a
/// class, with a manifest of the hashes of every file but the learners' that
/// `check --verify-tests` compares against.
ExitCode export_command(Context& context, const ExportOptions& options);

/// `pristine [--write]` (maintainers, CI): exercises/pristine.json lists the git blob id of every
/// stub, which `reset` restores from; verifies that it is current, or rewrites it.
ExitCode pristine_command(Context& context, bool write);

/// `hint ID`: reveals one more hint each call.
/// `again` is how to ask for the next one (default: the command; `watch` says "press h").
ExitCode hint_command(Context& context, std::string_view id, std::string_view again = {});

/// `test`: builds everything, then runs ctest. kBuildError when the build fails, kTestsFailed
/// when a test fails.
ExitCode test_command(Context& context, const std::vector<std::string>& ctest_args);

/// `doctor`: reports the tools, the GPU, the build configuration, and what to fix.
ExitCode doctor_command(Context& context);

}  // namespace torchlings::runner
