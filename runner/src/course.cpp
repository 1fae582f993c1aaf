/// @file
/// @brief Loading and validating exercises/info.json, and resolving names to exercises.
#include "tl_runner/course.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>
#include <tuple>

#include "tl_runner/errors.h"
#include "tl_runner/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kFormatVersion = 1;

/// The longest time limit an exercise may ask for: a day.
constexpr long long kMaxTimeoutS = 24LL * 3600;

/// "a string", "an array", ... for "expected X, got Y" messages.
std::string type_name(const json& value) {
    switch (value.type()) {
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        case json::value_t::boolean:
            return "true/false";
        case json::value_t::null:
            return "null";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return "a number";
        default:
            return "an unknown value";
    }
}

/// A short rendering of a value for an error message.
std::string preview(const json& value) {
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 40) {
        text = text.substr(0, 37) + "...";
    }
    return text;
}

/// Reads the keys of one JSON object, naming the file and the object in every error.
class ObjectReader {
  public:
    ObjectReader(const json& object, std::string source, std::string where)
        : object_(object), source_(std::move(source)), where_(std::move(where)) {
        if (!object_.is_object()) {
            fail("expected an object, got " + type_name(object_) + " " + preview(object_));
        }
    }

    [[noreturn]] void fail(const std::string& problem) const {
        throw EnvironmentError(source_ + ": " + where_ + ": " + problem);
    }

    /// A required, non-empty string.
    [[nodiscard]] std::string string(const char* key) const {
        const json& value = require(key, "a non-empty string");
        if (!value.is_string() || value.get<std::string>().empty()) {
            wrong_type(key, "a non-empty string", value);
        }
        return value.get<std::string>();
    }

    /// An array of strings; an absent key gives `fallback` unless the key is required.
    [[nodiscard]] std::vector<std::string> strings(const char* key, bool required) const {
        if (!object_.contains(key)) {
            if (required) {
                (void)require(key, "an array of strings");
            }
            return {};
        }
        const json& value = object_.at(key);
        if (!value.is_array()) {
            wrong_type(key, "an array of strings", value);
        }
        std::vector<std::string> items;
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (!value[i].is_string()) {
                fail("\"" + std::string(key) + "\"[" + std::to_string(i) +
                     "]: expected a string, got " + type_name(value[i]) + " " + preview(value[i]));
            }
            items.push_back(value[i].get<std::string>());
        }
        return items;
    }

    /// An optional positive integer.
    [[nodiscard]] int positive_int(const char* key, int fallback) const {
        if (!object_.contains(key)) {
            return fallback;
        }
        const json& value = object_.at(key);
        if (!value.is_number_integer() || value.get<long long>() <= 0 ||
            value.get<long long>() > kMaxTimeoutS) {
            wrong_type(key, "a positive whole number of seconds", value);
        }
        return value.get<int>();
    }

    /// The array under a required key.
    [[nodiscard]] const json& array(const char* key, const char* expected) const {
        const json& value = require(key, expected);
        if (!value.is_array()) {
            wrong_type(key, expected, value);
        }
        return value;
    }

  private:
    const json& require(const char* key, const char* expected) const {
        if (!object_.contains(key)) {
            fail("missing key \"" + std::string(key) + "\" (expected " + expected + ")");
        }
        return object_.at(key);
    }

    [[noreturn]] void wrong_type(const char* key, const char* expected, const json& got) const {
        fail("\"" + std::string(key) + "\": expected " + expected + ", got " + type_name(got) +
             " " + preview(got));
    }

    const json& object_;
    std::string source_;
    std::string where_;
};

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

Lesson read_lesson(const json& value, const std::string& source, std::size_t index) {
    const ObjectReader reader(value, source, "lessons[" + std::to_string(index) + "]");
    Lesson lesson{reader.string("number"), reader.string("dir"), reader.string("title")};
    if (!all_digits(lesson.number)) {
        reader.fail(R"("number": expected digits such as "01", got ")" + lesson.number + "\"");
    }
    if (lesson.dir.rfind(lesson.number + "_", 0) != 0) {
        reader.fail(R"("dir": expected a folder name that starts with ")" + lesson.number +
                    "_\", got \"" + lesson.dir + "\"");
    }
    return lesson;
}

