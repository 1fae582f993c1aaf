/// @file
/// @brief Unit tests of `dev index`: the catalogue's hunks as the runner reads them, the course
/// index that configure reads (exercises/index.json, solutions/mistakes.json), the lesson READMEs'
/// exercise tables, and what counts as stale.
#include "tl_test/catch.h"

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/hashing.h"
#include "core/mistake_catalogue.h"
#include "core/text.h"
#include "maintainer/course_index.h"
#include "temp_dir.h"

namespace tl = torchlings::runner;
using Catch::Matchers::ContainsSubstring;

namespace {

/// A catalogue of two mistakes: one of two hunks (the second only adds, after a context line),
/// one whose empty line is an empty context line.
constexpr const char* kCatalogue = R"(# Mistakes: demo

## off_by_one: Stops one short

Why.

caught by: "sums" (assertion)

```diff
-    for (int i = 0; i < n; ++i) {
+    for (int i = 0; i < n - 1; ++i) {
@@
 int other();
+int more();
```

## returns_zero: Returns 0

```diff
 int demo() {

-    return 1;
+    return 0;
```
)";

/// A one-lesson course: a README with an exercise table to rewrite, info.md, a catalogue.
void write_course(const tl::testing::TempDir& dir) {
    dir.write("lessons/01_demo/README.md",
              "# Lesson 01 — Demo\n\nText.\n\n## Exercises\n\n| id | old column | check |\n"
              "|---|---|---|\n| `stale` | gone | `./torchlings check stale` |\n\nAfter.\n\n"
              "## Key points\n\nMore.\n");
    dir.write("lessons/01_demo/README.ko.md", "# 강의 01 — 데모\n\n## 연습 문제\n\n끝.\n");
    dir.write("exercises/01_demo/info.md",
              "## demo: Sum | the values\n\ntimeout_s: 7\n\n## other: Another one\n\n"
              "summary: a `List<T>` | of values\n");
    dir.write("exercises/01_demo/info.ko.md",
              "## demo: 값을 더하기\n\ntimeout_s: 7\n\n## other: 다른 하나\n\n"
              "summary: 값의 목록\n");
    dir.write("solutions/01_demo/demo.cpp", "int demo() {\n\n    return 1;\n}\n");
    dir.write("solutions/01_demo/mistakes/demo.md", kCatalogue);
}

}  // namespace

TEST_CASE("course index: a catalogue's hunks, with where each new line comes from") {
    const std::vector<tl::Mistake> mistakes =
        tl::parse_mistake_catalogue(kCatalogue, "demo", "m.md");
    REQUIRE(mistakes.size() == 2);
    const tl::Mistake& first = mistakes[0];
    CHECK(first.diff_line == 9);
    REQUIRE(first.hunks.size() == 2);
    CHECK(first.hunks[0] == tl::Hunk{10,
                                     "    for (int i = 0; i < n; ++i) {\n",
                                     "    for (int i = 0; i < n - 1; ++i) {\n",
                                     {"m11"}});
    CHECK(first.hunks[1] ==
          tl::Hunk{13, "int other();\n", "int other();\nint more();\n", {"s0", "m14"}});
    // The diff is not part of the why, and a signature before it still reads.
    CHECK(first.why == std::vector<std::string>{"Why."});
    CHECK(first.caught_by.size() == 1);
    REQUIRE(mistakes[1].hunks.size() == 1);
    CHECK(mistakes[1].hunks[0] == tl::Hunk{20,
                                           "int demo() {\n\n    return 1;\n",
                                           "int demo() {\n\n    return 0;\n",
                                           {"s0", "s1", "m23"}});
    CHECK_NOTHROW(tl::check_mistake_diffs(mistakes, "m.md", "demo.cpp"));
}

