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

/// Where the graders go in the learner copy: what each platform runs, from outside the
/// learner's reach (Classroom 50's config repository, Gradescope's autograder zip). They carry the
/// manifest's digest, so they are not themselves in the manifest.
constexpr std::string_view kGraders = kGradersFolder;
constexpr std::string_view kClassroom50Autograder = "graders/classroom50/autograder.py";
constexpr std::string_view kClassroom50Runtime = "graders/classroom50/runtime.json";
constexpr std::string_view kGradescopeSetup = "graders/gradescope/setup.sh";
constexpr std::string_view kGradescopeRun = "graders/gradescope/run_autograder";
/// The zip Gradescope takes, beside the learner copy.
constexpr std::string_view kGradescopeZip = "autograder.zip";

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

/// Classroom 50's autograder for the class (its per-assignment entrypoint, at
/// <classroom>/autograders/<slug>/autograder.py of the classroom50 repository): run by Classroom
/// 50's runner with the learner's checkout as its working folder and CLASSROOM, ASSIGNMENT,
/// SUBMISSION_TAG, COMMIT_URL, RELEASE_URL and REVIEW_URL set; it writes result.json there and
/// exits 0, or exits non-zero (the runner then records an error) when the tests were edited.
std::string classroom50_autograder(const std::string& manifest_digest) {
    return R"py(#!/usr/bin/env python3
"""Classroom 50 autograder of a torchlings class, written by `./torchlings export --learner`.

Install it as <classroom>/autograders/<assignment>/autograder.py in your classroom50 repository.
Classroom 50's runner runs it in the learner's checkout with CLASSROOM, ASSIGNMENT,
SUBMISSION_TAG, COMMIT_URL, RELEASE_URL and REVIEW_URL set. Two commands grade:
  1. ./torchlings check --verify-tests   the course's tests must be the class's own (the manifest
                                         digest below is pinned here, out of the learner's reach)
  2. ./torchlings check --all --classroom50 result.json   one point per test case
Nothing of the checkout runs before its files are known to be the class's own: the manifest's
digest, then each listed file's (./torchlings and the build files included), are checked here
first. Edited files: exit 1, which the runner records as an error, with the files in the log.
TORCHLINGS_COMMAND replaces ./torchlings (a test runs the runner binary itself).
"""

import hashlib
import json
import os
import shlex
import subprocess
import sys

MANIFEST_SHA256 = ")py" +
           manifest_digest + R"py("


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def edited_files():
    """The class's files that differ in this checkout (all of them when the manifest does)."""
    try:
        if sha256("torchlings-manifest.json") != MANIFEST_SHA256:
            return ["torchlings-manifest.json"]
        with open("torchlings-manifest.json", encoding="utf-8") as file:
            listed = json.load(file)["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return ["torchlings-manifest.json"]
    edited = []
    for path, expected in sorted(listed.items()):
        try:
            if sha256(path) != expected:
                edited.append(path)
        except OSError:
            edited.append(path + " (missing)")
    return edited


if os.path.exists("result.json"):
    os.remove("result.json")
edited = edited_files()
if edited:
    print("autograder: not graded: these files differ from the class's:\n  " +
          "\n  ".join(edited) + "\nOnly the exercise files under exercises/ are the learner's to "
          "change; restore the others and submit again.", file=sys.stderr)
    sys.exit(1)
torchlings = shlex.split(os.environ.get("TORCHLINGS_COMMAND", "./torchlings"))
env = dict(os.environ, TORCHLINGS_MANIFEST_SHA256=MANIFEST_SHA256)
verified = subprocess.run(torchlings + ["check", "--verify-tests"], env=env, check=False)
if verified.returncode != 0:
    print("autograder: not graded: files other than the exercise files differ from the class's "
          "(listed above); restore them and submit again.", file=sys.stderr)
    sys.exit(1)
subprocess.run(torchlings + ["check", "--all", "--classroom50", "result.json"], env=env,
               check=False)
if not os.path.isfile("result.json"):
    print("autograder: check wrote no result.json (see above)", file=sys.stderr)
    sys.exit(1)
)py";
}

/// Classroom 50's runtime block for the assignment (`runs-on`): the runner label the grading
/// job runs on. A teacher with a GPU runner names its label, and the [gpu] cases are scored.
std::string classroom50_runtime() {
    return R"json({
  "runs-on": ["ubuntu-latest"]
}
)json";
}

/// Gradescope's setup.sh: run once, as root, when Gradescope builds the autograder's image
/// (Ubuntu), in the unpacked zip (/autograder/source): the course's own set-up, then the runner.
std::string gradescope_setup() {
    return R"sh(#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu), with the
# autograder zip unpacked in /autograder/source. It is the course's own set-up (the first part of
# the README's first command) and a build of the runner, so that grading a submission starts at
# once. Written by `./torchlings export --learner`.
set -euo pipefail
cd "${TORCHLINGS_AUTOGRADER_ROOT:-/autograder}/source"
chmod +x torchlings run_autograder setup.sh
./torchlings setup
./torchlings list > /dev/null
)sh";
}

