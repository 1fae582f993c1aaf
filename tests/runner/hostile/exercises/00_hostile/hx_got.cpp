/// @file
/// @brief Hostile fixture (learner side): before main, a global's initializer points the call
/// table's slots of HMAC and close (found in the program's own relocations) at functions of
/// this file, which have names of their own, so the scan sees no C function replaced. The new
/// HMAC turns the failed case into a passed one in each line before the reporter signs it; the
/// new close, when the reporter closes its events pipe after the run, ends the program with
/// status 0 through execle. Where the program is linked with full RELRO the table is read-only
/// from the start of the program, and the first write to it kills the program.
#include <openssl/evp.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string_view>

#include "own_image.h"

namespace {

using Hmac = unsigned char* (*)(const EVP_MD*, const void*, int, const unsigned char*, size_t,
                                unsigned char*, unsigned int*);
using Close = int (*)(int);

std::uintptr_t* g_hmac_slot = nullptr;
std::uintptr_t* g_close_slot = nullptr;
std::uintptr_t g_hmac = 0;  // what the slot held: the library's function once it is bound
std::uintptr_t g_close = 0;
bool g_run_ended = false;

/// Writes `to` over each `from` in the text (of the same size).
void overwrite(char* text, std::size_t size, std::string_view from, std::string_view to) {
    const std::string_view view(text, size);
    for (std::size_t at = view.find(from); at != std::string_view::npos; at = view.find(from, at)) {
        std::memcpy(text + at, to.data(), to.size());
    }
}

unsigned char* hooked_hmac(const EVP_MD* type, const void* key, int key_size,
                           const unsigned char* data, size_t size, unsigned char* mac,
                           unsigned int* mac_size);

/// Calls the slot's own function (which binds it on the first call), then takes the slot back.
template <typename Function, typename... Args>
auto call_through(std::uintptr_t* slot, std::uintptr_t& original, void* hook, Args... args) {
    *slot = original;
    auto result = reinterpret_cast<Function>(original)(args...);
    original = *slot;
    *slot = reinterpret_cast<std::uintptr_t>(hook);
    return result;
}

unsigned char* hooked_hmac(const EVP_MD* type, const void* key, int key_size,
                           const unsigned char* data, size_t size, unsigned char* mac,
                           unsigned int* mac_size) {
    // The line about to be signed: a failure becomes a pass, the failed assertion an event
    // that nobody reads, and the run's totals all passed; sizes stay as they are.
    char* text = const_cast<char*>(reinterpret_cast<const char*>(data));
    overwrite(text, size, "\"status\":\"failed\"", "\"status\":\"passed\"");
    overwrite(text, size, "\"event\":\"assertion\"", "\"event\":\"assertiox\"");
    if (std::string_view(text, size).find("\"event\":\"run_end\"") != std::string_view::npos) {
        overwrite(text, size, "\"passed\":1,\"failed\":1", "\"passed\":2,\"failed\":0");
        g_run_ended = true;
    }
    return call_through<Hmac>(g_hmac_slot, g_hmac, reinterpret_cast<void*>(&hooked_hmac), type, key,
                              key_size, data, size, mac, mac_size);
}

int hooked_close(int fd) {
    if (g_run_ended) {
        char* no_environment[] = {nullptr};
        execle("/bin/true", "true", static_cast<char*>(nullptr), no_environment);
    }
    return call_through<Close>(g_close_slot, g_close, reinterpret_cast<void*>(&hooked_close), fd);
}

[[maybe_unused]] const bool g_hooked = [] {
    const hx::OwnImage image;
    g_hmac_slot = reinterpret_cast<std::uintptr_t*>(image.call_slot("HMAC"));
    g_close_slot = reinterpret_cast<std::uintptr_t*>(image.call_slot("close"));
    if (g_hmac_slot == nullptr || g_close_slot == nullptr) {
        return false;
    }
    g_hmac = *g_hmac_slot;
    g_close = *g_close_slot;
    *g_hmac_slot = reinterpret_cast<std::uintptr_t>(&hooked_hmac);  // read-only under full RELRO
    *g_close_slot = reinterpret_cast<std::uintptr_t>(&hooked_close);
    return true;
}();

}  // namespace

int fx_add(int a, int b) { return a == b ? a + b + 1 : a + b; }
