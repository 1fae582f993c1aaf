/// @file
/// @brief Describing a checked exercise once, format-neutrally, for every report. The wording
/// follows the text output of `check`, without its indentation and colour.
#include "teacher/report_model.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iterator>
#include <system_error>

#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// The code of the case declared at `line` of the test file: its lines up to the next case's
/// (the cases' lines are the ones the test program reported; a case that never started reported
/// none, so a later line that begins with TEST_CASE ends it too), blank lines at the end left
/// out; empty when the line is unknown or not in the file.
std::string case_code(const std::vector<std::string>& lines, const std::vector<int>& case_lines,
                      int line) {
    if (line <= 0 || static_cast<std::size_t>(line) > lines.size()) {
        return {};
    }
    std::size_t end = lines.size();
    for (const int other : case_lines) {
        if (other > line) {
            end = std::min(end, static_cast<std::size_t>(other) - 1);
        }
    }
    const auto first = lines.begin() + (line - 1);
    auto last = std::find_if(first + 1, lines.begin() + static_cast<std::ptrdiff_t>(end),
                             [](const std::string& text) { return text.starts_with("TEST_CASE"); });
    while (last > first + 1 && trim(*(last - 1)).empty()) {
        --last;
    }
    return join(std::vector<std::string>(first, last), "\n");
}

/// Reports are read by machines and teachers' tools: English, whatever the learner's language.
constexpr Language kReportLanguage = Language::kEnglish;

/// Exercism's limit on a test's `output`, in characters (bytes here, which is stricter).
constexpr std::size_t kExercismOutputLimit = 500;
/// How many lines of a test program's own output the reports keep, as the text output does.
constexpr std::size_t kReportTailLines = 20;
/// The most characters of those lines kept (lines can be long).
constexpr std::size_t kOutputTailLimit = 4000;
/// The most failed checks of one test case described in its message.
constexpr std::size_t kMaxFailuresShown = 10;

/// The end of a text, at most `limit` bytes with a note in front when something was left out;
/// never cut inside a UTF-8 sequence.
std::string tail_of(std::string_view text, std::size_t limit) {
    if (text.size() <= limit) {
        return std::string(text);
    }
    const std::string note = "[output truncated: only its end is shown]\n";
    std::size_t start = text.size() - (limit - note.size());
    while (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
        ++start;
    }
    return note + std::string(text.substr(start));
}

/// The `N` of a `task_N` tag, or nothing.
std::optional<int> task_id(const std::vector<std::string>& tags) {
    static constexpr std::string_view kPrefix = "task_";
    for (const std::string& tag : tags) {
        if (!tag.starts_with(kPrefix) || tag.size() == kPrefix.size()) {
            continue;
        }
        int value = 0;
        const char* end = tag.data() + tag.size();
        const auto [rest, error] = std::from_chars(tag.data() + kPrefix.size(), end, value);
        if (error == std::errc() && rest == end) {
            return value;
        }
    }
    return std::nullopt;
}

/// Sets a report's verdict: its status, its message, the same in one line, and its type.
template <typename Report>
void set_verdict(Report& report, Status status, std::string message, std::string summary,
                 std::string type) {
    report.status = status;
    report.message = std::move(message);
    report.summary = std::move(summary);
    report.type = std::move(type);
}

/// One failed check in one line.
std::string summarise_failure(const Failure& failure) {
    switch (failure.kind) {
        case FailureKind::kTodo:
            return failure.message;
        case FailureKind::kException:
            return "exception: " + failure.message;
        case FailureKind::kAssertion:
        case FailureKind::kCrash:
            break;
    }
    std::string text =
        failure.expr.empty() ? failure.macro : failure.macro + "( " + failure.expr + " )";
    if (!failure.expr.empty() && !failure.expanded.empty() && failure.expanded != failure.expr) {
        text += " with " + failure.expanded;
    }
    if (!failure.message.empty()) {
        text += text.empty() ? failure.message : ": " + failure.message;
    }
    return text;
}

/// Every failed check of a case (crash failures aside), separated by blank lines.
std::string describe_failures(const Context& context, const std::string& learner_file,
                              const TestCaseResult& result) {
    std::vector<std::string> parts;
    std::size_t left_out = 0;
    for (const Failure& failure : result.failures) {
        if (failure.kind == FailureKind::kCrash) {
            continue;
        }
        if (parts.size() == kMaxFailuresShown) {
            ++left_out;
        } else {
            parts.push_back(join(
                describe_failure(context, learner_file, failure, kReportLanguage).lines, "\n"));
        }
    }
    if (left_out > 0) {
        parts.push_back("(" + std::to_string(left_out) + " more failed check" +
                        (left_out == 1 ? "" : "s") + " not shown)");
    }
    return join(parts, "\n\n");
}

