/// @file
/// @brief `check` for a class: --verify-tests before grading, then the machine-readable reports
/// of the same check a learner runs (--json, --junit, --classroom).
#include <ostream>
#include <string>
#include <vector>

#include "core/text.h"
#include "learner/check.h"
#include "teacher/manifest.h"
#include "teacher/reports.h"
#include "teacher/verbs.h"

namespace torchlings::runner {

ExitCode grade_command(Context& context, const GradeOptions& options) {
    if (options.verify_tests) {
        const ExitCode verified = verify_tests(context);
        if (verified != ExitCode::kOk || (options.check.targets.empty() && !options.check.all)) {
            return verified;
        }
    }
    const std::vector<const Exercise*> exercises =
        select_exercises(context.course(), options.check.targets, options.check.all, "check");
    std::ostream& stdout_stream = context.out();
    if (options.json) {
        context.redirect_out(context.err());  // stdout carries the JSON alone
    }
    const CheckRun checked = check_exercises(context, exercises, options.check.all);
    if (!options.junit_file.empty()) {
        write_file(options.junit_file, junit_report(context, checked.outcomes));
        context.out() << "JUnit XML written to " << context.show(options.junit_file) << "\n";
    }
    if (!options.classroom_file.empty()) {
        write_file(options.classroom_file,
                   classroom_report(context, checked.outcomes).dump(2) + "\n");
        context.out() << "Classroom results written to " << context.show(options.classroom_file)
                      << "\n";
    }
    if (options.json) {
        stdout_stream << check_json(context, checked.outcomes).dump(2) << "\n";
    }
    return checked.code;
}

}  // namespace torchlings::runner
