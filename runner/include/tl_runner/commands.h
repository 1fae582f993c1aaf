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
};

/// `run NN`: builds lesson_NN quietly, then runs it on the terminal and returns its exit code
/// (as an int: a lesson's own code has no runner meaning).
int run_command(Context& context, const RunOptions& options);

/// Options of `check` and `verify-stub`.
struct CheckOptions {
    std::vector<std::string> targets;  ///< exercise ids and lesson numbers
    bool all = false;                  ///< every exercise of the course
};

/// `check`: builds each exercise, runs its tests, explains the first failure, records progress.
ExitCode check_command(Context& context, const CheckOptions& options);

/// `verify-stub` (CI): the untouched stub's already-built test program must fail every case
/// but the given ones, by assertion or exception. kOk when it does, kTestsFailed otherwise.
ExitCode verify_stub_command(Context& context, const CheckOptions& options);

/// `hint ID`: reveals one more hint each call.
ExitCode hint_command(Context& context, std::string_view id);

/// `test`: builds everything, then runs ctest. kBuildError when the build fails, kTestsFailed
/// when a test fails.
ExitCode test_command(Context& context, const std::vector<std::string>& ctest_args);

/// `doctor`: reports the tools, the GPU, the build configuration, and what to fix.
ExitCode doctor_command(Context& context);

}  // namespace torchlings::runner
