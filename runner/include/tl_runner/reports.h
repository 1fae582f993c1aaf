/// @file
/// @brief Machine-readable results of `check`, for tools and teachers rather than learners:
/// the Exercism test-runner interface (version 3), JUnit XML, and the JSON that GitHub
/// Classroom's autograding reporter reads.
///
/// Skipped test cases (for example those that need a GPU, on a machine without one) are never
/// reported as passed: the Exercism and Classroom shapes have no "skipped" status, so they are
/// left out of `tests` and listed under `torchlings_skipped` with their reason, and they carry
/// no score. JUnit has a <skipped/> element and uses it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tl_runner/check.h"
#include "tl_runner/context.h"

namespace torchlings::runner {

/// The Exercism results.json (version 3) of one exercise: status "pass", "fail" or "error" (a
/// build error, a crash, a time-out, or nothing run), `message` for an error, and `tests` in
/// declaration order with name, status, message, output and test_code (plus task_id from a
/// `[task_N]` tag).
[[nodiscard]] nlohmann::json exercism_results(const Context& context, const CheckOutcome& outcome);

/// What `check --json` prints: the results of one exercise as above; for several, an object
/// `{"version": 3, "status": <worst>, "exercises": [{"id", "lesson", ...results}]}`.
[[nodiscard]] nlohmann::json check_json(const Context& context,
                                        const std::vector<CheckOutcome>& outcomes);

/// A JUnit XML document: one <testsuite> per exercise, one <testcase> per test case, a build
/// error as an <error> of a testcase named "build".
[[nodiscard]] std::string junit_report(const Context& context,
                                       const std::vector<CheckOutcome>& outcomes);

/// The GitHub Classroom autograding result: `{"version": 1, "status", "max_score", "tests":
/// [{"name", "status", "score", "message", "test_code", "filename", "line_no", "duration"}]}`,
/// one point per test case that ran. A build error scores each case of the exercise 0, the case
/// names then read from its test source (`TEST_CASE("name"`), so that max_score does not change
/// with the learner's code.
[[nodiscard]] nlohmann::json classroom_report(const Context& context,
                                              const std::vector<CheckOutcome>& outcomes);

}  // namespace torchlings::runner
