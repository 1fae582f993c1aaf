/// @file
/// @brief `list`: the course at a glance, with the learner's progress.
#include <algorithm>
#include <ostream>

#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace {

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

std::string hints_cell(const Context& context, const Exercise& exercise,
                       const ExerciseState& state) {
    const std::size_t total = exercise.hints.size();
    std::string text =
        context.message(total == 1 ? Msg::kHintCountOne : Msg::kHintCountMany, {total});
    if (state.hints_revealed > 0) {
        text += context.message(Msg::kHintsShown, {state.hints_revealed});
    }
    return text;
}

}  // namespace

ExitCode list_command(Context& context) {
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
            const ExerciseState state = context.state().get(exercise->id);
            const ExerciseStatus status = context.status_of(*exercise);
            if (status == ExerciseStatus::kDone) {
                ++done;
            }
            if (status != ExerciseStatus::kDone && next == nullptr) {
                next = exercise;
            }
            std::string id = exercise->id;
            id.resize(id_width, ' ');
            out << "    " << status_cell(context, status) << " " << id << "  " << exercise->title
                << "\n"
                << "    " << std::string(12 + id_width + 2, ' ')
                << style.dim(context.show(course.learner_file(*exercise)) + ", " +
                             hints_cell(context, *exercise, state))
                << "\n";
        }
        out << "\n";
    }
    out << style.dim(context.message(Msg::kListLegend)) << "\n";
    out << context.message(Msg::kListProgress, {done, course.exercises().size()});
    if (next != nullptr) {
        out << context.message(Msg::kListNext, {kCommand, next->id});
    }
    out << "\n";
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
