# The course's layout: where a lesson's and an exercise's files are, and the default time limit.
# The one owner of these rules: CMake reads them here (TorchlingsCourse.cmake includes this file),
# and configure writes them for the runner as <build>/runner/generated/core/layout.h, from
# runner/core/layout.h.in. Keep each value a plain string or number: C++ gets it as written.

# The default time limit of an exercise's test program, in seconds.
set(TORCHLINGS_LAYOUT_kDefaultTimeoutS 30)

# Paths from the course root; {lesson} is a lesson folder ("01_availability"), {id} an exercise.
set(TORCHLINGS_LAYOUT_kLessonText "lessons/{lesson}/README.md")
set(TORCHLINGS_LAYOUT_kExerciseInfo "exercises/{lesson}/info.md")
# Korean (TORCHLINGS_LANG=ko): each is optional; without it the runner uses the English one.
set(TORCHLINGS_LAYOUT_kLessonTextKorean "lessons/{lesson}/README.ko.md")
set(TORCHLINGS_LAYOUT_kExerciseInfoKorean "exercises/{lesson}/info.ko.md")
set(TORCHLINGS_LAYOUT_kLearnerFile "exercises/{lesson}/{id}.cpp")
set(TORCHLINGS_LAYOUT_kSolutionFile "solutions/{lesson}/{id}.cpp")
set(TORCHLINGS_LAYOUT_kTestFile "tests/exercises/{lesson}/{id}_test.cpp")

# The catalogue of mistakes, one Markdown file per exercise. Each mistake is a section headed
# `## <slug>: <title>` (slug [a-z0-9_]+): a paragraph on why learners make it, an optional line
# kMistakeGpuOnly + reason (only a [gpu] case can catch it), a kMistakeCaughtBy line (the cases
# that fail, and how), and a ```diff block against the solution (runner/README.md, "The catalogue
# of mistakes").
set(TORCHLINGS_LAYOUT_kMistakeFile "solutions/{lesson}/mistakes/{id}.md")
# A learner copy (`export --learner`) has no solutions/: the catalogue goes there without its diffs.
set(TORCHLINGS_LAYOUT_kMistakeNotes "exercises/{lesson}/mistakes/{id}.md")
set(TORCHLINGS_LAYOUT_kMistakeGpuOnly "GPU only: ")
set(TORCHLINGS_LAYOUT_kMistakeCaughtBy "caught by: ")

# What configure reads of those Markdown files, written by their one reader, the runner
# (`./torchlings dev index`), and committed: each lesson's exercises and time limits (from
# kExerciseInfo), and each catalogued mistake's hunks (from kMistakeFile; it stays with the
# solutions, since the hunks show them). Each records the SHA-256 of the files it was made from.
set(TORCHLINGS_LAYOUT_kExerciseIndex "exercises/index.json")
set(TORCHLINGS_LAYOUT_kMistakeIndex "solutions/mistakes.json")