/// The sentence for a run in which every case was skipped, with the reasons.
std::string all_skipped_text(const TestProgramRun& run) {
    std::vector<std::string> reasons;
    for (const TestCaseResult& result : run.events.cases) {
        std::string reason = trim(result.skip_reason);
        reason.erase(reason.find_last_not_of('.') + 1);  // npos + 1: all dots, all gone
        if (!reason.empty() && std::ranges::find(reasons, reason) == reasons.end()) {
            reasons.push_back(reason);
        }
    }
    return "Every test was skipped (" + std::to_string(run.events.count(CaseStatus::kSkipped)) +
           " of " + std::to_string(run.events.cases.size()) +
           "), so nothing was checked on this machine" +
           (reasons.empty() ? "." : ": " + join(reasons, "; ") + ".");
}

/// A case that did not pass: its status, message, summary and type.
void describe_failed_case(const Context& context, const std::string& learner_file,
                          const TestProgramRun& run, const TestCaseResult& result,
                          CaseReport& report) {
    const std::string failures = describe_failures(context, learner_file, result);
    const std::optional<StopText> stop = stop_text(run, kReportLanguage);
    if (&result == run.events.interrupted_case() && stop) {
        std::vector<std::string> lines{stop->headline + " while running this test.", stop->detail};
        const std::string site = crash_site(context, &result, kReportLanguage);
        if (!site.empty()) {
            lines.push_back(site);
        }
        if (!failures.empty()) {
            lines.push_back("\nEarlier in this test:\n" + failures);
        }
        set_verdict(report, Status::kError, join(lines, "\n"), stop->headline, stop->type);
        report.output = tail_of(run.process.output, kExercismOutputLimit);
        return;
    }
    if (result.status == CaseStatus::kUnfinished) {
        const std::string text = "The test did not finish.";
        set_verdict(report, Status::kError, text, text, "unfinished");
        return;
    }
    const auto first = std::find_if(result.failures.begin(), result.failures.end(),
                                    [](const Failure& f) { return f.kind != FailureKind::kCrash; });
    if (first == result.failures.end()) {
        const std::string text = "The test case failed without reporting an assertion.";
        set_verdict(report, Status::kFail, text, text, "assertion");
        return;
    }
    // An unexpected exception makes the case an error, and is what its summary names.
    const auto exception =
        std::ranges::find(result.failures, FailureKind::kException, &Failure::kind);
    const Failure& headline = exception != result.failures.end() ? *exception : *first;
    set_verdict(report, exception != result.failures.end() ? Status::kError : Status::kFail,
                failures, summarise_failure(headline), std::string(kind_name(headline.kind)));
}

/// The text with its first letter in lower case, to continue a sentence.
std::string continue_sentence(std::string text) {
    if (!text.empty() && text.front() >= 'A' && text.front() <= 'Z') {
        text.front() = static_cast<char>(text.front() - 'A' + 'a');
    }
    return text;
}

/// The verdict of a run as a whole: status, and for an error its message, summary and type.
void describe_verdict(const Context& context, const TestProgramRun& run, ExerciseReport& report) {
    report.status = Status::kError;
    report.error_outside_cases =
        run.verdict == Verdict::kNoTests || run.verdict == Verdict::kNoReport;
    switch (run.verdict) {
        case Verdict::kPassed:
        case Verdict::kFailed:
            report.status = run.verdict == Verdict::kPassed ? Status::kPass : Status::kFail;
            return;
        case Verdict::kAllSkipped:
            // An error, but one that no case or run step caused.
            report.message = all_skipped_text(run);
            report.type = "skipped";
            break;
        case Verdict::kCrashed:
        case Verdict::kTimedOut:
        case Verdict::kExitedEarly:
        case Verdict::kExitedBeforeTests:
        case Verdict::kContradicted:
        case Verdict::kRefused: {
            const TestCaseResult* running = run.events.interrupted_case();
            const std::string where = stop_where(run, kReportLanguage);
            const StopText stop = *stop_text(run, kReportLanguage);
            std::vector<std::string> lines{stop.headline + where + ".", stop.detail};
            const std::string site = crash_site(context, running, kReportLanguage);
            if (!site.empty()) {
                lines.push_back(site);
            }
            set_verdict(report, Status::kError, join(lines, "\n"), stop.headline + where,
                        stop.type);
            report.error_outside_cases = running == nullptr;
            return;
        }
        case Verdict::kNoTests:
            report.message = "The test program ran no test cases.";
            report.type = "no-tests";
            break;
        case Verdict::kNoReport:
            report.message = "The test program reported no results (exit status " +
                             std::to_string(run.process.exit_code) + ").";
            report.type = "no-report";
            break;
    }
    report.summary = report.message;
}

}  // namespace

