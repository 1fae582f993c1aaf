/// @file
/// @brief `watch`: checks the current exercise on each save of its file, and answers single key
/// presses (n h l c q) in between. Never moves on by itself.
///
/// One loop, one thread: poll(2) waits on the terminal and on the file watch (inotify, or a
/// timeout for polling and for the quiet time after a save). A check runs to its end before
/// keys are read again; keys pressed meanwhile wait in the terminal's queue.
#include <poll.h>
#include <termios.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "learner/check.h"
#include "learner/file_watch.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace {

using Clock = FileWatch::Clock;

/// Ctrl-C and Ctrl-D as bytes (Ctrl-C only arrives as a byte where the terminal does not turn
/// it into SIGINT), and the first byte of an escape sequence (arrow keys and the like).
constexpr char kCtrlC = '\x03';
constexpr char kCtrlD = '\x04';
constexpr char kEscape = '\x1b';
/// Moves the cursor home and clears the screen.
constexpr std::string_view kClearScreen = "\x1b[H\x1b[2J";

/// The signal that asked the runner to stop while it waited (SIGINT, SIGTERM, ...), or 0.
volatile std::sig_atomic_t g_stop_signal = 0;
/// Set when the runner continues after Ctrl-Z; key mode is then set up again.
volatile std::sig_atomic_t g_continued = 0;
/// The terminal's settings before key mode, for the Ctrl-Z handler (set before it is installed).
termios g_saved_terminal{};

extern "C" void on_stop_signal(int number) { g_stop_signal = number; }

extern "C" void on_continue(int /*number*/) { g_continued = 1; }

/// Ctrl-Z: gives the shell its terminal back as it was, then stops as Ctrl-Z normally does.
/// Only async-signal-safe calls.
extern "C" void on_suspend(int /*number*/) {
    const int saved_errno = errno;
    tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_terminal);
    std::signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);  // blocked inside this handler: it stops the process when the handler returns
    // Key mode comes back once the process runs again; also where the kernel does not stop it
    // (a process group without a shell to continue it ignores Ctrl-Z).
    g_continued = 1;
    errno = saved_errno;
}

/// For its lifetime: the terminal on stdin hands over each key press at once and without echo
/// (output is unchanged), and SIGINT, SIGTERM, SIGHUP and SIGQUIT end the wait instead of the
/// process. The destructor restores the terminal and the signal actions, so every way out of
/// `watch`, an exception included, leaves the terminal as it found it. Ctrl-Z restores the
/// terminal before stopping; resume() sets key mode up again after.
class KeyMode {
  public:
    KeyMode() {
        if (tcgetattr(STDIN_FILENO, &g_saved_terminal) != 0) {
            throw EnvironmentError(std::string("cannot read the terminal's settings: ") +
                                   std::strerror(errno));
        }
        g_stop_signal = 0;
        g_continued = 0;
        for (std::size_t i = 0; i < kSignals.size(); ++i) {
            handle(kSignals[i].first, kSignals[i].second, &previous_[i]);
        }
        enter();
    }
    ~KeyMode() {
        tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_terminal);
        for (std::size_t i = 0; i < kSignals.size(); ++i) {
            sigaction(kSignals[i].first, &previous_[i], nullptr);
        }
    }
    KeyMode(const KeyMode&) = delete;
    KeyMode& operator=(const KeyMode&) = delete;

    /// After Ctrl-Z and `fg`: key mode and the Ctrl-Z handler again.
    void resume() {
        g_continued = 0;
        handle(SIGTSTP, on_suspend);
        enter();
    }

  private:
    /// Installs `handler` for signal `number`, without SA_RESTART: poll() must wake up with EINTR.
    static void handle(int number, void (*handler)(int), struct sigaction* previous = nullptr) {
        struct sigaction action {};
        sigemptyset(&action.sa_mask);
        action.sa_handler = handler;
        sigaction(number, &action, previous);
    }

    static void enter() {
        termios keys = g_saved_terminal;
        keys.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
        keys.c_cc[VMIN] = 1;
        keys.c_cc[VTIME] = 0;
        tcsetattr(STDIN_FILENO, TCSANOW, &keys);
    }

    /// The signals key mode handles, each with its handler.
    static constexpr std::array<std::pair<int, void (*)(int)>, 6> kSignals{
        {{SIGINT, on_stop_signal},
         {SIGTERM, on_stop_signal},
         {SIGHUP, on_stop_signal},
         {SIGQUIT, on_stop_signal},
         {SIGTSTP, on_suspend},
         {SIGCONT, on_continue}}};
    std::array<struct sigaction, 6> previous_{};
};

