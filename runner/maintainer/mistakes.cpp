/// @file
/// @brief The catalogue of mistakes, `verify-mistake` (CI) and `mistakes` (maintainers).
#include "maintainer/mistakes.h"

#include <algorithm>
#include <ostream>

#include "core/errors.h"
#include "core/layout.h"
#include "core/text.h"
#include "maintainer/verbs.h"

namespace torchlings::runner {
namespace {

std::string quoted_list(const std::vector<std::string>& names) {
    return names.empty() ? std::string() : "\"" + join(names, "\", \"") + "\"";
}

/// The program CMake builds from a mistake and its exercise's tests: `ex_<id>_mistake_<slug>`.
std::string mistake_program(const Mistake& mistake) {
    return "ex_" + mistake.exercise_id + "_mistake_" + mistake.slug;
}

}  // namespace

MistakeVerdict judge_mistake(const Mistake& mistake, const TestProgramRun& run) {
    MistakeVerdict verdict;
    std::string whole = run_problem(run, "a mistake");
    if (!whole.empty()) {
        verdict.problems.push_back(std::move(whole));
        return verdict;
    }
    std::vector<std::string> caught_on_cpu;
    std::vector<std::string> caught_on_gpu;
    bool gpu_case_ran = false;
    bool gpu_case_skipped = false;
    for (const TestCaseResult& result : run.events.cases) {
        if (result.needs_gpu()) {
            (result.status == CaseStatus::kSkipped ? gpu_case_skipped : gpu_case_ran) = true;
        }
        if (result.status != CaseStatus::kFailed) {
            continue;
        }
        std::string problem = failed_case_problem(result, "a mistake");
        if (!problem.empty()) {
            verdict.problems.push_back(std::move(problem));
            continue;
        }
        (result.needs_gpu() ? caught_on_gpu : caught_on_cpu).push_back(result.name);
    }
    if (!verdict.problems.empty()) {
        return verdict;
    }
    verdict.caught_by = caught_on_cpu;
    verdict.caught_by.insert(verdict.caught_by.end(), caught_on_gpu.begin(), caught_on_gpu.end());
    const std::string gpu_line = trim(layout::kMistakeGpuOnly);
    if (mistake.gpu_only) {
        if (!caught_on_cpu.empty()) {
            verdict.problems.push_back("caught without a GPU too, by " +
                                       quoted_list(caught_on_cpu) + ": remove its line \"" +
                                       gpu_line + " ...\"");
        } else if (!caught_on_gpu.empty()) {
            verdict.outcome = MistakeOutcome::kCaught;
        } else if (gpu_case_skipped && !gpu_case_ran) {
            verdict.outcome = MistakeOutcome::kSkipped;
        } else if (gpu_case_ran) {
            verdict.problems.push_back("its tests pass, [gpu] cases included: no test catches it");
        } else {
            verdict.problems.push_back("marked \"" + gpu_line +
                                       " ...\", but the exercise has no [gpu] case");
        }
        return verdict;
    }
    if (!caught_on_cpu.empty()) {
        verdict.outcome = MistakeOutcome::kCaught;
    } else if (!caught_on_gpu.empty()) {
        verdict.problems.push_back("caught only by [gpu] cases (" + quoted_list(caught_on_gpu) +
                                   "): catch it on the CPU too, or give it a line \"" + gpu_line +
                                   " <reason>\"");
    } else if (run.verdict == Verdict::kAllSkipped) {
        verdict.problems.push_back("every case was skipped here, so nothing caught it");
    } else {
        verdict.problems.push_back(
            "its tests pass: no test catches it (" +
            std::to_string(run.events.count(CaseStatus::kPassed)) + " passed, " +
            std::to_string(run.events.count(CaseStatus::kSkipped)) + " skipped)");
    }
    return verdict;
}

ExitCode verify_mistake_command(Context& context, const std::string& id, const std::string& slug,
                                bool record) {
    context.use_fixed_test_inputs();  // the signature is recorded on the fixed inputs
    const Course& course = context.course();
    const Exercise& exercise = course.resolve_exercise(id);
    const std::vector<Mistake> mistakes = find_mistakes(course, exercise);
    const auto found = std::ranges::find(mistakes, slug, &Mistake::slug);
    if (found == mistakes.end()) {
        throw UsageError("There is no mistake \"" + slug + "\" of " + id + ": expected " +
                         "a section \"## " + slug + ": <title>\" in " +
                         context.show(course.mistake_catalogue(exercise)));
    }
    const TestProgramRun run = run_test_program(context, exercise, mistake_program(*found));
    const MistakeVerdict verdict = judge_mistake(*found, run);
    const Style& style = context.style();
    std::ostream& out = context.out();
    const std::string name = "verify-mistake " + id + "/" + slug;
    switch (verdict.outcome) {
        case MistakeOutcome::kCaught: {
            // Caught: now the way it is caught must be the one the catalogue records.
            const Signature observed = observed_signature(*found, run_signature(run));
            const std::string line =
                format_signature(signature_to_record(found->caught_by, observed));
            const std::string ok =
                style.good(name + ": ok") + ", caught by " + quoted_list(verdict.caught_by);
            if (signature_matches(found->caught_by, observed)) {
                out << ok << "\n";
                return ExitCode::kOk;
            }
            const int at = found->caught_by_line > 0 ? found->caught_by_line : found->line;
            const std::string where = context.show(found->file) + ":" + std::to_string(at);
            if (found->caught_by.empty() && !record) {
                // Not recorded yet (a GPU-only mistake, recorded on the first GPU machine): caught
                // is what counts; the line to record is printed.
                out << ok << "; no signature recorded yet: run "
                    << "verify-mistake --record " << id << " " << slug << " to record\n"
                    << line << "\n";
                return ExitCode::kOk;
            }
            if (record) {
                // Only that line changes; the catalogue as it was is saved first.
                const std::string text = read_file(found->file);
                write_file(context.build_dir() / "logs" / "mistakes" /
                               (found->exercise_id + ".before-" + found->slug + ".md"),
                           text);
                write_file(found->file, with_signature_line(text, *found, line));
                out << style.good(name + ": recorded") << " in " << where << ": " << line << "\n";
                return ExitCode::kOk;
            }
            out << style.bad(name + ": FAILED") << " (" << found->title << ")\n"
                << "  - the tests catch it, but not as " << where << " records ("
                << (found->caught_by.empty() ? std::string("no signature yet")
                                             : format_signature(found->caught_by))
                << ")\n"
                << "  "
                << (found->caught_by_line > 0 ? "Replace line " : "Add to the section at line ")
                << at << " of " << context.show(found->file) << " (or run verify-mistake --record "
                << id << " " << slug << "):\n"
                << line << "\n";
            return ExitCode::kTestsFailed;
        }
        case MistakeOutcome::kSkipped:
            // CTest reads this line as "skipped", as it does for a skipped [gpu] case.
            out << "TL_SKIP: " << name << ": only a [gpu] case catches it, and there is no GPU "
                << "here\n";
            return ExitCode::kOk;
        case MistakeOutcome::kProblem:
            break;
    }
    out << style.bad(name + ": FAILED") << " (" << found->title << ")\n";
    for (const std::string& problem : verdict.problems) {
        out << "  - " << problem << "\n";
    }
    return ExitCode::kTestsFailed;
}

ExitCode mistakes_command(Context& context) {
    const Course& course = context.course();
    std::ostream& out = context.out();
    const Style& style = context.style();
    int total = 0;
    int gpu_only = 0;
    int covered = 0;
    int signed_ = 0;
    std::vector<std::string> without;
    for (const Lesson& lesson : course.lessons()) {
        const std::vector<const Exercise*> exercises = course.exercises_of(lesson);
        if (exercises.empty()) {
            continue;
        }
        out << style.bold("Lesson " + lesson.number + " — " + lesson.title) << "\n";
        for (const Exercise* exercise : exercises) {
            const std::vector<Mistake> mistakes = find_mistakes(course, *exercise);
            out << "  " << exercise->id << " (" << mistakes.size() << ")\n";
            if (mistakes.empty()) {
                without.push_back(exercise->id);
                continue;
            }
            ++covered;
            for (const Mistake& mistake : mistakes) {
                ++total;
                gpu_only += mistake.gpu_only ? 1 : 0;
                signed_ += mistake.caught_by.empty() ? 0 : 1;
                out << "    " << mistake.slug << ": " << mistake.title
                    << (mistake.gpu_only ? style.dim("  [GPU only]") : std::string()) << "\n";
            }
        }
    }
    out << "\n"
        << total << " mistakes catalogued for " << covered << " of " << course.exercises().size()
        << " exercises: " << total - gpu_only << " caught on the CPU, " << gpu_only
        << " only with a GPU; " << signed_ << " with a recorded signature\n";
    if (!without.empty()) {
        out << "exercises without mistakes: " << join(without, " ") << "\n";
    }
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
