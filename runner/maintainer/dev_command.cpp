/// @file
/// @brief `dev new` (scaffolds an exercise), `dev check` (the course's own checks that CI runs
/// before building anything) and `dev index` (writes what configure and the lesson texts take from
/// the course's Markdown), with the check that a stub's Given code is the solution's.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#if defined(__APPLE__)
#include <mach-o/dyld.h>  // _NSGetExecutablePath
#endif

#include "core/course.h"
#include "core/hashing.h"
#include "core/mistake_catalogue.h"
#include "core/process.h"
#include "core/text.h"
#include "maintainer/course_index.h"
#include "maintainer/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// A layout pattern for one lesson folder and exercise id, from the course root.
fs::path course_path(const Context& context, std::string_view pattern, const Lesson& lesson,
                     const std::string& id) {
    return context.root() / torchlings::runner::layout_path(pattern, lesson.dir, id);
}

bool valid_new_id(const std::string& id) {
    return !id.empty() && id.size() <= 40 && id.front() >= 'a' && id.front() <= 'z' &&
           std::all_of(id.begin(), id.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
           });
}

/// The files of a new exercise, each with its whole content.
struct Scaffold {
    std::vector<std::pair<fs::path, std::string>> created;
    std::vector<std::pair<fs::path, std::string>> edited;  ///< new content of existing files
};

/// The scaffold's one function, returning `expression`: a line of its solution, or of a mistake.
std::string function_line(const std::string& id, std::string_view expression) {
    return "int " + id + "(int value) { return " + std::string(expression) + "; }";
}

/// The scaffold's catalogue of mistakes: one example, squaring instead of doubling, which the
/// scaffold's test `case_name` catches (by its second value), with that signature recorded.
std::string new_mistake_catalogue(const Lesson& lesson, const std::string& id,
                                  const std::string& case_name) {
    const std::string solution =
        torchlings::runner::layout_path(layout::kSolutionFile, lesson.dir, id).generic_string();
    return "# Mistakes: " + id + "\n\nPlausible wrong answers to `" + id +
           "`, each written as one change to today's solution,\n`" + solution +
           "` (runner/README.md, \"The catalogue of mistakes\").\n\n"
           "TODO(author): replace the example below with the mistakes learners make, the classic "
           "one first,\neach with its signature recorded by `verify-mistake --record " +
           id +
           " <slug>` (docs/maintainers.md).\n\n"
           "## squares: Squares the value instead of doubling it\n\n"
           "Squaring 2 gives 4, as doubling does, so a test of that one value would pass; -3 "
           "squared is 9,\nnot -6.\n\n" +
           format_signature({{case_name, CaseFailure::kAssertion}}) + "\n\n```diff\n-" +
           function_line(id, "2 * value") + "\n+" + function_line(id, "value * value") + "\n```\n";
}

