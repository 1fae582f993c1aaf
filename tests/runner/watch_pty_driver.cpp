/// @file
/// @brief watch_pty_driver: runs a program in a pseudo-terminal and plays a script against it,
/// for the end-to-end tests of `torchlings watch`, which needs a terminal.
///
///   watch_pty_driver [--timeout S] STEP... -- PROGRAM [ARG...]
///
/// Steps, in order:
///   expect=TEXT      wait until TEXT appears in the output after the previous expect's match
///   send=KEYS        type KEYS; \xNN, \n and \\ stand for a byte, a newline and a backslash
///   resave=FILE      save FILE with its own bytes as many editors do: a new file renamed over it
///   rewrite=FILE     save FILE with its own bytes in place (written over, never truncated)
///   exit=CODE        wait for the program to end, with this exit status
///   terminal-restored  the terminal is back in line mode with echo (after exit=)
///
/// Each step may take up to --timeout seconds (default 60). The files keep their bytes, so a
/// fixture in the source tree is saved without being changed. On failure: the output so far,
/// the step that failed, and exit status 1.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

/// The program under test, its pseudo-terminal, and everything it printed.
struct Session {
    pid_t pid = -1;
    int master = -1;
    std::string output;
    std::size_t matched_up_to = 0;  ///< expect= searches from here
    bool output_ended = false;      ///< the terminal's other side is closed
    bool exited = false;
    int status = 0;
};

/// Prints everything the program printed, with the terminal's carriage returns left out.
void show_output(const Session& session) {
    std::string shown;
    for (char c : session.output) {
        if (c != '\r') {
            shown += c;
        }
    }
    std::cout << "---- output of the program ----\n" << shown << "\n---- end of output ----\n";
}

[[noreturn]] void fail(Session& session, const std::string& why) {
    show_output(session);
    std::cout << "watch_pty_driver: " << why << std::endl;
    if (session.pid > 0 && !session.exited) {
        kill(session.pid, SIGKILL);
        waitpid(session.pid, nullptr, 0);
    }
    std::exit(1);
}

/// Reads what the program printed, waiting at most `wait_ms`. Returns false once no more can
/// come (Linux reports EIO when the program's side of the terminal is closed).
bool pump(Session& session, int wait_ms) {
    if (session.output_ended) {
        return false;
    }
    pollfd fd{session.master, POLLIN, 0};
    const int ready = poll(&fd, 1, wait_ms);
    if (ready < 0 && errno != EINTR) {
        fail(session, std::string("poll: ") + std::strerror(errno));
    }
    if (ready <= 0) {
        return true;
    }
    char buffer[4096];
    const ssize_t count = read(session.master, buffer, sizeof buffer);
    if (count > 0) {
        session.output.append(buffer, static_cast<std::size_t>(count));
        return true;
    }
    if (count < 0 && (errno == EINTR || errno == EAGAIN)) {
        return true;
    }
    session.output_ended = true;
    return false;
}

std::string unescape(std::string_view text) {
    std::string bytes;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            bytes += text[i];
            continue;
        }
        const char kind = text[++i];
        if (kind == 'n') {
            bytes += '\n';
        } else if (kind == 'x' && i + 2 < text.size()) {
            bytes += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            bytes += kind;
        }
    }
    return bytes;
}

std::string read_bytes(Session& session, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail(session, "cannot read " + path);
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

/// A new file with the same bytes and mode, renamed over the old one: never missing, never
/// partly written.
void resave(Session& session, const std::string& path) {
    const std::string bytes = read_bytes(session, path);
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) {
        fail(session, "cannot stat " + path);
    }
    const std::size_t slash = path.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::string temporary = folder + "/." + name + ".watch-test~";
    const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const bool written =
        fd >= 0 && write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()) &&
        fchmod(fd, info.st_mode & 07777) == 0;
    if (fd >= 0) {
        close(fd);
    }
    if (!written || rename(temporary.c_str(), path.c_str()) != 0) {
        unlink(temporary.c_str());
        fail(session, "cannot save " + path + " by renaming " + temporary + " over it");
    }
}

