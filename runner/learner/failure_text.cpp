/// @file
/// @brief The words `check` (and the reports built on it) use for a failure: where it happened,
/// what failed and with which values, why a run stopped early, and a build error's lines.
#include <algorithm>
#include <cctype>
#include <iterator>

#include "core/messages.h"
#include "learner/check.h"

namespace torchlings::runner {
namespace {

/// "file:line" with the file relative to the course root; empty when the file is unknown.
std::string source_location(const Context& context, const std::string& file, int line) {
    if (file.empty()) {
        return {};
    }
    return context.show(file) + (line > 0 ? ":" + std::to_string(line) : "");
}

/// Where an exception or a signal struck, e.g. "in REQUIRE( x ) at tests/a_test.cpp:12". Catch2
/// v2 records an assertion's location only once it has finished, so the site is the check being
/// evaluated (when Catch2 knows it), else the last check that finished, else the start of the
/// test case (macro "TEST_CASE"). Empty when the location is unknown.
std::string describe_site(const Context& context, const Failure& failure, Language language) {
    const std::string where = source_location(context, failure.file, failure.line);
    if (where.empty()) {
        return {};
    }
    if (failure.macro.empty()) {
        return message(language, Msg::kSiteAfter, {where});
    }
    if (failure.macro == "TEST_CASE") {
        return message(language, Msg::kSiteBefore, {where});
    }
    return message(language, Msg::kSiteIn, {failure.macro + "( " + failure.expr + " )", where});
}

}  // namespace

std::vector<std::string> cases_not_run(const TestProgramRun& run) {
    std::vector<std::string> missing;
    std::ranges::copy_if(run.all_cases, std::back_inserter(missing), [&](const std::string& name) {
        return std::ranges::find(run.events.cases, name, &TestCaseResult::name) ==
               run.events.cases.end();
    });
    return missing;
}

FailureText describe_failure(const Context& context, const std::string& learner_file,
                             const Failure& failure, Language language) {
    FailureText text;
    std::vector<std::string>& lines = text.lines;
    switch (failure.kind) {
        case FailureKind::kTodo:
            lines.push_back(message(language, Msg::kTodoLeft));
            text.key = lines.size();
            text.key_is_todo = true;
            lines.push_back("  " + failure.message);
            lines.push_back(message(
                language, Msg::kTodoReplace,
                {learner_file.empty() ? message(language, Msg::kTheExercise) : learner_file}));
            return text;
        case FailureKind::kException: {
            lines.push_back(message(language, Msg::kUncaughtException));
            text.key = lines.size();
            lines.push_back("  " + failure.message);
            const std::string site = describe_site(context, failure, language);
            if (!site.empty()) {
                lines.push_back(message(language, Msg::kThrownAt, {site}));
            }
            break;
        }
        case FailureKind::kAssertion:
        case FailureKind::kCrash:
            if (!failure.expr.empty()) {
                lines.push_back(failure.macro + "( " + failure.expr + " )");
                if (!failure.expanded.empty() && failure.expanded != failure.expr) {
                    lines.push_back(message(language, Msg::kWithValues));
                    lines.push_back("  " + failure.expanded);
                }
            } else if (!failure.macro.empty()) {
                lines.push_back(failure.macro);
            }
            if (!failure.message.empty()) {
                lines.push_back(failure.message);
            }
            break;
    }
    for (const std::string& info : failure.messages) {
        lines.push_back("info: " + info);
    }
    const std::string where = source_location(context, failure.file, failure.line);
    if (failure.kind != FailureKind::kException && !where.empty()) {
        lines.push_back(message(language, Msg::kAtLocation, {where}));
    }
    return text;
}

std::string stop_where(const TestProgramRun& run, Language language) {
    if (run.verdict == Verdict::kContradicted || run.verdict == Verdict::kRefused) {
        return {};
    }
    const TestCaseResult* running = run.events.interrupted_case();
    return running != nullptr ? message(language, Msg::kWhileRunning, {running->name})
                              : message(language, Msg::kBeforeAnyCase);
}

std::optional<StopText> stop_text(const TestProgramRun& run, Language language) {
    const int status = run.process.exit_code;
    switch (run.verdict) {
        case Verdict::kCrashed: {
            const std::string name = signal_name(run.process.signal);
            return StopText{message(language, Msg::kStopCrashed, {name}),
                            name + ": " + signal_meaning(run.process.signal, language), "crash"};
        }
        case Verdict::kTimedOut:
            return StopText{message(language, Msg::kStopTimedOut, {run.timeout_s}),
                            message(language, Msg::kStopTimeLimit, {run.timeout_s}), "timeout"};
        case Verdict::kExitedEarly:
            return StopText{message(language, Msg::kStopExited, {status}),
                            message(language, Msg::kStopExitCalled), "exit"};
        case Verdict::kExitedBeforeTests:
            return StopText{message(language, Msg::kStopExited, {status}),
                            message(language, Msg::kStopExitBeforeMain), "exit-before-main"};
        case Verdict::kContradicted:
            return StopText{message(language, Msg::kStopContradicted, {status}),
                            message(language, Msg::kStopContradictedWhy), "contradicted"};
        case Verdict::kRefused: {
            std::string why = run.refusal;
            if (!why.empty()) {
                why.front() =
                    static_cast<char>(std::toupper(static_cast<unsigned char>(why.front())));
            }
            return StopText{message(language, Msg::kStopRefused),
                            message(language, Msg::kStopRefusedWhy, {why}), "forged"};
        }
        default:
            return std::nullopt;
    }
}

std::string crash_site(const Context& context, const TestCaseResult* running, Language language) {
    if (running == nullptr) {
        return {};
    }
    for (const Failure& failure : running->failures) {
        const std::string site = describe_site(context, failure, language);
        if (failure.kind == FailureKind::kCrash && !site.empty()) {
            return message(language, Msg::kHappenedAt, {site});
        }
    }
    return {};
}

std::vector<std::string> build_error_lines(const Context& context, const CheckOutcome& outcome) {
    std::vector<std::string> lines;
    const std::optional<CompilerError>& error = outcome.compile_error;
    if (!error) {
        lines.emplace_back("The build failed without a recognisable error message; see the log.");
    } else {
        const std::string where = source_location(context, error->file, error->line);
        if (where.empty()) {
            lines.push_back(error->headline);  // a linker or tool error
        } else {
            const std::string column = error->column > 0 ? ":" + std::to_string(error->column) : "";
            lines.push_back(where + column + ": error: " + error->message);
        }
        lines.insert(lines.end(), error->context.begin(), error->context.end());
        if (!error->in_learner_file && !error->origin_file.empty()) {
            lines.push_back("(the error is in another file; your file leads to it at " +
                            source_location(context, error->origin_file, error->origin_line) + ")");
        }
    }
    lines.push_back("Full build log: " + context.show(outcome.build.log_path));
    return lines;
}

}  // namespace torchlings::runner
