/// @file
/// @brief `check` for a class: --verify-tests before grading, then the machine-readable reports
/// of the same check a learner runs (--json, --junit, --classroom50, --gradescope), on inputs drawn
/// from a seed of the run's own besides the tests' fixed ones.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/exercise_run.h"
#include "core/test_seed.h"
#include "core/text.h"
#include "learner/check.h"
#include "teacher/manifest.h"
#include "teacher/reports.h"
#include "teacher/verbs.h"

namespace torchlings::runner {

ExitCode grade_command(Context& context, const GradeOptions& options) {
    if (options.verify_tests) {
        const Verification verified = verify_tests(context);
        if (verified.code == ExitCode::kTestsEdited && !options.gradescope_file.empty()) {
            replace_file(options.gradescope_file,
                         gradescope_refusal(
                             "Not graded: files of the course other than your exercise files "
                             "differ from the class's copy:\n  " +
                             join(verified.problems, "\n  ") +
                             "\nSubmit only your exercises/<lesson>/<id>.cpp files (or your whole "
                             "repository with the other files as the class gave them), then submit "
                             "again.")
                                 .dump(2) +
                             "\n");
        }
        if (verified.code != ExitCode::kOk ||
            (options.check.targets.empty() && !options.check.all)) {
            return verified.code;
        }
    }
    const std::vector<const Exercise*> exercises =
        select_exercises(context.course(), options.check.targets, options.check.all, "check");
    // Hidden inputs: a run that writes a report grades, so its tests also draw inputs from a seed
    // (TORCHLINGS_TEST_SEED's, else a fresh one), which every test program gets and the reports
    // record. A learner's plain check runs the fixed inputs only.
    std::optional<std::uint64_t> seed;
    if (options.reports()) {
        const TestSeed chosen = grading_test_seed();
        context.set_test_seed(chosen);
        seed = chosen.value;
    }
    std::ostream& stdout_stream = context.out();
    if (options.json) {
        context.redirect_out(context.err());  // stdout carries the JSON alone
    }
    const CheckRun checked = check_exercises(context, exercises, options.check.all);
    if (context.test_seed()) {
        context.out() << test_seed_summary(*context.test_seed()) << "\n";
    }
    // Described once, for every format asked for.
    const std::vector<ExerciseReport> reports =
        options.reports() ? describe_all(context, checked.outcomes) : std::vector<ExerciseReport>();
    const auto write_report = [&context](const std::string& file, const std::string& what,
                                         const std::string& text) {
        replace_file(file, text);
        context.out() << what << " written to " << context.show(file) << "\n";
    };
    if (!options.junit_file.empty()) {
        write_report(options.junit_file, "JUnit XML", junit_report(reports, seed));
    }
    // The score reports list every case of an exercise whose test program did not build (or
    // reached no case), each scoring 0: the cases as its listing program names them.
    DeclaredCases declared;
    if (!options.classroom50_file.empty() || !options.gradescope_file.empty()) {
        for (const CheckOutcome& outcome : checked.outcomes) {
            const bool reached_none =
                outcome.run && outcome.run->events.cases.empty() && outcome.run->all_cases.empty();
            // A refused report's cases are not to be trusted, nor is the list of them it gave.
            const bool refused = outcome.run && outcome.run->verdict == Verdict::kRefused;
            if (outcome.exercise != nullptr && !outcome.problem &&
                (!outcome.run || reached_none || refused)) {
                declared[outcome.exercise->id] = declared_cases(context, *outcome.exercise);
            }
        }
    }
    if (!options.classroom50_file.empty()) {
        write_report(options.classroom50_file, "Classroom 50 result",
                     classroom50_result(reports, declared, seed).dump(2) + "\n");
    }
    if (!options.gradescope_file.empty()) {
        write_report(options.gradescope_file, "Gradescope results",
                     gradescope_results(reports, declared, seed).dump(2) + "\n");
    }
    if (options.json) {
        stdout_stream << check_json(reports, seed).dump(2) << "\n";
    }
    return checked.code;
}

}  // namespace torchlings::runner
