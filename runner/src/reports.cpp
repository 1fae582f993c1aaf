/// @file
/// @brief check --json / --junit / --classroom: the outcome of `check` for tools and teachers.
///
/// Each CheckOutcome is first described once, format-neutrally (ExerciseReport: every case with
/// its status, message and source), then written in each format. The wording follows the text
/// output of `check`, without its indentation and colour.
#include "tl_runner/reports.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>

#include "tl_runner/errors.h"
#include "tl_runner/process.h"
#include "tl_runner/text.h"

namespace torchlings::runner {
using nlohmann::json;

namespace {

/// Exercism's limit on a test's `output`, in characters (bytes here, which is stricter).
constexpr std::size_t kExercismOutputLimit = 500;
/// How many lines of a test program's own output the reports keep, as the text output does.
constexpr std::size_t kOutputTailLines = 20;
/// The most characters of those lines kept (lines can be long).
constexpr std::size_t kOutputTailLimit = 4000;
/// The most failed checks of one test case described in its message.
constexpr std::size_t kMaxFailuresShown = 10;
/// The longest test case whose source is quoted as its test_code, in lines.
constexpr int kMaxTestCodeLines = 200;

// --- Test sources -------------------------------------------------------------------------

/// A TEST_CASE as declared in a test source.
struct DeclaredCase {
    std::string name;               ///< the first string literal, unescaped
    std::vector<std::string> tags;  ///< from the second string literal, without brackets
    int line = 0;                   ///< the line of `TEST_CASE`
    std::string code;  ///< the lines from TEST_CASE to the body's closing brace; empty if unsure
};

[[nodiscard]] bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// A minimal C++ lexer: enough to tell code from comments and literals, and to count lines.
class Lexer {
  public:
    enum class Kind { kEnd, kSpace, kComment, kString, kChar, kIdentifier, kPunct };

    explicit Lexer(std::string_view source) : source_(source) {}

    /// Consumes one token and returns its kind; text() is the token.
    Kind next() {
        start_ = pos_;
        if (pos_ >= source_.size()) {
            return Kind::kEnd;
        }
        const char c = source_[pos_];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(1);
            return Kind::kSpace;
        }
        if (source_.substr(pos_, 2) == "//") {
            while (pos_ < source_.size() && source_[pos_] != '\n') {
                advance(1);
            }
            return Kind::kComment;
        }
        if (source_.substr(pos_, 2) == "/*") {
            const std::size_t end = source_.find("*/", pos_ + 2);
            advance(end == std::string_view::npos ? source_.size() - pos_ : end + 2 - pos_);
            return Kind::kComment;
        }
        if (c == '"' || c == '\'') {
            // A quote after a digit is a digit separator (1'000), not a character literal.
            if (c == '\'' && pos_ > 0 && is_identifier_char(source_[pos_ - 1])) {
                advance(1);
                return Kind::kPunct;
            }
            skip_quoted(c);
            return c == '"' ? Kind::kString : Kind::kChar;
        }
        if (is_identifier_char(c)) {
            while (pos_ < source_.size() && is_identifier_char(source_[pos_])) {
                advance(1);
            }
            const std::string_view word = text();
            const bool raw_prefix =
                word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
            if (raw_prefix && pos_ < source_.size() && source_[pos_] == '"') {
                skip_raw_string();
                return Kind::kString;
            }
            return Kind::kIdentifier;
        }
        advance(1);
        return Kind::kPunct;
    }

    /// The next token that is neither space nor comment.
    Kind next_significant() {
        Kind kind = next();
        while (kind == Kind::kSpace || kind == Kind::kComment) {
            kind = next();
        }
        return kind;
    }

    /// The last token read.
    [[nodiscard]] std::string_view text() const { return source_.substr(start_, pos_ - start_); }
    /// Where the last token began, and the line it began on (1-based).
    [[nodiscard]] std::size_t start() const { return start_; }
    [[nodiscard]] std::size_t position() const { return pos_; }
    [[nodiscard]] int line() const { return line_; }

  private:
    void advance(std::size_t count) {
        for (std::size_t i = 0; i < count && pos_ < source_.size(); ++i) {
            if (source_[pos_] == '\n') {
                ++line_;
            }
            ++pos_;
        }
    }

