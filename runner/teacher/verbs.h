/// @file
/// @brief The teachers' verbs: `export --learner` and `check` with the reports a class grades from.
#pragma once

#include <string>

#include "core/context.h"
#include "core/errors.h"
#include "learner/verbs.h"

namespace torchlings::runner {

/// Options of `check` when a class grades it.
struct GradeOptions {
    CheckOptions check;
    bool json = false;             ///< print check_json() on stdout, the text on stderr
    std::string junit_file;        ///< write junit_report() here when not empty
    std::string classroom50_file;  ///< write classroom50_result() here when not empty
    std::string gradescope_file;   ///< write gradescope_results() here when not empty
    bool verify_tests = false;     ///< refuse (kTestsEdited) when tests differ from the manifest

    /// Whether a report is asked for.
    [[nodiscard]] bool reports() const {
        return json || !junit_file.empty() || !classroom50_file.empty() || !gradescope_file.empty();
    }
    /// Whether any of these asks for more than a learner's check.
    [[nodiscard]] bool any() const { return reports() || verify_tests; }
};

/// `check` with --verify-tests, --json, --junit, --classroom50 or --gradescope: verifies the tests
/// first when asked (a refusal still writes the Gradescope results, scoring 0 and saying why),
/// runs the learner's check, then writes the reports from its outcomes.
ExitCode grade_command(Context& context, const GradeOptions& options);

/// Options of `export`.
struct ExportOptions {
    std::string learner_dir;  ///< where the learner copy goes; must not exist or be empty
    std::string lessons;      ///< whose exercises go along: "01-03,05"; empty: every lesson's
};

/// `export --learner DIR`: the course without solutions/, as a template repository for a
/// class, with a manifest of the hashes of every file but the learners' that
/// `check --verify-tests` compares against. With `--lessons`, only those lessons' exercises and
/// their tests go along (one assignment per unit); every lesson's page and program stay.
ExitCode export_command(Context& context, const ExportOptions& options);

}  // namespace torchlings::runner
