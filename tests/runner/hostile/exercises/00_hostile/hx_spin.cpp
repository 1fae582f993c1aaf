/// @file
/// @brief Hostile fixture (learner side): forks a child that spins, then spins itself; both stay
/// in the test's process group. Their pids go to $HX_PID_FILE when set (once both run).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

int hx_spin() {
    const pid_t child = fork();
    if (child == 0) {
        for (volatile unsigned long i = 0;; i = i + 1) {
        }
    }
    if (const char* file = std::getenv("HX_PID_FILE")) {
        const std::string temporary = std::string(file) + ".tmp";
        std::ofstream(temporary) << getpid() << " " << child << "\n";
        std::rename(temporary.c_str(), file);
    }
    for (volatile unsigned long i = 0;; i = i + 1) {
    }
}
