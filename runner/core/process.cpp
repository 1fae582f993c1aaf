/// @file
/// @brief fork/execvp/waitpid process running with pipes, time limits, process groups and the
/// sandbox.
#include "core/process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <array>
#include <utility>

#include "core/errors.h"
#include "core/process_group.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace torchlings::runner {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using detail::kill_adopted;
using detail::kill_group;
using detail::make_pipe;
using detail::sandbox_command;
using detail::Watchdog;

namespace {

/// How often the wait loop wakes up to check the clock and Ctrl-C, at most.
constexpr int kPollIntervalMs = 100;

/// How long output is still read once the program has ended or been stopped: output that a
/// process outside its group holds open ends there, so that it cannot hold the runner.
constexpr std::chrono::milliseconds kDrainLimit{2000};

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

/// The separate user's temporary folder for one run (its TMPDIR: the one place of the machine's
/// own it may write besides /tmp and /dev/shm), removed with everything in it after the run.
class UserFolder {
  public:
    explicit UserFolder(unsigned user) {
        if (user == 0) {
            return;
        }
        std::string name = (fs::temp_directory_path() / "torchlings-run-XXXXXX").string();
        if (mkdtemp(name.data()) == nullptr) {
            throw EnvironmentError("cannot make a temporary folder for the separate user: " +
                                   std::string(std::strerror(errno)));
        }
        if (chown(name.c_str(), static_cast<uid_t>(user), static_cast<gid_t>(user)) != 0) {
            const int error = errno;
            rmdir(name.c_str());
            throw EnvironmentError("cannot give a temporary folder to the separate user: " +
                                   std::string(std::strerror(error)));
        }
        path_ = name;
    }
    ~UserFolder() {
        std::error_code ignored;
        if (!path_.empty()) {
            fs::remove_all(path_, ignored);
        }
    }
    UserFolder(const UserFolder&) = delete;
    UserFolder& operator=(const UserFolder&) = delete;
    [[nodiscard]] const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

/// Why the child could not exec, sent back through a close-on-exec pipe.
struct ExecFailure {
    int error = 0;
    int stage = 0;  // 0: chdir, 1: exec, 2: becoming the separate user
};

/// The child's side, between fork and exec: async-signal-safe calls only.
[[noreturn]] void exec_child(const ProcessSpec& spec, char* const* argv, char** envp, int out_fd,
                             int null_fd, int report_fd, int events_fd, int key_fd, pid_t runner,
                             unsigned user) {
    // First: a change of user clears the parent-death signal set below.
    if (user != 0 && !detail::become_user(user)) {
        const ExecFailure failure{errno, 2};
        [[maybe_unused]] const ssize_t written = write(report_fd, &failure, sizeof failure);
        _exit(127);
    }
    for (int number : {SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGHUP}) {
        ::signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    // Out of the way of the descriptor numbers given to the program.
    for (int* fd : {&report_fd, &events_fd, &key_fd}) {
        if (*fd >= 0) {
            *fd = fcntl(*fd, F_DUPFD_CLOEXEC, 10);
        }
    }
    if (spec.output == OutputMode::kCapture) {
        setpgid(0, 0);  // its own group, so that a timeout can stop it and all its children
#ifdef __linux__
        // Dies with the runner (the watchdog stops the rest of the group).
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != runner) {
            _exit(127);  // the runner is already gone
        }
#else
        (void)runner;
#endif
        dup2(null_fd, STDIN_FILENO);
        dup2(out_fd, STDOUT_FILENO);
        dup2(out_fd, STDERR_FILENO);
        if (events_fd >= 0) {
            dup2(events_fd, kEventsFd);  // dup2 clears close-on-exec on the copy
        }
        if (key_fd >= 0) {
            dup2(key_fd, kKeyFd);
        }
    }
    if (envp != nullptr) {
        environ = envp;
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

/// Reads what a pipe holds now into the output (or the events); false once it is closed (or
/// broken). Only the last output_limit bytes of the output are kept, when it is set.
bool read_ready(int fd, bool output, ProcessResult& result, const ProcessSpec& spec) {
    std::array<char, 65536> buffer{};
    const ssize_t count = read(fd, buffer.data(), buffer.size());
    if (count > 0) {
        const std::string_view piece(buffer.data(), static_cast<std::size_t>(count));
        (output ? result.output : result.events).append(piece);
        if (output && spec.output_limit > 0 && result.output.size() > 2 * spec.output_limit) {
            // Trim in large steps: the copy costs O(limit) once per `limit` bytes read.
            result.output.erase(0, result.output.size() - spec.output_limit);
            result.output_truncated = true;
        }
        if (output && spec.on_output) {
            spec.on_output(piece);
        }
        return true;
    }
    return count < 0 && (errno == EINTR || errno == EAGAIN);
}

/// Reads a captured child's output (and events) until it ends, stopping its group on timeout or
/// Ctrl-C. Once the child has ended or been stopped, pipes still held open by a process that
/// left the group are read for kDrainLimit at most.
int wait_captured(pid_t pid, int out_fd, int events_fd, const ProcessSpec& spec,
                  ProcessResult& result, pid_t watchdog, bool adopting) {
    const Clock::time_point deadline =
        spec.timeout ? Clock::now() + *spec.timeout : Clock::time_point::max();
    bool pipe_open = true;
    bool events_open = events_fd >= 0;
    bool reaped = false;
    std::optional<Clock::time_point> drain_until;
    int status = 0;
    while (pipe_open || events_open || !reaped) {
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
                drain_until = Clock::now() + kDrainLimit;
            }
            wait_ms = static_cast<int>(std::clamp<long long>(left.count(), 0, kPollIntervalMs));
        }
        if (drain_until && Clock::now() >= *drain_until) {
            pipe_open = false;  // held open by a process that escaped the group
            events_open = false;
        }
        std::array<pollfd, 2> polled{};
        nfds_t count = 0;
        if (pipe_open) {
            polled[count++] = pollfd{out_fd, POLLIN, 0};
        }
        if (events_open) {
            polled[count++] = pollfd{events_fd, POLLIN, 0};
        }
        if (count > 0) {
            const int ready = poll(polled.data(), count, wait_ms);
            if (ready == 0 && spec.on_output) {
                spec.on_output({});  // nothing new: a chance to show that time passes
            }
            if (ready > 0) {
                for (nfds_t i = 0; i < count; ++i) {
                    if ((polled[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) {
                        continue;
                    }
                    const bool is_output = polled[i].fd == out_fd;
                    (is_output ? pipe_open : events_open) =
                        read_ready(polled[i].fd, is_output, result, spec);
                }
            }
        } else if (!reaped) {
            poll(nullptr, 0, wait_ms);
        }
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            // Killed while the runner itself was stopped past the limit: the watchdog did it.
            if (spec.timeout && !result.timed_out && Clock::now() >= deadline &&
                WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
                result.timed_out = true;
            }
            // Whatever the child left running in its group would keep the pipe open: stop it.
            kill(-pid, SIGKILL);
            if (!drain_until) {
                drain_until = Clock::now() + kDrainLimit;
            }
        }
        if (reaped && adopting) {
            // Processes that left the group and lost their parent; in the sandbox, its first
            // process, whose end ends every other one inside (reaped only once they are gone).
            kill_adopted(watchdog);
        }
    }
    return status;
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
    if (spec.argv.empty()) {
        throw std::invalid_argument("run_process: empty argv");
    }
    const bool capture = spec.output == OutputMode::kCapture;
    const bool events = capture && spec.events_pipe;
    // In the sandbox: bwrap's options, then the program.
    const bool contained = capture && spec.sandboxed && sandbox().active;
    // Without bubblewrap, as root: the program runs as the separate user, where it can load.
    unsigned user = capture && spec.sandboxed && !contained ? sandbox().user : 0;
    if (user != 0) {
        const std::optional<fs::path> program = find_program(spec.argv[0]);
        std::string why;
        if (program && !detail::user_can_load(*program, user, why)) {
            detail::demote_sandbox(why);
            user = 0;
        }
    }
    UserFolder user_folder(user);
    std::vector<std::string> command;
    if (contained) {
        // Said here as without the sandbox: bwrap would only print it and exit 1.
        if (!find_program(spec.argv[0])) {
            throw EnvironmentError("cannot run " + spec.argv[0] + ": " + std::strerror(ENOENT));
        }
        command = sandbox_command(sandbox().bwrap, spec.cwd);
    }
    command.insert(command.end(), spec.argv.begin(), spec.argv.end());
    std::vector<char*> argv;
    for (const std::string& arg : command) {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);

    int out_pipe[2] = {-1, -1};
    int events_pipe[2] = {-1, -1};
    int report_pipe[2] = {-1, -1};
    int key_pipe[2] = {-1, -1};
    const bool keyed = events && !spec.events_key.empty();
    if ((capture && !make_pipe(out_pipe)) || (events && !make_pipe(events_pipe)) ||
        !make_pipe(report_pipe) || (keyed && !make_pipe(key_pipe))) {
        throw EnvironmentError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    Fd out_read(out_pipe[0]);
    Fd out_write(out_pipe[1]);
    Fd events_read(events_pipe[0]);
    Fd events_write(events_pipe[1]);
    Fd report_read(report_pipe[0]);
    Fd report_write(report_pipe[1]);
    Fd null_fd(capture ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1);
    // The key's pipe holds the key and nothing else: written and closed before the child starts,
    // so that the child's read end reaches end of file once the key has been read.
    Fd key_read(key_pipe[0]);
    if (keyed) {
        Fd key_write(key_pipe[1]);
        if (write(key_write.get(), spec.events_key.data(), spec.events_key.size()) !=
            static_cast<ssize_t>(spec.events_key.size())) {
            throw EnvironmentError(std::string("cannot write to a pipe: ") + std::strerror(errno));
        }
    }

    // The child's environment: the runner's, with the events pipe named, the spec's own
    // variables and, in the sandbox, its temporary folder as TMPDIR.
    std::vector<std::pair<std::string, std::string>> variables = spec.environment;
    if (events) {
        variables.emplace_back(kEventsFdVariable, std::to_string(kEventsFd));
        if (keyed) {
            variables.emplace_back(kKeyFdVariable, std::to_string(kKeyFd));
        }
    }
    if (contained) {
        variables.emplace_back("TMPDIR", detail::kSandboxTemporary);
    } else if (user != 0) {
        variables.emplace_back("TMPDIR", user_folder.path().string());
    }
    std::vector<std::string> environment;
    std::vector<char*> envp;
    if (!variables.empty()) {
        for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
            const std::string_view text(*entry);
            if (std::ranges::none_of(variables, [&](const auto& variable) {
                    return text.starts_with(variable.first + "=");
                })) {
                environment.emplace_back(*entry);
            }
        }
        for (const auto& [name, value] : variables) {
            environment.push_back(name + "=" + value);
        }
        for (std::string& entry : environment) {
            envp.push_back(entry.data());
        }
        envp.push_back(nullptr);
    }
    // A test program's run (events, or a listing of its cases, which runs the learner's code
    // before main() too): processes that leave its group (and, in the sandbox, the namespace's
    // first process once bwrap has gone) are re-parented to the runner, which stops them.
    const bool adopting = events || (capture && spec.sandboxed) || user != 0;
    if (adopting) {
#ifdef __linux__
        prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    }

    g_interrupted = 0;
    SignalGuard guard(capture ? note_interrupt : SIG_IGN);
    ProcessResult result;
    const Clock::time_point start = Clock::now();
    const pid_t runner = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        throw EnvironmentError(std::string("cannot start a process: ") + std::strerror(errno));
    }
    if (pid == 0) {
        exec_child(spec, argv.data(), envp.empty() ? nullptr : envp.data(), out_write.get(),
                   null_fd.get(), report_write.get(), events_write.get(), key_read.get(), runner,
                   user);
    }

    out_write.reset();
    events_write.reset();
    key_read.reset();
    report_write.reset();
    std::optional<Watchdog> watchdog;
    if (capture) {
        setpgid(pid, pid);  // also here, so kill(-pid) works even before the child runs
        watchdog.emplace(pid, spec.timeout);
    }

    ExecFailure failure;
    if (read(report_read.get(), &failure, sizeof failure) == static_cast<ssize_t>(sizeof failure)) {
        int ignored = 0;
        waitpid(pid, &ignored, 0);
        const std::string what = failure.stage == 0 ? "cannot enter " + spec.cwd.string()
                                 : failure.stage == 2
                                     ? "cannot become the separate user " + std::to_string(user) +
                                           " to run " + command[0]
                                     : "cannot run " + command[0];
        throw EnvironmentError(what + ": " + std::strerror(failure.error));
    }

    const int status = capture ? wait_captured(pid, out_read.get(), events_read.get(), spec, result,
                                               watchdog ? watchdog->pid() : -1, adopting)
                               : wait_inherited(pid);
    watchdog.reset();
    if (user != 0) {
        // Every process of the separate user ends with the program, before any report is read or
        // written: one that left the group, or the runner's adoption, is stopped here.
        detail::kill_user_processes(user);
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (spec.output_limit > 0 && result.output.size() > spec.output_limit) {
        result.output.erase(0, result.output.size() - spec.output_limit);
        result.output_truncated = true;
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    // bwrap exits with 128 + N when the program died from signal N, as a shell does.
    if (contained && result.exit_code > 128 && result.exit_code - 128 < NSIG) {
        result.signal = result.exit_code - 128;
        result.exit_code = -1;
    }
    return result;
}

}  // namespace torchlings::runner