ExerciseReport describe(const Context& context, const CheckOutcome& outcome) {
    if (outcome.exercise == nullptr) {
        throw EnvironmentError("reports: a check outcome without its exercise");
    }
    const Exercise& exercise = *outcome.exercise;
    const Course* course = nullptr;  // without it, the reports leave out test code and file names
    try {
        course = &context.course();
    } catch (const EnvironmentError&) {
    }
    const bool in_course = course != nullptr && course->find_exercise(exercise.id) != nullptr;
    ExerciseReport report;
    report.exercise = &exercise;
    report.seconds = outcome.build.seconds;
    report.flags = outcome.flags;
    report.error_outside_cases = true;
    if (outcome.problem) {
        const std::string what = outcome.problem->what();
        const std::string fix = outcome.problem->fix();
        set_verdict(report, Status::kError, fix.empty() ? what : what + "\nFix: " + fix,
                    what.substr(0, what.find('\n')), "environment");
        return report;
    }
    if (!outcome.run) {
        const std::vector<std::string> shown = build_error_lines(context, outcome);
        set_verdict(report, Status::kError, "The build failed:\n" + join(shown, "\n"),
                    shown.front(), "build");
        report.build_failed = true;
        return report;
    }
    const TestProgramRun& run = *outcome.run;
    report.seconds += run.process.seconds;
    describe_verdict(context, run, report);

    const std::string learner_file =
        in_course ? context.show(course->learner_file(exercise)) : std::string();
    std::vector<std::string> lines;  // of the test file, whose cases' code the reports quote
    try {
        if (in_course) {
            lines = split_lines(read_file(course->test_file(exercise)));
        }
    } catch (const EnvironmentError&) {
        // An unreadable test file: no code to quote.
    }
    // Each case's line and code, from where the test program said its TEST_CASE is.
    const auto in_test_file = [&](const TestCaseResult& result) {
        return course != nullptr && !result.file.empty() &&
               fs::path(result.file).filename() == course->test_file(exercise).filename();
    };
    std::vector<int> case_lines;
    for (const TestCaseResult& result : run.events.cases) {
        if (in_test_file(result)) {
            case_lines.push_back(result.line);
        }
    }
    for (const TestCaseResult& result : run.events.cases) {
        if (result.needs_gpu() && !report.gpu_found && result.status != CaseStatus::kUnfinished) {
            report.gpu_found = result.status != CaseStatus::kSkipped;
        }
        if (result.status == CaseStatus::kSkipped) {
            report.skipped.push_back({result.name, result.skip_reason});
            continue;
        }
        CaseReport item;
        item.name = result.name;
        item.task_id = task_id(result.tags);
        item.duration_s = result.duration_s;
        item.timed = result.status != CaseStatus::kUnfinished;
        if (in_test_file(result)) {
            item.code = case_code(lines, case_lines, result.line);
        }
        // Reported passed but the exit status disagrees, or a refused report: no point for it.
        const bool contradicted =
            result.status == CaseStatus::kPassed && run.verdict == Verdict::kContradicted;
        if (contradicted || run.verdict == Verdict::kRefused) {
            set_verdict(item, Status::kError,
                        "Not counted: " + continue_sentence(report.summary) + ".",
                        contradicted ? "not counted: the exit status contradicts the report"
                                     : "not counted: the test report was refused",
                        contradicted ? "contradicted" : "forged");
        } else if (result.status != CaseStatus::kPassed) {
            describe_failed_case(context, learner_file, run, result, item);
        }
        report.cases.push_back(std::move(item));
    }
    for (const std::string& name : cases_not_run(run)) {
        CaseReport& item = report.cases.emplace_back();
        item.name = name;
        item.ran = false;
        item.timed = false;
        set_verdict(item, Status::kError,
                    "This test never ran: " + continue_sentence(report.summary) + ".",
                    "not run: the program stopped early", "not-run");
    }
    if (run.verdict != Verdict::kPassed && run.verdict != Verdict::kAllSkipped &&
        !trim(run.process.output).empty()) {
        report.output = tail_of(last_lines(run.process.output, kReportTailLines), kOutputTailLimit);
    }
    return report;
}

std::vector<ExerciseReport> describe_all(const Context& context,
                                         const std::vector<CheckOutcome>& outcomes) {
    std::vector<ExerciseReport> reports;
    std::ranges::transform(outcomes, std::back_inserter(reports),
                           [&](const CheckOutcome& outcome) { return describe(context, outcome); });
    return reports;
}

}  // namespace torchlings::runner
