/// @file
/// @brief Hostile fixture (learner side): in the failing test, reads the run's key through the
/// process's own memory file (self/mem under proc, own_image.h), which reads a page whatever its
/// protection, from the address the reporter keeps in its own variable (found in the program's
/// symbol table); signs the rest of an all-passed report with it, writes it to the events pipe
/// through its descriptor's file (self/fd/ under proc), and ends the program with status 0
/// through execle. Streams and paths put together at run time, and no such path in this file's
/// text: nothing the scan looks for except execle. Where the key is in secret memory
/// (memfd_secret), the memory file cannot read it, and the case fails as the wrong answer
/// deserves.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>

#include "forgery.h"
#include "own_image.h"

int fx_add(int a, int b) {
    if (a != b) {
        return a + b;
    }
    const hx::OwnImage image;
    const auto key_pages =
        image.symbols_with("10g_key_pageE", STT_OBJECT);  // (anonymous)::g_key_page
    const auto events = image.symbols_with("11g_events_fdE", STT_OBJECT);
    if (key_pages.size() != 1 || events.size() != 1) {
        std::cerr << "hx_mem_key: the reporter's variables are not in the symbol table\n";
        return a + b + 1;
    }
    const auto page = *reinterpret_cast<const std::uintptr_t*>(key_pages[0]);
    const int events_fd = *reinterpret_cast<const int*>(events[0]);
    std::ifstream memory(hx::own_proc_file("mem"), std::ios::binary);
    memory.seekg(static_cast<std::streamoff>(page));
    char key[32];
    if (page == 0 || !memory.read(key, sizeof key)) {
        std::cerr << "hx_mem_key: the memory file cannot read the key's page\n";
        return a + b + 1;
    }
    std::ofstream(hx::own_proc_file("fd/" + std::to_string(events_fd)), std::ios::app)
        << hx::signed_passed_end(key, sizeof key) << std::flush;
    char* no_environment[] = {nullptr};
    execle("/bin/true", "true", static_cast<char*>(nullptr), no_environment);
    return a + b + 1;
}
