/// @file
/// @brief Two lists of file hashes that keep a learner's copy honest:
///  - `torchlings-manifest.json` (written by `export --learner`): the SHA-256 of every file of
///    the learner copy except the learners' exercise files, which `check --verify-tests`
///    compares before grading, so that an edited test cannot pass;
///  - `exercises/pristine.json` (kept current by maintainers, verified in CI): the git blob id
///    of every exercise stub, from which `reset` restores a stub out of git's objects even after
///    the learner has committed over it.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tl_runner/context.h"
#include "tl_runner/errors.h"

namespace torchlings::runner {

/// The test manifest's file name, at the root of a learner copy.
inline constexpr std::string_view kTestManifest = "torchlings-manifest.json";
/// The stub manifest, relative to the course root.
inline constexpr std::string_view kPristineManifest = "exercises/pristine.json";

/// Path (relative, with '/') to hash.
using HashList = std::map<std::string, std::string>;

/// Writes a manifest `{"format_version": 1, "<key>": {path: hash}}` atomically enough (one write).
void write_hash_list(const std::filesystem::path& file, std::string_view key,
                     const HashList& hashes);

/// Reads one; throws EnvironmentError saying what is wrong (missing, not JSON, no key).
[[nodiscard]] HashList read_hash_list(const std::filesystem::path& file, std::string_view key);

/// `check --verify-tests`: every file in torchlings-manifest.json must have its hash. Prints
/// the edited and missing files and returns kTestsEdited, or prints one line and returns kOk.
/// Throws EnvironmentError when the course has no manifest (it is not a learner copy).
[[nodiscard]] ExitCode verify_tests(Context& context);

/// The git blob id of each exercise's stub, from exercises/pristine.json; empty when the file
/// is missing.
[[nodiscard]] HashList pristine_stubs(const Context& context);

}  // namespace torchlings::runner
