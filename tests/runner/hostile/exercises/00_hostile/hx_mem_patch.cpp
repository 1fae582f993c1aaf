/// @file
/// @brief Hostile fixture (learner side): before main, a global's initializer writes a return
/// instruction over the start of every test case's function (Catch2's static functions, found
/// by name in the program's symbol table) through the process's own memory file (self/mem under
/// proc, own_image.h), which writes even into read-only code. The real reporter then signs real
/// passes of cases that checked nothing. In the sandbox that file system is read-only, so the
/// file cannot be opened for writing and the tests run as written; without it, every case
/// passes with no assertion, and the run is refused.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <vector>

#include "own_image.h"

namespace {

[[maybe_unused]] const bool g_patched = [] {
    const hx::OwnImage image;
    std::vector<std::uintptr_t> bodies = image.symbols_with("CATCH2_INTERNAL_TEST_", STT_FUNC);
    for (const std::uintptr_t body : image.symbols_with("C_A_T_C_H_T_E_S_T_", STT_FUNC)) {
        bodies.push_back(body);  // Catch2 v2's name for the same
    }
#if defined(__x86_64__)
    const char ret[] = {'\xc3'};
#elif defined(__aarch64__)
    // bti c; ret: a landing pad first, where branch target identification is enforced (a no-op
    // elsewhere), since Catch2 calls the test through a pointer.
    const char ret[] = {'\x5f', '\x24', '\x03', '\xd5', '\xc0', '\x03', '\x5f', '\xd6'};
#else
#error "hx_mem_patch knows the return instruction of x86-64 and AArch64 only"
#endif
    std::fstream memory(hx::own_proc_file("mem"), std::ios::in | std::ios::out | std::ios::binary);
    if (!memory) {
        std::cerr << "hx_mem_patch: the memory file cannot be opened for writing\n";
        return false;
    }
    for (const std::uintptr_t body : bodies) {
        memory.seekp(static_cast<std::streamoff>(body));
        memory.write(ret, sizeof ret);
        memory.flush();
    }
    return !bodies.empty();
}();

}  // namespace

int fx_add(int a, int b) { return a == b ? a + b + 1 : a + b; }
