/// @file
/// @brief `doctor`: what this machine has, what the build was configured with, and the one
/// command that fixes each problem found.
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <system_error>

#include "core/process.h"
#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The oldest CMake the top-level CMakeLists.txt accepts, as its cmake_minimum_required() states
/// it (runner/CMakeLists.txt passes it in, so that the course states it once).
constexpr std::string_view kMinimumCmake = TORCHLINGS_CMAKE_MINIMUM;

/// How long a tool may take to print its version (nvidia-smi can hang on a sick driver).
constexpr std::chrono::seconds kToolTimeout{15};

/// The order in which torchlings_config.json is shown (a key the file does not have is left out:
/// a build configured by an older course).
constexpr const char* kConfigKeys[] = {
    "torch_version", "torch_cuda_version",   "cxx11_abi",
    "cuda_kernels",  "cuda_architectures",   "torch_dir",
    "cxx_compiler",  "cxx_compiler_version", "cxx_compiler_chosen_by",
    "nvcc",          "nvcc_version",         "cuda_toolkit_from",
    "linker",        "cmake_version",        "catch2_version"};

/// One line of the report, and what it adds to the verdict.
class Report {
  public:
    explicit Report(Context& context) : context_(context) {}

    void section(const std::string& title) {
        context_.out() << context_.style().bold(title) << "\n";
    }

    void ok(const std::string& name, const std::string& detail) {
        line(context_.style().good(std::string(context_.style().pass_mark())), name, detail);
    }
    /// Something worth knowing that needs no fixing.
    void note(const std::string& name, const std::string& detail) {
        line(context_.style().warn(std::string(context_.style().skip_mark())), name, detail);
    }
    void problem(const std::string& name, const std::string& detail, const std::string& fix) {
        line(context_.style().bad(std::string(context_.style().fail_mark())), name, detail);
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
        out << context_.style().bad("doctor: " + std::to_string(problems_.size()) +
                                    (problems_.size() == 1 ? " problem" : " problems"))
            << "\n";
        for (const std::string& fix : problems_) {
            out << "  " << fix << "\n";
        }
        return ExitCode::kEnvironment;
    }

  private:
    void line(const std::string& mark, const std::string& name, const std::string& detail) {
        std::string padded = name;
        padded.resize(std::max<std::size_t>(padded.size(), 12), ' ');
        context_.out() << "  " << mark << " " << padded << " " << detail << "\n";
    }

    Context& context_;
    std::vector<std::string> problems_;
};

/// The output of `program args...`, or nothing when it cannot run or fails.
std::optional<std::string> tool_output(const fs::path& program, std::vector<std::string> args) {
    args.insert(args.begin(), program.string());
    try {
        const ProcessResult result =
            run_process({args, {}, OutputMode::kCapture, std::chrono::milliseconds(kToolTimeout)});
        if (!result.succeeded()) {
            return std::nullopt;
        }
        return result.output;
    } catch (const EnvironmentError&) {
        return std::nullopt;
    }
}

/// A string value of the configuration, or "" when absent or not a string.
std::string string_value(const json& config, const char* key) {
    const auto found = config.find(key);
    return found != config.end() && found->is_string() ? found->get<std::string>() : std::string();
}

/// "1 lesson", "7 lessons".
std::string plural(std::size_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string first_line(const std::string& text) {
    const std::vector<std::string> lines = split_lines(text);
    return lines.empty() ? std::string() : trim(lines.front());
}

std::string last_line(const std::string& text) {
    const std::vector<std::string> lines = split_lines(trim(text));
    return lines.empty() ? std::string() : trim(lines.back());
}

/// The course's cache folder, as ./torchlings names it: ${XDG_CACHE_HOME:-~/.cache}/torchlings.
fs::path course_cache_dir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && *xdg != '\0') {
        return fs::path(xdg) / "torchlings";
    }
    const char* home = std::getenv("HOME");
    return fs::path(home != nullptr ? home : "") / ".cache" / "torchlings";
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
    return inside.rfind(prefix, 0) == 0;
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

/// "cmake version 3.25.1" is at least the minimum version.
bool cmake_new_enough(const std::string& version_line) {
    return major_minor(version_line) >= major_minor(kMinimumCmake);
}

