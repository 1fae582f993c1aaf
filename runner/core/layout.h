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

// The catalogue of mistakes: each file is the solution with one plausible mistake; {slug} names
// it ([a-z0-9_]+). Its first line is kMistakeTitle followed by a one-line title, then `//` lines
// that explain it; a header line equal to kMistakeGpuOnly marks a mistake that only a [gpu] case
// can catch.
inline constexpr std::string_view kMistakeFile = "solutions/{lesson}/mistakes/{id}/{slug}.cpp";
inline constexpr std::string_view kMistakeTitle = "// Mistake: ";
inline constexpr std::string_view kMistakeGpuOnly = "// Caught with a GPU only.";

}  // namespace torchlings::runner::layout
