/// @file
/// @brief The learner's progress: `<root>/.torchlings/state.json`, read leniently and written
/// atomically.
///
/// Format (version 2):
/// `{"format_version":2,"current":"<id>","exercises":{"<id>":{"status":"done",
///   "source_sha256":"<64 hex digits>","hints_revealed":1,"checked_at":"2025-01-31T12:00:00Z"}}}`,
/// where status is one of done, failing, build_error and skipped (every test was skipped, e.g.
/// for want of a GPU), and source_sha256 is the hash of the learner's file when it was checked.
/// "Done" means: the last check passed AND the file still has that hash. `check --all`
/// rebuilds the whole file from real results, so losing it (a fresh Colab runtime) costs
/// nothing but time; a version-1 file keeps its hints and loses its statuses, with a warning.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace torchlings::runner {

/// The outcome of the last check of an exercise.
/// kChanged is never stored: it is a stored kDone whose file has changed since (see effective()).
enum class ExerciseStatus { kNotTried, kDone, kFailing, kBuildError, kSkipped, kChanged };

/// The word stored in the state file ("done", "failing", ...; "not_tried" for kNotTried).
[[nodiscard]] std::string_view status_key(ExerciseStatus status);
/// The status for a stored word; unknown words give kNotTried.
[[nodiscard]] ExerciseStatus parse_status(std::string_view key);
/// The status for people: "done", "failing", "build error", "not tried", "skipped", "changed".
[[nodiscard]] std::string_view status_label(ExerciseStatus status);

/// What the state file records about one exercise.
struct ExerciseState {
    ExerciseStatus status = ExerciseStatus::kNotTried;
    int hints_revealed = 0;
    std::string checked_at;     ///< ISO 8601 time of the last check; empty when never checked
    std::string source_sha256;  ///< hash of the learner's file at the last check; may be empty

    /// The status as it holds now for a file whose hash is `current_sha256`: a stored kDone
    /// becomes kChanged when the hashes differ (or either is unknown); others are as stored.
    [[nodiscard]] ExerciseStatus effective(std::string_view current_sha256) const;
};

/// The whole state file.
class StateFile {
  public:
    /// Reads the file. A missing file is an empty state. A corrupt or unknown-format file (of any
    /// size or nesting depth; a folder too) also gives an empty state: it is moved aside to
    /// `<file>.corrupt` and warning() says so. Never throws.
    static StateFile load(const std::filesystem::path& path);

    /// The state of one exercise (default values when it has none).
    [[nodiscard]] ExerciseState get(std::string_view id) const;
    /// The state of one exercise, for changing it.
    ExerciseState& at(const std::string& id) { return exercises_[id]; }

    /// Records the outcome of a check of a file with this hash, stamped with the current time.
    void record_check(const std::string& id, ExerciseStatus status, std::string source_sha256);
    /// Forgets the outcome of the last check (after a reset); hints revealed are kept.
    void forget_check(const std::string& id);

    /// The exercise `watch` last worked on; empty when none.
    [[nodiscard]] const std::string& current() const { return current_; }
    void set_current(std::string id) { current_ = std::move(id); }

    /// Writes the file atomically (a temporary file renamed over it), under a lock on
    /// `<file>.lock`, merged field by field with what the file holds now: only the fields this
    /// object changed since it was read replace the file's (hints only ever grow). Afterwards
    /// this object holds the merged state. Throws EnvironmentError.
    void save();

    /// Why the file on disk could not be used; empty when it was fine or absent.
    [[nodiscard]] const std::string& warning() const { return warning_; }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    /// The file's JSON text (what save() writes).
    [[nodiscard]] std::string to_json() const;

  private:
    std::filesystem::path path_;
    std::map<std::string, ExerciseState, std::less<>> exercises_;
    std::string current_;
    std::string warning_;
    /// The state as read (or last saved): what save() compares with to know what changed.
    std::map<std::string, ExerciseState, std::less<>> loaded_;
    std::string loaded_current_;
};

}  // namespace torchlings::runner