void check_cmake(Report& report) {
    const auto cmake = find_program("cmake");
    const auto version = cmake ? tool_output(*cmake, {"--version"}) : std::nullopt;
    if (!version) {
        report.problem("cmake", "not found",
                       "python3 -m pip install cmake   (or: sudo apt install cmake)");
    } else if (!cmake_new_enough(first_line(*version))) {
        report.problem(
            "cmake",
            first_line(*version) + " is too old (need " + std::string(kMinimumCmake) + "+)",
            "python3 -m pip install --upgrade cmake");
    } else {
        // ./torchlings installs CMake from PyPI into its cache folder only when the system's is
        // missing or too old, and puts that folder first on PATH.
        const fs::path tools = course_cache_dir() / "tools";
        const std::string from = is_under(*cmake, tools)
                                     ? "the course's copy from PyPI, in " + tools.string()
                                     : "the system's";
        report.ok("cmake", first_line(*version) + "  (" + cmake->string() + ", " + from + ")");
    }
}

/// A tool identified by `--version`; `fix` empty means the tool is optional.
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
    const std::string chosen_by = string_value(config, "cxx_compiler_chosen_by");
    if (chosen_by == "CXX") {
        report.detail("chosen: named in CXX");
    } else if (chosen_by == "clang") {
        report.detail(
            "chosen: the newest clang++-N (15 or newer) installed with its OpenMP runtime");
    } else if (chosen_by == "default") {
        report.detail(
            "chosen: the default compiler (no clang++-N, 15 or newer, with its OpenMP "
            "runtime is installed)");
    } else if (!chosen_by.empty()) {
        report.detail("chosen: " + chosen_by);
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

/// The GPUs nvidia-smi lists; empty when there is none (or no driver).
std::vector<std::string> check_gpus(Report& report) {
    const auto smi = find_program("nvidia-smi");
    if (!smi) {
        report.note("nvidia-smi", "not found: no NVIDIA driver here, so lessons run on the CPU");
        return {};
    }
    const auto listing = tool_output(
        *smi, {"--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"});
    std::vector<std::string> gpus;
    if (listing) {
        for (const std::string& line : split_lines(*listing)) {
            if (!trim(line).empty()) {
                gpus.push_back(trim(line));
            }
        }
    }
    if (gpus.empty()) {
        report.note("nvidia-smi", "present, but it lists no GPU (is the driver loaded?)");
        return gpus;
    }
    report.ok("nvidia-smi", std::to_string(gpus.size()) + (gpus.size() == 1 ? " GPU" : " GPUs"));
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        report.detail("cuda:" + std::to_string(i) + "  " + gpus[i]);
    }
    return gpus;
}

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

/// Where the build's LibTorch comes from: the first of ./torchlings's sources that names its
/// folder (Torch_DIR, LIBTORCH, CMAKE_PREFIX_PATH, the course's cache venv, python3's torch).
std::string libtorch_origin(const fs::path& torch_dir) {
    const auto variable = [](const char* name) {
        const char* value = std::getenv(name);
        return std::string(value != nullptr ? value : "");
    };
    if (!variable("Torch_DIR").empty() &&
        fs::path(variable("Torch_DIR")).lexically_normal() == torch_dir.lexically_normal()) {
        return "Torch_DIR";
    }
    if (!variable("LIBTORCH").empty() && is_under(torch_dir, variable("LIBTORCH"))) {
        return "LIBTORCH=" + variable("LIBTORCH");
    }
    std::istringstream prefixes(variable("CMAKE_PREFIX_PATH"));
    for (std::string prefix; std::getline(prefixes, prefix, ':');) {
        if (!prefix.empty() && is_under(torch_dir, prefix)) {
            return "CMAKE_PREFIX_PATH's " + prefix;
        }
    }
    const fs::path cache = course_cache_dir().lexically_normal();
    if (is_under(torch_dir, cache)) {
        // venv, or venv-<spec> for TORCHLINGS_TORCH_SPEC: the first folder below the cache folder.
        const fs::path venv =
            cache / *torch_dir.lexically_normal().lexically_relative(cache).begin();
        return "the course's cache venv " + venv.string();
    }
    for (fs::path folder = torch_dir; folder.has_relative_path(); folder = folder.parent_path()) {
        if (folder.filename() == "torch" && (folder.parent_path().filename() == "site-packages" ||
                                             folder.parent_path().filename() == "dist-packages")) {
            return "python3's torch package " + folder.string();
        }
    }
    return "Torch_DIR given to CMake";
}

