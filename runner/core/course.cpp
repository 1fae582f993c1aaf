/// @file
/// @brief Loading the course (lesson titles, each lesson's exercises/NN_topic/info.md), and
/// resolving names to exercises.
#include "core/course.h"

#include <algorithm>
#include <set>
#include <system_error>
#include <tuple>

#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// The longest time limit an exercise may ask for: a day.
constexpr long long kMaxTimeoutS = 24LL * 3600;

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "007" and "7" name the same lesson.
std::string_view without_leading_zeros(std::string_view digits) {
    while (digits.size() > 1 && digits.front() == '0') {
        digits.remove_prefix(1);
    }
    return digits;
}

bool valid_id(std::string_view id) {
    if (id.empty() || id.front() < 'a' || id.front() > 'z') {
        return false;
    }
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

/// Collects one exercise's hint lines and drops the blank lines around each hint.
void finish_hint(Exercise& exercise, std::vector<std::string>& lines) {
    while (!lines.empty() && trimmed(lines.back()).empty()) {
        lines.pop_back();
    }
    std::size_t first = 0;
    while (first < lines.size() && trimmed(lines[first]).empty()) {
        ++first;
    }
    std::string hint;
    for (std::size_t i = first; i < lines.size(); ++i) {
        hint += (i == first ? "" : "\n") + lines[i];
    }
    lines.clear();
    exercise.hints.push_back(std::move(hint));
}

}  // namespace

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

std::vector<Exercise> Course::parse_exercises(std::string_view markdown, const Lesson& lesson,
                                              std::string_view source) {
    std::vector<Exercise> exercises;
    std::vector<std::string> hint;  // the lines of the hint being read
    bool in_hint = false;
    bool in_fence = false;
    int line_number = 0;
    const auto fail = [&](const std::string& problem) {
        throw EnvironmentError(std::string(source) + ":" + std::to_string(line_number) + ": " +
                               problem);
    };
    const auto close_hint = [&] {
        if (in_hint) {
            finish_hint(exercises.back(), hint);
            in_hint = false;
        }
    };
    for (const std::string& raw : split_lines(std::string(markdown))) {
        ++line_number;
        const std::string_view line = trimmed(raw);
        if (line.starts_with("```") || line.starts_with("~~~")) {
            in_fence = !in_fence;
        } else if (!in_fence && raw.starts_with("## ")) {
            close_hint();
            const std::string_view heading = trimmed(line.substr(3));
            const std::size_t colon = heading.find(':');
            Exercise exercise;
            exercise.id = std::string(trimmed(heading.substr(0, colon)));
            exercise.lesson = lesson.number;
            exercise.line = line_number;
            if (colon != std::string_view::npos) {
                exercise.title = std::string(trimmed(heading.substr(colon + 1)));
            }
            if (!valid_id(exercise.id) || exercise.title.empty()) {
                fail(
                    "expected \"## id: title\" with an id of lowercase letters, digits and "
                    "underscores, starting with a letter (it names the target ex_<id>), got \"" +
                    std::string(line) + "\"");
            }
            exercises.push_back(std::move(exercise));
            continue;
        } else if (!in_fence && raw.starts_with("### ")) {
            if (exercises.empty() || trimmed(line.substr(4)) != "Hint") {
                fail("expected \"### Hint\" below an exercise's \"## id: title\", got \"" +
                     std::string(line) + "\"");
            }
            close_hint();
            in_hint = true;
            continue;
        }
        if (in_hint) {
            hint.push_back(raw);
        } else if (!exercises.empty() && !line.empty()) {
            Exercise& exercise = exercises.back();
            if (line.starts_with("timeout_s:")) {
                const std::string_view value = trimmed(line.substr(10));
                if (!all_digits(value) || value.size() > 6 || std::stoll(std::string(value)) <= 0 ||
                    std::stoll(std::string(value)) > kMaxTimeoutS) {
                    fail("\"timeout_s:\" expected a positive whole number of seconds, got \"" +
                         std::string(value) + "\"");
                }
                exercise.timeout_s = std::stoi(std::string(value));
            } else {
                fail(
                    "expected \"timeout_s: N\" or a \"### Hint\" "
                    "section below \"## " +
                    exercise.id + "\", got \"" + std::string(line) + "\"");
            }
        }
    }
    if (in_fence) {
        fail("a code block (```) is not closed");
    }
    close_hint();
    return exercises;
}

