/// @file
/// @brief What the reports read and share: the exercise's files (Sources), a status's name, and
/// text made valid UTF-8 for JSON and XML writers.
#include <string>
#include <string_view>

#include "core/errors.h"
#include "core/text.h"

#include "teacher/report_model.h"

namespace torchlings::runner {
using nlohmann::json;

// --- Sources ------------------------------------------------------------------------------

Sources::Sources(const Context& context) : context_(context) {
    try {
        course_ = &context.course();
    } catch (const EnvironmentError&) {
        // Without the course the reports leave out test code and file names.
    }
}

bool Sources::has(const Exercise& exercise) const {
    return course_ != nullptr && course_->find_exercise(exercise.id) != nullptr;
}

std::string Sources::test_file(const Exercise& exercise) const {
    return has(exercise) ? context_.show(course_->test_file(exercise)) : std::string();
}

std::string Sources::learner_file(const Exercise& exercise) const {
    return has(exercise) ? context_.show(course_->learner_file(exercise)) : std::string();
}

const std::vector<std::string>& Sources::test_lines(const Exercise& exercise) {
    auto found = lines_.find(exercise.id);
    if (found != lines_.end()) {
        return found->second;
    }
    std::vector<std::string> lines;
    if (has(exercise)) {
        try {
            lines = split_lines(read_file(course_->test_file(exercise)));
        } catch (const EnvironmentError&) {
            // An unreadable test file: no code to quote.
        }
    }
    return lines_.emplace(exercise.id, std::move(lines)).first->second;
}

std::string status_name(Status status) {
    switch (status) {
        case Status::kPass:
            return "pass";
        case Status::kFail:
            return "fail";
        case Status::kError:
            return "error";
    }
    return "error";
}

/// The text with every invalid UTF-8 sequence replaced by U+FFFD, so that JSON and XML
/// writers accept whatever a test program printed.
std::string valid_utf8(std::string_view text) {
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string result;
    result.reserve(text.size());
    std::size_t i = 0;
    const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
    const auto continuation = [&](std::size_t at, unsigned char low, unsigned char high) {
        return at < text.size() && byte(at) >= low && byte(at) <= high;
    };
    while (i < text.size()) {
        const unsigned char c = byte(i);
        std::size_t length = 0;
        if (c < 0x80) {
            length = 1;
        } else if (c >= 0xC2 && c <= 0xDF) {
            length = continuation(i + 1, 0x80, 0xBF) ? 2 : 0;
        } else if (c >= 0xE0 && c <= 0xEF) {
            const unsigned char low = c == 0xE0 ? 0xA0 : 0x80;
            const unsigned char high = c == 0xED ? 0x9F : 0xBF;
            length = continuation(i + 1, low, high) && continuation(i + 2, 0x80, 0xBF) ? 3 : 0;
        } else if (c >= 0xF0 && c <= 0xF4) {
            const unsigned char low = c == 0xF0 ? 0x90 : 0x80;
            const unsigned char high = c == 0xF4 ? 0x8F : 0xBF;
            length = continuation(i + 1, low, high) && continuation(i + 2, 0x80, 0xBF) &&
                             continuation(i + 3, 0x80, 0xBF)
                         ? 4
                         : 0;
        }
        if (length == 0) {
            result += kReplacement;
            ++i;
        } else {
            result.append(text.substr(i, length));
            i += length;
        }
    }
    return result;
}

/// Replaces invalid UTF-8 in every string of a JSON value (nlohmann::json refuses to dump it).
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
