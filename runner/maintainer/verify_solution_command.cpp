/// @file
/// @brief `verify-solution [--record]` (CI): the reference solution passes every case, and each
/// case runs as many assertions as tests/exercises/assertion_counts.json records for it, the
/// record that `check` compares a learner's passing cases with (core/assertion_counts.h).
#include <algorithm>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/assertion_counts.h"
#include "core/exercise_run.h"
#include "core/text.h"
#include "maintainer/verbs.h"

namespace torchlings::runner {

std::vector<std::string> solution_problems(const TestProgramRun& run,
                                           const std::map<std::string, int>& recorded) {
    switch (run.verdict) {
        case Verdict::kPassed:
        case Verdict::kFailed:  // its failing cases are named below
        case Verdict::kAllSkipped:
            break;
        case Verdict::kCrashed:
            return {"the solution's test program crashed: " + signal_name(run.process.signal)};
        case Verdict::kTimedOut:
            return {"the solution's test program was stopped at its time limit (" +
                    std::to_string(run.timeout_s) + " s)"};
        case Verdict::kRefused:
            return {"the solution's test report was refused: " + run.refusal};
        default:  // no report, no cases, an early exit, an exit status against its report
            return {run_problem(run, "the solution")};
    }
    std::vector<std::string> problems;
    bool gpu_ran = false;
    for (const TestCaseResult& result : run.events.cases) {
        if (result.status == CaseStatus::kFailed || result.status == CaseStatus::kUnfinished) {
            problems.push_back("\"" + result.name + "\" fails with the solution");
        }
        gpu_ran = gpu_ran || (result.needs_gpu() && result.status == CaseStatus::kPassed);
    }
    const std::map<std::string, int> observed = passed_case_assertions(run.events);
    for (const auto& [name, count] : observed) {
        const auto found = recorded.find(name);
        if (found == recorded.end()) {
            problems.push_back("\"" + name + "\" runs " + std::to_string(count) +
                               " assertions, and the record has no count for it");
        } else if (count < found->second || (count > found->second && !gpu_ran)) {
            // A GPU runs more in some cases than the record, taken without one, says.
            problems.push_back("\"" + name + "\" runs " + std::to_string(count) +
                               " assertions; the record says " + std::to_string(found->second));
        }
    }
    for (const auto& [name, count] : recorded) {
        if (!observed.contains(name)) {
            problems.push_back("the record counts \"" + name +
                               "\", which did not pass here (renamed, removed, or a [gpu] case)");
        }
    }
    return problems;
}

ExitCode verify_solution_command(Context& context, const CheckOptions& options, bool record) {
    const std::vector<const Exercise*> exercises =
        select_exercises(context.course(), options.targets, options.all, "verify-solution");
    context.use_fixed_test_inputs();  // the record is taken on the inputs every learner sees
    const std::filesystem::path file = context.root() / kAssertionCounts;
    AssertionCounts counts = read_assertion_counts(file);
    const Style& style = context.style();
    std::ostream& out = context.out();
    ExitCode overall = ExitCode::kOk;
    int recorded = 0;
    for (const Exercise* exercise : exercises) {
        const TestProgramRun run =
            run_test_program(context, *exercise, "ex_" + exercise->id + "_solution");
        std::vector<std::string> problems = solution_problems(run, counts[exercise->id]);
        if (record) {
            // Only a whole pass is recorded, and only without a GPU: a GPU adds assertions to some
            // cases, and a learner's machine without one would then be flagged.
            const bool gpu_ran = std::ranges::any_of(run.events.cases, [](const auto& result) {
                return result.needs_gpu() && result.status == CaseStatus::kPassed;
            });
            if (run.verdict == Verdict::kPassed && !gpu_ran) {
                counts[exercise->id] = passed_case_assertions(run.events);
                problems.clear();
                ++recorded;
            } else if (gpu_ran) {
                problems.insert(problems.begin(),
                                "not recorded: a [gpu] case ran here; record on a machine without "
                                "a GPU, as the record's counts are");
            } else {
                problems.insert(problems.begin(), "not recorded: the solution does not pass");
            }
        }
        if (problems.empty()) {
            out << style.good("verify-solution " + exercise->id + ": ok") << ", "
                << counts[exercise->id].size() << " cases pass with the assertions recorded\n";
            continue;
        }
        overall = ExitCode::kTestsFailed;
        out << style.bad("verify-solution " + exercise->id + ": FAILED") << "\n";
        for (const std::string& problem : problems) {
            out << "  - " << problem << "\n";
        }
    }
    if (recorded > 0) {  // the exercises not recorded keep their counts
        replace_file(file, assertion_counts_json(counts));
        out << "recorded in " << context.show(file) << "\n";
    } else if (overall != ExitCode::kOk) {
        out << "When the tests changed on purpose: "
            << context.show(context.binary("torchlings-runner"))
            << " verify-solution --record --all\n";
    }
    return overall;
}

}  // namespace torchlings::runner
