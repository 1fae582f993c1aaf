/// @file
/// @brief check --json / --junit / --classroom50 / --gradescope: the outcome of `check` for tools
/// and teachers.
///
/// Each CheckOutcome is first described once, format-neutrally (report_model.h), then written
/// here in each format.
#include "teacher/reports.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/process.h"
#include "core/test_seed.h"
#include "core/text.h"

namespace torchlings::runner {
using nlohmann::json;

namespace {

/// The value with every string made valid UTF-8 (core/text.h), so that a JSON writer accepts it.
json with_valid_utf8(json value) {
    if (value.is_string()) {
        return valid_utf8(value.get_ref<const std::string&>());
    }
    if (value.is_array() || value.is_object()) {
        for (json& item : value) {
            item = with_valid_utf8(std::move(item));
        }
    }
    return value;
}

/// "pass", "fail" or "error".
std::string status_name(Status status) {
    return status == Status::kPass ? "pass" : status == Status::kFail ? "fail" : "error";
}

/// The flags as a JSON array of {"code", "detail", "refused"}.
json flags_json(const std::vector<IntegrityFlag>& flags) {
    json list = json::array();
    for (const IntegrityFlag& flag : flags) {
        list.push_back({{"code", flag.code}, {"detail", flag.detail}, {"refused", flag.refused}});
    }
    return list;
}

/// One flag in one line: "refused: <code>: <detail>" or "flagged: <code>: <detail>".
std::string flag_line(const IntegrityFlag& flag) {
    return std::string(flag.refused ? "refused: " : "flagged: ") + flag.code + ": " + flag.detail;
}

// --- Exercism -----------------------------------------------------------------------------

json skipped_json(const std::vector<SkippedCase>& skipped, const std::string& prefix) {
    json list = json::array();
    for (const SkippedCase& item : skipped) {
        list.push_back({{"name", prefix + item.name}, {"reason", item.reason}});
    }
    return list;
}

// --- JUnit --------------------------------------------------------------------------------

/// Text for an XML attribute value or element content. Characters that XML 1.0 cannot hold at
/// all (control characters other than tab, newline and carriage return; U+FFFE, U+FFFF) are
/// written as `\xNN` or U+FFFD; invalid UTF-8 becomes U+FFFD.
std::string xml_escape(std::string_view text, bool attribute) {
    const std::string valid = valid_utf8(text);
    std::string escaped;
    escaped.reserve(valid.size());
    // The characters XML escapes, and how: in element content, and in an attribute value.
    static constexpr std::string_view kSpecial = "&<>\"'\n\t\r";
    static constexpr std::array<std::string_view, 8> kInContent{"&amp;",  "&lt;", "&gt;", "&quot;",
                                                                "&apos;", "\n",   "\t",   "&#13;"};
    static constexpr std::array<std::string_view, 8> kInAttribute{
        "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#10;", "&#9;", "&#13;"};
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const char c = valid[i];
        if (const std::size_t special = kSpecial.find(c); special != std::string_view::npos) {
            escaped += (attribute ? kInAttribute : kInContent)[special];
            continue;
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(byte));
            escaped += hex;
        } else if (byte == 0xEF && valid.compare(i, 2, "\xEF\xBF") == 0 && i + 2 < valid.size() &&
                   (valid[i + 2] == '\xBE' || valid[i + 2] == '\xBF')) {
            escaped += "\xEF\xBF\xBD";
            i += 2;
        } else {
            escaped += c;
        }
    }
    return escaped;
}

std::string attr(std::string_view name, std::string_view value) {
    return " " + std::string(name) + "=\"" + xml_escape(value, true) + "\"";
}

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", std::max(seconds, 0.0));
    return text;
}

/// One <testcase> element; `classname` is "<lesson>.<id>".
std::string junit_case(const std::string& classname, const CaseReport& item) {
    std::string xml = "    <testcase" + attr("name", item.name) + attr("classname", classname) +
                      attr("time", seconds_text(item.duration_s));
    if (item.status == Status::kPass) {
        return xml + "/>\n";
    }
    xml += ">\n";
    if (!item.ran) {
        xml += "      <skipped" + attr("message", item.summary) + "/>\n";
    } else {
        const std::string element = item.status == Status::kFail ? "failure" : "error";
        xml += "      <" + element + attr("message", item.summary) + attr("type", item.type) + ">" +
               xml_escape(item.message, false) + "</" + element + ">\n";
        if (!item.output.empty()) {
            xml += "      <system-out>" + xml_escape(item.output, false) + "</system-out>\n";
        }
    }
    return xml + "    </testcase>\n";
}

