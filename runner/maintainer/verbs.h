/// @file
/// @brief The maintainers' verbs: verify-stub, verify-mistake (CI), mistakes, pristine, dev.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/errors.h"
#include "core/exercise_run.h"
#include "learner/verbs.h"

namespace torchlings::runner {

/// What is wrong with a run of an untouched stub, one sentence each; empty when the stub fails
/// as it must: every case fails by assertion, exception or TODO. Skipped cases (e.g. GPU cases on
/// a machine without one) are not problems; they are not verified.
[[nodiscard]] std::vector<std::string> stub_problems(const TestProgramRun& run);

/// `verify-stub` (CI): the untouched stub's already-built test program must fail every case
/// but the given ones, by assertion or exception. kOk when it does, kTestsFailed otherwise.
ExitCode verify_stub_command(Context& context, const CheckOptions& options);

/// What is wrong with a run of the reference solution, one sentence each; empty when every case
/// passes and runs the assertions `recorded` counts for it (more are allowed only where a [gpu]
/// case ran: a GPU adds assertions to some cases).
[[nodiscard]] std::vector<std::string> solution_problems(
    const TestProgramRun& run, const std::map<std::string, int>& recorded);

/// `verify-solution [--record] ID|NN [--all]` (CI): each reference solution's already-built test
/// program, `ex_<id>_solution`, must pass every case with the assertions that
/// tests/exercises/assertion_counts.json records (solution_problems()). With `record`
/// (maintainers), the counts observed are written into that file instead.
ExitCode verify_solution_command(Context& context, const CheckOptions& options, bool record);

/// `verify-mistake [--record] ID SLUG` (CI): the already-built test program of one catalogued
/// mistake, `ex_<id>_mistake_<slug>`, must fail by assertion or exception (see judge_mistake()),
/// and its signature (the failed cases, and how) must be the one its `caught by:` line records.
/// kOk when both hold, or when only a [gpu] case can catch it and none ran here (then the output
/// says "TL_SKIP:", which CTest reports as skipped); kTestsFailed otherwise, printing the
/// signature line to paste. With `record` (maintainers), a caught mistake's signature line is
/// written into the catalogue instead (the file saved first under <build>/logs/mistakes/).
ExitCode verify_mistake_command(Context& context, const std::string& id, const std::string& slug,
                                bool record);

/// `mistakes` (maintainers): the catalogue of mistakes by lesson and exercise, with its counts
/// (catalogued, caught on the CPU, only with a GPU) and the exercises that have none.
ExitCode mistakes_command(Context& context);

/// `pristine [--write]` (maintainers, CI): exercises/pristine.json lists the git blob id of every
/// stub, which `reset` restores from; verifies that it is current, or rewrites it.
ExitCode pristine_command(Context& context, bool write);

/// Options of `dev`.
struct DevOptions {
    std::string action;             ///< "new", "check" or "index"
    std::vector<std::string> args;  ///< new: the lesson and the id
    bool check = false;             ///< index --check: say what is stale, write nothing
};

/// `dev new <lesson> <id>`: scaffolds an exercise (its API header, a stub with TODOs that fails,
/// a solution that passes, a test, a catalogue of mistakes with one example that the test catches,
/// its info.md and info.ko.md entries, its rows in the lesson's exercise tables and its
/// pristine.json entry; then the course index, as `dev index` writes it), refusing to overwrite any
/// file. `dev check`: the course's checks that need no build (layout, the index, text,
/// translations, the stubs' Given code, pristine.json). `dev index [--check]`: writes the course
/// index and the lesson READMEs' exercise tables (maintainer/course_index.h) where they are stale;
/// with --check writes nothing and fails (kTestsFailed) naming each stale file.
ExitCode dev_command(Context& context, const DevOptions& options);

/// The line of a stub after which the code is given, the same as in the solution, to the end of
/// the file (the kernels and launches of lesson 09): a line that starts with it.
inline constexpr std::string_view kGivenMarker = "// Given:";

/// What is wrong with the Given code of exercise `id`: the lines of `stub_text` after its
/// kGivenMarker line (blank lines right after it left out), to the end of the file, must be the
/// last lines of `solution_text`, from the line after the solution's own kGivenMarker line, or,
/// without one, from the first line equal to the Given code's first. Nothing when they are, or
/// when the stub has no Given code; otherwise one message naming the exercise, both files (as
/// `stub_name` and `solution_name`) and the first line that differs in each.
[[nodiscard]] std::optional<std::string> given_code_problem(const std::string& id,
                                                            std::string_view stub_text,
                                                            std::string_view solution_text,
                                                            const std::string& stub_name,
                                                            const std::string& solution_name);

}  // namespace torchlings::runner
