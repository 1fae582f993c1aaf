/// @file
/// @brief Hostile fixture (learner side): a wrong answer (it aborts) whose file leaves behind a
/// process that outlives the runner and then writes a passing result over its report. After a
/// crash the runner runs the program again to list its cases; there a global's initializer
/// starts the process, which leaves the session (before the program goes on), closes every
/// descriptor (so that nothing holds the run open), waits for the runner (the program's parent)
/// to exit, and writes a forged all-passed result over $HX_REPORT.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace {

[[noreturn]] void linger(pid_t runner, const std::string& report) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point give_up = Clock::now() + std::chrono::seconds(60);
    while ((kill(runner, 0) == 0 || errno == EPERM) && Clock::now() < give_up) {
        usleep(20000);
    }
    std::ofstream(report) << "{\"schema\": \"classroom50/result/v1\", \"score\": 99, "
                             "\"max-score\": 99, \"tests\": [], \"forged\": true}\n";
    _exit(0);
}

/// Only in the run that lists the cases, after the tests have crashed.
bool listing() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return line.find("--list-cases-for-ctest") != std::string::npos;
}

const bool started = [] {
    const char* report = std::getenv("HX_REPORT");
    if (report == nullptr || !listing()) {
        return false;
    }
    const pid_t runner = getppid();
    int ready[2] = {-1, -1};
    if (pipe(ready) != 0) {
        return false;
    }
    if (fork() == 0) {
        setsid();  // out of the program's group before the program goes on
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = write(ready[1], &byte, 1);
        for (int fd = 0; fd < 1024; ++fd) {
            close(fd);
        }
        linger(runner, report);
    }
    close(ready[1]);
    char byte = 0;
    [[maybe_unused]] const ssize_t got = read(ready[0], &byte, 1);
    close(ready[0]);
    return true;
}();

}  // namespace

int hx_linger() { std::abort(); }
