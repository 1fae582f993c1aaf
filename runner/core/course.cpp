/// @file
/// @brief Loading the course (lesson titles, each lesson's exercises/NN_topic/info.md), and
/// resolving names to exercises.
#include "core/course.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <system_error>
#include <utility>

#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {
/// "007" and "7" name the same lesson.
std::string_view without_leading_zeros(std::string_view digits) {
    while (digits.size() > 1 && digits.front() == '0') {
        digits.remove_prefix(1);
    }
    return digits;
}

}  // namespace

void Course::throw_unknown(std::string message, std::string_view wanted,
                           const std::vector<std::string>& names) const {
    const std::vector<std::string> close = closest_matches(wanted, names);
    if (!close.empty()) {
        message += "Did you mean: " + join(close, ", ") + "?\n";
    }
    throw UsageError(message + describe_ids());
}

fs::path layout_path(std::string_view pattern, const std::string& lesson, const std::string& id) {
    std::string path(pattern);
    for (const auto& [key, value] :
         {std::pair<std::string_view, const std::string&>{"{lesson}", lesson},
          std::pair<std::string_view, const std::string&>{"{id}", id}}) {
        for (std::size_t at = path.find(key); at != std::string::npos; at = path.find(key)) {
            path.replace(at, key.size(), value);
        }
    }
    return path;
}

Course Course::from_parts(fs::path root, std::vector<Lesson> lessons,
                          std::vector<Exercise> exercises) {
    std::set<std::string> ids;
    for (const Exercise& exercise : exercises) {
        if (!ids.insert(exercise.id).second) {
            throw EnvironmentError("exercise id \"" + exercise.id +
                                   "\" is declared twice; ids must be unique in the course");
        }
    }
    Course course;
    course.root_ = std::move(root);
    course.lessons_ = std::move(lessons);
    course.exercises_ = std::move(exercises);
    return course;
}

Course Course::load(const fs::path& root, Language language) {
    std::error_code error;
    std::vector<std::string> folders;
    if (fs::is_directory(root / "lessons", error)) {
        for (const fs::directory_entry& entry : fs::directory_iterator(root / "lessons", error)) {
            const std::string name = entry.path().filename().string();
            if (entry.is_directory() && name.size() > 3 && all_digits(name.substr(0, 2)) &&
                name[2] == '_') {
                folders.push_back(name);
            }
        }
    }
    if (folders.empty()) {
        throw EnvironmentError("the course under " + root.string() +
                               " has no lessons: expected lessons/NN_topic/ folders");
    }
    std::sort(folders.begin(), folders.end());
    std::vector<Lesson> lessons;
    std::vector<Exercise> exercises;
    for (const std::string& folder : folders) {
        Lesson lesson{folder.substr(0, 2), folder, ""};
        if (!lessons.empty() && lessons.back().number == lesson.number) {
            throw EnvironmentError("lessons/" + lessons.back().dir + " and lessons/" + folder +
                                   " have the same number; each lesson needs its own");
        }
        const fs::path readme = layout_path(layout::kLessonText, folder, "");
        if (!fs::is_regular_file(root / readme, error)) {
            throw EnvironmentError("the lesson text " + readme.generic_string() +
                                   " does not exist; every lessons/NN_topic/ folder has one");
        }
        lesson.title =
            parse_lesson_title(read_file(root / readme), lesson.number, readme.generic_string());
        const bool korean = language == Language::kKorean;
        const fs::path readme_ko = layout_path(layout::kLessonTextKorean, folder, "");
        if (korean && fs::is_regular_file(root / readme_ko, error)) {
            lesson.title = parse_lesson_title(read_file(root / readme_ko), lesson.number,
                                              readme_ko.generic_string(), language);
        }
        const fs::path info = layout_path(layout::kExerciseInfo, folder, "");
        if (fs::is_regular_file(root / info, error)) {
            std::vector<Exercise> declared =
                parse_exercises(read_file(root / info), lesson, info.generic_string());
            const fs::path info_ko = layout_path(layout::kExerciseInfoKorean, folder, "");
            if (korean && fs::is_regular_file(root / info_ko, error)) {
                translate_exercises(declared, read_file(root / info_ko), lesson,
                                    info_ko.generic_string(), info.generic_string());
            }
            std::move(declared.begin(), declared.end(), std::back_inserter(exercises));
        }
        lessons.push_back(std::move(lesson));
    }
    return from_parts(root, std::move(lessons), std::move(exercises));
}

const Exercise* Course::find_exercise(std::string_view id) const {
    const auto found = std::ranges::find(exercises_, id, &Exercise::id);
    return found == exercises_.end() ? nullptr : &*found;
}

const Lesson* Course::find_lesson(std::string_view name) const {
    for (const Lesson& lesson : lessons_) {
        if (lesson.number == name || lesson.dir == name ||
            (all_digits(name) &&
             without_leading_zeros(name) == without_leading_zeros(lesson.number))) {
            return &lesson;
        }
    }
    return nullptr;
}

const Lesson& Course::lesson_of(const Exercise& exercise) const {
    const Lesson* lesson = find_lesson(exercise.lesson);
    if (lesson == nullptr) {
        throw std::logic_error("exercise without a lesson: " + exercise.id);
    }
    return *lesson;
}

