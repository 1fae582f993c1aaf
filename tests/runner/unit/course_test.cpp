/// @file
/// @brief Unit tests of course loading (lesson titles, info.md), its errors, and name resolution.
#include "tl_test/catch.h"

#include "core/course.h"
#include "core/errors.h"
#include "core/text.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
using Catch::Matchers::ContainsSubstring;

namespace {

const std::filesystem::path kFixtures = TL_RUNNER_FIXTURES;

const tl::Lesson kLesson1{"01", "01_availability", "Availability checks"};
const tl::Lesson kLesson2{"02", "02_devices", "Device objects"};

/// Lesson 01's info.md: two exercises; tests break one piece of it.
constexpr const char* kInfo1 = R"(# Lesson 01 exercises

## choose_device: Choose

timeout_s: 12


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
    REQUIRE_THROWS_WITH(tl::Course::load(dir.path()), ContainsSubstring("has no lessons") &&
                                                          ContainsSubstring("lessons/NN_topic/"));
    dir.write("lessons/01_x/README.md", "# Lesson 1 wrong\n");
    REQUIRE_THROWS_WITH(tl::Course::load(dir.path()),
                        ContainsSubstring("lessons/01_x/README.md:1: expected \"# Lesson 01"));
}

TEST_CASE("metadata errors name the file, the line and what was expected") {
    CHECK_THROWS_WITH(
        parse1(with("timeout_s: 12", "timeout_s: twelve")),
        ContainsSubstring("exercises/01_availability/info.md:5: \"timeout_s:\" expected a "
                          "positive whole number of seconds, got \"twelve\""));
    CHECK_THROWS_WITH(parse1(with("## parse_device: Parse", "## parse_device")),
                      ContainsSubstring("info.md:24: expected \"## id: title\""));
    CHECK_THROWS_WITH(
        parse1(with("## parse_device", "## Parse-Device")),
        ContainsSubstring("expected \"## id: title\" with an id of lowercase letters"));
    CHECK_THROWS_WITH(parse1(with("### Hint\n\nh1", "### Tip\n\nh1")),
                      ContainsSubstring(":8: expected \"### Hint\""));
    CHECK_THROWS_WITH(
        parse1(with("timeout_s: 12", "timout_s: 12")),
        ContainsSubstring("expected \"summary: text\", \"timeout_s: N\" or a \"### Hint\" "
                          "section below \"## choose_device\", got \"timout_s: 12\""));
    CHECK_THROWS_WITH(parse1(with("timeout_s: 12", "summary:")),
                      ContainsSubstring(":5: \"summary:\" expected one line"));
    CHECK_THROWS_WITH(
        parse1(with("timeout_s: 12", "summary: one\nsummary: two")),
        ContainsSubstring(":6: a second \"summary:\" line below \"## choose_device\""));
    CHECK(parse1(with("timeout_s: 12", "summary: writes | a table cell"))[0].summary ==
          "writes | a table cell");
    // given: (cases an untouched stub might pass) is no longer part of the format.
    CHECK_THROWS_WITH(parse1(with("timeout_s: 12", "given: compiles")),
                      ContainsSubstring("got \"given: compiles\""));
    CHECK_THROWS_WITH(parse1(with("```\n\n### Hint\nh3", "\n\n### Hint\nh3")),
                      ContainsSubstring("a code block (```) is not closed"));
    CHECK_THROWS_WITH(course_of(with("## parse_device", "## device_index")),
                      ContainsSubstring("\"device_index\" is declared twice"));
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
                      ContainsSubstring("no exercise or lesson called \"chose_device\"") &&
                          ContainsSubstring("Did you mean: choose_device?") &&
                          ContainsSubstring("01  choose_device parse_device") &&
                          ContainsSubstring("02  device_index"));
    CHECK_THROWS_WITH(course.resolve_exercise("01"), ContainsSubstring("\"01\" is a lesson"));
    CHECK_THROWS_WITH(course.resolve_lesson("42"),
                      ContainsSubstring("There is no lesson \"42\"") &&
                          ContainsSubstring("01  Availability checks"));
    CHECK_THROWS_WITH(course.resolve("zzzzzzzz"), !ContainsSubstring("Did you mean"));
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

// ---- Korean: info.ko.md and README.ko.md ----------------------------------------------------

