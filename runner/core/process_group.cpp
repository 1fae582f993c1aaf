/// @file
/// @brief Containing and stopping what a test program started: the sandbox (bubblewrap), its
/// process group, the processes that left the group and were adopted by the runner, and a
/// watchdog process that stops the group when the runner dies or the time limit is long past.
#include "core/process_group.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include "core/errors.h"
#include "core/process.h"
#include "core/text.h"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// How long bubblewrap may take to run `true` before the runner decides it cannot start.
constexpr std::chrono::seconds kProbeTimeout{10};

/// The options that make the sandbox, before the GPU's devices (see sandbox_command).
std::vector<std::string> sandbox_options(const fs::path& bwrap) {
    // The whole file system read-only (the course, build/, the reports); /dev of the basic
    // devices and a private shm (the program's TMPDIR); /proc of the namespace's own processes,
    // read-only (no sysctl, no writes to /proc/self/mem); a PID namespace, so that every descendant
    // dies with the program and none sees the runner, and which dies with the runner; a session of
    // its own (no terminal to type into); no capabilities, even as root (nothing to remount or
    // trace).
    std::vector<std::string> argv{bwrap.string(), "--ro-bind", "/", "/", "--dev", "/dev"};
    argv.insert(argv.end(), {"--proc", "/proc", "--remount-ro", "/proc"});
    argv.insert(argv.end(), {"--unshare-pid", "--die-with-parent", "--new-session"});
    argv.insert(argv.end(), {"--cap-drop", "ALL"});
    return argv;
}

/// The GPU's device files, which the sandbox's /dev lends from the machine's: NVIDIA's
/// (nvidia0, nvidiactl, nvidia-uvm, nvidia-caps/, ...), the render nodes (dri/) and AMD's kfd.
std::vector<std::string> gpu_devices() {
    std::vector<std::string> found;
    std::error_code error;
    for (fs::directory_iterator it("/dev", error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.starts_with("nvidia") || name == "dri" || name == "kfd") {
            found.push_back(it->path().string());
        }
    }
    std::ranges::sort(found);
    return found;
}

/// CUDA creates /dev/nvidia-uvm on its first use, through the set-uid nvidia-modprobe, which
/// cannot gain its rights inside the sandbox: create it here, outside, once.
void create_uvm_device() {
    std::error_code error;
    if (!fs::exists("/dev/nvidiactl", error) || fs::exists("/dev/nvidia-uvm", error)) {
        return;
    }
    if (const auto modprobe = find_program("nvidia-modprobe")) {
        ProcessSpec spec = command_spec({modprobe->string(), "-u", "-c=0"});
        spec.timeout = kProbeTimeout;
        try {
            (void)run_process(spec);
        } catch (const EnvironmentError&) {  // CUDA will say what is missing, as without a sandbox
        }
    }
}

/// The separate user's numbers: one per runner process (concurrent runners must not kill each
/// other's programs), far above any account's and below 2^31.
constexpr unsigned kUserBase = 1'800'000'000;
constexpr unsigned kUserSpan = 100'000'000;

/// Where bwrap cannot start (`why`): a separate user where the runner is root and the kernel lets
/// it become one (not in a user namespace that maps no such number), else none.
Sandbox without_bwrap(Sandbox level, const std::string& why) {
    if (geteuid() != 0) {
        level.description = "none: " + why;
        return level;
    }
    const unsigned user = kUserBase + static_cast<unsigned>(getpid()) % kUserSpan;
    const pid_t pid = fork();
    if (pid == 0) {
        // Become the user, and make sure there is no way back to root.
        _exit(detail::become_user(user) && setuid(0) != 0 ? 0 : 1);
    }
    int status = 0;
    const bool became =
        pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!became) {
        level.description = "none: " + why + "; nor can a separate user be made here";
        return level;
    }
    level.user = user;
    level.description = "separate user: " + why;
    return level;
}

