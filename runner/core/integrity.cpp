/// @file
/// @brief Scanning a learner's file and its object for what could tamper with the test program.
#include "core/integrity.h"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <system_error>

#include "core/errors.h"
#include "core/process.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// Functions whose use a learner's answer never needs, by what they reach. None of the course's
/// solutions uses any of them; each is a way a student could reach the reporter, its pipe, or
/// the end of the program.
struct Category {
    std::string_view code;
    std::string_view what;
    std::vector<std::string_view> names;
};

const std::vector<Category>& categories() {
    static const std::vector<Category> kCategories{
        {"exit-path",
         "ends the program",
         // Not abort(): it ends the program with a signal, which is never a pass.
         // pthread_exit (thrd_exit) in the main thread: the program ends with status 0 once its
         // threads do.
         {"exit", "_exit", "_Exit", "quick_exit", "at_quick_exit", "atexit", "on_exit",
          "pthread_exit", "thrd_exit"}},
        {"descriptors",
         "works on file descriptors",
         {"write",    "read",       "close",     "dup",     "dup2",     "dup3",        "fcntl",
          "fcntl64",  "pipe",       "pipe2",     "open",    "open64",   "openat",      "openat64",
          "__open_2", "__open64_2", "tee",       "splice",  "vmsplice", "sendfile",    "pread",
          "pwrite",   "pread64",    "pwrite64",  "writev",  "readv",    "close_range", "fdopen",
          "opendir",  "readdir",    "readdir64", "readlink"}},
        {"environment",
         "reads or changes the environment",
         {"getenv", "secure_getenv", "setenv", "unsetenv", "putenv", "clearenv", "environ",
          "__environ", "program_invocation_name"}},
        {"processes",
         "starts or controls processes",
         {"fork",    "vfork",   "clone", "clone3",      "execve",       "execv",
          "execvp",  "execvpe", "execl", "execlp",      "execle",       "execveat",
          "fexecve", "system",  "popen", "posix_spawn", "posix_spawnp", "ptrace",
          "waitpid", "wait",    "wait3", "wait4",       "waitid"}},
        {"memory",
         "maps or reads memory outside its own variables",
         {"mprotect", "mmap", "mmap64", "pkey_mprotect", "process_vm_readv", "process_vm_writev",
          "dl_iterate_phdr"}},
        {"dynamic-symbols",
         "looks up symbols at run time",
         {"dlsym", "dlvsym", "dlopen", "dlmopen", "dladdr", "dladdr1", "dlinfo"}},
        {"system-calls", "makes raw system calls", {"syscall"}},
        {"signals", "installs signal handlers", {"signal", "sigaction", "sigaltstack"}},
        {"reporter",
         "refers to the reporter's or the linker's start-up symbols",
         {"tl_reporter_preinit", "__preinit_array_start", "__preinit_array_end",
          "__init_array_start", "__fini_array_start"}},
    };
    return kCategories;
}

std::string demangle(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) {
        return name;
    }
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : name;
}

/// C++ names in namespaces of the libraries a test program links: a strong definition of one
/// replaces the library's.
bool in_library_namespace(std::string_view demangled) {
    constexpr std::array<std::string_view, 10> kPrefixes{
        "std::",      "c10::",        "at::",        "torch::",      "caffe2::",
        "nlohmann::", "__cxxabiv1::", "__gnu_cxx::", "operator new", "operator delete"};
    return std::ranges::any_of(
        kPrefixes, [&](std::string_view prefix) { return demangled.starts_with(prefix); });
}

/// Symbols that compilers themselves emit unmangled into an object: never the learner's doing.
bool compiler_symbol(std::string_view name) {
    return name.find('.') != std::string_view::npos ||  // DW.ref.__gxx_personality_v0, ...
           name.starts_with("__cuda") || name.starts_with("__nv") || name.starts_with("__fatbin") ||
           name.starts_with("__sti__") ||
           name == "__clang_call_terminate";  // Clang's helper for a noexcept function's throw
}

void add(std::vector<IntegrityFlag>& flags, std::string_view code, std::string detail,
         bool refused) {
    flags.push_back({std::string(code), std::move(detail), refused});
}

/// Adds a flag about `names`, when there are any: `before`, up to six of them (sorted and without
/// repeats when `sorted`), `after`.
void add_listed(std::vector<IntegrityFlag>& flags, std::string_view code,
                std::vector<std::string> names, std::string_view before, std::string_view after,
                bool refused, bool sorted = false) {
    if (names.empty()) {
        return;
    }
    if (sorted) {
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
    }
    constexpr std::size_t kMost = 6;
    std::string text = join(
        {names.begin(), names.begin() + static_cast<long>(std::min(kMost, names.size()))}, ", ");
    if (names.size() > kMost) {
        text += " and " + std::to_string(names.size() - kMost) + " more";
    }
    add(flags, code, std::string(before) + text + std::string(after), refused);
}

}  // namespace

