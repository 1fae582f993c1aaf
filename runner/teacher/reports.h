/// @file
/// @brief Machine-readable results of `check`, for tools and teachers rather than learners:
/// the Exercism test-runner interface (version 3), JUnit XML, Classroom 50's result.json and
/// Gradescope's results.json. Each is written from the exercises' descriptions (describe_all() in
/// report_model.h), made once however many formats are asked for.
///
/// Skipped test cases (for example those that need a GPU, on a machine without one) are never
/// reported as passed: the Exercism and Classroom shapes have no "skipped" status, so they are
/// left out of `tests` and listed under `torchlings_skipped` with their reason, and they carry
/// no score. JUnit has a `<skipped/>` element and uses it.
///
/// `test_seed`: the seed that the run's hidden inputs were drawn from (core/test_seed.h), which
/// each format records (as `torchlings_test_seed`, JUnit as a property `torchlings.test_seed` of
/// each suite) so that the run can be replayed; nothing for a run that drew no inputs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/context.h"
#include "learner/check.h"
#include "teacher/report_model.h"

namespace torchlings::runner {

/// The Exercism results.json (version 3) of one exercise:
/// `{"version": 3, "status", "message", "tests": [...], "torchlings_skipped": [...]}`.
///  - status: "pass" (every case that ran passed), "fail" (a case failed), or "error": a build
///    error, a crash, a time-out, an exit in the middle of the run, no test case run, or every
///    case skipped (nothing was checked on this machine).
///  - message: for "error", what went wrong in a few lines, worded as the text output of `check`
///    (for a build error: the compiler error shown to learners and the path of the full build
///    log); null otherwise.
///  - tests, in the order the cases ran, then the cases the program never reached: `{"name",
///    "status", "message", "output", "test_code", "task_id", "torchlings_duration_s"}`. A case's
///    status is "pass"; "fail" for a check that did not hold or an unfinished stub's TODO; or
///    "error" for an unexpected exception, the crash or time-out that stopped the run in it, or
///    a case that never ran. Its message (null for a pass) has the check, its values, the INFO
///    messages and the location, paths relative to the course root. output is null except for
///    the case the run stopped in: the end of what the program printed, at most 500 characters.
///    test_code is the case's source from the test file, or null; task_id is N of a `[task_N]`
///    tag and is left out without one; torchlings_duration_s is left out for a case that never
///    ended.
///  - torchlings_skipped: `[{"name", "reason"}]`, the cases that skipped themselves.
///  - torchlings_output: the last lines the test program printed, only for a run that did not
///    pass and printed something.
[[nodiscard]] nlohmann::json exercism_results(const ExerciseReport& report);

/// What `check --json` prints: the results of one exercise as above; for several, an object
/// `{"version": 3, "status": <worst>, "exercises": [{"id", "lesson", ...results}]}` where the
/// worst status is "error", then "fail", then "pass". Either way with `"torchlings_test_seed"`
/// on top when there is a seed.
[[nodiscard]] nlohmann::json check_json(const std::vector<ExerciseReport>& reports,
                                        std::optional<std::uint64_t> test_seed = {});

/// A JUnit XML document: `<testsuites>` with one `<testsuite>` per exercise (name = id, with
/// tests, failures, errors, skipped, time and timestamp) and one `<testcase>` per test case
/// (classname = "<lesson>.<id>"). A failed check or TODO is a `<failure>`, an unexpected exception
/// an `<error>`, both with a one-line message attribute, a type (assertion, todo, exception) and
/// the details as text. A crash or time-out is an `<error>` (type crash, timeout or exit) of the
/// case it stopped in, or of a testcase named "run" when it stopped between cases; the cases never
/// reached are `<skipped message="not run: the program stopped early"/>`. A case that skipped
/// itself is `<skipped message="<reason>"/>`. A build error is the `<error type="build">` of a
/// testcase named "build". Text that XML cannot hold (control characters, invalid UTF-8) is
/// replaced. The seed is a `<property name="torchlings.test_seed">` of each suite.
[[nodiscard]] std::string junit_report(const std::vector<ExerciseReport>& reports,
                                       std::optional<std::uint64_t> test_seed = {});

/// Scores, for both platforms: one point per test case that ran (or should have: a case never
/// reached scores 0). A build error, or a run that reached no case, scores each declared case of
/// the exercise 0 (`declared`: the cases each such exercise's tests declare, from
/// declared_cases()), so that the maximum does not change with the learner's code; on a machine
/// without a GPU the cases tagged [gpu] are then left out as skipped, as they would have skipped
/// themselves after a working build. Whether there is a GPU is what the batch's own [gpu] cases
/// decided (ran or skipped themselves); only without any is /dev/nvidia0 asked. Skipped cases are
/// neither scored nor hidden: they are listed under `torchlings_skipped` ([{"name", "reason"}]).
/// Case names are "<id>: <case>".
///
/// Classroom 50's result.json (schema classroom50/result/v1), what an autograder writes in the
/// learner's checkout: `{"schema", "classroom", "assignment", "submission", "commit", "release",
/// "review", "datetime", "score", "max-score", "tests": [{"test-name", "passed", "score",
/// "max-score"}], "torchlings_skipped", "torchlings_sandbox", "torchlings_test_seed"}`.
/// torchlings_sandbox says how the test programs were contained (core/process.h's sandbox()):
/// "bubblewrap", or "none: <why>"; torchlings_test_seed is the seed, when there is one.
/// classroom, assignment, submission, commit, release and
/// review are the runner's CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, COMMIT_URL, RELEASE_URL and
/// REVIEW_URL (else COMMIT_URL), "" when unset; datetime is now, in UTC. The runner itself stamps
/// owner, assignment_type, submitted_by and graded_at, and overwrites datetime with the commit's.
[[nodiscard]] nlohmann::json classroom50_result(const std::vector<ExerciseReport>& reports,
                                                const DeclaredCases& declared = {},
                                                std::optional<std::uint64_t> test_seed = {});

/// Gradescope's results.json: `{"output", "tests": [{"name", "score", "max_score", "status",
/// "output", "visibility"}], "extra_data": {"torchlings_skipped", "torchlings_sandbox",
/// "torchlings_test_seed"}}` (the sandbox and the seed as in Classroom 50's result); status
/// "passed" or "failed", output the case's message ("" for a pass), visibility "visible". The
/// total is the sum of the tests' scores (no top-level score, which would override it); the
/// top-level output says it in words, names the cases left out, and gives the seed with the
/// command that replays its inputs.
[[nodiscard]] nlohmann::json gradescope_results(const std::vector<ExerciseReport>& reports,
                                                const DeclaredCases& declared = {},
                                                std::optional<std::uint64_t> test_seed = {});

/// The Gradescope results.json of a submission refused before grading: score 0, no tests, and
/// why in its output.
[[nodiscard]] nlohmann::json gradescope_refusal(const std::string& why);

}  // namespace torchlings::runner
