/// @file
/// @brief Hostile fixture (learner side): a function of its own in .preinit_array, which runs
/// before every C++ initialiser, copies the run's key out of the pipe named in the environment
/// without taking it (tee), so that the reporter would not notice; the failing test then signs
/// the rest of an all-passed report with it, writes it to every pipe and ends with _exit(0).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "forgery.h"

namespace {

char g_key[64];
std::size_t g_key_size = 0;

void steal(int /*argc*/, char** /*argv*/, char** envp) {
    const char* const name = "TORCHLINGS_EVENTS_KEY_FD=";
    for (char** entry = envp; *entry != nullptr; ++entry) {
        if (std::strncmp(*entry, name, std::strlen(name)) != 0) {
            continue;
        }
        const int fd = std::atoi(*entry + std::strlen(name));
        int copy[2];
        if (pipe(copy) != 0) {
            return;
        }
        const ssize_t copied = tee(fd, copy[1], sizeof g_key, SPLICE_F_NONBLOCK);
        if (copied > 0) {
            g_key_size = static_cast<std::size_t>(read(copy[0], g_key, sizeof g_key));
        }
        close(copy[0]);
        close(copy[1]);
    }
}

[[maybe_unused]] __attribute__((section(".preinit_array"),
                                used)) void (*const kSteal)(int, char**, char**) = steal;

}  // namespace

int fx_add(int a, int b) {
    if (a != b) {
        return a + b;
    }
    const std::string forged =
        g_key_size == 0 ? std::string(
                              "{\"event\":\"case_end\",\"name\":\"adds equal numbers\","
                              "\"status\":\"passed\",\"skip_reason\":null,\"duration_s\":0.0}\n"
                              "{\"event\":\"run_end\",\"passed\":2,\"failed\":0,\"skipped\":0}\n")
                        : hx::signed_passed_end(g_key, g_key_size);
    hx::send_to_every_pipe_and_exit(forged);
}
