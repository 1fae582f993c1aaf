/// @file
/// @brief What a signal is called and means, and where a program is on PATH: the words the
/// runner uses about the processes that process.cpp runs.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "core/messages.h"
#include "core/process.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// A signal's name, and what it means when the runner explains it (the others: strsignal()).
struct SignalWords {
    int signal;
    const char* name;
    std::optional<Msg> meaning;
};

constexpr std::array<SignalWords, 17> kSignals{{
    {SIGSEGV, "SIGSEGV", Msg::kSignalSegv},
    {SIGABRT, "SIGABRT", Msg::kSignalAbrt},
    {SIGFPE, "SIGFPE", Msg::kSignalFpe},
    {SIGILL, "SIGILL", Msg::kSignalIll},
    {SIGBUS, "SIGBUS", Msg::kSignalBus},
    {SIGKILL, "SIGKILL", Msg::kSignalKill},
    {SIGTERM, "SIGTERM", std::nullopt},
    {SIGINT, "SIGINT", std::nullopt},
    {SIGQUIT, "SIGQUIT", std::nullopt},
    {SIGHUP, "SIGHUP", std::nullopt},
    {SIGPIPE, "SIGPIPE", std::nullopt},
    {SIGTRAP, "SIGTRAP", std::nullopt},
    {SIGSYS, "SIGSYS", std::nullopt},
    {SIGXCPU, "SIGXCPU", std::nullopt},
    {SIGALRM, "SIGALRM", std::nullopt},
    {SIGUSR1, "SIGUSR1", std::nullopt},
    {SIGUSR2, "SIGUSR2", std::nullopt},
}};

const SignalWords* words_for(int signal) {
    const auto* found = std::ranges::find(kSignals, signal, &SignalWords::signal);
    return found != kSignals.end() ? found : nullptr;
}

}  // namespace

std::string signal_name(int signal) {
    const SignalWords* words = words_for(signal);
    return words != nullptr ? words->name : "signal " + std::to_string(signal);
}

std::string signal_meaning(int signal, Language language) {
    const SignalWords* words = words_for(signal);
    if (words != nullptr && words->meaning) {
        return message(language, *words->meaning);
    }
    const char* text = strsignal(signal);
    return text != nullptr ? text : "unknown signal";
}

std::optional<fs::path> find_program(std::string_view name) {
    if (name.empty()) {
        return std::nullopt;
    }
    const auto executable = [](const fs::path& path) {
        struct stat info {};
        return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
               access(path.c_str(), X_OK) == 0;
    };
    if (name.find('/') != std::string_view::npos) {
        return executable(name) ? std::optional<fs::path>(name) : std::nullopt;
    }
    const char* path_variable = std::getenv("PATH");
    const std::string search = path_variable != nullptr ? path_variable : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= search.size();) {
        const std::size_t end = std::min(search.find(':', start), search.size());
        const std::string folder = search.substr(start, end - start);
        const fs::path candidate = fs::path(folder.empty() ? "." : folder) / name;
        if (executable(candidate)) {
            return candidate;
        }
        start = end + 1;
    }
    return std::nullopt;
}

}  // namespace torchlings::runner
