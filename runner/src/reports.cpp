/// @file
/// @brief check --json / --junit / --classroom.
#include "tl_runner/reports.h"

namespace torchlings::runner {

nlohmann::json exercism_results(const Context&, const CheckOutcome&) {
    throw EnvironmentError("exercism_results: not written yet");
}

nlohmann::json check_json(const Context&, const std::vector<CheckOutcome>&) {
    throw EnvironmentError("check --json: not written yet");
}

std::string junit_report(const Context&, const std::vector<CheckOutcome>&) {
    throw EnvironmentError("check --junit: not written yet");
}

nlohmann::json classroom_report(const Context&, const std::vector<CheckOutcome>&) {
    throw EnvironmentError("check --classroom: not written yet");
}

}  // namespace torchlings::runner
