/// @file
/// @brief Reading and atomically writing the learner's progress file.
#include "tl_runner/state.h"

#include <unistd.h>
#include <nlohmann/json.hpp>
#include <system_error>

#include "tl_runner/errors.h"
#include "tl_runner/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kStateFormatVersion = 1;

/// Parses the file's text; throws std::runtime_error saying what is wrong with it.
std::map<std::string, ExerciseState, std::less<>> parse_state(const std::string& text) {
    const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) {
        throw std::runtime_error("it is not valid JSON");
    }
    if (!document.is_object() || !document.contains("format_version")) {
        throw std::runtime_error("it has no format_version");
    }
    if (document["format_version"] != kStateFormatVersion) {
        throw std::runtime_error("its format_version is " + document["format_version"].dump() +
                                 ", expected " + std::to_string(kStateFormatVersion));
    }
    std::map<std::string, ExerciseState, std::less<>> exercises;
    const json& entries = document.value("exercises", json::object());
    if (!entries.is_object()) {
        throw std::runtime_error("\"exercises\" is not an object");
    }
    for (const auto& [id, entry] : entries.items()) {
        if (!entry.is_object()) {
            continue;  // one bad entry costs that entry only
        }
        ExerciseState state;
        const json& status = entry.value("status", json());
        if (status.is_string()) {
            state.status = parse_status(status.get<std::string>());
        }
        const json& hints = entry.value("hints_revealed", json());
        if (hints.is_number_integer() && hints.get<int>() > 0) {
            state.hints_revealed = hints.get<int>();
        }
        const json& checked = entry.value("checked_at", json());
        if (checked.is_string()) {
            state.checked_at = checked.get<std::string>();
        }
        exercises.emplace(id, std::move(state));
    }
    return exercises;
}

}  // namespace

std::string_view status_key(ExerciseStatus status) {
    switch (status) {
        case ExerciseStatus::kDone:
            return "done";
        case ExerciseStatus::kFailing:
            return "failing";
        case ExerciseStatus::kBuildError:
            return "build_error";
        case ExerciseStatus::kSkipped:
            return "skipped";
        case ExerciseStatus::kNotTried:
            break;
    }
    return "not_tried";
}

ExerciseStatus parse_status(std::string_view key) {
    for (ExerciseStatus status : {ExerciseStatus::kDone, ExerciseStatus::kFailing,
                                  ExerciseStatus::kBuildError, ExerciseStatus::kSkipped}) {
        if (status_key(status) == key) {
            return status;
        }
    }
    return ExerciseStatus::kNotTried;
}

std::string_view status_label(ExerciseStatus status) {
    switch (status) {
        case ExerciseStatus::kDone:
            return "done";
        case ExerciseStatus::kFailing:
            return "failing";
        case ExerciseStatus::kBuildError:
            return "build error";
        case ExerciseStatus::kSkipped:
            return "skipped";
        case ExerciseStatus::kNotTried:
            break;
    }
    return "not tried";
}

StateFile StateFile::load(const fs::path& path) {
    StateFile state;
    state.path_ = path;
    std::error_code error;
    if (!fs::exists(path, error)) {
        return state;
    }
    try {
        state.exercises_ = parse_state(read_file(path));
    } catch (const std::exception& problem) {
        // Progress is derivable by checking again; a learner's command must never fail over it.
        fs::path aside = path;
        aside += ".corrupt";
        fs::rename(path, aside, error);
        state.warning_ =
            path.string() + " could not be used (" + problem.what() +
            "); starting with a fresh progress record" +
            (error ? std::string(".") : "; the old file is kept as " + aside.string() + ".");
        state.exercises_.clear();
    }
    return state;
}

ExerciseState StateFile::get(std::string_view id) const {
    const auto found = exercises_.find(id);
    return found == exercises_.end() ? ExerciseState{} : found->second;
}

void StateFile::record_check(const std::string& id, ExerciseStatus status) {
    ExerciseState& state = exercises_[id];
    state.status = status;
    state.checked_at = iso_time_now();
}

std::string StateFile::to_json() const {
    json entries = json::object();
    for (const auto& [id, state] : exercises_) {
        json entry = {{"status", std::string(status_key(state.status))},
                      {"hints_revealed", state.hints_revealed}};
        if (!state.checked_at.empty()) {
            entry["checked_at"] = state.checked_at;
        }
        entries[id] = std::move(entry);
    }
    const json document = {{"format_version", kStateFormatVersion}, {"exercises", entries}};
    return document.dump(2) + "\n";
}

void StateFile::save() const {
    // Write a sibling file, then rename it over the old one: a reader (or a crash) sees either
    // the old file or the new one, never half of one.
    fs::path temporary = path_;
    temporary += ".tmp." + std::to_string(::getpid());
    write_file(temporary, to_json());
    std::error_code error;
    fs::rename(temporary, path_, error);
    if (error) {
        const std::string reason = error.message();
        fs::remove(temporary, error);
        throw EnvironmentError("cannot save progress to " + path_.string() + ": " + reason);
    }
}

}  // namespace torchlings::runner
