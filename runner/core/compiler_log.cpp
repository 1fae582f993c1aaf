/// @file
/// @brief Build-log parsing without std::regex (whose libstdc++ implementation recurses per
/// character and can overflow the stack on the multi-kilobyte command lines of a build log).
#include "core/compiler_log.h"

#include <map>

#include "core/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// A source location parsed from "path:line:col", "path:line" or "path(line)".
struct Location {
    std::string file;
    int line = 0;
    int column = 0;
};

/// Digits few enough for std::stoi.
bool is_number(std::string_view text) { return text.size() < 9 && all_digits(text); }

/// "path:12:5" or "path:12" (gcc, clang); nothing when the text does not end in a line number.
std::optional<Location> parse_colon_location(std::string_view text) {
    const std::size_t last = text.rfind(':');
    if (last == std::string_view::npos || last == 0 || !is_number(text.substr(last + 1))) {
        return std::nullopt;
    }
    const int number = std::stoi(std::string(text.substr(last + 1)));
    const std::size_t before = text.rfind(':', last - 1);
    const std::string_view middle =
        before == std::string_view::npos ? "" : text.substr(before + 1, last - before - 1);
    if (is_number(middle)) {
        return Location{std::string(text.substr(0, before)), std::stoi(std::string(middle)),
                        number};
    }
    return Location{std::string(text.substr(0, last)), number, 0};
}

/// A diagnostic line: where (if anywhere) and what.
struct ErrorLine {
    std::optional<Location> where;
    std::string message;
};

/// gcc/clang: "<location>: error: <message>" or ": fatal error: "; also tool errors such as
/// "mold: error: ..." and "collect2: error: ...", which have no location.
std::optional<ErrorLine> parse_gcc_style(std::string_view line) {
    for (std::string_view marker : {": error: ", ": fatal error: "}) {
        const std::size_t at = line.find(marker);
        if (at != std::string_view::npos) {
            return ErrorLine{parse_colon_location(line.substr(0, at)),
                             std::string(line.substr(at + marker.size()))};
        }
    }
    if (line.rfind("error: ", 0) == 0) {
        return ErrorLine{std::nullopt, std::string(line.substr(7))};
    }
    return std::nullopt;
}

/// nvcc: "kernel.cu(12): error: <message>", also "error #20-D:" and "catastrophic error:".
std::optional<ErrorLine> parse_nvcc_style(std::string_view line) {
    for (std::string_view marker : {"): error", "): catastrophic error"}) {
        const std::size_t at = line.find(marker);
        const std::size_t open = at == std::string_view::npos ? at : line.rfind('(', at);
        const std::size_t colon =
            open == std::string_view::npos ? open : line.find(':', at + marker.size());
        const std::string_view number =
            colon == std::string_view::npos ? "" : line.substr(open + 1, at - open - 1);
        if (is_number(number)) {
            return ErrorLine{
                Location{std::string(line.substr(0, open)), std::stoi(std::string(number)), 0},
                trim(line.substr(colon + 1))};
        }
    }
    return std::nullopt;
}

/// Any line that reports an error, with its location when it has one.
std::optional<ErrorLine> parse_error_line(std::string_view line) {
    if (line.rfind("FAILED: ", 0) == 0) {
        return std::nullopt;  // ninja's echo of the command
    }
    if (auto nvcc = parse_nvcc_style(line)) {
        return nvcc;
    }
    if (auto gcc = parse_gcc_style(line)) {
        return gcc;
    }
    if (line.find("undefined reference to") != std::string_view::npos ||
        line.rfind("CMake Error", 0) == 0) {
        return ErrorLine{std::nullopt, trim(line)};
    }
    return std::nullopt;
}

/// The line under a quoted source line that points at the column: `^`, with `~` under the rest.
bool is_caret_line(std::string_view line) {
    return line.find('^') != std::string_view::npos &&
           line.find_first_not_of(" \t^~") == std::string_view::npos;
}

