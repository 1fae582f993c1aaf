/// @file
/// @brief The format-neutral description of a checked exercise that every report writes: each
/// case with its status, message and source. Internal to the reports.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/course.h"
#include "core/exercise_run.h"
#include "core/integrity.h"
#include "learner/check.h"

namespace torchlings::runner {

/// A report's verdict; the order is the order of seriousness.
enum class Status { kPass, kFail, kError };

/// One test case that ran (or should have run) as every report describes it.
struct CaseReport {
    std::string name;
    Status status = Status::kPass;
    std::string message;  ///< why it did not pass, in lines; empty for a pass
    std::string summary;  ///< the same in one line (JUnit's message attribute)
    std::string type;     ///< JUnit's type: assertion, todo, exception, crash, timeout, exit, ...
    bool ran = true;      ///< false for a case the program never reached
    bool timed = true;    ///< duration_s is known (the case ended)
    std::string output;   ///< what the program printed, for the case it stopped in
    std::optional<int> task_id;
    double duration_s = 0.0;
    std::string code;  ///< the source of the case, or empty
};

/// A case that skipped itself, and why.
struct SkippedCase {
    std::string name;
    std::string reason;
};

/// One exercise as every report describes it.
struct ExerciseReport {
    const Exercise* exercise = nullptr;
    Status status = Status::kError;
    std::string message;  ///< for an error: what went wrong, in lines
    std::string summary;  ///< the same in one line
    std::string type;     ///< JUnit's type for that error
    bool build_failed = false;
    /// The error belongs to no case: a build error, a run that stopped between cases or ran none.
    bool error_outside_cases = false;
    std::vector<CaseReport> cases;  ///< in the order the program ran or declared them
    std::vector<SkippedCase> skipped;
    std::string output;  ///< the end of the program's output, when the run did not pass
    double seconds = 0.0;
    /// What the learner's file does that no answer needs (core/integrity.h), for the teacher:
    /// each format lists them (flags_json(), or one line each from flag_line()). A refused one
    /// also made the run refused.
    std::vector<IntegrityFlag> flags;
    /// Whether this machine has a GPU, as the test program found it: true when a [gpu] case ran,
    /// false when one skipped itself, unknown when none of its cases is tagged [gpu] or ended.
    std::optional<bool> gpu_found;
};

/// The cases each exercise's tests declare (by id), for the exercises whose test program did not
/// build or reached no case: declared_cases() (core/exercise_run.h), gathered by `check` before
/// it writes the score reports.
using DeclaredCases = std::map<std::string, std::vector<ListedCase>>;

/// The description of one checked exercise.
[[nodiscard]] ExerciseReport describe(const Context& context, const CheckOutcome& outcome);

/// The descriptions of a check's outcomes, in order: what every report is written from, so that
/// writing several formats describes (and reads the test files) once.
[[nodiscard]] std::vector<ExerciseReport> describe_all(const Context& context,
                                                       const std::vector<CheckOutcome>& outcomes);

}  // namespace torchlings::runner
