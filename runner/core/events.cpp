/// @file
/// @brief Parsing the torchlings reporter's JSON Lines.
#include "core/events.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/hashing.h"
#include "core/system_crypto.h"
#include "core/text.h"

namespace torchlings::runner {
using nlohmann::json;

namespace {

std::string event_string_field(const json& event, const char* key) {
    const auto found = event.find(key);
    // Text from the test program: its control characters are shown, never obeyed.
    return found != event.end() && found->is_string()
               ? with_visible_controls(found->get_ref<const std::string&>())
               : std::string();
}

std::vector<std::string> strings_field(const json& event, const char* key) {
    std::vector<std::string> items;
    const auto found = event.find(key);
    if (found != event.end() && found->is_array()) {
        for (const json& item : *found) {
            if (item.is_string()) {
                items.push_back(with_visible_controls(item.get_ref<const std::string&>()));
            }
        }
    }
    return items;
}

constexpr std::array<std::string_view, 4> kKindNames{"assertion", "exception", "todo", "crash"};

FailureKind parse_kind(const std::string& kind) {
    const auto* found = std::find(kKindNames.begin(), kKindNames.end(), kind);
    return found == kKindNames.end() ? FailureKind::kAssertion
                                     : static_cast<FailureKind>(found - kKindNames.begin());
}

CaseStatus parse_case_status(const std::string& status) {
    return status == "passed"    ? CaseStatus::kPassed
           : status == "skipped" ? CaseStatus::kSkipped
                                 : CaseStatus::kFailed;
}

/// The event's "line" (a source line), or 0 when it has none.
int line_field(const json& event) {
    const auto line = event.find("line");
    return line != event.end() && line->is_number_integer() ? line->get<int>() : 0;
}

Failure parse_failure(const json& event) {
    Failure failure;
    failure.kind = parse_kind(event_string_field(event, "kind"));
    failure.macro = event_string_field(event, "macro");
    failure.expr = event_string_field(event, "expr");
    failure.expanded = event_string_field(event, "expanded");
    failure.message = event_string_field(event, "message");
    failure.messages = strings_field(event, "messages");
    failure.file = event_string_field(event, "file");
    failure.line = line_field(event);
    return failure;
}

/// The open case an event belongs to: the last started one with that name (or the last one).
TestCaseResult* open_case(TestRun& run, const std::string& name) {
    const auto open =
        std::find_if(run.cases.rbegin(), run.cases.rend(), [&](const TestCaseResult& c) {
            return c.status == CaseStatus::kUnfinished && (name.empty() || c.name == name);
        });
    return open == run.cases.rend() ? nullptr : &*open;
}

void apply_event(TestRun& run, const json& event) {
    const std::string type = event_string_field(event, "event");
    if (type == "run_start") {
        run.started = true;
    } else if (type == "run_end") {
        run.finished = true;
    } else if (type == "case_start") {
        TestCaseResult result;
        result.name = event_string_field(event, "name");
        result.tags = strings_field(event, "tags");
        result.file = event_string_field(event, "file");
        result.line = line_field(event);
        run.cases.push_back(std::move(result));
    } else if (type == "assertion") {
        if (TestCaseResult* result = open_case(run, event_string_field(event, "case"))) {
            result->failures.push_back(parse_failure(event));
        }
    } else if (type == "case_end") {
        if (TestCaseResult* result = open_case(run, event_string_field(event, "name"))) {
            result->status = parse_case_status(event_string_field(event, "status"));
            result->skip_reason = event_string_field(event, "skip_reason");
            const auto assertions = event.find("assertions");
            if (assertions != event.end() && assertions->is_number_integer()) {
                result->assertions = assertions->get<int>();
            }
            const auto duration = event.find("duration_s");
            if (duration != event.end() && duration->is_number()) {
                result->duration_s = duration->get<double>();
            }
        }
    }
}

/// The MAC that the reporter appends to a line (`body`: the line up to its MAC, closed with "}").
std::string event_mac(std::string_view key, std::string_view body) {
    system_crypto::Sha256 mac{};
    if (!system_crypto::hmac_sha256(key.data(), key.size(), body, mac)) {
        throw std::runtime_error("the system's cryptographic library could not compute an HMAC");
    }
    return hex_text(mac);
}

/// Whether a line is signed with the key: `{...,"mac":"<64 hex digits>"}`, the MAC over the
/// line up to ,"mac" closed with "}".
bool verifies(std::string_view key, std::string_view line) {
    static constexpr std::string_view kMacField = ",\"mac\":\"";
    constexpr std::size_t kHexSize = 64;
    const std::size_t at = line.rfind(kMacField);
    if (at == std::string_view::npos || line.size() != at + kMacField.size() + kHexSize + 2 ||
        line.substr(line.size() - 2) != "\"}") {
        return false;
    }
    const std::string body = std::string(line.substr(0, at)) + "}";
    const std::string expected = event_mac(key, body);
    return system_crypto::same_bytes(expected.data(), line.data() + at + kMacField.size(),
                                     kHexSize);
}

/// The run_end's counts agree with the cases read.
bool counts_agree(const TestRun& run, const json& event) {
    const std::array<std::pair<const char*, CaseStatus>, 3> counts{
        {{"passed", CaseStatus::kPassed},
         {"failed", CaseStatus::kFailed},
         {"skipped", CaseStatus::kSkipped}}};
    for (const auto& [field, status] : counts) {
        const auto found = event.find(field);
        if (found == event.end() || !found->is_number_integer() ||
            found->get<long long>() != run.count(status)) {
            return false;
        }
    }
    return run.count(CaseStatus::kUnfinished) == 0;
}

}  // namespace

std::string sign_event_line(std::string_view key, std::string_view body) {
    std::string line(body.substr(0, body.size() - 1));
    return line + ",\"mac\":\"" + event_mac(key, body) + "\"}";
}

std::string make_event_key() {
    std::string key(32, '\0');
    if (!system_crypto::random_bytes(key.data(), key.size())) {
        throw std::runtime_error("the system's cryptographic library could not make a random key");
    }
    return key;
}

TestRun parse_test_events(std::string_view json_lines, std::string_view key) {
    TestRun run;
    run.authenticated = !key.empty();
    long long next_sequence = 0;
    const std::vector<std::string> lines = split_lines(json_lines);
    const bool last_line_cut = !json_lines.empty() && json_lines.back() != '\n';
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (trim(line).empty()) {
            continue;
        }
        const json event = json::parse(line, nullptr, /*allow_exceptions=*/false);
        const bool cut = last_line_cut && i + 1 == lines.size();
        if (cut && (event.is_discarded() || run.authenticated)) {
            ++run.unreadable_lines;  // a crash can stop the reporter in the middle of a line
            continue;
        }
        if (run.authenticated) {
            const auto sequence = event.is_object() ? event.find("seq") : event.end();
            if (!verifies(key, line) || sequence == event.end() || !sequence->is_number_integer() ||
                sequence->get<long long>() != next_sequence) {
                ++run.forged_lines;
                continue;
            }
            ++next_sequence;
        }
        if (event.is_discarded() || !event.is_object()) {
            ++run.unreadable_lines;
            continue;
        }
        // One report, from its run_start to its run_end: lines before or after it (written by
        // other code of the program through a copy of the descriptor) are not part of it.
        const bool is_start = event_string_field(event, "event") == "run_start";
        if (run.finished || run.started == is_start) {
            ++run.ignored_events;
            continue;
        }
        apply_event(run, event);
        run.counts_disagree = run.finished && !counts_agree(run, event);
    }
    return run;
}

