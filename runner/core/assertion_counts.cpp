/// @file
/// @brief The reference solution's assertion counts, read, written and compared with a run.
#include "core/assertion_counts.h"

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

AssertionCounts read_assertion_counts(const fs::path& file) {
    std::error_code error;
    if (!fs::exists(file, error)) {
        return {};
    }
    const std::string restore = "git checkout -- " + std::string(kAssertionCounts);
    json parsed = json::parse(read_file(file), nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_object()) {
        throw EnvironmentError(file.string() + " is not a JSON object of exercises.", restore);
    }
    AssertionCounts counts;
    for (const auto& [id, cases] : parsed.items()) {
        if (!cases.is_object()) {
            throw EnvironmentError(file.string() + ": \"" + id + "\" is not an object of cases.",
                                   restore);
        }
        for (const auto& [name, count] : cases.items()) {
            if (!count.is_number_integer() || count.get<int>() < 0) {
                throw EnvironmentError(file.string() + ": \"" + id + "\", case \"" + name +
                                           "\": the count is not a whole number of at least 0.",
                                       restore);
            }
            counts[id][name] = count.get<int>();
        }
    }
    return counts;
}

std::string assertion_counts_json(const AssertionCounts& counts) {
    // One case a line, so that a change of the tests shows as the lines of its cases.
    std::string text = "{\n";
    bool first_exercise = true;
    for (const auto& [id, cases] : counts) {
        text += std::string(first_exercise ? "" : ",\n") + "  " + json(id).dump() + ": {";
        first_exercise = false;
        bool first_case = true;
        for (const auto& [name, count] : cases) {
            text += std::string(first_case ? "\n" : ",\n") + "    " + json(name).dump() + ": " +
                    std::to_string(count);
            first_case = false;
        }
        text += cases.empty() ? "}" : "\n  }";
    }
    return text + "\n}\n";
}

std::map<std::string, int> passed_case_assertions(const TestRun& run) {
    std::map<std::string, int> passed;
    for (const TestCaseResult& result : run.cases) {
        if (result.status == CaseStatus::kPassed && !result.needs_gpu() && result.assertions >= 0) {
            passed[result.name] = result.assertions;
        }
    }
    return passed;
}

std::optional<IntegrityFlag> fewer_assertions_flag(const TestRun& run,
                                                   const std::map<std::string, int>& reference) {
    std::vector<std::string> short_cases;
    for (const TestCaseResult& result : run.cases) {
        const auto recorded = reference.find(result.name);
        if (result.status == CaseStatus::kPassed && result.assertions >= 0 &&
            recorded != reference.end() && result.assertions < recorded->second) {
            short_cases.push_back("\"" + result.name + "\" ran " +
                                  std::to_string(result.assertions) + " of its " +
                                  std::to_string(recorded->second) + " assertions");
        }
    }
    if (short_cases.empty()) {
        return std::nullopt;
    }
    return IntegrityFlag{
        "fewer-assertions",
        "passed with fewer assertions than the reference solution runs: " + join(short_cases, "; "),
        /*refused=*/false};
}

}  // namespace torchlings::runner
