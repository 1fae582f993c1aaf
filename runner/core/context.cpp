/// @file
/// @brief The shared command context.
#include "core/context.h"

#include <fstream>
#include <ostream>
#include <system_error>

#include "core/errors.h"
#include "core/hashing.h"
#include "core/process.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

Context::Context(fs::path root, fs::path build_dir, fs::path state_path, Style style,
                 std::ostream& out, std::ostream& err, Language language)
    : root_(std::move(root)),
      build_dir_(std::move(build_dir)),
      state_path_(std::move(state_path)),
      style_(style),
      out_(&out),
      err_(&err),
      language_(language) {}

const Course& Context::course() const {
    if (!course_) {
        course_ = Course::load(root_, language_);
    }
    return *course_;
}

StateFile& Context::state() {
    if (!state_) {
        state_ = StateFile::load(state_path_);
        if (!state_->warning().empty()) {
            *err_ << style_.warn("warning: ") << state_->warning() << "\n";
            save_state();  // rebuilt now, so that the warning is given once
        }
    }
    return *state_;
}

ExerciseStatus Context::status_of(const Exercise& exercise) {
    const ExerciseState recorded = state().get(exercise.id);
    if (recorded.status != ExerciseStatus::kDone) {
        return recorded.status;  // only "done" depends on the file; skip reading it
    }
    return recorded.effective(sha256_file_or_empty(course().learner_file(exercise)));
}

void Context::save_state() {
    try {
        state().save();
    } catch (const EnvironmentError& error) {
        *err_ << style_.warn("warning: ") << error.what() << " (your progress was not recorded)\n";
        if (!error.fix().empty()) {
            *err_ << "fix:   " << error.fix() << "\n";
        }
    }
}

fs::path Context::binary(std::string_view name) const { return build_dir_ / "bin" / name; }

std::string Context::show(const fs::path& path) const { return display_path(path, root_); }

void Context::require_configured_build() const {
    std::error_code error;
    if (!fs::exists(build_dir_ / "CMakeCache.txt", error)) {
        throw EnvironmentError("The build folder " + show(build_dir_) +
                                   " is not set up yet (it has no CMakeCache.txt).",
                               std::string(kCommand) + "   (it configures the build on first use)");
    }
}

std::optional<std::string> Context::cache_value(std::string_view key) const {
    std::ifstream cache(build_dir_ / "CMakeCache.txt");
    for (std::string line; std::getline(cache, line);) {
        // Entries read KEY:TYPE=VALUE.
        const std::size_t colon = line.find(':');
        const std::size_t equals = line.find('=');
        if (colon != std::string::npos && equals != std::string::npos && colon < equals &&
            std::string_view(line).substr(0, colon) == key) {
            return line.substr(equals + 1);
        }
    }
    return std::nullopt;
}

namespace {

/// The tool the cache names when it still exists, else the one on PATH.
fs::path locate_tool(const std::optional<std::string>& from_cache, std::string_view name) {
    std::error_code error;
    if (from_cache && fs::exists(*from_cache, error)) {
        return *from_cache;
    }
    if (auto found = find_program(name)) {
        return *found;
    }
    throw EnvironmentError(std::string(name) + " was not found on PATH.",
                           "python3 -m pip install cmake   (or: sudo apt install cmake)");
}

}  // namespace

fs::path Context::cmake() const { return locate_tool(cache_value("CMAKE_COMMAND"), "cmake"); }

fs::path Context::ctest() const { return locate_tool(cache_value("CMAKE_CTEST_COMMAND"), "ctest"); }

const Exercise& Context::current_exercise() {
    const Course& course = this->course();
    if (course.exercises().empty()) {
        throw EnvironmentError(
            "The course has no exercises (no lesson has an exercises/NN_topic/info.md).");
    }
    const Exercise* current = course.find_exercise(state().current());
    if (current != nullptr && status_of(*current) != ExerciseStatus::kDone) {
        return *current;
    }
    for (const Exercise& exercise : course.exercises()) {
        if (status_of(exercise) != ExerciseStatus::kDone) {
            return exercise;
        }
    }
    return current != nullptr ? *current : course.exercises().back();
}

HashList pristine_stubs(const Context& context) {
    const fs::path file = context.root() / kPristineManifest;
    std::error_code error;
    return fs::exists(file, error) ? read_hash_list(file, "stubs") : HashList{};
}

}  // namespace torchlings::runner