std::vector<std::string> Course::ids(const Lesson* lesson) const {
    std::vector<std::string> ids;
    for (const Exercise& exercise : exercises_) {
        if (lesson == nullptr || exercise.lesson == lesson->number) {
            ids.push_back(exercise.id);
        }
    }
    return ids;
}

std::vector<const Exercise*> Course::exercises_of(const Lesson& lesson) const {
    std::vector<const Exercise*> found;
    for (const Exercise& exercise : exercises_) {
        if (exercise.lesson == lesson.number) {
            found.push_back(&exercise);
        }
    }
    return found;
}

std::vector<const Exercise*> Course::resolve(std::string_view id_or_lesson) const {
    if (const Exercise* exercise = find_exercise(id_or_lesson)) {
        return {exercise};
    }
    if (const Lesson* lesson = find_lesson(id_or_lesson)) {
        std::vector<const Exercise*> found = exercises_of(*lesson);
        if (found.empty()) {
            throw UsageError("Lesson " + lesson->number + " has no exercises.\n" + describe_ids());
        }
        return found;
    }
    std::vector<std::string> names = ids();
    std::ranges::transform(lessons_, std::back_inserter(names), &Lesson::number);
    throw_unknown("There is no exercise or lesson called \"" + std::string(id_or_lesson) + "\".\n",
                  id_or_lesson, names);
}

const Exercise& Course::resolve_exercise(std::string_view id) const {
    if (const Exercise* exercise = find_exercise(id)) {
        return *exercise;
    }
    throw_unknown(
        find_lesson(id) != nullptr
            ? "\"" + std::string(id) + "\" is a lesson; this command takes one exercise id.\n"
            : "There is no exercise called \"" + std::string(id) + "\".\n",
        id, ids());
}

const Lesson& Course::resolve_lesson(std::string_view number) const {
    if (const Lesson* lesson = find_lesson(number)) {
        return *lesson;
    }
    std::string message = "There is no lesson \"" + std::string(number) + "\". The lessons are:\n";
    for (const Lesson& lesson : lessons_) {
        message += "  " + lesson.number + "  " + lesson.title + "\n";
    }
    throw UsageError(message);
}

fs::path Course::learner_file(const Exercise& exercise) const {
    return root_ / layout_path(layout::kLearnerFile, lesson_of(exercise).dir, exercise.id);
}

fs::path Course::solution_file(const Exercise& exercise) const {
    return root_ / layout_path(layout::kSolutionFile, lesson_of(exercise).dir, exercise.id);
}

fs::path Course::test_file(const Exercise& exercise) const {
    return root_ / layout_path(layout::kTestFile, lesson_of(exercise).dir, exercise.id);
}

fs::path Course::mistake_catalogue(const Exercise& exercise) const {
    return root_ / layout_path(layout::kMistakeFile, lesson_of(exercise).dir, exercise.id);
}

fs::path Course::mistake_notes(const Exercise& exercise) const {
    return root_ / layout_path(layout::kMistakeNotes, lesson_of(exercise).dir, exercise.id);
}

std::string Course::describe_ids() const {
    std::string text = "The exercises, by lesson:\n";
    for (const Lesson& lesson : lessons_) {
        const std::vector<std::string> ids = this->ids(&lesson);
        if (!ids.empty()) {
            text += "  " + lesson.number + "  " + join(ids, " ") + "\n";
        }
    }
    return text;
}

std::vector<std::string> closest_matches(std::string_view wanted,
                                         const std::vector<std::string>& candidates,
                                         std::size_t max_results) {
    // A typo is a few edits away; a fragment ("device") is contained in the id it comes from.
    // Only the nearest candidates are kept, so that one clear typo gets one suggestion.
    const std::size_t max_edits = std::max<std::size_t>(2, wanted.size() / 3);
    std::vector<std::pair<std::size_t, std::string>> ranked;  // distance, candidate
    std::size_t best = max_edits;
    for (const std::string& candidate : candidates) {
        std::size_t distance = edit_distance(wanted, candidate);
        if (wanted.size() >= 3 && candidate.find(wanted) != std::string::npos) {
            distance = std::min(distance, max_edits);  // a fragment
        }
        if (distance > max_edits) {
            continue;
        }
        best = std::min(best, distance);
        ranked.emplace_back(distance, candidate);
    }
    std::erase_if(ranked, [&](const auto& entry) { return entry.first > best + 1; });
    std::ranges::stable_sort(ranked, {}, &std::pair<std::size_t, std::string>::first);
    std::vector<std::string> matches;
    for (std::size_t i = 0; i < std::min(max_results, ranked.size()); ++i) {
        matches.push_back(ranked[i].second);
    }
    return matches;
}

fs::path find_course_root(const fs::path& start) {
    std::error_code error;
    for (fs::path folder = fs::absolute(start, error);; folder = folder.parent_path()) {
        if (fs::is_directory(folder / "lessons", error) &&
            fs::is_directory(folder / "exercises", error)) {
            return folder;
        }
        if (!folder.has_parent_path() || folder.parent_path() == folder) {
            break;
        }
    }
    throw EnvironmentError("Could not find the course: no lessons/ and exercises/ folders in " +
                               fs::absolute(start, error).string() + " or any folder above it.",
                           "cd into the torchlings folder, or pass --root <folder>");
}

}  // namespace torchlings::runner
