/// @file
/// @brief Unit tests of the hashes and the manifests built on them.
#include "tl_test/catch.h"

#include "core/errors.h"
#include "core/hashing.h"
#include "core/text.h"
#include "teacher/manifest.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
namespace fs = std::filesystem;

TEST_CASE("SHA-256 and git blob ids match their published values") {
    // FIPS 180-2's example, and what `printf 'hello\n' | git hash-object --stdin` prints.
    CHECK(tl::sha256_hex("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(tl::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(tl::git_blob_id("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");
    CHECK(tl::git_blob_id("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}

TEST_CASE("a file's hash is that of its bytes, and an unreadable file has none") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.write("a.cpp", "abc");
    CHECK(tl::sha256_file(file) == tl::sha256_hex("abc"));
    CHECK(tl::sha256_file_or_empty(dir.path() / "missing.cpp").empty());
    CHECK_THROWS_AS(tl::sha256_file(dir.path() / "missing.cpp"), tl::EnvironmentError);
}

TEST_CASE("a hash list survives a write and a read") {
    const tl::testing::TempDir dir;
    const fs::path file = dir.path() / "m.json";
    tl::write_hash_list(file, "files", {{"tests/a_test.cpp", "11"}, {"cmake/x.cmake", "22"}});
    const tl::HashList read = tl::read_hash_list(file, "files");
    REQUIRE(read.size() == 2);
    CHECK(read.at("tests/a_test.cpp") == "11");
    CHECK(read.at("cmake/x.cmake") == "22");
}

TEST_CASE("a bad manifest is an error that says what was expected") {
    const tl::testing::TempDir dir;
    auto message_for = [&](std::string_view text) {
        const fs::path file = dir.write("m.json", text);
        try {
            (void)tl::read_hash_list(file, "files");
        } catch (const tl::EnvironmentError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message_for("{oops"),
               Catch::Matchers::ContainsSubstring("not valid JSON") &&
                   Catch::Matchers::ContainsSubstring("expected a JSON object"));
    CHECK_THAT(message_for(R"({"format_version": 3, "files": {}})"),
               Catch::Matchers::ContainsSubstring("format_version 3") &&
                   Catch::Matchers::ContainsSubstring("expected 1"));
    CHECK_THAT(message_for(R"({"format_version": 1})"),
               Catch::Matchers::ContainsSubstring("no \"files\" object"));
    CHECK_THAT(message_for(R"({"format_version": 1, "files": {"a": 1}})"),
               Catch::Matchers::ContainsSubstring("the hash of a is not a string"));
}

TEST_CASE("a file the manifest does not list is passed over only when no build step takes it in") {
    // Notes, pictures and documents: a compiler, an include search or a CMake glob never reads
    // them.
    for (const char* inert : {"notes.txt", "exercises/01_availability/notes.TXT", "plot.png",
                              "report.pdf", "timings.csv", "build.log"}) {
        CAPTURE(inert);
        CHECK(tl::is_inert_file(inert));
    }
    // Sources, headers (also without an extension, as <vector> is) and CMake files can change how
    // a test compiles.
    for (const char* active :
         {"exercises/01_availability/helper.h", "tests/tl_test/catch.h",
          "common/include/torchlings/device", "CMakeLists.txt",
          "lessons/01_availability/CMakeLists.txt", "cmake/Extra.cmake", "tests/x.hpp",
          "tests/x.inc", "exercises/x.cu", "CMakePresets.json", "CMakeUserPresets.json", "a.cpp"}) {
        CAPTURE(active);
        CHECK_FALSE(tl::is_inert_file(active));
    }
}