/// The same bytes written over the file from its start: its content never changes at all.
void rewrite(Session& session, const std::string& path) {
    const std::string bytes = read_bytes(session, path);
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    const bool written =
        fd >= 0 && pwrite(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size());
    if (fd >= 0) {
        close(fd);
    }
    if (!written) {
        fail(session, "cannot rewrite " + path);
    }
}

void expect(Session& session, const std::string& text, Clock::time_point deadline) {
    for (;;) {
        const std::size_t found = session.output.find(text, session.matched_up_to);
        if (found != std::string::npos) {
            session.matched_up_to = found + text.size();
            return;
        }
        if (Clock::now() >= deadline) {
            fail(session, "timed out waiting for: " + text);
        }
        if (!pump(session, 100) &&
            session.output.find(text, session.matched_up_to) == std::string::npos) {
            fail(session, "the program's output ended without: " + text);
        }
    }
}

void expect_exit(Session& session, int code, Clock::time_point deadline) {
    while (!session.exited) {
        if (Clock::now() >= deadline) {
            fail(session, "timed out waiting for the program to exit");
        }
        pump(session, 50);  // keep reading, so that the program never blocks on a full terminal
        const pid_t done = waitpid(session.pid, &session.status, WNOHANG);
        session.exited = done == session.pid;
    }
    while (pump(session, 0)) {
    }
    if (!WIFEXITED(session.status) || WEXITSTATUS(session.status) != code) {
        fail(session,
             "the program ended with status " +
                 std::to_string(WIFEXITED(session.status) ? WEXITSTATUS(session.status)
                                                          : 128 + WTERMSIG(session.status)) +
                 ", expected " + std::to_string(code));
    }
}

void expect_terminal_restored(Session& session) {
    termios settings{};
    if (tcgetattr(session.master, &settings) != 0) {
        fail(session, std::string("tcgetattr: ") + std::strerror(errno));
    }
    if ((settings.c_lflag & ICANON) == 0 || (settings.c_lflag & ECHO) == 0) {
        fail(session, "the terminal was left without line mode or echo");
    }
}

}  // namespace

int main(int argc, char** argv) {
    int timeout_s = 60;
    std::vector<std::string> steps;
    int program_at = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            program_at = i + 1;
            break;
        }
        if (arg == "--timeout" && i + 1 < argc) {
            timeout_s = std::atoi(argv[++i]);
        } else {
            steps.push_back(arg);
        }
    }
    if (program_at < 0 || program_at >= argc) {
        std::cerr << "usage: watch_pty_driver [--timeout S] STEP... -- PROGRAM [ARG...]\n";
        return 64;
    }

    Session session;
    winsize size{};
    size.ws_row = 40;
    size.ws_col = 100;
    session.pid = forkpty(&session.master, nullptr, nullptr, &size);
    if (session.pid < 0) {
        std::cerr << "watch_pty_driver: forkpty: " << std::strerror(errno) << "\n";
        return 1;
    }
    if (session.pid == 0) {
        execv(argv[program_at], argv + program_at);
        std::perror("watch_pty_driver: exec");
        _exit(127);
    }

    for (const std::string& step : steps) {
        const Clock::time_point deadline = Clock::now() + std::chrono::seconds(timeout_s);
        const std::size_t equals = step.find('=');
        const std::string verb = step.substr(0, equals);
        const std::string value = equals == std::string::npos ? "" : step.substr(equals + 1);
        std::cout << "step: " << step << std::endl;
        if (verb == "expect") {
            expect(session, value, deadline);
        } else if (verb == "send") {
            const std::string keys = unescape(value);
            if (write(session.master, keys.data(), keys.size()) !=
                static_cast<ssize_t>(keys.size())) {
                fail(session, "cannot type " + step);
            }
        } else if (verb == "resave") {
            resave(session, value);
        } else if (verb == "rewrite") {
            rewrite(session, value);
        } else if (verb == "exit") {
            expect_exit(session, std::atoi(value.c_str()), deadline);
        } else if (verb == "terminal-restored") {
            expect_terminal_restored(session);
        } else {
            fail(session, "unknown step: " + step);
        }
    }
    if (!session.exited) {
        fail(session, "the script ended before the program did (add exit=CODE)");
    }
    show_output(session);
    return 0;
}
