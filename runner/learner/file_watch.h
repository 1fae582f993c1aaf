/// @file
/// @brief Noticing saves of one file, for `watch`: file notifications (inotify, on Linux) on the
/// file's folder, or polling its modification time, size and SHA-256 where notifications are
/// unavailable or unreliable (network drives, Windows drives under WSL, `--poll`).
///
/// Editors save in different ways: in place (write, close), or by writing a new file and renaming
/// it over the old one. Watching the folder, not the file, sees both; events for other files of
/// the folder are ignored.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace torchlings::runner {

/// Watches one file for saves. Not copyable: it owns the notification descriptor.
class FileWatch {
  public:
    using Clock = std::chrono::steady_clock;

    /// How long a file must stay quiet after a save before it counts as saved, so that an
    /// editor's burst of writes and renames gives one check, not several.
    static constexpr std::chrono::milliseconds kQuiet{100};

    /// Starts watching `file` (which may be missing for now), looking every `poll_interval` when
    /// polling. Uses file notifications unless `force_poll`, or they cannot be had for this
    /// file's folder (then reason() says why); never throws for that.
    FileWatch(std::filesystem::path file, bool force_poll, std::chrono::milliseconds poll_interval);
    ~FileWatch();
    FileWatch(const FileWatch&) = delete;
    FileWatch& operator=(const FileWatch&) = delete;

    /// True while file notifications are used, false when polling.
    [[nodiscard]] bool notifying() const { return notify_fd_ >= 0; }
    /// "file notifications (inotify)" or "polling every 250 ms".
    [[nodiscard]] std::string method() const;
    /// Why the watch polls although --poll was not given; empty otherwise.
    [[nodiscard]] const std::string& reason() const { return reason_; }

    /// The descriptor to wait on for POLLIN (then call collect()), or -1 when polling.
    [[nodiscard]] int fd() const { return notify_fd_; }
    /// How long the caller may wait before calling collect() again; nothing: until fd() is
    /// readable (or a key is pressed).
    [[nodiscard]] std::optional<std::chrono::milliseconds> wait_limit(Clock::time_point now) const;

    /// Reads the notifications waiting on fd() or, when polling and due, looks at the file.
    /// Never blocks. Notes a save; returns true once a noted save has been quiet for kQuiet.
    bool collect(Clock::time_point now);

    /// Takes the file as it is now as checked, and forgets saves noted before. Call just before
    /// a check starts, so that a save during the check counts as a new one.
    void mark_checked();

  private:
    /// What polling compares: a save changes at least one of these.
    struct Signature {
        bool exists = false;
        std::filesystem::file_time_type modified{};
        std::uintmax_t size = 0;
        std::string sha256;

        bool operator==(const Signature&) const = default;
    };

    /// The file's signature now.
    [[nodiscard]] Signature sample() const;
    /// Stops using notifications (the folder went away, or they failed), polling from now on.
    void fall_back_to_polling(std::string reason);
    /// Reads every event waiting on the descriptor; notes a save of the file.
    void read_events(Clock::time_point now);
    /// Polling: looks at the file; notes a save when it differs from the last look.
    void look(Clock::time_point now);

    std::filesystem::path file_;
    std::chrono::milliseconds poll_interval_;
    std::string reason_;
    int notify_fd_ = -1;
    Signature seen_;                              ///< polling: the file at the last look
    Clock::time_point next_look_{};               ///< polling: when to look next
    std::optional<Clock::time_point> last_save_;  ///< the latest save noted, not yet reported
};

}  // namespace torchlings::runner