/// Decides the sandbox once: TORCHLINGS_SANDBOX, the platform, bwrap on PATH, and bwrap running
/// `true` with the sandbox's options; where it cannot, a separate user as root.
Sandbox decide_sandbox() {
    Sandbox level;
#ifdef __linux__
    constexpr bool kLinux = true;
#else
    constexpr bool kLinux = false;
#endif
    if (!kLinux) {
        level.description = "none: bubblewrap needs Linux";
        return level;
    }
    const char* setting = std::getenv(kSandboxVariable);
    const std::string value = setting == nullptr ? "" : setting;
    if (value == "off") {
        level.turned_off = true;
        level.description = "none: turned off (TORCHLINGS_SANDBOX=off)";
        return level;
    }
    if (value == "user") {
        return without_bwrap(level, "bwrap not tried (TORCHLINGS_SANDBOX=user)");
    }
    const std::optional<fs::path> bwrap = find_program("bwrap");
    if (!bwrap) {
        return without_bwrap(level, "bwrap is not installed (sudo apt-get install -y bubblewrap)");
    }
    std::vector<std::string> argv = sandbox_options(*bwrap);
    argv.insert(argv.end(), {"--", "true"});
    ProcessSpec probe = command_spec(std::move(argv));
    probe.timeout = kProbeTimeout;
    probe.output_limit = 4096;
    ProcessResult result;
    try {
        result = run_process(probe);
    } catch (const EnvironmentError& error) {
        return without_bwrap(level, std::string("bwrap cannot run: ") + error.what());
    }
    if (!result.succeeded()) {
        const std::vector<std::string> lines = split_lines(result.output);
        std::string why =
            lines.empty() ? "exit status " + std::to_string(result.exit_code) : trim(lines.front());
        if (result.timed_out) {
            why = "it did not start within " + std::to_string(kProbeTimeout.count()) + " s";
        }
        if (why.starts_with("bwrap: ")) {
            why.erase(0, 7);  // "bwrap: No permissions to create a new namespace, ..."
        }
        while (why.ends_with('.')) {  // the sentence goes on after it ("...; test programs run")
            why.pop_back();
        }
        return without_bwrap(level, "bwrap cannot start here: " + why);
    }
    create_uvm_device();
    level.active = true;
    level.bwrap = *bwrap;
    level.description = "bubblewrap";
    return level;
}

/// The level decided for this runner process (lowered once by demote_sandbox).
Sandbox& decided_sandbox() {
    static Sandbox decided = decide_sandbox();
    return decided;
}

}  // namespace

const Sandbox& sandbox() {
    const char* setting = std::getenv(kSandboxVariable);
    const std::string value = setting == nullptr ? "" : setting;
    if (!value.empty() && value != "auto" && value != "off" && value != "user") {
        throw EnvironmentError(std::string(kSandboxVariable) + "=" + value +
                                   " is not a setting the runner knows: auto (the default: the "
                                   "sandbox wherever it starts), off, or user (a separate user "
                                   "without trying bubblewrap, as root)",
                               std::string("unset ") + kSandboxVariable);
    }
    return decided_sandbox();
}

