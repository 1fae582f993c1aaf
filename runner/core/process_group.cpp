/// @file
/// @brief Stopping what a test program started: its process group, the processes that left the
/// group and were adopted by the runner, and a watchdog process that stops the group when the
/// runner dies or the time limit is long past.
#include "core/process_group.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace torchlings::runner::detail {
using Clock = std::chrono::steady_clock;

namespace {

/// How long past the time limit the watchdog waits for the runner before it stops the group
/// itself (the runner normally does it first, and says why).
constexpr std::chrono::milliseconds kWatchdogGrace{3000};

}  // namespace

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
    const pid_t pid = fork();
    if (pid == 0) {
        ::close(fds[1]);
        watch(group, fds[0], timeout);
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

void Watchdog::watch(pid_t group, int lifeline,
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
        break;  // the runner died (end of file), or the time is up
    }
    kill_group(group);
    _exit(0);
}

}  // namespace torchlings::runner::detail
