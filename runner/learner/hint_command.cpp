/// @file
/// @brief `hint`: progressive hints, one more per call.
#include <algorithm>
#include <ostream>

#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {

ExitCode hint_command(Context& context, std::string_view id, std::string_view again) {
    const Course& course = context.course();
    const Exercise& exercise = course.resolve_exercise(id);
    std::ostream& out = context.out();
    const Style& style = context.style();
    const int total = static_cast<int>(exercise.hints.size());
    if (total == 0) {
        out << context.message(Msg::kNoHints,
                               {exercise.id, context.show(course.learner_file(exercise))})
            << "\n";
        return ExitCode::kOk;
    }

    ExerciseState& state = context.state().at(exercise.id);
    const bool all_shown_before = state.hints_revealed >= total;
    state.hints_revealed = std::clamp(state.hints_revealed + 1, 1, total);

    out << style.bold(context.message(Msg::kHintsFor, {exercise.id})) << " (" << exercise.title
        << ")\n";
    for (int i = 0; i < state.hints_revealed; ++i) {
        const std::string number = std::to_string(i + 1) + "/" + std::to_string(total);
        const bool newest = i + 1 == state.hints_revealed && !all_shown_before;
        // A hint is Markdown of one or more lines: the later lines line up under the first.
        const std::string indent(2 + number.size() + 2, ' ');
        const std::vector<std::string> lines =
            split_lines(exercise.hints[static_cast<std::size_t>(i)]);
        for (std::size_t line = 0; line < lines.size(); ++line) {
            if (line == 0) {
                out << "  " << (newest ? style.warn(number) : style.dim(number)) << "  ";
            } else if (!lines[line].empty()) {
                out << indent;
            }
            out << lines[line] << "\n";
        }
    }
    if (state.hints_revealed < total) {
        out << (again.empty() ? context.message(Msg::kHintAgain, {kCommand, exercise.id})
                              : std::string(again))
            << "\n";
    } else if (!all_shown_before) {
        out << context.message(Msg::kLastHint) << "\n";
    } else {
        out << context.message(Msg::kAllHintsShown, {total, kCommand, exercise.id}) << "\n";
    }
    context.save_state();
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
