/// @file
/// @brief What the runner says to the learner, in every language it speaks: one list
/// (messages.def) of message ids with their English and Korean text, so that a translation is
/// read, and completed, in one place. Text for machines (--json, --junit, --classroom50,
/// --gradescope) is not here: it stays English.
#pragma once

#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/language.h"
#include "core/state.h"

namespace torchlings::runner {

/// One message (core/messages.def lists them, with their texts); its text has placeholders {0},
/// {1}, ... for the arguments, in the order each language needs.
enum class Msg {
#define TL_MESSAGE(id, english, korean) id,
#include "core/messages.def"
#undef TL_MESSAGE
    kCount  ///< not a message: the number of messages
};

/// One argument of a message: text, or a whole number.
class MessageArg {
  public:
    // NOLINTBEGIN(google-explicit-constructor): arguments are written as plain values
    MessageArg(std::string_view text) : text_(text) {}
    MessageArg(const std::string& text) : text_(text) {}
    MessageArg(const char* text) : text_(text) {}
    template <std::integral T>
    requires(!std::same_as<T, char> && !std::same_as<T, bool>) MessageArg(T number)
        : text_(std::to_string(number)) {}
    // NOLINTEND(google-explicit-constructor)

    [[nodiscard]] const std::string& text() const { return text_; }

  private:
    std::string text_;
};

/// The text of a message in a language, its placeholders replaced by the arguments.
[[nodiscard]] std::string message(Language language, Msg id,
                                  std::initializer_list<MessageArg> args = {});

/// The status word that list, progress and watch show.
[[nodiscard]] std::string status_text(Language language, ExerciseStatus status);

/// Columns a text takes on a terminal: Hangul and other wide characters take two.
[[nodiscard]] std::size_t display_width(std::string_view text);

/// The text with spaces after it up to `width` columns (unchanged when it is wider).
[[nodiscard]] std::string pad_to_width(std::string text, std::size_t width);

}  // namespace torchlings::runner
