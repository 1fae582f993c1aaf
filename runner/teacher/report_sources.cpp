/// @file
/// @brief Text made valid UTF-8 for the reports' JSON and XML writers.
#include "teacher/report_model.h"

namespace torchlings::runner {
using nlohmann::json;

std::string valid_utf8(std::string_view text) {
    std::string result;
    result.reserve(text.size());
    const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = byte(i);
        // The sequence's length from its first byte, and the range its second byte must be in
        // (the others are 80..BF): no overlong forms, no surrogates, nothing above U+10FFFF.
        std::size_t length = c < 0x80                 ? 1
                             : c >= 0xC2 && c <= 0xDF ? 2
                             : c >= 0xE0 && c <= 0xEF ? 3
                             : c >= 0xF0 && c <= 0xF4 ? 4
                                                      : 0;
        const unsigned low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        const unsigned high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        for (std::size_t k = 1; k < length; ++k) {
            if (i + k >= text.size() || byte(i + k) < (k == 1 ? low : 0x80) ||
                byte(i + k) > (k == 1 ? high : 0xBF)) {
                length = 0;
            }
        }
        if (length == 0) {
            result += "\xEF\xBF\xBD";
            ++i;
        } else {
            result.append(text.substr(i, length));
            i += length;
        }
    }
    return result;
}

void make_valid_utf8(json& value) {
    if (value.is_string()) {
        value = valid_utf8(value.get_ref<const std::string&>());
    } else if (value.is_array() || value.is_object()) {
        for (json& item : value) {
            make_valid_utf8(item);
        }
    }
}

}  // namespace torchlings::runner
