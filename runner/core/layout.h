/// @file
/// @brief Where a lesson's and an exercise's files are, and the default time limit: the one
/// owner of these rules. cmake/TorchlingsExercises.cmake reads this file too, so keep each
/// definition on one line as `inline constexpr <type> kName = <literal>;`.
#pragma once

#include <string_view>

namespace torchlings::runner::layout {

/// The default time limit of an exercise's test program, in seconds.
inline constexpr int kDefaultTimeoutS = 30;

// Paths from the course root; {lesson} is a lesson folder ("01_availability"), {id} an exercise.
inline constexpr std::string_view kLessonText = "lessons/{lesson}/README.md";
inline constexpr std::string_view kExerciseInfo = "exercises/{lesson}/info.md";
// Korean (TORCHLINGS_LANG=ko): each is optional; without it the runner uses the English one.
inline constexpr std::string_view kLessonTextKorean = "lessons/{lesson}/README.ko.md";
inline constexpr std::string_view kExerciseInfoKorean = "exercises/{lesson}/info.ko.md";
inline constexpr std::string_view kLearnerFile = "exercises/{lesson}/{id}.cpp";
inline constexpr std::string_view kSolutionFile = "solutions/{lesson}/{id}.cpp";
inline constexpr std::string_view kTestFile = "tests/exercises/{lesson}/{id}_test.cpp";

// The catalogue of mistakes, one Markdown file per exercise. Each mistake is a section headed
// `## <slug>: <title>` (slug [a-z0-9_]+): a paragraph on why learners make it, an optional line
// kMistakeGpuOnly + reason (only a [gpu] case can catch it), kMistakeCaughtBy lines (the cases
// that fail, and how), and a ```diff block against the solution that configure applies
// (cmake/TorchlingsMistakes.cmake; runner/README.md, "The catalogue of mistakes").
inline constexpr std::string_view kMistakeFile = "solutions/{lesson}/mistakes/{id}.md";
// A learner copy (`export --learner`) has no solutions/: the catalogue goes there without its diffs.
inline constexpr std::string_view kMistakeNotes = "exercises/{lesson}/mistakes/{id}.md";
inline constexpr std::string_view kMistakeGpuOnly = "GPU only: ";
inline constexpr std::string_view kMistakeCaughtBy = "caught by: ";

}  // namespace torchlings::runner::layout
