/// @file lesson.h
/// @brief The command line every lesson demo shares: `--device auto|cpu|cuda|cuda:N|mps`.
#pragma once

#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <functional>
#include <string>
#include <vector>

namespace torchlings {

/// What a lesson's body receives.
struct LessonContext {
    std::string requested;  ///< The --device text as given ("auto" by default).
    c10::Device device;     ///< The device it resolved to (checked to exist).
};

/// Parses the command line, resolves the device, prints a one-line banner, and runs `body`.
/// Returns the process exit code: 0 on success, 2 for a bad command line or an absent device
/// (with a message on stderr naming what was asked and what is available), 1 if `body` throws.
/// `main()` should `return run_lesson(...)`: library code never calls exit().
int run_lesson(int argc, char** argv, const std::string& title,
               const std::function<void(const LessonContext&)>& body);

/// One more `--name VALUE` option of a lesson's command line, beyond --device.
struct LessonOption {
    std::string name;    ///< The flag, e.g. "--json".
    std::string help;    ///< One line for --help.
    std::string* value;  ///< Receives the value when given; left as it was otherwise.
};

/// run_lesson() for a demo with options of its own (`--json FILE`, say); `options` are parsed
/// with --device, and a bad one is the same exit code 2.
int run_lesson(int argc, char** argv, const std::string& title,
               const std::vector<LessonOption>& options,
               const std::function<void(const LessonContext&)>& body);

/// Prints "Key:" padded to a column, then the value: the shape every lesson's report uses.
void print_field(const std::string& key, const std::string& value);

/// Prints a section header "== title ==".
void print_section(const std::string& title);

/// `value` with `digits` digits after the point, as a report shows it: fixed(3.14159, 2) is "3.14".
[[nodiscard]] std::string fixed(double value, int digits);

/// `value` in scientific notation with `digits` digits after the point: scientific(1234.0) is
/// "1.2e+03".
[[nodiscard]] std::string scientific(double value, int digits = 1);

/// The first line of an error's message. LibTorch's messages may run over several lines (CUDA
/// adds "Search for ..." advice, and what() a C++ backtrace); a report keeps one line per field
/// so that its shape is the same on every machine.
[[nodiscard]] std::string first_line(const std::string& text);

/// first_line() of a LibTorch error's message, without the backtrace (what_without_backtrace()).
[[nodiscard]] std::string first_line(const c10::Error& error);

}  // namespace torchlings
