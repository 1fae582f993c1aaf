/// @file
/// @brief Building exercise and lesson targets through CMake: a progress line while Ninja works,
/// going on past a failing target, and the build errors that are not the learner's (a build
/// folder the learner cannot write, a compiler that is missing).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "core/compiler_log.h"
#include "core/errors.h"
#include "core/exercise_run.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// Throws when the build failed because a file or folder could not be written or read
/// (permission denied): a build folder that belongs to another user (made by `sudo`, or by a
/// container's root), or a LibTorch folder this user cannot read. Names the real cause, with the
/// line that said it and the path, and a fix that works, instead of blaming CMake or the code.
void throw_if_permission_denied(const Context& context, const BuildResult& build) {
    const std::string& log = build.log;
    std::size_t at = log.find("Permission denied");
    if (at == std::string::npos) {
        at = log.find("permission denied");
    }
    const bool build_unwritable = ::access(context.build_dir().c_str(), W_OK) != 0;
    if (at == std::string::npos && !build_unwritable) {
        return;
    }
    std::string said;
    std::string path;
    if (at != std::string::npos) {
        const std::size_t begin = log.rfind('\n', at) + 1;  // npos + 1 is 0: the first line
        said = trim(log.substr(begin, log.find('\n', at) - begin));
        // The first absolute path on that line, if it names one: a '/' at its start or after a
        // space, quote or parenthesis (ninja: "stat(/path): Permission denied").
        for (std::size_t slash = said.find('/'); slash != std::string::npos;
             slash = said.find('/', slash + 1)) {
            if (slash == 0 ||
                std::string_view(" '\"(").find(said[slash - 1]) != std::string::npos) {
                path = said.substr(slash, said.find_first_of(" :'\")", slash) - slash);
                break;
            }
        }
    }
    const std::string build_dir = context.show(context.build_dir());
    std::string what;
    std::string fix;
    const bool outside = !path.empty() && path.rfind(context.build_dir().string(), 0) != 0;
    if (build_unwritable || !outside) {
        what = "The build folder " + build_dir +
               " cannot be written by you (permission denied), so nothing was built; it "
               "belongs to another user (a build run with sudo, or as a container's root?).";
        fix = "sudo chown -R \"$(id -un)\" " + build_dir + "   (or remove it: sudo rm -rf " +
              build_dir + ", and the next command configures it again)";
    }
    if (outside) {
        // Most often a LibTorch (or Python's torch) under another user's home: a folder above
        // the file is closed to this user.
        what += std::string(what.empty() ? "The build" : "\n  It also") + " could not read " +
                path + " (permission denied)" + (what.empty() ? ", so nothing was built." : ".");
        fix += std::string(fix.empty() ? "" : "\n  and: ") +
               "make it readable to you (one of the folders above it is closed: ls -ld each), "
               "or use a LibTorch of your own: Torch_DIR=<its share/cmake/Torch> cmake " +
               build_dir;
    }
    if (!said.empty()) {
        what += "\n  " + said;
    }
    what += build.log_saved ? "\n  Full log: " + context.show(build.log_path)
                            : std::string("\n  (The build's log could not be saved there either.)");
    throw EnvironmentError(what, fix);
}

/// Throws when a failed build never reached the compiler: CMake could not re-configure the
/// build folder (Ninja re-runs it first when a CMakeLists.txt or an exercises/NN_topic/info.md
/// changed), or the target does not exist.
void throw_if_not_compiled(const Context& context, std::string_view target,
                           const BuildResult& build) {
    if (build.log.find("rebuilding 'build.ninja'") != std::string::npos) {
        const std::optional<CompilerError> error = first_error(build.log, {}, context.build_dir());
        std::string what = "CMake could not re-configure " + context.show(context.build_dir()) +
                           ", so nothing was built.";
        if (error) {
            what += "\n  " + error->headline;
            for (const std::string& line : error->context) {
                what += "\n  " + line;
            }
        }
        throw EnvironmentError(
            what + "\n  Full log: " + context.show(build.log_path),
            "cmake " + context.show(context.build_dir()) + "   (shows the whole configure output)");
    }
    // Ninja: "ninja: error: unknown target 'ex_x'"; Make: "No rule to make target 'ex_x'".
    if (build.log.find("unknown target") != std::string::npos ||
        build.log.find("No rule to make target") != std::string::npos) {
        throw EnvironmentError(
            "The build has no target " + std::string(target) +
                " (was the build configured before it existed?).",
            "cmake " + context.show(context.build_dir()) + "   (re-configures the build)");
    }
}

/// The build's progress, from the "[n/N]" lines Ninja prints before each step. On a terminal it
/// keeps one updating line: "  building lesson_01 ... [37/160] 21 s, about 70 s left". Elsewhere
/// (a log, a pipe) it appends "[n/N]" to the plain line every kPlainEvery, so that a long build
/// still shows signs of life without flooding the log.
class BuildProgress {
  public:
    BuildProgress(std::ostream& out, const Style& style, std::string prefix, bool live)
        : out_(out), style_(style), prefix_(std::move(prefix)), live_(live) {}

    /// Takes the next piece of the build's output.
    void feed(std::string_view chunk) {
        pending_.append(chunk);
        std::size_t end = 0;
        while ((end = pending_.find('\n')) != std::string::npos) {
            read_line(std::string_view(pending_).substr(0, end));
            pending_.erase(0, end + 1);
        }
        show();
    }

