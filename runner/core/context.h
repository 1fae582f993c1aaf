/// @file
/// @brief What every runner command needs: the course and build folders, the progress file,
/// the output streams and style, and the CMake tools that configured the build.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "core/course.h"
#include "core/hashing.h"
#include "core/language.h"
#include "core/messages.h"
#include "core/state.h"
#include "core/terminal.h"
#include "core/test_seed.h"

namespace torchlings::runner {

/// The name learners type to run the runner; used in the commands the runner suggests.
inline constexpr std::string_view kCommand = "./torchlings";

/// Where things are, and how to talk to the learner. The course and the state file are read
/// on first use, so that commands which need neither (doctor) work without them.
class Context {
  public:
    Context(std::filesystem::path root, std::filesystem::path build_dir,
            std::filesystem::path state_path, Style style, std::ostream& out, std::ostream& err,
            Language language = Language::kEnglish);

    /// The course folder (holds lessons/ and exercises/).
    [[nodiscard]] const std::filesystem::path& root() const { return root_; }
    /// The configured CMake build folder.
    [[nodiscard]] const std::filesystem::path& build_dir() const { return build_dir_; }
    [[nodiscard]] const Style& style() const { return style_; }
    /// The language the learner is spoken to in (the course's titles and hints included).
    [[nodiscard]] Language language() const { return language_; }
    /// A message of messages.h in that language.
    [[nodiscard]] std::string message(Msg id, std::initializer_list<MessageArg> args = {}) const {
        return runner::message(language_, id, args);
    }
    /// Where reports go (stdout).
    [[nodiscard]] std::ostream& out() const { return *out_; }
    /// Where warnings go (stderr).
    [[nodiscard]] std::ostream& err() const { return *err_; }
    /// Sends the reports for people elsewhere (stderr when stdout carries JSON).
    void redirect_out(std::ostream& out) { out_ = &out; }

    /// The seed of this run's hidden inputs, when it grades (core/test_seed.h): every test
    /// program then gets it as TORCHLINGS_TEST_SEED. Nothing otherwise: a test program inherits
    /// the runner's environment as it is.
    [[nodiscard]] const std::optional<TestSeed>& test_seed() const { return test_seed_; }
    void set_test_seed(const TestSeed& seed) { test_seed_ = seed; }
    /// The maintainers' proofs (verify-stub, verify-mistake): every test program gets an empty
    /// TORCHLINGS_TEST_SEED, so the catalogue's recorded signatures hold whatever the runner's
    /// own environment says.
    [[nodiscard]] bool fixed_test_inputs() const { return fixed_test_inputs_; }
    void use_fixed_test_inputs() { fixed_test_inputs_ = true; }
    /// Whether this run's test programs draw inputs: a grading seed, or one the runner's own
    /// environment passes on (a replay: TORCHLINGS_TEST_SEED=N ./torchlings check <id>).
    [[nodiscard]] bool draws_test_inputs() const;

    /// The course metadata; throws EnvironmentError when it cannot be read.
    [[nodiscard]] const Course& course() const;
    /// The progress record; a warning about an unusable file is printed once.
    [[nodiscard]] StateFile& state();
    /// The status of an exercise as it holds now: the recorded one, except that a "done"
    /// exercise whose file has changed since its check is kChanged. Reads the learner's file.
    [[nodiscard]] ExerciseStatus status_of(const Exercise& exercise);
    /// The exercise the learner is on: the one watched last when it is not done, else the first
    /// not done, else (everything done) the one watched last or the last of the course.
    /// `check`, `hint` and `watch` use it when no exercise is named.
    [[nodiscard]] const Exercise& current_exercise();
    /// Saves the progress record; a failure is a warning, never an error.
    void save_state();

    /// `<build>/bin/<name>`.
    [[nodiscard]] std::filesystem::path binary(std::string_view name) const;
    /// A path as the learner should read it (relative to the course root when inside it).
    [[nodiscard]] std::string show(const std::filesystem::path& path) const;

    /// Throws EnvironmentError (with the set-up command) when the build folder is not configured.
    void require_configured_build() const;
    /// A value of `<build>/CMakeCache.txt`, or nothing.
    [[nodiscard]] std::optional<std::string> cache_value(std::string_view key) const;
    /// The cmake that configured the build (else the one on PATH); throws EnvironmentError.
    [[nodiscard]] std::filesystem::path cmake() const;
    /// The ctest next to that cmake (else the one on PATH); throws EnvironmentError.
    [[nodiscard]] std::filesystem::path ctest() const;

  private:
    std::filesystem::path root_;
    std::filesystem::path build_dir_;
    std::filesystem::path state_path_;
    Style style_;
    std::ostream* out_;
    std::ostream* err_;
    Language language_;
    std::optional<TestSeed> test_seed_;
    bool fixed_test_inputs_ = false;
    mutable std::optional<Course> course_;  // read on first use
    std::optional<StateFile> state_;
};

/// The stub manifest, relative to the course root: the git blob id of each exercise's stub, which
/// `reset` restores from and `pristine` keeps current.
inline constexpr std::string_view kPristineManifest = "exercises/pristine.json";

/// The git blob id of each exercise's stub, from the course's kPristineManifest; empty when the
/// file is missing.
[[nodiscard]] HashList pristine_stubs(const Context& context);

}  // namespace torchlings::runner
