/// @file
/// @brief Reading the JSON Lines that the `torchlings` Catch2 reporter writes
/// (tests/support/catch_main.cpp), including the readable prefix a crash leaves behind.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace torchlings::runner {

/// How a test case ended.
enum class CaseStatus {
    kPassed,
    kFailed,
    kSkipped,
    kUnfinished,  ///< started but never ended: the program crashed or was stopped in it
};

/// Why an assertion event failed.
enum class FailureKind {
    kAssertion,  ///< a REQUIRE/CHECK/FAIL that did not hold
    kException,  ///< an unexpected exception
    kTodo,       ///< an exception whose message starts with "TODO:" (an unfinished stub)
    kCrash,      ///< a fatal signal that Catch2 caught and reported before the process died
};

/// One failed assertion, as the reporter described it.
struct Failure {
    FailureKind kind = FailureKind::kAssertion;
    std::string macro;                  ///< "REQUIRE", "CHECK", ...; empty for exceptions
    std::string expr;                   ///< the expression as written
    std::string expanded;               ///< the expression with values filled in
    std::string message;                ///< FAIL() text, or the exception's what()
    std::vector<std::string> messages;  ///< INFO/CAPTURE messages in scope
    std::string file;                   ///< the test source, as compiled
    int line = 0;
};

struct TestCaseResult {
    std::string name;               ///< as declared in TEST_CASE
    std::vector<std::string> tags;  ///< Catch2 tags, without brackets
    std::string file;  ///< the source that declares it, as compiled; empty when not reported
    int line = 0;      ///< the line of its TEST_CASE there; 0 when not reported
    CaseStatus status = CaseStatus::kUnfinished;  ///< kUnfinished until its case_end is read
    std::string skip_reason;                      ///< TL_SKIP's reason, for a skipped case
    double duration_s = 0.0;                      ///< wall-clock time of the case
    std::vector<Failure> failures;                ///< every failed assertion, in order
    /// The assertions the case ran, passed or failed (its case_end's count); -1 when the
    /// reporter did not say (an older test program).
    int assertions = -1;

    /// One of its failures is a crash (a fatal signal that Catch2 caught).
    [[nodiscard]] bool crashed() const;
    /// It is tagged [gpu]: it needs a CUDA GPU, and skips itself without one.
    [[nodiscard]] bool needs_gpu() const;
};

/// Everything a test program reported.
struct TestRun {
    bool started = false;   ///< a run_start event was read
    bool finished = false;  ///< a run_end event was read
    std::vector<TestCaseResult> cases;
    int unreadable_lines = 0;  ///< lines that were not JSON events (a truncated last line is one)
    /// Events outside the report, before its run_start or after its run_end (written by other
    /// code of the program): never part of the results.
    int ignored_events = 0;
    /// The run had a key: only lines signed with it, in sequence, were read.
    bool authenticated = false;
    /// Lines that were not the reporter's: with a key, a line without a valid MAC or out of
    /// sequence; never part of the results, and enough to refuse the run.
    int forged_lines = 0;
    /// The run_end's counts differ from the case events read.
    bool counts_disagree = false;

    /// Something in the report is not the reporter's own: the run cannot be passed.
    [[nodiscard]] bool forged() const {
        return forged_lines > 0 || counts_disagree || !passed_without_assertions().empty();
    }
    /// The cases that passed without running one assertion. Every case of the course runs at
    /// least one with the reference solution, and an answer cannot skip the test's own checks:
    /// such a pass means the test's code was changed while it ran (its body patched to return),
    /// which a signed report cannot show otherwise.
    [[nodiscard]] std::vector<std::string> passed_without_assertions() const;

    /// The case that was running when the output stopped (the last unfinished one, or the one
    /// with a crash failure), or nullptr.
    [[nodiscard]] const TestCaseResult* interrupted_case() const;
    /// The first failed or unfinished case in declaration order, or nullptr.
    [[nodiscard]] const TestCaseResult* first_failure() const;
    /// The number of cases with this status.
    [[nodiscard]] int count(CaseStatus status) const;
};

/// Parses the reporter's output. Never throws: unreadable lines (such as one cut short by a
/// crash) are counted and skipped, and unknown events are ignored. With a `key` (the run's, see
/// tests/support/catch_main.cpp), a line counts only when it carries the next sequence number
/// and a valid HMAC-SHA256 under that key; every other line is counted as forged. A last line
/// cut short (no newline) is unreadable, not forged: a crash can leave one.
[[nodiscard]] TestRun parse_test_events(std::string_view json_lines, std::string_view key = {});

/// `body` signed as the reporter signs it: `{...,"mac":"<hex>"}`. For tests.
[[nodiscard]] std::string sign_event_line(std::string_view key, std::string_view body);

/// A fresh random key for one run (32 bytes from the system's cryptographic generator:
/// core/system_crypto.h).
[[nodiscard]] std::string make_event_key();

/// "assertion", "exception", "todo", "crash".
[[nodiscard]] std::string_view kind_name(FailureKind kind);

}  // namespace torchlings::runner
