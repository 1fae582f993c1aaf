/// @file
/// @brief `doctor`: what this machine has, what the build was configured with, and the one
/// command that fixes each problem found.
#include <nlohmann/json.hpp>
#include <ostream>
#include <system_error>

#include "core/text.h"
#include "learner/doctor.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;
using namespace doctor;

namespace {

/// The order in which torchlings_config.json is shown (a key the file does not have is left out:
/// a build configured by an older course).
constexpr const char* kConfigKeys[] = {
    "torch_version", "torch_cuda_version",   "cxx11_abi",
    "cuda_kernels",  "cuda_architectures",   "torch_dir",
    "cxx_compiler",  "cxx_compiler_version", "cxx_compiler_chosen_by",
    "nvcc",          "nvcc_version",         "cuda_toolkit_from",
    "linker",        "cmake_version",        "catch2_version",
    "torch_wheel"};

/// What the build recorded at configure time (torchlings_config.json).
struct RecordedConfig {
    fs::path path;
    json values = json::object();  ///< empty when the file is missing or unreadable
    std::string problem;           ///< why it cannot be used; empty when it can
    std::string fix;               ///< the command that fixes the problem
};

/// Reads the configuration once; every check that needs it shares the result.
RecordedConfig load_config(const Context& context) {
    RecordedConfig config;
    config.path = context.build_dir() / "torchlings_config.json";
    std::error_code error;
    if (!fs::exists(config.path, error)) {
        config.problem = context.show(config.path) + " is missing (the build is not configured)";
        config.fix = std::string(kCommand) + "   (configures the build)";
        return config;
    }
    json values = json::parse(read_file(config.path), nullptr, false);
    if (values.is_discarded() || !values.is_object()) {
        config.problem = context.show(config.path) + " is not valid JSON";
        config.fix = "cmake " + context.show(context.build_dir()) + "   (re-configures the build)";
        return config;
    }
    config.values = std::move(values);
    return config;
}

/// The libraries the build was configured with: LibTorch and Catch2.
void report_libraries(Report& report, const json& config) {
    const std::string torch = string_value(config, "torch_version");
    const std::string torch_cuda = string_value(config, "torch_cuda_version");
    // Where configure's search found it (cmake/TorchlingsFindTorch.cmake); not recorded by an
    // older course.
    const std::string found_by = string_value(config, "torch_found_by");
    report.ok("LibTorch", (torch.empty() ? std::string("version unknown") : torch) + ", " +
                              (torch_cuda.empty() ? "CPU only" : "CUDA " + torch_cuda) +
                              (found_by.empty() ? "" : "  (from " + found_by + ")"));
    if (!config.contains("catch2_version")) {
        report.note("Catch2", "version not recorded (the build was configured by an older course)");
        return;
    }
    const std::string catch2 = string_value(config, "catch2_version");
    report.ok("Catch2", catch2.empty() ? "found (its version is not known)" : catch2);
}

void report_config(Report& report, const Context& context, const RecordedConfig& config) {
    if (!config.problem.empty()) {
        report.problem("config", config.problem, config.fix);
        return;
    }
    report.ok("config", context.show(config.path));
    for (const char* key : kConfigKeys) {
        if (!config.values.contains(key)) {
            continue;
        }
        const json value = config.values.value(key, json());
        // Padded to the longest key, cxx_compiler_chosen_by, and two spaces.
        report.detail(pad_to_width(key, 24) + (value.is_null()     ? "none"
                                               : value.is_string() ? value.get<std::string>()
                                                                   : value.dump()));
    }
}

void check_build(Report& report, Context& context) {
    const fs::path cache = context.build_dir() / "CMakeCache.txt";
    std::error_code error;
    if (!fs::exists(cache, error)) {
        report.problem("build", context.show(context.build_dir()) + " is not configured",
                       std::string(kCommand) + "   (configures the build on first use)");
        return;
    }
    report.ok("build", context.show(context.build_dir()) + " (generator " +
                           context.cache_value("CMAKE_GENERATOR").value_or("?") + ", " +
                           context.cache_value("CMAKE_BUILD_TYPE").value_or("?") + ")");
}

/// The course's stated support range (cmake/TorchlingsSupport.cmake), and where this build sits.
void report_support(Report& report, const json& config) {
    const auto supported = config.find("supported");
    if (supported == config.end() || !supported->is_object()) {
        return;
    }
    const std::string range = "torch " + string_value(*supported, "torch") + ", CMake " +
                              string_value(*supported, "cmake") + ", GCC " +
                              string_value(*supported, "gcc") + ", Clang " +
                              string_value(*supported, "clang");
    const std::string verdict = string_value(*supported, "this_torch");
    const std::string torch = string_value(config, "torch_version");
    if (verdict == "supported") {
        report.ok("support", "torch " + torch + " is in the supported range: " + range);
    } else {
        report.note("support", "torch " + torch + " is " + verdict + "; supported: " + range);
    }
}

/// Consistency between the machine and the LibTorch the build uses.
void check_gpu_support(Report& report, const json& config, const std::vector<std::string>& gpus) {
    const bool torch_has_cuda = !string_value(config, "torch_cuda_version").empty();
    const bool cuda_kernels = config.value("cuda_kernels", json()) == true;
    if (!gpus.empty() && !torch_has_cuda) {
        // The set-up installs the CPU-only wheel where it saw no NVIDIA driver; one command
        // replaces it when the LibTorch is the course's own (its cache venv).
        const bool course_venv =
            string_value(config, "torch_found_by").rfind("the course's cache venv", 0) == 0;
        report.note("LibTorch", std::string("is a CPU-only build, but this machine has a GPU: "
                                            "lessons will not use it (") +
                                    (course_venv ? std::string(kCommand) +
                                                       " setup --cuda installs the CUDA one)"
                                                 : "install a CUDA build of torch where this "
                                                   "one comes from, or name one: Torch_DIR)"));
    } else if (gpus.empty() && torch_has_cuda) {
        report.note("LibTorch", "has CUDA, but no GPU is visible: GPU tests will report skipped");
    } else if (torch_has_cuda && !cuda_kernels) {
        report.note("kernels",
                    "the course's CUDA kernels are off (no nvcc at configure time); "
                    "their CPU twins are used");
    }
}

/// Lesson 10's needs: Gloo's headers (ProcessGroupGloo on the CPU) and torchrun (its launcher).
void check_distributed(Report& report, const json& config) {
    const std::string gloo = string_value(config, "gloo_headers");
    if (gloo.empty()) {
        report.problem("gloo",
                       "Gloo's headers were not found at configure time (lesson 10's process "
                       "groups need them)",
#if defined(__APPLE__)
                       // macOS: the set-up fetches Debian's package (scripts/setup/macos.py).
                       std::string(kCommand) + " setup   (fetches them and reconfigures)");
#else
                       "sudo apt-get install -y libgloo-dev   (then: cmake <build folder>)");
#endif
    } else {
        report.ok("gloo", "headers in " + gloo + " (c10d::ProcessGroupGloo, lesson 10)");
    }
    const std::string torchrun = string_value(config, "torchrun");
    const std::string missing = string_value(config, "torchrun_missing");
    if (torchrun.empty() && missing.empty()) {
        report.note("torchrun",
                    "not found: lesson 10 runs as one process (torchrun comes with "
                    "the torch Python package)");
    } else if (torchrun.empty()) {
        report.note("torchrun", "not usable: lesson 10 runs as one process (" + missing + ")");
    } else {
        report.ok("torchrun", torchrun + " (starts lesson 10's processes)");
    }
}

