/// @file
/// @brief Parsing the torchlings reporter's JSON Lines.
#include "core/events.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/text.h"

namespace torchlings::runner {
using nlohmann::json;

namespace {

std::string string_field(const json& event, const char* key) {
    const auto found = event.find(key);
    return found != event.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::vector<std::string> strings_field(const json& event, const char* key) {
    std::vector<std::string> items;
    const auto found = event.find(key);
    if (found == event.end() || !found->is_array()) {
        return items;
    }
    for (const json& item : *found) {
        if (item.is_string()) {
            items.push_back(item.get<std::string>());
        }
    }
    return items;
}

FailureKind parse_kind(const std::string& kind) {
    if (kind == "exception") {
        return FailureKind::kException;
    }
    if (kind == "todo") {
        return FailureKind::kTodo;
    }
    if (kind == "crash") {
        return FailureKind::kCrash;
    }
    return FailureKind::kAssertion;
}

CaseStatus parse_case_status(const std::string& status) {
    if (status == "passed") {
        return CaseStatus::kPassed;
    }
    if (status == "skipped") {
        return CaseStatus::kSkipped;
    }
    return CaseStatus::kFailed;
}

Failure parse_failure(const json& event) {
    Failure failure;
    failure.kind = parse_kind(string_field(event, "kind"));
    failure.macro = string_field(event, "macro");
    failure.expr = string_field(event, "expr");
    failure.expanded = string_field(event, "expanded");
    failure.message = string_field(event, "message");
    failure.messages = strings_field(event, "messages");
    failure.file = string_field(event, "file");
    const auto line = event.find("line");
    if (line != event.end() && line->is_number_integer()) {
        failure.line = line->get<int>();
    }
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
    const std::string type = string_field(event, "event");
    if (type == "run_start") {
        run.started = true;
    } else if (type == "run_end") {
        run.finished = true;
    } else if (type == "case_start") {
        TestCaseResult result;
        result.name = string_field(event, "name");
        result.tags = strings_field(event, "tags");
        result.file = string_field(event, "file");
        const auto line = event.find("line");
        if (line != event.end() && line->is_number_integer()) {
            result.line = line->get<int>();
        }
        run.cases.push_back(std::move(result));
    } else if (type == "assertion") {
        if (TestCaseResult* result = open_case(run, string_field(event, "case"))) {
            result->failures.push_back(parse_failure(event));
        }
    } else if (type == "case_end") {
        if (TestCaseResult* result = open_case(run, string_field(event, "name"))) {
            result->status = parse_case_status(string_field(event, "status"));
            result->skip_reason = string_field(event, "skip_reason");
            const auto duration = event.find("duration_s");
            if (duration != event.end() && duration->is_number()) {
                result->duration_s = duration->get<double>();
            }
        }
    }
}

}  // namespace

TestRun parse_test_events(std::string_view json_lines) {
    TestRun run;
    for (const std::string& line : split_lines(json_lines)) {
        if (trim(line).empty()) {
            continue;
        }
        const json event = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (event.is_discarded() || !event.is_object()) {
            ++run.unreadable_lines;
            continue;
        }
        // One report, from its run_start to its run_end: lines before or after it (written by
        // other code of the program through a copy of the descriptor) are not part of it.
        const bool is_start = string_field(event, "event") == "run_start";
        if (run.finished || (!run.started && !is_start) || (run.started && is_start)) {
            ++run.ignored_events;
            continue;
        }
        apply_event(run, event);
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
    if (last.status == CaseStatus::kUnfinished) {
        return &last;
    }
    for (const Failure& failure : last.failures) {
        if (failure.kind == FailureKind::kCrash) {
            return &last;
        }
    }
    return nullptr;
}

const TestCaseResult* TestRun::first_failure() const {
    for (const TestCaseResult& result : cases) {
        if (result.status == CaseStatus::kFailed || result.status == CaseStatus::kUnfinished) {
            return &result;
        }
    }
    return nullptr;
}

int TestRun::count(CaseStatus status) const {
    int total = 0;
    for (const TestCaseResult& result : cases) {
        total += result.status == status ? 1 : 0;
    }
    return total;
}

std::string_view kind_name(FailureKind kind) {
    switch (kind) {
        case FailureKind::kAssertion:
            return "assertion";
        case FailureKind::kException:
            return "exception";
        case FailureKind::kTodo:
            return "todo";
        case FailureKind::kCrash:
            return "crash";
    }
    return "assertion";
}

}  // namespace torchlings::runner
