/// @file snapshot.h
/// @brief A job's snapshots on disk: written whole or not at all, found again after a restart.
///
/// A long job that loses a rank is restarted by its launcher (torchrun --max-restarts), and every
/// process starts again from main(). What survives is what was written to disk: the snapshot.
/// This header is the file side of it, and knows nothing of models: a snapshot is a payload of
/// bytes (a serialized torch archive, say) tagged with the step it was taken after.
///
/// - write() puts the payload in a temporary file, flushes it to the disk and renames it over
///   its final name: a reader sees the previous snapshot or the new one, never half of one.
/// - newest() returns the newest snapshot whose length and checksum are right; a truncated or
///   corrupted one is refused in one line and the one before it is used.
/// - The writer holds the folder's lock (flock on `lock`) for its lifetime: a second job pointed
///   at the same folder is refused before it trains. The operating system releases the lock
///   when the process dies, SIGKILL included, so a restarted job takes it again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace torchlings::snap {

/// A snapshot folder that cannot be used, a snapshot that does not fit the job: the message says
/// which folder or file, what was found and what to do.
class SnapshotError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// One snapshot read back whole.
struct Found {
    std::int64_t step = 0;       ///< the step it was taken after (the steps done)
    std::filesystem::path path;  ///< its file
    std::string payload;         ///< its bytes, length and checksum verified
};

/// The folder of one job's snapshots: `snapshot-<step>.tls` files and the `lock` file.
class SnapshotFolder {
  public:
    /// Opens `path` for reading; as the `writer` (rank 0), also creates it when absent, proves
    /// that a file can be written there, removes temporary files a killed writer left, and takes
    /// the folder's lock.
    /// @throws SnapshotError when the folder cannot be created or written, or another live
    ///         process holds its lock (another job; the message names its process id and host).
    SnapshotFolder(std::filesystem::path path, bool writer);
    ~SnapshotFolder();
    SnapshotFolder(const SnapshotFolder&) = delete;
    SnapshotFolder& operator=(const SnapshotFolder&) = delete;
    SnapshotFolder(SnapshotFolder&&) = delete;
    SnapshotFolder& operator=(SnapshotFolder&&) = delete;

    /// Writes `payload` as the snapshot after `step`: temporary file, fsync, rename, fsync of
    /// the folder; then deletes all but the newest `keep` snapshots (keep >= 2, so that a
    /// snapshot found corrupt later has a predecessor).
    /// @returns the snapshot's file.
    /// @throws SnapshotError when not opened as the writer, or on a failed write (disk full).
    std::filesystem::path write(std::int64_t step, const std::string& payload, int keep = 2) const;

    /// The newest snapshot that reads back whole, or std::nullopt when there is none. Each one
    /// refused on the way (truncated, wrong checksum, not a snapshot) is passed to `refused` as one
    /// line naming the file, the reason, and the snapshot used instead.
    [[nodiscard]] std::optional<Found> newest(
        const std::function<void(const std::string&)>& refused) const;

    /// The folder.
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
    bool writer_ = false;
    int lock_fd_ = -1;
};

/// FNV-1a, 64 bits, of `bytes`: the checksum in each snapshot's header line.
[[nodiscard]] std::uint64_t checksum(const std::string& bytes);

}  // namespace torchlings::snap