Scaffold scaffold(const Context& context, const Lesson& lesson, const std::string& id) {
    const std::string check = std::string(kCommand) + " check " + id;
    const std::string case_name = "doubles a number";
    Scaffold s;
    s.created.emplace_back(
        course_path(context, layout::kTestFile, lesson, id).parent_path() / (id + ".h"),
        "/// @file " + id + ".h\n/// @brief Exercise " + id +
            ": the API the learner's file implements and the tests call.\n"
            "#pragma once\n\nnamespace ex {\n\n"
            "/// TODO(author): what the learner implements. Here: doubles a "
            "number.\nint " +
            id + "(int value);\n\n}  // namespace ex\n");
    const std::string head = "#include \"" + id + ".h\"\n\n#include <torchlings/exercise.h>\n\n";
    s.created.emplace_back(
        course_path(context, layout::kLearnerFile, lesson, id),
        "/// @file " + id + ".cpp\n/// @brief Exercise " + id + " (lesson " + lesson.number +
            "): TODO(author) one line on what the learner writes.\n///\n"
            "/// TODO(author): what the exercise teaches, in two or three lines.\n"
            "/// Check it with: ./torchlings check " +
            id + "      Stuck? ./torchlings hint " + id + "\n" + head + "namespace ex {\n\nint " +
            id + "(int value) {\n    // TODO: return twice the value.\n    (void)value;\n" +
            "    TL_TODO(\"" + id + ": return twice the value\");\n}\n\n}  // namespace ex\n");
    s.created.emplace_back(course_path(context, layout::kSolutionFile, lesson, id),
                           "/// @file " + id + ".cpp\n/// @brief Solution of " + id + " (lesson " +
                               lesson.number + ").\n#include \"" + id +
                               ".h\"\n\nnamespace ex {\n\n" + function_line(id, "2 * value") +
                               "\n\n}  // namespace ex\n");
    s.created.emplace_back(course_path(context, layout::kTestFile, lesson, id),
                           "/// @file " + id + "_test.cpp\n/// @brief Tests of exercise " + id +
                               ", built against the learner's file and the solution.\n#include \"" +
                               id + ".h\"\n\n#include \"tl_test/catch.h\"\n\nTEST_CASE(\"" +
                               case_name + "\", \"[task_1]\") {\n    CHECK(ex::" + id +
                               "(2) == 4);\n    CHECK(ex::" + id + "(-3) == -6);\n}\n");
    s.created.emplace_back(course_path(context, layout::kMistakeFile, lesson, id),
                           new_mistake_catalogue(lesson, id, case_name));

    // An existing file of the lesson, as `change` rewrites it (nothing: left as it is).
    const auto edit = [&](std::string_view pattern, const auto& change) {
        const fs::path file = course_path(context, pattern, lesson, id);
        std::error_code error;
        if (fs::exists(file, error)) {
            if (std::optional<std::string> text = change(read_file(file))) {
                s.edited.emplace_back(file, *text);
            }
        }
    };
    for (const auto& [pattern, entry] :
         {std::pair<std::string_view, std::string>{
              layout::kExerciseInfo,
              ": TODO(author) title\n\nsummary: TODO(author) what the learner "
              "writes\n\n### Hint\n\n"
              "TODO(author): the first hint.\n"},
          {layout::kExerciseInfoKorean,
           ": TODO(author) 제목\n\nsummary: TODO(author) 작성할 내용\n\n### Hint\n\n"
           "TODO(author): 첫 힌트.\n"}}) {
        edit(pattern, [&](std::string text) -> std::optional<std::string> {
            return text + (text.empty() || text.back() == '\n' ? "" : "\n") + "\n## " + id + entry;
        });
    }
    return s;
}

ExitCode dev_new(Context& context, const std::string& lesson_name, const std::string& id) {
    const Course& course = context.course();
    const Lesson& lesson = course.resolve_lesson(lesson_name);
    if (!valid_new_id(id)) {
        throw UsageError("dev new: \"" + id +
                         "\" is not an exercise id; expected [a-z][a-z0-9_]*, at most 40 "
                         "characters, e.g. pinned_copy");
    }
    if (const Exercise* existing = course.find_exercise(id)) {
        throw UsageError("dev new: the course already has an exercise " + id + " (lesson " +
                         existing->lesson + ")");
    }
    const Scaffold s = scaffold(context, lesson, id);
    std::error_code error;
    for (const auto& [path, content] : s.created) {
        if (fs::exists(path, error) || fs::is_symlink(path, error)) {
            throw EnvironmentError(
                "dev new: " + context.show(path) + " already exists; nothing was written",
                "move it away, or choose another id");
        }
    }
    for (const auto& [path, content] : s.created) {
        write_file(path, content);
        context.out() << "  created " << context.show(path) << "\n";
    }
    for (const auto& [path, content] : s.edited) {
        write_file(path, content);
        context.out() << "  edited  " << context.show(path) << "\n";
    }
    // reset restores stubs by their git blob id: list the new one so that `pristine` agrees.
    const fs::path pristine = context.root() / kPristineManifest;
    if (fs::exists(pristine, error)) {
        HashList stubs = read_hash_list(pristine, "stubs");
        const fs::path stub = course_path(context, layout::kLearnerFile, lesson, id);
        stubs[fs::relative(stub, context.root()).generic_string()] = git_blob_id(read_file(stub));
        write_hash_list(pristine, "stubs", stubs);
        context.out() << "  edited  " << context.show(pristine) << "\n";
    }
    // The index and the exercise tables, now that info.md declares the exercise.
    for (const GeneratedFile& file : stale_files(course_index(context.root()))) {
        write_file(file.path, file.content);
        context.out() << "  edited  " << context.show(file.path) << "\n";
    }
    context.out()
        << "\nExercise " << id << " added to lesson " << lesson.number
        << ". Replace every TODO(author) in these files, then prove it:\n"
        << "  " << kCommand << " dev check\n      the course's structure and text\n"
        << "  " << kCommand << " check " << id << "\n      the stub fails its tests\n"
        << "  cmake --preset ci && cmake --build --preset ci\n"
        << "  build/ci/bin/torchlings-runner --build-dir build/ci verify-solution --record " << id
        << "\n      records how many assertions each case runs with the solution "
        << "(tests/exercises/assertion_counts.json)\n"
        << "  ctest --preset ci -R '^" << id << "/'\n"
        << "      the stub fails, the solution passes with those assertions, the tests catch each "
           "mistake\n";
    return ExitCode::kOk;
}

