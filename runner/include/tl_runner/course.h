/// @file
/// @brief The course metadata (exercises/info.json): lessons, exercises, their files by
/// convention, and resolution of what a learner typed into exercises.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace torchlings::runner {

/// One numbered lesson: `lessons/<dir>/`, `exercises/<dir>/`, ...
struct Lesson {
    std::string number;  ///< two digits, e.g. "01"
    std::string dir;     ///< folder name, e.g. "01_availability"
    std::string title;   ///< e.g. "Availability checks"
};

/// One exercise. Its files follow from its lesson's folder and its id.
struct Exercise {
    std::string id;                        ///< unique across the course, e.g. "choose_device"
    std::string lesson;                    ///< the lesson number, e.g. "01"
    std::string title;                     ///< one line for people
    int timeout_s = 30;                    ///< the test program is stopped after this long
    std::vector<std::string> given_tests;  ///< cases that an untouched stub may pass
    std::vector<std::string> hints;        ///< revealed one at a time by `hint`
};

/// The default time limit of an exercise's test program, in seconds.
inline constexpr int kDefaultTimeoutS = 30;

/// The course: what exercises/info.json under a root folder describes.
class Course {
  public:
    /// Reads `<root>/exercises/info.json`. Throws EnvironmentError naming the file and what was
    /// expected when it is missing, is not JSON, or lacks a required key.
    static Course load(const std::filesystem::path& root);

    /// Parses metadata text; `source` names it in error messages (e.g. "exercises/info.json").
    static Course parse(std::string_view json_text, const std::filesystem::path& root,
                        std::string_view source);

    /// The course folder.
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

    /// Every exercise id, grouped by lesson, as text for an error message.
    [[nodiscard]] std::string describe_ids() const;

  private:
    std::filesystem::path root_;
    std::vector<Lesson> lessons_;
    std::vector<Exercise> exercises_;
};

/// Up to `max_results` candidates that look like a typo of `wanted`, closest first.
[[nodiscard]] std::vector<std::string> closest_matches(std::string_view wanted,
                                                       const std::vector<std::string>& candidates,
                                                       std::size_t max_results = 3);

/// The nearest folder, from `start` upward, that holds exercises/info.json. Throws
/// EnvironmentError when there is none.
[[nodiscard]] std::filesystem::path find_course_root(const std::filesystem::path& start);

}  // namespace torchlings::runner