/// The first exercise after `from` in course order that is not done, wrapping around to the
/// start of the course; nullptr when every other exercise is done.
const Exercise* next_not_done(Context& context, const Exercise& from) {
    const std::vector<Exercise>& all = context.course().exercises();
    const auto start =
        static_cast<std::size_t>(std::ranges::find(all, from.id, &Exercise::id) - all.begin());
    for (std::size_t step = 1; step < all.size(); ++step) {
        const Exercise& candidate = all[(start + step) % all.size()];
        if (context.status_of(candidate) != ExerciseStatus::kDone) {
            return &candidate;
        }
    }
    return nullptr;
}

/// What to type instead, when stdin or stdout is not a terminal (an IDE's output pane, a pipe,
/// a notebook cell).
void explain_plain_commands(Context& context, const Exercise& exercise) {
    std::ostream& out = context.out();
    const std::string command(kCommand);
    const std::array<std::pair<std::string, std::string>, 4> rows{{
        {command + " check " + exercise.id, context.message(Msg::kWatchPlainCheck)},
        {command + " hint " + exercise.id, context.message(Msg::kWatchPlainHint)},
        {command + " list", context.message(Msg::kWatchPlainList)},
        {command + " progress", context.message(Msg::kWatchPlainProgress)},
    }};
    const std::size_t width =
        std::ranges::max(rows, {}, [](const auto& row) { return row.first.size(); }).first.size();
    out << context.message(Msg::kWatchNeedsTerminal) << "\n"
        << context.message(Msg::kWatchOneAtATime) << "\n";
    for (const auto& [typed, what] : rows) {
        out << "  " << typed << std::string(width - typed.size() + 3, ' ') << what << "\n";
    }
    out << context.message(Msg::kWatchCurrent,
                           {context.style().bold(exercise.id),
                            context.show(context.course().learner_file(exercise))})
        << "\n";
}

/// One `watch` session: the current exercise, the watch on its file, and the loop that waits
/// for keys and saves.
class Watcher {
  public:
    Watcher(Context& context, const WatchOptions& options) : context_(context), options_(options) {}

    /// Watches `first`, then whatever `n` moves to, until q, Ctrl-C, Ctrl-D or a signal.
    ExitCode run(const Exercise& first) {
        KeyMode keys;
        switch_to(first);
        bool quit = false;
        while (!quit && g_stop_signal == 0) {
            if (g_continued != 0) {
                keys.resume();
                print_status_bar();
            }
            quit = wait_once();
        }
        context_.out() << "\n"
                       << context_.message(Msg::kWatchStopped, {kCommand}) << "\n"
                       << std::flush;
        // Ctrl-C as a signal ends the session as q does; another signal is an interruption.
        return !quit && g_stop_signal != SIGINT ? ExitCode::kInterrupted : ExitCode::kOk;
    }

