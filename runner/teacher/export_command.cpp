/// @file
/// @brief `export --learner DIR`: a class's template repository.
#include <algorithm>
#include <ostream>
#include <system_error>

#include "core/hashing.h"
#include "core/mistake_catalogue.h"
#include "core/process.h"
#include "core/text.h"
#include "teacher/manifest.h"
#include "teacher/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// Where a class's grading workflow goes in the learner copy. It carries the manifest's digest,
/// so it is not itself in the manifest.
constexpr std::string_view kClassroomWorkflow = ".github/workflows/classroom.yml";

/// Folders of the course root that are never part of the course's files.
bool is_local_folder(const std::string& relative) {
    for (const std::string_view prefix : {".git/", "build/", ".torchlings/"}) {
        if (relative.starts_with(prefix)) {
            return true;
        }
    }
    return false;
}

/// The course's files, relative with '/': git's list (tracked plus untracked but not ignored)
/// inside a git work tree, else (also when git ignores the course folder itself) every file
/// but .git/, build/ and .torchlings/.
std::vector<std::string> course_files(const fs::path& root) {
    std::vector<std::string> files;
    if (find_program("git")) {
        const ProcessResult listed =
            run_process(command_spec({"git", "-C", root.string(), "ls-files", "-z", "--cached",
                                      "--others", "--exclude-standard"}));
        if (listed.succeeded()) {
            std::size_t start = 0;
            while (start < listed.output.size()) {
                const std::size_t end = listed.output.find('\0', start);
                std::string path = listed.output.substr(
                    start, end == std::string::npos ? std::string::npos : end - start);
                std::error_code error;
                if (!path.empty() && fs::is_regular_file(root / path, error)) {
                    files.push_back(std::move(path));
                }
                if (end == std::string::npos) {
                    break;
                }
                start = end + 1;
            }
            std::sort(files.begin(), files.end());
            files.erase(std::unique(files.begin(), files.end()), files.end());
            if (std::any_of(files.begin(), files.end(),
                            [](const std::string& file) { return file.starts_with("lessons/"); })) {
                return files;
            }
            files.clear();
        }
    }
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
        std::string relative = fs::relative(entry.path(), root).generic_string();
        if (entry.is_regular_file() && !is_local_folder(relative)) {
            files.push_back(std::move(relative));
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// The learners' files, relative with '/'.
std::vector<std::string> learner_files(Context& context) {
    std::vector<std::string> files;
    for (const Exercise& exercise : context.course().exercises()) {
        files.push_back(
            fs::relative(context.course().learner_file(exercise), context.root()).generic_string());
    }
    return files;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

/// Files whose edits do not change a grade: prose, notebooks, git's own settings.
bool is_prose(const std::string& relative) {
    return relative.ends_with(".md") || relative.ends_with(".ipynb") ||
           relative.ends_with(".gitignore");
}

/// The GitHub Actions workflow that grades each push of a learner's repository: Debian 12
/// (whose Catch2 is the version the course uses), the manifest check, then every exercise with
/// its per-test scores handed to GitHub Classroom's reporter.
std::string classroom_workflow(const std::string& manifest_digest) {
    return R"yaml(# Grades each push: the course's tests must be the class's own (check --verify-tests), then
# every exercise is checked and each test case scores a point in GitHub Classroom.
# Written by `./torchlings export --learner`; the digest below is that of torchlings-manifest.json.
name: Autograding
on: [push, workflow_dispatch]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  grade:
    runs-on: ubuntu-latest
    container: debian:12
    timeout-minutes: 90
    env:
      TORCHLINGS_MANIFEST_SHA256: )" +
           manifest_digest + R"yaml(
    steps:
      - name: Tools for the checkout
        run: apt-get update -qq && apt-get install -y -qq git ca-certificates
      - uses: actions/checkout@v4
      - name: The tests are the class's own
        run: ./torchlings check --verify-tests
      - name: Check every exercise
        id: torchlings
        run: |
          ./torchlings check --all --classroom classroom.json --junit junit.xml || true
          echo "result=$(base64 -w0 classroom.json)" >> "$GITHUB_OUTPUT"
      - name: Report to GitHub Classroom
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          TORCHLINGS_RESULTS: "${{ steps.torchlings.outputs.result }}"
        with:
          runners: torchlings
)yaml";
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
    // part of the course (and of the next export).
    fs::path root = fs::absolute(context.root()).lexically_normal();
    if (root.filename().empty()) {
        root = root.parent_path();  // "/course/" as "/course"
    }
    const std::string inside = target.lexically_relative(root).generic_string();
    if (same_path(target, root) ||
        (!inside.empty() && !inside.starts_with("..") && !inside.starts_with("build/"))) {
        throw UsageError("export --learner: the folder must lie outside the course (" +
                         root.string() + "), or in its build/ folder.");
    }
    const std::vector<std::string> learners = learner_files(context);
    HashList manifest;
    int copied = 0;
    for (const std::string& relative : course_files(context.root())) {
        // .ci/ is the course's own CI: it proves every stub fails, which a class's work won't.
        if (relative.starts_with("solutions/") || relative.starts_with(".ci/") ||
            relative == kTestManifest || relative == kClassroomWorkflow) {
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
        if (!contains(learners, relative) && !is_prose(relative)) {
            manifest.emplace(relative, sha256_file(destination));
        }
    }
    // The catalogue of mistakes stays with the solutions, but what `check` says of a known mistake
    // (titles, why, signatures) goes along, without the diffs that would show the solution.
    int notes = 0;
    const Course& course = context.course();
    for (const Exercise& exercise : course.exercises()) {
        const fs::path catalogue = course.mistake_catalogue(exercise);
        if (!fs::is_regular_file(catalogue, error)) {
            continue;
        }
        const fs::path relative = course.mistake_notes(exercise).lexically_relative(course.root());
        write_file(target / relative, without_diffs(read_file(catalogue)));
        ++notes;
    }
    write_hash_list(target / kTestManifest, "files", manifest);
    const std::string digest = sha256_file(target / kTestManifest);
    write_file(target / kClassroomWorkflow, classroom_workflow(digest));

    out << context.style().good("Exported") << " " << copied << " files to " << target.string()
        << " (without solutions/; the catalogue of mistakes of " << notes
        << " exercises without its diffs).\n"
        << "  " << kTestManifest << ": the SHA-256 of " << manifest.size()
        << " course files that learners must not change (all but exercises/*/<id>.cpp and "
           "prose)\n"
        << "  its own SHA-256: " << digest << "\n"
        << "  " << kClassroomWorkflow
        << ": grades each push (check --verify-tests, then check --all --classroom)\n"
        << "Next: cd " << target.string()
        << " && git init && git add -A && git commit -m \"Course\", push it, and make it a "
           "template repository for the class.\n";
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
