/// @file lesson.cpp
/// @brief run_lesson(): the shared command line and error handling of lesson demos.
#include "torchlings/lesson.h"

#include "torchlings/device.h"

#include <c10/util/Exception.h>
#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace torchlings {

int run_lesson(int argc, char** argv, const std::string& title,
               const std::function<void(const LessonContext&)>& body) {
    return run_lesson(argc, argv, title, {}, body);
}

int run_lesson(int argc, char** argv, const std::string& title,
               const std::vector<LessonOption>& options,
               const std::function<void(const LessonContext&)>& body) {
    CLI::App app{title};
    std::string requested = "auto";
    app.add_option("--device", requested,
                   "auto | cpu | cuda | cuda:N | mps (auto prefers CUDA, then MPS, then CPU)");
    for (const auto& option : options) {
        if (option.value == nullptr) {
            throw std::invalid_argument("run_lesson: option " + option.name + " has no value");
        }
        app.add_option(option.name, *option.value, option.help);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        const LessonContext context{requested, choose_device(requested)};
        std::cout << title << " (device " << context.device << ")\n\n";
        body(context);
        return 0;
    } catch (const DeviceError& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 2;
    } catch (const c10::Error& e) {
        // what_without_backtrace(): the message a learner needs, without LibTorch's C++ stack.
        std::cerr << "error from LibTorch: " << e.what_without_backtrace() << '\n';
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
}

void print_field(const std::string& key, const std::string& value) {
    constexpr int kKeyWidth = 28;
    std::cout << std::left << std::setw(kKeyWidth) << (key + ":") << value << '\n';
}

void print_section(const std::string& title) { std::cout << "== " << title << " ==\n"; }

std::string fixed(double value, int digits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

std::string scientific(double value, int digits) {
    std::ostringstream out;
    out << std::scientific << std::setprecision(digits) << value;
    return out.str();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string first_line(const c10::Error& error) {
    return first_line(error.what_without_backtrace());
}

}  // namespace torchlings
