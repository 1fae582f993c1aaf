/// @file
/// @brief Building exercise targets and running their test programs.
#include "core/exercise_run.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <system_error>

#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// The most output of a test program kept (the end of it); only its tail is ever shown.
constexpr std::size_t kTestOutputLimit = 1 << 20;

/// Time allowed for listing the test cases of a program that stopped early.
constexpr std::chrono::seconds kListTimeout{20};

/// Whether a test program is started in the sandbox: always asked for. Where the sandbox cannot
/// start, says so in one line, the first time in this runner process (unless it was turned off).
void note_sandbox(Context& context) {
    static bool told = false;
    const Sandbox& level = sandbox();
    if (!level.active && level.user == 0 && !level.turned_off && !told) {
        told = true;
        const std::string why = level.description.substr(level.description.find(": ") + 2);
        context.err() << context.style().warn(context.message(Msg::kNoSandbox, {why})) << "\n";
    }
}

/// Names the grading run's seed (if any) in the environment of a test program (core/test_seed.h),
/// so that its tests draw their hidden inputs from it.
void give_test_seed(const Context& context, ProcessSpec& spec) {
    if (context.fixed_test_inputs()) {
        spec.environment.emplace_back(kTestSeedVariable, "");
    } else if (const std::optional<TestSeed>& seed = context.test_seed()) {
        spec.environment.emplace_back(kTestSeedVariable, std::to_string(seed->value));
    }
}

/// The cases a test program declares, in declaration order: its course main's own listing
/// (tests/support/catch_main.cpp), the same with Catch2 v2 and v3.
std::vector<ListedCase> list_program_cases(Context& context, const fs::path& program) {
    note_sandbox(context);
    ProcessSpec spec{{program.string(), "--list-cases-for-ctest"},
                     context.root(),
                     OutputMode::kCapture,
                     kListTimeout};
    spec.sandboxed = true;  // ex_<id> holds the learner's code, which runs before main()
    give_test_seed(context, spec);
    const ProcessResult listed = run_process(spec);
    std::vector<ListedCase> cases;
    // Only a signal or timeout is a failure: a program that exits before listing lists nothing.
    if (listed.timed_out || listed.signal != 0) {
        return cases;
    }
    // Each line is "gpu" or "any", a tab, the name.
    for (const std::string& line : split_lines(listed.output)) {
        for (std::string_view kind : {"gpu\t", "any\t"}) {
            if (line.size() > kind.size() && line.starts_with(kind)) {
                cases.push_back({line.substr(kind.size()), kind == "gpu\t"});
            }
        }
    }
    return cases;
}

}  // namespace

std::vector<ListedCase> declared_cases(Context& context, const Exercise& exercise) {
    const std::string target = "ex_" + exercise.id + "_cases";
    try {
        if (!build_target(context, target).ok) {
            return {};
        }
    } catch (const EnvironmentError&) {
        return {};  // a build folder without listing programs (configured by an older course)
    }
    return list_program_cases(context, context.binary(target));
}

std::vector<const Exercise*> select_exercises(const Course& course,
                                              const std::vector<std::string>& targets, bool all,
                                              std::string_view verb) {
    std::vector<const Exercise*> selected;
    if (all) {
        for (const Exercise& exercise : course.exercises()) {
            selected.push_back(&exercise);
        }
        return selected;
    }
    if (targets.empty()) {
        throw UsageError("Say which exercise: " + std::string(kCommand) + " " + std::string(verb) +
                         " <id>, a lesson number, or --all.\n" + course.describe_ids());
    }
    for (const std::string& target : targets) {
        for (const Exercise* exercise : course.resolve(target)) {
            if (std::ranges::find(selected, exercise) == selected.end()) {
                selected.push_back(exercise);
            }
        }
    }
    return selected;
}

std::string forgery_reason(const TestRun& events) {
    if (events.forged_lines > 0) {
        return std::to_string(events.forged_lines) +
               (events.forged_lines == 1 ? " line" : " lines") +
               " of its test report did not come from the course's reporter (no valid signature "
               "for this run), so the report was refused";
    }
    if (events.counts_disagree) {
        return "its test report's totals contradict its own test cases, so the report was refused";
    }
    const std::vector<std::string> empty = events.passed_without_assertions();
    if (!empty.empty()) {
        std::string names;
        for (const std::string& name : empty) {
            names += (names.empty() ? "\"" : ", \"") + name + "\"";
        }
        return std::to_string(empty.size()) + (empty.size() == 1 ? " test case" : " test cases") +
               " passed without running any of its checks (" + names +
               "), which no answer can make happen: the test's own code was changed while it "
               "ran, so the report was refused";
    }
    return "";
}

