/// @file
/// @brief Checking one exercise end to end (build, run, explain, record), shared by `check` and
/// `watch`, and the outcome that the machine-readable reports are made from.
#pragma once

#include <optional>

#include "tl_runner/compiler_log.h"
#include "tl_runner/context.h"
#include "tl_runner/errors.h"
#include "tl_runner/exercise_run.h"
#include "tl_runner/state.h"

namespace torchlings::runner {

/// Everything a check of one exercise found out.
struct CheckOutcome {
    const Exercise* exercise = nullptr;
    ExitCode code = ExitCode::kOk;                       ///< what this exercise alone exits with
    ExerciseStatus status = ExerciseStatus::kNotTried;   ///< what the progress file records
    BuildResult build;                                   ///< the build of ex_<id>
    std::optional<CompilerError> compile_error;          ///< the error shown, when the build failed
    std::optional<TestProgramRun> run;                   ///< the test run, when the build succeeded
};

/// Builds the exercise, runs its tests, explains the outcome on context.out(), and records it
/// (with the hash of the learner's file) in the progress file. Throws EnvironmentError when the
/// learner's file is missing or the build cannot be attempted.
[[nodiscard]] CheckOutcome check_exercise(Context& context, const Exercise& exercise);

/// After a pass: prints the command for the exercise that comes next in the course.
void suggest_next(Context& context, const Exercise& passed);

}  // namespace torchlings::runner
