/// @file
/// @brief Reading and atomically writing the learner's progress file.
#include "core/state.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kStateFormatVersion = 2;

/// A progress file is a few kilobytes; one far larger, or nested deeper than its format ever is,
/// is not one (and parsing it could exhaust the stack or the memory).
constexpr std::uintmax_t kMaxStateBytes = 16U << 20U;
constexpr int kMaxStateDepth = 16;

/// More hints than any exercise has; a larger count in the file is taken as this.
constexpr int kMaxHints = 1000;

/// How deeply the JSON text nests arrays and objects (strings skipped).
int nesting_depth(const std::string& text) {
    int depth = 0;
    int deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > kMaxStateDepth) {
                return deepest;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

/// The stored word and the word for people of each status, in the enum's order.
struct StatusNames {
    ExerciseStatus status;
    std::string_view key;
    std::string_view label;
};
constexpr std::array<StatusNames, 6> kStatusNames{{
    {ExerciseStatus::kNotTried, "not_tried", "not tried"},
    {ExerciseStatus::kDone, "done", "done"},
    {ExerciseStatus::kFailing, "failing", "failing"},
    {ExerciseStatus::kBuildError, "build_error", "build error"},
    {ExerciseStatus::kSkipped, "skipped", "skipped"},
    {ExerciseStatus::kChanged, "changed", "changed"},
}};
static_assert(kStatusNames[static_cast<std::size_t>(ExerciseStatus::kChanged)].status ==
                  ExerciseStatus::kChanged,
              "kStatusNames follows the order of ExerciseStatus");

/// What a state file holds, as read.
struct Parsed {
    std::map<std::string, ExerciseState, std::less<>> exercises;
    std::string current;
    std::string warning;  ///< about an old format, whose statuses were dropped
};

/// The value of a string field, or "" when it is missing or not a string.
std::string state_string_field(const nlohmann::json& object, const char* key) {
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

/// Parses the file's text; throws std::runtime_error saying what is wrong with it.
Parsed parse_state(const std::string& text) {
    if (nesting_depth(text) > kMaxStateDepth) {
        throw std::runtime_error("it nests more than " + std::to_string(kMaxStateDepth) +
                                 " levels deep, which no progress file does");
    }
    const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) {
        throw std::runtime_error("it is not valid JSON");
    }
    if (!document.is_object() || !document.contains("format_version")) {
        throw std::runtime_error("it has no format_version");
    }
    Parsed parsed;
    // Version 1 recorded no file hashes, so its "done" cannot be trusted: keep the hints only.
    const bool old_format = document["format_version"] == 1;
    if (!old_format && document["format_version"] != kStateFormatVersion) {
        throw std::runtime_error("its format_version is " + document["format_version"].dump() +
                                 ", expected " + std::to_string(kStateFormatVersion));
    }
    if (old_format) {
        parsed.warning =
            "it is in the format of an older torchlings (version 1, without file hashes); your "
            "hints are kept and the statuses rebuilt as you check (all at once: " +
            std::string("./torchlings check --all)");
    }
    parsed.current = state_string_field(document, "current");
    const json& entries = document.value("exercises", json::object());
    if (!entries.is_object()) {
        throw std::runtime_error("\"exercises\" is not an object");
    }
    for (const auto& [id, entry] : entries.items()) {
        if (!entry.is_object()) {
            continue;  // one bad entry costs that entry only
        }
        ExerciseState state;
        // As a double: a count too large for any integer type, or written with a fraction, too.
        const json& hints = entry.value("hints_revealed", json());
        if (hints.is_number() && hints.get<double>() >= 1.0) {
            state.hints_revealed =
                static_cast<int>(std::min(hints.get<double>(), static_cast<double>(kMaxHints)));
        }
        if (!old_format) {
            state.status = parse_status(state_string_field(entry, "status"));
            state.checked_at = state_string_field(entry, "checked_at");
            state.source_sha256 = state_string_field(entry, "source_sha256");
        }
        parsed.exercises.emplace(id, std::move(state));
    }
    return parsed;
}

/// Reads and parses the file; throws std::runtime_error saying what is wrong with it.
Parsed read_state(const fs::path& path) {
    std::error_code error;
    const std::uintmax_t size = fs::file_size(path, error);
    if (error) {
        throw std::runtime_error(fs::is_directory(path) ? "it is a folder"
                                                        : "it cannot be read: " + error.message());
    }
    if (size > kMaxStateBytes) {
        throw std::runtime_error("it is " + std::to_string(size >> 20U) +
                                 " MiB, far more than a progress file ever holds");
    }
    return parse_state(read_file(path));
}

/// An exclusive lock on `<state>.lock` for its lifetime (flock: released if the process dies).
class StateLock {
  public:
    explicit StateLock(const fs::path& state) {
        const fs::path path = state.string() + ".lock";
        fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) {
            const int number = errno;
            const std::string folder = state.parent_path().string();
            throw EnvironmentError(
                "cannot save progress to " + state.string() + ": cannot create " + path.string() +
                    ": " + std::strerror(number),
                number == ENOTDIR ? "a file is in the way of the folder " + folder +
                                        ": move it (mv " + folder + " " + folder + ".old)"
                : number == ENOSPC ? "free some disk space (df -h " + folder + ")"
                                   : "make the folder writable: chmod u+w " + folder);
        }
        while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
        }
    }
    ~StateLock() { ::close(fd_); }  // closing releases the lock
    StateLock(const StateLock&) = delete;
    StateLock& operator=(const StateLock&) = delete;

  private:
    int fd_ = -1;
};

}  // namespace