/// Lines the compiler prints under an error: the quoted source, the caret, linker details.
/// gcc and Clang 17+ number the quoted line (`   3 | code`); Clang 16 and older quote it as it
/// stands in the file, often unindented, so such a line counts when a caret line follows it.
bool is_context_line(const std::vector<std::string>& lines, std::size_t index) {
    const std::string& line = lines[index];
    return !line.empty() &&
           (line.front() == ' ' || line.front() == '\t' || line.starts_with(">>>") ||
            is_caret_line(line) || (index + 1 < lines.size() && is_caret_line(lines[index + 1])));
}

/// Compares printed paths with the learner's file, resolving each printed path once.
class LearnerFileMatcher {
  public:
    LearnerFileMatcher(fs::path learner_file, fs::path build_dir)
        : learner_file_(std::move(learner_file)), build_dir_(std::move(build_dir)) {}

    bool matches(const std::string& printed) {
        const auto [cached, inserted] = cache_.try_emplace(printed, false);
        if (inserted) {
            const fs::path path(printed);
            cached->second =
                same_path(path.is_relative() ? build_dir_ / path : path, learner_file_);
        }
        return cached->second;
    }

  private:
    fs::path learner_file_;
    fs::path build_dir_;
    std::map<std::string, bool> cache_;
};

/// The location in a line that ties the learner's file to a diagnostic: an #include chain
/// ("In file included from f:3:", "from f:3,") or an instantiation ("f:12:20:   required from").
std::optional<Location> learner_origin(std::string_view line, LearnerFileMatcher& matcher) {
    std::optional<std::string_view> text;
    for (std::string_view prefix : {"In file included from ", "from "}) {
        const std::size_t at = line.find(prefix);
        if (!text && at != std::string_view::npos && trim(line.substr(0, at)).empty()) {
            text = line.substr(at + prefix.size());
            while (!text->empty() && (text->back() == ':' || text->back() == ',')) {
                text->remove_suffix(1);
            }
        }
    }
    const std::size_t required = line.find(":   required from");
    if (!text && required != std::string_view::npos) {
        text = line.substr(0, required);
    }
    auto where = text ? parse_colon_location(*text) : std::nullopt;
    return where && matcher.matches(where->file) ? where : std::nullopt;
}

CompilerError make_error(const std::vector<std::string>& lines, std::size_t index,
                         ErrorLine parsed) {
    CompilerError error;
    if (parsed.where) {
        error.file = parsed.where->file;
        error.line = parsed.where->line;
        error.column = parsed.where->column;
    }
    error.message = std::move(parsed.message);
    error.headline = lines[index];
    for (std::size_t i = index + 1;
         i < lines.size() && is_context_line(lines, i) && error.context.size() < kMaxContextLines;
         ++i) {
        error.context.push_back(lines[i]);
    }
    return error;
}

}  // namespace

std::optional<CompilerError> first_error(std::string_view log, const fs::path& learner_file,
                                         const fs::path& build_dir) {
    const std::vector<std::string> lines = split_lines(log);
    LearnerFileMatcher matcher(learner_file, build_dir);
    std::optional<std::pair<std::size_t, ErrorLine>> first_any;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::optional<ErrorLine> parsed = parse_error_line(lines[i]);
        if (!parsed) {
            continue;
        }
        if (parsed->where && matcher.matches(parsed->where->file)) {
            CompilerError error = make_error(lines, i, std::move(*parsed));
            error.in_learner_file = true;
            return error;
        }
        if (!first_any) {
            first_any.emplace(i, std::move(*parsed));
        }
    }
    if (!first_any) {
        return std::nullopt;
    }

    CompilerError error = make_error(lines, first_any->first, std::move(first_any->second));
    // gcc prints the include chain and "required from here" just before the error itself.
    for (std::size_t i = first_any->first; i-- > 0;) {
        if (parse_error_line(lines[i])) {
            break;  // the previous diagnostic
        }
        if (auto origin = learner_origin(lines[i], matcher)) {
            error.origin_file = origin->file;
            error.origin_line = origin->line;
            break;
        }
    }
    return error;
}

}  // namespace torchlings::runner