/// Counts of one <testsuite>.
struct SuiteCounts {
    int tests = 0;
    int failures = 0;
    int errors = 0;
    int skipped = 0;
    double seconds = 0.0;

    void add(const SuiteCounts& other) {
        tests += other.tests;
        failures += other.failures;
        errors += other.errors;
        skipped += other.skipped;
        seconds += other.seconds;
    }

    [[nodiscard]] std::string attributes() const {
        return attr("tests", std::to_string(tests)) + attr("failures", std::to_string(failures)) +
               attr("errors", std::to_string(errors)) + attr("skipped", std::to_string(skipped)) +
               attr("time", seconds_text(seconds));
    }
};

std::string junit_suite(const ExerciseReport& report, const std::string& timestamp,
                        SuiteCounts& counts, std::optional<std::uint64_t> test_seed) {
    const std::string classname = report.exercise->lesson + "." + report.exercise->id;
    std::string body;
    counts.seconds = report.seconds;
    if (!report.flags.empty() || test_seed) {
        // JUnit's place for facts about a suite; properties come first in a <testsuite>.
        body += "    <properties>\n";
        if (test_seed) {
            body += "      <property" + attr("name", "torchlings.test_seed") +
                    attr("value", std::to_string(*test_seed)) + "/>\n";
        }
        for (const IntegrityFlag& flag : report.flags) {
            body += "      <property" + attr("name", "torchlings.flag." + flag.code) +
                    attr("value", flag_line(flag)) + "/>\n";
        }
        body += "    </properties>\n";
    }
    const auto add = [&](const CaseReport& item) {
        body += junit_case(classname, item);
        ++counts.tests;
        if (!item.ran) {
            ++counts.skipped;
        } else if (item.status == Status::kFail) {
            ++counts.failures;
        } else if (item.status == Status::kError) {
            ++counts.errors;
        }
    };
    if (report.error_outside_cases) {
        CaseReport error;
        error.name = report.build_failed ? "build" : "run";
        error.status = Status::kError;
        error.message = report.message;
        error.summary = report.summary;
        error.type = report.type;
        error.duration_s = report.seconds;
        add(error);
    }
    std::for_each(report.cases.begin(), report.cases.end(), add);
    for (const SkippedCase& item : report.skipped) {
        CaseReport skipped;  // a <skipped/> with its reason, like a case never reached
        skipped.name = item.name;
        skipped.status = Status::kError;
        skipped.ran = false;
        skipped.summary = item.reason;
        add(skipped);
    }
    if (!report.output.empty()) {
        body += "    <system-out>" + xml_escape(report.output, false) + "</system-out>\n";
    }
    return "  <testsuite" + attr("name", report.exercise->id) + counts.attributes() +
           attr("timestamp", timestamp) + ">\n" + body + "  </testsuite>\n";
}

// --- Scores: Classroom 50 and Gradescope --------------------------------------------------

/// One scored test case: a point when it passed, none otherwise.
struct ScoredCase {
    std::string name;  ///< "<id>: <case>"
    Status status = Status::kPass;
    std::string message;
};

/// What both score reports are made of: the scored cases, and those left out of the score.
struct Scores {
    std::vector<ScoredCase> cases;
    json skipped = json::array();  ///< [{"name", "reason"}]
    json flags = json::array();    ///< [{"exercise", "code", "detail", "refused"}] for the teacher
    std::vector<std::string> flag_lines;  ///< the same, one line each

    /// The score: one point per case that passed.
    [[nodiscard]] int passed() const {
        return static_cast<int>(std::ranges::count(cases, Status::kPass, &ScoredCase::status));
    }
};

/// Whether this machine has a GPU, as the test programs decided it (each [gpu] case asks
/// LibTorch and skips itself without one): the first report that knows (ExerciseReport::gpu_found)
/// says. Only when none does is the NVIDIA driver asked (/dev/nvidia0).
bool gpu_found_by_tests(const std::vector<ExerciseReport>& reports) {
    const auto knows = std::ranges::find_if(
        reports, [](const ExerciseReport& r) { return r.gpu_found.has_value(); });
    if (knows != reports.end()) {
        return *knows->gpu_found;
    }
    std::error_code error;
    return std::filesystem::exists("/dev/nvidia0", error);
}

