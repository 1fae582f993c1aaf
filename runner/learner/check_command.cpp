/// @file
/// @brief `check`: build an exercise, run its tests, and explain the first problem precisely.
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <ostream>
#include <system_error>

#include "core/assertion_counts.h"
#include "core/hashing.h"
#include "core/messages.h"
#include "core/mistake_catalogue.h"
#include "core/text.h"
#include "learner/check.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// The run's passing cases against the reference solution's record (core/assertion_counts.h):
/// "fewer-assertions" when one ran fewer; "assertions-not-compared" when the record could not be
/// read, which never stops a check (a grader refuses an edited record through the manifest).
std::optional<IntegrityFlag> assertions_flag(const AssertionRecord& record,
                                             const Exercise& exercise, const TestRun& events) {
    if (!record.unreadable.empty()) {
        return IntegrityFlag{"assertions-not-compared", record.unreadable, /*refused=*/false};
    }
    const auto entry = record.counts.find(exercise.id);
    return fewer_assertions_flag(
        events, entry == record.counts.end() ? std::map<std::string, int>{} : entry->second);
}

/// How many lines of a failing test program's own output to show.
constexpr std::size_t kOutputTailLines = 20;

/// The line for one test case: mark, name, and why it was skipped or stopped.
void report_case(const Context& context, const TestProgramRun& run, const TestCaseResult& result) {
    const Style& style = context.style();
    const bool trusted = run.verdict != Verdict::kContradicted && run.verdict != Verdict::kRefused;
    if (result.status == CaseStatus::kPassed && trusted) {
        context.out() << "  " << style.good(style.pass_mark()) << " " << result.name << "\n";
        return;
    }
    std::string mark = style.bad(style.fail_mark());
    std::string note;
    if (result.status == CaseStatus::kPassed) {
        note = context.message(Msg::kCaseNotTrusted);
    } else if (result.status == CaseStatus::kSkipped) {
        mark = style.warn(style.skip_mark());
        note = context.message(Msg::kCaseSkipped, {result.skip_reason});
    } else if (&result == run.events.interrupted_case()) {
        const std::map<Verdict, Msg> notes{{Verdict::kTimedOut, Msg::kCaseStoppedHere},
                                           {Verdict::kCrashed, Msg::kCaseCrashedHere},
                                           {Verdict::kExitedEarly, Msg::kCaseExitedHere}};
        if (const auto found = notes.find(run.verdict); found != notes.end()) {
            note = context.message(found->second);
        }
    }
    context.out() << "  " << mark << " " << result.name << style.dim(note) << "\n";
}

void report_failure(Context& context, const Exercise& exercise, const TestCaseResult& result) {
    std::ostream& out = context.out();
    const Style& style = context.style();
    out << "\n"
        << context.message(Msg::kFirstFailure,
                           {style.bold(context.message(Msg::kFirstFailureWords)), result.name})
        << "\n";
    if (result.failures.empty()) {
        out << context.message(Msg::kFailedWithoutAssertion) << "\n";
        return;
    }
    const FailureText text =
        describe_failure(context, context.show(context.course().learner_file(exercise)),
                         result.failures.front(), context.language());
    for (std::size_t i = 0; i < text.lines.size(); ++i) {
        const std::string& line = text.lines[i];
        out << "  "
            << (i != text.key      ? line
                : text.key_is_todo ? style.warn(line)
                                   : style.bad(line))
            << "\n";
    }
}