/// The libraries the build was configured with: LibTorch and Catch2.
void report_libraries(Report& report, const RecordedConfig& recorded) {
    if (!recorded.problem.empty()) {
        return;  // report_config names the problem
    }
    const json& config = recorded.values;
    const std::string torch = string_value(config, "torch_version");
    const std::string torch_cuda = string_value(config, "torch_cuda_version");
    const std::string torch_dir = string_value(config, "torch_dir");
    report.ok("LibTorch", (torch.empty() ? std::string("version unknown") : torch) + ", " +
                              (torch_cuda.empty() ? "CPU only" : "CUDA " + torch_cuda) +
                              "  (from " + libtorch_origin(fs::path(torch_dir)) + ")");
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
        std::string name = key;
        name.resize(24, ' ');  // the longest key, cxx_compiler_chosen_by, and two spaces
        const json value = config.values.value(key, json());
        report.detail(name + (value.is_null()     ? "none"
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
void report_support(Report& report, const RecordedConfig& recorded) {
    const auto supported = recorded.values.find("supported");
    if (!recorded.problem.empty() || supported == recorded.values.end() ||
        !supported->is_object()) {
        return;
    }
    const std::string range = "torch " + string_value(*supported, "torch") + ", CMake " +
                              string_value(*supported, "cmake") + ", GCC " +
                              string_value(*supported, "gcc") + ", Clang " +
                              string_value(*supported, "clang");
    const std::string verdict = string_value(*supported, "this_torch");
    const std::string torch = string_value(recorded.values, "torch_version");
    if (verdict == "supported") {
        report.ok("support", "torch " + torch + " is in the supported range: " + range);
    } else {
        report.note("support", "torch " + torch + " is " + verdict + "; supported: " + range);
    }
}

/// Consistency between the machine and the LibTorch the build uses.
void check_gpu_support(Report& report, const RecordedConfig& recorded,
                       const std::vector<std::string>& gpus) {
    if (!recorded.problem.empty()) {
        return;
    }
    const json& config = recorded.values;
    const bool torch_has_cuda = !string_value(config, "torch_cuda_version").empty();
    const auto kernels = config.find("cuda_kernels");
    const bool cuda_kernels =
        kernels != config.end() && kernels->is_boolean() && kernels->get<bool>();
    if (!gpus.empty() && !torch_has_cuda) {
        report.note("LibTorch",
                    "is a CPU-only build, but this machine has a GPU: lessons will not use it "
                    "(install a CUDA build of torch to use it)");
    } else if (gpus.empty() && torch_has_cuda) {
        report.note("LibTorch", "has CUDA, but no GPU is visible: GPU tests will report skipped");
    } else if (torch_has_cuda && !cuda_kernels) {
        report.note("kernels",
                    "the course's CUDA kernels are off (no nvcc at configure time); "
                    "their CPU twins are used");
    }
}

/// Lesson 10's needs: Gloo's headers (ProcessGroupGloo on the CPU) and torchrun (its launcher).
void check_distributed(Report& report, const RecordedConfig& recorded) {
    if (!recorded.problem.empty()) {
        return;
    }
    const std::string gloo = string_value(recorded.values, "gloo_headers");
    if (gloo.empty()) {
        report.problem("gloo",
                       "Gloo's headers were not found at configure time (lesson 10's process "
                       "groups need them)",
                       "sudo apt-get install -y libgloo-dev   (then: cmake <build folder>)");
    } else {
        report.ok("gloo", "headers in " + gloo + " (c10d::ProcessGroupGloo, lesson 10)");
    }
    const std::string torchrun = string_value(recorded.values, "torchrun");
    if (torchrun.empty()) {
        report.note("torchrun",
                    "not found: lesson 10 runs as one process (torchrun comes with "
                    "the torch Python package)");
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
    report.section("Libraries");
    report_libraries(report, config);
    report.section("GPU");
    const std::vector<std::string> gpus = check_gpus(report);
    report.section("Build");
    check_build(report, context);
    report_config(report, context, config);
    report_support(report, config);
    check_gpu_support(report, config, gpus);
    check_distributed(report, config);
    report.section("Course");
    check_course(report, context);
    return report.finish();
}

}  // namespace torchlings::runner