/// The cases scored, and those left out, as reports.h says above classroom50_result().
Scores score_cases(const std::vector<ExerciseReport>& reports,
                   const DeclaredCases& declared_by_id) {
    Scores scores;
    const bool has_gpu = gpu_found_by_tests(reports);
    for (const ExerciseReport& report : reports) {
        const std::string& id = report.exercise->id;
        for (json flag : flags_json(report.flags)) {
            flag["exercise"] = id;
            scores.flags.push_back(std::move(flag));
        }
        for (const IntegrityFlag& flag : report.flags) {
            scores.flag_lines.push_back(id + ": " + flag_line(flag));
        }
        // A refused report scores every case the tests declare, each 0: the cases it showed may
        // be a part of them chosen by the program (so that the maximum shrinks).
        const bool refused = report.type == "forged";
        if ((report.error_outside_cases && report.cases.empty()) ||
            (refused && declared_by_id.contains(id))) {
            const auto found = declared_by_id.find(id);
            std::vector<ListedCase> declared =
                found != declared_by_id.end() ? found->second : std::vector<ListedCase>();
            if (declared.empty()) {
                // Not even listed (no listing program in this build folder): one case, 0 points.
                declared.push_back({report.build_failed ? "build" : "run", false});
            }
            for (const ListedCase& source : declared) {
                if (!has_gpu && source.gpu) {
                    scores.skipped.push_back(
                        {{"name", id + ": " + source.name},
                         {"reason", "needs a CUDA GPU, and this machine has none"}});
                    continue;
                }
                scores.cases.push_back({id + ": " + source.name, Status::kError, report.message});
            }
            continue;
        }
        for (const CaseReport& item : report.cases) {
            scores.cases.push_back({id + ": " + item.name, item.status, item.message});
        }
        const json skipped = skipped_json(report.skipped, id + ": ");
        scores.skipped.insert(scores.skipped.end(), skipped.begin(), skipped.end());
    }
    return scores;
}

