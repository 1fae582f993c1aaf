/// @file
/// @brief Reading the TEST_CASEs of a test source: a minimal C++ lexer that tells code from
/// comments and literals, enough to find each case's name, tags, line and code.
#include "teacher/case_sources.h"

#include <algorithm>

namespace torchlings::runner {
namespace {

/// The longest test case whose source is quoted as its test_code, in lines.
constexpr int kMaxTestCodeLines = 200;

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
}  // namespace

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

}  // namespace torchlings::runner