    void skip_quoted(char quote) {
        advance(1);
        while (pos_ < source_.size() && source_[pos_] != quote && source_[pos_] != '\n') {
            advance(source_[pos_] == '\\' ? 2 : 1);
        }
        advance(1);
    }

    void skip_raw_string() {
        // R"delimiter( ... )delimiter"
        const std::size_t open = source_.find('(', pos_);
        if (open == std::string_view::npos) {
            advance(source_.size() - pos_);
            return;
        }
        const std::string closing =
            ")" + std::string(source_.substr(pos_ + 1, open - pos_ - 1)) + "\"";
        const std::size_t end = source_.find(closing, open);
        advance(end == std::string_view::npos ? source_.size() - pos_
                                              : end + closing.size() - pos_);
    }

    std::string_view source_;
    std::size_t pos_ = 0;
    std::size_t start_ = 0;
    int line_ = 1;
};

/// The value of a plain string literal token ("..." with the common escapes).
std::string unquote(std::string_view literal) {
    if (literal.size() < 2 || literal.front() != '"' || literal.back() != '"') {
        return std::string(literal);
    }
    literal = literal.substr(1, literal.size() - 2);
    std::string value;
    for (std::size_t i = 0; i < literal.size(); ++i) {
        if (literal[i] != '\\' || i + 1 == literal.size()) {
            value += literal[i];
            continue;
        }
        const char escaped = literal[++i];
        switch (escaped) {
            case 'n':
                value += '\n';
                break;
            case 't':
                value += '\t';
                break;
            case '"':
            case '\'':
            case '\\':
            case '?':
                value += escaped;
                break;
            default:
                value += '\\';
                value += escaped;
        }
    }
    return value;
}

/// The tags of a Catch2 tag string: "[gpu][task_2]" gives gpu and task_2.
std::vector<std::string> split_tags(std::string_view text) {
    std::vector<std::string> tags;
    std::size_t open = text.find('[');
    while (open != std::string_view::npos) {
        const std::size_t close = text.find(']', open);
        if (close == std::string_view::npos) {
            break;
        }
        tags.emplace_back(text.substr(open + 1, close - open - 1));
        open = text.find('[', close);
    }
    return tags;
}

/// The rest of a TEST_CASE after its name: the tags and the body's extent. The lexer stands
/// just after the name's literal; returns false when the macro call is not followed by a body.
bool read_case_rest(Lexer& lexer, std::string_view source, std::size_t line_start,
                    DeclaredCase& declared) {
    int parens = 1;
    bool expect_tags = false;
    while (parens > 0) {
        const Lexer::Kind kind = lexer.next_significant();
        if (kind == Lexer::Kind::kEnd) {
            return false;
        }
        const std::string_view token = lexer.text();
        if (kind == Lexer::Kind::kString && expect_tags && declared.tags.empty()) {
            declared.tags = split_tags(unquote(token));
        }
        expect_tags = parens == 1 && token == ",";
        if (kind == Lexer::Kind::kPunct) {
            parens += token == "(" ? 1 : token == ")" ? -1 : 0;
        }
    }
    if (lexer.next_significant() != Lexer::Kind::kPunct || lexer.text() != "{") {
        return false;
    }
    int braces = 1;
    const int first_line = declared.line;
    while (braces > 0) {
        const Lexer::Kind kind = lexer.next_significant();
        if (kind == Lexer::Kind::kEnd || lexer.line() - first_line >= kMaxTestCodeLines) {
            return false;
        }
        if (kind == Lexer::Kind::kPunct) {
            braces += lexer.text() == "{" ? 1 : lexer.text() == "}" ? -1 : 0;
        }
    }
    std::size_t line_end = source.find('\n', lexer.position());
    if (line_end == std::string_view::npos) {
        line_end = source.size();
    }
    declared.code = std::string(source.substr(line_start, line_end - line_start));
    return true;
}

/// Every `TEST_CASE("name", "[tags]") { ... }` of a test source, in declaration order. Cases
/// whose name is not a plain string literal are left out; a case whose body cannot be delimited
/// keeps an empty code.
std::vector<DeclaredCase> declared_cases(std::string_view source) {
    std::vector<DeclaredCase> cases;
    Lexer lexer(source);
    for (Lexer::Kind kind = lexer.next(); kind != Lexer::Kind::kEnd; kind = lexer.next()) {
        if (kind != Lexer::Kind::kIdentifier || lexer.text() != "TEST_CASE") {
            continue;
        }
        const std::size_t macro_start = lexer.start();
        const std::size_t newline = source.rfind('\n', macro_start);
        const std::size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
        DeclaredCase declared;
        declared.line = lexer.line();
        if (lexer.next_significant() != Lexer::Kind::kPunct || lexer.text() != "(" ||
            lexer.next_significant() != Lexer::Kind::kString) {
            continue;
        }
        declared.name = unquote(lexer.text());
        if (!read_case_rest(lexer, source, line_start, declared)) {
            declared.code.clear();
        }
        cases.push_back(std::move(declared));
    }
    return cases;
}

/// The course's files that the reports quote, each read once.
class Sources {
  public:
    explicit Sources(const Context& context) : context_(context) {
        try {
            course_ = Course::load(context.root());
        } catch (const EnvironmentError&) {
            // Without the course the reports leave out test code and file names.
        }
    }