void check_course(Report& report, Context& context) {
    try {
        const Course& course = context.course();
        report.ok("course", plural(course.lessons().size(), "lesson") + ", " +
                                plural(course.exercises().size(), "exercise") + " in " +
                                context.root().string());
    } catch (const EnvironmentError& error) {
        report.problem("course", error.what(),
                       "git checkout -- lessons exercises   (restores the course files)");
    }
}

}  // namespace

ExitCode doctor_command(Context& context) {
    Report report(context);
    report.section("Tools");
    check_cmake(report);
    check_tool(report, "ninja", "the build generator",
               "python3 -m pip install ninja   (or: sudo apt install ninja-build)");
    const RecordedConfig config = load_config(context);
    check_compiler(report, context, config.values);
    check_tool(report, "ld.lld", "links an exercise in a fifth of ld.bfd's time", "");
    check_nvcc(report, context, config.values);
    check_sandbox(report);
    report.section("Libraries");
    if (config.problem.empty()) {
        report_libraries(report, config.values);
    }
    report.section("GPU");
    const std::vector<std::string> gpus = check_gpus(report);
    report.section("Build");
    check_build(report, context);
    report_config(report, context, config);
    if (config.problem.empty()) {
        report_support(report, config.values);
        check_gpu_support(report, config.values, gpus);
        check_distributed(report, config.values);
    }
    report.section("Course");
    check_course(report, context);
    return report.finish();
}

}  // namespace torchlings::runner
