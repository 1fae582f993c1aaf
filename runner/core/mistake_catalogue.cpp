/// @file
/// @brief The one C++ reader (and writer of signatures) of the catalogue of mistakes' Markdown.
#include "core/mistake_catalogue.h"

#include <algorithm>
#include <array>
#include <system_error>
#include <utility>

#include "core/errors.h"
#include "core/layout.h"
#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// The names of CaseFailure's values, in its order.
constexpr std::array<std::string_view, 4> kFailureNames{"assertion", "exception", "crash",
                                                        "timeout"};

bool is_slug(std::string_view slug) {
    return !slug.empty() && std::all_of(slug.begin(), slug.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool is_fence(std::string_view line) { return line.starts_with("```") || line.starts_with("~~~"); }

/// "```diff", optionally followed by spaces: the line that opens a mistake's diff block.
bool opens_diff(std::string_view line) {
    return line.starts_with("```diff") && line.find_first_not_of(' ', 7) == std::string_view::npos;
}

[[noreturn]] void fail(std::string_view source, int line, const std::string& what) {
    throw EnvironmentError(std::string(source) + ":" + std::to_string(line) + ": " + what);
}

std::string quoted_name(std::string_view name) {
    std::string text = "\"";
    for (const char c : name) {
        if (c == '"' || c == '\\') {
            text += '\\';
        }
        text += c;
    }
    return text + "\"";
}

/// How a failed case failed: a crash or a timeout for a case the run stopped in, else exception
/// (an unexpected or a TODO exception), else assertion.
CaseFailure case_failure(const TestCaseResult& result, const TestProgramRun& run) {
    if (result.status == CaseStatus::kUnfinished) {
        return run.verdict == Verdict::kTimedOut ? CaseFailure::kTimeout : CaseFailure::kCrash;
    }
    if (result.crashed()) {
        return CaseFailure::kCrash;
    }
    const bool thrown = std::ranges::any_of(result.failures, [](const Failure& f) {
        return f.kind == FailureKind::kException || f.kind == FailureKind::kTodo;
    });
    return thrown ? CaseFailure::kException : CaseFailure::kAssertion;
}

}  // namespace

Signature sorted_signature(Signature signature) {
    std::sort(signature.begin(), signature.end(), [](const FailedCase& a, const FailedCase& b) {
        return a.name != b.name ? a.name < b.name : a.failure < b.failure;
    });
    return signature;
}

Signature parse_signature(std::string_view text, std::string_view source, int line) {
    Signature signature;
    std::size_t at = 0;
    const auto skip_spaces = [&] { at = std::min(text.find_first_not_of(' ', at), text.size()); };
    const std::string expected =
        "expected `\"<case name>\" (assertion|exception|crash|timeout[, sometimes])`, entries "
        "separated by `; `, after \"" +
        std::string(layout::kMistakeCaughtBy) + "\"";
    skip_spaces();
    while (at < text.size()) {
        if (text[at] != '"') {
            fail(source, line, expected);
        }
        ++at;
        FailedCase entry;
        bool closed = false;
        while (at < text.size()) {
            const char c = text[at++];
            if (c == '\\' && at < text.size()) {
                entry.name += text[at++];
            } else if (c == '"') {
                closed = true;
                break;
            } else {
                entry.name += c;
            }
        }
        skip_spaces();
        const std::size_t close = text.find(')', at);
        if (!closed || entry.name.empty() || at >= text.size() || text[at] != '(' ||
            close == std::string_view::npos) {
            fail(source, line, expected);
        }
        std::string_view how = text.substr(at + 1, close - at - 1);
        constexpr std::string_view kSometimes = ", sometimes";
        if (how.ends_with(kSometimes)) {
            entry.sometimes = true;
            how.remove_suffix(kSometimes.size());
        }
        const auto* known = std::find(kFailureNames.begin(), kFailureNames.end(), how);
        if (known == kFailureNames.end()) {
            fail(source, line, expected + "; got (" + std::string(how) + ")");
        }
        entry.failure = static_cast<CaseFailure>(known - kFailureNames.begin());
        signature.push_back(std::move(entry));
        at = close + 1;
        skip_spaces();
        if (at < text.size()) {
            if (text[at] != ';') {
                fail(source, line, expected);
            }
            ++at;
            skip_spaces();
            if (at >= text.size()) {
                fail(source, line, expected);
            }
        }
    }
    if (signature.empty()) {
        fail(source, line, expected);
    }
    return signature;
}

bool signature_matches(const Signature& recorded, const Signature& observed) {
    for (const FailedCase& entry : recorded) {
        const auto seen = std::ranges::find(observed, entry.name, &FailedCase::name);
        if (seen == observed.end() ? !entry.sometimes : seen->failure != entry.failure) {
            return false;
        }
    }
    return std::ranges::all_of(observed, [&](const FailedCase& entry) {
        return std::ranges::find(recorded, entry.name, &FailedCase::name) != recorded.end();
    });
}

Signature signature_to_record(const Signature& recorded, const Signature& observed) {
    Signature result = observed;
    for (const FailedCase& entry : recorded) {
        if (!entry.sometimes) {
            continue;
        }
        const auto seen = std::ranges::find(result, entry.name, &FailedCase::name);
        if (seen == result.end()) {
            result.push_back(entry);
        } else {
            seen->sometimes = true;
        }
    }
    return sorted_signature(std::move(result));
}

std::string format_signature(const Signature& signature) {
    std::vector<std::string> entries;
    for (const FailedCase& entry : sorted_signature(signature)) {
        entries.push_back(quoted_name(entry.name) + " (" +
                          std::string(kFailureNames.at(static_cast<std::size_t>(entry.failure))) +
                          (entry.sometimes ? ", sometimes)" : ")"));
    }
    return trim(layout::kMistakeCaughtBy) + (entries.empty() ? "" : " " + join(entries, "; "));
}

std::vector<Mistake> parse_mistake_catalogue(std::string_view text, const std::string& exercise_id,
                                             std::string_view source) {
    std::vector<Mistake> mistakes;
    const std::vector<std::string> lines = split_lines(text);
    const std::string caught_by = trim(layout::kMistakeCaughtBy);
    bool in_fence = false;
    bool in_diff = false;
    int old_lines = 0;  // the lines of old text of the hunk being read
    bool new_paragraph = true;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const int number = static_cast<int>(i) + 1;
        if (in_diff) {
            Mistake& mistake = mistakes.back();
            const std::string where = "mistake '" + mistake.slug + "'";
            if (line == "```") {
                in_diff = false;
                continue;
            }
            Hunk& hunk = mistake.hunks.back();
            const bool empty = hunk.old_text.empty() && hunk.origins.empty();
            if (line == "@@") {
                if (empty) {
                    fail(source, number, where + ": an empty hunk before `@@`");
                }
                mistake.hunks.emplace_back().line = number;
                old_lines = 0;
                continue;
            }
            if (empty) {
                hunk.line = number;
            }
            const char mark = line.empty() ? ' ' : line.front();
            const std::string body = (line.empty() ? std::string() : line.substr(1)) + "\n";
            if (mark == ' ') {
                hunk.old_text += body;
                hunk.new_text += body;
                hunk.origins.push_back("s" + std::to_string(old_lines++));
            } else if (mark == '-') {
                hunk.old_text += body;
                ++old_lines;
            } else if (mark == '+') {
                hunk.new_text += body;
                hunk.origins.push_back("m" + std::to_string(number));
            } else {
                fail(source, number,
                     where +
                         ": a line of a diff block starts with ' ' (context), '-' (removed) or "
                         "'+' (added), or is `@@` between two hunks; got \"" +
                         line + "\"");
            }
            continue;
        }
        if (!in_fence && opens_diff(line)) {
            if (mistakes.empty()) {
                fail(source, number, "a diff block before the first `## <slug>: <title>` heading");
            }
            Mistake& mistake = mistakes.back();
            if (mistake.diff_line != 0) {
                fail(source, number,
                     "mistake '" + mistake.slug +
                         "' has a second diff block: put every hunk in one, separated by `@@` "
                         "lines");
            }
            mistake.diff_line = number;
            mistake.hunks.emplace_back().line = number;
            old_lines = 0;
            in_diff = true;
            new_paragraph = true;
            continue;
        }
        if (in_fence || is_fence(line)) {
            in_fence = in_fence != is_fence(line);  // a fence opens or closes a code block
            continue;
        }
        if (line.starts_with("## ")) {
            const std::size_t colon = line.find(':');
            const std::string slug = colon == std::string::npos ? "" : line.substr(3, colon - 3);
            if (!is_slug(slug)) {
                fail(source, number,
                     "a mistake's heading is `## <slug>: <title>`, the slug in [a-z0-9_]+; got \"" +
                         line + "\"");
            }
            Mistake mistake;
            mistake.exercise_id = exercise_id;
            mistake.slug = slug;
            mistake.title = trim(line.substr(colon + 1));
            mistake.line = number;
            if (mistake.title.empty()) {
                fail(source, number, "mistake '" + slug + "' has no title");
            }
            if (std::ranges::find(mistakes, slug, &Mistake::slug) != mistakes.end()) {
                fail(source, number, "the slug '" + slug + "' is used twice");
            }
            mistakes.push_back(std::move(mistake));
            new_paragraph = true;
            continue;
        }
        if (mistakes.empty()) {
            continue;  // the catalogue's own title and introduction
        }
        Mistake& mistake = mistakes.back();
        const std::string trimmed = trim(line);
        if (trimmed.empty()) {
            new_paragraph = true;
        } else if (line.starts_with(caught_by)) {
            if (mistake.caught_by_line != 0) {
                fail(source, number,
                     "mistake '" + mistake.slug + "' has a second \"" + caught_by +
                         "\" line: its signature is one line");
            }
            const std::string rest = trim(line.substr(caught_by.size()));
            if (!rest.empty()) {
                mistake.caught_by = sorted_signature(parse_signature(rest, source, number));
            }
            mistake.caught_by_line = number;
            new_paragraph = true;
        } else if (line.starts_with(layout::kMistakeGpuOnly)) {
            mistake.gpu_only = true;
            mistake.gpu_reason = trim(line.substr(layout::kMistakeGpuOnly.size()));
            new_paragraph = true;
        } else if (new_paragraph || mistake.why.empty()) {
            mistake.why.push_back(trimmed);
            new_paragraph = false;
        } else {
            mistake.why.back() += " " + trimmed;
        }
    }
    if (in_diff) {
        fail(source, static_cast<int>(lines.size()),
             "mistake '" + mistakes.back().slug + "': its diff block is not closed by a line ```");
    }
    return mistakes;
}