std::string Course::parse_lesson_title(std::string_view readme, const std::string& number,
                                       std::string_view source, Language language) {
    std::string_view first = trimmed(readme.substr(0, readme.find('\n')));
    int line = 1;
    if (language == Language::kKorean) {
        // A translation may start with a line that links to the other language: its title is
        // in the first heading.
        std::size_t at = 0;
        for (int number_of_line = 1; at < readme.size(); ++number_of_line) {
            const std::size_t end = std::min(readme.find('\n', at), readme.size());
            if (readme.substr(at, end - at).starts_with("# ")) {
                first = trimmed(readme.substr(at, end - at));
                line = number_of_line;
                break;
            }
            at = end + 1;
        }
    }
    std::string prefix = "# Lesson " + number;
    if (language == Language::kKorean && first.starts_with("# \uAC15\uC758 " + number)) {
        prefix = "# \uAC15\uC758 " + number;  // "# 강의 NN"
    }
    std::string_view rest =
        first.starts_with(prefix) ? trimmed(first.substr(prefix.size())) : std::string_view{};
    for (const std::string_view dash : {"\u2014", "-", ":"}) {
        if (rest.starts_with(dash)) {
            rest = trimmed(rest.substr(dash.size()));
            break;
        }
    }
    if (rest.empty()) {
        throw EnvironmentError(std::string(source) + ":" + std::to_string(line) + ": expected \"" +
                               prefix + " \u2014 Title\"" +
                               (language == Language::kKorean
                                    ? " or \"# \uAC15\uC758 " + number + " \u2014 Title\""
                                    : "") +
                               ", got \"" + std::string(first) + "\"");
    }
    return std::string(rest);
}

void Course::translate_exercises(std::vector<Exercise>& exercises, std::string_view translated,
                                 const Lesson& lesson, std::string_view source,
                                 std::string_view reference) {
    const std::vector<Exercise> translation = parse_exercises(translated, lesson, source);
    const std::string rule = "; " + std::string(source) + " is a translation of " +
                             std::string(reference) +
                             ": the same \"## id: ...\" headings in the same order, the same "
                             "number of \"### Hint\" sections under each, the same timeout_s: "
                             "lines; only titles and hint text differ";
    const auto fail = [&](int line, const std::string& problem) {
        throw EnvironmentError(std::string(source) + ":" + std::to_string(line) + ": " + problem +
                               rule);
    };
    for (std::size_t i = 0; i < translation.size(); ++i) {
        const Exercise& theirs = translation[i];
        if (i >= exercises.size()) {
            fail(theirs.line, "declares \"## " + theirs.id + "\", which " + std::string(reference) +
                                  " does not declare");
        }
        const Exercise& ours = exercises[i];
        if (theirs.id != ours.id) {
            fail(theirs.line, "expected \"## " + ours.id + ": ...\" (exercise " +
                                  std::to_string(i + 1) + " of " + std::string(reference) +
                                  ", line " + std::to_string(ours.line) + "), got \"## " +
                                  theirs.id + "\"");
        }
        if (theirs.hints.size() != ours.hints.size()) {
            fail(theirs.line, "\"## " + theirs.id + "\" has " +
                                  std::to_string(theirs.hints.size()) + " \"### Hint\" sections, " +
                                  std::string(reference) + " has " +
                                  std::to_string(ours.hints.size()));
        }
        if (theirs.timeout_s != ours.timeout_s) {
            fail(theirs.line, "\"## " + theirs.id + "\" has another timeout_s: line than " +
                                  std::string(reference));
        }
    }
    if (translation.size() < exercises.size()) {
        const Exercise& missing = exercises[translation.size()];
        fail(static_cast<int>(split_lines(std::string(translated)).size()),
             "ends without \"## " + missing.id + ": ...\", which " + std::string(reference) +
                 " declares (line " + std::to_string(missing.line) + ")");
    }
    for (std::size_t i = 0; i < exercises.size(); ++i) {
        exercises[i].title = translation[i].title;
        exercises[i].hints = translation[i].hints;
    }
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
            for (Exercise& exercise : declared) {
                exercises.push_back(std::move(exercise));
            }
        }
        lessons.push_back(std::move(lesson));
    }
    return from_parts(root, std::move(lessons), std::move(exercises));
}

