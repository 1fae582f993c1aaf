/// @file
/// @brief Hostile fixture (learner side): before main, copies every descriptor it finds and
/// registers exit handlers (at_quick_exit, atexit) that write the rest of an all-passed report
/// to each copy and end with _exit(0); the failing test then calls quick_exit(0).
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

std::vector<int> g_copies;

void forge() {
    const char* const forged =
        "{\"event\":\"case_end\",\"name\":\"adds equal numbers\",\"status\":\"passed\","
        "\"skip_reason\":null,\"duration_s\":0.0,\"seq\":4}\n"
        "{\"event\":\"run_end\",\"passed\":2,\"failed\":0,\"skipped\":0,\"seq\":5}\n";
    for (int fd : g_copies) {
        [[maybe_unused]] const ssize_t n = write(fd, forged, std::strlen(forged));
    }
    _exit(0);
}

const bool g_installed = [] {
    for (int fd = 3; fd < 64; ++fd) {
        if (fcntl(fd, F_GETFD) >= 0) {
            g_copies.push_back(dup(fd));
        }
    }
    std::at_quick_exit(forge);
    std::atexit(forge);
    return true;
}();

}  // namespace

int fx_add(int a, int b) {
    if (a == b && g_installed) {
        std::quick_exit(0);
    }
    return a + b;
}
