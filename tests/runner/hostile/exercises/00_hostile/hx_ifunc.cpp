/// @file
/// @brief Hostile fixture (learner side): an indirect function (ifunc), whose resolver the
/// dynamic loader calls while it relocates the program, before any .preinit_array entry: the
/// resolver copies the run's key out of its pipe (descriptor 4) without taking it (tee). The
/// failing test then signs the rest of an all-passed report with it and ends with _exit(0).
/// Only the scan of the learner's object can see this: it refuses indirect functions.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

#include "forgery.h"

namespace {

char g_key[64];
long g_key_size = 0;

int add(int a, int b) { return a + b; }

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
    hx::send_to_every_pipe_and_exit(
        hx::signed_passed_end(g_key, static_cast<std::size_t>(g_key_size)));
}
