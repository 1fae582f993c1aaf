/// @file
/// @brief What run_process (core/process.cpp) uses to contain a test program and to stop it and
/// everything it started; internal to the runner's core.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace torchlings::runner::detail {

/// A pipe whose ends close on exec; false when it could not be made.
[[nodiscard]] bool make_pipe(int fds[2]);

/// Stops the child's process group, and the child itself should it not lead one.
void kill_group(pid_t pid);

/// Stops every process the runner adopted (Linux: the runner is a child subreaper during a test
/// run, so a process that left the test's group is re-parented to it once its parent dies),
/// except `keep`, and reaps it.
void kill_adopted(pid_t keep);

/// The start of the command line that runs a program inside the sandbox (core/process.h's
/// ProcessSpec::sandboxed), up to and including "--": `bwrap` with the whole file system
/// read-only, /proc read-only, a /dev of the basic devices, a private /dev/shm and the GPU's
/// (/dev/nvidia*, /dev/dri, /dev/kfd), a PID namespace and a session of its own that die with
/// the runner, no capabilities, and `cwd` (when given) as the working folder.
[[nodiscard]] std::vector<std::string> sandbox_command(const std::filesystem::path& bwrap,
                                                       const std::filesystem::path& cwd);

/// The sandboxed program's TMPDIR: its private /dev/shm, a file system in memory that is the
/// sandbox's own and ends with it, so that nothing is left to remove even when the runner is
/// killed.
inline constexpr const char* kSandboxTemporary = "/dev/shm";

/// A process that stops the child's group when the runner dies (its end of a pipe closes) or
/// stays stopped past the time limit, and then resumes the runner (SIGCONT), should the test
/// program have stopped it; told "done" by the runner, it ends quietly.
class Watchdog {
  public:
    Watchdog(pid_t group, const std::optional<std::chrono::milliseconds>& timeout);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;
    [[nodiscard]] pid_t pid() const { return pid_; }

  private:
    [[noreturn]] static void watch(pid_t group, pid_t runner, int lifeline,
                                   const std::optional<std::chrono::milliseconds>& timeout);

    pid_t pid_ = -1;
    int lifeline_ = -1;
};

}  // namespace torchlings::runner::detail
