/// @file
/// @brief Unit tests of the string and path helpers.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>
#include "tl_test/catch.h"

#include "core/errors.h"
#include "core/messages.h"
#include "core/terminal.h"
#include "core/text.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
namespace fs = std::filesystem;

TEST_CASE("split_lines keeps a last line without newline and drops carriage returns") {
    CHECK(tl::split_lines("").empty());
    CHECK(tl::split_lines("a\nb") == std::vector<std::string>{"a", "b"});
    CHECK(tl::split_lines("a\r\n\nb\n") == std::vector<std::string>{"a", "", "b"});
}

TEST_CASE("trim, join, indent and last_lines") {
    CHECK(tl::trim("  x y \n") == "x y");
    CHECK(tl::trim(" \t ").empty());
    CHECK(tl::join({"a", "b", "c"}, ", ") == "a, b, c");
    CHECK(tl::indent("a\n\nb", "> ") == "> a\n\n> b\n");
    CHECK(tl::last_lines("1\n2\n3\n", 2) == "2\n3\n");
    CHECK(tl::last_lines("1\n", 5) == "1\n");
}

TEST_CASE("edit_distance counts insertions, deletions and substitutions") {
    CHECK(tl::edit_distance("", "abc") == 3);
    CHECK(tl::edit_distance("fx_pas", "fx_pass") == 1);
    CHECK(tl::edit_distance("chose_device", "choose_device") == 1);
    CHECK(tl::edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("display_path is relative inside the root and absolute outside") {
    const tl::testing::TempDir dir;
    const auto root = dir.path() / "course";
    CHECK(tl::display_path(root / "exercises" / "a.cpp", root) == "exercises/a.cpp");
    CHECK(tl::display_path(dir.path() / "elsewhere.cpp", root) ==
          (dir.path() / "elsewhere.cpp").string());
    CHECK(tl::same_path(root / "x" / ".." / "y", root / "y"));
}

TEST_CASE("format_seconds") {
    CHECK(tl::format_seconds(0.43) == "0.4 s");
    CHECK(tl::format_seconds(12.6) == "13 s");
}

TEST_CASE("read_file names the file it cannot read") {
    const tl::testing::TempDir dir;
    REQUIRE_THROWS_WITH(tl::read_file(dir.path() / "absent.json"),
                        Catch::Matchers::ContainsSubstring("absent.json"));
    tl::write_file(dir.path() / "sub" / "f.txt", "content");
    CHECK(tl::read_file(dir.path() / "sub" / "f.txt") == "content");
}

TEST_CASE("replace_file replaces a link planted at its path instead of writing through it") {
    const tl::testing::TempDir dir;
    const fs::path course_file = dir.write("course/CMakeLists.txt", "the course's own\n");
    const fs::path state = dir.path() / "state.json";
    fs::create_symlink(course_file, state);
    // And at the names the state's temporary had before: the process id is no secret.
    fs::create_symlink(course_file, state.string() + ".tmp." + std::to_string(::getpid()));

    tl::replace_file(state, "{}\n");
    CHECK(tl::read_file(course_file) == "the course's own\n");
    CHECK_FALSE(fs::is_symlink(state));
    CHECK(tl::read_file(state) == "{}\n");
    // Nothing is left beside it but the planted link.
    int entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) {
        ++entries;
    }
    CHECK(entries == 3);  // course/, state.json, the planted .tmp link
}

TEST_CASE("replace_file writes to a pipe or device instead of replacing it") {
    // A FIFO stands for /dev/stdout or /dev/full: the report goes into it, and it stays a FIFO.
    const tl::testing::TempDir dir;
    const fs::path fifo = dir.path() / "report.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = tl::read_file(fifo); });
    tl::replace_file(fifo, "into the pipe\n");
    reader.join();
    CHECK(received == "into the pipe\n");
    CHECK(fs::is_fifo(fifo));
}

TEST_CASE("a batch reports its most serious outcome, all-skipped only when all were") {
    using tl::ExitCode;
    CHECK(tl::most_serious(ExitCode::kOk, ExitCode::kAllSkipped) == ExitCode::kOk);
    CHECK(tl::most_serious(ExitCode::kAllSkipped, ExitCode::kAllSkipped) == ExitCode::kAllSkipped);
    CHECK(tl::most_serious(ExitCode::kTestsFailed, ExitCode::kBuildError) == ExitCode::kBuildError);
    CHECK(tl::most_serious(ExitCode::kOk, ExitCode::kTestsFailed) == ExitCode::kTestsFailed);
    CHECK(tl::most_serious(ExitCode::kEnvironment, ExitCode::kBuildError) ==
          ExitCode::kEnvironment);
}

TEST_CASE("runner/README.md explains exactly the exit codes that errors.h lists") {
    const std::string readme =
        tl::read_file(std::filesystem::path(TL_RUNNER_FIXTURES) / "../../../runner/README.md");
    std::set<int> documented;
    for (const std::string& line : tl::split_lines(readme)) {
        int code = 0;
        if (line.rfind("| ", 0) == 0 && std::sscanf(line.c_str(), "| %d |", &code) == 1) {
            documented.insert(code);
        }
    }
    std::set<int> listed;
    for (const tl::ExitCodeMeaning& entry : tl::kExitCodeMeanings) {
        listed.insert(static_cast<int>(entry.code));
    }
    CHECK(documented == listed);
    CHECK_THAT(tl::exit_codes_help(), Catch::Matchers::StartsWith("Exit codes: 0 all checked") &&
                                          Catch::Matchers::ContainsSubstring("64 usage error"));
}

TEST_CASE("the colour option takes auto, always or never, and a plain style adds no escapes") {
    CHECK(tl::parse_color_mode("never") == tl::ColorMode::kNever);
    CHECK(tl::parse_color_mode("always") == tl::ColorMode::kAlways);
    CHECK_THROWS_AS(tl::parse_color_mode("sometimes"), tl::UsageError);
    CHECK(tl::Style(false, false).bad("x") == "x");
    CHECK(tl::Style(true, false).bad("x") == "\x1b[31mx\x1b[0m");
    CHECK(tl::Style(false, false).pass_mark() == "PASS");
}

TEST_CASE("utf8_at reads a sequence, and refuses what is not UTF-8") {
    CHECK(tl::utf8_at("a", 0).code == 'a');
    CHECK(tl::utf8_at("\xED\x95\x9C", 0).code == 0xD55C);  // 한
    CHECK(tl::utf8_at("\xED\x95\x9C", 0).length == 3);
    CHECK(tl::utf8_at("\xF0\x9F\x98\x80", 0).code == 0x1F600);
    CHECK(tl::utf8_at("\xC0\x80", 0).length == 0);          // an overlong NUL
    CHECK(tl::utf8_at("\xE0\x80\xAF", 0).length == 0);      // an overlong '/'
    CHECK(tl::utf8_at("\xED\xA0\x80", 0).length == 0);      // a surrogate
    CHECK(tl::utf8_at("\xF4\x90\x80\x80", 0).length == 0);  // above U+10FFFF
    CHECK(tl::utf8_at("\xED\x95", 0).length == 0);          // cut short
    CHECK(tl::utf8_at("\x80", 0).length == 0);              // a continuation byte alone
}

TEST_CASE("valid_utf8 keeps valid text and replaces each invalid byte") {
    CHECK(tl::valid_utf8("ok \xED\x95\x9C") == "ok \xED\x95\x9C");
    CHECK(tl::valid_utf8("a\xFF!") == "a\xEF\xBF\xBD!");
    CHECK(tl::valid_utf8("\xC0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(tl::valid_utf8("x\xED\x95") == "x\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("display_width counts Hangul as two columns and a stray byte as one") {
    CHECK(tl::display_width("abc") == 3);
    CHECK(tl::display_width("\xED\x95\x9C\xEA\xB8\x80") == 4);  // 한글
    CHECK(tl::display_width("a\xFF") == 2);
    CHECK(tl::pad_to_width("\xED\x95\x9C", 4) == "\xED\x95\x9C  ");
}

TEST_CASE("with_visible_controls writes control characters out and keeps the rest") {
    CHECK(tl::with_visible_controls("a\tb\nc") == "a\tb\nc");
    CHECK(tl::with_visible_controls("\x1b[2J") == "\\x1b[2J");
    CHECK(tl::with_visible_controls("\x7f") == "\\x7f");
    CHECK(tl::with_visible_controls("\xC2\x9B"
                                    "31m") == "\\u009b31m");  // CSI, one character
    CHECK(tl::with_visible_controls("\xED\x95\x9C\xEA\xB8\x80 \xC2\xA9") ==
          "\xED\x95\x9C\xEA\xB8\x80 \xC2\xA9");  // Korean and (c) stay as they are
}
