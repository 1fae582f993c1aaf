/// @file
/// @brief `doctor`'s checks of this machine: CMake, Ninja, the compiler, nvcc, the GPUs, the
/// sandbox of the test programs.
#include <chrono>
#include <map>
#include <sstream>

#include "core/process.h"
#include "core/text.h"
#include "learner/doctor.h"

namespace torchlings::runner::doctor {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The oldest CMake the top-level CMakeLists.txt accepts, as its cmake_minimum_required() states
/// it (runner/CMakeLists.txt passes it in, so that the course states it once).
constexpr std::string_view kMinimumCmake = TORCHLINGS_CMAKE_MINIMUM;

/// The script that names the course's cache folder (scripts/setup/cache_dir.sh of the course that
/// built the runner: runner/CMakeLists.txt passes its path in, so that the course names it once).
constexpr const char* kCacheDirScript = TORCHLINGS_CACHE_DIR_SCRIPT;

/// How long a tool may take to print its version (nvidia-smi can hang on a sick driver).
constexpr std::chrono::seconds kToolTimeout{15};

/// The output of `program args...`, or nothing when it cannot run or fails.
std::optional<std::string> tool_output(const fs::path& program, std::vector<std::string> args) {
    args.insert(args.begin(), program.string());
    try {
        ProcessResult result =
            run_process({args, {}, OutputMode::kCapture, std::chrono::milliseconds(kToolTimeout)});
        return result.succeeded() ? std::optional(std::move(result.output)) : std::nullopt;
    } catch (const EnvironmentError&) {
        return std::nullopt;
    }
}

/// The first and the last line of a tool's output.
std::string first_line(const std::string& text) {
    const std::vector<std::string> lines = split_lines(text);
    return lines.empty() ? std::string() : trim(lines.front());
}

std::string last_line(const std::string& text) {
    const std::vector<std::string> lines = split_lines(trim(text));
    return lines.empty() ? std::string() : trim(lines.back());
}

/// major and minor of "3.25" or of "cmake version 3.25.1".
std::pair<int, int> major_minor(std::string_view text) {
    int major = 0;
    int minor = 0;
    char dot = 0;
    const std::size_t digits = text.find_first_of("0123456789");
    std::istringstream in(
        std::string(text.substr(digits == std::string_view::npos ? text.size() : digits)));
    in >> major >> dot >> minor;
    return {major, minor};
}

/// The course's cache folder, as ./torchlings names it: what `sh scripts/setup/cache_dir.sh`
/// prints in this environment (asked once a run); nothing when the script cannot run.
std::optional<fs::path> course_cache_dir() {
    static const std::optional<fs::path> folder = []() -> std::optional<fs::path> {
        const auto printed = tool_output("sh", {kCacheDirScript});
        const std::string text = printed ? trim(*printed) : std::string();
        return text.empty() ? std::nullopt : std::optional<fs::path>(text);
    }();
    return folder;
}

/// Whether `path` lies in `folder` (compared as written, after removing . and ..).
bool is_under(const fs::path& path, const fs::path& folder) {
    const std::string inside = path.lexically_normal().string();
    std::string prefix = folder.lexically_normal().string();
    if (prefix.empty()) {
        return false;
    }
    if (prefix.back() != '/') {
        prefix += '/';
    }
    return inside.starts_with(prefix);
}

}  // namespace

