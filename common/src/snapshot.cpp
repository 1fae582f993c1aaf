/// @file snapshot.cpp
/// @brief Snapshot files: header line, temporary file and rename, the folder's lock.
///
/// A snapshot file is one header line, `torchlings-snapshot 1 <step> <bytes> <fnv1a-hex>`, then
/// the payload. The length catches a truncated file, the checksum a damaged one; both are cheap
/// next to the write itself.
#include "torchlings/snapshot.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <system_error>
#include <vector>

namespace torchlings::snap {
namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "torchlings-snapshot";
constexpr int kFormat = 1;
constexpr const char* kPrefix = "snapshot-";
constexpr const char* kSuffix = ".tls";
constexpr const char* kTempMark = ".tmp-";

std::string errno_text() { return std::strerror(errno); }

std::string host_name() {
    char name[256] = {};
    if (::gethostname(name, sizeof(name) - 1) != 0) {
        return "?";
    }
    return name;
}

/// The step in a snapshot's file name, or -1 when the name is not a snapshot's.
std::int64_t step_of(const fs::path& file) {
    const std::string name = file.filename().string();
    const std::string prefix = kPrefix;
    const std::string suffix = kSuffix;
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return -1;
    }
    const std::string digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(),
                                       [](unsigned char c) { return std::isdigit(c) != 0; })) {
        return -1;
    }
    return std::stoll(digits);
}

/// The steps of the snapshot files in `folder`, newest first.
std::vector<std::int64_t> steps_in(const fs::path& folder) {
    std::vector<std::int64_t> steps;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        if (const auto s = step_of(entry.path()); s >= 0) {
            steps.push_back(s);
        }
    }
    std::sort(steps.rbegin(), steps.rend());
    return steps;
}

fs::path file_for(const fs::path& folder, std::int64_t step) {
    std::ostringstream name;
    name << kPrefix << std::setw(8) << std::setfill('0') << step << kSuffix;
    return folder / name.str();
}

/// Writes all of `bytes` to `fd`, or throws naming `what`.
void write_all(int fd, const std::string& bytes, const fs::path& what) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            throw SnapshotError("cannot write snapshot file " + what.string() + ": " +
                                errno_text());
        }
        done += static_cast<std::size_t>(n);
    }
}

void sync_folder(const fs::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);  // makes the rename itself durable
        ::close(fd);
    }
}

/// Reads `file` whole and checks its header; the reason it is refused otherwise.
std::optional<std::string> read_checked(const fs::path& file, std::int64_t step,
                                        std::string* payload) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return "cannot be opened (" + errno_text() + ")";
    }
    std::string header;
    if (!std::getline(in, header)) {
        return "is empty";
    }
    std::istringstream fields(header);
    std::string magic;
    int format = 0;
    std::int64_t header_step = -1;
    std::uint64_t length = 0;
    std::string sum;
    if (!(fields >> magic >> format >> header_step >> length >> sum) || magic != kMagic) {
        return "is not a torchlings snapshot (its first line is not \"" + std::string(kMagic) +
               " ...\")";
    }
    if (format != kFormat) {
        return "has format " + std::to_string(format) + ", this program reads format " +
               std::to_string(kFormat);
    }
    if (header_step != step) {
        return "says step " + std::to_string(header_step) + " but is named for step " +
               std::to_string(step);
    }
    payload->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (payload->size() != length) {
        return "is truncated (" + std::to_string(payload->size()) + " of " +
               std::to_string(length) + " bytes)";
    }
    std::ostringstream expected;
    expected << std::hex << std::setw(16) << std::setfill('0') << checksum(*payload);
    if (expected.str() != sum) {
        return "is damaged (checksum " + expected.str() + ", header says " + sum + ")";
    }
    return std::nullopt;
}

}  // namespace

