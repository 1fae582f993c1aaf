/// @file
/// @brief `verify-stub` (CI): an untouched stub must fail each of its tests by assertion or by
/// exception, never by crashing or hanging, and never pass one.
/// How a run and a failed case are judged is shared with `verify-mistake` (exercise_run.cpp).
#include <ostream>

#include "core/exercise_run.h"
#include "maintainer/verbs.h"

namespace torchlings::runner {

std::vector<std::string> stub_problems(const TestProgramRun& run) {
    std::string whole = run_problem(run, "the stub");
    if (!whole.empty()) {
        return {std::move(whole)};
    }
    std::vector<std::string> problems;
    for (const TestCaseResult& result : run.events.cases) {
        std::string problem =
            result.status == CaseStatus::kPassed
                ? "\"" + result.name + "\" passes on the stub; a stub must fail every test"
            : result.status == CaseStatus::kFailed ? failed_case_problem(result, "the stub")
                                                   : std::string();
        if (!problem.empty()) {
            problems.push_back(std::move(problem));
        }
    }
    return problems;
}

ExitCode verify_stub_command(Context& context, const CheckOptions& options) {
    const std::vector<const Exercise*> exercises =
        select_exercises(context.course(), options.targets, options.all, "verify-stub");
    context.use_fixed_test_inputs();  // the stub must fail on the inputs every learner sees
    const Style& style = context.style();
    std::ostream& out = context.out();
    ExitCode overall = ExitCode::kOk;
    for (const Exercise* exercise : exercises) {
        const TestProgramRun run = run_test_program(context, *exercise);
        const std::vector<std::string> problems = stub_problems(run);
        if (problems.empty()) {
            const int failed = run.events.count(CaseStatus::kFailed);
            const int skipped = run.events.count(CaseStatus::kSkipped);
            out << style.good("verify-stub " + exercise->id + ": ok") << ", " << failed
                << (failed == 1 ? " case fails" : " cases fail") << " by assertion or exception";
            if (skipped > 0) {
                out << "; " << skipped << " skipped here, so not verified";
            }
            out << "\n";
            continue;
        }
        overall = ExitCode::kTestsFailed;
        out << style.bad("verify-stub " + exercise->id + ": FAILED") << "\n";
        for (const std::string& problem : problems) {
            out << "  - " << problem << "\n";
        }
    }
    return overall;
}

}  // namespace torchlings::runner