/// When the failed cases, and how they failed, are those of a catalogued mistake of the exercise:
/// its title and why, in one short block. A catalogue that does not read is not the learner's
/// problem: then nothing is said.
void report_known_mistake(Context& context, const Exercise& exercise, const TestProgramRun& run) {
    if (run.verdict != Verdict::kFailed && run.verdict != Verdict::kCrashed &&
        run.verdict != Verdict::kTimedOut) {
        return;
    }
    // The catalogue's signatures are the failures on the fixed inputs; drawn ones fail other
    // cases too, and would match another mistake's signature.
    if (context.draws_test_inputs()) {
        return;
    }
    std::vector<Mistake> mistakes;
    try {
        mistakes = find_mistakes(context.course(), exercise);
    } catch (const EnvironmentError&) {
        return;
    }
    const std::vector<const Mistake*> known = matching_mistakes(mistakes, run);
    if (known.empty()) {
        return;
    }
    std::ostream& out = context.out();
    const Style& style = context.style();
    if (known.size() == 1) {
        out << "\n" << style.warn(context.message(Msg::kKnownMistake, {known[0]->title})) << "\n";
        for (const std::string& paragraph : known[0]->why) {
            out << "  " << paragraph << "\n";
        }
        return;
    }
    // The same cases fail the same way for several mistakes: their titles, to choose from.
    out << "\n" << style.warn(context.message(Msg::kKnownMistakes)) << "\n";
    for (const Mistake* mistake : known) {
        out << "  - " << mistake->title << "\n";
    }
}

/// The sentence about a run that stopped early, or nothing.
void report_stopped_run(Context& context, const TestProgramRun& run) {
    const Language language = context.language();
    const std::optional<StopText> stop = stop_text(run, language);
    if (!stop) {
        return;
    }
    std::ostream& out = context.out();
    out << "\n"
        << context.style().bad(
               message(language, Msg::kStopLine, {stop->headline, stop_where(run, language)}))
        << "\n  " << stop->detail << "\n";
    if (const std::string site = crash_site(context, run.events.interrupted_case(), language);
        !site.empty()) {
        out << "  " << site << "\n";
    }
}

/// The summary line, e.g. "choose_device: 2/5 tests passed, 1 skipped".
void report_summary(Context& context, const Exercise& exercise, const TestProgramRun& run) {
    const Style& style = context.style();
    const int passed = run.events.count(CaseStatus::kPassed);
    const int skipped = run.events.count(CaseStatus::kSkipped);
    const int total = static_cast<int>(std::max(run.events.cases.size(), run.all_cases.size()));
    std::string summary = context.message(Msg::kTestsPassed, {exercise.id, passed, total});
    if (skipped > 0) {
        summary += context.message(Msg::kTestsSkipped, {skipped});
    }
    std::string line = style.bad(summary);
    if (run.verdict == Verdict::kPassed) {
        line = style.good(context.message(Msg::kDone, {summary}));
    } else if (run.verdict == Verdict::kContradicted) {
        line = style.bad(
            context.message(Msg::kNotPassedContradicted, {exercise.id, run.process.exit_code}));
    } else if (run.verdict == Verdict::kRefused) {
        line = style.bad(context.message(Msg::kNotPassedRefused, {exercise.id, run.refusal}));
    } else if (run.verdict == Verdict::kAllSkipped) {
        line = style.warn(context.message(Msg::kAllSkipped, {exercise.id, skipped, total}));
    }
    context.out() << "\n" << line << "\n";
}

void report_run(Context& context, const Exercise& exercise, const TestProgramRun& run) {
    std::ostream& out = context.out();
    if (run.verdict == Verdict::kNoReport) {
        throw EnvironmentError(
            "The test program " + context.show(context.binary("ex_" + exercise.id)) +
                " reported no results (exit status " + std::to_string(run.process.exit_code) +
                "). Its output:\n" +
                indent(with_visible_controls(last_lines(run.process.output, kOutputTailLines)),
                       "  "),
            "cmake --build " + context.show(context.build_dir()) + " --target ex_" + exercise.id);
    }
    for (const TestCaseResult& result : run.events.cases) {
        report_case(context, run, result);
    }
    for (const std::string& name : cases_not_run(run)) {
        out << "  " << context.style().dim(context.message(Msg::kCaseNotRun, {name})) << "\n";
    }
    if (run.verdict == Verdict::kNoTests) {
        out << context.message(Msg::kNoTestCasesRan) << "\n";
    }

    if (const TestCaseResult* failed = run.events.first_failure();
        run.verdict == Verdict::kFailed && failed != nullptr) {
        report_failure(context, exercise, *failed);
    }
    if (run.verdict != Verdict::kRefused) {
        report_stopped_run(context, run);  // a refused run: the summary line says why
        report_known_mistake(context, exercise, run);
    }
    if (run.verdict != Verdict::kPassed && run.verdict != Verdict::kAllSkipped &&
        !trim(run.process.output).empty()) {
        out << "\n"
            << context.message(Msg::kProgramOutput, {kOutputTailLines}) << "\n"
            << indent(with_visible_controls(last_lines(run.process.output, kOutputTailLines)),
                      "  | ");
    }
    report_summary(context, exercise, run);
}

