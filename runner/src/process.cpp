/// @file
/// @brief fork/execvp/waitpid process running with pipes, time limits and process groups.
#include "tl_runner/process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <array>

#include "tl_runner/errors.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// How often the wait loop wakes up to check the clock and Ctrl-C, at most.
constexpr int kPollIntervalMs = 100;

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void note_interrupt(int /*signal*/) { g_interrupted = 1; }

/// For its lifetime, sets what SIGINT, SIGQUIT and SIGTERM do in the runner; restores them after.
class SignalGuard {
  public:
    explicit SignalGuard(void (*handler)(int)) {
        struct sigaction action {};
        action.sa_handler = handler;
        sigemptyset(&action.sa_mask);
        action.sa_flags = 0;  // no SA_RESTART: poll() must wake up with EINTR
        for (std::size_t i = 0; i < kSignals.size(); ++i) {
            sigaction(kSignals[i], &action, &previous_[i]);
        }
    }
    ~SignalGuard() {
        for (std::size_t i = 0; i < kSignals.size(); ++i) {
            sigaction(kSignals[i], &previous_[i], nullptr);
        }
    }
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

  private:
    static constexpr std::array<int, 3> kSignals{SIGINT, SIGQUIT, SIGTERM};
    std::array<struct sigaction, 3> previous_{};
};

/// A file descriptor closed on destruction.
class Fd {
  public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    [[nodiscard]] int get() const { return fd_; }
    void reset(int fd = -1) {
        if (fd_ >= 0) {
            ::close(fd_);
        }
        fd_ = fd;
    }

  private:
    int fd_;
};

/// A pipe whose ends close on exec. (pipe2() would do it in one call, but macOS lacks it; the
/// runner is single-threaded, so no other fork can slip in between the two calls.)
bool make_pipe(int fds[2]) {
    if (pipe(fds) != 0) {
        return false;
    }
    for (int i = 0; i < 2; ++i) {
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
            return false;
        }
    }
    return true;
}

/// Why the child could not exec, sent back through a close-on-exec pipe.
struct ExecFailure {
    int error = 0;
    int stage = 0;  // 0: chdir, 1: exec
};

/// The child's side, between fork and exec: async-signal-safe calls only.
[[noreturn]] void exec_child(const ProcessSpec& spec, char* const* argv, int out_fd, int null_fd,
                             int report_fd) {
    for (int number : {SIGINT, SIGQUIT, SIGTERM, SIGPIPE}) {
        ::signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (spec.output == OutputMode::kCapture) {
        setpgid(0, 0);  // its own group, so that a timeout can stop it and all its children
        dup2(null_fd, STDIN_FILENO);
        dup2(out_fd, STDOUT_FILENO);
        dup2(out_fd, STDERR_FILENO);
    }
    ExecFailure failure;
    if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
        failure = {errno, 0};
    } else {
        execvp(argv[0], argv);
        failure = {errno, 1};
    }
    [[maybe_unused]] const ssize_t written = write(report_fd, &failure, sizeof failure);
    _exit(127);
}

/// Waits for a child that shares the terminal; Ctrl-C goes to it, not to the runner.
int wait_inherited(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
        }
    }
    return status;
}

/// Appends to the captured output, keeping only the last `limit` bytes when limit > 0.
void append_output(ProcessResult& result, const char* data, std::size_t size, std::size_t limit) {
    result.output.append(data, size);
    if (limit > 0 && result.output.size() > 2 * limit) {
        // Trim in large steps: the copy costs O(limit) once per `limit` bytes read.
        result.output.erase(0, result.output.size() - limit);
        result.output_truncated = true;
    }
}

