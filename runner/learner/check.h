/// @file
/// @brief Checking one exercise end to end (build, run, explain, record), shared by `check` and
/// `watch`, and the outcome that the machine-readable reports are made from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/assertion_counts.h"
#include "core/compiler_log.h"
#include "core/context.h"
#include "core/errors.h"
#include "core/exercise_run.h"
#include "core/integrity.h"
#include "core/state.h"

namespace torchlings::runner {

/// Everything a check of one exercise found out.
struct CheckOutcome {
    const Exercise* exercise = nullptr;
    ExitCode code = ExitCode::kOk;                      ///< what this exercise alone exits with
    ExerciseStatus status = ExerciseStatus::kNotTried;  ///< what the progress file records
    BuildResult build;                                  ///< the build of ex_<id>
    std::optional<CompilerError> compile_error;         ///< the error shown, when the build failed
    std::optional<TestProgramRun> run;                  ///< the test run, when the build succeeded
    /// What the learner's file does that no answer needs (scanned after a successful build); a
    /// refused one makes the run kRefused. For the teacher's reports.
    std::vector<IntegrityFlag> flags;
    /// Why the exercise could not be checked at all (its file missing, no test program, ...),
    /// with the command that fixes it; then neither build nor run says anything.
    std::optional<EnvironmentError> problem;
};

/// The reference solution's assertion counts (core/assertion_counts.h), read once for a check of
/// several exercises, or why they could not be read (then each run is flagged
/// "assertions-not-compared", and no check stops).
struct AssertionRecord {
    AssertionCounts counts;
    std::string unreadable;  ///< empty when the record was read (or the course has none)
};
[[nodiscard]] AssertionRecord read_assertion_record(const Context& context);

/// Builds the exercise, runs its tests, explains the outcome on context.out(), and records it
/// (with the hash of the learner's file) in the progress file. Throws EnvironmentError when the
/// learner's file is missing or the build cannot be attempted. `built`: its test program was
/// just built (by one build call for several exercises), so it is not built again.
/// `record`: the assertion counts already read (nullptr: read them here).
[[nodiscard]] CheckOutcome check_exercise(Context& context, const Exercise& exercise,
                                          bool built = false,
                                          const AssertionRecord* record = nullptr);

/// What a check of several exercises found: each one's outcome, and the most serious exit code.
struct CheckRun {
    std::vector<CheckOutcome> outcomes;
    ExitCode code = ExitCode::kOk;
};

/// `check` of the given exercises: one build call for all of them, then check_exercise() for
/// each (an exercise that cannot be checked is recorded with its problem and the rest go on),
/// the next exercise after a single pass, and a summary line after several. `all`: the whole
/// course was asked for (its summary says so when everything passes).
[[nodiscard]] CheckRun check_exercises(Context& context,
                                       const std::vector<const Exercise*>& exercises, bool all);

/// Cases the program declares but never reached because it stopped early.
[[nodiscard]] std::vector<std::string> cases_not_run(const TestProgramRun& run);

/// A failed check for people, in plain lines (sub-lines indented by two spaces): the TODO, the
/// uncaught exception with where it was thrown, or the check with its values; then the INFO
/// messages and the location. `key` is the line to emphasise.
struct FailureText {
    std::vector<std::string> lines;
    std::size_t key = 0;       ///< the TODO's text, the exception's message, or the check
    bool key_is_todo = false;  ///< the key line is a stub's TODO (a warning, not an error)
};
[[nodiscard]] FailureText describe_failure(const Context& context, const std::string& learner_file,
                                           const Failure& failure, Language language);

/// What ended a run that stopped early: a headline (to complete with where it stopped), the
/// explanation, and a one-word type ("crash", "timeout", "exit").
struct StopText {
    std::string headline;
    std::string detail;
    std::string type;
};
/// The StopText of a crashed, timed-out or early-exited run, or of one whose exit status
/// contradicts its report; nothing for any other verdict.
[[nodiscard]] std::optional<StopText> stop_text(const TestProgramRun& run, Language language);
/// Where the run stopped, for Msg::kStopLine: " while running \"case\"", " before any test case
/// started", or nothing (a contradicted or refused run stopped nowhere).
[[nodiscard]] std::string stop_where(const TestProgramRun& run, Language language);

/// "It happened in CHECK( ... ) at file:line." when Catch2 caught the fatal signal in the
/// running case; else empty.
[[nodiscard]] std::string crash_site(const Context& context, const TestCaseResult* running,
                                     Language language);

/// A failed build for people, as plain lines: the error (file:line:col: error: message, or a
/// linker's line), the compiler's lines under it, where the learner's file leads to an error in
/// another file, and the path of the full log (always last).
[[nodiscard]] std::vector<std::string> build_error_lines(const Context& context,
                                                         const CheckOutcome& outcome);

}  // namespace torchlings::runner
