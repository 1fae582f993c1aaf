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

/// The separate user's side of a child, between fork and exec (async-signal-safe): no
/// supplementary groups, then the user's group and the user; false when any of it fails.
[[nodiscard]] bool become_user(unsigned user);

/// Kills every process of the separate user (from a child that becomes it: kill(-1) reaches
/// exactly the processes of its own user), a few times over, so that none that forked meanwhile
/// is left; the runner, their subreaper, reaps them afterwards.
void kill_user_processes(unsigned user);

/// Whether the separate user can load `program` and its shared libraries (the dynamic loader's
/// listing, LD_TRACE_LOADED_OBJECTS, which runs none of the program's code); `why` says what it
/// cannot reach otherwise.
[[nodiscard]] bool user_can_load(const std::filesystem::path& program, unsigned user,
                                 std::string& why);

/// Where the separate user cannot load a test program: test programs run without a sandbox from
/// here on, and the description (the reports' torchlings_sandbox) says why.
void demote_sandbox(const std::string& why);

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