TEST_CASE("course index: a diff block that cannot be applied names the line and the mistake") {
    const auto parse = [](const std::string& text) {
        return tl::parse_mistake_catalogue(text, "demo", "m.md");
    };
    const auto check = [&](const std::string& text) {
        tl::check_mistake_diffs(parse(text), "m.md", "demo.cpp");
    };
    CHECK_THROWS_WITH(parse("## a: T\n```diff\n*x\n```\n"),
                      ContainsSubstring("m.md:3: mistake 'a': a line of a diff block starts with"));
    CHECK_THROWS_WITH(parse("## a: T\n```diff\n@@\n-x\n```\n"),
                      ContainsSubstring("m.md:3: mistake 'a': an empty hunk before `@@`"));
    CHECK_THROWS_WITH(parse("## a: T\n```diff\n-x\n```\n```diff\n-y\n```\n"),
                      ContainsSubstring("m.md:5: mistake 'a' has a second diff block"));
    CHECK_THROWS_WITH(parse("```diff\n-x\n```\n"),
                      ContainsSubstring("m.md:1: a diff block before the first"));
    CHECK_THROWS_WITH(parse("## a: T\n```diff\n-x\n"),
                      ContainsSubstring("m.md:3: mistake 'a': its diff block is not closed"));
    CHECK_THROWS_WITH(check("## a: T\n\nWhy.\n"),
                      ContainsSubstring("m.md:1: mistake 'a' has no ```diff block saying how it "
                                        "differs from demo.cpp"));
    CHECK_THROWS_WITH(check("## a: T\n```diff\n-x\n+y\n@@\n+z\n```\n"),
                      ContainsSubstring("m.md:6: mistake 'a', hunk 2 of 2 has no old text"));
    CHECK_THROWS_WITH(check("## a: T\n```diff\n x\n```\n"),
                      ContainsSubstring("m.md:1: mistake 'a' changes nothing"));
    // A fence that is not a diff (```cpp in the why) is only skipped.
    CHECK(parse("## a: T\n```cpp\n*not a diff line\n```\n").at(0).hunks.empty());
}

TEST_CASE("course index: exercises and time limits, the mistakes' hunks, each with its source") {
    const tl::testing::TempDir dir;
    write_course(dir);
    const tl::Course course = tl::Course::load(dir.path());

    const auto exercises = nlohmann::json::parse(tl::exercise_index_json(course));
    CHECK(exercises["format_version"] == 1);
    const auto& lesson = exercises["lessons"]["01_demo"];
    CHECK(lesson["source"] == "exercises/01_demo/info.md");
    CHECK(lesson["sha256"] == tl::sha256_file(dir.path() / "exercises/01_demo/info.md"));
    CHECK(lesson["exercises"] == nlohmann::json::parse(R"([{"id": "demo", "timeout_s": 7},
                                                           {"id": "other", "timeout_s": 30}])"));

    const auto mistakes = nlohmann::json::parse(tl::mistake_index_json(course));
    const auto& catalogue = mistakes["lessons"]["01_demo"]["demo"];
    CHECK(catalogue["source"] == "solutions/01_demo/mistakes/demo.md");
    CHECK(catalogue["sha256"] ==
          tl::sha256_file(dir.path() / "solutions/01_demo/mistakes/demo.md"));
    REQUIRE(catalogue["mistakes"].size() == 2);
    CHECK(catalogue["mistakes"][0]["slug"] == "off_by_one");
    CHECK(catalogue["mistakes"][0]["line"] == 3);
    CHECK(catalogue["mistakes"][0]["hunks"][1] == nlohmann::json::parse(R"({"line": 13,
        "old": "int other();\n", "new": "int other();\nint more();\n", "from": ["s0", "m14"]})"));
    CHECK_FALSE(mistakes["lessons"]["01_demo"].contains("other"));  // it has no catalogue

    // A catalogue that does not parse stops the index, naming the file and the line.
    dir.write("solutions/01_demo/mistakes/demo.md", "## Bad-Slug: T\n");
    CHECK_THROWS_WITH(
        tl::mistake_index_json(course),
        ContainsSubstring("solutions/01_demo/mistakes/demo.md:1: a mistake's heading"));
}

