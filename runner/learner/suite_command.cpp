/// @file
/// @brief `test`: the whole build, then every CTest test; the same two commands CI runs.
#if defined(__linux__)
#include <sched.h>
#endif

#include <algorithm>
#include <csignal>
#include <cstdlib>
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

/// The processors this process may run on: its affinity mask where Linux keeps one (a container
/// started with --cpuset-cpus), else all of the machine's; at least 1.
unsigned usable_processors() {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
    }
#endif
    return std::max(1U, std::thread::hardware_concurrency());
}

}  // namespace

ExitCode suite_command(Context& context, const std::vector<std::string>& ctest_args) {
    context.require_configured_build();
    const std::string build_dir = context.build_dir().string();
    if (!run_visibly(context, {context.cmake().string(), "--build", build_dir}).succeeded()) {
        context.out() << context.style().bad("The build failed") << "; the first error is above.\n";
        return ExitCode::kBuildError;
    }
    std::vector<std::string> argv{context.ctest().string(), "--test-dir", build_dir,
                                  "--output-on-failure", "--no-tests=error"};
    // CTest's own CTEST_PARALLEL_LEVEL, when set, decides; else one test more than there are
    // processors (at least two, at most 32): much of a test's time goes to starting processes and
    // waiting for them (on two cores the whole suite took 319 s at -j 3, 364 s at -j 2).
    if (const char* level = std::getenv("CTEST_PARALLEL_LEVEL"); level == nullptr || *level == 0) {
        const unsigned processors = std::clamp(usable_processors(), 2U, 32U);
        argv.insert(argv.end(), {"-j", std::to_string(processors + 1)});
    }
    argv.insert(argv.end(), ctest_args.begin(), ctest_args.end());
    return run_visibly(context, std::move(argv)).succeeded() ? ExitCode::kOk
                                                             : ExitCode::kTestsFailed;
}

}  // namespace torchlings::runner