const TestCaseResult* TestRun::interrupted_case() const {
    // A program that dies stops in its last case: Catch2 ends that case itself when it catches
    // the signal (with a crash failure); a SIGKILL leaves it without a case_end.
    if (cases.empty()) {
        return nullptr;
    }
    const TestCaseResult& last = cases.back();
    return last.status == CaseStatus::kUnfinished || last.crashed() ? &last : nullptr;
}

bool TestCaseResult::crashed() const {
    return std::ranges::any_of(failures,
                               [](const Failure& f) { return f.kind == FailureKind::kCrash; });
}

bool TestCaseResult::needs_gpu() const { return std::ranges::find(tags, "gpu") != tags.end(); }

const TestCaseResult* TestRun::first_failure() const {
    const auto found = std::find_if(cases.begin(), cases.end(), [](const TestCaseResult& result) {
        return result.status == CaseStatus::kFailed || result.status == CaseStatus::kUnfinished;
    });
    return found == cases.end() ? nullptr : &*found;
}

std::vector<std::string> TestRun::passed_without_assertions() const {
    std::vector<std::string> names;
    for (const TestCaseResult& result : cases) {
        if (result.status == CaseStatus::kPassed && result.assertions == 0) {
            names.push_back(result.name);
        }
    }
    return names;
}

int TestRun::count(CaseStatus status) const {
    return static_cast<int>(std::ranges::count(cases, status, &TestCaseResult::status));
}

std::string_view kind_name(FailureKind kind) {
    return kKindNames.at(static_cast<std::size_t>(kind));
}

}  // namespace torchlings::runner