/// The runner running now, for the checks it starts that ask a runner (the translations');
/// nothing where the system does not say.
std::optional<fs::path> this_runner() {
    std::error_code error;
#if defined(__APPLE__)
    // macOS has no /proc: dyld says where the program was started from.
    std::uint32_t size = 0;
    _NSGetExecutablePath(nullptr, &size);
    std::string started(size, '\0');
    if (_NSGetExecutablePath(started.data(), &size) != 0) {
        return std::nullopt;
    }
    fs::path self = fs::canonical(started.c_str(), error);
#else
    fs::path self = fs::read_symlink("/proc/self/exe", error);
#endif
    if (error) {
        return std::nullopt;
    }
    return self;
}

/// Where the line `wanted` is in `lines`, from `from`; lines.size() when it is not.
std::size_t find_line(const std::vector<std::string>& lines, std::size_t from, const auto& wanted) {
    const auto found =
        std::find_if(lines.begin() + static_cast<std::ptrdiff_t>(from), lines.end(), wanted);
    return static_cast<std::size_t>(found - lines.begin());
}

/// The first line at or after `at` that is not blank.
std::size_t skip_blank(const std::vector<std::string>& lines, std::size_t at) {
    return find_line(lines, at, [](const std::string& line) { return !trim(line).empty(); });
}

bool is_given_marker(const std::string& line) { return line.starts_with(kGivenMarker); }

/// Each exercise's Given code against its solution's; the problems, one per exercise.
std::vector<std::string> given_code_problems(const Context& context) {
    const Course& course = context.course();
    std::vector<std::string> problems;
    std::error_code error;
    for (const Exercise& exercise : course.exercises()) {
        const fs::path stub = course.learner_file(exercise);
        const fs::path solution = course.solution_file(exercise);
        if (!fs::is_regular_file(solution, error)) {
            continue;  // a learner copy has no solutions
        }
        if (std::optional<std::string> problem =
                given_code_problem(exercise.id, read_file(stub), read_file(solution),
                                   context.show(stub), context.show(solution))) {
            problems.push_back(std::move(*problem));
        }
    }
    return problems;
}

ExitCode dev_index(Context& context, bool check) {
    const std::vector<GeneratedFile> stale = stale_files(course_index(context.root()));
    if (check) {
        if (stale.empty()) {
            context.out() << "course index: ok, " << layout::kExerciseIndex << ", "
                          << layout::kMistakeIndex
                          << " and the lessons' exercise tables agree with their Markdown\n";
            return ExitCode::kOk;
        }
        context.out() << "The course index is stale: these files differ from what `" << kCommand
                      << " dev index` writes from the Markdown they are made from:\n";
        for (const GeneratedFile& file : stale) {
            context.out() << "  " << context.show(file.path) << "\n";
        }
        context.out() << "Run `" << kCommand << " dev index` and commit what it writes.\n";
        return ExitCode::kTestsFailed;
    }
    for (const GeneratedFile& file : stale) {
        write_file(file.path, file.content);
        context.out() << "  wrote " << context.show(file.path) << "\n";
    }
    context.out() << (stale.empty() ? "course index: already up to date\n"
                                    : "course index: written; commit these files\n");
    return ExitCode::kOk;
}