const Exercise* Course::find_exercise(std::string_view id) const {
    const auto found = std::find_if(exercises_.begin(), exercises_.end(),
                                    [&](const Exercise& e) { return e.id == id; });
    return found == exercises_.end() ? nullptr : &*found;
}

const Lesson* Course::find_lesson(std::string_view name) const {
    for (const Lesson& lesson : lessons_) {
        if (lesson.number == name || lesson.dir == name) {
            return &lesson;
        }
        if (all_digits(name) &&
            without_leading_zeros(name) == without_leading_zeros(lesson.number)) {
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
    std::vector<std::string> names;
    for (const Exercise& exercise : exercises_) {
        names.push_back(exercise.id);
    }
    for (const Lesson& lesson : lessons_) {
        names.push_back(lesson.number);
    }
    std::string message =
        "There is no exercise or lesson called \"" + std::string(id_or_lesson) + "\".\n";
    const std::vector<std::string> close = closest_matches(id_or_lesson, names);
    if (!close.empty()) {
        message += "Did you mean: " + join(close, ", ") + "?\n";
    }
    throw UsageError(message + describe_ids());
}

const Exercise& Course::resolve_exercise(std::string_view id) const {
    if (const Exercise* exercise = find_exercise(id)) {
        return *exercise;
    }
    std::vector<std::string> ids;
    for (const Exercise& exercise : exercises_) {
        ids.push_back(exercise.id);
    }
    std::string message = "There is no exercise called \"" + std::string(id) + "\".\n";
    if (find_lesson(id) != nullptr) {
        message = "\"" + std::string(id) + "\" is a lesson; this command takes one exercise id.\n";
    }
    const std::vector<std::string> close = closest_matches(id, ids);
    if (!close.empty()) {
        message += "Did you mean: " + join(close, ", ") + "?\n";
    }
    throw UsageError(message + describe_ids());
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
        std::vector<std::string> ids;
        for (const Exercise* exercise : exercises_of(lesson)) {
            ids.push_back(exercise->id);
        }
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
    std::vector<std::tuple<std::size_t, std::size_t, std::string>> ranked;
    std::size_t best = max_edits;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string& candidate = candidates[i];
        std::size_t distance = edit_distance(wanted, candidate);
        const bool fragment = wanted.size() >= 3 && candidate.find(wanted) != std::string::npos;
        if (fragment) {
            distance = std::min(distance, max_edits);
        }
        if (distance > max_edits) {
            continue;
        }
        best = std::min(best, distance);
        ranked.emplace_back(distance, i, candidate);
    }
    std::erase_if(ranked, [&](const auto& entry) { return std::get<0>(entry) > best + 1; });
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> matches;
    for (const auto& entry : ranked) {
        if (matches.size() == max_results) {
            break;
        }
        matches.push_back(std::get<2>(entry));
    }
    return matches;
}

fs::path find_course_root(const fs::path& start) {
    std::error_code error;
    fs::path folder = fs::absolute(start, error);
    while (true) {
        if (fs::is_directory(folder / "lessons", error) &&
            fs::is_directory(folder / "exercises", error)) {
            return folder;
        }
        if (!folder.has_parent_path() || folder.parent_path() == folder) {
            break;
        }
        folder = folder.parent_path();
    }
    throw EnvironmentError("Could not find the course: no lessons/ and exercises/ folders in " +
                               fs::absolute(start, error).string() + " or any folder above it.",
                           "cd into the torchlings folder, or pass --root <folder>");
}

}  // namespace torchlings::runner
