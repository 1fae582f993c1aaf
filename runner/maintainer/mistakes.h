/// @file
/// @brief The catalogue of mistakes: for each exercise, plausible wrong answers, each one change
/// to the solution, in `solutions/NN_topic/mistakes/<id>.md` (layout.h; the format is
/// mistake_catalogue.h's). CI builds each against its exercise's tests and proves, with
/// `verify-mistake`, that the tests catch it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/course.h"
#include "core/exercise_run.h"
#include "core/mistake_catalogue.h"

namespace torchlings::runner {

/// How the tests received a mistake.
enum class MistakeOutcome {
    kCaught,   ///< a case failed by assertion or exception, as the mistake's header says
    kSkipped,  ///< a GPU-only mistake, and the [gpu] cases were skipped here (no GPU)
    kProblem,  ///< the tests missed it, or failed in a way that proves nothing
};

/// The judgement of one run of a mistake's test program.
struct MistakeVerdict {
    MistakeOutcome outcome = MistakeOutcome::kProblem;
    std::vector<std::string> caught_by;  ///< the cases that failed by assertion or exception
    std::vector<std::string> problems;   ///< one sentence each, when kProblem
};

/// Judges a run like `verify-stub` judges a stub's: it must end normally, and its failed cases
/// must fail by assertion or exception. A mistake must fail at least one case that is not
/// tagged [gpu]; a GPU-only one must fail a [gpu] case and no other, and counts as skipped
/// when no [gpu] case ran.
[[nodiscard]] MistakeVerdict judge_mistake(const Mistake& mistake, const TestProgramRun& run);

}  // namespace torchlings::runner
