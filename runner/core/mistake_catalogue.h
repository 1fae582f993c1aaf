/// @file
/// @brief The catalogue of mistakes as the runner reads it: one Markdown file per exercise
/// (layout.h's kMistakeFile; in a learner copy, kMistakeNotes, the same without the diffs), each
/// mistake a section `## <slug>: <title>` with the why, an optional kMistakeGpuOnly line, its
/// signature (kMistakeCaughtBy lines) and a ```diff block. The one C++ reader of the format; CMake
/// applies the diffs (cmake/TorchlingsMistakes.cmake), the runner never does.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace torchlings::runner {

/// How a test case failed, as a mistake's signature records it.
enum class CaseFailure {
    kAssertion,  ///< a CHECK/REQUIRE that did not hold
    kException,  ///< an unexpected exception ended the case
    kCrash,      ///< the program died in the case
    kTimeout,    ///< the program was stopped at the time limit in the case
};

/// "assertion", "exception", "crash" or "timeout".
[[nodiscard]] std::string_view case_failure_name(CaseFailure failure);

/// One failed case of a signature.
struct FailedCase {
    std::string name;  ///< the case's name, as declared in TEST_CASE
    CaseFailure failure = CaseFailure::kAssertion;
    friend bool operator==(const FailedCase&, const FailedCase&) = default;
};

/// A signature: the cases that fail and how, sorted by name so that two compare equal whatever
/// order the cases ran in.
using Signature = std::vector<FailedCase>;

/// The signature sorted by case name (and failure), as signatures are compared and written.
[[nodiscard]] Signature sorted_signature(Signature signature);

/// One catalogued mistake.
struct Mistake {
    std::string exercise_id;       ///< the exercise it is a wrong answer of
    std::string slug;              ///< [a-z0-9_]+, e.g. "always_cpu"
    std::string title;             ///< the heading after "<slug>: "
    std::vector<std::string> why;  ///< its paragraphs, each on one line
    bool gpu_only = false;         ///< it has a kMistakeGpuOnly line
    std::string gpu_reason;        ///< that line's text after the prefix
    Signature caught_by;           ///< the recorded signature, sorted; empty when none is
    int line = 0;                  ///< the line of its heading in the file (1-based)
    std::vector<int> caught_by_lines;  ///< the lines of its kMistakeCaughtBy lines
    std::filesystem::path file;        ///< the catalogue it was read from
};

/// Reads a catalogue. `source` names it in errors (EnvironmentError, "<source>:<line>: ..."): a
/// heading that is not `## <slug>: <title>`, a slug used twice, a signature line that does not
/// parse. The diff blocks are skipped (configure checks them).
[[nodiscard]] std::vector<Mistake> parse_mistake_catalogue(std::string_view text,
                                                           const std::string& exercise_id,
                                                           std::string_view source);

/// The signature in a kMistakeCaughtBy line's text (after the prefix): entries
/// `"<case name>" (<failure>)` separated by `; `; in a name, `\"` is a quote and `\\` a backslash.
/// Throws EnvironmentError naming `source` and `line` when it does not parse.
[[nodiscard]] Signature parse_signature(std::string_view text, std::string_view source, int line);

/// The kMistakeCaughtBy lines that record `signature` (sorted first): one line when it fits in
/// 100 columns, else one line per case; each ends with "\n".
[[nodiscard]] std::string format_signature(const Signature& signature);

/// The catalogue without its ```diff blocks (and the blank line before each): what a learner copy
/// carries, since the diffs would show the solution.
[[nodiscard]] std::string without_diffs(std::string_view text);

}  // namespace torchlings::runner
