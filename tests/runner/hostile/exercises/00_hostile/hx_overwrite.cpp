/// @file
/// @brief Hostile fixture (learner side): writes over what it should only read. Another test
/// program of the build (ex_hx_slow, beside its own program), the progress file ($HX_STATE: a
/// forged record of hx_slow done) and a file of the course (its own test, from the course root,
/// where it runs). Prints what each write did; the answer is wrong, so that the output is shown.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void overwrite(const std::string& path, const std::string& text, int flags) {
    const int fd = open(path.c_str(), O_WRONLY | flags, 0644);
    if (fd < 0) {
        std::printf("hx_overwrite: %s: %s\n", path.c_str(), std::strerror(errno));
        return;
    }
    const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    close(fd);
    std::printf("hx_overwrite: %s: %s\n", path.c_str(), written ? "written" : "short write");
}

}  // namespace

int hx_overwrite() {
    char self[4096] = {};
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length > 0) {
        std::string program(self, static_cast<std::size_t>(length));
        program.erase(program.rfind('/') + 1);
        overwrite(program + "ex_hx_slow", "#!/bin/sh\necho forged\n", O_TRUNC);
    }
    if (const char* state = std::getenv("HX_STATE")) {
        overwrite(state,
                  "{\"format_version\": 2, \"exercises\": {\"hx_slow\": {\"status\": \"done\", "
                  "\"hints_revealed\": 0}}}\n",
                  O_TRUNC | O_CREAT);
    }
    overwrite("tests/exercises/00_hostile/hx_overwrite_test.cpp", "// forged\n", O_APPEND);
    std::fflush(stdout);
    return 1;
}