namespace {

/// kInfo1 translated, with the same structure.
constexpr const char* kInfo1Ko = R"(# 강의 01 연습 문제

## choose_device: 고르기

timeout_s: 12


### Hint

힌트 1

### Hint

힌트 2

### Hint
힌트 3

## parse_device: 해석하기
)";

/// kInfo1Ko with one substring replaced.
std::string ko_with(const std::string& from, const std::string& to) {
    std::string text = kInfo1Ko;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

/// kInfo1's exercises given the titles and hints of a translation.
std::vector<tl::Exercise> translate1(const std::string& translated) {
    std::vector<tl::Exercise> exercises = parse1(kInfo1);
    tl::Course::translate_exercises(exercises, translated, kLesson1,
                                    "exercises/01_availability/info.ko.md",
                                    "exercises/01_availability/info.md");
    return exercises;
}

}  // namespace

TEST_CASE("the fixture course in Korean: titles and hints from info.ko.md, README.ko.md") {
    const tl::Course english = tl::Course::load(kFixtures);
    const tl::Course korean = tl::Course::load(kFixtures, tl::Language::kKorean);
    CHECK(korean.lessons()[0].title == "러너 테스트용 과정");
    REQUIRE(korean.exercises().size() == english.exercises().size());
    const tl::Exercise& pass = *korean.find_exercise("fx_pass");
    CHECK(pass.title == "모든 테스트를 통과합니다");
    CHECK(pass.hints == std::vector<std::string>{"두 수를 더하세요.", "+ 연산자를 쓰세요."});
    for (std::size_t i = 0; i < english.exercises().size(); ++i) {
        const tl::Exercise& en = english.exercises()[i];
        const tl::Exercise& ko = korean.exercises()[i];
        CHECK(ko.id == en.id);
        CHECK(ko.title != en.title);
        CHECK(ko.hints.size() == en.hints.size());
        CHECK(ko.timeout_s == en.timeout_s);
    }
    // English stays English, whatever files lie beside it.
    CHECK(english.find_exercise("fx_pass")->title == "Passes every test");
    CHECK(english.lessons()[0].title == "Runner fixtures");
}

TEST_CASE("a translation with the same structure gives titles and hints only") {
    const std::vector<tl::Exercise> exercises = translate1(kInfo1Ko);
    REQUIRE(exercises.size() == 2);
    CHECK(exercises[0].title == "고르기");
    CHECK(exercises[0].hints == std::vector<std::string>{"힌트 1", "힌트 2", "힌트 3"});
    CHECK(exercises[0].timeout_s == 12);
    CHECK(exercises[0].line == 3);  // info.md's line, not the translation's
    CHECK(exercises[1].title == "해석하기");
    CHECK(exercises[1].hints.empty());
}

TEST_CASE("a translation that differs from info.md in structure is a course error") {
    const std::string ko = "exercises/01_availability/info.ko.md:";
    // The rule, said with every such error.
    const auto translation_of =
        ContainsSubstring("is a translation of exercises/01_availability/info.md");
    const auto same_order = ContainsSubstring("the same \"## id: ...\" headings in the same order");
    // Another order.
    const std::string swapped = "## parse_device: 해석하기\n\n## choose_device: 고르기\n";
    CHECK_THROWS_AS(translate1(swapped), tl::EnvironmentError);
    CHECK_THROWS_WITH(translate1(swapped),
                      ContainsSubstring(ko + "1: expected \"## choose_device: ...\" (exercise 1 of "
                                             "exercises/01_availability/info.md, line 3), got \"## "
                                             "parse_device\"") &&
                          translation_of && same_order);
    // An exercise missing at the end, and one too many.
    CHECK_THROWS_WITH(
        translate1(ko_with("\n## parse_device: 해석하기\n", "\n")),
        ContainsSubstring(ko + "18: ends without \"## parse_device: ...\", which "
                               "exercises/01_availability/info.md declares (line 24)") &&
            translation_of && same_order);
    CHECK_THROWS_WITH(translate1(std::string(kInfo1Ko) + "\n## extra_one: 하나 더\n"),
                      ContainsSubstring(ko + "21: declares \"## extra_one\", which "
                                             "exercises/01_availability/info.md does not declare"));
    // One hint fewer.
    CHECK_THROWS_WITH(translate1(ko_with("### Hint\n힌트 3\n", "")),
                      ContainsSubstring(ko + "3: \"## choose_device\" has 2 \"### Hint\" sections, "
                                             "exercises/01_availability/info.md has 3") &&
                          translation_of && same_order);
    // Another time limit.
    CHECK_THROWS_WITH(translate1(ko_with("timeout_s: 12", "timeout_s: 99")),
                      ContainsSubstring(ko + "3: \"## choose_device\" has another timeout_s: "
                                             "line than exercises/01_availability/info.md"));
    // A summary on one side only.
    CHECK_THROWS_WITH(translate1(ko_with("timeout_s: 12", "timeout_s: 12\nsummary: 요약")),
                      ContainsSubstring(ko + "3: \"## choose_device\" has a summary: line, which "
                                             "exercises/01_availability/info.md does not have"));
    // Its own syntax errors name the translation.
    CHECK_THROWS_WITH(translate1(ko_with("### Hint\n\n힌트 1", "### 힌트\n\n힌트 1")),
                      ContainsSubstring(ko + "8: expected \"### Hint\""));
}