std::vector<IntegrityFlag> flags_from_symbols(std::string_view nm_output) {
    std::vector<std::string> c_names;
    std::vector<std::string> catch_names;
    std::vector<std::string> library_names;
    std::vector<std::string> ifuncs;
    std::vector<std::string> catch_uses;
    std::map<std::string_view, std::vector<std::string>> uses;
    bool cuda_registered = false;
    for (const std::string& line : split_lines(nm_output)) {
        std::istringstream fields(line);
        std::string name;
        std::string type;
        if (!(fields >> name >> type) || type.size() != 1) {
            continue;
        }
        const char kind = type.front();
        const std::string demangled = demangle(name);
        if (kind == 'i' || kind == 'I') {
            ifuncs.push_back(demangled);
            continue;
        }
        if (kind == 'U' || kind == 'w' || kind == 'v') {
            cuda_registered = cuda_registered || name == "__cudaRegisterFatBinary";
            if (demangled.starts_with("Catch::")) {
                catch_uses.push_back(demangled);
            }
            for (const Category& category : categories()) {
                if (std::ranges::find(category.names, name) != category.names.end()) {
                    uses[category.code].push_back(name);
                }
            }
            continue;
        }
        const bool global = kind >= 'A' && kind <= 'Z';
        if (!global && kind != 'u') {
            continue;  // local to the file: it replaces nothing
        }
        if (demangled.starts_with("Catch::")) {
            catch_names.push_back(demangled);
        } else if (name.rfind("_Z", 0) != 0) {
            if (!compiler_symbol(name)) {
                c_names.push_back(name);
            }
        } else if (kind != 'W' && kind != 'V' && kind != 'u' && in_library_namespace(demangled)) {
            library_names.push_back(demangled);
        }
    }
    // nvcc's registration code (a .cpp compiled as CUDA, lesson 09) unregisters its kernels from
    // an atexit() handler of its own.
    if (cuda_registered) {
        std::erase(uses["exit-path"], "atexit");
    }
    std::vector<IntegrityFlag> flags;
    add_listed(flags, "interposes-symbol", c_names, "defines ",
               " outside any namespace: a function of the C library or another library of the "
               "test program with that name would be replaced by it",
               true);
    add_listed(flags, "catch2-internals", catch_names, "defines Catch2's ", "", true);
    add_listed(flags, "ifunc", ifuncs, "has indirect functions (",
               "), which run before the program starts", true);
    add_listed(flags, "interposes-symbol", library_names, "defines the library function ", "",
               false);
    add_listed(flags, "catch2-internals", catch_uses, "uses Catch2's ", "", false);
    for (const Category& category : categories()) {
        add_listed(flags, category.code, uses[category.code],
                   std::string(category.what) + ": uses ", "", false, true);
    }
    return flags;
}

std::vector<IntegrityFlag> flags_from_sections(const std::vector<std::string>& sections) {
    std::vector<IntegrityFlag> flags;
    std::vector<std::string> ordered;
    for (const std::string& section : sections) {
        if (section.starts_with(".preinit_array")) {
            add(flags, "preinit-array",
                "puts a function in .preinit_array, to run before the program's own start-up",
                true);
        } else if (section.starts_with(".init_array.") || section.starts_with(".ctors.") ||
                   section.starts_with(".fini_array.") || section.starts_with(".dtors.")) {
            ordered.push_back(section);
        }
    }
    add_listed(flags, "startup-order", ordered,
               "orders its start-up or exit code (init_priority or a constructor priority: ", ")",
               false, true);
    return flags;
}

std::vector<IntegrityFlag> flags_from_source(std::string_view source) {
    std::vector<IntegrityFlag> flags;
    const auto has = [&](std::string_view text) {
        return source.find(text) != std::string_view::npos;
    };
    std::vector<std::string> files;
    for (std::string_view text : {"/proc/", "/dev/fd", "/proc\"", "TORCHLINGS_"}) {
        if (has(text)) {
            files.emplace_back(text);
        }
    }
    add_listed(flags, "process-files", files,
               "names the test program's own process files or the runner's variables (", ")",
               false);
    if (has("asm(") || has("asm (") || has("__asm") || has("asm volatile")) {
        add(flags, "inline-assembly", "contains inline assembly", false);
    }
    std::vector<std::string> startup;
    for (std::string_view text :
         {"((constructor", "gnu::constructor", "((destructor", "gnu::destructor", "init_priority",
          "preinit_array", ".init_array", ".fini_array", "ifunc"}) {
        if (has(text)) {
            startup.emplace_back(text.substr(text.find_first_not_of("(:gnu")));
        }
    }
    add_listed(flags, "startup-order", startup, "uses the attribute ", "", false);
    return flags;
}