TEST_CASE("course index: the exercise table is written from info.md, in place of the old one") {
    const std::string table =
        "<!-- generated -->\n| id | exercise | check |\n|---|---|---|\n| `a` | A | `x` |\n";
    const std::string readme =
        "# T\n\n## Exercises\n\n| id | old |\n|---|---|\n| `b` | B |\n\n"
        "After.\n\n## Next\n\n| not | this one |\n";
    const std::optional<std::string> written =
        tl::with_exercise_table(readme, "## Exercises", table);
    REQUIRE(written);
    CHECK(*written ==
          "# T\n\n## Exercises\n\n" + table + "\nAfter.\n\n## Next\n\n| not | this one |\n");
    // Written again from what it wrote: the same text (the marker line is part of the table).
    const std::string again =
        "<!-- This table is written by `./torchlings dev index` from x: edit "
        "that file. -->\n| id | what you write | check |\n|---|---|---|\n";
    const std::string once = *tl::with_exercise_table(readme, "## Exercises", again);
    CHECK(tl::with_exercise_table(once, "## Exercises", again) == once);
    // A section without a table gets one after its heading; no section, nothing to write.
    CHECK(tl::with_exercise_table("## Exercises\n\nText.\n", "## Exercises", table) ==
          "## Exercises\n\n" + table + "\nText.\n");
    CHECK_FALSE(tl::with_exercise_table("# T\n", "## Exercises", table));

    const tl::testing::TempDir dir;
    write_course(dir);
    const tl::Course course = tl::Course::load(dir.path());
    const tl::Lesson& lesson = course.lessons().at(0);
    const std::string english = tl::exercise_table(
        course.exercises_of(lesson), "exercises/01_demo/info.md", tl::Language::kEnglish);
    // The summary, where there is one, says what the learner writes; otherwise the title does.
    CHECK_THAT(english, ContainsSubstring("| id | what you write | check |\n|---|---|---|\n"
                                          "| `demo` | Sum \\| the values | `./torchlings check "
                                          "demo` |\n| `other` | a `List<T>` \\| of values |"));
    CHECK_THAT(english, ContainsSubstring("from exercises/01_demo/info.md: edit that file"));
}

TEST_CASE("course index: every file dev index writes, and which of them are stale") {
    const tl::testing::TempDir dir;
    write_course(dir);
    std::vector<tl::GeneratedFile> files = tl::course_index(dir.path());
    std::vector<std::string> names;
    for (const tl::GeneratedFile& file : files) {
        names.push_back(file.path.lexically_relative(dir.path()).generic_string());
    }
    CHECK(names == std::vector<std::string>{"exercises/index.json", "solutions/mistakes.json",
                                            "lessons/01_demo/README.md",
                                            "lessons/01_demo/README.ko.md"});
    CHECK_THAT(files[3].content, ContainsSubstring("| `demo` | 값을 더하기 |"));
    CHECK_THAT(files[3].content, ContainsSubstring("| id | 작성할 내용 | 확인 |"));
    CHECK_THAT(files[3].content, ContainsSubstring("| `other` | 값의 목록 |"));
    CHECK_THAT(files[3].content, ContainsSubstring("exercises/01_demo/info.ko.md"));
    CHECK(tl::stale_files(files).size() == 4);  // nothing written yet
    for (const tl::GeneratedFile& file : files) {
        tl::write_file(file.path, file.content);
    }
    CHECK(tl::stale_files(tl::course_index(dir.path())).empty());

    // An edited info.md makes the index and both tables stale; the mistakes' index stays.
    dir.write("exercises/01_demo/info.md", "## demo: Sum the values\n\ntimeout_s: 8\n");
    dir.write("exercises/01_demo/info.ko.md", "## demo: 값을 더하기\n\ntimeout_s: 8\n");
    names.clear();
    for (const tl::GeneratedFile& file : tl::stale_files(tl::course_index(dir.path()))) {
        names.push_back(file.path.lexically_relative(dir.path()).generic_string());
    }
    CHECK(names == std::vector<std::string>{"exercises/index.json", "lessons/01_demo/README.md",
                                            "lessons/01_demo/README.ko.md"});

    // A learner copy has no solutions/: no mistakes' index.
    std::filesystem::remove_all(dir.path() / "solutions");
    CHECK(tl::course_index(dir.path()).size() == 3);
}
