/// @file
/// @brief `export --learner DIR`: a class's template repository.
#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>
#include <system_error>

#include "core/assertion_counts.h"
#include "core/hashing.h"
#include "core/mistake_catalogue.h"
#include "core/process.h"
#include "core/text.h"
#include "maintainer/course_index.h"
#include "teacher/graders.h"
#include "teacher/manifest.h"
#include "teacher/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// Where the graders go in the learner copy: what each platform runs, from outside the
/// learner's reach (Classroom 50's config repository, Gradescope's autograder zip). They carry the
/// manifest's digest, so they are not themselves in the manifest.
constexpr std::string_view kClassroom50Autograder = "graders/classroom50/autograder.py";
constexpr std::string_view kClassroom50Runtime = "graders/classroom50/runtime.json";
constexpr std::string_view kGradescopeSetup = "graders/gradescope/setup.sh";
constexpr std::string_view kGradescopeRun = "graders/gradescope/run_autograder";
constexpr std::string_view kGradescopeDockerfile = "graders/gradescope/Dockerfile";
/// The zip Gradescope takes, beside the learner copy.
constexpr std::string_view kGradescopeZip = "autograder.zip";

/// The course's files, relative with '/': git's list (tracked plus untracked but not ignored)
/// inside a git work tree, else (also when git ignores the course folder itself) every file
/// but .git/, build/ and .torchlings/.
std::vector<std::string> course_files(const fs::path& root) {
    std::vector<std::string> files;
    if (find_program("git")) {
        const ProcessResult listed =
            run_process(command_spec({"git", "-C", root.string(), "ls-files", "-z", "--cached",
                                      "--others", "--exclude-standard"}));
        std::istringstream paths(listed.succeeded() ? listed.output : std::string());
        std::error_code error;
        for (std::string path; std::getline(paths, path, '\0');) {
            if (!path.empty() && fs::is_regular_file(root / path, error)) {
                files.push_back(std::move(path));
            }
        }
        std::sort(files.begin(), files.end());
        files.erase(std::unique(files.begin(), files.end()), files.end());
        if (std::any_of(files.begin(), files.end(),
                        [](const std::string& file) { return file.starts_with("lessons/"); })) {
            return files;
        }
        files.clear();
    }
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
        std::string relative = fs::relative(entry.path(), root).generic_string();
        if (entry.is_regular_file() && !relative.starts_with(".git/") &&
            !relative.starts_with("build/") && !relative.starts_with(".torchlings/")) {
            files.push_back(std::move(relative));
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// The course's package list (scripts/setup/apt-packages.txt, which the first command installs
/// from): one name a line, `#` comments.
constexpr std::string_view kAptPackages = "scripts/setup/apt-packages.txt";

/// Classroom 50's runtime block: the template's keys, and `apt`, the packages its grade job
/// installs with sudo apt-get before the autograder runs, so that the course's own set-up finds
/// them all and installs nothing.
std::string classroom50_runtime(const fs::path& root) {
    nlohmann::json runtime = nlohmann::json::parse(graders::kClassroom50Runtime);
    nlohmann::json packages = nlohmann::json::array();
    std::istringstream lines(read_file(root / kAptPackages));
    for (std::string line; std::getline(lines, line);) {
        const std::string name = trim(line);
        if (!name.empty() && !name.starts_with('#')) {
            packages.push_back(name);
        }
    }
    if (packages.empty()) {
        throw EnvironmentError("export: " + std::string(kAptPackages) +
                               " lists no packages; it should name one Debian package a line.");
    }
    runtime["apt"] = std::move(packages);
    return runtime.dump(2) + "\n";
}

/// The folders of the lessons whose exercises go into the copy: `spec` is a comma-separated list
/// of lesson numbers and ranges ("01-03,05"); empty, every lesson. Throws UsageError for a number
/// the course lacks (listing the valid ones), a range that runs backwards, and a chosen lesson
/// without exercises (in a copy that was itself exported with --lessons).
std::set<std::string> chosen_lessons(const Course& course, const std::string& spec) {
    std::set<std::string> folders;
    if (spec.empty()) {
        for (const Lesson& lesson : course.lessons()) {
            folders.insert(lesson.dir);
        }
        return folders;
    }
    std::istringstream items(spec);
    for (std::string item; std::getline(items, item, ',');) {
        item = trim(item);
        const std::size_t dash = item.find('-');
        if (item.empty() || dash == 0 || dash + 1 == item.size() || spec.ends_with(',')) {
            throw UsageError("export --lessons '" + spec +
                             "': write lesson numbers and ranges separated by commas, e.g. "
                             "01-03,05.");
        }
        const Lesson& first = course.resolve_lesson(trim(item.substr(0, dash)));
        const Lesson& last =
            dash == std::string::npos ? first : course.resolve_lesson(trim(item.substr(dash + 1)));
        if (last.number < first.number) {
            throw UsageError("export --lessons '" + spec + "': the range " + item +
                             " runs backwards; write it as " + last.number + "-" + first.number +
                             ".");
        }
        for (const Lesson& lesson : course.lessons()) {
            if (lesson.number >= first.number && lesson.number <= last.number) {
                folders.insert(lesson.dir);
            }
        }
    }
    for (const Lesson& lesson : course.lessons()) {
        if (folders.contains(lesson.dir) && course.exercises_of(lesson).empty()) {
            throw UsageError("export --lessons '" + spec + "': lesson " + lesson.number +
                             " has no exercises in this copy of the course; choose among "
                             "those that do (./torchlings list).");
        }
    }
    return folders;
}

/// Whether `relative` is an exercise's file or test of a lesson that is not among `chosen`.
bool of_other_lesson(const std::string& relative, const Course& course,
                     const std::set<std::string>& chosen) {
    return std::ranges::any_of(course.lessons(), [&](const Lesson& lesson) {
        return !chosen.contains(lesson.dir) &&
               (relative.starts_with("exercises/" + lesson.dir + "/") ||
                relative.starts_with("tests/exercises/" + lesson.dir + "/"));
    });
}

/// Throws unless the course's exercise index (kExerciseIndex) holds, for each lesson, what `dev
/// index` writes for it now (maintainer/course_index.h): the copy takes the index as exported,
/// whatever its info.md says later (a learner copy's configure compares no hashes).
void require_current_index(const Course& course) {
    const fs::path index_file = course.root() / layout::kExerciseIndex;
    std::error_code error;
    nlohmann::json written;
    if (fs::is_regular_file(index_file, error)) {
        written = nlohmann::json::parse(read_file(index_file), nullptr, false);
    }
    const nlohmann::json lessons =
        written.is_object() ? written.value("lessons", nlohmann::json()) : nlohmann::json();
    const nlohmann::json current = nlohmann::json::parse(exercise_index_json(course));
    for (const auto& [dir, entry] : current["lessons"].items()) {
        if (!lessons.is_object() || !lessons.contains(dir) || lessons[dir] != entry) {
            throw EnvironmentError("export: " + std::string(layout::kExerciseIndex) +
                                   " is older than " + entry["source"].get<std::string>() +
                                   "; run `./torchlings dev index`, commit what it writes, then "
                                   "export again (the copy takes the index as it is exported).");
        }
    }
}

/// Files whose edits do not change a grade: prose, notebooks, git's own settings.
bool is_prose(const std::string& relative) {
    return relative.ends_with(".md") || relative.ends_with(".ipynb") ||
           relative.ends_with(".gitignore");
}

/// `text` with each `{{name}}` of `values` replaced by its value.
std::string filled(std::string_view text,
                   std::initializer_list<std::pair<std::string_view, std::string>> values) {
    std::string result(text);
    for (const auto& [name, value] : values) {
        const std::string placeholder = "{{" + std::string(name) + "}}";
        for (std::size_t at = result.find(placeholder); at != std::string::npos;
             at = result.find(placeholder, at + value.size())) {
            result.replace(at, placeholder.size(), value);
        }
    }
    return result;
}

}  // namespace

ExitCode export_command(Context& context, const ExportOptions& options) {
    std::ostream& out = context.out();
    const fs::path target = fs::absolute(options.learner_dir).lexically_normal();
    std::error_code error;
    if (fs::exists(target, error) && !fs::is_empty(target, error)) {
        throw UsageError("export --learner: " + target.string() +
                         " already exists and is not empty; name a new folder, so that nothing "
                         "in it is overwritten.");
    }
    // Inside the course, only a build folder may hold the copy: anywhere else it would become
    // part of the course (and of the next export). Both paths are compared with every symbolic
    // link resolved (weakly: the target need not exist yet), so that a link to the course, or a
    // folder under one, is seen for what it is.
    const auto resolve = [&error](const fs::path& path, const fs::path& fallback) {
        const fs::path canonical = fs::weakly_canonical(path, error);
        const fs::path& found = error ? fallback : canonical;
        return found.filename().empty() ? found.parent_path() : found;  // "/course/" as "/course"
    };
    const fs::path root =
        resolve(fs::absolute(context.root()), fs::absolute(context.root()).lexically_normal());
    const fs::path resolved = resolve(target, target);
    const std::string inside = resolved.lexically_relative(root).generic_string();
    if (same_path(resolved, root) || inside == "." ||
        (!inside.empty() && !inside.starts_with("..") && !inside.starts_with("build/"))) {
        const std::string named = resolved == target
                                      ? std::string()
                                      : " (" + target.string() + " is " + resolved.string() + ")";
        throw UsageError("export --learner: the folder must lie outside the course (" +
                         root.string() + "), or in its build/ folder" + named +
                         "; name a folder outside it, e.g. ../" + root.filename().string() +
                         "-class.");
    }
    const Course& course = context.course();
    const std::set<std::string> chosen = chosen_lessons(course, options.lessons);
    require_current_index(course);
    std::vector<std::string> learners = learner_files(context);
    std::erase_if(learners,
                  [&](const std::string& file) { return of_other_lesson(file, course, chosen); });
    HashList manifest;
    int copied = 0;
    for (const std::string& relative : course_files(context.root())) {
        // .ci/ is the course's own CI: it proves every stub fails, which a class's work won't;
        // .github/ holds the course's own workflows (macOS), which would run on every push of
        // every learner's copy.
        if (relative.starts_with("solutions/") || relative.starts_with(".ci/") ||
            relative.starts_with(".github/") || relative == kTestManifest ||
            relative.starts_with(std::string(kGradersFolder) + "/") ||
            of_other_lesson(relative, course, chosen)) {
            continue;
        }
        if (relative == kPristineManifest && chosen.size() < course.lessons().size()) {
            // The untouched stubs of the exercises that went along, and of no others.
            HashList stubs = read_hash_list(context.root() / relative, "stubs");
            std::erase_if(stubs, [&](const auto& entry) {
                return of_other_lesson(entry.first, course, chosen);
            });
            write_hash_list(target / relative, "stubs", stubs);
            manifest.emplace(relative, sha256_file(target / relative));
            ++copied;
            continue;
        }
        if (relative == kAssertionCounts && chosen.size() < course.lessons().size()) {
            // The counts of the exercises that went along, and of no others.
            AssertionCounts counts = read_assertion_counts(context.root() / relative);
            std::erase_if(counts, [&](const auto& entry) {
                const Exercise* exercise = course.find_exercise(entry.first);
                return exercise == nullptr || !chosen.contains(course.lesson_of(*exercise).dir);
            });
            write_file(target / relative, assertion_counts_json(counts));
            manifest.emplace(relative, sha256_file(target / relative));
            ++copied;
            continue;
        }
        if (relative == layout::kExerciseIndex && chosen.size() < course.lessons().size()) {
            // The index of the lessons whose exercises went along, as `dev index` writes it
            // there: configure builds no exercise whose info.md stayed behind.
            nlohmann::ordered_json index =
                nlohmann::ordered_json::parse(read_file(context.root() / relative));
            for (const Lesson& lesson : course.lessons()) {
                if (!chosen.contains(lesson.dir)) {
                    index["lessons"].erase(lesson.dir);
                }
            }
            write_file(target / relative, index.dump(2) + "\n");
            manifest.emplace(relative, sha256_file(target / relative));
            ++copied;
            continue;
        }
        const fs::path destination = target / relative;
        fs::create_directories(destination.parent_path());
        fs::copy_file(context.root() / relative, destination, fs::copy_options::none, error);
        if (error) {
            throw EnvironmentError("export: cannot copy " + relative + " to " +
                                   destination.string() + ": " + error.message());
        }
        ++copied;
        if (std::ranges::find(learners, relative) == learners.end() && !is_prose(relative)) {
            manifest.emplace(relative, sha256_file(destination));
        }
    }
    // The catalogue of mistakes stays with the solutions, but what `check` says of a known mistake
    // (titles, why, signatures) goes along, without the diffs that would show the solution.
    int notes = 0;
    for (const Exercise& exercise : course.exercises()) {
        const fs::path catalogue = course.mistake_catalogue(exercise);
        if (!chosen.contains(course.lesson_of(exercise).dir) ||
            !fs::is_regular_file(catalogue, error)) {
            continue;
        }
        const fs::path relative = course.mistake_notes(exercise).lexically_relative(course.root());
        write_file(target / relative, without_diffs(read_file(catalogue)));
        ++notes;
    }
    write_hash_list(target / kTestManifest, "files", manifest);
    const std::string digest = sha256_file(target / kTestManifest);
    // The graders (runner/teacher/graders/): Classroom 50's autograder.py and runtime block,
    // Gradescope's setup.sh and run_autograder, with the manifest's digest pinned in them.
    std::string listed;
    for (const std::string& file : learners) {
        listed += "  " + file + "\n";
    }
    write_file(target / kClassroom50Autograder,
               filled(graders::kClassroom50Autograder,
                      {{"manifest_sha256", digest}, {"learner_files", listed}}));
    write_file(target / kClassroom50Runtime, classroom50_runtime(context.root()));
    write_file(target / kGradescopeSetup, std::string(graders::kGradescopeSetup));
    write_file(target / kGradescopeDockerfile, std::string(graders::kGradescopeDockerfile));
    write_file(
        target / kGradescopeRun,
        filled(graders::kGradescopeRun, {{"manifest_sha256", digest}, {"learner_files", listed}}));
    for (const std::string_view script :
         {kClassroom50Autograder, kGradescopeSetup, kGradescopeRun}) {
        fs::permissions(target / script,
                        fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                        fs::perm_options::add);
    }
    const std::string zip = (target.parent_path() / kGradescopeZip).string();

    out << context.style().good("Exported") << " " << copied << " files to " << target.string()
        << " (without solutions/; the catalogue of mistakes of " << notes
        << " exercises without its diffs).\n";
    if (chosen.size() < course.lessons().size()) {
        out << "  the exercises of lesson" << (chosen.size() > 1 ? "s " : " ");
        std::string separator;
        for (const Lesson& lesson : course.lessons()) {
            if (chosen.contains(lesson.dir)) {
                out << separator << lesson.number;
                separator = ", ";
            }
        }
        out << " only: " << learners.size() << " of " << course.exercises().size()
            << " (every lesson's page and program stay)\n";
    }
    out << "  " << kTestManifest << ": the SHA-256 of " << manifest.size()
        << " course files that learners must not change (all but exercises/*/<id>.cpp and "
           "prose)\n"
        << "  its own SHA-256: " << digest << ", pinned in the graders:\n"
        << "  " << kClassroom50Autograder
        << ": Classroom 50's autograder (check --verify-tests, then check --all --classroom50 "
           "result.json); install it as <classroom>/autograders/<assignment>/autograder.py, and "
        << kClassroom50Runtime << " as the assignment's runtime (the packages its grade job "
        << "installs; runs-on: a GPU runner's label scores the [gpu] cases)\n"
        << "  " << kGradescopeSetup << ", " << kGradescopeRun
        << ": Gradescope's autograder; its zip, with both at the root:\n"
        << "    cd " << target.string() << " && rm -f " << zip << " && zip -qr " << zip
        << " . -x '.git/*' 'build/*' '.torchlings/*' '" << kGradersFolder << "/*' && zip -qj "
        << zip << " " << kGradescopeSetup << " " << kGradescopeRun << "\n"
        << "  " << kGradescopeDockerfile
        << ": the class's image, everything built (Gradescope's manual Docker image, or the "
           "container of Classroom 50's runtime, which then rebuilds only what a submission "
           "changed); docs/teachers.md says how to build it\n"
        << "Next: cd " << target.string()
        << " && git init && git add -A && git commit -m \"Course\", push it, and make it the "
           "template repository of the assignment.\n";
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