TEST_CASE("Course::load in Korean: lessons without a translation stay English, mismatches stop") {
    const tl::testing::TempDir dir;
    dir.write("lessons/01_availability/README.md", "# Lesson 01 — Availability checks\n");
    dir.write("lessons/01_availability/README.ko.md", "# 강의 01 — 가용성 확인\n");
    dir.write("exercises/01_availability/info.md", kInfo1);
    dir.write("exercises/01_availability/info.ko.md", kInfo1Ko);
    dir.write("lessons/02_devices/README.md", "# Lesson 02 — Device objects\n");
    dir.write("exercises/02_devices/info.md", kInfo2);
    const tl::Course course = tl::Course::load(dir.path(), tl::Language::kKorean);
    CHECK(course.lessons()[0].title == "가용성 확인");
    CHECK(course.lessons()[1].title == "Device objects");
    CHECK(course.find_exercise("choose_device")->title == "고르기");
    CHECK(course.find_exercise("device_index")->title == "Index");
    CHECK(course.find_exercise("device_index")->hints == std::vector<std::string>{"h"});

    // The title is in the first heading, after a line that links to the English page.
    dir.write("lessons/01_availability/README.ko.md",
              "[English](README.md) · 한국어\n\n# 강의 01 — 가용성 확인\n\n## 배울 내용\n");
    CHECK(tl::Course::load(dir.path(), tl::Language::kKorean).lessons()[0].title == "가용성 확인");
    dir.write("lessons/01_availability/README.ko.md",
              "[English](README.md) · 한국어\n\n# 가용성\n");
    CHECK_THROWS_WITH(tl::Course::load(dir.path(), tl::Language::kKorean),
                      ContainsSubstring("lessons/01_availability/README.ko.md:3: expected"));
    // A README.ko.md may keep the English word, but needs the lesson's number and a title.
    dir.write("lessons/01_availability/README.ko.md", "# Lesson 01 — 가용성 확인\n");
    CHECK(tl::Course::load(dir.path(), tl::Language::kKorean).lessons()[0].title == "가용성 확인");
    dir.write("lessons/01_availability/README.ko.md", "# 가용성 확인\n");
    CHECK_THROWS_WITH(
        tl::Course::load(dir.path(), tl::Language::kKorean),
        ContainsSubstring("lessons/01_availability/README.ko.md:1: expected \"# Lesson 01 "
                          "\u2014 Title\" or \"# 강의 01 \u2014 Title\""));
    CHECK(tl::Course::load(dir.path()).lessons()[0].title == "Availability checks");

    // A translation that drifted stops the Korean course, never the English one.
    dir.write("lessons/01_availability/README.ko.md", "# 강의 01 — 가용성 확인\n");
    dir.write("exercises/02_devices/info.ko.md", "## device_index: 번호\n");
    CHECK_THROWS_WITH(
        tl::Course::load(dir.path(), tl::Language::kKorean),
        ContainsSubstring("exercises/02_devices/info.ko.md:1: \"## device_index\" has 0 "
                          "\"### Hint\" sections, exercises/02_devices/info.md has 1"));
    CHECK(tl::Course::load(dir.path()).find_exercise("device_index")->title == "Index");
}