    /// The test cases declared in the exercise's test file; empty when it cannot be read.
    const std::vector<DeclaredCase>& cases_of(const Exercise& exercise) {
        auto found = cases_.find(exercise.id);
        if (found != cases_.end()) {
            return found->second;
        }
        std::vector<DeclaredCase> cases;
        if (course_ && course_->find_exercise(exercise.id) != nullptr) {
            try {
                cases = declared_cases(read_file(course_->test_file(exercise)));
            } catch (const EnvironmentError&) {
                // An unreadable test file: no source to quote.
            }
        }
        return cases_.emplace(exercise.id, std::move(cases)).first->second;
    }

    /// The declaration of one case, or nullptr.
    const DeclaredCase* find_case(const Exercise& exercise, const std::string& name) {
        const std::vector<DeclaredCase>& cases = cases_of(exercise);
        const auto found = std::find_if(cases.begin(), cases.end(), [&](const DeclaredCase& c) {
            return c.name == name || trim(c.name) == name;
        });
        return found == cases.end() ? nullptr : &*found;
    }

    /// The test file as the learner reads it; empty without the course.
    [[nodiscard]] std::string test_file(const Exercise& exercise) const {
        return has(exercise) ? context_.show(course_->test_file(exercise)) : std::string();
    }

    /// The learner's file as the learner reads it; empty without the course.
    [[nodiscard]] std::string learner_file(const Exercise& exercise) const {
        return has(exercise) ? context_.show(course_->learner_file(exercise)) : std::string();
    }

  private:
    [[nodiscard]] bool has(const Exercise& exercise) const {
        return course_ && course_->find_exercise(exercise.id) != nullptr;
    }

