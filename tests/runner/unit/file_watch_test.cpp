/// @file
/// @brief Unit tests of FileWatch: saves in place and by rename, other files, bursts of writes,
/// polling (a save that keeps the bytes, an edit within one modification time), and the fall
/// back to polling when the folder cannot be watched.
#include "tl_test/catch.h"

#include <poll.h>
#include <chrono>
#include <cstdio>
#include <thread>

#include "core/text.h"
#include "learner/file_watch.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = tl::FileWatch::Clock;

namespace {

/// Waits as `watch` does, for at most `limit`; true when a save was reported.
bool saw_save(tl::FileWatch& watch, std::chrono::milliseconds limit = 2000ms) {
    const Clock::time_point deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
        const std::optional<std::chrono::milliseconds> wait = watch.wait_limit(Clock::now());
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
        const auto timeout = wait ? std::min(*wait, left) : left;
        pollfd fd{watch.fd(), POLLIN, 0};
        poll(&fd, 1, static_cast<int>(std::max(timeout, 0ms).count()));
        if (watch.collect(Clock::now())) {
            return true;
        }
    }
    return false;
}

#if defined(__linux__)
/// Saves as many editors do: a new file, renamed over the old one (the notification case below).
void save_by_rename(const fs::path& file, std::string_view content) {
    const fs::path temporary = file.parent_path() / ("." + file.filename().string() + ".swp");
    tl::write_file(temporary, content);
    fs::rename(temporary, file);
}
#endif

}  // namespace

#if defined(__linux__)

TEST_CASE("watch: notifications see saves in place and by rename, and nothing else") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.write("ex/add.cpp", "int a;\n");
    tl::FileWatch watch(file, false, 250ms);
    REQUIRE(watch.notifying());
    CHECK(watch.method() == "file notifications (inotify)");
    watch.mark_checked();
    CHECK_FALSE(saw_save(watch, 300ms));

    tl::write_file(file, "int a;\n");  // the same bytes, in place
    CHECK(saw_save(watch));
    CHECK_FALSE(saw_save(watch, 300ms));

    save_by_rename(file, "int b;\n");
    CHECK(saw_save(watch));
    CHECK_FALSE(saw_save(watch, 300ms));

    dir.write("ex/other.cpp", "int c;\n");
    CHECK_FALSE(saw_save(watch, 300ms));
}

TEST_CASE("watch: a burst of writes is one save, reported once the file is quiet") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.write("add.cpp", "int a;\n");
    tl::FileWatch watch(file, false, 250ms);
    REQUIRE(watch.notifying());
    watch.mark_checked();
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < 4; ++i) {
        tl::write_file(file, "int a" + std::to_string(i) + ";\n");
        std::this_thread::sleep_for(30ms);
    }
    CHECK(saw_save(watch));
    CHECK(Clock::now() - start >= 90ms + tl::FileWatch::kQuiet);
    CHECK_FALSE(saw_save(watch, 300ms));
}

TEST_CASE("watch: a save before mark_checked() is part of the check") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.write("add.cpp", "int a;\n");
    tl::FileWatch watch(file, false, 250ms);
    REQUIRE(watch.notifying());
    tl::write_file(file, "int b;\n");
    watch.mark_checked();
    CHECK_FALSE(saw_save(watch, 300ms));
}

#endif

TEST_CASE("watch: polling notices a save that keeps the bytes") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.write("add.cpp", "int a;\n");
    tl::FileWatch watch(file, true, 20ms);
    CHECK_FALSE(watch.notifying());
    CHECK(watch.fd() == -1);
    CHECK(watch.method() == "polling every 20 ms");
    CHECK(watch.reason().empty());
    watch.mark_checked();
    CHECK_FALSE(saw_save(watch, 200ms));

    tl::write_file(file, "int a;\n");
    fs::last_write_time(file, fs::last_write_time(file) + 1s);
    CHECK(saw_save(watch));
    CHECK_FALSE(saw_save(watch, 200ms));
}

TEST_CASE("watch: polling notices an edit that keeps the size and the modification time") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.write("add.cpp", "int a;\n");
    tl::FileWatch watch(file, true, 20ms);
    watch.mark_checked();
    const fs::file_time_type modified = fs::last_write_time(file);
    tl::write_file(file, "int b;\n");
    fs::last_write_time(file, modified);
    CHECK(saw_save(watch));
}

TEST_CASE("watch: a folder that cannot be watched is polled, and says why") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.path() / "later" / "add.cpp";
    tl::FileWatch watch(file, false, 20ms);
    CHECK_FALSE(watch.notifying());
    CHECK_FALSE(watch.reason().empty());
    watch.mark_checked();
    CHECK_FALSE(saw_save(watch, 200ms));
    dir.write("later/add.cpp", "int a;\n");
    CHECK(saw_save(watch));
}
