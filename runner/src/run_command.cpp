/// @file
/// @brief `run NN`: build a lesson's demo quietly, then hand it the terminal.
#include <ostream>
#include <system_error>

#include "tl_runner/commands.h"
#include "tl_runner/exercise_run.h"
#include "tl_runner/process.h"
#include "tl_runner/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

int run_command(Context& context, const RunOptions& options) {
    const Lesson& lesson = context.course().resolve_lesson(options.lesson);
    const std::string target = "lesson_" + lesson.number;
    std::ostream& out = context.out();
    const Style& style = context.style();

    const BuildResult build = build_target(context, target);
    if (!build.ok) {
        out << build.log << style.bad(target + " did not build.")
            << " Full log: " << context.show(build.log_path) << "\n";
        return static_cast<int>(ExitCode::kBuildError);
    }

    const fs::path program = context.binary(target);
    std::error_code error;
    if (!fs::exists(program, error)) {
        throw EnvironmentError(
            "The lesson program " + context.show(program) + " does not exist after building.",
            "cmake --build " + context.show(context.build_dir()) + " --target " + target);
    }
    ProcessSpec spec{{program.string(), "--device", options.device},
                     context.root(),
                     OutputMode::kInherit,
                     std::nullopt};
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
