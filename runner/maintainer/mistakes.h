/// @file
/// @brief The catalogue of mistakes: for each exercise, plausible wrong answers, each a copy of
/// the solution with one mistake at `solutions/NN_topic/mistakes/<id>/<slug>.cpp` (layout.h).
/// CI builds each against its exercise's tests and proves, with `verify-mistake`, that the tests
/// catch it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/course.h"
#include "core/exercise_run.h"

namespace torchlings::runner {

/// One catalogued mistake.
struct Mistake {
    std::string exercise_id;       ///< the exercise it is a wrong answer of
    std::string slug;              ///< its file name without .cpp, e.g. "always_cpu"
    std::string title;             ///< the header's first line, after "// Mistake: "
    std::vector<std::string> why;  ///< the header's other `//` lines, without "// "
    bool gpu_only = false;         ///< the header has the line layout::kMistakeGpuOnly
    std::filesystem::path file;    ///< where it is
};

/// Reads a mistake's header: its leading `//` lines, the first of which is
/// layout::kMistakeTitle followed by the title. `source` names the file in errors. Throws
/// EnvironmentError when the first line is not such a title.
[[nodiscard]] Mistake parse_mistake(std::string_view text, std::string exercise_id,
                                    std::string slug, std::string_view source);

/// The mistakes catalogued for one exercise, by slug. Throws EnvironmentError for a file
/// without a valid header or a slug that is not [a-z0-9_]+.
[[nodiscard]] std::vector<Mistake> find_mistakes(const Course& course, const Exercise& exercise);

/// The program CMake builds from a mistake and its exercise's tests: `ex_<id>_mistake_<slug>`.
[[nodiscard]] std::string mistake_program(const Mistake& mistake);

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
