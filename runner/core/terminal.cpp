/// @file
/// @brief Terminal detection and ANSI colour.
#include "core/terminal.h"

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

#include "core/errors.h"

namespace torchlings::runner {
namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

/// The locale the C library would use for character types is UTF-8.
bool utf8_locale() {
    for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
        std::string value = env(name);
        if (value.empty()) {
            continue;
        }
        std::ranges::transform(value, value.begin(),
                               [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return value.find("utf-8") != std::string::npos || value.find("utf8") != std::string::npos;
    }
    return false;
}

}  // namespace

ColorMode parse_color_mode(std::string_view text) {
    // In the order of ColorMode.
    constexpr std::array<std::string_view, 3> kModes{"auto", "always", "never"};
    const auto* found = std::find(kModes.begin(), kModes.end(), text);
    if (found == kModes.end()) {
        throw UsageError("--color takes auto, always or never, not \"" + std::string(text) + "\"");
    }
    return static_cast<ColorMode>(found - kModes.begin());
}

Style Style::detect(ColorMode mode) {
    const bool color =
        mode == ColorMode::kAlways || (mode == ColorMode::kAuto && isatty(STDOUT_FILENO) != 0 &&
                                       env("NO_COLOR").empty() && env("TERM") != "dumb");
    return {color, utf8_locale()};
}

std::string Style::paint(std::string_view code, std::string_view text) const {
    return color_ ? "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m"
                  : std::string(text);
}

}  // namespace torchlings::runner
