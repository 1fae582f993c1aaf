/// @file
/// @brief String and path helpers.
#include "core/text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <system_error>

#include "core/errors.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        lines.emplace_back(line);
        start = end + 1;
    }
    return lines;
}

bool all_digits(std::string_view text) {
    return !text.empty() && std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; });
}

std::string trim(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n\f\v";
    const std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) {
        return {};
    }
    const std::size_t last = text.find_last_not_of(kSpace);
    return std::string(text.substr(first, last - first + 1));
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string joined;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            joined += separator;
        }
        joined += items[i];
    }
    return joined;
}

std::string indent(std::string_view text, std::string_view prefix) {
    std::string result;
    for (const std::string& line : split_lines(text)) {
        result += (line.empty() ? "" : std::string(prefix)) + line + '\n';
    }
    return result;
}

std::string last_lines(std::string_view text, std::size_t count) {
    const std::vector<std::string> lines = split_lines(text);
    std::string tail;
    for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
        tail += lines[i] + '\n';
    }
    return tail;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // One row of the dynamic-programming table at a time: O(|b|) memory.
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
            diagonal = above;
        }
    }
    return row[b.size()];
}

namespace {

/// An absolute, normalised form of a path; symbolic links are resolved where the path exists.
fs::path normalised(const fs::path& path) {
    std::error_code error;
    fs::path result = fs::weakly_canonical(path, error);
    if (error) {
        result = fs::absolute(path, error).lexically_normal();
    }
    return result;
}

}  // namespace

std::string display_path(const fs::path& path, const fs::path& root) {
    if (path.empty()) {
        return {};
    }
    const fs::path full = normalised(path);
    const fs::path relative = full.lexically_relative(normalised(root));
    return relative.empty() || *relative.begin() == ".." ? full.string() : relative.string();
}

bool same_path(const fs::path& a, const fs::path& b) { return normalised(a) == normalised(b); }

Utf8Char utf8_at(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    // The sequence's length from its first byte, and the range its second byte must be in (the
    // others are 80..BF): no overlong forms, no surrogates, nothing above U+10FFFF.
    const std::size_t length = lead < 0x80                    ? 1
                               : lead >= 0xC2 && lead <= 0xDF ? 2
                               : lead >= 0xE0 && lead <= 0xEF ? 3
                               : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                              : 0;
    const unsigned low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    const unsigned high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
    std::uint32_t code = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        if (at + k >= text.size() || byte(at + k) < (k == 1 ? low : 0x80) ||
            byte(at + k) > (k == 1 ? high : 0xBF)) {
            return {lead, 0};
        }
        code = (code << 6) | (byte(at + k) & 0x3F);
    }
    return {code, length};
}

std::string valid_utf8(std::string_view text) {
    std::string result;
    result.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t length = utf8_at(text, at).length;
        result.append(length == 0 ? "\xEF\xBF\xBD" : text.substr(at, length));
        at += std::max<std::size_t>(length, 1);
    }
    return result;
}

std::string with_visible_controls(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string result;
    result.reserve(text.size());
    for (std::size_t at = 0; at < text.size(); ++at) {
        const auto c = static_cast<unsigned char>(text[at]);
        const bool c1 = c == 0xC2 && at + 1 < text.size() &&
                        static_cast<unsigned char>(text[at + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[at + 1]) <= 0x9F;
        if (c1) {  // U+0080 to U+009F: CSI (U+009B) starts an escape sequence on its own
            const auto code = static_cast<unsigned char>(text[++at]);
            result += "\\u00";
            result += kHex[code >> 4];
            result += kHex[code & 0xF];
        } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            result += "\\x";
            result += kHex[c >> 4];
            result += kHex[c & 0xF];
        } else {
            result += static_cast<char>(c);
        }
    }
    return result;
}

std::string iso_time_now() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::ostringstream text;
    text << std::put_time(&utc, "%Y-%m-%dT%H:%M:%SZ");
    return text.str();
}

std::string format_seconds(double seconds) {
    if (seconds < 10.0) {
        std::ostringstream text;
        text << std::fixed << std::setprecision(1) << seconds << " s";
        return text.str();
    }
    return std::to_string(std::llround(seconds)) + " s";
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw EnvironmentError("cannot read " + path.string() + ": " + std::strerror(errno));
    }
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

namespace {

/// The reason and fix for a failed write to `path` in `folder`, as an EnvironmentError.
[[noreturn]] void write_failed(const fs::path& path, const std::string& folder, int number) {
    std::string fix;
    if (number == EACCES || number == EPERM || number == EROFS) {
        fix = "make it writable: chmod u+w " + folder;
    } else if (number == ENOSPC || number == EDQUOT) {
        fix = "free some disk space (df -h " + folder + ")";
    } else if (number == EISDIR) {
        fix = "move the folder " + path.string() + " out of the way";
    }
    throw EnvironmentError("cannot write " + path.string() + ": " + std::strerror(number), fix);
}

/// Writes all of `content` to `fd` and closes it; the errno of the first failure, or 0.
int write_all_and_close(int fd, std::string_view content) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t count = ::write(fd, content.data() + done, content.size() - done);
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            const int number = count < 0 ? errno : ENOSPC;
            ::close(fd);
            return number;
        }
        done += static_cast<std::size_t>(count);
    }
    return ::close(fd) != 0 ? errno : 0;
}

}  // namespace

void write_file(const fs::path& path, std::string_view content) {
    std::error_code error;
    if (path.has_parent_path()) {
        fs::create_directories(path.parent_path(), error);
    }
    // POSIX calls, so that the message names the real cause (errno), never "Success".
    const std::string folder = path.has_parent_path() ? path.parent_path().string() : ".";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        write_failed(path, folder, errno);
    }
    if (const int number = write_all_and_close(fd, content); number != 0) {
        write_failed(path, folder, number);
    }
}

void replace_file(const fs::path& path, std::string_view content) {
    std::error_code error;
    // A device, a pipe or a socket (/dev/stdout, /dev/full, a FIFO) is written to, never
    // replaced: only a file, a link or nothing is.
    const fs::file_status status = fs::symlink_status(path, error);
    if (!error && fs::exists(status) && !fs::is_regular_file(status) && !fs::is_symlink(status) &&
        !fs::is_directory(status)) {
        write_file(path, content);
        return;
    }
    if (path.has_parent_path()) {
        fs::create_directories(path.parent_path(), error);
    }
    const std::string folder = path.has_parent_path() ? path.parent_path().string() : ".";
    // mkstemp: a name no other process can guess, created with O_EXCL, so a link planted at
    // any name is never followed; rename then replaces whatever `path` was (a link included)
    // with this file, so a reader sees the old file or the new one, never half of one.
    std::string temporary = path.string() + ".XXXXXX";
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) {
        write_failed(path, folder, errno);
    }
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    ::fchmod(fd, 0644);
    if (const int number = write_all_and_close(fd, content); number != 0) {
        ::unlink(temporary.c_str());
        write_failed(path, folder, number);
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const int number = errno;
        ::unlink(temporary.c_str());
        write_failed(path, folder, number);
    }
}

}  // namespace torchlings::runner