    const Context& context_;
    std::optional<Course> course_;
    std::map<std::string, std::vector<DeclaredCase>> cases_;
};

// --- Text helpers -------------------------------------------------------------------------

/// The text with every invalid UTF-8 sequence replaced by U+FFFD, so that JSON and XML
/// writers accept whatever a test program printed.
std::string valid_utf8(std::string_view text) {
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string result;
    result.reserve(text.size());
    std::size_t i = 0;
    const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
    const auto continuation = [&](std::size_t at, unsigned char low, unsigned char high) {
        return at < text.size() && byte(at) >= low && byte(at) <= high;
    };
    while (i < text.size()) {
        const unsigned char c = byte(i);
        std::size_t length = 0;
        if (c < 0x80) {
            length = 1;
        } else if (c >= 0xC2 && c <= 0xDF) {
            length = continuation(i + 1, 0x80, 0xBF) ? 2 : 0;
        } else if (c >= 0xE0 && c <= 0xEF) {
            const unsigned char low = c == 0xE0 ? 0xA0 : 0x80;
            const unsigned char high = c == 0xED ? 0x9F : 0xBF;
            length = continuation(i + 1, low, high) && continuation(i + 2, 0x80, 0xBF) ? 3 : 0;
        } else if (c >= 0xF0 && c <= 0xF4) {
            const unsigned char low = c == 0xF0 ? 0x90 : 0x80;
            const unsigned char high = c == 0xF4 ? 0x8F : 0xBF;
            length = continuation(i + 1, low, high) && continuation(i + 2, 0x80, 0xBF) &&
                             continuation(i + 3, 0x80, 0xBF)
                         ? 4
                         : 0;
        }
        if (length == 0) {
            result += kReplacement;
            ++i;
        } else {
            result.append(text.substr(i, length));
            i += length;
        }
    }
    return result;
}

/// Replaces invalid UTF-8 in every string of a JSON value (nlohmann::json refuses to dump it).
void make_valid_utf8(json& value) {
    if (value.is_string()) {
        value = valid_utf8(value.get_ref<const std::string&>());
    } else if (value.is_array() || value.is_object()) {
        for (json& item : value) {
            make_valid_utf8(item);
        }
    }
}

/// The end of a text, at most `limit` bytes with a note in front when something was left out;
/// never cut inside a UTF-8 sequence.
std::string tail_of(std::string_view text, std::size_t limit) {
    if (text.size() <= limit) {
        return std::string(text);
    }
    const std::string note = "[output truncated: only its end is shown]\n";
    std::size_t start = text.size() - (limit - note.size());
    while (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
        ++start;
    }
    return note + std::string(text.substr(start));
}

/// Whether the NVIDIA driver shows a GPU (/dev/nvidia0), which is what decides whether a test
/// case tagged [gpu] runs or skips itself.
bool machine_has_nvidia_gpu() {
    std::error_code error;
    return std::filesystem::exists("/dev/nvidia0", error);
}

// --- The format-neutral description -------------------------------------------------------

/// A report's verdict; the order is the order of seriousness.
enum class Status { kPass, kFail, kError };

[[nodiscard]] std::string status_name(Status status) {
    switch (status) {
        case Status::kPass:
            return "pass";
        case Status::kFail:
            return "fail";
        case Status::kError:
            return "error";
    }
    return "error";
}

/// One test case that ran (or should have run) as every report describes it.
struct CaseReport {
    std::string name;
    Status status = Status::kPass;
    std::string message;  ///< why it did not pass, in lines; empty for a pass
    std::string summary;  ///< the same in one line (JUnit's message attribute)
    std::string type;     ///< JUnit's type: assertion, todo, exception, crash, timeout, exit, ...
    bool ran = true;      ///< false for a case the program never reached
    bool timed = true;    ///< duration_s is known (the case ended)
    std::string output;   ///< what the program printed, for the case it stopped in
    std::optional<int> task_id;
    double duration_s = 0.0;
    std::string code;  ///< the source of the case, or empty
    int line = 0;      ///< where it failed in the test file, else where it is declared; or 0
    std::string failure_file;  ///< where its first failed check is, as the learner reads it
    int failure_line = 0;      ///< and on which line; 0 when unknown
};

/// A case that skipped itself, and why.
struct SkippedCase {
    std::string name;
    std::string reason;
};

/// One exercise as every report describes it.
struct ExerciseReport {
    const Exercise* exercise = nullptr;
    Status status = Status::kError;
    std::string message;  ///< for an error: what went wrong, in lines
    std::string summary;  ///< the same in one line
    std::string type;     ///< JUnit's type for that error
    bool build_failed = false;
    bool all_skipped = false;  ///< every case skipped itself: nothing was checked
    /// The error belongs to no case: a build error, a run that stopped between cases or ran none.
    bool error_outside_cases = false;
    std::vector<CaseReport> cases;  ///< in the order the program ran or declared them
    std::vector<SkippedCase> skipped;
    std::string output;  ///< the end of the program's output, when the run did not pass
    double seconds = 0.0;
    std::string test_file;  ///< as the learner reads it, or empty
};

/// The `N` of a `task_N` tag, or nothing.
std::optional<int> task_id(const std::vector<std::string>& tags) {
    static constexpr std::string_view kPrefix = "task_";
    for (const std::string& tag : tags) {
        if (tag.rfind(kPrefix, 0) != 0 || tag.size() == kPrefix.size()) {
            continue;
        }
        int value = 0;
        const char* begin = tag.data() + kPrefix.size();
        const char* end = tag.data() + tag.size();
        const auto [rest, error] = std::from_chars(begin, end, value);
        if (error == std::errc() && rest == end) {
            return value;
        }
    }
    return std::nullopt;
}

/// One failed check in one line.
std::string summarise_failure(const Failure& failure) {
    switch (failure.kind) {
        case FailureKind::kTodo:
            return failure.message;
        case FailureKind::kException:
            return "exception: " + failure.message;
        case FailureKind::kAssertion:
        case FailureKind::kCrash:
            break;
    }
    std::string text;
    if (!failure.expr.empty()) {
        text = failure.macro + "( " + failure.expr + " )";
        if (!failure.expanded.empty() && failure.expanded != failure.expr) {
            text += " with " + failure.expanded;
        }
    } else {
        text = failure.macro;
    }
    if (!failure.message.empty()) {
        text += text.empty() ? failure.message : ": " + failure.message;
    }
    return text;
}

/// Every failed check of a case (crash failures aside), separated by blank lines.
std::string describe_failures(const Context& context, const std::string& learner_file,
                              const TestCaseResult& result) {
    std::vector<std::string> parts;
    std::size_t shown = 0;
    std::size_t left_out = 0;
    for (const Failure& failure : result.failures) {
        if (failure.kind == FailureKind::kCrash) {
            continue;
        }
        if (shown == kMaxFailuresShown) {
            ++left_out;
            continue;
        }
        parts.push_back(join(describe_failure(context, learner_file, failure).lines, "\n"));
        ++shown;
    }
    if (left_out > 0) {
        parts.push_back("(" + std::to_string(left_out) + " more failed check" +
                        (left_out == 1 ? "" : "s") + " not shown)");
    }
    return join(parts, "\n\n");
}

/// The compiler error shown to learners, and where the full log is.
std::string build_error_text(const Context& context, const CheckOutcome& outcome) {
    std::vector<std::string> lines{"The build failed:"};
    const std::vector<std::string> shown = build_error_lines(context, outcome);
    lines.insert(lines.end(), shown.begin(), shown.end());
    return join(lines, "\n");
}

/// The one-line form of a build error: the error itself.
std::string build_error_summary(const Context& context, const CheckOutcome& outcome) {
    return build_error_lines(context, outcome).front();
}

/// The sentence for a run in which every case was skipped, with the reasons.
std::string all_skipped_text(const TestProgramRun& run) {
    std::vector<std::string> reasons;
    for (const TestCaseResult& result : run.events.cases) {
        std::string reason = trim(result.skip_reason);
        while (!reason.empty() && reason.back() == '.') {
            reason.pop_back();
        }
        if (!reason.empty() && std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) {
            reasons.push_back(reason);
        }
    }
    const int skipped = run.events.count(CaseStatus::kSkipped);
    std::string text = "Every test was skipped (" + std::to_string(skipped) + " of " +
                       std::to_string(run.events.cases.size()) +
                       "), so nothing was checked on this machine";
    return text + (reasons.empty() ? "." : ": " + join(reasons, "; ") + ".");
}

/// A case that did not pass: its status, message, summary and type.
void describe_failed_case(const Context& context, const std::string& learner_file,
                          const TestProgramRun& run, const TestCaseResult& result,
                          CaseReport& report) {
    const std::string failures = describe_failures(context, learner_file, result);
    const std::optional<StopText> stop = stop_text(run);
    if (&result == run.events.interrupted_case() && stop) {
        std::vector<std::string> lines{stop->headline + " while running this test.", stop->detail};
        const std::string site = crash_site(context, &result);
        if (!site.empty()) {
            lines.push_back(site);
        }
        if (!failures.empty()) {
            lines.push_back("\nEarlier in this test:\n" + failures);
        }
        report.status = Status::kError;
        report.message = join(lines, "\n");
        report.summary = stop->headline;
        report.type = stop->type;
        report.output = tail_of(run.process.output, kExercismOutputLimit);
        return;
    }
    if (result.status == CaseStatus::kUnfinished) {
        report.status = Status::kError;
        report.message = "The test did not finish.";
        report.summary = report.message;
        report.type = "unfinished";
        return;
    }
    const auto first = std::find_if(result.failures.begin(), result.failures.end(),
                                    [](const Failure& f) { return f.kind != FailureKind::kCrash; });
    if (first == result.failures.end()) {
        report.status = Status::kFail;
        report.message = "The test case failed without reporting an assertion.";
        report.summary = report.message;
        report.type = "assertion";
        return;
    }
    // An unexpected exception makes the case an error, and is what its summary names.
    const auto exception =
        std::find_if(result.failures.begin(), result.failures.end(),
                     [](const Failure& f) { return f.kind == FailureKind::kException; });
    const Failure& headline = exception != result.failures.end() ? *exception : *first;
    report.status = exception != result.failures.end() ? Status::kError : Status::kFail;
    report.message = failures;
    report.summary = summarise_failure(headline);
    report.type = std::string(kind_name(headline.kind));
    // A check's own location; an exception outside any check has only the last check's.
    if (!first->file.empty() && !first->macro.empty() && first->macro != "TEST_CASE") {
        report.failure_file = context.show(first->file);
        report.failure_line = first->line;
    }
}

/// The text with its first letter in lower case, to continue a sentence.
std::string continue_sentence(std::string text) {
    if (!text.empty() && text.front() >= 'A' && text.front() <= 'Z') {
        text.front() = static_cast<char>(text.front() - 'A' + 'a');
    }
    return text;
}

/// The verdict of a run as a whole: status, and for an error its message, summary and type.
void describe_verdict(const Context& context, const TestProgramRun& run, ExerciseReport& report) {
    const TestCaseResult* running = run.events.interrupted_case();
    const std::string where = running != nullptr ? " while running \"" + running->name + "\""
                                                 : " before any test case started";
    report.status = Status::kError;
    report.error_outside_cases = true;
    switch (run.verdict) {
        case Verdict::kPassed:
            report.status = Status::kPass;
            report.error_outside_cases = false;
            return;
        case Verdict::kFailed:
            report.status = Status::kFail;
            report.error_outside_cases = false;
            return;
        case Verdict::kAllSkipped:
            report.all_skipped = true;  // an error, but one that no case or run step caused
            report.error_outside_cases = false;
            report.message = all_skipped_text(run);
            report.type = "skipped";
            break;
        case Verdict::kCrashed:
        case Verdict::kTimedOut:
        case Verdict::kExitedEarly: {
            const StopText stop = *stop_text(run);
            std::vector<std::string> lines{stop.headline + where + ".", stop.detail};
            const std::string site = crash_site(context, running);
            if (!site.empty()) {
                lines.push_back(site);
            }
            report.message = join(lines, "\n");
            report.summary = stop.headline + where;
            report.type = stop.type;
            report.error_outside_cases = running == nullptr;
            return;
        }
        case Verdict::kNoTests:
            report.message = "The test program ran no test cases.";
            report.type = "no-tests";
            break;
        case Verdict::kNoReport:
            report.message = "The test program reported no results (exit status " +
                             std::to_string(run.process.exit_code) + ").";
            report.type = "no-report";
            break;
    }
    report.summary = report.message;
}

/// The description of one checked exercise.
ExerciseReport describe(const Context& context, Sources& sources, const CheckOutcome& outcome) {
    if (outcome.exercise == nullptr) {
        throw EnvironmentError("reports: a check outcome without its exercise");
    }
    const Exercise& exercise = *outcome.exercise;
    ExerciseReport report;
    report.exercise = &exercise;
    report.test_file = sources.test_file(exercise);
    report.seconds = outcome.build.seconds;
    if (!outcome.run) {
        report.status = Status::kError;
        report.build_failed = true;
        report.error_outside_cases = true;
        report.message = build_error_text(context, outcome);
        report.summary = build_error_summary(context, outcome);
        report.type = "build";
        return report;
    }
    const TestProgramRun& run = *outcome.run;
    report.seconds += run.process.seconds;
    describe_verdict(context, run, report);

    const std::string learner_file = sources.learner_file(exercise);
    for (const TestCaseResult& result : run.events.cases) {
        if (result.status == CaseStatus::kSkipped) {
            report.skipped.push_back({result.name, result.skip_reason});
            continue;
        }
        CaseReport item;
        item.name = result.name;
        item.task_id = task_id(result.tags);
        item.duration_s = result.duration_s;
        item.timed = result.status != CaseStatus::kUnfinished;
        if (const DeclaredCase* declared = sources.find_case(exercise, result.name)) {
            item.code = declared->code;
            item.line = declared->line;
        }
        if (result.status != CaseStatus::kPassed) {
            describe_failed_case(context, learner_file, run, result, item);
            if (item.failure_line > 0 && item.failure_file == report.test_file) {
                item.line = item.failure_line;
            }
        }
        report.cases.push_back(std::move(item));
    }
    for (const std::string& name : cases_not_run(run)) {
        CaseReport item;
        item.name = name;
        item.status = Status::kError;
        item.ran = false;
        item.timed = false;
        item.message = "This test never ran: " + continue_sentence(report.summary) + ".";
        item.summary = "not run: the program stopped early";
        item.type = "not-run";
        if (const DeclaredCase* declared = sources.find_case(exercise, name)) {
            item.code = declared->code;
            item.line = declared->line;
            item.task_id = task_id(declared->tags);
        }
        report.cases.push_back(std::move(item));
    }
    if (run.verdict != Verdict::kPassed && run.verdict != Verdict::kAllSkipped &&
        !trim(run.process.output).empty()) {
        report.output = tail_of(last_lines(run.process.output, kOutputTailLines), kOutputTailLimit);
    }
    return report;
}

// --- Exercism -----------------------------------------------------------------------------

json skipped_json(const std::vector<SkippedCase>& skipped, const std::string& prefix) {
    json list = json::array();
    for (const SkippedCase& item : skipped) {
        list.push_back({{"name", prefix + item.name}, {"reason", item.reason}});
    }
    return list;
}

json exercism_json(const ExerciseReport& report) {
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
    make_valid_utf8(results);
    return results;
}

// --- JUnit --------------------------------------------------------------------------------

/// Text for an XML attribute value or element content. Characters that XML 1.0 cannot hold at
/// all (control characters other than tab, newline and carriage return; U+FFFE, U+FFFF) are
/// written as `\xNN` or U+FFFD; invalid UTF-8 becomes U+FFFD.
std::string xml_escape(std::string_view text, bool attribute) {
    const std::string valid = valid_utf8(text);
    std::string escaped;
    escaped.reserve(valid.size());
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const char c = valid[i];
        switch (c) {
            case '&':
                escaped += "&amp;";
                continue;
            case '<':
                escaped += "&lt;";
                continue;
            case '>':
                escaped += "&gt;";
                continue;
            case '"':
                escaped += "&quot;";
                continue;
            case '\'':
                escaped += "&apos;";
                continue;
            case '\n':
                escaped += attribute ? "&#10;" : "\n";
                continue;
            case '\t':
                escaped += attribute ? "&#9;" : "\t";
                continue;
            case '\r':
                escaped += "&#13;";
                continue;
            default:
                break;
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
                        SuiteCounts& counts) {
    const std::string classname = report.exercise->lesson + "." + report.exercise->id;
    std::string body;
    counts.seconds = report.seconds;
    if (report.error_outside_cases) {
        CaseReport error;
        error.name = report.build_failed ? "build" : "run";
        error.status = Status::kError;
        error.message = report.message;
        error.summary = report.summary;
        error.type = report.type;
        error.duration_s = report.seconds;
        body += junit_case(classname, error);
        ++counts.tests;
        ++counts.errors;
    }
    for (const CaseReport& item : report.cases) {
        body += junit_case(classname, item);
        ++counts.tests;
        if (!item.ran) {
            ++counts.skipped;
        } else if (item.status == Status::kFail) {
            ++counts.failures;
        } else if (item.status == Status::kError) {
            ++counts.errors;
        }
    }
    for (const SkippedCase& item : report.skipped) {
        body += "    <testcase" + attr("name", item.name) + attr("classname", classname) +
                attr("time", seconds_text(0.0)) + ">\n      <skipped" +
                attr("message", item.reason) + "/>\n    </testcase>\n";
        ++counts.tests;
        ++counts.skipped;
    }
    if (!report.output.empty()) {
        body += "    <system-out>" + xml_escape(report.output, false) + "</system-out>\n";
    }
    return "  <testsuite" + attr("name", report.exercise->id) + counts.attributes() +
           attr("timestamp", timestamp) + ">\n" + body + "  </testsuite>\n";
}

// --- GitHub Classroom ---------------------------------------------------------------------

json classroom_test(const std::string& id, const CaseReport& item, const std::string& test_file) {
    return {{"name", id + ": " + item.name},
            {"status", status_name(item.status)},
            {"score", item.status == Status::kPass ? 1 : 0},
            {"message", item.message},
            {"test_code", item.code},
            {"filename", test_file},
            {"line_no", item.line},
            {"duration", std::llround(std::max(item.duration_s, 0.0) * 1000.0)}};
}

}  // namespace

nlohmann::json exercism_results(const Context& context, const CheckOutcome& outcome) {
    Sources sources(context);
    return exercism_json(describe(context, sources, outcome));
}

nlohmann::json check_json(const Context& context, const std::vector<CheckOutcome>& outcomes) {
    Sources sources(context);
    if (outcomes.size() == 1) {
        return exercism_json(describe(context, sources, outcomes.front()));
    }
    Status worst = Status::kPass;
    json exercises = json::array();
    for (const CheckOutcome& outcome : outcomes) {
        const ExerciseReport report = describe(context, sources, outcome);
        worst = std::max(worst, report.status);
        json entry = exercism_json(report);
        entry["id"] = outcome.exercise->id;
        entry["lesson"] = outcome.exercise->lesson;
        exercises.push_back(std::move(entry));
    }
    return {{"version", 3}, {"status", status_name(worst)}, {"exercises", std::move(exercises)}};
}

std::string junit_report(const Context& context, const std::vector<CheckOutcome>& outcomes) {
    Sources sources(context);
    const std::string timestamp = iso_time_now();
    SuiteCounts total;
    std::string suites;
    for (const CheckOutcome& outcome : outcomes) {
        SuiteCounts counts;
        suites += junit_suite(describe(context, sources, outcome), timestamp, counts);
        total.add(counts);
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
           attr("name", "torchlings check") + total.attributes() + ">\n" + suites +
           "</testsuites>\n";
}

nlohmann::json classroom_report(const Context& context, const std::vector<CheckOutcome>& outcomes) {
    Sources sources(context);
    json tests = json::array();
    json skipped = json::array();
    std::optional<Status> worst;
    const bool has_gpu = machine_has_nvidia_gpu();
    const auto add = [&](const std::string& id, const CaseReport& item,
                         const std::string& test_file) {
        tests.push_back(classroom_test(id, item, test_file));
        worst = worst ? std::max(*worst, item.status) : item.status;
    };
    for (const CheckOutcome& outcome : outcomes) {
        const ExerciseReport report = describe(context, sources, outcome);
        const std::string& id = report.exercise->id;
        if (!report.all_skipped) {
            // An exercise whose every case skipped itself scores nothing and fails nothing.
            worst = worst ? std::max(*worst, report.status) : report.status;
        }
        if (report.error_outside_cases && report.cases.empty()) {
            // A build error, or a run that reached no case: every declared case scores 0, so
            // that max_score is the same as for a run that works.
            std::vector<DeclaredCase> declared = sources.cases_of(*report.exercise);
            if (declared.empty()) {
                declared.push_back({report.build_failed ? "build" : "run", {}, 0, {}});
            }
            for (const DeclaredCase& source : declared) {
                // A GPU case would have skipped itself on a machine without one, so it counts
                // here as it would have after a working build: out of max_score.
                if (!has_gpu &&
                    std::find(source.tags.begin(), source.tags.end(), "gpu") != source.tags.end()) {
                    skipped.push_back({{"name", id + ": " + source.name},
                                       {"reason", "needs a CUDA GPU, and this machine has none"}});
                    continue;
                }
                CaseReport item;
                item.name = source.name;
                item.status = Status::kError;
                item.message = report.message;
                item.code = source.code;
                item.line = source.line;
                add(id, item, report.test_file);
            }
            continue;
        }
        for (const CaseReport& item : report.cases) {
            add(id, item, report.test_file);
        }
        for (const json& entry : skipped_json(report.skipped, id + ": ")) {
            skipped.push_back(entry);
        }
    }
    json result = {{"version", 1},
                   {"status", status_name(worst.value_or(Status::kError))},
                   {"max_score", tests.size()},
                   {"tests", std::move(tests)},
                   {"torchlings_skipped", std::move(skipped)}};
    make_valid_utf8(result);
    return result;
}

}  // namespace torchlings::runner
