/// @file
/// @brief How many assertions each test case runs with the reference solution, and the flag a
/// learner's run gets when a case passes with fewer. A passing case runs every check of its
/// body, whatever the answer; one that runs fewer had its test's code changed while it ran
/// (patched to skip some checks), which no signed report can show otherwise. See runner/README.md,
/// "Which defence stops what".
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/events.h"
#include "core/integrity.h"

namespace torchlings::runner {

/// The record, relative to the course root: exercise id -> case name -> assertions, taken on the
/// fixed inputs (no test seed) on a machine without a GPU, so [gpu] cases are not in it.
/// `verify-solution --record` writes it; `verify-solution` (CTest) proves it current.
inline constexpr std::string_view kAssertionCounts = "tests/exercises/assertion_counts.json";

/// exercise id -> case name -> assertions.
using AssertionCounts = std::map<std::string, std::map<std::string, int>>;

/// Reads the record. Empty when the course has none (an older course); throws EnvironmentError,
/// naming the file and how to restore it, when it is not such a JSON object.
[[nodiscard]] AssertionCounts read_assertion_counts(const std::filesystem::path& file);

/// The record as `verify-solution --record` writes it: sorted, one case a line.
[[nodiscard]] std::string assertion_counts_json(const AssertionCounts& counts);

/// Case name -> assertions, for every case of the run that passed, [gpu] cases left out.
[[nodiscard]] std::map<std::string, int> passed_case_assertions(const TestRun& run);

/// The flag "fewer-assertions" (for the teacher, not refused) when a case of the run passed
/// with fewer assertions than `reference` records for it; nullopt otherwise. More is never
/// flagged: the hidden inputs of a graded run, and a GPU, add assertions.
[[nodiscard]] std::optional<IntegrityFlag> fewer_assertions_flag(
    const TestRun& run, const std::map<std::string, int>& reference);

}  // namespace torchlings::runner
