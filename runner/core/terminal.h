/// @file
/// @brief Colour and symbols for the runner's text output.
///
/// Colour is used only when stdout is a terminal and NO_COLOR is not set (https://no-color.org),
/// unless `--color=always|never` says otherwise. ✓ and ✗ need a UTF-8 locale; elsewhere the
/// runner prints ASCII.
#pragma once

#include <string>
#include <string_view>

namespace torchlings::runner {

/// The `--color` option.
enum class ColorMode { kAuto, kAlways, kNever };

/// Parses "auto", "always" or "never"; throws UsageError otherwise.
[[nodiscard]] ColorMode parse_color_mode(std::string_view text);

/// How to decorate text for the reader in front of the runner.
class Style {
  public:
    /// @param color   emit ANSI colour sequences
    /// @param unicode use ✓ ✗ rather than ASCII marks
    Style(bool color, bool unicode) : color_(color), unicode_(unicode) {}

    /// The style for stdout, from the mode, the environment (NO_COLOR, TERM, LANG/LC_*) and
    /// whether stdout is a terminal.
    [[nodiscard]] static Style detect(ColorMode mode);

    /// Text in green: a pass, a tool that is present.
    [[nodiscard]] std::string good(std::string_view text) const { return paint("32", text); }
    /// Text in red: a failure, an error.
    [[nodiscard]] std::string bad(std::string_view text) const { return paint("31", text); }
    /// Text in yellow: a skip, a warning, a TODO.
    [[nodiscard]] std::string warn(std::string_view text) const { return paint("33", text); }
    /// Bold text: headings.
    [[nodiscard]] std::string bold(std::string_view text) const { return paint("1", text); }
    /// Faint text: progress and details.
    [[nodiscard]] std::string dim(std::string_view text) const { return paint("2", text); }

    /// "✓" or "PASS": a passed test.
    [[nodiscard]] std::string_view pass_mark() const { return unicode_ ? "\u2713" : "PASS"; }
    /// "✗" or "FAIL": a failed test.
    [[nodiscard]] std::string_view fail_mark() const { return unicode_ ? "\u2717" : "FAIL"; }
    /// "–" or "SKIP": a skipped test.
    [[nodiscard]] std::string_view skip_mark() const { return unicode_ ? "\u2013" : "SKIP"; }

    /// Whether non-ASCII symbols (✓, progress-bar blocks) may be printed.
    [[nodiscard]] bool unicode() const { return unicode_; }
    [[nodiscard]] bool color() const { return color_; }

  private:
    [[nodiscard]] std::string paint(std::string_view code, std::string_view text) const;

    bool color_;
    bool unicode_;
};

}  // namespace torchlings::runner