/// After a pass: prints the command for the exercise that comes next in the course.
void suggest_next(Context& context, const Exercise& passed) {
    const std::vector<Exercise>& all = context.course().exercises();
    const auto found = std::ranges::find(all, passed.id, &Exercise::id);
    if (found == all.end() || found + 1 == all.end()) {
        context.out() << context.message(Msg::kLastExercise) << "\n";
        return;
    }
    const Exercise& next = *(found + 1);
    context.out() << context.message(Msg::kNext, {kCommand, next.id});
    if (next.lesson != passed.lesson) {
        context.out() << context.message(Msg::kLessonBegins, {next.lesson});
    }
    context.out() << "\n";
}

}  // namespace

AssertionRecord read_assertion_record(const Context& context) {
    AssertionRecord record;
    try {
        record.counts = read_assertion_counts(context.root() / kAssertionCounts);
    } catch (const EnvironmentError& error) {
        record.unreadable = error.what();
    }
    return record;
}

CheckOutcome check_exercise(Context& context, const Exercise& exercise, bool built,
                            const AssertionRecord* record) {
    std::ostream& out = context.out();
    const Style& style = context.style();
    const fs::path learner = context.course().learner_file(exercise);
    std::error_code error;
    if (fs::is_directory(learner, error)) {
        throw EnvironmentError("The exercise file " + context.show(learner) +
                                   " is a folder, not a file, so there is nothing to build.",
                               "mv " + context.show(learner) + " " + context.show(learner) +
                                   ".folder && " + std::string(kCommand) + " reset --yes " +
                                   exercise.id + "   (keeps the folder, restores the stub)");
    }
    if (!fs::exists(learner, error)) {
        throw EnvironmentError("The exercise file " + context.show(learner) + " is missing.",
                               std::string(kCommand) + " reset " + exercise.id);
    }
    // The hash is taken before the build: a save during the build must not count as checked.
    const std::string source_hash = sha256_file_or_empty(learner);
    out << context.message(Msg::kCheckHeader,
                           {style.bold(exercise.id), exercise.lesson, exercise.title})
        << "\n";
    CheckOutcome outcome;
    outcome.exercise = &exercise;
    if (built) {
        outcome.build.ok = true;
    } else {
        outcome.build = build_target(context, "ex_" + exercise.id);
    }
    if (!outcome.build.ok) {
        outcome.compile_error = first_error(outcome.build.log, learner, context.build_dir());
        const std::vector<std::string> lines = build_error_lines(context, outcome);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            out << "  " << (i == 0 ? style.bad(lines[i]) : lines[i]) << "\n";
        }
        out << "\n" << style.bad(context.message(Msg::kBuildError, {exercise.id})) << "\n";
        outcome.code = ExitCode::kBuildError;
        outcome.status = ExerciseStatus::kBuildError;
    } else {
        // The record is read before the learner's code runs (where there is no sandbox, that
        // code could write over it).
        const AssertionRecord own =
            record != nullptr ? AssertionRecord{} : read_assertion_record(context);
        outcome.run = run_test_program(context, exercise);
        outcome.flags = scan_learner_file(context, exercise);
        if (auto flag =
                assertions_flag(record != nullptr ? *record : own, exercise, outcome.run->events)) {
            outcome.flags.push_back(std::move(*flag));
        }
        // What the file could have done to the reporter, though the report verified.
        if (const std::string refused = refusal_text(outcome.flags); !refused.empty()) {
            TestProgramRun& run = *outcome.run;
            run.refusal =
                run.verdict == Verdict::kRefused ? run.refusal + "; and " + refused : refused;
            run.verdict = Verdict::kRefused;
        }
        report_run(context, exercise, *outcome.run);
        const Verdict verdict = outcome.run->verdict;
        outcome.code = verdict == Verdict::kPassed       ? ExitCode::kOk
                       : verdict == Verdict::kAllSkipped ? ExitCode::kAllSkipped
                                                         : ExitCode::kTestsFailed;
        outcome.status = verdict == Verdict::kPassed       ? ExerciseStatus::kDone
                         : verdict == Verdict::kAllSkipped ? ExerciseStatus::kSkipped
                                                           : ExerciseStatus::kFailing;
    }
    if ((outcome.code == ExitCode::kBuildError || outcome.code == ExitCode::kTestsFailed) &&
        !exercise.hints.empty()) {
        out << context.message(Msg::kStuck, {kCommand, exercise.id}) << "\n";
    }
    context.state().record_check(exercise.id, outcome.status, source_hash);
    context.save_state();
    return outcome;
}