void check_mistake_diffs(const std::vector<Mistake>& mistakes, std::string_view source,
                         std::string_view solution) {
    for (const Mistake& mistake : mistakes) {
        const std::string where = "mistake '" + mistake.slug + "'";
        if (mistake.hunks.empty()) {
            fail(source, mistake.line,
                 where + " has no ```diff block saying how it differs from " +
                     std::string(solution));
        }
        bool changed = false;
        for (std::size_t k = 0; k < mistake.hunks.size(); ++k) {
            const Hunk& hunk = mistake.hunks[k];
            if (hunk.old_text.empty()) {
                fail(source, hunk.line,
                     where + ", hunk " + std::to_string(k + 1) + " of " +
                         std::to_string(mistake.hunks.size()) +
                         " has no old text: a hunk that only adds lines needs a context line "
                         "(' ') to say where they go");
            }
            changed = changed || hunk.old_text != hunk.new_text;
        }
        if (!changed) {
            fail(source, mistake.line,
                 where + " changes nothing: its diff adds or removes no line");
        }
    }
}

std::string without_diffs(std::string_view text) {
    std::vector<std::string> kept;
    bool in_diff = false;
    for (const std::string& line : split_lines(text)) {
        if (in_diff) {
            in_diff = line != "```";
            continue;
        }
        if (line.starts_with("```diff")) {
            in_diff = true;
            if (!kept.empty() && trim(kept.back()).empty()) {
                kept.pop_back();
            }
            continue;
        }
        kept.push_back(line);
    }
    return kept.empty() ? std::string() : join(kept, "\n") + "\n";
}

