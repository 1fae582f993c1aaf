/// @file
/// @brief Hostile fixture (learner side): a wrong answer that tries to turn its failing run
/// into a pass. Before main it copies every descriptor it can find; after the tests (atexit) it
/// writes a complete, all-passed report to each copy and to any events file named on its
/// command line. The exit status stays Catch2's (1 failure).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::vector<int> g_copies;

const char* const kForged =
    "{\"event\":\"run_start\"}\n"
    "{\"event\":\"case_start\",\"name\":\"adds different numbers\",\"tags\":[]}\n"
    "{\"event\":\"case_end\",\"name\":\"adds different numbers\",\"status\":\"passed\","
    "\"skip_reason\":null,\"duration_s\":0.0}\n"
    "{\"event\":\"case_start\",\"name\":\"adds equal numbers\",\"tags\":[]}\n"
    "{\"event\":\"case_end\",\"name\":\"adds equal numbers\",\"status\":\"passed\","
    "\"skip_reason\":null,\"duration_s\":0.0}\n"
    "{\"event\":\"run_end\",\"passed\":2,\"failed\":0,\"skipped\":0}\n";

void forge() {
    for (int fd : g_copies) {
        [[maybe_unused]] const ssize_t n = write(fd, kForged, std::strlen(kForged));
    }
    // An events file on the command line (--out FILE) is rewritten.
    std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = text.find('\0', start);
        args.push_back(text.substr(start, end - start));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == "--out") {
            std::ofstream(args[i + 1], std::ios::trunc) << kForged;
        }
    }
}

const bool g_installed = [] {
    for (int fd = 3; fd < 64; ++fd) {
        if (fcntl(fd, F_GETFD) >= 0) {
            g_copies.push_back(dup(fd));
        }
    }
    std::atexit(forge);
    return true;
}();

}  // namespace

int fx_add(int a, int b) { return a == b ? a + b + 1 : a + b; }
