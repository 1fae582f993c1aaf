/// @file
/// @brief Building exercise targets and running their test programs.
#include "tl_runner/exercise_run.h"

#include <chrono>
#include <ostream>
#include <system_error>

#include "tl_runner/compiler_log.h"
#include "tl_runner/errors.h"
#include "tl_runner/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// The most output of a test program kept (the end of it); only its tail is ever shown.
constexpr std::size_t kTestOutputLimit = 1 << 20;

/// Time allowed for listing the test cases of a program that stopped early.
constexpr std::chrono::seconds kListTimeout{20};

/// The case names a Catch2 v2 program declares, in declaration order.
std::vector<std::string> list_cases(const fs::path& program, const fs::path& cwd) {
    ProcessSpec spec{{program.string(), "--list-test-names-only"},
                     cwd,
                     OutputMode::kCapture,
                     std::chrono::milliseconds(kListTimeout)};
    const ProcessResult listed = run_process(spec);
    std::vector<std::string> names;
    // Catch2 v2 exits with the number of cases listed, so only a signal or timeout is a failure.
    if (listed.timed_out || listed.signal != 0) {
        return names;
    }
    for (const std::string& line : split_lines(listed.output)) {
        if (!trim(line).empty()) {
            names.push_back(line);
        }
    }
    return names;
}

}  // namespace

BuildResult build_target(Context& context, std::string_view target, const fs::path& log_path) {
    context.require_configured_build();
    ProcessSpec spec{{context.cmake().string(), "--build", context.build_dir().string(), "--target",
                      std::string(target)},
                     {},
                     OutputMode::kCapture,
                     std::nullopt};
    const ProcessResult process = run_process(spec);
    BuildResult result;
    result.ok = process.succeeded();
    result.log = process.output;
    result.log_path = log_path;
    result.seconds = process.seconds;
    // Ninja: "ninja: error: unknown target 'ex_x'"; Make: "No rule to make target 'ex_x'".
    result.unknown_target =
        !result.ok && (result.log.find("unknown target") != std::string::npos ||
                       result.log.find("No rule to make target") != std::string::npos);
    try {
        write_file(log_path, result.log);
    } catch (const EnvironmentError& error) {
        context.err() << context.style().warn("warning: ") << error.what() << "\n";
    }
    // Ninja re-runs CMake first when a CMakeLists.txt or exercises/info.json changed; when that
    // fails, nothing was compiled, and the problem is the course set-up, not the learner's code.
    if (!result.ok && result.log.find("rebuilding 'build.ninja'") != std::string::npos) {
        const std::optional<CompilerError> error = first_error(result.log, {}, context.build_dir());
        std::string what = "CMake could not re-configure " + context.show(context.build_dir()) +
                           ", so nothing was built.";
        if (error) {
            what += "\n  " + error->headline;
            for (const std::string& line : error->context) {
                what += "\n  " + line;
            }
        }
        throw EnvironmentError(
            what + "\n  Full log: " + context.show(log_path),
            "cmake " + context.show(context.build_dir()) + "   (shows the whole configure output)");
    }
    return result;
}

BuildResult build_finishing_line(Context& context, std::string_view target,
                                 const fs::path& log_path) {
    try {
        return build_target(context, target, log_path);
    } catch (...) {
        context.out() << "\n" << std::flush;  // end the "building ..." line before the error
        throw;
    }
}

Verdict classify(const ProcessResult& process, const TestRun& events) {
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
    if (events.count(CaseStatus::kPassed) == 0) {
        return Verdict::kAllSkipped;
    }
    return Verdict::kPassed;
}

TestProgramRun run_test_program(Context& context, const Exercise& exercise) {
    const fs::path program = context.binary("ex_" + exercise.id);
    std::error_code error;
    if (!fs::exists(program, error)) {
        throw EnvironmentError(
            "The test program " + context.show(program) + " does not exist.",
            "cmake --build " + context.show(context.build_dir()) + " --target ex_" + exercise.id);
    }
    // Events go to a file, not stdout: whatever the learner's code prints cannot garble them.
    const fs::path events_path =
        context.build_dir() / "logs" / ("ex_" + exercise.id + ".events.jsonl");
    fs::create_directories(events_path.parent_path(), error);
    fs::remove(events_path, error);

    TestProgramRun run;
    run.timeout_s = exercise.timeout_s;
    ProcessSpec spec{{program.string(), "--reporter", "torchlings", "--out", events_path.string()},
                     context.root(),
                     OutputMode::kCapture,
                     std::chrono::seconds(exercise.timeout_s),
                     kTestOutputLimit};
    run.process = run_process(spec);
    std::string events_text;
    if (fs::exists(events_path, error)) {
        events_text = read_file(events_path);
    }
    run.events = parse_test_events(events_text);
    run.verdict = classify(run.process, run.events);
    if (run.verdict == Verdict::kCrashed || run.verdict == Verdict::kTimedOut ||
        run.verdict == Verdict::kExitedEarly) {
        run.all_cases = list_cases(program, context.root());
    }
    return run;
}

}  // namespace torchlings::runner
