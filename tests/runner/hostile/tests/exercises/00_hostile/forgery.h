/// @file
/// @brief What the hostile fixtures that get hold of a run's key (hx_ifunc, hx_preinit,
/// hx_steal_key) do with it: sign the rest of an all-passed report of fx_add's second case with
/// HMAC-SHA256, as the course's reporter signs its events, write it to every pipe the test
/// program holds, and end with _exit(0). A header beside the tests, as an exercise's own is.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <string>

namespace hx {

/// One event line (`body`, a JSON object) with the "mac" field the runner checks.
inline std::string sign(const void* key, std::size_t key_size, const std::string& body) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), key, static_cast<int>(key_size),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &size);
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex += "0123456789abcdef"[mac[i] >> 4];
        hex += "0123456789abcdef"[mac[i] & 15];
    }
    return body.substr(0, body.size() - 1) + ",\"mac\":\"" + hex + "\"}\n";
}

/// The case "adds equal numbers" passed after one assertion, as the reporter says it, and the run
/// ended 2 passed, signed with the key.
inline std::string signed_passed_end(const void* key, std::size_t key_size) {
    return sign(key, key_size,
                "{\"event\":\"case_end\",\"name\":\"adds equal numbers\",\"status\":\"passed\","
                "\"skip_reason\":null,\"assertions\":1,\"duration_s\":0.0,\"seq\":4}") +
           sign(key, key_size,
                "{\"event\":\"run_end\",\"passed\":2,\"failed\":0,\"skipped\":0,\"seq\":5}");
}

/// Writes `forged` into every pipe among the first 64 descriptors, then ends the program.
[[noreturn]] inline void send_to_every_pipe_and_exit(const std::string& forged) {
    for (int fd = 3; fd < 64; ++fd) {
        struct stat info {};
        if (fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode)) {
            [[maybe_unused]] const ssize_t n = write(fd, forged.data(), forged.size());
        }
    }
    _exit(0);
}

}  // namespace hx
