/// @file
/// @brief `list`: the course at a glance, with the learner's progress; `list --json`: the same
/// course for scripts, so that nothing but the runner reads info.md for its structure.
#include <algorithm>
#include <ostream>

#include <nlohmann/json.hpp>

#include "learner/verbs.h"

namespace torchlings::runner {
namespace {

using nlohmann::ordered_json;  // keys in the order runner/README.md documents them

/// The status word, padded and coloured.
std::string status_cell(const Context& context, ExerciseStatus status) {
    const Style& style = context.style();
    const std::string label = pad_to_width(status_text(context.language(), status), 11);
    switch (status) {
        case ExerciseStatus::kDone:
            return style.good(label);
        case ExerciseStatus::kFailing:
        case ExerciseStatus::kBuildError:
            return style.bad(label);
        case ExerciseStatus::kSkipped:
        case ExerciseStatus::kChanged:
            return style.warn(label);
        case ExerciseStatus::kNotTried:
            break;
    }
    return style.dim(label);
}

std::string hints_cell(Context& context, const Exercise& exercise) {
    const std::size_t total = exercise.hints.size();
    std::string text =
        context.message(total == 1 ? Msg::kHintCountOne : Msg::kHintCountMany, {total});
    if (const int shown = context.state().get(exercise.id).hints_revealed; shown > 0) {
        text += context.message(Msg::kHintsShown, {shown});
    }
    return text;
}

/// The course as `list --json` prints it (runner/README.md): English keys; titles and hints in
/// the context's language; files relative to the course root; a status only where the progress
/// file records one.
ordered_json course_json(Context& context) {
    const Course& course = context.course();
    ordered_json lessons = ordered_json::array();
    for (const Lesson& lesson : course.lessons()) {
        ordered_json exercises = ordered_json::array();
        for (const Exercise* exercise : course.exercises_of(lesson)) {
            const auto file = [&](std::string_view pattern) {
                return layout_path(pattern, lesson.dir, exercise->id).generic_string();
            };
            ordered_json item = {{"id", exercise->id},
                                 {"title", exercise->title},
                                 {"timeout_s", exercise->timeout_s},
                                 {"hints", exercise->hints},
                                 {"files",
                                  {{"learner", file(layout::kLearnerFile)},
                                   {"test", file(layout::kTestFile)},
                                   {"solution", file(layout::kSolutionFile)}}}};
            if (context.state().get(exercise->id).status != ExerciseStatus::kNotTried) {
                item["status"] = std::string(status_key(context.status_of(*exercise)));
            }
            exercises.push_back(std::move(item));
        }
        lessons.push_back({{"number", lesson.number},
                           {"folder", lesson.dir},
                           {"title", lesson.title},
                           {"exercises", std::move(exercises)}});
    }
    return {{"format_version", 1},
            {"language", std::string(language_code(context.language()))},
            {"lessons", std::move(lessons)}};
}

}  // namespace

ExitCode list_command(Context& context, bool as_json) {
    if (as_json) {
        // Text that is not UTF-8 is replaced, not a crash: the document stays readable.
        context.out() << course_json(context).dump(2, ' ', false,
                                                   ordered_json::error_handler_t::replace)
                      << "\n";
        return ExitCode::kOk;
    }
    const Course& course = context.course();
    const Style& style = context.style();
    std::ostream& out = context.out();
    std::size_t id_width = 0;
    for (const Exercise& exercise : course.exercises()) {
        id_width = std::max(id_width, exercise.id.size());
    }

    int done = 0;
    const Exercise* next = nullptr;
    for (const Lesson& lesson : course.lessons()) {
        out << style.bold(lesson.number + "  " + lesson.title) << "\n";
        for (const Exercise* exercise : course.exercises_of(lesson)) {
            const ExerciseStatus status = context.status_of(*exercise);
            if (status == ExerciseStatus::kDone) {
                ++done;
            } else if (next == nullptr) {
                next = exercise;
            }
            out << "    " << status_cell(context, status) << " "
                << pad_to_width(exercise->id, id_width) << "  " << exercise->title << "\n"
                << "    " << std::string(12 + id_width + 2, ' ')
                << style.dim(context.show(course.learner_file(*exercise)) + ", " +
                             hints_cell(context, *exercise))
                << "\n";
        }
        out << "\n";
    }
    out << style.dim(context.message(Msg::kListLegend)) << "\n"
        << context.message(Msg::kListProgress, {done, course.exercises().size()});
    if (next != nullptr) {
        out << context.message(Msg::kListNext, {kCommand, next->id});
    }
    out << "\n";
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
