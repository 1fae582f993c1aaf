/// @file
/// @brief What a signal is called and means, and where a program is on PATH: the words the
/// runner uses about the processes that process.cpp runs.
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/messages.h"
#include "core/process.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

std::string signal_name(int signal) {
    switch (signal) {
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGFPE:
            return "SIGFPE";
        case SIGILL:
            return "SIGILL";
        case SIGBUS:
            return "SIGBUS";
        case SIGKILL:
            return "SIGKILL";
        case SIGTERM:
            return "SIGTERM";
        case SIGINT:
            return "SIGINT";
        case SIGQUIT:
            return "SIGQUIT";
        case SIGHUP:
            return "SIGHUP";
        case SIGPIPE:
            return "SIGPIPE";
        case SIGTRAP:
            return "SIGTRAP";
        case SIGSYS:
            return "SIGSYS";
        case SIGXCPU:
            return "SIGXCPU";
        case SIGALRM:
            return "SIGALRM";
        case SIGUSR1:
            return "SIGUSR1";
        case SIGUSR2:
            return "SIGUSR2";
        default:
            return "signal " + std::to_string(signal);
    }
}

std::string signal_meaning(int signal, Language language) {
    switch (signal) {
        case SIGSEGV:
            return message(language, Msg::kSignalSegv);
        case SIGABRT:
            return message(language, Msg::kSignalAbrt);
        case SIGFPE:
            return message(language, Msg::kSignalFpe);
        case SIGILL:
            return message(language, Msg::kSignalIll);
        case SIGBUS:
            return message(language, Msg::kSignalBus);
        case SIGKILL:
            return message(language, Msg::kSignalKill);
        default: {
            const char* text = strsignal(signal);
            return text != nullptr ? text : "unknown signal";
        }
    }
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
        if (executable(fs::path(name))) {
            return fs::path(name);
        }
        return std::nullopt;
    }
    const char* path_variable = std::getenv("PATH");
    const std::string search = path_variable != nullptr ? path_variable : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= search.size()) {
        std::size_t end = search.find(':', start);
        if (end == std::string::npos) {
            end = search.size();
        }
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
