/// @file
/// @brief The catalogue of mistakes, `verify-mistake` (CI) and `mistakes` (maintainers).
#include "maintainer/mistakes.h"

#include <algorithm>
#include <ostream>
#include <system_error>

#include "core/errors.h"
#include "core/layout.h"
#include "core/text.h"
#include "maintainer/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

bool is_slug(std::string_view slug) {
    return !slug.empty() && std::all_of(slug.begin(), slug.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool has_tag(const TestCaseResult& result, std::string_view tag) {
    return std::find(result.tags.begin(), result.tags.end(), tag) != result.tags.end();
}

std::string quoted_list(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) {
        text += (text.empty() ? "\"" : ", \"") + name + "\"";
    }
    return text;
}

}  // namespace

Mistake parse_mistake(std::string_view text, std::string exercise_id, std::string slug,
                      std::string_view source) {
    Mistake mistake;
    mistake.exercise_id = std::move(exercise_id);
    mistake.slug = std::move(slug);
    const std::vector<std::string> lines = split_lines(text);
    const std::string_view title_prefix = layout::kMistakeTitle;
    if (lines.empty() || !lines.front().starts_with(title_prefix) ||
        trim(lines.front().substr(title_prefix.size())).empty()) {
        throw EnvironmentError(
            std::string(source) + ":1: expected \"" + std::string(title_prefix) +
            "<one-line title>\" as the first line of a catalogued mistake, got \"" +
            (lines.empty() ? std::string() : lines.front()) + "\"");
    }
    mistake.title = trim(lines.front().substr(title_prefix.size()));
    for (std::size_t i = 1; i < lines.size() && lines[i].starts_with("//"); ++i) {
        const std::string line = trim(lines[i]);
        if (line == layout::kMistakeGpuOnly) {
            mistake.gpu_only = true;
        } else {
            mistake.why.push_back(trim(line.substr(2)));
        }
    }
    return mistake;
}

std::vector<Mistake> find_mistakes(const Course& course, const Exercise& exercise) {
    // The folder is the pattern's parent: solutions/<dir>/mistakes/<id>/.
    const fs::path folder = course.mistake_file(exercise, "x").parent_path();
    std::vector<Mistake> mistakes;
    std::error_code error;
    if (!fs::is_directory(folder, error)) {
        return mistakes;
    }
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
        if (entry.is_regular_file() && entry.path().extension() == ".cpp") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        const std::string slug = file.stem().string();
        const std::string shown = fs::relative(file, course.root(), error).generic_string();
        if (!is_slug(slug)) {
            throw EnvironmentError(shown + ": a mistake's file name is its slug, [a-z0-9_]+.cpp");
        }
        Mistake mistake = parse_mistake(read_file(file), exercise.id, slug, shown);
        mistake.file = file;
        mistakes.push_back(std::move(mistake));
    }
    return mistakes;
}

std::string mistake_program(const Mistake& mistake) {
    return "ex_" + mistake.exercise_id + "_mistake_" + mistake.slug;
}

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
        const bool gpu = has_tag(result, "gpu");
        if (gpu && result.status == CaseStatus::kSkipped) {
            gpu_case_skipped = true;
        } else if (gpu) {
            gpu_case_ran = true;
        }
        if (result.status != CaseStatus::kFailed) {
            continue;
        }
        std::string problem = failed_case_problem(result, "a mistake");
        if (!problem.empty()) {
            verdict.problems.push_back(std::move(problem));
            continue;
        }
        (gpu ? caught_on_gpu : caught_on_cpu).push_back(result.name);
    }
    if (!verdict.problems.empty()) {
        return verdict;
    }
    verdict.caught_by = caught_on_cpu;
    verdict.caught_by.insert(verdict.caught_by.end(), caught_on_gpu.begin(), caught_on_gpu.end());
    const std::string gpu_line(layout::kMistakeGpuOnly);
    if (mistake.gpu_only) {
        if (!caught_on_cpu.empty()) {
            verdict.problems.push_back("caught without a GPU too, by " +
                                       quoted_list(caught_on_cpu) + ": remove the line \"" +
                                       gpu_line + "\" from its header");
        } else if (!caught_on_gpu.empty()) {
            verdict.outcome = MistakeOutcome::kCaught;
        } else if (gpu_case_skipped && !gpu_case_ran) {
            verdict.outcome = MistakeOutcome::kSkipped;
        } else if (gpu_case_ran) {
            verdict.problems.push_back("its tests pass, [gpu] cases included: no test catches it");
        } else {
            verdict.problems.push_back("marked \"" + gpu_line +
                                       "\", but the exercise has no [gpu] case");
        }
        return verdict;
    }
    if (!caught_on_cpu.empty()) {
        verdict.outcome = MistakeOutcome::kCaught;
    } else if (!caught_on_gpu.empty()) {
        verdict.problems.push_back("caught only by [gpu] cases (" + quoted_list(caught_on_gpu) +
                                   "): catch it on the CPU too, or mark it \"" + gpu_line + "\"");
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

ExitCode verify_mistake_command(Context& context, const std::string& id, const std::string& slug) {
    const Course& course = context.course();
    const Exercise& exercise = course.resolve_exercise(id);
    const std::vector<Mistake> mistakes = find_mistakes(course, exercise);
    const auto found = std::find_if(mistakes.begin(), mistakes.end(),
                                    [&](const Mistake& m) { return m.slug == slug; });
    if (found == mistakes.end()) {
        throw UsageError("There is no mistake \"" + slug + "\" of " + id + ": expected " +
                         context.show(course.mistake_file(exercise, slug)));
    }
    const TestProgramRun run = run_test_program(context, exercise, mistake_program(*found));
    const MistakeVerdict verdict = judge_mistake(*found, run);
    const Style& style = context.style();
    std::ostream& out = context.out();
    const std::string name = "verify-mistake " + id + "/" + slug;
    switch (verdict.outcome) {
        case MistakeOutcome::kCaught:
            out << style.good(name + ": ok") << ", caught by " << quoted_list(verdict.caught_by)
                << "\n";
            return ExitCode::kOk;
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
                out << "    " << mistake.slug << ": " << mistake.title
                    << (mistake.gpu_only ? style.dim("  [GPU only]") : std::string()) << "\n";
            }
        }
    }
    out << "\n"
        << total << " mistakes catalogued for " << covered << " of " << course.exercises().size()
        << " exercises: " << total - gpu_only << " caught on the CPU, " << gpu_only
        << " only with a GPU\n";
    if (!without.empty()) {
        out << "exercises without mistakes:";
        for (const std::string& id : without) {
            out << " " << id;
        }
        out << "\n";
    }
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
