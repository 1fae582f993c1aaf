/// @file
/// @brief `run NN`: build a lesson's demo quietly, then hand it the terminal.
#include <ostream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/exercise_run.h"
#include "core/process.h"
#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// How a lesson that runs as several processes is started: CMake writes <bin>/lesson_NN.launch
/// (`processes=N`, `torchrun=<path or empty>`, `no_torchrun=<why>` where it is known) for a
/// lesson declared with torchlings_add_lesson(PROCESSES N). Returns the launcher's argv, empty
/// for a plain program.
std::vector<std::string> launcher(Context& context, const fs::path& program,
                                  const RunOptions& options) {
    const fs::path declaration = program.string() + ".launch";
    std::error_code error;
    if (!fs::exists(declaration, error)) {
        if (options.processes > 0) {
            throw UsageError("lesson " + options.lesson +
                             " runs as one process: --processes is for lessons launched by "
                             "torchrun");
        }
        return {};
    }
    std::string processes = "1";
    std::string torchrun;
    std::string why = "It comes with the torch Python package.";
    for (const std::string& line : split_lines(read_file(declaration))) {
        if (line.starts_with("processes=")) {
            processes = trim(line.substr(10));
        } else if (line.starts_with("torchrun=")) {
            torchrun = trim(line.substr(9));
        } else if (line.starts_with("no_torchrun=")) {
            why = trim(line.substr(12));
        }
    }
    if (options.processes > 0) {
        processes = std::to_string(options.processes);
    }
    if (torchrun.empty()) {
        context.err() << context.style().warn(
                             "no torchrun in this build: running one process alone.")
                      << " (" << why << ")\n";
        return {};
    }
    // --standalone: a rendezvous on this machine, on a free port (no clash with another job).
    std::vector<std::string> argv{torchrun, "--standalone", "--no-python",
                                  "--nproc-per-node=" + processes};
    context.err() << context.style().dim("$ " + join(argv, " ") + " " + context.show(program) +
                                         " ...")
                  << "\n";
    return argv;
}

}  // namespace

int run_command(Context& context, const RunOptions& options) {
    const Lesson& lesson = context.course().resolve_lesson(options.lesson);
    const std::string target = "lesson_" + lesson.number;
    std::ostream& out = context.out();
    const Style& style = context.style();

    const fs::path program = context.binary(target);
    // Read before building: the declaration comes from configuring, and a bad --processes
    // should not wait for a build.
    std::vector<std::string> argv = launcher(context, program, options);
    const BuildResult build = build_target(context, target);
    if (!build.ok) {
        out << build.log << style.bad(target + " did not build.")
            << " Full log: " << context.show(build.log_path) << "\n";
        return static_cast<int>(ExitCode::kBuildError);
    }

    std::error_code error;
    if (!fs::exists(program, error)) {
        throw EnvironmentError(
            "The lesson program " + context.show(program) + " does not exist after building.",
            "cmake --build " + context.show(context.build_dir()) + " --target " + target);
    }
    ProcessSpec spec{std::move(argv), context.root(), OutputMode::kInherit, std::nullopt};
    spec.argv.insert(spec.argv.end(), {program.string(), "--device", options.device});
    spec.argv.insert(spec.argv.end(), options.extra_args.begin(), options.extra_args.end());
    out << std::flush;
    const ProcessResult result = run_process(spec);
    if (result.signal != 0) {
        context.err() << style.bad(target + " crashed with " + signal_name(result.signal)) << " ("
                      << signal_meaning(result.signal) << ")\n";
        return 128 + result.signal;
    }
    return result.exit_code;
}

}  // namespace torchlings::runner