CheckRun check_exercises(Context& context, const std::vector<const Exercise*>& exercises,
                         bool all) {
    context.require_configured_build();
    // Several exercises: one build call for all of them, which the build tool runs in parallel.
    // When it fails (or cannot start), each exercise is built on its own below, so that each
    // build error is reported with its exercise; the ones already built cost nothing then.
    bool all_built = false;
    if (exercises.size() > 1) {
        std::vector<std::string> targets;
        std::ranges::transform(exercises, std::back_inserter(targets),
                               [](const Exercise* exercise) { return "ex_" + exercise->id; });
        try {
            all_built = build_targets(context, targets,
                                      context.message(Msg::kBuildExercises, {exercises.size()}))
                            .ok;
        } catch (const EnvironmentError&) {
            // Reported exercise by exercise below.
        }
        context.out() << "\n";
    }
    // Once for every exercise, before any learner's code runs.
    const AssertionRecord record = read_assertion_record(context);
    CheckRun checked;
    std::optional<ExitCode> overall;
    for (const Exercise* exercise : exercises) {
        if (overall) {
            context.out() << "\n";
        }
        try {
            checked.outcomes.push_back(check_exercise(context, *exercise, all_built, &record));
        } catch (const EnvironmentError& problem) {
            // One exercise that cannot be checked stops neither the others nor the reports.
            context.out() << context.style().bad(
                                 context.message(Msg::kCannotBeChecked, {exercise->id}))
                          << "\n";
            context.err() << "error: " << problem.what() << "\n";
            if (!problem.fix().empty()) {
                context.err() << "fix:   " << problem.fix() << "\n";
            }
            CheckOutcome& outcome = checked.outcomes.emplace_back();
            outcome.exercise = exercise;
            outcome.code = ExitCode::kEnvironment;
            outcome.problem = problem;
        }
        const ExitCode code = checked.outcomes.back().code;
        overall = overall ? most_serious(*overall, code) : code;
    }
    if (exercises.size() == 1 && overall == ExitCode::kOk) {
        suggest_next(context, *exercises.front());
    }
    if (exercises.size() > 1) {
        const auto done = std::ranges::count(checked.outcomes, ExitCode::kOk, &CheckOutcome::code);
        context.out() << "\n"
                      << context.style().bold(
                             context.message(Msg::kCheckedMany, {exercises.size(), done}))
                      << "\n";
        if (all && done == std::ssize(exercises)) {
            context.out() << context.style().good(context.message(Msg::kCoursePasses)) << "\n";
        }
    }
    checked.code = overall.value_or(ExitCode::kOk);
    return checked;
}

ExitCode check_command(Context& context, const CheckOptions& options) {
    const std::vector<const Exercise*> exercises =
        select_exercises(context.course(), options.targets, options.all, "check");
    return check_exercises(context, exercises, options.all).code;
}

}  // namespace torchlings::runner