namespace detail {

void demote_sandbox(const std::string& why) {
    Sandbox& level = decided_sandbox();
    if (level.user == 0) {
        return;
    }
    const std::string was = level.description.substr(level.description.find(": ") + 2);
    level.user = 0;
    level.description = "none: " + was + "; the separate user cannot run the test programs: " + why;
}

bool become_user(unsigned user) {
    return setgroups(0, nullptr) == 0 && setgid(static_cast<gid_t>(user)) == 0 &&
           setuid(static_cast<uid_t>(user)) == 0;
}

void kill_user_processes(unsigned user) {
    const pid_t pid = fork();
    if (pid == 0) {
        if (!become_user(user)) {
            _exit(1);
        }
        for (int round = 0; round < 3; ++round) {
            kill(-1, SIGKILL);  // every process of this user but this one
            usleep(1000);
        }
        _exit(0);
    }
    int status = 0;
    if (pid > 0) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    // Reap what was killed among the runner's own children (it adopts what left the group).
    for (int round = 0; round < 3; ++round) {
        while (waitpid(-1, &status, WNOHANG) > 0) {
        }
        usleep(1000);
    }
}

bool user_can_load(const fs::path& program, unsigned user, std::string& why) {
    static std::map<std::string, std::string> known;  // program -> why not ("" when it can)
    if (const auto found = known.find(program.string()); found != known.end()) {
        why = found->second;
        return why.empty();
    }
    std::vector<std::string> environment{"LD_TRACE_LOADED_OBJECTS=1"};
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        if (!std::string_view(*entry).starts_with("LD_TRACE_LOADED_OBJECTS=")) {
            environment.emplace_back(*entry);
        }
    }
    std::vector<char*> envp;
    for (std::string& entry : environment) {
        envp.push_back(entry.data());
    }
    envp.push_back(nullptr);
    const std::string path = program.string();
    char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
    // The GPU's device files, which the user must open as well: else the [gpu] cases would skip.
    std::vector<std::string> devices;
    for (const std::string& device : gpu_devices()) {
        std::error_code error;
        if (!fs::is_directory(device, error)) {
            devices.push_back(device);
        }
    }
    int fds[2] = {-1, -1};
    if (!make_pipe(fds)) {
        why = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        if (become_user(user)) {
            for (const std::string& device : devices) {
                if (access(device.c_str(), R_OK | W_OK) != 0) {
                    const std::string failed =
                        "cannot open " + device + ": " + std::strerror(errno) + "\n";
                    [[maybe_unused]] const ssize_t n =
                        write(STDOUT_FILENO, failed.data(), failed.size());
                    _exit(126);
                }
            }
            execve(argv[0], argv, envp.data());
            const std::string failed = path + ": " + std::strerror(errno) + "\n";
            [[maybe_unused]] const ssize_t n = write(STDOUT_FILENO, failed.data(), failed.size());
        }
        _exit(127);
    }
    ::close(fds[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t got = 0; (got = read(fds[0], buffer, sizeof buffer)) != 0;) {
        if (got < 0 && errno != EINTR) {
            break;
        }
        if (got > 0 && output.size() < 65536) {
            output.append(buffer, static_cast<std::size_t>(got));
        }
    }
    ::close(fds[0]);
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    why.clear();
    for (const std::string& line : split_lines(output)) {
        if (line.find("not found") != std::string::npos) {
            why = "uid " + std::to_string(user) + " cannot load " + trim(line);
            break;
        }
        if (line.starts_with("cannot open ")) {
            why = "uid " + std::to_string(user) + " " + line;  // a GPU's device file
            break;
        }
    }
    if (why.empty() && (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        const std::vector<std::string> lines = split_lines(output);
        why = "uid " + std::to_string(user) + " cannot run " + path +
              (lines.empty() ? std::string() : ": " + trim(lines.front()));
    }
    known[program.string()] = why;
    return why.empty();
}

}  // namespace detail

}  // namespace torchlings::runner

