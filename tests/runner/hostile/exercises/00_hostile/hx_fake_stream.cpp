/// @file
/// @brief Hostile fixture (learner side): a wrong answer that, in the failing test, writes the
/// rest of an all-passed report to every pipe it holds (the runner's events pipe among them),
/// then ends the program with _exit(0) before Catch2 can report the failure.
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

int fx_add(int a, int b) {
    if (a != b) {
        return a + b;
    }
    const char* const forged =
        "{\"event\":\"case_end\",\"name\":\"adds equal numbers\",\"status\":\"passed\","
        "\"skip_reason\":null,\"duration_s\":0.0}\n"
        "{\"event\":\"run_end\",\"passed\":2,\"failed\":0,\"skipped\":0}\n";
    for (int fd = 3; fd < 64; ++fd) {
        struct stat info {};
        if (fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode)) {
            [[maybe_unused]] const ssize_t n = write(fd, forged, std::strlen(forged));
        }
    }
    _exit(0);
}
