/// @file snapshot_test.cpp
/// @brief Unit tests of torchlings/snapshot.h: whole-or-nothing writes, the newest whole snapshot
/// found again, damaged ones refused, the folder's lock.
#include <torchlings/snapshot.h>

#include "tl_test/catch.h"
#include "tl_test/temp_folder.h"

#include <unistd.h>

#include <algorithm>
#include <functional>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace snap = torchlings::snap;

/// A fresh folder for one test, removed at its end.
using tl_test::names_in;

struct TempFolder : tl_test::TempFolder {
    TempFolder() : tl_test::TempFolder("tl-snapshot-") {}
};

std::string error_of(const std::function<void()>& body) {
    try {
        body();
    } catch (const snap::SnapshotError& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a snapshot written is found again, the newest first", "[snapshot]") {
    const TempFolder temp;
    const snap::SnapshotFolder folder(temp.path / "job", true);
    folder.write(5, "five");
    folder.write(10, std::string("ten\0with a zero byte", 20));
    std::vector<std::string> refused;
    const auto found = folder.newest([&](const std::string& line) { refused.push_back(line); });
    REQUIRE(found.has_value());
    CHECK(found->step == 10);
    CHECK(found->payload == std::string("ten\0with a zero byte", 20));
    CHECK(refused.empty());
}

TEST_CASE("only the newest snapshots are kept, and no temporary file stays", "[snapshot]") {
    const TempFolder temp;
    const snap::SnapshotFolder folder(temp.path, true);
    for (int step = 1; step <= 4; ++step) {
        folder.write(step, "payload " + std::to_string(step), 2);
    }
    CHECK(names_in(temp.path) ==
          std::vector<std::string>{"lock", "snapshot-00000003.tls", "snapshot-00000004.tls"});
}

TEST_CASE("a truncated snapshot is refused in one line and the previous one used", "[snapshot]") {
    const TempFolder temp;
    const snap::SnapshotFolder folder(temp.path, true);
    folder.write(5, std::string(1000, 'a'));
    const auto newest = folder.write(10, std::string(1000, 'b'));
    fs::resize_file(newest, fs::file_size(newest) - 10);
    std::vector<std::string> refused;
    const auto found = folder.newest([&](const std::string& line) { refused.push_back(line); });
    REQUIRE(found.has_value());
    CHECK(found->step == 5);
    REQUIRE(refused.size() == 1);
    CHECK_THAT(refused[0], Catch::Matchers::ContainsSubstring("snapshot-00000010.tls refused: it "
                                                              "is truncated (990 of 1000 bytes); "
                                                              "using snapshot-00000005.tls"));
}

TEST_CASE("a damaged snapshot is refused by its checksum", "[snapshot]") {
    const TempFolder temp;
    const snap::SnapshotFolder folder(temp.path, true);
    const auto file = folder.write(3, std::string(100, 'x'));
    {
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(-1, std::ios::end);
        f.put('y');
    }
    std::vector<std::string> refused;
    CHECK_FALSE(folder.newest([&](const std::string& line) { refused.push_back(line); }));
    REQUIRE(refused.size() == 1);
    CHECK_THAT(refused[0], Catch::Matchers::ContainsSubstring("is damaged (checksum"));
    CHECK_THAT(refused[0], Catch::Matchers::ContainsSubstring("no older snapshot"));
}

TEST_CASE("a second writer of one folder is refused while the first lives", "[snapshot]") {
    const TempFolder temp;
    {
        const snap::SnapshotFolder first(temp.path, true);
        const auto message = error_of([&] { const snap::SnapshotFolder second(temp.path, true); });
        CHECK_THAT(message, Catch::Matchers::ContainsSubstring("is in use by another job (pid " +
                                                               std::to_string(::getpid())));
        // Readers (the other ranks) need no lock.
        const snap::SnapshotFolder reader(temp.path, false);
        CHECK_FALSE(reader.newest(nullptr).has_value());
    }
    // The first one gone, its lock is free again (as after a restart).
    CHECK(error_of([&] { const snap::SnapshotFolder again(temp.path, true); }).empty());
}

TEST_CASE("a folder that cannot be created is refused before anything else", "[snapshot]") {
    const TempFolder temp;
    std::ofstream(temp.path / "a-file") << "not a folder\n";
    const auto message =
        error_of([&] { const snap::SnapshotFolder folder(temp.path / "a-file" / "sub", true); });
    CHECK_THAT(message, Catch::Matchers::ContainsSubstring("cannot be created"));
}

TEST_CASE("a reader cannot write", "[snapshot]") {
    const TempFolder temp;
    const snap::SnapshotFolder reader(temp.path, false);
    CHECK_THAT(error_of([&] { reader.write(1, "x"); }),
               Catch::Matchers::ContainsSubstring("only its writer (rank 0) writes"));
}

TEST_CASE("a killed writer's temporary file is removed and never read", "[snapshot]") {
    const TempFolder temp;
    std::ofstream(temp.path / "snapshot-00000009.tls.tmp-123") << "half a snapshot";
    const snap::SnapshotFolder folder(temp.path, true);
    CHECK_FALSE(folder.newest(nullptr).has_value());
    CHECK(names_in(temp.path) == std::vector<std::string>{"lock"});
}
