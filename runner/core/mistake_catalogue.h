/// @file
/// @brief The catalogue of mistakes as the runner reads it: one Markdown file per exercise
/// (layout.h's kMistakeFile; in a learner copy, kMistakeNotes, the same without the diffs), each
/// mistake a section `## <slug>: <title>` with the why, an optional kMistakeGpuOnly line, its
/// signature (kMistakeCaughtBy lines) and a ```diff block. The one reader of the format: `dev
/// index` writes the hunks it reads into layout.h's kMistakeIndex, from which configure applies
/// them (cmake/TorchlingsMistakes.cmake); the runner never applies them itself.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/course.h"
#include "core/exercise_run.h"

namespace torchlings::runner {

/// How a test case failed, as a mistake's signature records it.
enum class CaseFailure {
    kAssertion,  ///< a CHECK/REQUIRE that did not hold
    kException,  ///< an unexpected exception ended the case
    kCrash,      ///< the program died in the case
    kTimeout,    ///< the program was stopped at the time limit in the case
};

/// One failed case of a signature.
struct FailedCase {
    std::string name;  ///< the case's name, as declared in TEST_CASE
    CaseFailure failure = CaseFailure::kAssertion;
    /// `(<how>, sometimes)`: the case fails so only in some runs (a race between threads), and
    /// passes in others; a signature matches with or without it.
    bool sometimes = false;
    friend bool operator==(const FailedCase&, const FailedCase&) = default;
};

/// A signature: the cases that fail and how, sorted by name so that two compare equal whatever
/// order the cases ran in.
using Signature = std::vector<FailedCase>;

/// The signature sorted by case name (and failure), as signatures are compared and written.
[[nodiscard]] Signature sorted_signature(Signature signature);

/// One hunk of a mistake's ```diff block. In the block a line starting with ' ' is context (an
/// empty line is an empty context line), '-' a line removed, '+' a line added; a line `@@`
/// separates two hunks.
struct Hunk {
    int line = 0;          ///< the .md line of its first line
    std::string old_text;  ///< its ' ' and '-' lines, each with "\n": what the solution holds
    std::string new_text;  ///< its ' ' and '+' lines, each with "\n": what the mistake holds
    /// Where each line of new_text comes from, for the `#line` directives of the mistake's
    /// source: "s<k>", the k-th line (from 0) of old_text; "m<n>", line n of the .md.
    std::vector<std::string> origins;
    friend bool operator==(const Hunk&, const Hunk&) = default;
};

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
    int caught_by_line = 0;        ///< the line of its kMistakeCaughtBy line; 0 when it has none
    int diff_line = 0;             ///< the line of its ```diff line; 0 when it has none
    std::vector<Hunk> hunks;       ///< its diff block's hunks, in file order
    std::filesystem::path file;    ///< the catalogue it was read from
};

/// Reads a catalogue. `source` names it in errors (EnvironmentError, "<source>:<line>: ..."): a
/// heading that is not `## <slug>: <title>`, a slug used twice, a signature line that does not
/// parse, a second signature line, a diff block before the first heading or a mistake's second
/// one, a diff line that is not ' ', '-', '+' or `@@`, an empty hunk, a diff block not closed. A
/// bare `caught by:` is a signature not recorded yet. A learner's notes (kMistakeNotes) have no
/// diff blocks; check_mistake_diffs() says whether a catalogue's are complete.
[[nodiscard]] std::vector<Mistake> parse_mistake_catalogue(std::string_view text,
                                                           const std::string& exercise_id,
                                                           std::string_view source);

/// Throws EnvironmentError naming `source`, the line and the mistake for the first mistake of a
/// catalogue whose diff cannot be applied to `solution` (a name for messages) whatever it holds:
/// one without a diff block, a hunk without old text (a hunk that only adds lines needs a context
/// line to say where they go), a diff that adds or removes no line. Whether each hunk's old text
/// occurs exactly once in the solution is configure's check (cmake/TorchlingsMistakes.cmake),
/// since the solution can change after the index was written.
void check_mistake_diffs(const std::vector<Mistake>& mistakes, std::string_view source,
                         std::string_view solution);

/// The signature in a kMistakeCaughtBy line's text (after the prefix): entries
/// `"<case name>" (<failure>)` or `"<case name>" (<failure>, sometimes)` separated by `; `; in a
/// name, `\"` is a quote and `\\` a backslash. Throws EnvironmentError naming `source` and `line`
/// when it does not parse.
[[nodiscard]] Signature parse_signature(std::string_view text, std::string_view source, int line);

/// Whether a run's failed cases (`observed`, none marked sometimes) are those `recorded`: every
/// entry that is not marked sometimes, failing the same way, and no case beyond the recorded ones.
[[nodiscard]] bool signature_matches(const Signature& recorded, const Signature& observed);

/// What --record writes: `observed`, with the marks `sometimes` of `recorded` kept, and the
/// recorded entries marked sometimes that did not fail this time kept too.
[[nodiscard]] Signature signature_to_record(const Signature& recorded, const Signature& observed);

/// The kMistakeCaughtBy line that records `signature` (sorted first), without a newline; a bare
/// `caught by:` for an empty one. One line, however long: recording a signature then replaces a
/// line by a line, and the `#line` numbers of the mistakes' sources stay as they are.
[[nodiscard]] std::string format_signature(const Signature& signature);

/// The catalogue without its ```diff blocks (and the blank line before each): what a learner copy
/// carries, since the diffs would show the solution.
[[nodiscard]] std::string without_diffs(std::string_view text);

/// The mistakes catalogued for one exercise, in file order: its catalogue (layout.h's
/// kMistakeFile), else, in a learner copy, the notes that `export --learner` wrote in its place
/// (kMistakeNotes); none when neither exists. Throws EnvironmentError for a catalogue that does not
/// parse (parse_mistake_catalogue()).
[[nodiscard]] std::vector<Mistake> find_mistakes(const Course& course, const Exercise& exercise);

/// A run's failed (and unfinished) cases, those tagged [gpu] apart: a mistake's signature is the
/// part that runs everywhere, or, for a GPU-only mistake, the [gpu] part.
struct RunSignature {
    Signature anywhere;  ///< the cases not tagged [gpu], sorted
    Signature gpu;       ///< the [gpu] cases, sorted
};

[[nodiscard]] RunSignature run_signature(const TestProgramRun& run);

/// The part of a run's signature that `mistake` records: the [gpu] part for a GPU-only mistake,
/// the rest otherwise.
[[nodiscard]] Signature observed_signature(const Mistake& mistake, const RunSignature& signature);

/// The catalogued mistakes whose recorded signature is the run's, in file order: the same failed
/// cases, failing the same way (a GPU-only mistake: the same [gpu] cases, and no other). Two
/// mistakes can share a signature; mistakes without a recorded one never match.
[[nodiscard]] std::vector<const Mistake*> matching_mistakes(const std::vector<Mistake>& mistakes,
                                                            const TestProgramRun& run);

/// The catalogue `text` with the signature line of `mistake` (read from it) replaced by `line`,
/// or, when it has none, `line` inserted before the mistake's diff block (or at its end).
[[nodiscard]] std::string with_signature_line(std::string_view text, const Mistake& mistake,
                                              const std::string& line);

}  // namespace torchlings::runner
