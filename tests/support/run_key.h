/// @file
/// @brief The run's key and the signing of event lines, for catch_main.cpp alone: included
/// there once, so that everything here keeps internal linkage in that one translation unit (no
/// name the learner's file could link to). The key is taken from TORCHLINGS_EVENTS_KEY_FD, and the
/// events descriptor from TORCHLINGS_EVENTS_FD, before any C++ initialiser of the program runs.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/syscall.h>
#endif

#include <array>
#include <cerrno>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/system_crypto.h"  // hmac_sha256(), as the runner checks it (runner/core/)

namespace {

/// The runner's events pipe (TORCHLINGS_EVENTS_FD), or -1: events go to Catch's stream.
int g_events_fd = -1;

// --- The run's key (TORCHLINGS_EVENTS_KEY_FD) ---
// Taken before any code of the learner's file can run, and used only here. The system calls on
// the key's way go straight to the kernel where the machine allows it, so that a function of
// the same name defined in the learner's file (which would replace the C library's for the
// whole program) never sees the key.

constexpr std::size_t kKeySize = 32;
/// The page that holds the key: PROT_NONE except while a line is signed; nullptr without a key.
unsigned char* g_key_page = nullptr;
long g_page_size = 0;
/// The sequence number of the next signed line.
long long g_sequence = 0;
bool g_taken = false;
// TORCHLINGS_TEST_SEED as the program started with it (tl_test/drawn.h reads it through
// tl_test_seed_at_start below): a learner's file that changes its environment later changes
// nothing the tests draw.
std::array<char, 72> g_test_seed{};
bool g_test_seed_set = false;

#if defined(__linux__) && defined(__x86_64__)
#define TL_KERNEL_CALLS 1
long kernel_call(long number, long a, long b, long c, long d = 0, long e = 0, long f = 0) {
    long result = 0;
    register long r10 asm("r10") = d;
    register long r8 asm("r8") = e;
    register long r9 asm("r9") = f;
    asm volatile("syscall"
                 : "=a"(result)
                 : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                 : "rcx", "r11", "memory");
    return result;
}
#elif defined(__linux__) && defined(__aarch64__)
long kernel_call(long number, long a, long b, long c, long d = 0, long e = 0, long f = 0) {
    register long x8 asm("x8") = number;
    register long x0 asm("x0") = a;
    register long x1 asm("x1") = b;
    register long x2 asm("x2") = c;
    register long x3 asm("x3") = d;
    register long x4 asm("x4") = e;
    register long x5 asm("x5") = f;
    asm volatile("svc 0"
                 : "+r"(x0)
                 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                 : "memory");
    return x0;
}
#define TL_KERNEL_CALLS 1
#endif

/// read(); -EINTR when interrupted.
long key_read(int fd, void* buffer, std::size_t size) {
#ifdef TL_KERNEL_CALLS
    return kernel_call(SYS_read, fd, reinterpret_cast<long>(buffer), static_cast<long>(size));
#else
    const ssize_t count = ::read(fd, buffer, size);
    return count < 0 && errno == EINTR ? -EINTR : count;
#endif
}

void key_close(int fd) {
#ifdef TL_KERNEL_CALLS
    kernel_call(SYS_close, fd, 0, 0);
#else
    ::close(fd);
#endif
}

#ifdef TL_KERNEL_CALLS
/// A page of secret memory (memfd_secret), or MAP_FAILED. Its pages are left out of the kernel's
/// own mapping of memory, so /proc/self/mem and process_vm_readv cannot read the page itself,
/// though it is this process's own. (The signing reads it, and OpenSSL copies the key into its
/// own memory for each MAC, for a moment: runner/README.md says what that leaves open.) Linux
/// has it from 5.14 on x86-64 and AArch64 (number 447 on both), on by default from 6.5. The
/// key's page is ordinary memory, which /proc/self/mem reads, where the kernel lacks it or has
/// it off (secretmem.enable=0 on 5.14 to 6.4; AArch64 without rodata=full), where a seccomp
/// profile refuses the call, and where one more locked page would pass RLIMIT_MEMLOCK.
void* secret_page(std::size_t size) {
    constexpr long kMemfdSecret = 447;
    const long fd = kernel_call(kMemfdSecret, 0, 0, 0);
    if (fd < 0) {
        return MAP_FAILED;
    }
    long address = kernel_call(SYS_ftruncate, fd, static_cast<long>(size), 0);
    if (address == 0) {
        address = kernel_call(SYS_mmap, 0, static_cast<long>(size), PROT_READ | PROT_WRITE,
                              MAP_SHARED, fd, 0);
    }
    kernel_call(SYS_close, fd, 0, 0);
    return address < 0 && address > -4096 ? MAP_FAILED : reinterpret_cast<void*>(address);
}
#endif

void* key_map(std::size_t size) {
#ifdef TL_KERNEL_CALLS
    if (void* page = secret_page(size); page != MAP_FAILED) {
        return page;
    }
    const long address = kernel_call(SYS_mmap, 0, static_cast<long>(size), PROT_READ | PROT_WRITE,
                                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return address < 0 && address > -4096 ? MAP_FAILED : reinterpret_cast<void*>(address);
#else
    return ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#endif
}

void key_protect(int protection) {
#ifdef TL_KERNEL_CALLS
    kernel_call(SYS_mprotect, reinterpret_cast<long>(g_key_page), g_page_size, protection);
#else
    ::mprotect(g_key_page, static_cast<std::size_t>(g_page_size), protection);
#endif
}

/// Zeroes the key's bytes (the page must be writable), byte by byte: no memset to replace.
void wipe_key() {
    volatile unsigned char* bytes = g_key_page;
    for (std::size_t i = 0; i < kKeySize; ++i) {
        bytes[i] = 0;
    }
}

/// The number a variable `NAME=<digits>` holds, or -1.
int descriptor_in(const char* entry, std::string_view name) {
    const std::string_view text(entry);
    if (text.size() <= name.size() || text.compare(0, name.size(), name) != 0 ||
        text[name.size()] != '=') {
        return -1;
    }
    long value = 0;
    if (text.size() == name.size() + 1) {
        return -1;  // no digits
    }
    for (const char digit : text.substr(name.size() + 1)) {
        if (digit < '0' || digit > '9' || value > 1024) {
            return -1;
        }
        value = value * 10 + (digit - '0');
    }
    return value < 1024 ? static_cast<int>(value) : -1;
}

/// Takes the events descriptor and the key's descriptor out of the environment; reads the key
/// (when `use_key`) straight into a page of its own, then closes its pipe. Runs once, from the
/// first .preinit_array entry, before the C++ initialisers of the program. `envp` is the
/// environment the program started with. The key never passes through a library function
/// (memcpy, memset, ...) that the learner's file could replace.
void take_key_and_events(char** envp, bool use_key) {
    if (g_taken) {
        return;
    }
    g_taken = true;
    int key_fd = -1;
    char** kept = envp;
    for (char** entry = envp; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        constexpr std::string_view kSeed = "TORCHLINGS_TEST_SEED=";
        if (text.rfind(kSeed, 0) == 0) {  // copied whole, or cut short (then not a seed)
            std::size_t i = 0;
            for (; i + 1 < g_test_seed.size() && kSeed.size() + i < text.size(); ++i) {
                g_test_seed[i] = text[kSeed.size() + i];
            }
            g_test_seed[i] = '\0';
            g_test_seed_set = true;
        }
        const int events = descriptor_in(*entry, "TORCHLINGS_EVENTS_FD");
        const int key = descriptor_in(*entry, "TORCHLINGS_EVENTS_KEY_FD");
        if (events >= 0) {
            g_events_fd = events;
        } else if (key >= 0) {
            key_fd = key;
        } else if (std::string_view(*entry).rfind("TORCHLINGS_EVENTS", 0) != 0) {
            *kept++ = *entry;  // the environment, less the two variables
        }
    }
    if (envp != nullptr) {
        *kept = nullptr;
    }
    if (g_events_fd >= 0 && fcntl(g_events_fd, F_SETFD, FD_CLOEXEC) != 0) {
        g_events_fd = -1;
    }
    if (key_fd < 0) {
        return;
    }
    g_page_size = sysconf(_SC_PAGESIZE);
    void* page =
        use_key && g_page_size > 0 ? key_map(static_cast<std::size_t>(g_page_size)) : MAP_FAILED;
    std::size_t got = 0;
    while (page != MAP_FAILED && got < kKeySize) {
        const long count =
            key_read(key_fd, static_cast<unsigned char*>(page) + got, kKeySize - got);
        if (count == -EINTR) {
            continue;
        }
        if (count <= 0) {
            break;
        }
        got += static_cast<std::size_t>(count);
    }
    key_close(key_fd);
    if (page != MAP_FAILED) {
        g_key_page = static_cast<unsigned char*>(page);
        if (got < kKeySize) {
            wipe_key();  // a key cut short is no key: the lines go unsigned, and are refused
            g_key_page = nullptr;
            return;
        }
        key_protect(PROT_NONE);
    }
}

/// Erases the key once the tests have ended: nothing after them is signed.
void forget_key() {
    if (g_key_page == nullptr) {
        return;
    }
    key_protect(PROT_READ | PROT_WRITE);
    wipe_key();
    key_protect(PROT_NONE);
    g_key_page = nullptr;
}

/// The line with its sequence number and MAC, when the run has a key: `body` ends with "}".
std::string signed_line(const std::string& body) {
    key_protect(PROT_READ);
    system_crypto::Sha256 mac{};
    const bool ok = system_crypto::hmac_sha256(g_key_page, kKeySize, body, mac);
    key_protect(PROT_NONE);
    static constexpr std::string_view kHex = "0123456789abcdef";
    std::string line = body.substr(0, body.size() - 1) + ",\"mac\":\"";
    for (const unsigned char byte : mac) {
        if (ok) {
            line += kHex[byte >> 4];
            line += kHex[byte & 15];
        }
    }
    return line + "\"}\n";
}

}  // namespace

/// The TORCHLINGS_TEST_SEED this program started with, or nullptr when it had none: taken by the
/// first .preinit_array entry, before any code of the learner's file ran.
extern "C" __attribute__((visibility("hidden"))) const char* tl_test_seed_at_start() {
    return g_test_seed_set ? g_test_seed.data() : nullptr;
}

#ifdef __ELF__
/// The linker's start of the executable's .preinit_array (GNU ld, gold, lld and mold define it).
extern "C"
    __attribute__((weak, visibility("hidden"))) void (*const __preinit_array_start[])(int, char**,
                                                                                      char**);
#endif

/// The reporter's first code: .preinit_array functions run before every C++ initialiser of the
/// program (and before those of its shared libraries). reporter_first.cpp puts a call to this
/// at the head of the executable's array, before any entry of the learner's file; the entry
/// below is there for test programs linked without it.
extern "C" __attribute__((visibility("hidden"))) void tl_reporter_preinit(int /*argc*/,
                                                                          char** /*argv*/,
                                                                          char** envp) {
#ifdef __ELF__
    // Another function ran before this one (an entry of the learner's file ahead of ours): it
    // may have copied the key, so the reporter uses none, and the runner refuses its unsigned
    // lines.
    if (__preinit_array_start != nullptr && __preinit_array_start[0] != &tl_reporter_preinit) {
        take_key_and_events(envp, /*use_key=*/false);
        return;
    }
#endif
    take_key_and_events(envp, /*use_key=*/true);
}

#ifdef __ELF__
namespace {
[[maybe_unused]] __attribute__((section(".preinit_array"),
                                used)) void (*const kPreinit)(int, char**,
                                                              char**) = tl_reporter_preinit;
}  // namespace
#endif
