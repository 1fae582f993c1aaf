/// @file
/// @brief FileWatch: inotify on the file's folder, or polling its signature.
#include "learner/file_watch.h"

#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#if defined(__linux__)
#include <sys/inotify.h>
#include <sys/vfs.h>
#endif

#include "core/hashing.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

#if defined(__linux__)

/// The notifications `watch` needs on the folder: a save in place ends with IN_CLOSE_WRITE, a
/// save by rename with IN_MOVED_TO, a new file with IN_CREATE; the folder itself going away
/// ends the watch (IN_DELETE_SELF, IN_MOVE_SELF, then IN_IGNORED).
constexpr std::uint32_t kNotifyMask =
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

/// Why notifications would miss saves made in this folder, or an empty string. Notifications
/// only report changes made through this machine's kernel: an editor on another machine (a
/// network drive) or on the Windows side of WSL saves without any.
std::string notifications_unreliable(const fs::path& folder) {
    struct statfs info {};
    if (statfs(folder.c_str(), &info) == 0) {
        switch (static_cast<unsigned long>(info.f_type)) {
            case 0x6969UL:  // NFS
                return "the folder is on an NFS drive";
            case 0x517BUL:      // SMB
            case 0xFF534D42UL:  // CIFS
            case 0xFE534D42UL:  // SMB2
                return "the folder is on a Windows (SMB) network drive";
            case 0x01021997UL:  // 9P: WSL 2's Windows drives
                return "the folder is on a 9P drive (a Windows drive under WSL)";
            default:
                break;
        }
    }
    // WSL 1 mounts Windows drives as drvfs at /mnt/<letter>/.
    const std::string path = folder.string();
    const bool windows_drive = path.size() >= 6 && path.compare(0, 5, "/mnt/") == 0 &&
                               path[5] >= 'a' && path[5] <= 'z' &&
                               (path.size() == 6 || path[6] == '/');
    if (windows_drive) {
        std::ifstream version("/proc/version");
        std::string text;
        std::getline(version, text);
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (text.find("microsoft") != std::string::npos) {
            return "the folder is on a Windows drive under WSL";
        }
    }
    return {};
}

#endif

}  // namespace

FileWatch::FileWatch(fs::path file, bool force_poll, std::chrono::milliseconds poll_interval)
    : file_(std::move(file)),
      poll_interval_(std::max(poll_interval, std::chrono::milliseconds(20))) {
    seen_ = sample();
    if (force_poll) {
        return;
    }
#if defined(__linux__)
    const fs::path folder = file_.parent_path().empty() ? fs::path(".") : file_.parent_path();
    if (std::string why = notifications_unreliable(folder); !why.empty()) {
        reason_ = std::move(why);
        return;
    }
    notify_fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (notify_fd_ < 0) {
        reason_ = std::string("file notifications are unavailable: ") + std::strerror(errno);
    } else if (inotify_add_watch(notify_fd_, folder.c_str(), kNotifyMask) < 0) {
        fall_back_to_polling("cannot watch " + folder.string() + ": " + std::strerror(errno));
    }
#else
    reason_ = "file notifications are not supported on this system";
#endif
}

FileWatch::~FileWatch() {
    if (notify_fd_ >= 0) {
        ::close(notify_fd_);
    }
}

std::string FileWatch::method() const {
    return notifying() ? "file notifications (inotify)"
                       : "polling every " + std::to_string(poll_interval_.count()) + " ms";
}

std::optional<std::chrono::milliseconds> FileWatch::wait_limit(Clock::time_point now) const {
    using std::chrono::milliseconds;
    if (!last_save_ && notifying()) {
        return std::nullopt;
    }
    Clock::time_point wake = last_save_ ? *last_save_ + kQuiet : next_look_;
    if (!notifying()) {
        wake = std::min(wake, next_look_);  // polling: the next look, or the quiet time's end
    }
    // Rounded up, so that the caller does not wake a fraction of a millisecond too early.
    const auto left = std::chrono::ceil<milliseconds>(wake - now);
    return std::max(left, milliseconds(0));
}

bool FileWatch::collect(Clock::time_point now) {
    bool looked = false;
    if (notifying()) {
        read_events(now);
    } else if (now >= next_look_) {
        look(now);
        looked = true;
    }
    if (!last_save_ || now - *last_save_ < kQuiet) {
        return false;
    }
    // Polling sees a save only at its looks: look once more, so that the file is known to
    // have stayed the same for the whole quiet time.
    if (!notifying() && !looked) {
        look(now);
        if (*last_save_ == now) {
            return false;  // saved again: wait for another quiet time
        }
    }
    last_save_.reset();
    return true;
}

void FileWatch::mark_checked() {
    if (notifying()) {
        read_events(Clock::now());  // saves until now are part of the check
    }
    seen_ = sample();
    last_save_.reset();
}

FileWatch::Signature FileWatch::sample() const {
    Signature signature;
    std::error_code error;
    signature.exists = fs::is_regular_file(file_, error);
    if (!signature.exists) {
        return signature;
    }
    signature.modified = fs::last_write_time(file_, error);
    signature.size = fs::file_size(file_, error);
    // The hash catches a save within the file system's time resolution that keeps the size.
    signature.sha256 = sha256_file_or_empty(file_);
    return signature;
}

void FileWatch::fall_back_to_polling(std::string reason) {
    if (notify_fd_ >= 0) {
        ::close(notify_fd_);
        notify_fd_ = -1;
    }
    reason_ = std::move(reason);
    next_look_ = Clock::now();
}

void FileWatch::look(Clock::time_point now) {
    next_look_ = now + poll_interval_;
    Signature current = sample();
    if (current != seen_) {
        seen_ = std::move(current);
        last_save_ = now;
    }
}

void FileWatch::read_events(Clock::time_point now) {
#if defined(__linux__)
    alignas(inotify_event) char buffer[16 * 1024];
    const std::string name = file_.filename().string();
    while (notify_fd_ >= 0) {
        const ssize_t count = ::read(notify_fd_, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            return;  // EAGAIN: nothing more waiting
        }
        bool folder_gone = false;
        for (ssize_t offset = 0; offset < count;) {
            const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
            offset += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            if ((event->mask & IN_Q_OVERFLOW) != 0) {
                last_save_ = now;  // events were lost: the file may have been saved
            } else if ((event->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) != 0) {
                folder_gone = true;
            } else if (event->len > 0 && name == event->name) {
                last_save_ = now;
            }
        }
        if (folder_gone) {
            // The notifications of the folder are gone with it; polling notices a new one.
            fall_back_to_polling("the folder of the file was removed or renamed");
            last_save_ = now;
        }
    }
#else
    (void)now;
#endif
}

}  // namespace torchlings::runner
