/// @file
/// @brief Unit tests of the progress file: round trip, atomic save, corrupt-file recovery.
#include "tl_test/catch.h"

#include <unistd.h>

#include "core/state.h"
#include "core/text.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
namespace fs = std::filesystem;

TEST_CASE("a missing state file is an empty state without a warning") {
    const tl::testing::TempDir dir;
    const tl::StateFile state = tl::StateFile::load(dir.path() / ".torchlings/state.json");
    CHECK(state.warning().empty());
    CHECK(state.get("anything").status == tl::ExerciseStatus::kNotTried);
    CHECK(state.get("anything").hints_revealed == 0);
}

TEST_CASE("the state survives a save and a load") {
    const tl::testing::TempDir dir;
    const fs::path path = dir.path() / ".torchlings/state.json";
    tl::StateFile state = tl::StateFile::load(path);
    state.record_check("choose_device", tl::ExerciseStatus::kDone, "ab");
    state.record_check("parse_device", tl::ExerciseStatus::kBuildError, "");
    state.at("parse_device").hints_revealed = 2;
    state.save();
    CHECK(fs::exists(path));
    CHECK_FALSE(fs::exists(path.string() + ".tmp." + std::to_string(::getpid())));

    const tl::StateFile loaded = tl::StateFile::load(path);
    CHECK(loaded.warning().empty());
    CHECK(loaded.get("choose_device").status == tl::ExerciseStatus::kDone);
    CHECK_THAT(loaded.get("choose_device").checked_at,
               Catch::Matchers::Matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
    CHECK(loaded.get("parse_device").status == tl::ExerciseStatus::kBuildError);
    CHECK(loaded.get("parse_device").hints_revealed == 2);
    CHECK_THAT(tl::read_file(path),
               Catch::Matchers::ContainsSubstring("\"format_version\": 2") &&
                   Catch::Matchers::ContainsSubstring("\"source_sha256\": \"ab\"") &&
                   Catch::Matchers::ContainsSubstring("\"status\": \"build_error\""));
}

TEST_CASE("a corrupt state file is moved aside with one warning, and work goes on") {
    const tl::testing::TempDir dir;
    const fs::path path = dir.write(".torchlings/state.json", R"({"format_version": 1, "exerc)");
    tl::StateFile state = tl::StateFile::load(path);
    CHECK_THAT(state.warning(), Catch::Matchers::ContainsSubstring("not valid JSON") &&
                                    Catch::Matchers::ContainsSubstring("state.json.corrupt"));
    CHECK(fs::exists(path.string() + ".corrupt"));
    state.record_check("x", tl::ExerciseStatus::kFailing, "");
    state.save();
    // The next load is clean: the warning is given once, not on every command.
    CHECK(tl::StateFile::load(path).warning().empty());
    CHECK(tl::StateFile::load(path).get("x").status == tl::ExerciseStatus::kFailing);
}

TEST_CASE("an unknown format version starts fresh, and bad entries cost only themselves") {
    const tl::testing::TempDir dir;
    const fs::path future = dir.write("future.json", R"({"format_version": 9, "exercises": {}})");
    CHECK_THAT(tl::StateFile::load(future).warning(),
               Catch::Matchers::ContainsSubstring("format_version is 9, expected 2"));

    const fs::path odd = dir.write("odd.json", R"({"format_version": 2, "exercises": {
        "good": {"status": "done", "hints_revealed": 1},
        "weird": 42,
        "unknown_status": {"status": "sleeping", "hints_revealed": "two"}}})");
    const tl::StateFile state = tl::StateFile::load(odd);
    CHECK(state.warning().empty());
    CHECK(state.get("good").status == tl::ExerciseStatus::kDone);
    CHECK(state.get("weird").status == tl::ExerciseStatus::kNotTried);
    CHECK(state.get("unknown_status").status == tl::ExerciseStatus::kNotTried);
    CHECK(state.get("unknown_status").hints_revealed == 0);
}

TEST_CASE("status words round-trip") {
    for (auto status :
         {tl::ExerciseStatus::kDone, tl::ExerciseStatus::kFailing, tl::ExerciseStatus::kBuildError,
          tl::ExerciseStatus::kSkipped, tl::ExerciseStatus::kNotTried}) {
        CHECK(tl::parse_status(tl::status_key(status)) == status);
    }
    CHECK(tl::status_label(tl::ExerciseStatus::kBuildError) == "build error");
}

