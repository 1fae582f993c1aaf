/// @file
/// @brief `torchlings-manifest.json`, written by `export --learner`: the SHA-256 of every file of
/// the learner copy except the learners' exercise files, which `check --verify-tests` compares
/// before grading, so that an edited test cannot pass.
#pragma once

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
/// `check --verify-tests`: every file in torchlings-manifest.json must have its hash. Prints
/// the edited and missing files and returns kTestsEdited, or prints one line and returns kOk.
/// Throws EnvironmentError when the course has no manifest (it is not a learner copy).
[[nodiscard]] ExitCode verify_tests(Context& context);

}  // namespace torchlings::runner