ExitCode dev_check(Context& context) {
    const std::string root = context.root().string();
    std::vector<std::string> translations = {"python3", root + "/docs/check_translations.py", root,
                                             "--every-lesson"};
    if (const std::optional<fs::path> runner = this_runner()) {
        translations.insert(translations.end(), {"--runner", runner->string()});
    }
    const std::vector<std::pair<std::string, std::vector<std::string>>> steps = {
        {"course layout (exercises/index.json against the stubs, tests, solutions and mistakes)",
         {"cmake", "-D", "ROOT=" + root, "-P", root + "/cmake/TorchlingsCourse.cmake"}},
        {"course index (exercises/index.json, the mistakes' hunks, the exercise tables)",
         {"INDEX"}},
        {"course text (the CMake floor)",
         {"cmake", "-D", "ROOT=" + root, "-P", root + "/cmake/CheckCourseText.cmake"}},
        {"Korean pages match the English ones", translations},
    };
    bool ok = true;
    const auto report = [&](const std::string& name, bool passed, const std::string& output) {
        ok = ok && passed;
        context.out() << (passed ? context.style().good("  ok    ")
                                 : context.style().bad("  FAIL  "))
                      << name << "\n";
        if (!passed) {
            context.out() << indent(output, "        ") << "\n";
        }
    };
    for (const auto& [name, argv] : steps) {
        if (argv.front() == "INDEX") {  // the runner's own check, in this process
            std::ostringstream said;
            bool fresh = false;
            try {
                fresh = stale_files(course_index(context.root())).empty();
                if (!fresh) {
                    said << "stale: run `" << kCommand << " dev index --check` to see which files, "
                         << "`" << kCommand << " dev index` to write them";
                }
            } catch (const EnvironmentError& error) {
                said << error.what();
            }
            report(name, fresh, said.str());
            continue;
        }
        ProcessSpec spec = command_spec(argv);
        spec.cwd = context.root();
        const ProcessResult result = run_process(spec);
        report(name, result.succeeded(), last_lines(result.output, 20));
    }
    const std::vector<std::string> given = given_code_problems(context);
    report("the stubs' Given code is the solutions'", given.empty(), join(given, "\n"));
    ok = pristine_command(context, /*write=*/false) == ExitCode::kOk && ok;
    context.out() << "\nThe proofs that need a build (each stub fails, each solution passes, each "
                     "mistake is caught) run with:\n  cmake --preset ci && cmake --build --preset "
                     "ci && ctest --preset ci\n";
    return ok ? ExitCode::kOk : ExitCode::kTestsFailed;
}

}  // namespace

std::optional<std::string> given_code_problem(const std::string& id, std::string_view stub_text,
                                              std::string_view solution_text,
                                              const std::string& stub_name,
                                              const std::string& solution_name) {
    const std::vector<std::string> stub = split_lines(stub_text);
    const std::vector<std::string> solution = split_lines(solution_text);
    const std::size_t marker = find_line(stub, 0, is_given_marker);
    const std::size_t first = marker == stub.size() ? stub.size() : skip_blank(stub, marker + 1);
    if (first == stub.size()) {
        return std::nullopt;  // the stub gives nothing
    }
    const std::string head = id + ": the Given code of " + stub_name + " (from line " +
                             std::to_string(marker + 1) + ") is not " + solution_name + "'s";
    const std::string fix = "\n  the code after `" + std::string(kGivenMarker) +
                            "` is copied from the solution: copy it again";
    // Where it is in the solution: after the solution's own marker, else from its first line.
    std::size_t start = find_line(solution, 0, is_given_marker);
    start =
        start == solution.size()
            ? find_line(solution, 0, [&](const std::string& line) { return line == stub[first]; })
            : skip_blank(solution, start + 1);
    if (start == solution.size()) {
        return head + ": the solution has no line `" + stub[first] + "` (line " +
               std::to_string(first + 1) + " of the stub), where the Given code begins" + fix;
    }
    for (std::size_t i = 0; first + i < stub.size() || start + i < solution.size(); ++i) {
        const std::size_t at_stub = first + i;
        const std::size_t at_solution = start + i;
        if (at_stub < stub.size() && at_solution < solution.size() &&
            stub[at_stub] == solution[at_solution]) {
            continue;
        }
        const auto shown = [](const std::vector<std::string>& lines, std::size_t at) {
            return at < lines.size() ? "line " + std::to_string(at + 1) + ": " + lines[at]
                                     : std::string("(the file ends after line ") +
                                           std::to_string(lines.size()) + ")";
        };
        return head + "; the first line that differs:\n  stub     " + shown(stub, at_stub) +
               "\n  solution " + shown(solution, at_solution) + fix;
    }
    return std::nullopt;
}

ExitCode dev_command(Context& context, const DevOptions& options) {
    if (options.action == "new") {
        if (options.args.size() != 2) {
            throw UsageError("dev new takes a lesson and an id: dev new 03 pinned_copy");
        }
        return dev_new(context, options.args[0], options.args[1]);
    }
    if (options.check && options.action != "index") {
        throw UsageError("dev: --check goes with `dev index` only");
    }
    if (options.action == "check") {
        if (!options.args.empty()) {
            throw UsageError("dev check takes no arguments");
        }
        return dev_check(context);
    }
    if (options.action == "index") {
        if (!options.args.empty()) {
            throw UsageError("dev index takes no arguments but --check");
        }
        return dev_index(context, options.check);
    }
    throw UsageError("dev: unknown action \"" + options.action +
                     "\"; expected `dev new <lesson> <id>`, `dev check` or `dev index [--check]`");
}

}  // namespace torchlings::runner
