/// @file
/// @brief Starting child processes (fork/execvp with an argv vector, never a shell), with
/// captured or inherited output, an optional time limit, the sandbox that test programs run in,
/// and signal names for crash reports.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/language.h"

namespace torchlings::runner {

/// Where a child's stdout and stderr go.
enum class OutputMode {
    kCapture,  ///< both into ProcessResult::output; stdin is /dev/null; own process group
    kInherit,  ///< the runner's terminal; the child shares the runner's process group
};

/// What to run and how.
struct ProcessSpec {
    std::vector<std::string> argv;  ///< argv[0] is looked up on PATH when it has no slash
    std::filesystem::path cwd;      ///< empty: the runner's own working folder
    OutputMode output = OutputMode::kCapture;
    /// Stop the child's whole process group (SIGKILL) after this long. Capture mode only.
    std::optional<std::chrono::milliseconds> timeout;
    /// Keep at most this many bytes of output, the most recent ones (0: keep everything), so
    /// that a program printing in an endless loop cannot exhaust memory.
    std::size_t output_limit = 0;
    /// Capture mode: also give the child the write end of a second pipe, as file descriptor
    /// kEventsFd, and name it in the environment (TORCHLINGS_EVENTS_FD); what the child writes
    /// there ends up in ProcessResult::events. No path to it exists on the command line or on
    /// disk, so no other run can read it and no file can be rewritten after the run.
    bool events_pipe = false;
    /// With events_pipe: the run's key, given to the child through a third pipe that holds it
    /// and nothing else (its write end closed before the child starts), as descriptor kKeyFd,
    /// named in the environment (TORCHLINGS_EVENTS_KEY_FD). Empty: no key.
    std::string events_key = {};
    /// Capture mode: called with each piece of output as it arrives (e.g. to show a build's
    /// progress while it runs), and with an empty piece when a while has passed without any;
    /// the output is captured all the same.
    std::function<void(std::string_view)> on_output = {};
    /// Capture mode: run inside the sandbox (see sandbox()) where it can start, else as without
    /// it. Inside, the whole file system is read-only; /proc too; /dev holds the basic devices,
    /// the GPU's and a /dev/shm of the sandbox's own, in memory, the one place it may write (its
    /// TMPDIR), gone with the sandbox. The child leads a PID namespace and a session of its own,
    /// without capabilities: every process it starts ends when it ends, before run_process
    /// returns, and none of them can see, signal or trace the runner.
    bool sandboxed = false;
    /// Variables set in the child's environment, over the runner's (which it inherits, in the
    /// sandbox too): name and value.
    std::vector<std::pair<std::string, std::string>> environment = {};
};

/// The descriptor number of the events pipe in the child (see ProcessSpec::events_pipe).
inline constexpr int kEventsFd = 3;
/// The environment variable that names it.
inline constexpr const char* kEventsFdVariable = "TORCHLINGS_EVENTS_FD";
/// The descriptor number of the key's pipe in the child (see ProcessSpec::events_key).
inline constexpr int kKeyFd = 4;
/// The environment variable that names it.
inline constexpr const char* kKeyFdVariable = "TORCHLINGS_EVENTS_KEY_FD";

/// How a child ended.
struct ProcessResult {
    int exit_code = -1;             ///< the exit status when the child exited normally, else -1
    int signal = 0;                 ///< the signal that ended it, or 0 (SIGKILL after a timeout)
    bool timed_out = false;         ///< the runner stopped it when the time limit ran out
    std::string output;             ///< stdout and stderr interleaved (capture mode)
    bool output_truncated = false;  ///< the start of the output was dropped (output_limit)
    std::string events;             ///< what the child wrote to the events pipe (events_pipe)
    double seconds = 0.0;           ///< wall-clock time from start to end

    /// True when the child exited by itself with status 0.
    [[nodiscard]] bool succeeded() const { return exit_code == 0 && signal == 0 && !timed_out; }
};

/// How the test programs that the runner starts are contained on this machine.
struct Sandbox {
    bool active = false;  ///< sandboxed specs run inside bubblewrap
    /// Where bubblewrap cannot start and the runner is root (a container's root): sandboxed specs
    /// run as this user and group, a number of their own that no account and no file has, so
    /// that they can write nothing of the machine's but a temporary folder of their own, and
    /// signal or trace nothing of the runner's; every process of that user is killed when the
    /// program ends. 0: not this level.
    unsigned user = 0;
    /// "bubblewrap", "separate user: <why not bubblewrap>" or "none: <why>" (what the class's
    /// reports record as torchlings_sandbox).
    std::string description;
    bool turned_off = false;      ///< none, because TORCHLINGS_SANDBOX=off asks for none
    std::filesystem::path bwrap;  ///< the bubblewrap program, when active
};

/// The environment variable that turns the sandbox off ("off"); "auto" or unset: use it where it
/// starts; "user": skip bubblewrap and use a separate user where the runner is root (for tests).
inline constexpr const char* kSandboxVariable = "TORCHLINGS_SANDBOX";

/// Whether test programs run in the sandbox here, decided once per runner process: bubblewrap
/// (`bwrap`) must be on PATH and must start a trivial command with the sandbox's options (it
/// cannot in a container whose root lacks CAP_SYS_ADMIN, where a user may make no user
/// namespaces, nor outside Linux); where it cannot and the runner is root, a separate user.
/// Throws EnvironmentError when TORCHLINGS_SANDBOX holds a value other than auto, off or user.
[[nodiscard]] const Sandbox& sandbox();

/// A captured, untimed run of a command line (argv[0] looked up on PATH).
[[nodiscard]] inline ProcessSpec command_spec(std::vector<std::string> argv) {
    ProcessSpec spec;
    spec.argv = std::move(argv);
    return spec;
}

/// Runs a child to completion. In capture mode the child leads its own process group, which is
/// killed (SIGKILL) at the time limit, when the child ends, and, through a watchdog process,
/// when the runner itself dies (even by SIGKILL) or stays stopped past the limit (the watchdog
/// then also resumes the runner); output still held open by a process that left the group is
/// read until the limit at most. A sandboxed child that dies from a signal reports the signal
/// (bubblewrap exits with 128 + its number, which is read back). Throws
/// EnvironmentError when the program cannot be started (e.g. not found), and Interrupted after
/// stopping the child when the user presses Ctrl-C.
ProcessResult run_process(const ProcessSpec& spec);

/// The conventional name of a signal: "SIGSEGV", "SIGABRT", ...; "signal N" when unknown.
[[nodiscard]] std::string signal_name(int signal);

/// What a signal usually means for a test program, in a few words.
[[nodiscard]] std::string signal_meaning(int signal, Language language = Language::kEnglish);

/// The full path of a program found on PATH (or the path itself when it contains a slash and
/// is executable), or nothing.
[[nodiscard]] std::optional<std::filesystem::path> find_program(std::string_view name);

}  // namespace torchlings::runner
