/// @file
/// @brief `progress`: a bar per lesson and one for the course. Reads the progress file and the
/// learners' files only; builds nothing.
#include <map>
#include <ostream>

#include "learner/verbs.h"

namespace torchlings::runner {
namespace {

/// Characters in a full bar.
constexpr int kBarWidth = 24;

/// How many exercises are in each status.
using Tally = std::map<ExerciseStatus, int>;

/// "[████████░░░░]" (or "[####----]" without Unicode), done in green.
std::string bar(const Style& style, int done, int total) {
    const int filled = total == 0 ? 0 : (done * kBarWidth + total / 2) / total;
    std::string full;
    std::string empty;
    for (int i = 0; i < kBarWidth; ++i) {
        (i < filled ? full : empty) +=
            style.unicode() ? (i < filled ? "\u2588" : "\u2591") : (i < filled ? "#" : "-");
    }
    return "[" + style.good(full) + style.dim(empty) + "]";
}

/// "3/5" right-aligned in five columns.
std::string count_cell(int done, int total) {
    const std::string text = std::to_string(done) + "/" + std::to_string(total);
    return std::string(5 - std::min<std::size_t>(5, text.size()), ' ') + text;
}

/// "2 failing, 1 build error, ..." for the statuses other than done that occur.
std::string breakdown(Tally tally) {
    std::string text;
    for (const ExerciseStatus status :
         {ExerciseStatus::kFailing, ExerciseStatus::kBuildError, ExerciseStatus::kChanged,
          ExerciseStatus::kSkipped, ExerciseStatus::kNotTried}) {
        if (const int count = tally[status]; count > 0) {
            text += (text.empty() ? "" : ", ") + std::to_string(count) + " " +
                    std::string(status_label(status));
        }
    }
    return text;
}

}  // namespace

ExitCode progress_command(Context& context) {
    const Course& course = context.course();
    const Style& style = context.style();
    std::ostream& out = context.out();

    std::size_t title_width = 6;  // "Course"
    for (const Lesson& lesson : course.lessons()) {
        title_width = std::max(title_width, lesson.number.size() + 2 + display_width(lesson.title));
    }
    Tally course_tally;
    const Exercise* next = nullptr;
    for (const Lesson& lesson : course.lessons()) {
        Tally tally;
        const std::vector<const Exercise*> exercises = course.exercises_of(lesson);
        for (const Exercise* exercise : exercises) {
            const ExerciseStatus status = context.status_of(*exercise);
            ++tally[status];
            ++course_tally[status];
            if (status != ExerciseStatus::kDone && next == nullptr) {
                next = exercise;
            }
        }
        const std::string title = pad_to_width(lesson.number + "  " + lesson.title, title_width);
        const int done = tally[ExerciseStatus::kDone];
        const int total = static_cast<int>(exercises.size());
        out << "  " << title << "  " << bar(style, done, total) << " " << count_cell(done, total);
        if (done == total && total > 0) {
            out << "  " << style.good("complete");
        } else if (const std::string rest = breakdown(tally); !rest.empty()) {
            out << "  " << style.dim(rest);
        }
        out << "\n";
    }
    const int done = course_tally[ExerciseStatus::kDone];
    const int total = static_cast<int>(course.exercises().size());
    out << "\n  " << style.bold(pad_to_width("Course", title_width)) << "  "
        << bar(style, done, total) << " " << count_cell(done, total) << " exercises done\n";
    if (const std::string rest = breakdown(course_tally); !rest.empty()) {
        out << "  " << std::string(title_width + 2, ' ') << style.dim(rest) << "\n";
    }
    if (next != nullptr) {
        out << "\nNext: " << kCommand << " check " << next->id << "   (or " << kCommand
            << " watch)\n";
    } else {
        out << "\nEvery exercise is done. " << kCommand
            << " check --all checks them all again from scratch.\n";
    }
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
