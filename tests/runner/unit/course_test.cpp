/// @file
/// @brief Unit tests of course loading (lesson titles, info.md), its errors, and name resolution.
#include <catch2/catch.hpp>

#include "temp_dir.h"
#include "tl_runner/course.h"
#include "tl_runner/errors.h"
#include "tl_runner/text.h"

namespace tl = torchlings::runner;
using Catch::Contains;

namespace {

const std::filesystem::path kFixtures = TL_RUNNER_FIXTURES;

const tl::Lesson kLesson1{"01", "01_availability", "Availability checks"};
const tl::Lesson kLesson2{"02", "02_devices", "Device objects"};

/// Lesson 01's info.md: two exercises; tests break one piece of it.
constexpr const char* kInfo1 = R"(# Lesson 01 exercises

## choose_device: Choose

timeout_s: 12
given: compiles

### Hint

h1

### Hint

h2, over
two lines:

```cpp
## not a heading, inside a code block
```

### Hint
h3

## parse_device: Parse
)";

constexpr const char* kInfo2 = "## device_index: Index\n\n### Hint\n\nh\n";

std::vector<tl::Exercise> parse1(const std::string& text) {
    return tl::Course::parse_exercises(text, kLesson1, "exercises/01_availability/info.md");
}

tl::Course course_of(const std::string& info1) {
    std::vector<tl::Exercise> exercises = parse1(info1);
    for (tl::Exercise& exercise :
         tl::Course::parse_exercises(kInfo2, kLesson2, "exercises/02_devices/info.md")) {
        exercises.push_back(std::move(exercise));
    }
    return tl::Course::from_parts("/course", {kLesson1, kLesson2}, std::move(exercises));
}

/// kInfo1 with one substring replaced.
std::string with(const std::string& from, const std::string& to) {
    std::string text = kInfo1;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("the fixture course loads, with defaults for optional keys") {
    const tl::Course course = tl::Course::load(kFixtures);
    REQUIRE(course.lessons().size() == 1);
    CHECK(course.lessons()[0].dir == "00_fixtures");
    CHECK(course.lessons()[0].title == "Runner fixtures");
    REQUIRE(course.exercises().size() == 7);
    const tl::Exercise* hang = course.find_exercise("fx_hang");
    REQUIRE(hang != nullptr);
    CHECK(hang->timeout_s == 2);
    CHECK(course.learner_file(*hang) == kFixtures / "exercises/00_fixtures/fx_hang.cpp");
    CHECK(course.test_file(*hang) == kFixtures / "tests/exercises/00_fixtures/fx_hang_test.cpp");
    CHECK(course.solution_file(*hang) == kFixtures / "solutions/00_fixtures/fx_hang.cpp");
    const tl::Course parsed = course_of(kInfo1);
    CHECK(parsed.find_exercise("parse_device")->timeout_s == tl::layout::kDefaultTimeoutS);
    CHECK(parsed.find_exercise("choose_device")->timeout_s == 12);
    CHECK(parsed.find_exercise("choose_device")->given_tests ==
          std::vector<std::string>{"compiles"});
}

TEST_CASE("hints are Markdown sections of several lines, code blocks included") {
    const tl::Course course = course_of(kInfo1);
    const tl::Exercise& choose = *course.find_exercise("choose_device");
    REQUIRE(choose.hints.size() == 3);
    CHECK(choose.hints[0] == "h1");
    CHECK(choose.hints[1] ==
          "h2, over\ntwo lines:\n\n```cpp\n## not a heading, inside a code block\n```");
    CHECK(choose.hints[2] == "h3");
    CHECK(course.find_exercise("parse_device")->hints.empty());
}

TEST_CASE("a folder without lessons says what was expected") {
    const tl::testing::TempDir dir;
    REQUIRE_THROWS_AS(tl::Course::load(dir.path()), tl::EnvironmentError);
    REQUIRE_THROWS_WITH(tl::Course::load(dir.path()),
                        Contains("has no lessons") && Contains("lessons/NN_topic/"));
    dir.write("lessons/01_x/README.md", "# Lesson 1 wrong\n");
    REQUIRE_THROWS_WITH(tl::Course::load(dir.path()),
                        Contains("lessons/01_x/README.md:1: expected \"# Lesson 01"));
}

TEST_CASE("metadata errors name the file, the line and what was expected") {
    CHECK_THROWS_WITH(parse1(with("timeout_s: 12", "timeout_s: twelve")),
                      Contains("exercises/01_availability/info.md:5: \"timeout_s:\" expected a "
                               "positive whole number of seconds, got \"twelve\""));
    CHECK_THROWS_WITH(parse1(with("## parse_device: Parse", "## parse_device")),
                      Contains("info.md:24: expected \"## id: title\""));
    CHECK_THROWS_WITH(parse1(with("## parse_device", "## Parse-Device")),
                      Contains("expected \"## id: title\" with an id of lowercase letters"));
    CHECK_THROWS_WITH(parse1(with("### Hint\n\nh1", "### Tip\n\nh1")),
                      Contains(":8: expected \"### Hint\""));
    CHECK_THROWS_WITH(parse1(with("given: compiles", "gven: compiles")),
                      Contains("expected \"timeout_s: N\", \"given: test case\" or a \"### Hint\" "
                               "section below \"## choose_device\", got \"gven: compiles\""));
    CHECK_THROWS_WITH(parse1(with("```\n\n### Hint\nh3", "\n\n### Hint\nh3")),
                      Contains("a code block (```) is not closed"));
    CHECK_THROWS_WITH(course_of(with("## parse_device", "## device_index")),
                      Contains("\"device_index\" is declared twice"));
}

TEST_CASE("an id, a lesson number or a lesson folder resolves to exercises") {
    const tl::Course course = course_of(kInfo1);
    CHECK(course.resolve("parse_device").size() == 1);
    const auto lesson = course.resolve("01");
    REQUIRE(lesson.size() == 2);
    CHECK(lesson[0]->id == "choose_device");
    CHECK(course.resolve("1").size() == 2);
    CHECK(course.resolve("02_devices").size() == 1);
    CHECK(course.resolve_lesson("2").number == "02");
}

TEST_CASE("an unknown name lists the valid ids and suggests the closest") {
    const tl::Course course = course_of(kInfo1);
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
    dir.write("course/exercises/01_x/info.md", kInfo2);
    dir.write("course/lessons/01_x/README.md", "# Lesson 01 — X\n");
    CHECK(tl::same_path(tl::find_course_root(dir.path() / "course/lessons/01_x"),
                        dir.path() / "course"));
    CHECK_THROWS_AS(tl::find_course_root(dir.path()), tl::EnvironmentError);
}
