/// @file
/// @brief Unit tests of exercises/info.json loading, its error messages, and name resolution.
#include <catch2/catch.hpp>

#include "temp_dir.h"
#include "tl_runner/course.h"
#include "tl_runner/errors.h"
#include "tl_runner/text.h"

namespace tl = torchlings::runner;
using Catch::Contains;

namespace {

const std::filesystem::path kFixtures = TL_RUNNER_FIXTURES;

/// A valid document with one lesson and two exercises; tests break one piece of it.
constexpr const char* kValid = R"({
  "format_version": 1,
  "lessons": [{"number": "01", "dir": "01_availability", "title": "Availability checks"},
              {"number": "02", "dir": "02_devices", "title": "Device objects"}],
  "exercises": [
    {"id": "choose_device", "lesson": "01", "title": "Choose", "timeout_s": 12,
     "given_tests": ["compiles"], "hints": ["h1", "h2", "h3"]},
    {"id": "parse_device", "lesson": "01", "title": "Parse", "hints": []},
    {"id": "device_index", "lesson": "02", "title": "Index", "hints": ["h"]}
  ]
})";

tl::Course parse(const std::string& text) {
    return tl::Course::parse(text, "/course", "exercises/info.json");
}

/// kValid with one substring replaced.
std::string with(const std::string& from, const std::string& to) {
    std::string text = kValid;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("the fixture course loads, with defaults for optional keys") {
    const tl::Course course = tl::Course::load(kFixtures);
    REQUIRE(course.lessons().size() == 1);
    CHECK(course.lessons()[0].dir == "00_fixtures");
    REQUIRE(course.exercises().size() == 7);
    const tl::Exercise* hang = course.find_exercise("fx_hang");
    REQUIRE(hang != nullptr);
    CHECK(hang->timeout_s == 2);
    CHECK(course.learner_file(*hang) == kFixtures / "exercises/00_fixtures/fx_hang.cpp");
    CHECK(course.test_file(*hang) == kFixtures / "tests/exercises/00_fixtures/fx_hang_test.cpp");
    CHECK(course.solution_file(*hang) == kFixtures / "solutions/00_fixtures/fx_hang.cpp");
    CHECK(parse(kValid).find_exercise("parse_device")->timeout_s == tl::kDefaultTimeoutS);
    CHECK(parse(kValid).find_exercise("choose_device")->given_tests ==
          std::vector<std::string>{"compiles"});
}

TEST_CASE("a missing metadata file says which file was expected") {
    const tl::testing::TempDir dir;
    REQUIRE_THROWS_AS(tl::Course::load(dir.path()), tl::EnvironmentError);
    REQUIRE_THROWS_WITH(tl::Course::load(dir.path()),
                        Contains("exercises/info.json") && Contains("does not exist"));
}

TEST_CASE("invalid JSON is reported with its position") {
    REQUIRE_THROWS_WITH(parse("{\"format_version\": 1,\n \"lessons\": [}"),
                        Contains("exercises/info.json is not valid JSON") && Contains("line 2") &&
                            !Contains("json.exception"));
}

TEST_CASE("metadata errors name the object, the key and what was expected") {
    CHECK_THROWS_WITH(parse(with("\"hints\": [\"h\"]", "\"tips\": [\"h\"]")),
                      Contains("exercises[2] (\"device_index\")") &&
                          Contains("missing key \"hints\" (expected an array of strings)"));
    CHECK_THROWS_WITH(
        parse(with("\"timeout_s\": 12", "\"timeout_s\": \"12\"")),
        Contains(
            "\"timeout_s\": expected a positive whole number of seconds, got a string \"12\""));
    CHECK_THROWS_WITH(parse(with("\"title\": \"Parse\", ", "")),
                      Contains("exercises[1] (\"parse_device\"): missing key \"title\""));
    CHECK_THROWS_WITH(parse(with("\"hints\": [\"h1\"", "\"hints\": [1")),
                      Contains("\"hints\"[0]: expected a string, got a number 1"));
    CHECK_THROWS_WITH(parse(with("\"format_version\": 1", "\"format_version\": 2")),
                      Contains("\"format_version\" is 2, but this runner reads format 1"));
    CHECK_THROWS_WITH(parse(with("\"format_version\": 1,", "")),
                      Contains("missing key \"format_version\""));
    CHECK_THROWS_WITH(
        parse(with("\"lesson\": \"02\"", "\"lesson\": \"07\"")),
        Contains("names lesson \"07\", which is not in \"lessons\" (expected one of: 01, 02)"));
    CHECK_THROWS_WITH(parse(with("\"id\": \"device_index\"", "\"id\": \"parse_device\"")),
                      Contains("\"parse_device\" appears twice"));
    CHECK_THROWS_WITH(parse(with("\"id\": \"device_index\"", "\"id\": \"Device-Index\"")),
                      Contains("expected lowercase letters, digits and underscores"));
    CHECK_THROWS_WITH(
        parse(with("\"dir\": \"02_devices\"", "\"dir\": \"devices\"")),
        Contains("lessons[1]: \"dir\": expected a folder name that starts with \"02_\""));
    CHECK_THROWS_WITH(parse("[]"), Contains("top level: expected an object, got an array"));
}

TEST_CASE("an id, a lesson number or a lesson folder resolves to exercises") {
    const tl::Course course = parse(kValid);
    CHECK(course.resolve("parse_device").size() == 1);
    const auto lesson = course.resolve("01");
    REQUIRE(lesson.size() == 2);
    CHECK(lesson[0]->id == "choose_device");
    CHECK(course.resolve("1").size() == 2);
    CHECK(course.resolve("02_devices").size() == 1);
    CHECK(course.resolve_lesson("2").number == "02");
}

TEST_CASE("an unknown name lists the valid ids and suggests the closest") {
    const tl::Course course = parse(kValid);
    REQUIRE_THROWS_AS(course.resolve("chose_device"), tl::UsageError);
    CHECK_THROWS_WITH(course.resolve("chose_device"),
                      Contains("no exercise or lesson called \"chose_device\"") &&
                          Contains("Did you mean: choose_device?") &&
                          Contains("01  choose_device parse_device") &&
                          Contains("02  device_index"));
    CHECK_THROWS_WITH(course.resolve_exercise("01"), Contains("\"01\" is a lesson"));
    CHECK_THROWS_WITH(course.resolve_lesson("42"),
                      Contains("There is no lesson \"42\"") && Contains("01  Availability checks"));
    CHECK_THROWS_WITH(course.resolve("zzzzzzzz"), !Contains("Did you mean"));
}

TEST_CASE("closest_matches ranks typos and fragments") {
    const std::vector<std::string> ids{"choose_device", "parse_device", "device_index",
                                       "move_tensor"};
    CHECK(tl::closest_matches("chose_device", ids) == std::vector<std::string>{"choose_device"});
    CHECK(tl::closest_matches("parse_devise", ids).front() == "parse_device");
    CHECK(tl::closest_matches("device", ids).size() == 3);
    CHECK(tl::closest_matches("xyz", ids).empty());
}

TEST_CASE("the course root is found from a folder inside it") {
    const tl::testing::TempDir dir;
    dir.write("course/exercises/info.json", kValid);
    std::filesystem::create_directories(dir.path() / "course/lessons/01_x");
    CHECK(tl::same_path(tl::find_course_root(dir.path() / "course/lessons/01_x"),
                        dir.path() / "course"));
    CHECK_THROWS_AS(tl::find_course_root(dir.path()), tl::EnvironmentError);
}