namespace torchlings::runner::detail {
using Clock = std::chrono::steady_clock;

namespace {

/// How long past the time limit the watchdog waits for the runner before it stops the group
/// itself (the runner normally does it first, and says why).
constexpr std::chrono::milliseconds kWatchdogGrace{3000};

}  // namespace

std::vector<std::string> sandbox_command(const fs::path& bwrap, const fs::path& cwd) {
    std::vector<std::string> argv = sandbox_options(bwrap);
    for (const std::string& device : gpu_devices()) {
        argv.insert(argv.end(), {"--dev-bind", device, device});
    }
    if (!cwd.empty()) {
        argv.insert(argv.end(), {"--chdir", cwd.string()});
    }
    argv.emplace_back("--");
    return argv;
}

// pipe2() would do it in one call, but macOS lacks it; the runner is single-threaded, so no
// other fork can slip in between the two calls.
bool make_pipe(int fds[2]) {
    return pipe(fds) == 0 && fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0 &&
           fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0;
}

void kill_group(pid_t pid) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

void kill_adopted(pid_t keep) {
#ifdef __linux__
    DIR* proc = opendir("/proc");
    if (proc == nullptr) {
        return;
    }
    const pid_t self = getpid();
    while (const dirent* entry = readdir(proc)) {
        char* end = nullptr;
        const long number = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || number == keep) {
            continue;
        }
        std::ifstream stat_file(std::string("/proc/") + entry->d_name + "/stat");
        std::string text;
        std::getline(stat_file, text);
        // pid (comm) state ppid ...; comm may hold spaces and parentheses: read after the last ')'.
        const std::size_t close = text.rfind(')');
        if (close == std::string::npos) {
            continue;
        }
        char state = 0;
        long parent = 0;
        if (std::sscanf(text.c_str() + close + 1, " %c %ld", &state, &parent) == 2 &&
            parent == self) {
            kill(static_cast<pid_t>(number), SIGKILL);
            int ignored = 0;
            waitpid(static_cast<pid_t>(number), &ignored, 0);
        }
    }
    closedir(proc);
#else
    (void)keep;
#endif
}

Watchdog::Watchdog(pid_t group, const std::optional<std::chrono::milliseconds>& timeout) {
    int fds[2] = {-1, -1};
    if (!make_pipe(fds)) {
        return;  // no watchdog: the time limit is still enforced by the runner
    }
    const pid_t runner = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        ::close(fds[1]);
        watch(group, runner, fds[0], timeout);
    }
    ::close(fds[0]);
    if (pid < 0) {
        ::close(fds[1]);
        return;
    }
    pid_ = pid;
    lifeline_ = fds[1];
}

Watchdog::~Watchdog() {
    if (pid_ <= 0) {
        return;
    }
    // A watchdog that already acted (the runner was stopped past the limit) has closed its end:
    // the write must fail with EPIPE, not kill the runner with SIGPIPE.
    struct sigaction ignore {};
    struct sigaction previous {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &previous);
    const char done = 'D';
    [[maybe_unused]] const ssize_t written = ::write(lifeline_, &done, 1);
    sigaction(SIGPIPE, &previous, nullptr);
    ::close(lifeline_);
    int ignored = 0;
    waitpid(pid_, &ignored, 0);
}

void Watchdog::watch(pid_t group, pid_t runner, int lifeline,
                     const std::optional<std::chrono::milliseconds>& timeout) {
    // Deaf to the terminal's signals, and holding nothing of the runner's open.
    for (int number : {SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP}) {
        ::signal(number, SIG_IGN);
    }
    setpgid(0, 0);
    const int null_fd = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) {
        dup2(null_fd, fd);
    }
    const long open_max = sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < std::min(open_max > 0 ? open_max : 1024L, 65536L); ++fd) {
        if (fd != lifeline) {
            ::close(fd);
        }
    }
    const Clock::time_point deadline =
        timeout ? Clock::now() + *timeout + kWatchdogGrace : Clock::time_point::max();
    bool runner_gone = false;
    while (true) {
        int wait_ms = -1;
        if (timeout) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            wait_ms = static_cast<int>(std::max<long long>(left.count(), 0));
        }
        pollfd poll_fd{lifeline, POLLIN, 0};
        const int ready = poll(&poll_fd, 1, wait_ms);
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        char byte = 0;
        if (ready > 0 && read(lifeline, &byte, 1) == 1 && byte == 'D') {
            _exit(0);  // the runner finished and stopped the group itself
        }
        runner_gone = ready > 0;  // end of file: the runner died
        break;                    // or the time is up
    }
    kill_group(group);
    if (!runner_gone) {
        // Still there but silent past the limit: stopped, perhaps by the test program itself
        // (without the sandbox it can signal its parent). Resumed, it reports the time limit.
        kill(runner, SIGCONT);
    }
    _exit(0);
}

}  // namespace torchlings::runner::detail