    /// Clears the updating line, if one was drawn, so the final verdict can be written.
    void finish() {
        if (drawn_) {
            out_ << "\r\033[K" << style_.dim(prefix_) << std::flush;
        }
    }

  private:
    static constexpr std::chrono::milliseconds kRedrawEvery{100};
    static constexpr std::chrono::seconds kPlainEvery{15};

    void read_line(std::string_view line) {
        if (line.size() < 5 || line.front() != '[') {
            return;
        }
        const std::size_t slash = line.find('/');
        const std::size_t close = line.find(']');
        if (slash == std::string_view::npos || close == std::string_view::npos || slash > close) {
            return;
        }
        try {
            done_ = std::stoi(std::string(line.substr(1, slash - 1)));
            total_ = std::stoi(std::string(line.substr(slash + 1, close - slash - 1)));
        } catch (const std::exception&) {
            // Not a Ninja progress line after all.
        }
    }

    void show() {
        if (total_ <= 0) {
            return;
        }
        const auto now = Clock::now();
        const double elapsed = std::chrono::duration<double>(now - started_).count();
        const std::string counts = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "]";
        if (!live_) {
            if (now - last_shown_ >= kPlainEvery && now - started_ >= kPlainEvery) {
                out_ << style_.dim(" " + counts) << std::flush;
                last_shown_ = now;
            }
            return;
        }
        if (now - last_shown_ < kRedrawEvery) {
            return;
        }
        std::string line = prefix_ + " " + counts + " " + format_seconds(elapsed);
        // Steps differ in cost (a link is not a compile), so the estimate is only a rough one,
        // shown once a few steps have finished.
        if (done_ >= 3 && done_ < total_) {
            const double left = elapsed / done_ * (total_ - done_);
            line += ", about " + format_seconds(std::round(left)) + " left";
        }
        out_ << "\r\033[K" << style_.dim(line) << std::flush;
        drawn_ = true;
        last_shown_ = now;
    }

    using Clock = std::chrono::steady_clock;
    std::ostream& out_;
    const Style& style_;
    std::string prefix_;
    bool live_;
    std::string pending_;
    int done_ = 0;
    int total_ = 0;
    bool drawn_ = false;
    Clock::time_point started_ = Clock::now();
    Clock::time_point last_shown_{};
};

/// The build tool's "keep going after a failure" option for the build folder's generator, after
/// `--`; nothing for a generator without one.
std::vector<std::string> keep_going_arguments(const Context& context) {
    const std::string generator = context.cache_value("CMAKE_GENERATOR").value_or("");
    if (generator == "Ninja" || generator == "Ninja Multi-Config") {
        return {"--", "-k", "0"};
    }
    if (generator == "Unix Makefiles") {
        return {"--", "-k"};
    }
    return {};
}

/// True when `out` is the runner's own stdout or stderr, that is a terminal, and the terminal
/// can redraw a line (TERM set and not "dumb").
bool is_terminal(const std::ostream& out) {
    const char* term = std::getenv("TERM");
    return term != nullptr && std::string_view(term) != "dumb" &&
           ((&out == &std::cout && isatty(STDOUT_FILENO) != 0) ||
            (&out == &std::cerr && isatty(STDERR_FILENO) != 0));
}

}  // namespace

BuildResult build_target(Context& context, std::string_view target) {
    return build_targets(context, {std::string(target)}, target);
}

BuildResult build_targets(Context& context, const std::vector<std::string>& targets,
                          std::string_view label) {
    context.require_configured_build();
    ProcessSpec spec = command_spec(
        {context.cmake().string(), "--build", context.build_dir().string(), "--target"});
    spec.argv.insert(spec.argv.end(), targets.begin(), targets.end());
    if (targets.size() > 1) {
        const std::vector<std::string> keep_going = keep_going_arguments(context);
        spec.argv.insert(spec.argv.end(), keep_going.begin(), keep_going.end());
    }
    std::ostream& out = context.out();
    const Style& style = context.style();
    const std::string prefix = context.message(Msg::kBuilding, {label});
    out << style.dim(prefix) << std::flush;
    BuildProgress progress(out, style, prefix, is_terminal(out));
    spec.on_output = [&progress](std::string_view chunk) { progress.feed(chunk); };
    ProcessResult process;
    try {
        process = run_process(spec);
    } catch (...) {
        out << "\n" << std::flush;  // end the line before the error is reported
        throw;
    }
    progress.finish();
    const std::string log_name = targets.size() == 1 ? targets.front() : std::string("all");
    BuildResult result{process.succeeded(), process.output,
                       context.build_dir() / "logs" / (log_name + ".build.log"), process.seconds};
    std::string unsaved;
    try {
        write_file(result.log_path, result.log);
    } catch (const EnvironmentError& error) {
        result.log_saved = false;
        unsaved = error.what();
    }
    if (result.ok) {
        out << style.dim(context.message(Msg::kBuildOk, {format_seconds(result.seconds)})) << "\n";
    } else {
        out << " " << style.bad(context.message(Msg::kBuildFailed)) << "\n";
        throw_if_permission_denied(context, result);  // says itself that the log is not saved
    }
    if (!unsaved.empty()) {
        context.err() << style.warn("warning: ") << unsaved << "\n";
    }
    if (!result.ok) {
        throw_if_not_compiled(context, label, result);
    }
    return result;
}

}  // namespace torchlings::runner
