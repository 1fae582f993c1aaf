/// @file
/// @brief Machine-readable results of `check`, for tools and teachers rather than learners:
/// the Exercism test-runner interface (version 3), JUnit XML, and the JSON that GitHub
/// Classroom's autograding reporter reads.
///
/// Skipped test cases (for example those that need a GPU, on a machine without one) are never
/// reported as passed: the Exercism and Classroom shapes have no "skipped" status, so they are
/// left out of `tests` and listed under `torchlings_skipped` with their reason, and they carry
/// no score. JUnit has a `<skipped/>` element and uses it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/context.h"
#include "learner/check.h"

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
[[nodiscard]] nlohmann::json exercism_results(const Context& context, const CheckOutcome& outcome);

/// What `check --json` prints: the results of one exercise as above; for several, an object
/// `{"version": 3, "status": <worst>, "exercises": [{"id", "lesson", ...results}]}` where the
/// worst status is "error", then "fail", then "pass".
[[nodiscard]] nlohmann::json check_json(const Context& context,
                                        const std::vector<CheckOutcome>& outcomes);

/// A JUnit XML document: `<testsuites>` with one `<testsuite>` per exercise (name = id, with
/// tests, failures, errors, skipped, time and timestamp) and one `<testcase>` per test case
/// (classname = "<lesson>.<id>"). A failed check or TODO is a `<failure>`, an unexpected exception
/// an `<error>`, both with a one-line message attribute, a type (assertion, todo, exception) and
/// the details as text. A crash or time-out is an `<error>` (type crash, timeout or exit) of the
/// case it stopped in, or of a testcase named "run" when it stopped between cases; the cases never
/// reached are `<skipped message="not run: the program stopped early"/>`. A case that skipped
/// itself is `<skipped message="<reason>"/>`. A build error is the `<error type="build">` of a
/// testcase named "build". Text that XML cannot hold (control characters, invalid UTF-8) is
/// replaced.
[[nodiscard]] std::string junit_report(const Context& context,
                                       const std::vector<CheckOutcome>& outcomes);

/// The GitHub Classroom autograding result: `{"version": 1, "status", "max_score", "tests":
/// [{"name", "status", "score", "message", "test_code", "filename", "line_no", "duration"}],
/// "torchlings_skipped": [{"name", "reason"}]}`, one point per test case that ran (or should have:
/// a case never reached scores 0 with status "error"). name is "<id>: <case>", statuses are as
/// in exercism_results(), message and test_code are strings ("" when there is nothing to say),
/// filename is the test file relative to the course root, line_no the failed check's line (else
/// the TEST_CASE line), duration in milliseconds. A build error, or a run that reached no case,
/// scores each case of the exercise 0, the case names then read from its test source
/// (`TEST_CASE("name"`), so that max_score does not change with the learner's code; on a machine
/// without a GPU the cases tagged [gpu] are then listed as skipped, as they would have skipped
/// themselves after a working build. Whether there is a GPU is what the batch's own [gpu] cases
/// decided (ran or skipped themselves); only without any is /dev/nvidia0 asked. status is
/// the worst status of the tests and of the exercises whose cases did not all skip themselves;
/// "error" when there is no test at all.
[[nodiscard]] nlohmann::json classroom_report(const Context& context,
                                              const std::vector<CheckOutcome>& outcomes);

}  // namespace torchlings::runner