Exercise read_exercise(const json& value, const std::string& source, std::size_t index) {
    std::string where = "exercises[" + std::to_string(index) + "]";
    if (value.is_object() && value.contains("id") && value["id"].is_string()) {
        where += " (\"" + value["id"].get<std::string>() + "\")";
    }
    const ObjectReader reader(value, source, where);
    Exercise exercise;
    exercise.id = reader.string("id");
    if (!valid_id(exercise.id)) {
        reader.fail(
            "\"id\": expected lowercase letters, digits and underscores, starting with a "
            "letter (it names the target ex_<id>), got \"" +
            exercise.id + "\"");
    }
    exercise.lesson = reader.string("lesson");
    exercise.title = reader.string("title");
    exercise.timeout_s = reader.positive_int("timeout_s", kDefaultTimeoutS);
    exercise.given_tests = reader.strings("given_tests", false);
    exercise.hints = reader.strings("hints", true);
    return exercise;
}

/// The JSON library's message without its "[json.exception.parse_error.101] " prefix.
std::string plain_parse_error(const json::parse_error& error) {
    std::string message = error.what();
    const std::size_t bracket = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) {
        message.erase(0, bracket + 2);
    }
    return message;
}

}  // namespace

Course Course::load(const fs::path& root) {
    const fs::path file = root / "exercises" / "info.json";
    std::error_code error;
    if (!fs::is_regular_file(file, error)) {
        throw EnvironmentError("the course metadata " + file.string() +
                               " does not exist; expected the exercises/info.json of a torchlings "
                               "course under " +
                               root.string());
    }
    return parse(read_file(file), root, "exercises/info.json");
}

Course Course::parse(std::string_view json_text, const fs::path& root, std::string_view source) {
    const std::string name(source);
    json document;
    try {
        document = json::parse(json_text);
    } catch (const json::parse_error& error) {
        throw EnvironmentError(name + " is not valid JSON: " + plain_parse_error(error));
    }
    const ObjectReader top(document, name, "top level");
    if (!document.contains("format_version")) {
        top.fail("missing key \"format_version\" (expected " + std::to_string(kFormatVersion) +
                 ")");
    }
    if (document["format_version"] != kFormatVersion) {
        top.fail("\"format_version\" is " + preview(document["format_version"]) +
                 ", but this runner reads format " + std::to_string(kFormatVersion) +
                 " (is the runner older than the course? rebuild it)");
    }

    Course course;
    course.root_ = root;
    const json& lessons = top.array("lessons", "an array of lessons");
    std::set<std::string> numbers;
    for (std::size_t i = 0; i < lessons.size(); ++i) {
        Lesson lesson = read_lesson(lessons[i], name, i);
        if (!numbers.insert(lesson.number).second) {
            top.fail("lesson number \"" + lesson.number + R"(" appears twice in "lessons")");
        }
        course.lessons_.push_back(std::move(lesson));
    }

    const json& exercises = top.array("exercises", "an array of exercises");
    std::set<std::string> ids;
    for (std::size_t i = 0; i < exercises.size(); ++i) {
        Exercise exercise = read_exercise(exercises[i], name, i);
        if (!ids.insert(exercise.id).second) {
            top.fail("exercise id \"" + exercise.id + "\" appears twice; ids must be unique");
        }
        if (!numbers.contains(exercise.lesson)) {
            top.fail("exercise \"" + exercise.id + "\" names lesson \"" + exercise.lesson +
                     R"(", which is not in "lessons" (expected one of: )" +
                     join(std::vector<std::string>(numbers.begin(), numbers.end()), ", ") + ")");
        }
        course.exercises_.push_back(std::move(exercise));
    }
    return course;
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
    return root_ / "exercises" / lesson_of(exercise).dir / (exercise.id + ".cpp");
}

fs::path Course::solution_file(const Exercise& exercise) const {
    return root_ / "solutions" / lesson_of(exercise).dir / (exercise.id + ".cpp");
}

fs::path Course::test_file(const Exercise& exercise) const {
    return root_ / "tests" / "exercises" / lesson_of(exercise).dir / (exercise.id + "_test.cpp");
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
        if (fs::is_regular_file(folder / "exercises" / "info.json", error)) {
            return folder;
        }
        if (!folder.has_parent_path() || folder.parent_path() == folder) {
            break;
        }
        folder = folder.parent_path();
    }
    throw EnvironmentError("Could not find the course: no exercises/info.json in " +
                               fs::absolute(start, error).string() + " or any folder above it.",
                           "cd into the torchlings folder, or pass --root <folder>");
}

}  // namespace torchlings::runner