std::uint64_t checksum(const std::string& bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

SnapshotFolder::SnapshotFolder(std::filesystem::path path, bool writer)
    : path_(std::move(path)), writer_(writer) {
    const std::string fix = "; give --snapshot-dir a folder this job can write";
    if (!writer_) {
        return;
    }
    std::error_code error;
    fs::create_directories(path_, error);
    if (error || !fs::is_directory(path_)) {
        throw SnapshotError("snapshot folder " + path_.string() + " cannot be created (" +
                            (error ? error.message() : "a file of that name exists") + ")" + fix);
    }
    // A file actually written proves more than permission bits (root ignores them, a read-only
    // mount does not).
    const fs::path probe = path_ / (".probe-" + std::to_string(::getpid()));
    const int probe_fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (probe_fd < 0 || ::write(probe_fd, "ok\n", 3) != 3 || ::fsync(probe_fd) != 0) {
        const std::string why = errno_text();
        if (probe_fd >= 0) {
            ::close(probe_fd);
        }
        fs::remove(probe, error);
        throw SnapshotError("snapshot folder " + path_.string() + " cannot be written (" + why +
                            ")" + fix);
    }
    ::close(probe_fd);
    fs::remove(probe, error);

    const fs::path lock = path_ / "lock";
    lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0) {
        throw SnapshotError("snapshot folder " + path_.string() + ": cannot open its lock file (" +
                            errno_text() + ")" + fix);
    }
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
        std::string holder;
        std::ifstream in(lock);
        std::getline(in, holder);
        ::close(lock_fd_);
        lock_fd_ = -1;
        throw SnapshotError("snapshot folder " + path_.string() + " is in use by another job (" +
                            (holder.empty() ? std::string("its lock is held") : holder) +
                            "): two jobs writing one folder would resume from each other's "
                            "snapshots; give this job a folder of its own");
    }
    const std::string owner = "pid " + std::to_string(::getpid()) + " on " + host_name() + "\n";
    if (::ftruncate(lock_fd_, 0) == 0) {
        write_all(lock_fd_, owner, lock);
    }
    // A writer killed mid-write leaves its temporary file: never a snapshot, so it goes.
    for (const auto& entry : fs::directory_iterator(path_, error)) {
        if (entry.path().filename().string().find(kTempMark) != std::string::npos) {
            fs::remove(entry.path(), error);
        }
    }
}

SnapshotFolder::~SnapshotFolder() {
    if (lock_fd_ >= 0) {
        ::close(lock_fd_);  // releases the flock
    }
}

std::filesystem::path SnapshotFolder::write(std::int64_t step, const std::string& payload,
                                            int keep) const {
    if (!writer_) {
        throw SnapshotError("snapshot folder " + path_.string() +
                            " was opened for reading: only its writer (rank 0) writes snapshots");
    }
    const fs::path final_path = file_for(path_, step);
    const fs::path temp = final_path.string() + kTempMark + std::to_string(::getpid());
    std::ostringstream header;
    header << kMagic << ' ' << kFormat << ' ' << step << ' ' << payload.size() << ' ' << std::hex
           << std::setw(16) << std::setfill('0') << checksum(payload) << '\n';
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw SnapshotError("cannot create snapshot file " + temp.string() + ": " + errno_text());
    }
    try {
        write_all(fd, header.str(), temp);
        write_all(fd, payload, temp);
        if (::fsync(fd) != 0) {
            throw SnapshotError("cannot flush snapshot file " + temp.string() + ": " +
                                errno_text());
        }
    } catch (...) {
        ::close(fd);
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw;
    }
    ::close(fd);
    if (::rename(temp.c_str(), final_path.c_str()) != 0) {
        throw SnapshotError("cannot rename " + temp.string() + " to " + final_path.string() + ": " +
                            errno_text());
    }
    sync_folder(path_);

    std::error_code error;
    const std::vector<std::int64_t> steps = steps_in(path_);
    for (std::size_t i = static_cast<std::size_t>(std::max(keep, 2)); i < steps.size(); ++i) {
        fs::remove(file_for(path_, steps[i]), error);
    }
    return final_path;
}

std::optional<Found> SnapshotFolder::newest(
    const std::function<void(const std::string&)>& refused) const {
    const std::vector<std::int64_t> steps = steps_in(path_);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        Found found;
        found.step = steps[i];
        found.path = file_for(path_, steps[i]);
        if (const auto why = read_checked(found.path, found.step, &found.payload)) {
            if (refused) {
                refused("snapshot " + found.path.string() + " refused: it " + *why + "; " +
                        (i + 1 < steps.size()
                             ? "using " + file_for(path_, steps[i + 1]).filename().string()
                             : std::string("no older snapshot, starting from step 0")));
            }
            continue;
        }
        return found;
    }
    return std::nullopt;
}

}  // namespace torchlings::snap