/// The value of an environment variable that Classroom 50's runner sets, or "".
std::string runner_variable(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

nlohmann::json classroom50_result(const std::vector<ExerciseReport>& reports,
                                  const DeclaredCases& declared,
                                  std::optional<std::uint64_t> test_seed) {
    const Scores scores = score_cases(reports, declared);
    json tests = json::array();
    for (const ScoredCase& item : scores.cases) {
        const bool passed = item.status == Status::kPass;
        tests.push_back({{"test-name", item.name},
                         {"passed", passed},
                         {"score", passed ? 1 : 0},
                         {"max-score", 1}});
    }
    const std::string commit = runner_variable("COMMIT_URL");
    const std::string review = runner_variable("REVIEW_URL");
    json result = {{"schema", "classroom50/result/v1"},
                   {"classroom", runner_variable("CLASSROOM")},
                   {"assignment", runner_variable("ASSIGNMENT")},
                   {"submission", runner_variable("SUBMISSION_TAG")},
                   {"commit", commit},
                   {"release", runner_variable("RELEASE_URL")},
                   {"review", review.empty() ? commit : review},
                   {"datetime", iso_time_now()},
                   {"score", scores.passed()},
                   {"max-score", static_cast<int>(scores.cases.size())},
                   {"tests", std::move(tests)},
                   {"torchlings_skipped", scores.skipped},
                   {"torchlings_flags", scores.flags},
                   {"torchlings_sandbox", sandbox().description}};
    if (test_seed) {
        result["torchlings_test_seed"] = *test_seed;
    }
    return with_valid_utf8(std::move(result));
}

nlohmann::json gradescope_results(const std::vector<ExerciseReport>& reports,
                                  const DeclaredCases& declared,
                                  std::optional<std::uint64_t> test_seed) {
    const Scores scores = score_cases(reports, declared);
    json tests = json::array();
    for (const ScoredCase& item : scores.cases) {
        const bool passed = item.status == Status::kPass;
        tests.push_back({{"name", item.name},
                         {"score", passed ? 1 : 0},
                         {"max_score", 1},
                         {"status", passed ? "passed" : "failed"},
                         {"output", item.message},
                         {"visibility", "visible"}});
    }
    std::string output = std::to_string(scores.passed()) + " of " +
                         std::to_string(scores.cases.size()) + " test cases passed.";
    if (!scores.skipped.empty()) {
        output += "\nNot scored (skipped on this machine):";
        for (const json& item : scores.skipped) {
            output +=
                "\n  " + item["name"].get<std::string>() + ": " + item["reason"].get<std::string>();
        }
    }
    if (test_seed) {
        const std::string setting =
            std::string(kTestSeedVariable) + "=" + std::to_string(*test_seed);
        output += "\nTest seed: " + setting +
                  ", from which the tests that draw inputs drew them; " + setting + " " +
                  std::string(kCommand) + " check <id> replays them.";
    }
    // What the teacher alone reads: a case worth nothing that Gradescope never shows students.
    if (!scores.flag_lines.empty()) {
        tests.push_back({{"name", "For the teacher: flags (what no answer needs)"},
                         {"score", 0},
                         {"max_score", 0},
                         {"output", join(scores.flag_lines, "\n")},
                         {"visibility", "hidden"}});
    }
    json results = {{"output", output},
                    {"tests", std::move(tests)},
                    {"extra_data",
                     {{"torchlings_skipped", scores.skipped},
                      {"torchlings_flags", scores.flags},
                      {"torchlings_sandbox", sandbox().description}}}};
    if (test_seed) {
        results["extra_data"]["torchlings_test_seed"] = *test_seed;
    }
    return with_valid_utf8(std::move(results));
}

nlohmann::json gradescope_refusal(const std::string& why) {
    return with_valid_utf8({{"score", 0}, {"output", why}, {"tests", json::array()}});
}

nlohmann::json exercism_results(const ExerciseReport& report) {
    json tests = json::array();
    for (const CaseReport& item : report.cases) {
        json test = {{"name", item.name},
                     {"status", status_name(item.status)},
                     {"message", item.message.empty() ? json() : json(item.message)},
                     {"output", item.output.empty() ? json() : json(item.output)},
                     {"test_code", item.code.empty() ? json() : json(item.code)}};
        if (item.task_id) {
            test["task_id"] = *item.task_id;
        }
        if (item.timed) {
            test["torchlings_duration_s"] = item.duration_s;
        }
        tests.push_back(std::move(test));
    }
    json results = {{"version", 3},
                    {"status", status_name(report.status)},
                    {"message", report.message.empty() ? json() : json(report.message)},
                    {"tests", std::move(tests)},
                    {"torchlings_skipped", skipped_json(report.skipped, "")}};
    if (!report.output.empty()) {
        results["torchlings_output"] = report.output;
    }
    if (!report.flags.empty()) {
        results["torchlings_flags"] = flags_json(report.flags);
    }
    return with_valid_utf8(std::move(results));
}

nlohmann::json check_json(const std::vector<ExerciseReport>& reports,
                          std::optional<std::uint64_t> test_seed) {
    if (reports.size() == 1) {
        json results = exercism_results(reports.front());
        if (test_seed) {
            results["torchlings_test_seed"] = *test_seed;
        }
        return results;
    }
    Status worst = Status::kPass;
    json exercises = json::array();
    for (const ExerciseReport& report : reports) {
        worst = std::max(worst, report.status);
        json entry = exercism_results(report);
        entry["id"] = report.exercise->id;
        entry["lesson"] = report.exercise->lesson;
        exercises.push_back(std::move(entry));
    }
    json results = {
        {"version", 3}, {"status", status_name(worst)}, {"exercises", std::move(exercises)}};
    if (test_seed) {
        results["torchlings_test_seed"] = *test_seed;
    }
    return results;
}

std::string junit_report(const std::vector<ExerciseReport>& reports,
                         std::optional<std::uint64_t> test_seed) {
    const std::string timestamp = iso_time_now();
    SuiteCounts total;
    std::string suites;
    for (const ExerciseReport& report : reports) {
        SuiteCounts counts;
        suites += junit_suite(report, timestamp, counts, test_seed);
        total.add(counts);
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
           attr("name", "torchlings check") + total.attributes() + ">\n" + suites +
           "</testsuites>\n";
}

}  // namespace torchlings::runner