std::string_view status_key(ExerciseStatus status) {
    return kStatusNames[static_cast<std::size_t>(status)].key;
}

ExerciseStatus parse_status(std::string_view key) {
    for (const StatusNames& names : kStatusNames) {
        // kChanged is derived, never stored: a file that says "changed" is not trusted.
        if (names.key == key && names.status != ExerciseStatus::kChanged) {
            return names.status;
        }
    }
    return ExerciseStatus::kNotTried;
}

std::string_view status_label(ExerciseStatus status) {
    return kStatusNames[static_cast<std::size_t>(status)].label;
}

StateFile StateFile::load(const fs::path& path) {
    StateFile state;
    state.path_ = path;
    std::error_code error;
    if (!fs::exists(path, error) && !fs::is_symlink(path, error)) {
        return state;
    }
    try {
        Parsed parsed = read_state(path);
        state.exercises_ = std::move(parsed.exercises);
        state.current_ = std::move(parsed.current);
        if (!parsed.warning.empty()) {
            state.warning_ = path.string() + " was rebuilt: " + parsed.warning;
        }
    } catch (const std::exception& problem) {
        // Progress is derivable by checking again; a learner's command must never fail over it.
        // Kept beside it under a name no earlier copy has (.corrupt, then .corrupt.1, ...): a
        // second corruption never overwrites the first one's copy.
        fs::path aside = path.string() + ".corrupt";
        for (int n = 1; fs::exists(aside, error) || fs::is_symlink(aside, error); ++n) {
            aside = path.string() + ".corrupt." + std::to_string(n);
        }
        fs::rename(path, aside, error);
        state.warning_ =
            path.string() + " could not be used (" + problem.what() +
            "); starting with a fresh progress record" +
            (error ? std::string(".") : "; the old file is kept as " + aside.string() + ".");
        state.exercises_.clear();
    }
    state.loaded_ = state.exercises_;
    state.loaded_current_ = state.current_;
    return state;
}

ExerciseState StateFile::get(std::string_view id) const {
    const auto found = exercises_.find(id);
    return found == exercises_.end() ? ExerciseState{} : found->second;
}

ExerciseStatus ExerciseState::effective(std::string_view current_sha256) const {
    if (status == ExerciseStatus::kDone &&
        (source_sha256.empty() || current_sha256 != source_sha256)) {
        return ExerciseStatus::kChanged;
    }
    return status;
}

void StateFile::record_check(const std::string& id, ExerciseStatus status,
                             std::string source_sha256) {
    ExerciseState& state = exercises_[id];
    state.status = status;
    state.checked_at = iso_time_now();
    state.source_sha256 = std::move(source_sha256);
}

void StateFile::forget_check(const std::string& id) {
    const auto found = exercises_.find(id);
    if (found != exercises_.end()) {
        found->second.status = ExerciseStatus::kNotTried;
        found->second.checked_at.clear();
        found->second.source_sha256.clear();
    }
}

std::string StateFile::to_json() const {
    json entries = json::object();
    for (const auto& [id, state] : exercises_) {
        json entry = {{"status", std::string(status_key(state.status))},
                      {"hints_revealed", state.hints_revealed}};
        if (!state.checked_at.empty()) {
            entry["checked_at"] = state.checked_at;
        }
        if (!state.source_sha256.empty()) {
            entry["source_sha256"] = state.source_sha256;
        }
        entries[id] = std::move(entry);
    }
    json document = {{"format_version", kStateFormatVersion}, {"exercises", entries}};
    if (!current_.empty()) {
        document["current"] = current_;
    }
    return document.dump(2) + "\n";
}

void StateFile::save() {
    std::error_code error;
    if (path_.has_parent_path()) {
        fs::create_directories(path_.parent_path(), error);
    }
    // Read-modify-write under a lock, field by field: what this process changed since it read
    // the file goes onto what the file holds now, so that a `hint` given during a long `check`
    // is kept when the check records its result (and the other way round).
    const StateLock lock(path_);
    std::map<std::string, ExerciseState, std::less<>> merged;
    std::string current;
    try {
        if (fs::exists(path_, error)) {
            Parsed on_disk = read_state(path_);
            merged = std::move(on_disk.exercises);
            current = std::move(on_disk.current);
        }
    } catch (const std::exception&) {
        merged.clear();  // unreadable now: what this process holds replaces it
        current.clear();
    }
    for (const auto& [id, mine] : exercises_) {
        const auto before = loaded_.find(id);
        const ExerciseState original = before == loaded_.end() ? ExerciseState{} : before->second;
        ExerciseState& target = merged[id];
        if (mine.status != original.status || mine.checked_at != original.checked_at ||
            mine.source_sha256 != original.source_sha256) {
            target.status = mine.status;
            target.checked_at = mine.checked_at;
            target.source_sha256 = mine.source_sha256;
        }
        if (mine.hints_revealed != original.hints_revealed) {
            target.hints_revealed = std::max(target.hints_revealed, mine.hints_revealed);
        }
    }
    if (current_ != loaded_current_) {
        current = current_;
    }
    exercises_ = std::move(merged);
    current_ = std::move(current);

    // Written whole beside it, then renamed over it (replace_file): a reader (or a crash) sees
    // the old file or the new one, and a link planted at the path is replaced, not followed.
    try {
        replace_file(path_, to_json());
    } catch (const EnvironmentError& failure) {
        throw EnvironmentError("cannot save progress to " + path_.string() + ": " + failure.what());
    }
    loaded_ = exercises_;
    loaded_current_ = current_;
}

}  // namespace torchlings::runner