std::vector<std::string> elf_section_names(const fs::path& object) {
    std::ifstream in(object, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto read = [&](std::size_t at, std::size_t size) -> std::uint64_t {
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < size && at + i < data.size(); ++i) {
            value |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[at + i]))
                     << (8 * i);
        }
        return value;
    };
    std::vector<std::string> names;
    // 64-bit (class 2), little-endian (data 1).
    if (data.size() < 64 || data.compare(0, 4, "\177ELF") != 0 || data[4] != 2 || data[5] != 1) {
        return names;
    }
    const std::uint64_t table = read(0x28, 8);
    const std::uint64_t entry_size = read(0x3A, 2);
    const std::uint64_t count = read(0x3C, 2);
    const std::uint64_t string_index = read(0x3E, 2);
    if (entry_size < 64 || string_index >= count || table + count * entry_size > data.size()) {
        return names;
    }
    const std::uint64_t strings = read(table + string_index * entry_size + 0x18, 8);
    const std::uint64_t strings_size = read(table + string_index * entry_size + 0x20, 8);
    if (strings + strings_size > data.size()) {
        return names;
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t name = read(table + i * entry_size, 4);
        if (name < strings_size) {
            names.emplace_back(data.c_str() + strings + name);
        }
    }
    return names;
}

namespace {

/// The object files of ex_<id> under `build_dir`, or nothing when the walk through it failed (a
/// folder removed while it was read: other programs, tests among them, make and remove folders
/// in the build folder meanwhile). An entry that is gone by the time it is looked at is passed
/// over.
std::optional<std::vector<fs::path>> walk_for_objects(const fs::path& build_dir,
                                                      const std::string& folder) {
    std::vector<fs::path> objects;
    std::error_code error;
    fs::recursive_directory_iterator it(build_dir, fs::directory_options::skip_permission_denied,
                                        error);
    for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        std::error_code gone;  // this entry's own trouble ends nothing but this entry
        if (!it->is_directory(gone)) {
            continue;
        }
        if (it.depth() > 0 && fs::exists(it->path() / "CMakeCache.txt", gone)) {
            it.disable_recursion_pending();  // another build tree (a test's), not this one's
        } else if (it->path().filename() == "CMakeFiles") {
            it.disable_recursion_pending();  // only ex_<id>.dir is of interest in there
            std::error_code inner;
            for (fs::recursive_directory_iterator file(it->path() / folder, inner);
                 !inner && file != fs::recursive_directory_iterator(); file.increment(inner)) {
                if (file->is_regular_file(inner) && file->path().extension() == ".o") {
                    objects.push_back(file->path());
                }
            }
        }
    }
    if (error) {
        return std::nullopt;
    }
    return objects;
}

}  // namespace

std::vector<fs::path> learner_objects(const fs::path& build_dir, std::string_view id) {
    const std::string folder = "ex_" + std::string(id) + ".dir";
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (std::optional<std::vector<fs::path>> objects = walk_for_objects(build_dir, folder)) {
            return *objects;
        }
    }
    return {};
}

std::vector<IntegrityFlag> scan_learner_file(const Context& context, const Exercise& exercise) {
    std::vector<IntegrityFlag> flags;
    try {
        flags = flags_from_source(read_file(context.course().learner_file(exercise)));
    } catch (const EnvironmentError&) {
        // Unreadable now (moved during the build): its object is still scanned below.
    }
    const std::vector<fs::path> objects = learner_objects(context.build_dir(), exercise.id);
    const std::optional<fs::path> nm = find_program("nm");
    if (objects.empty() || !nm) {
        add(flags, "not-scanned",
            objects.empty() ? "its object file was not found in the build folder"
                            : "nm is not installed, so its object file was not read",
            false);
        return flags;
    }
    for (const fs::path& object : objects) {
        const ProcessResult listed =
            run_process(command_spec({nm->string(), "-P", object.string()}));
        if (!listed.succeeded()) {
            add(flags, "not-scanned", "nm could not read " + context.show(object), false);
            continue;
        }
        for (const std::vector<IntegrityFlag>& found :
             {flags_from_symbols(listed.output), flags_from_sections(elf_section_names(object))}) {
            flags.insert(flags.end(), found.begin(), found.end());
        }
    }
    return flags;
}

std::string refusal_text(const std::vector<IntegrityFlag>& flags) {
    std::vector<std::string> reasons;
    for (const IntegrityFlag& flag : flags) {
        if (flag.refused) {
            reasons.push_back(flag.detail);
        }
    }
    return reasons.empty()
               ? ""
               : "the file " + join(reasons, "; it ") + ", which could forge the test report";
}

}  // namespace torchlings::runner
