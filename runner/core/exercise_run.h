/// @file
/// @brief The two steps of checking an exercise, shared by `check` and `verify-stub`: building
/// its target with CMake, and running its test program under a time limit with the
/// `torchlings` reporter.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/events.h"
#include "core/process.h"

namespace torchlings::runner {

/// The result of `cmake --build <build> --target <target>`.
struct BuildResult {
    bool ok = false;
    std::string log;                 ///< everything the build printed
    std::filesystem::path log_path;  ///< where the log was saved: <build>/logs/<target>.build.log
    double seconds = 0.0;
    bool log_saved = true;  ///< false when log_path could not be written
};

/// Builds one target, showing "  building <target> ... ok (1.2 s)" (or "failed") on one line,
/// and saves the full output to `<build>/logs/<target>.build.log`. Throws EnvironmentError when
/// cmake is missing, the build folder is not configured, the target does not exist (a stale
/// configure), or CMake fails to re-configure: then nothing was compiled, and the learner's
/// code is not the cause.
[[nodiscard]] BuildResult build_target(Context& context, std::string_view target);

/// Builds several targets in one build call, so that the build tool runs their steps in
/// parallel, and goes on past a target that fails (Ninja's -k 0, Make's -k) so that every other
/// one is built. Shows "  building <label> ... ok (9.8 s)" like build_target, and saves the log
/// to `<build>/logs/all.build.log`. Throws like build_target.
[[nodiscard]] BuildResult build_targets(Context& context, const std::vector<std::string>& targets,
                                        std::string_view label);

/// A test case as its test program lists it (`--list-cases-for-ctest`).
struct ListedCase {
    std::string name;
    bool gpu = false;  ///< tagged [gpu]
};

/// The cases an exercise's tests declare, in order, known without the learner's file: its
/// listing program ex_<id>_cases (cmake/TorchlingsExercises.cmake: the tests' objects and the
/// course's Catch2 main, the learner's symbols left unresolved) built and run with
/// --list-cases-for-ctest. For the reports of a learner's file that does not compile, whose
/// cases still count (each scores 0). Empty when it cannot be built or run.
[[nodiscard]] std::vector<ListedCase> declared_cases(Context& context, const Exercise& exercise);

/// The exercises named on a command line (ids and lesson numbers, in the order given, each
/// once), or every exercise when `all`. Throws UsageError, naming `verb`, when nothing is named.
[[nodiscard]] std::vector<const Exercise*> select_exercises(const Course& course,
                                                            const std::vector<std::string>& targets,
                                                            bool all, std::string_view verb);

/// What happened when a test program ran, in one word.
enum class Verdict {
    kPassed,       ///< every case passed (some may have been skipped)
    kFailed,       ///< at least one case failed
    kAllSkipped,   ///< every case was skipped
    kCrashed,      ///< the program died from a signal
    kTimedOut,     ///< the runner stopped it at the time limit
    kExitedEarly,  ///< the program exited in the middle of the run (exit() in a test)
    kNoTests,      ///< the program ran no test case
    kNoReport,     ///< the program printed no events (not a torchlings test program?)
    /// The report says every case passed (or was skipped) but the program's exit status is not 0:
    /// something changed the outcome after the tests (an exit handler, a global's destructor).
    /// Never a pass: the events and the exit status must agree.
    kContradicted,
    /// The program ended by itself before any test started, and ends so even when only asked to
    /// list its tests: code that runs before main() (a global's initializer) ended it.
    kExitedBeforeTests,
    /// Refused: the report holds lines that the reporter did not write (no valid MAC under the
    /// run's key, or out of sequence), or counts that its own case events contradict; or the
    /// learner's file does what no answer may (integrity.h). Never a pass, and no score.
    kRefused,
};

/// The outcome of one run of an exercise's test program.
struct TestProgramRun {
    ProcessResult process;                 ///< how the program ended, and what it printed
    TestRun events;                        ///< what its reporter wrote
    Verdict verdict = Verdict::kNoReport;  ///< the two above, in one word
    int timeout_s = 0;                     ///< the time limit it ran under
    /// Every case name, listed only when the run stopped early (crash, timeout), so that the
    /// summary can count the cases that never ran.
    std::vector<std::string> all_cases;
    /// Why the run was refused (kRefused), in one sentence.
    std::string refusal;
};

/// Why a report is refused, in one sentence; empty when it is not.
[[nodiscard]] std::string forgery_reason(const TestRun& events);

/// Classifies a run from how the process ended and what it reported.
[[nodiscard]] Verdict classify(const ProcessResult& process, const TestRun& events);

/// Runs `<build>/bin/ex_<id> --reporter torchlings` (or the test program `program`, another
/// build of the exercise's tests, such as a mistake's) in the course root under the exercise's
/// time limit, reading its events from a pipe of its own (so concurrent runs never mix). Throws
/// EnvironmentError when the program does not exist.
[[nodiscard]] TestProgramRun run_test_program(Context& context, const Exercise& exercise,
                                              std::string_view program = {});

/// What is wrong with a run as a whole when it did not end by reporting its cases (a crash, a
/// timeout, an early exit, no report, no cases), one sentence about `subject` ("the stub");
/// empty when the run ended normally.
[[nodiscard]] std::string run_problem(const TestProgramRun& run, std::string_view subject);

/// Why a failed case does not count as failing by assertion or exception (it crashed, or it
/// failed without any failure reported), one sentence; empty when it does.
[[nodiscard]] std::string failed_case_problem(const TestCaseResult& result,
                                              std::string_view subject);

}  // namespace torchlings::runner
