/// @file
/// @brief Hostile fixture (learner side): a global whose initializer ends the program with
/// status 0 before main, so no test ever runs.
#include <cstdlib>

namespace {
const int g_value = [] {
    std::exit(0);
    return 0;
}();
}  // namespace

int hx_value() { return g_value + 1; }