/// Stops the child's process group, and the child itself should it not lead one.
void kill_group(pid_t pid) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/// Reads a captured child's output until it ends, stopping its group on timeout or Ctrl-C.
int wait_captured(pid_t pid, int out_fd, const ProcessSpec& spec, ProcessResult& result) {
    const Clock::time_point deadline =
        spec.timeout ? Clock::now() + *spec.timeout : Clock::time_point::max();
    std::array<char, 65536> buffer{};
    bool pipe_open = true;
    bool reaped = false;
    int status = 0;
    while (pipe_open || !reaped) {
        if (g_interrupted != 0) {
            kill_group(pid);
            if (!reaped) {
                waitpid(pid, &status, 0);
            }
            throw Interrupted();
        }
        int wait_ms = kPollIntervalMs;
        if (spec.timeout && !reaped && !result.timed_out) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) {
                kill_group(pid);
                result.timed_out = true;
            }
            wait_ms = static_cast<int>(std::clamp<long long>(left.count(), 0, kPollIntervalMs));
        }
        if (pipe_open) {
            pollfd poll_fd{out_fd, POLLIN, 0};
            if (poll(&poll_fd, 1, wait_ms) > 0) {
                const ssize_t count = read(out_fd, buffer.data(), buffer.size());
                if (count > 0) {
                    append_output(result, buffer.data(), static_cast<std::size_t>(count),
                                  spec.output_limit);
                } else if (count == 0 || (errno != EINTR && errno != EAGAIN)) {
                    pipe_open = false;
                }
            }
        } else if (!reaped) {
            poll(nullptr, 0, wait_ms);
        }
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            // Whatever the child left running in its group would keep the pipe open: stop it.
            kill(-pid, SIGKILL);
        }
    }
    return status;
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
    if (spec.argv.empty()) {
        throw std::invalid_argument("run_process: empty argv");
    }
    std::vector<char*> argv;
    for (const std::string& arg : spec.argv) {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);

    const bool capture = spec.output == OutputMode::kCapture;
    int out_pipe[2] = {-1, -1};
    int report_pipe[2] = {-1, -1};
    if ((capture && !make_pipe(out_pipe)) || !make_pipe(report_pipe)) {
        throw EnvironmentError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    Fd out_read(out_pipe[0]);
    Fd out_write(out_pipe[1]);
    Fd report_read(report_pipe[0]);
    Fd report_write(report_pipe[1]);
    Fd null_fd(capture ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1);

    g_interrupted = 0;
    SignalGuard guard(capture ? note_interrupt : SIG_IGN);
    ProcessResult result;
    const Clock::time_point start = Clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        throw EnvironmentError(std::string("cannot start a process: ") + std::strerror(errno));
    }
    if (pid == 0) {
        exec_child(spec, argv.data(), out_write.get(), null_fd.get(), report_write.get());
    }

    if (capture) {
        setpgid(pid, pid);  // also here, so kill(-pid) works even before the child runs
    }
    out_write.reset();
    report_write.reset();

    ExecFailure failure;
    if (read(report_read.get(), &failure, sizeof failure) == static_cast<ssize_t>(sizeof failure)) {
        int ignored = 0;
        waitpid(pid, &ignored, 0);
        const std::string what =
            failure.stage == 0 ? "cannot enter " + spec.cwd.string() : "cannot run " + spec.argv[0];
        throw EnvironmentError(what + ": " + std::strerror(failure.error));
    }

    const int status =
        capture ? wait_captured(pid, out_read.get(), spec, result) : wait_inherited(pid);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (spec.output_limit > 0 && result.output.size() > spec.output_limit) {
        result.output.erase(0, result.output.size() - spec.output_limit);
        result.output_truncated = true;
    }
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    return result;
}

std::string signal_name(int signal) {
    switch (signal) {
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGFPE:
            return "SIGFPE";
        case SIGILL:
            return "SIGILL";
        case SIGBUS:
            return "SIGBUS";
        case SIGKILL:
            return "SIGKILL";
        case SIGTERM:
            return "SIGTERM";
        case SIGINT:
            return "SIGINT";
        case SIGQUIT:
            return "SIGQUIT";
        case SIGHUP:
            return "SIGHUP";
        case SIGPIPE:
            return "SIGPIPE";
        case SIGTRAP:
            return "SIGTRAP";
        case SIGSYS:
            return "SIGSYS";
        case SIGXCPU:
            return "SIGXCPU";
        case SIGALRM:
            return "SIGALRM";
        case SIGUSR1:
            return "SIGUSR1";
        case SIGUSR2:
            return "SIGUSR2";
        default:
            return "signal " + std::to_string(signal);
    }
}

std::string signal_meaning(int signal) {
    switch (signal) {
        case SIGSEGV:
            return "segmentation fault: memory was read or written through a bad pointer "
                   "(null, dangling, or an index out of range)";
        case SIGABRT:
            return "abort: the program stopped itself, e.g. a failed assert(), an exception "
                   "that nothing caught, or a corrupted heap";
        case SIGFPE:
            return "arithmetic error, e.g. an integer division by zero";
        case SIGILL:
            return "illegal instruction, often a trap for undefined behaviour";
        case SIGBUS:
            return "bus error: a misaligned or unmapped memory access";
        case SIGKILL:
            return "killed from outside, e.g. by the out-of-memory killer";
        default: {
            const char* text = strsignal(signal);
            return text != nullptr ? text : "unknown signal";
        }
    }
}

std::optional<fs::path> find_program(std::string_view name) {
    if (name.empty()) {
        return std::nullopt;
    }
    const auto executable = [](const fs::path& path) {
        struct stat info {};
        return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
               access(path.c_str(), X_OK) == 0;
    };
    if (name.find('/') != std::string_view::npos) {
        if (executable(fs::path(name))) {
            return fs::path(name);
        }
        return std::nullopt;
    }
    const char* path_variable = std::getenv("PATH");
    const std::string search = path_variable != nullptr ? path_variable : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= search.size()) {
        std::size_t end = search.find(':', start);
        if (end == std::string::npos) {
            end = search.size();
        }
        const std::string folder = search.substr(start, end - start);
        const fs::path candidate = fs::path(folder.empty() ? "." : folder) / name;
        if (executable(candidate)) {
            return candidate;
        }
        start = end + 1;
    }
    return std::nullopt;
}

}  // namespace torchlings::runner
