/// @file
/// @brief What run_process (core/process.cpp) uses to stop a test program and everything it
/// started; internal to the runner's core.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>

namespace torchlings::runner::detail {

/// A pipe whose ends close on exec; false when it could not be made.
[[nodiscard]] bool make_pipe(int fds[2]);

/// Stops the child's process group, and the child itself should it not lead one.
void kill_group(pid_t pid);

/// Stops every process the runner adopted (Linux: the runner is a child subreaper during a test
/// run, so a process that left the test's group is re-parented to it once its parent dies),
/// except `keep`, and reaps it.
void kill_adopted(pid_t keep);

/// A process that stops the child's group when the runner dies (its end of a pipe closes) or
/// stays stopped past the time limit; told "done" by the runner, it ends quietly.
class Watchdog {
  public:
    Watchdog(pid_t group, const std::optional<std::chrono::milliseconds>& timeout);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;
    [[nodiscard]] pid_t pid() const { return pid_; }

  private:
    [[noreturn]] static void watch(pid_t group, int lifeline,
                                   const std::optional<std::chrono::milliseconds>& timeout);

    pid_t pid_ = -1;
    int lifeline_ = -1;
};

}  // namespace torchlings::runner::detail
