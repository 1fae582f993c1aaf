/// @file
/// @brief Small string and path helpers shared by the runner's modules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace torchlings::runner {

/// Splits text into lines; "\r\n" and "\n" both end a line, and a final line without a newline
/// is kept. An empty text gives no lines.
[[nodiscard]] std::vector<std::string> split_lines(std::string_view text);

/// True when text is one or more ASCII digits.
[[nodiscard]] bool all_digits(std::string_view text);

[[nodiscard]] std::string trim(std::string_view text);

[[nodiscard]] std::string join(const std::vector<std::string>& items, std::string_view separator);

/// Every line of text prefixed by `prefix` (empty lines stay empty).
[[nodiscard]] std::string indent(std::string_view text, std::string_view prefix);

/// The last `count` lines of text, for showing the tail of a long output.
[[nodiscard]] std::string last_lines(std::string_view text, std::size_t count);

/// Levenshtein distance: the fewest single-character edits that turn a into b.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// A path as a learner should read it: relative to `root` when it lies inside root, else as is.
[[nodiscard]] std::string display_path(const std::filesystem::path& path,
                                       const std::filesystem::path& root);

/// True when both paths name the same location once made absolute and normalised (symbolic
/// links resolved where they exist). Never throws.
[[nodiscard]] bool same_path(const std::filesystem::path& a, const std::filesystem::path& b);

/// One UTF-8 sequence: its code point and its length in bytes; length 0 when the bytes are not
/// valid UTF-8 (cut short, an overlong form, a surrogate, above U+10FFFF).
struct Utf8Char {
    std::uint32_t code = 0;
    std::size_t length = 0;
};

/// The UTF-8 sequence that starts at byte `at` of text.
[[nodiscard]] Utf8Char utf8_at(std::string_view text, std::size_t at);

/// The text with each byte that is not part of valid UTF-8 replaced by U+FFFD, for the JSON and
/// XML writers.
[[nodiscard]] std::string valid_utf8(std::string_view text);
/// `text` with every control character but newline and tab written out visibly ("\x1b",
/// "\u009b"), so that text from a test program (an exception's message, its output) cannot move
/// the cursor, clear the screen or redraw a verdict when the runner prints it.
[[nodiscard]] std::string with_visible_controls(std::string_view text);

/// The current time in UTC as ISO 8601, e.g. "2025-01-31T12:00:00Z".
[[nodiscard]] std::string iso_time_now();

/// A number of seconds for people: "0.4 s", "12 s".
[[nodiscard]] std::string format_seconds(double seconds);

/// The whole content of a file; throws EnvironmentError naming the file when it cannot be read.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

/// Writes a file in one piece (creating its folder); throws EnvironmentError on failure.
void write_file(const std::filesystem::path& path, std::string_view content);
/// Writes a file whole and then puts it in place with rename: through a temporary of an
/// unguessable name (mkstemp) beside it, so that a link planted at `path` or at a predictable
/// temporary name is replaced, never followed, and a reader sees the old file or the new one.
/// A device or pipe at `path` (/dev/stdout) is written to as write_file() would. For the runner's
/// state and the reports; throws EnvironmentError on failure.
void replace_file(const std::filesystem::path& path, std::string_view content);

}  // namespace torchlings::runner
