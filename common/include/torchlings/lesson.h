/// @file lesson.h
/// @brief The command line every lesson demo shares: `--device auto|cpu|cuda|cuda:N|mps`.
#pragma once

#include <c10/core/Device.h>

#include <functional>
#include <string>

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

/// Prints "Key:" padded to a column, then the value: the shape every lesson's report uses.
void print_field(const std::string& key, const std::string& value);

/// Prints a section header "== title ==".
void print_section(const std::string& title);

}  // namespace torchlings
