/// @file
/// @brief `test`: the whole build, then every CTest test; the same two commands CI runs.
#include <algorithm>
#include <csignal>
#include <ostream>
#include <string>
#include <thread>

#include "core/process.h"
#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace {

/// Runs a command on the terminal, echoing it first so that it can be repeated by hand.
ProcessResult run_visibly(Context& context, std::vector<std::string> argv) {
    context.out() << context.style().dim("$ " + join(argv, " ")) << "\n" << std::flush;
    ProcessResult result =
        run_process({std::move(argv), context.root(), OutputMode::kInherit, std::nullopt});
    if (result.signal == SIGINT) {
        throw Interrupted();
    }
    return result;
}

}  // namespace

ExitCode suite_command(Context& context, const std::vector<std::string>& ctest_args) {
    context.require_configured_build();
    const std::string build_dir = context.build_dir().string();
    if (!run_visibly(context, {context.cmake().string(), "--build", build_dir}).succeeded()) {
        context.out() << context.style().bad("The build failed") << "; the first error is above.\n";
        return ExitCode::kBuildError;
    }
    // One test more than there are processors: much of a test's time goes to starting processes
    // and waiting for them (on two cores the whole suite took 319 s at -j 3, 364 s at -j 2).
    const unsigned processors = std::max(2U, std::thread::hardware_concurrency());
    std::vector<std::string> argv{
        context.ctest().string(),       "--test-dir",      build_dir, "--output-on-failure", "-j",
        std::to_string(processors + 1), "--no-tests=error"};
    argv.insert(argv.end(), ctest_args.begin(), ctest_args.end());
    return run_visibly(context, std::move(argv)).succeeded() ? ExitCode::kOk
                                                             : ExitCode::kTestsFailed;
}

}  // namespace torchlings::runner