TEST_CASE("done holds only while the file has the hash it was checked with") {
    tl::ExerciseState state;
    state.status = tl::ExerciseStatus::kDone;
    state.source_sha256 = "abc";
    CHECK(state.effective("abc") == tl::ExerciseStatus::kDone);
    CHECK(state.effective("abd") == tl::ExerciseStatus::kChanged);
    CHECK(state.effective("") == tl::ExerciseStatus::kChanged);  // the file is gone
    state.source_sha256.clear();
    CHECK(state.effective("") == tl::ExerciseStatus::kChanged);  // no hash: never trusted
    state.status = tl::ExerciseStatus::kFailing;
    CHECK(state.effective("other") == tl::ExerciseStatus::kFailing);
    CHECK(tl::status_label(tl::ExerciseStatus::kChanged) == "changed");
}

TEST_CASE("a version-1 state file keeps its hints, drops its statuses, and says so") {
    const tl::testing::TempDir dir;
    const fs::path path = dir.write("state.json", R"({"format_version": 1, "exercises": {
        "a": {"status": "done", "hints_revealed": 2, "checked_at": "2025-01-01T00:00:00Z"}}})");
    tl::StateFile state = tl::StateFile::load(path);
    CHECK_THAT(state.warning(), Catch::Matchers::ContainsSubstring("older torchlings") &&
                                    Catch::Matchers::ContainsSubstring("check --all"));
    CHECK(state.get("a").status == tl::ExerciseStatus::kNotTried);
    CHECK(state.get("a").hints_revealed == 2);
    state.save();
    CHECK(tl::StateFile::load(path).warning().empty());
    CHECK(tl::StateFile::load(path).get("a").hints_revealed == 2);
}

TEST_CASE("the current exercise and a forgotten check survive a save") {
    const tl::testing::TempDir dir;
    const fs::path path = dir.path() / "state.json";
    tl::StateFile state = tl::StateFile::load(path);
    state.set_current("b");
    state.record_check("a", tl::ExerciseStatus::kDone, "ff");
    state.at("a").hints_revealed = 1;
    state.forget_check("a");
    state.forget_check("never_seen");
    state.save();
    const tl::StateFile loaded = tl::StateFile::load(path);
    CHECK(loaded.current() == "b");
    CHECK(loaded.get("a").status == tl::ExerciseStatus::kNotTried);
    CHECK(loaded.get("a").source_sha256.empty());
    CHECK(loaded.get("a").hints_revealed == 1);
}

TEST_CASE("a save writes only the fields this process changed onto the file as it is now") {
    const tl::testing::TempDir dir;
    const fs::path path = dir.path() / "state.json";
    tl::StateFile checker = tl::StateFile::load(path);  // a long check starts
    tl::StateFile hinter = tl::StateFile::load(path);   // a hint is given meanwhile
    hinter.at("a").hints_revealed = 2;
    hinter.set_current("a");
    hinter.save();
    checker.record_check("a", tl::ExerciseStatus::kDone, "ff");
    checker.save();
    const tl::StateFile loaded = tl::StateFile::load(path);
    CHECK(loaded.get("a").status == tl::ExerciseStatus::kDone);
    CHECK(loaded.get("a").source_sha256 == "ff");
    CHECK(loaded.get("a").hints_revealed == 2);
    CHECK(loaded.current() == "a");
    CHECK(checker.get("a").hints_revealed == 2);  // the saver now holds the merged state
}

TEST_CASE("a state file of any depth, size or count is read without crashing") {
    const tl::testing::TempDir dir;
    const fs::path deep = dir.write("deep.json", std::string(100000, '['));
    const tl::StateFile from_deep = tl::StateFile::load(deep);
    CHECK_THAT(from_deep.warning(), Catch::Matchers::ContainsSubstring("nests more than"));
    CHECK(fs::exists(dir.path() / "deep.json.corrupt"));

    const fs::path counts = dir.write(
        "counts.json",
        R"({"format_version": 2, "exercises": {"a": {"hints_revealed": 99999999999999999999},
        "b": {"hints_revealed": 2147483648}, "c": {"hints_revealed": -3}}})");
    const tl::StateFile from_counts = tl::StateFile::load(counts);
    CHECK(from_counts.warning().empty());
    CHECK(from_counts.get("a").hints_revealed == 1000);
    CHECK(from_counts.get("b").hints_revealed == 1000);
    CHECK(from_counts.get("c").hints_revealed == 0);
}
