/// @file
/// @brief Writing the course index (exercises, time limits, the mistakes' hunks) and the lesson
/// READMEs' exercise tables from the runner's readers of info.md and of the catalogue of mistakes.
#include "maintainer/course_index.h"

#include <nlohmann/json.hpp>
#include <system_error>

#include "core/context.h"
#include "core/errors.h"
#include "core/hashing.h"
#include "core/mistake_catalogue.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

/// What each index says of itself, first: who writes it, and what to edit instead.
constexpr std::string_view kGeneratedBy =
    "written by `./torchlings dev index` from the Markdown files it names (edit those, then run "
    "it again); configure reads this file, runner/README.md describes it";

bool is_file(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error);
}

/// A table cell's text: a `|` would end the cell.
std::string cell(std::string_view text) {
    std::string escaped;
    for (const char c : text) {
        if (c == '|') {
            escaped += '\\';
        }
        escaped += c;
    }
    return escaped;
}

}  // namespace

std::string exercise_index_json(const Course& course) {
    Json lessons = Json::object();
    for (const Lesson& lesson : course.lessons()) {
        const fs::path info = layout_path(layout::kExerciseInfo, lesson.dir, "");
        if (!is_file(course.root() / info)) {
            continue;
        }
        Json exercises = Json::array();
        for (const Exercise* exercise : course.exercises_of(lesson)) {
            exercises.push_back({{"id", exercise->id}, {"timeout_s", exercise->timeout_s}});
        }
        lessons[lesson.dir] = {{"source", info.generic_string()},
                               {"sha256", sha256_file(course.root() / info)},
                               {"exercises", std::move(exercises)}};
    }
    const Json index = {
        {"generated_by", kGeneratedBy}, {"format_version", 1}, {"lessons", std::move(lessons)}};
    return index.dump(2) + "\n";
}

std::string mistake_index_json(const Course& course) {
    Json lessons = Json::object();
    for (const Lesson& lesson : course.lessons()) {
        Json catalogues = Json::object();
        for (const Exercise* exercise : course.exercises_of(lesson)) {
            const fs::path file = course.mistake_catalogue(*exercise);
            if (!is_file(file)) {
                continue;
            }
            const std::string source = file.lexically_relative(course.root()).generic_string();
            const std::vector<Mistake> mistakes =
                parse_mistake_catalogue(read_file(file), exercise->id, source);
            check_mistake_diffs(
                mistakes, source,
                course.solution_file(*exercise).lexically_relative(course.root()).generic_string());
            Json entries = Json::array();
            for (const Mistake& mistake : mistakes) {
                Json hunks = Json::array();
                for (const Hunk& hunk : mistake.hunks) {
                    hunks.push_back({{"line", hunk.line},
                                     {"old", hunk.old_text},
                                     {"new", hunk.new_text},
                                     {"from", hunk.origins}});
                }
                entries.push_back(
                    {{"slug", mistake.slug}, {"line", mistake.line}, {"hunks", std::move(hunks)}});
            }
            catalogues[exercise->id] = {{"source", source},
                                        {"sha256", sha256_file(file)},
                                        {"mistakes", std::move(entries)}};
        }
        if (!catalogues.empty()) {
            lessons[lesson.dir] = std::move(catalogues);
        }
    }
    const Json index = {
        {"generated_by", kGeneratedBy}, {"format_version", 1}, {"lessons", std::move(lessons)}};
    return index.dump(2) + "\n";
}

std::string exercise_table(const std::vector<const Exercise*>& exercises, std::string_view source,
                           Language language) {
    const bool korean = language == Language::kKorean;
    std::string table = korean ? "<!-- 이 표는 `./torchlings dev index`가 " + std::string(source) +
                                     "에서 씁니다. 그 파일을 "
                                     "고치세요. -->\n| id | 작성할 내용 | "
                                     "확인 |\n"
                               : "<!-- This table is written by `./torchlings dev index` from " +
                                     std::string(source) +
                                     ": edit that file. -->\n| id | what you write | check |\n";
    table += "|---|---|---|\n";
    for (const Exercise* exercise : exercises) {
        table += "| `" + exercise->id + "` | " +
                 cell(exercise->summary.empty() ? exercise->title : exercise->summary) + " | `" +
                 std::string(kCommand) + " check " + exercise->id + "` |\n";
    }
    return table;
}

std::optional<std::string> with_exercise_table(std::string_view readme, std::string_view heading,
                                               std::string_view table) {
    std::vector<std::string> lines = split_lines(readme);
    const auto section = std::find(lines.begin(), lines.end(), heading);
    if (section == lines.end()) {
        return std::nullopt;
    }
    const auto part_of_table = [](const std::string& line) {
        return line.starts_with("|") || line.starts_with("<!-- This table is written by") ||
               line.starts_with("<!-- 이 표는");
    };
    auto first = section + 1;
    while (first != lines.end() && !first->starts_with("## ") && !part_of_table(*first)) {
        ++first;
    }
    std::vector<std::string> rows = split_lines(table);
    if (first == lines.end() || first->starts_with("## ")) {
        // No table yet: right after the heading, between blank lines.
        rows.insert(rows.begin(), "");
        if (section + 1 == lines.end() || !trim(*(section + 1)).empty()) {
            rows.emplace_back("");
        }
        lines.insert(section + 1, rows.begin(), rows.end());
    } else {
        const auto last = std::find_if_not(first, lines.end(), part_of_table);
        const auto at = lines.erase(first, last);
        lines.insert(at, rows.begin(), rows.end());
    }
    return join(lines, "\n") + "\n";
}

std::vector<GeneratedFile> course_index(const fs::path& root) {
    const Course english = Course::load(root, Language::kEnglish);
    const Course korean = Course::load(root, Language::kKorean);
    std::vector<GeneratedFile> files;
    files.push_back({root / layout::kExerciseIndex, exercise_index_json(english)});
    std::error_code error;
    if (fs::is_directory(root / "solutions", error)) {
        files.push_back({root / layout::kMistakeIndex, mistake_index_json(english)});
    }
    for (const auto& [course, pattern, heading, info_pattern] :
         {std::tuple{&english, layout::kLessonText, kExercisesHeading, layout::kExerciseInfo},
          std::tuple{&korean, layout::kLessonTextKorean, kExercisesHeadingKorean,
                     layout::kExerciseInfoKorean}}) {
        const Language language = course == &korean ? Language::kKorean : Language::kEnglish;
        for (const Lesson& lesson : course->lessons()) {
            const fs::path readme = root / layout_path(pattern, lesson.dir, "");
            fs::path info = layout_path(info_pattern, lesson.dir, "");
            if (!is_file(root / info)) {
                info = layout_path(layout::kExerciseInfo, lesson.dir, "");  // not translated
            }
            if (!is_file(readme) || !is_file(root / info)) {
                continue;
            }
            const std::string table =
                exercise_table(course->exercises_of(lesson), info.generic_string(), language);
            if (std::optional<std::string> text =
                    with_exercise_table(read_file(readme), heading, table)) {
                files.push_back({readme, std::move(*text)});
            }
        }
    }
    return files;
}

std::vector<GeneratedFile> stale_files(std::vector<GeneratedFile> files) {
    std::erase_if(files, [](const GeneratedFile& file) {
        return is_file(file.path) && read_file(file.path) == file.content;
    });
    return files;
}

}  // namespace torchlings::runner
