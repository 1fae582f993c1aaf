/// @file
/// @brief Ordering of exit codes by seriousness, and their list for `--help`.
#include "core/errors.h"

#include <algorithm>
#include <array>

namespace torchlings::runner {
namespace {

/// Higher is more serious; a batch of checks reports its most serious outcome. "All skipped"
/// ranks below success, so that a batch is all-skipped only when every member was.
int seriousness(ExitCode code) {
    constexpr std::array kLeastFirst{
        ExitCode::kAllSkipped,  ExitCode::kOk,       ExitCode::kTestsFailed,
        ExitCode::kBuildError,  ExitCode::kUsage,    ExitCode::kTestsEdited,
        ExitCode::kEnvironment, ExitCode::kInternal, ExitCode::kInterrupted,
    };
    const auto* found = std::find(kLeastFirst.begin(), kLeastFirst.end(), code);
    if (found == kLeastFirst.end()) {  // not an exit code of the list: a bug in the runner
        found = std::find(kLeastFirst.begin(), kLeastFirst.end(), ExitCode::kInternal);
    }
    return static_cast<int>(found - kLeastFirst.begin());
}

}  // namespace

ExitCode most_serious(ExitCode a, ExitCode b) { return seriousness(a) >= seriousness(b) ? a : b; }

std::string exit_codes_help() {
    constexpr std::size_t kWidth = 90;
    std::string text = "Exit codes:";
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < kExitCodeMeanings.size(); ++i) {
        const ExitCodeMeaning& entry = kExitCodeMeanings[i];
        const std::string item = std::to_string(static_cast<int>(entry.code)) + " " +
                                 std::string(entry.brief) +
                                 (i + 1 < kExitCodeMeanings.size() ? "," : ".");
        if (text.size() - line_start + 1 + item.size() > kWidth) {
            text += "\n";
            line_start = text.size();
        } else {
            text += " ";
        }
        text += item;
    }
    return text + " `run` exits with the lesson's code.";
}

}  // namespace torchlings::runner
