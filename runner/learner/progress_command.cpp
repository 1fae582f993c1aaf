/// @file
/// @brief `progress`: a bar per lesson and one for the course. Reads the progress file and the
/// learners' files only; builds nothing.
#include <array>
#include <ostream>

#include "learner/verbs.h"

namespace torchlings::runner {
namespace {

/// Characters in a full bar.
constexpr int kBarWidth = 24;

/// How many exercises are in each status.
struct Tally {
    std::array<int, 6> by_status{};
    int total = 0;

    void add(ExerciseStatus status) {
        ++by_status[static_cast<std::size_t>(status)];
        ++total;
    }
    [[nodiscard]] int of(ExerciseStatus status) const {
        return by_status[static_cast<std::size_t>(status)];
    }
};

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

/// "3/5" right-aligned in `width`.
std::string count_cell(int done, int total, std::size_t width) {
    std::string text = std::to_string(done) + "/" + std::to_string(total);
    if (text.size() < width) {
        text.insert(0, width - text.size(), ' ');
    }
    return text;
}

/// "2 failing, 1 build error, ..." for the statuses other than done that occur.
std::string breakdown(const Tally& tally) {
    std::string text;
    for (const ExerciseStatus status :
         {ExerciseStatus::kFailing, ExerciseStatus::kBuildError, ExerciseStatus::kChanged,
          ExerciseStatus::kSkipped, ExerciseStatus::kNotTried}) {
        const int count = tally.of(status);
        if (count > 0) {
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
        for (const Exercise* exercise : course.exercises_of(lesson)) {
            const ExerciseStatus status = context.status_of(*exercise);
            tally.add(status);
            course_tally.add(status);
            if (status != ExerciseStatus::kDone && next == nullptr) {
                next = exercise;
            }
        }
        const std::string title = pad_to_width(lesson.number + "  " + lesson.title, title_width);
        const int done = tally.of(ExerciseStatus::kDone);
        out << "  " << title << "  " << bar(style, done, tally.total) << " "
            << count_cell(done, tally.total, 5);
        if (done == tally.total && tally.total > 0) {
            out << "  " << style.good("complete");
        } else if (const std::string rest = breakdown(tally); !rest.empty()) {
            out << "  " << style.dim(rest);
        }
        out << "\n";
    }
    std::string title = "Course";
    title.resize(title_width, ' ');
    const int done = course_tally.of(ExerciseStatus::kDone);
    out << "\n  " << style.bold(title) << "  " << bar(style, done, course_tally.total) << " "
        << count_cell(done, course_tally.total, 5) << " exercises done\n";
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