  private:
    /// Waits for a key, a save, or the next look at the file; handles what came. True: quit.
    bool wait_once() {
        const std::optional<std::chrono::milliseconds> limit = watch_->wait_limit(Clock::now());
        std::array<pollfd, 2> fds{{{STDIN_FILENO, POLLIN, 0}, {watch_->fd(), POLLIN, 0}}};
        // poll() ignores the entry of a negative descriptor (no notifications: polling).
        const int ready =
            poll(fds.data(), fds.size(), limit ? static_cast<int>(limit->count()) : -1);
        if (ready < 0) {
            if (errno == EINTR) {
                return false;  // a signal: the loop looks at it
            }
            throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
        }
        if ((fds[0].revents & POLLIN) != 0) {
            if (read_keys()) {
                return true;
            }
        } else if ((fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) {
            return true;  // the terminal went away
        }
        if (watch_->collect(Clock::now())) {
            check();
        }
        return false;
    }

    /// Reads the keys waiting on the terminal and acts on each in turn. True: quit.
    bool read_keys() {
        std::array<char, 64> buffer{};
        const ssize_t count = ::read(STDIN_FILENO, buffer.data(), buffer.size());
        if (count <= 0) {  // 0: end of input
            return count == 0 || (errno != EINTR && errno != EAGAIN);
        }
        for (const char key : std::string_view(buffer.data(), static_cast<std::size_t>(count))) {
            if (key == kEscape) {
                break;  // an arrow or function key: the rest of its sequence is not keys
            }
            if (on_key(key)) {
                return true;
            }
        }
        return false;
    }

    /// One key press; true (quit) for q, Ctrl-C (as a byte) and Ctrl-D.
    bool on_key(char key) {
        switch (std::tolower(static_cast<unsigned char>(key))) {
            case 'q':
            case kCtrlC:
            case kCtrlD:
                return true;
            case 'c':
                check();
                break;
            case 'n':
                next();
                break;
            case 'h':
                context_.out() << "\n";
                hint_command(context_, exercise_->id, context_.message(Msg::kPressHAgain));
                print_status_bar();
                break;
            case 'l':
                context_.out() << "\n";
                list_command(context_);
                print_status_bar();
                break;
            case '\n':
            case '\r':
            case ' ':
                break;
            default:
                context_.out() << "\n"
                               << context_.message(Msg::kWatchUnknownKey,
                                                   {context_.message(Msg::kWatchKeys)})
                               << "\n"
                               << std::flush;
                break;
        }
        return false;
    }

    /// Makes `exercise` the current one (remembered in the progress file), watches its file,
    /// and checks it.
    void switch_to(const Exercise& exercise) {
        exercise_ = &exercise;
        context_.state().set_current(exercise.id);
        context_.save_state();
        const auto interval = std::chrono::milliseconds(
            static_cast<long long>(std::max(options_.poll_interval_s, 0.0) * 1000.0));
        // Watching starts before the check, so that a save during the check is not missed.
        watch_ = std::make_unique<FileWatch>(context_.course().learner_file(exercise),
                                             options_.poll, interval);
        check();
    }

    /// Clears the screen (with colour only: the transcript stays readable elsewhere), checks
    /// the exercise, and shows the status bar under the verdict.
    void check() {
        std::ostream& out = context_.out();
        if (context_.style().color()) {
            out << kClearScreen;
        }
        watch_->mark_checked();
        try {
            static_cast<void>(check_exercise(context_, *exercise_));
        } catch (const EnvironmentError& error) {
            // A missing file, a build folder that cannot re-configure: fixable while watching.
            out << "\n" << context_.style().bad("error: ") << error.what() << "\n";
            if (!error.fix().empty()) {
                out << "fix:   " << error.fix() << "\n";
            }
        }
        print_status_bar();
    }

    /// `n`: moves on only when the current exercise is done; says why not otherwise.
    void next() {
        std::ostream& out = context_.out();
        const Style& style = context_.style();
        const ExerciseStatus status = context_.status_of(*exercise_);
        const Exercise* later = nullptr;
        if (status == ExerciseStatus::kDone || status == ExerciseStatus::kSkipped) {
            later = next_not_done(context_, *exercise_);
        }
        if (status == ExerciseStatus::kDone) {
            if (later == nullptr) {
                out << "\n"
                    << style.good(context_.message(Msg::kWatchAllDone)) << "\n"
                    << std::flush;
            } else {
                switch_to(*later);
            }
            return;
        }
        const std::map<ExerciseStatus, Msg> why_not{
            {ExerciseStatus::kNotTried, Msg::kWatchNotTried},
            {ExerciseStatus::kFailing, Msg::kWatchFailing},
            {ExerciseStatus::kBuildError, Msg::kWatchBuildError},
            {ExerciseStatus::kChanged, Msg::kWatchChanged},
            {ExerciseStatus::kSkipped, Msg::kWatchSkipped}};
        std::string why = context_.message(why_not.at(status), {exercise_->id});
        if (later != nullptr) {
            why += context_.message(Msg::kWatchGoOnAnyway, {kCommand, later->id});
        }
        out << "\n"
            << style.warn(context_.message(Msg::kWatchNotMovingOn)) << why << "\n"
            << std::flush;
    }

    /// Under the verdict: where the learner is, how the file is watched, and the keys.
    void print_status_bar() {
        std::ostream& out = context_.out();
        const Style& style = context_.style();
        const Course& course = context_.course();
        const Lesson& lesson = course.lesson_of(*exercise_);
        const auto done = std::ranges::count_if(course.exercises(), [&](const Exercise& e) {
            return context_.status_of(e) == ExerciseStatus::kDone;
        });
        const ExerciseStatus status = context_.status_of(*exercise_);
        const std::string watching =
            watch_->method() + (watch_->reason().empty() ? "" : " (" + watch_->reason() + ")");

        out << "\n"
            << style.dim(std::string(72, '-')) << "\n"
            << context_.message(
                   Msg::kWatchStatusBar,
                   {style.bold(exercise_->id), lesson.number, lesson.title, done,
                    course.exercises().size(), status_text(context_.language(), status)})
            << "\n"
            << style.dim(context_.message(
                   Msg::kWatchWatching, {context_.show(course.learner_file(*exercise_)), watching}))
            << "\n";
        out << (status == ExerciseStatus::kDone ? style.good(context_.message(Msg::kWatchPasses))
                                                : context_.message(Msg::kWatchSaveToCheck))
            << "\n"
            << context_.message(Msg::kWatchKeysLine, {context_.message(Msg::kWatchKeys)}) << "\n"
            << std::flush;
    }

    Context& context_;
    const WatchOptions& options_;
    const Exercise* exercise_ = nullptr;
    std::unique_ptr<FileWatch> watch_;
};

}  // namespace

ExitCode watch_command(Context& context, const WatchOptions& options) {
    const Exercise& first = options.target.empty()
                                ? context.current_exercise()
                                : context.course().resolve_exercise(options.target);
    if (isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0) {
        explain_plain_commands(context, first);
        return ExitCode::kOk;
    }
    context.require_configured_build();  // before key mode: the error names the set-up command
    return Watcher(context, options).run(first);
}

}  // namespace torchlings::runner
