/// @file
/// @brief The runner's messages: the table of their texts (core/messages.def), and how a message
/// is made from it.
#include "core/messages.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/text.h"

namespace torchlings::runner {

namespace {

struct Entry {
    std::string_view english;
    std::string_view korean;
};

constexpr std::array<Entry, static_cast<std::size_t>(Msg::kCount)> kMessages{{
#define TL_MESSAGE(id, english, korean) {english, korean},
#include "core/messages.def"
#undef TL_MESSAGE
}};
static_assert(std::ranges::none_of(kMessages,
                                   [](const Entry& entry) {
                                       return entry.english.empty() || entry.korean.empty();
                                   }),
              "every message has its English and its Korean text");

bool is_wide(std::uint32_t code) {
    return (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
           (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
           (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
           (code >= 0xFFE0 && code <= 0xFFE6) || (code >= 0x20000 && code <= 0x3FFFD);
}

}  // namespace

std::string message(Language language, Msg id, std::initializer_list<MessageArg> args) {
    const Entry& entry = kMessages.at(static_cast<std::size_t>(id));
    const std::string_view text = language == Language::kKorean ? entry.korean : entry.english;
    std::string result;
    for (std::size_t at = 0; at < text.size(); ++at) {
        if (text[at] == '{' && at + 2 < text.size() && text[at + 1] >= '0' && text[at + 1] <= '9' &&
            text[at + 2] == '}') {
            const auto index = static_cast<std::size_t>(text[at + 1] - '0');
            if (index < args.size()) {
                result += std::data(args)[index].text();
                at += 2;
                continue;
            }
        }
        result += text[at];
    }
    return result;
}

std::string status_text(Language language, ExerciseStatus status) {
    static constexpr std::array<Msg, 6> kLabels{Msg::kStatusNotTried, Msg::kStatusDone,
                                                Msg::kStatusFailing,  Msg::kStatusBuildError,
                                                Msg::kStatusSkipped,  Msg::kStatusChanged};
    return message(language, kLabels.at(static_cast<std::size_t>(status)));
}

std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t at = 0; at < text.size();) {
        const auto [code, length] = utf8_at(text, at);
        width += length != 0 && is_wide(code) ? 2 : 1;  // a stray byte: one column
        at += std::max<std::size_t>(length, 1);
    }
    return width;
}

std::string pad_to_width(std::string text, std::size_t width) {
    const std::size_t have = display_width(text);
    if (have < width) {
        text.append(width - have, ' ');
    }
    return text;
}

}  // namespace torchlings::runner
