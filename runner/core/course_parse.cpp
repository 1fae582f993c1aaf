/// @file
/// @brief Reading a lesson's exercises/NN_topic/info.md (and its info.ko.md translation) and a
/// lesson README's title: the one parser of the course's exercise list.
#include <algorithm>

#include "core/course.h"
#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {

namespace {

/// The longest time limit an exercise may ask for: a day.
constexpr int kMaxTimeoutS = 24 * 3600;

bool valid_id(std::string_view id) {
    return !id.empty() && id.front() >= 'a' && id.front() <= 'z' &&
           std::all_of(id.begin(), id.end(), [](char c) {
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
    const auto blank = [](const std::string& line) { return trimmed(line).empty(); };
    const auto first = std::find_if_not(lines.begin(), lines.end(), blank);
    const auto last = std::find_if_not(lines.rbegin(), lines.rend(), blank).base();
    exercise.hints.push_back(first < last ? join(std::vector<std::string>(first, last), "\n") : "");
    lines.clear();
}

}  // namespace

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
                const int seconds =
                    all_digits(value) && value.size() <= 6 ? std::stoi(std::string(value)) : 0;
                if (seconds <= 0 || seconds > kMaxTimeoutS) {
                    fail("\"timeout_s:\" expected a positive whole number of seconds, got \"" +
                         std::string(value) + "\"");
                }
                exercise.timeout_s = seconds;
            } else if (line.starts_with("summary:")) {
                if (!exercise.summary.empty()) {
                    fail("a second \"summary:\" line below \"## " + exercise.id +
                         "\"; an exercise has one");
                }
                exercise.summary = std::string(trimmed(line.substr(8)));
                if (exercise.summary.empty()) {
                    fail("\"summary:\" expected one line saying what the learner writes");
                }
            } else {
                fail(
                    "expected \"summary: text\", \"timeout_s: N\" or a \"### Hint\" section "
                    "below \"## " +
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
    const std::vector<std::string> lines = split_lines(readme);
    std::string_view first = lines.empty() ? "" : trimmed(lines.front());
    int line = 1;
    // A translation may start with a line that links to the other language: its title is in the
    // first heading.
    const auto heading =
        std::ranges::find_if(lines, [](const std::string& text) { return text.starts_with("# "); });
    if (language == Language::kKorean && heading != lines.end()) {
        first = trimmed(*heading);
        line = static_cast<int>(heading - lines.begin()) + 1;
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
                             "number of \"### Hint\" sections under each, the same summary: and "
                             "timeout_s: lines; only titles, summaries and hint text differ";
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
        if (theirs.summary.empty() != ours.summary.empty()) {
            fail(theirs.line, "\"## " + theirs.id + "\" " +
                                  (ours.summary.empty() ? "has a summary: line, which "
                                                        : "has no summary: line, which ") +
                                  std::string(reference) +
                                  (ours.summary.empty() ? " does not have" : " has"));
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
        exercises[i].summary = translation[i].summary;
        exercises[i].hints = translation[i].hints;
    }
}

}  // namespace torchlings::runner
