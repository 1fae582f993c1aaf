/// @file
/// @brief `solution ID`: the reference solution, once the learner's own passes.
#include <ostream>
#include <system_error>

#include "core/process.h"
#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// A unified diff from the learner's file to the solution (diff -u), or a note why there is none.
void show_diff(Context& context, const fs::path& learner, const fs::path& solution) {
    std::ostream& out = context.out();
    if (!find_program("diff")) {
        out << context.style().dim("(no diff: the diff program is not installed)") << "\n";
        return;
    }
    const ProcessResult diff = run_process(
        command_spec({"diff", "-u", "--label", "yours: " + context.show(learner), "--label",
                      "solution: " + context.show(solution), learner.string(), solution.string()}));
    out << "\n" << context.style().bold("Your file compared with the solution") << ":\n";
    if (diff.exit_code == 0) {
        out << "  (they are the same)\n";
        return;
    }
    const Style& style = context.style();
    for (const std::string& line : split_lines(diff.output)) {
        if (line.starts_with("+") && !line.starts_with("+++")) {
            out << style.good(line) << "\n";
        } else if (line.starts_with("-") && !line.starts_with("---")) {
            out << style.bad(line) << "\n";
        } else if (line.starts_with("@@")) {
            out << style.dim(line) << "\n";
        } else {
            out << line << "\n";
        }
    }
}

}  // namespace

ExitCode solution_command(Context& context, const SolutionOptions& options) {
    const Course& course = context.course();
    const Exercise& exercise = course.resolve_exercise(options.id);
    std::ostream& out = context.out();
    const fs::path solution = course.solution_file(exercise);
    std::error_code error;
    if (!fs::exists(solution, error)) {
        throw EnvironmentError("This copy of the course has no solutions (" +
                               context.show(solution) +
                               " does not exist): ask your teacher once you are done.");
    }
    const ExerciseStatus status = context.status_of(exercise);
    if (status != ExerciseStatus::kDone && !options.force) {
        out << "The solution of " << exercise.id << " is shown once your own passes";
        if (status == ExerciseStatus::kChanged) {
            out << "; it passed, but your file has changed since, so check it again: " << kCommand
                << " check " << exercise.id << "\n";
        } else {
            out << " (its status: " << status_label(status) << ").\n"
                << "  " << kCommand << " check " << exercise.id << "   see what is still wrong\n"
                << "  " << kCommand << " hint " << exercise.id << "    a nudge\n"
                << "  " << kCommand << " solution " << exercise.id
                << " --force   if you really want to see it now\n";
        }
        return ExitCode::kTestsFailed;
    }
    out << context.style().bold("Solution of " + exercise.id) << " (" << context.show(solution)
        << "):\n\n"
        << read_file(solution);
    if (options.diff) {
        show_diff(context, course.learner_file(exercise), solution);
    }
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