/// Gradescope's run_autograder: the submission's files put in place, the tests verified, every
/// exercise checked into /autograder/results/results.json.
std::string gradescope_run(const std::string& manifest_digest,
                           const std::vector<std::string>& learner_files) {
    std::string learners;
    for (const std::string& file : learner_files) {
        learners += "  " + file + "\n";
    }
    return R"sh(#!/usr/bin/env bash
# Gradescope runs this for each submission, in /autograder (its root: TORCHLINGS_AUTOGRADER_ROOT).
#  1. The submission (/autograder/submission: a repository of the class, or just exercise files)
#     gives its exercise files, found by path or by name, to the course in /autograder/source.
#     Nothing else of it is copied or run: any other file at a path of the course that differs
#     from the class's (an edited test, ./torchlings, a CMakeLists.txt) refuses the submission,
#     with a score of 0 that says why; files the course does not have are ignored.
#  2. ./torchlings check --verify-tests, with the manifest digest pinned here: the course's own
#     files must still match torchlings-manifest.json.
#  3. ./torchlings check --all --gradescope /autograder/results/results.json: a point per case.
# TORCHLINGS_COMMAND replaces ./torchlings (a test runs the runner binary itself).
# Written by `./torchlings export --learner`.
set -uo pipefail
root="${TORCHLINGS_AUTOGRADER_ROOT:-/autograder}"
results="$root/results/results.json"
export TORCHLINGS_MANIFEST_SHA256=)sh" +
           manifest_digest + R"sh(
read -r -a torchlings <<< "${TORCHLINGS_COMMAND:-./torchlings}"
learner_files="
)sh" + learners +
           R"sh("
cd "$root/source" || exit 1
mkdir -p "$root/results"

edited=""
while IFS= read -r -d '' file; do
  relative="${file#./}"
  case "$relative" in .git/*|build/*|.torchlings/*) continue ;; esac
  target=""
  for learner in $learner_files; do
    if [ "$learner" = "$relative" ] || { [ "${relative%/*}" = "$relative" ] && [ "${learner##*/}" = "$relative" ]; }; then
      target="$learner"
    fi
  done
  if [ -n "$target" ]; then
    cp "$root/submission/$relative" "$target" && echo "submission: $relative -> $target"
  elif [ -f "$relative" ] && ! cmp -s "$root/submission/$relative" "$relative"; then
    case "$relative" in
      *.md|*.ipynb|.gitignore|*/.gitignore) echo "submission: $relative ignored (prose)" ;;
      *) edited="$edited $relative"; echo "submission: $relative differs from the class's" ;;
    esac
  else
    echo "submission: $relative ignored"
  fi
done < <(cd "$root/submission" && find . -type f -print0)

if [ -n "$edited" ]; then
  # Names made JSON-safe: letters, digits and ./_- only.
  named=$(printf '%s' "$edited" | tr -c 'A-Za-z0-9./_ -' '?' | sed 's/^ //; s/ /, /g')
  printf '{"score": 0, "tests": [], "output": "Not graded: files of the course other than your exercise files differ from the class'"'"'s: %s. Submit only your exercises/<lesson>/<id>.cpp files, or restore the others."}\n' \
    "$named" >"$results"
  echo "run_autograder: refused, edited:$edited"
  exit 0
fi

if ! "${torchlings[@]}" check --verify-tests --gradescope "$results"; then
  exit 0  # refused: results.json says why, with a score of 0
fi
"${torchlings[@]}" check --all --gradescope "$results"
[ -f "$results" ] || { echo "run_autograder: check wrote no $results" >&2; exit 1; }
)sh";
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
    fs::path root = fs::weakly_canonical(fs::absolute(context.root()), error);
    if (error) {
        root = fs::absolute(context.root()).lexically_normal();
    }
    if (root.filename().empty()) {
        root = root.parent_path();  // "/course/" as "/course"
    }
    fs::path resolved = fs::weakly_canonical(target, error);
    if (error) {
        resolved = target;
    }
    if (resolved.filename().empty()) {
        resolved = resolved.parent_path();
    }
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
    const std::vector<std::string> learners = learner_files(context);
    HashList manifest;
    int copied = 0;
    for (const std::string& relative : course_files(context.root())) {
        // .ci/ is the course's own CI: it proves every stub fails, which a class's work won't.
        if (relative.starts_with("solutions/") || relative.starts_with(".ci/") ||
            relative == kTestManifest || relative.starts_with(std::string(kGraders) + "/")) {
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
    write_file(target / kClassroom50Autograder, classroom50_autograder(digest));
    write_file(target / kClassroom50Runtime, classroom50_runtime());
    write_file(target / kGradescopeSetup, gradescope_setup());
    write_file(target / kGradescopeRun, gradescope_run(digest, learners));
    for (const std::string_view script :
         {kClassroom50Autograder, kGradescopeSetup, kGradescopeRun}) {
        fs::permissions(target / script,
                        fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                        fs::perm_options::add);
    }
    const std::string zip = (target.parent_path() / kGradescopeZip).string();

    out << context.style().good("Exported") << " " << copied << " files to " << target.string()
        << " (without solutions/; the catalogue of mistakes of " << notes
        << " exercises without its diffs).\n"
        << "  " << kTestManifest << ": the SHA-256 of " << manifest.size()
        << " course files that learners must not change (all but exercises/*/<id>.cpp and "
           "prose)\n"
        << "  its own SHA-256: " << digest << ", pinned in the graders:\n"
        << "  " << kClassroom50Autograder
        << ": Classroom 50's autograder (check --verify-tests, then check --all --classroom50 "
           "result.json); install it as <classroom>/autograders/<assignment>/autograder.py, and "
        << kClassroom50Runtime << " as the assignment's runtime (runs-on: a GPU runner's label "
        << "scores the [gpu] cases)\n"
        << "  " << kGradescopeSetup << ", " << kGradescopeRun
        << ": Gradescope's autograder; its zip, with both at the root:\n"
        << "    cd " << target.string() << " && rm -f " << zip << " && zip -qr " << zip
        << " . -x '.git/*' 'build/*' '.torchlings/*' '" << kGraders << "/*' && zip -qj " << zip
        << " " << kGradescopeSetup << " " << kGradescopeRun << "\n"
        << "Next: cd " << target.string()
        << " && git init && git add -A && git commit -m \"Course\", push it, and make it the "
           "template repository of the assignment.\n";
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