Verdict classify(const ProcessResult& process, const TestRun& events) {
    if (events.forged()) {
        return Verdict::kRefused;  // whatever else happened: the report is not the reporter's
    }
    if (process.timed_out) {
        return Verdict::kTimedOut;
    }
    if (process.signal != 0) {
        return Verdict::kCrashed;
    }
    if (!events.started) {
        return Verdict::kNoReport;
    }
    if (!events.finished) {
        return Verdict::kExitedEarly;
    }
    if (events.cases.empty()) {
        return Verdict::kNoTests;
    }
    if (events.first_failure() != nullptr) {
        return Verdict::kFailed;
    }
    if (process.exit_code != 0) {
        return Verdict::kContradicted;  // a pass needs the exit status to agree
    }
    return events.count(CaseStatus::kPassed) == 0 ? Verdict::kAllSkipped : Verdict::kPassed;
}

TestProgramRun run_test_program(Context& context, const Exercise& exercise,
                                std::string_view program_name) {
    const std::string name = program_name.empty() ? "ex_" + exercise.id : std::string(program_name);
    const fs::path program = context.binary(name);
    std::error_code error;
    if (!fs::exists(program, error)) {
        throw EnvironmentError(
            "The test program " + context.show(program) + " does not exist.",
            "cmake --build " + context.show(context.build_dir()) + " --target " + name);
    }
    // Events come through a pipe of this run's own, not stdout (whatever the learner's code
    // prints cannot garble them) and not a file (no other run can read them, and nothing can
    // rewrite them once the tests have ended).
    TestProgramRun run;
    run.timeout_s = exercise.timeout_s;
    ProcessSpec spec{{program.string(), "--reporter", "torchlings"},
                     context.root(),
                     OutputMode::kCapture,
                     std::chrono::seconds(exercise.timeout_s),
                     kTestOutputLimit,
                     /*events_pipe=*/true};
    // A fresh key per run: only the reporter, which takes it before the learner's code runs,
    // can sign the lines (tests/support/catch_main.cpp).
    spec.events_key = make_event_key();
    spec.sandboxed = true;
    give_test_seed(context, spec);
    note_sandbox(context);
    run.process = run_process(spec);
    note_sandbox(context);  // where the separate user could not run it after all
    run.events = parse_test_events(run.process.events, spec.events_key);
    run.verdict = classify(run.process, run.events);
    run.refusal = forgery_reason(run.events);
    if (run.verdict == Verdict::kCrashed || run.verdict == Verdict::kTimedOut ||
        run.verdict == Verdict::kExitedEarly || run.verdict == Verdict::kNoReport) {
        std::ranges::transform(list_program_cases(context, program),
                               std::back_inserter(run.all_cases), &ListedCase::name);
    }
    // Silent even when only listing its tests, and ended by itself: it never reaches main().
    if (run.verdict == Verdict::kNoReport && run.all_cases.empty() && run.process.exit_code >= 0) {
        run.verdict = Verdict::kExitedBeforeTests;
    }
    return run;
}

std::string run_problem(const TestProgramRun& run, std::string_view subject) {
    const TestCaseResult* running = run.events.interrupted_case();
    const std::string where = running != nullptr ? " (in \"" + running->name + "\")" : "";
    const std::string who(subject);
    switch (run.verdict) {
        case Verdict::kCrashed:
            return who +
                   " must fail by assertion, not by crashing: " + signal_name(run.process.signal) +
                   where;
        case Verdict::kTimedOut:
            return who + " must fail by assertion, not by hanging: stopped after " +
                   std::to_string(run.timeout_s) + " s" + where;
        case Verdict::kExitedEarly:
            return who + " must fail by assertion, not by exiting: exit status " +
                   std::to_string(run.process.exit_code) + where;
        case Verdict::kNoReport:
            return "the test program reported nothing (exit status " +
                   std::to_string(run.process.exit_code) + "); is it a torchlings test program?";
        case Verdict::kNoTests:
            return "the test program has no test cases";
        case Verdict::kExitedBeforeTests:
            return "the test program exits before its tests start (exit status " +
                   std::to_string(run.process.exit_code) + ")";
        case Verdict::kContradicted:
            return "the test program's exit status (" + std::to_string(run.process.exit_code) +
                   ") contradicts its report";
        case Verdict::kRefused:
            return who + " was refused: " + run.refusal;
        default:
            return {};
    }
}

std::string failed_case_problem(const TestCaseResult& result, std::string_view subject) {
    if (result.crashed()) {
        return "\"" + result.name + "\": " + std::string(subject) +
               " must fail by assertion, not by crashing";
    }
    return result.failures.empty()
               ? "\"" + result.name + "\" failed without an assertion or exception"
               : "";
}

}  // namespace torchlings::runner