std::vector<Mistake> find_mistakes(const Course& course, const Exercise& exercise) {
    std::error_code error;
    fs::path file = course.mistake_catalogue(exercise);
    if (!fs::is_regular_file(file, error)) {
        file = course.mistake_notes(exercise);
        if (!fs::is_regular_file(file, error)) {
            return {};
        }
    }
    const std::string shown = fs::relative(file, course.root(), error).generic_string();
    std::vector<Mistake> mistakes = parse_mistake_catalogue(read_file(file), exercise.id, shown);
    for (Mistake& mistake : mistakes) {
        mistake.file = file;
    }
    return mistakes;
}

RunSignature run_signature(const TestProgramRun& run) {
    RunSignature signature;
    for (const TestCaseResult& result : run.events.cases) {
        if (result.status != CaseStatus::kFailed && result.status != CaseStatus::kUnfinished) {
            continue;
        }
        (result.needs_gpu() ? signature.gpu : signature.anywhere)
            .push_back({result.name, case_failure(result, run)});
    }
    signature.anywhere = sorted_signature(std::move(signature.anywhere));
    signature.gpu = sorted_signature(std::move(signature.gpu));
    return signature;
}

Signature observed_signature(const Mistake& mistake, const RunSignature& signature) {
    return mistake.gpu_only ? signature.gpu : signature.anywhere;
}

std::vector<const Mistake*> matching_mistakes(const std::vector<Mistake>& mistakes,
                                              const TestProgramRun& run) {
    const RunSignature signature = run_signature(run);
    std::vector<const Mistake*> matches;
    for (const Mistake& mistake : mistakes) {
        if (mistake.caught_by.empty() || (mistake.gpu_only && !signature.anywhere.empty())) {
            continue;
        }
        if (signature_matches(mistake.caught_by, observed_signature(mistake, signature))) {
            matches.push_back(&mistake);
        }
    }
    return matches;
}

std::string with_signature_line(std::string_view text, const Mistake& mistake,
                                const std::string& line) {
    std::vector<std::string> lines = split_lines(text);
    if (mistake.caught_by_line > 0 && mistake.caught_by_line <= static_cast<int>(lines.size())) {
        lines[static_cast<std::size_t>(mistake.caught_by_line) - 1] = line;
    } else {
        // Before the section's diff block, or at the section's end (the next heading).
        const auto where = std::find_if(
            lines.begin() + std::clamp<std::ptrdiff_t>(mistake.line, 0, std::ssize(lines)),
            lines.end(), [](const std::string& each) {
                return each.starts_with("```diff") || each.starts_with("## ");
            });
        lines.insert(where, {line, ""});
    }
    return join(lines, "\n") + "\n";
}

}  // namespace torchlings::runner
