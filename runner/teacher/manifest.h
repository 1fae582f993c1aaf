/// @file
/// @brief `torchlings-manifest.json`, written by `export --learner`: the SHA-256 of every file of
/// the learner copy except the learners' exercise files, which `check --verify-tests` compares
/// before grading, so that an edited test cannot pass.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/errors.h"

namespace torchlings::runner {

/// The test manifest's file name, at the root of a learner copy.
inline constexpr std::string_view kTestManifest = "torchlings-manifest.json";
/// The folder of a learner copy that holds what each platform grades with (export_command.cpp):
/// not in the manifest, since its files carry the manifest's digest, and never compiled (no
/// include path or glob of the build reaches it), so `check --verify-tests` passes over it.
inline constexpr std::string_view kGradersFolder = "graders";
/// The learners' exercise files, relative to the course root with '/'.
[[nodiscard]] std::vector<std::string> learner_files(const Context& context);
/// Gradescope unpacks the whole autograder zip into /autograder/source, so its own two scripts sit
/// at the root of the course there: `check --verify-tests` accepts them by these names, at the root
/// only (the build runs neither; they carry the manifest's digest, so they cannot be listed in it).
inline constexpr std::array<std::string_view, 2> kPlatformRootFiles = {"setup.sh",
                                                                       "run_autograder"};

/// What `check --verify-tests` found: kOk, or kTestsEdited with one line per edited, missing or
/// unexpected file (for the student's report as well as the log).
struct Verification {
    ExitCode code = ExitCode::kOk;
    std::vector<std::string> problems;
};

/// Whether a file the manifest does not list can be passed over with a note: its kind (text,
/// pictures, documents, archives) is one no compiler, include search or CMake glob of the course
/// takes in. Source files, headers (also those without an extension) and CMake files cannot.
[[nodiscard]] bool is_inert_file(const std::filesystem::path& relative);

/// `check --verify-tests`: every file in torchlings-manifest.json must have its hash, and no file
/// the manifest does not list may lie where the build could take it in. Prints the edited, missing
/// and unexpected files (and a note for each inert one passed over); or one line when all match.
/// Throws EnvironmentError when the course has no manifest (it is not a learner copy).
[[nodiscard]] Verification verify_tests(Context& context);

}  // namespace torchlings::runner
