/// @file
/// @brief `dev index`: what the build and the lesson texts take from the course's Markdown formats,
/// written by their one reader (the runner's parsers) into committed files, so that nothing else
/// parses them. Configure reads layout.h's kExerciseIndex (each lesson's exercises and time limits)
/// and kMistakeIndex (each catalogued mistake's hunks); each lesson README's exercise table is
/// written from its info.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/course.h"

namespace torchlings::runner {

/// One file that `dev index` writes, with the content it must have.
struct GeneratedFile {
    std::filesystem::path path;  ///< under the course root
    std::string content;
};

/// The headings of the sections that hold a lesson's exercise table, in each language.
inline constexpr std::string_view kExercisesHeading = "## Exercises";
inline constexpr std::string_view kExercisesHeadingKorean = "## 연습 문제";

/// kExerciseIndex for `course`: per lesson folder with an info.md, the file's SHA-256 and its
/// exercises in order, each with its id and timeout_s.
[[nodiscard]] std::string exercise_index_json(const Course& course);

/// kMistakeIndex for `course`: per lesson folder and exercise with a catalogue, the catalogue's
/// SHA-256 and its mistakes in order, each with its slug, the line of its heading and its hunks
/// (core/mistake_catalogue.h's Hunk: line, old, new, from). Throws EnvironmentError for a
/// catalogue that does not parse or whose diffs are incomplete (check_mistake_diffs()).
[[nodiscard]] std::string mistake_index_json(const Course& course);

/// The Markdown table of `exercises`, in English or Korean (its header and the comment line above
/// it that names `source`, the info.md it is written from): `| id | title | check command |`.
[[nodiscard]] std::string exercise_table(const std::vector<const Exercise*>& exercises,
                                         std::string_view source, Language language);

/// `readme` with the table of the section under `heading` (its first run of lines that start
/// with `|`, and the comment line above it) replaced by `table`, or `table` put right after the
/// heading when the section has none; nothing when the README has no such section.
[[nodiscard]] std::optional<std::string> with_exercise_table(std::string_view readme,
                                                             std::string_view heading,
                                                             std::string_view table);

/// Every file `dev index` writes for the course under `root`, with its content: kExerciseIndex,
/// kMistakeIndex (only where the course has solutions/), and each lesson README (English and
/// Korean) that has an exercise section. Throws EnvironmentError where a Markdown file does not
/// parse.
[[nodiscard]] std::vector<GeneratedFile> course_index(const std::filesystem::path& root);

/// The files among `files` whose content on disk differs (or that are missing).
[[nodiscard]] std::vector<GeneratedFile> stale_files(std::vector<GeneratedFile> files);

}  // namespace torchlings::runner
