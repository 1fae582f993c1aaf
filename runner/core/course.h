/// @file
/// @brief The course: its lessons (the `lessons/NN_topic/` folders and their README titles), its
/// exercises (each lesson's `exercises/NN_topic/info.md`), their files by the rules of the course's
/// layout (core/layout.h, generated from cmake/TorchlingsLayout.cmake), and resolution of what a
/// learner typed into exercises.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/language.h"
#include "core/layout.h"

namespace torchlings::runner {

/// One numbered lesson: `lessons/<dir>/`, `exercises/<dir>/`, ...
struct Lesson {
    std::string number;  ///< two digits, e.g. "01"
    std::string dir;     ///< folder name, e.g. "01_availability"
    std::string title;   ///< e.g. "Availability checks", from the README's first line
};

/// One exercise. Its files follow from its lesson's folder and its id.
struct Exercise {
    std::string id;       ///< unique across the course, e.g. "choose_device"
    std::string lesson;   ///< the lesson number, e.g. "01"
    std::string title;    ///< one line for people
    std::string summary;  ///< what the learner writes, for the lesson's table; the title if none
    int line = 0;         ///< the line of its `## id: title` heading in the file it was read from
    int timeout_s = layout::kDefaultTimeoutS;  ///< the test program is stopped after this long
    std::vector<std::string> hints;            ///< Markdown, revealed one at a time by `hint`
};

/// The course under a root folder.
class Course {
  public:
    /// Reads every `lessons/NN_topic/README.md` title and every `exercises/NN_topic/info.md`.
    /// Throws EnvironmentError naming the file, the line and what was expected. In Korean, the
    /// titles and hints come from `info.ko.md` and the lesson titles from `README.ko.md` where
    /// a lesson has them (English otherwise); see translate_exercises().
    static Course load(const std::filesystem::path& root, Language language = Language::kEnglish);

    /// The exercises that one lesson's info.md declares; `source` names it in error messages.
    /// Each `## id: title` heading declares an exercise; a `summary: text` line (what the
    /// learner writes, one line, for the lesson README's table) and a `timeout_s: N` line may
    /// follow it; each `### Hint` section below it is one hint.
    static std::vector<Exercise> parse_exercises(std::string_view markdown, const Lesson& lesson,
                                                 std::string_view source);

    /// Gives `exercises`, read from info.md (`reference` names it), the titles and hints of a
    /// translation of it (`translated`, read from `source`). The translation must have the same
    /// structure: the same `## id: ...` headings in the same order, the same number of
    /// `### Hint` sections under each, and the same `timeout_s:` lines; only the
    /// titles, the summaries and the hints' text differ. Throws EnvironmentError naming the file,
    /// the line and the difference otherwise.
    static void translate_exercises(std::vector<Exercise>& exercises, std::string_view translated,
                                    const Lesson& lesson, std::string_view source,
                                    std::string_view reference);

    /// The title in a lesson README's first line, `# Lesson NN — Title`; in Korean (README.ko.md)
    /// `# 강의 NN — Title` or `# Lesson NN — Title`.
    static std::string parse_lesson_title(std::string_view readme, const std::string& number,
                                          std::string_view source,
                                          Language language = Language::kEnglish);

    /// A course from parts; throws EnvironmentError when an id appears twice.
    static Course from_parts(std::filesystem::path root, std::vector<Lesson> lessons,
                             std::vector<Exercise> exercises);

    [[nodiscard]] const std::filesystem::path& root() const { return root_; }
    /// Lessons in file order.
    [[nodiscard]] const std::vector<Lesson>& lessons() const { return lessons_; }
    /// Exercises in file order (the order a learner works through them).
    [[nodiscard]] const std::vector<Exercise>& exercises() const { return exercises_; }

    /// The exercise with this exact id, or nullptr.
    [[nodiscard]] const Exercise* find_exercise(std::string_view id) const;
    /// The lesson named by number ("01", also "1") or folder ("01_availability"), or nullptr.
    [[nodiscard]] const Lesson* find_lesson(std::string_view name) const;
    /// The lesson an exercise belongs to (validated at load time, so it always exists).
    [[nodiscard]] const Lesson& lesson_of(const Exercise& exercise) const;
    /// The exercises of one lesson, in file order.
    [[nodiscard]] std::vector<const Exercise*> exercises_of(const Lesson& lesson) const;

    /// An exercise id or a lesson number, as typed on the command line, turned into exercises.
    /// Throws UsageError listing the valid ids and the closest matches when nothing matches.
    [[nodiscard]] std::vector<const Exercise*> resolve(std::string_view id_or_lesson) const;
    /// An exercise id only; throws UsageError (with suggestions) otherwise.
    [[nodiscard]] const Exercise& resolve_exercise(std::string_view id) const;
    /// A lesson number only; throws UsageError listing the valid numbers otherwise.
    [[nodiscard]] const Lesson& resolve_lesson(std::string_view number) const;

    /// `exercises/<dir>/<id>.cpp`: the file the learner edits.
    [[nodiscard]] std::filesystem::path learner_file(const Exercise& exercise) const;
    /// `solutions/<dir>/<id>.cpp`.
    [[nodiscard]] std::filesystem::path solution_file(const Exercise& exercise) const;
    /// `tests/exercises/<dir>/<id>_test.cpp`.
    [[nodiscard]] std::filesystem::path test_file(const Exercise& exercise) const;

    /// `solutions/<dir>/mistakes/<id>.md`: the exercise's catalogue of mistakes.
    [[nodiscard]] std::filesystem::path mistake_catalogue(const Exercise& exercise) const;

    /// `exercises/<dir>/mistakes/<id>.md`: in a learner copy, the catalogue without its diffs.
    [[nodiscard]] std::filesystem::path mistake_notes(const Exercise& exercise) const;

    /// Every exercise id, grouped by lesson, as text for an error message.
    [[nodiscard]] std::string describe_ids() const;

  private:
    /// The ids of the exercises of `lesson` (of every lesson: nullptr), in file order.
    [[nodiscard]] std::vector<std::string> ids(const Lesson* lesson = nullptr) const;
    /// Throws UsageError: `message`, the names among `names` close to `wanted`, and every id.
    [[noreturn]] void throw_unknown(std::string message, std::string_view wanted,
                                    const std::vector<std::string>& names) const;

    std::filesystem::path root_;
    std::vector<Lesson> lessons_;
    std::vector<Exercise> exercises_;
};

/// A layout pattern (core/layout.h) with its {lesson} (a lesson folder) and {id} filled in,
/// relative to the course root.
[[nodiscard]] std::filesystem::path layout_path(std::string_view pattern, const std::string& lesson,
                                                const std::string& id);

/// Up to `max_results` candidates that look like a typo of `wanted`, closest first.
[[nodiscard]] std::vector<std::string> closest_matches(std::string_view wanted,
                                                       const std::vector<std::string>& candidates,
                                                       std::size_t max_results = 3);

/// The nearest folder, from `start` upward, that holds lessons/ and exercises/. Throws
/// EnvironmentError when there is none.
[[nodiscard]] std::filesystem::path find_course_root(const std::filesystem::path& start);

}  // namespace torchlings::runner
