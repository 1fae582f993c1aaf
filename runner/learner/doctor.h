/// @file
/// @brief What `doctor`'s parts share: its report, and its checks of this machine's tools.
/// Internal to learner/doctor_*.cpp.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/errors.h"

namespace torchlings::runner::doctor {

/// "1 lesson", "7 lessons".
std::string plural(std::size_t count, const std::string& noun);

/// One line of the report, and what it adds to the verdict.
class Report {
  public:
    explicit Report(Context& context) : context_(context) {}

    void section(const std::string& title) {
        context_.out() << context_.style().bold(title) << "\n";
    }

    void ok(const std::string& name, const std::string& detail) {
        line(context_.style().good(context_.style().pass_mark()), name, detail);
    }
    /// Something worth knowing that needs no fixing.
    void note(const std::string& name, const std::string& detail) {
        line(context_.style().warn(context_.style().skip_mark()), name, detail);
    }
    void problem(const std::string& name, const std::string& detail, const std::string& fix) {
        line(context_.style().bad(context_.style().fail_mark()), name, detail);
        problems_.push_back(name + ": " + fix);
    }
    void detail(const std::string& text) { context_.out() << "        " << text << "\n"; }

    /// The verdict line and the fixes; kOk when nothing needs fixing.
    ExitCode finish() {
        std::ostream& out = context_.out();
        out << "\n";
        if (problems_.empty()) {
            out << context_.style().good("doctor: ready") << "\n";
            return ExitCode::kOk;
        }
        out << context_.style().bad("doctor: " + plural(problems_.size(), "problem")) << "\n";
        for (const std::string& fix : problems_) {
            out << "  " << fix << "\n";
        }
        return ExitCode::kEnvironment;
    }

  private:
    void line(const std::string& mark, const std::string& name, const std::string& detail) {
        context_.out() << "  " << mark << " " << pad_to_width(name, 12) << " " << detail << "\n";
    }

    Context& context_;
    std::vector<std::string> problems_;
};

/// A string value of the configuration, or "" when absent or not a string.
std::string string_value(const nlohmann::json& config, const char* key);

/// A tool identified by `--version`; `fix` empty means the tool is optional.
void check_tool(Report& report, const std::string& name, const std::string& why,
                const std::string& fix);

/// CMake: found, and at least the floor of the top-level cmake_minimum_required().
void check_cmake(Report& report);

/// The C++ compiler the build was configured with, and who chose it.
void check_compiler(Report& report, Context& context, const nlohmann::json& config);

/// nvcc: the one the build uses, where it came from, and whether it matches LibTorch's CUDA.
void check_nvcc(Report& report, const Context& context, const nlohmann::json& config);

/// The GPUs nvidia-smi lists; empty when there is none (or no driver).
std::vector<std::string> check_gpus(Report& report);

/// The sandbox the test programs run in (bubblewrap), or why there is none: a note, since the
/// runner works without it.
void check_sandbox(Report& report);

}  // namespace torchlings::runner::doctor
