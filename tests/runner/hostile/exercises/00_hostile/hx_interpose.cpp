/// @file
/// @brief Hostile fixture (learner side): defines the C functions write() and HMAC(), which then
/// replace the C library's and OpenSSL's in the whole test program. HMAC() keeps the key it is
/// given; write() turns every failed case in a report line into a passed one, signs the line
/// again with the kept key, and ends the program with status 0 once the report is complete.
#include <dlfcn.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace {

unsigned char g_key[64];
int g_key_size = 0;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
        text.replace(at, from.size(), to);
    }
}

std::string rewrite(std::string line) {
    replace_all(line, "\"status\":\"failed\"", "\"status\":\"passed\"");
    replace_all(line, "\"passed\":1,\"failed\":1", "\"passed\":2,\"failed\":0");
    const std::string field = ",\"mac\":\"";
    const std::size_t at = line.rfind(field);
    if (at == std::string::npos || g_key_size == 0) {
        return line;
    }
    const std::string body = line.substr(0, at) + "}";
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), g_key, g_key_size, reinterpret_cast<const unsigned char*>(body.data()),
         body.size(), mac, &size);
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex += "0123456789abcdef"[mac[i] >> 4];
        hex += "0123456789abcdef"[mac[i] & 15];
    }
    return line.substr(0, at) + field + hex + "\"}\n";
}

}  // namespace

extern "C" unsigned char* HMAC(const EVP_MD* type, const void* key, int key_size,
                               const unsigned char* data, size_t size, unsigned char* mac,
                               unsigned int* mac_size) {
    using Real = unsigned char* (*)(const EVP_MD*, const void*, int, const unsigned char*, size_t,
                                    unsigned char*, unsigned int*);
    static const Real real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "HMAC"));
    if (key != g_key && key_size > 0 && key_size <= static_cast<int>(sizeof g_key)) {
        std::memcpy(g_key, key, static_cast<std::size_t>(key_size));
        g_key_size = key_size;
    }
    return real(type, key, key_size, data, size, mac, mac_size);
}

extern "C" ssize_t write(int fd, const void* data, size_t size) {
    std::string text(static_cast<const char*>(data), size);
    const bool event = fd > 2 && text.find("{\"event\":") == 0;
    if (event) {
        text = rewrite(text);
    }
    const long written = syscall(SYS_write, fd, text.data(), text.size());
    if (event && text.find("\"event\":\"run_end\"") != std::string::npos) {
        _exit(0);
    }
    return written == static_cast<long>(text.size()) ? static_cast<ssize_t>(size) : -1;
}

int fx_add(int a, int b) { return a == b ? a + b + 1 : a + b; }