std::string string_value(const json& config, const char* key) {
    const auto found = config.find(key);
    return found != config.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::string plural(std::size_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

void check_cmake(Report& report) {
    const auto cmake = find_program("cmake");
    const auto version = cmake ? tool_output(*cmake, {"--version"}) : std::nullopt;
    if (!version) {
        report.problem("cmake", "not found",
                       "python3 -m pip install cmake   (or: sudo apt install cmake)");
    } else if (major_minor(first_line(*version)) < major_minor(kMinimumCmake)) {
        report.problem(
            "cmake",
            first_line(*version) + " is too old (need " + std::string(kMinimumCmake) + "+)",
            "python3 -m pip install --upgrade cmake");
    } else {
        // ./torchlings installs CMake from PyPI into its cache folder only when the system's is
        // missing or too old, and puts that folder first on PATH.
        const auto cache = course_cache_dir();
        const fs::path tools = cache ? *cache / "tools" : fs::path();
        const std::string from = cache && is_under(*cmake, tools)
                                     ? "the course's copy from PyPI, in " + tools.string()
                                     : "the system's";
        report.ok("cmake", first_line(*version) + "  (" + cmake->string() + ", " + from + ")");
    }
}

void check_tool(Report& report, const std::string& name, const std::string& why,
                const std::string& fix) {
    const auto program = find_program(name);
    const auto version = program ? tool_output(*program, {"--version"}) : std::nullopt;
    if (version) {
        report.ok(name, first_line(*version) + "  (" + program->string() + ")");
    } else if (fix.empty()) {
        report.note(name, "not found (optional: " + why + ")");
    } else {
        report.problem(name, "not found (" + why + ")", fix);
    }
}

void check_compiler(Report& report, Context& context, const json& config) {
    std::string compiler = string_value(config, "cxx_compiler");
    if (compiler.empty()) {
        compiler = context.cache_value("CMAKE_CXX_COMPILER").value_or("c++");
    }
    const auto program = find_program(compiler);
    const auto version = program ? tool_output(*program, {"--version"}) : std::nullopt;
    if (!version) {
        report.problem("C++", "compiler " + compiler + " not found", "sudo apt install g++");
        return;
    }
    report.ok("C++", first_line(*version) + "  (" + program->string() + ")");
    // Why ./torchlings chose it (cxx_compiler_chosen_by); absent when configured without it.
    const std::map<std::string, std::string> reasons{
        {"CXX", "named in CXX"},
        {"clang", "the newest clang++-N (15 or newer) installed with its OpenMP runtime"},
        {"default",
         "the default compiler (no clang++-N, 15 or newer, with its OpenMP runtime is installed)"}};
    if (const std::string chosen_by = string_value(config, "cxx_compiler_chosen_by");
        !chosen_by.empty()) {
        const auto known = reasons.find(chosen_by);
        report.detail("chosen: " + (known != reasons.end() ? known->second : chosen_by));
    }
}

void check_nvcc(Report& report, const Context& context, const json& config) {
    const std::string configured = string_value(config, "nvcc");
    std::optional<fs::path> nvcc = find_program(configured.empty() ? "nvcc" : configured);
    if (!nvcc && fs::exists("/usr/local/cuda/bin/nvcc")) {
        nvcc = fs::path("/usr/local/cuda/bin/nvcc");
    }
    const auto version = nvcc ? tool_output(*nvcc, {"--version"}) : std::nullopt;
    if (version) {
        // "Cuda compilation tools, release 12.4, V12.4.131" is the line that names the version.
        std::string release = last_line(*version);
        for (const std::string& line : split_lines(*version)) {
            if (line.find("release") != std::string::npos) {
                release = trim(line);
            }
        }
        // Where the toolkit came from, when the build recorded it (cuda_toolkit_from).
        const std::string from = string_value(config, "cuda_toolkit_from");
        const std::string where = from == "pypi"        ? ", the course's CUDA toolkit from PyPI"
                                  : from == "installed" ? ", an installed CUDA toolkit"
                                                        : "";
        report.ok("nvcc", release + "  (" + nvcc->string() + where + ")");
    } else {
        report.note("nvcc", "not found (optional: only the course's own CUDA kernels need it)");
    }
    // A mismatch between the toolkit and LibTorch's CUDA that configuring found.
    const std::string mismatch = string_value(config, "cuda_toolkit_note");
    if (!mismatch.empty()) {
        report.note("CUDA", mismatch);
        const std::string torch_cuda = string_value(config, "torch_cuda_version");
        report.detail("fix: install the CUDA toolkit " +
                      (torch_cuda.empty() ? std::string("that LibTorch was built with")
                                          : torch_cuda + " (LibTorch's)") +
                      ", then configure the build again: rm -rf " +
                      context.show(context.build_dir()) + " && " + std::string(kCommand) +
                      " doctor");
    }
}

std::vector<std::string> check_gpus(Report& report) {
    const auto smi = find_program("nvidia-smi");
    if (!smi) {
        report.note("nvidia-smi", "not found: no NVIDIA driver here, so lessons run on the CPU");
        return {};
    }
    const auto listing = tool_output(
        *smi, {"--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"});
    std::vector<std::string> gpus;
    for (const std::string& line : split_lines(listing.value_or(""))) {
        if (!trim(line).empty()) {
            gpus.push_back(trim(line));
        }
    }
    if (gpus.empty()) {
        report.note("nvidia-smi", "present, but it lists no GPU (is the driver loaded?)");
        return gpus;
    }
    report.ok("nvidia-smi", plural(gpus.size(), "GPU"));
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        report.detail("cuda:" + std::to_string(i) + "  " + gpus[i]);
    }
    return gpus;
}

void check_sandbox(Report& report) {
    try {
        const Sandbox& level = sandbox();
        if (level.active) {
            const std::string version =
                first_line(tool_output(level.bwrap, {"--version"}).value_or(""));
            report.ok("sandbox", (version.empty() ? "bubblewrap" : version) +
                                     ": each test program sees the course and the build "
                                     "read-only, in a PID namespace of its own  (" +
                                     level.bwrap.string() + ")");
        } else if (level.user != 0) {
            report.ok("sandbox", level.description + "; test programs run as uid " +
                                     std::to_string(level.user) +
                                     ", which can write nothing of the course's, the build's or "
                                     "the runner's, wherever it can load them (else `check` "
                                     "says so)");
        } else {
            report.note("sandbox", level.description + "; test programs run without one");
        }
    } catch (const EnvironmentError& error) {
        report.problem("sandbox", error.what(), error.fix());
    }
}

}  // namespace torchlings::runner::doctor
