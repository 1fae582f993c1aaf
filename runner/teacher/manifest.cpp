/// @file
/// @brief The test manifest of a learner copy, which `check --verify-tests` compares.
#include "teacher/manifest.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>
#include <system_error>

#include "core/hashing.h"
#include "core/text.h"
#include "teacher/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Set by a class's workflow to the manifest's own SHA-256, which `export` prints, so that an
/// edited manifest is refused as well as an edited test.
constexpr const char* kManifestDigestVariable = "TORCHLINGS_MANIFEST_SHA256";

/// Files of a learner copy that the manifest does not list but that cannot change how a test
/// compiles: Markdown, notebooks, the learners' exercise files, and what lies in hidden folders
/// (.git, .torchlings), build folders and the graders' folder.
std::vector<std::string> unlisted_files(const Context& context, const HashList& listed) {
    const std::vector<std::string> learners = learner_files(context);
    std::vector<std::string> found;
    std::error_code error;
    fs::recursive_directory_iterator walk(context.root(),
                                          fs::directory_options::skip_permission_denied, error);
    for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
        const fs::path& path = walk->path();
        const std::string name = path.filename().string();
        if (walk->is_directory(error) && !walk->is_symlink(error)) {
            if (name.starts_with('.') ||
                (walk.depth() == 0 && (name.starts_with("build") || name == kGradersFolder)) ||
                fs::exists(path / "CMakeCache.txt", error)) {
                walk.disable_recursion_pending();
            }
            continue;
        }
        const std::string relative = fs::relative(path, context.root()).generic_string();
        const std::string extension = path.extension().string();
        if (listed.contains(relative) || std::ranges::find(learners, relative) != learners.end() ||
            relative == kTestManifest || extension == ".md" || extension == ".ipynb" ||
            name.starts_with('.')) {
            continue;
        }
        found.push_back(relative);
    }
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace

std::vector<std::string> learner_files(const Context& context) {
    std::vector<std::string> files;
    for (const Exercise& exercise : context.course().exercises()) {
        files.push_back(
            fs::relative(context.course().learner_file(exercise), context.root()).generic_string());
    }
    return files;
}

ExitCode verify_tests(Context& context) {
    const fs::path manifest = context.root() / kTestManifest;
    std::error_code error;
    if (!fs::exists(manifest, error)) {
        throw EnvironmentError(
            "This course has no " + std::string(kTestManifest) +
                ", so there is nothing to verify the tests against: --verify-tests is for "
                "copies of the course made with `export --learner`.",
            std::string(kCommand) + " export --learner <folder>   (teachers)");
    }
    std::ostream& out = context.out();
    const Style& style = context.style();
    const std::string manifest_digest = sha256_file(manifest);
    const char* pinned = std::getenv(kManifestDigestVariable);
    if (pinned != nullptr && *pinned != '\0' && manifest_digest != pinned) {
        out << style.bad("verify-tests: " + std::string(kTestManifest) + " itself was edited") +
                   " (its SHA-256 is " + manifest_digest + ", the class expects " + pinned +
                   " from " + kManifestDigestVariable + ").\n";
        return ExitCode::kTestsEdited;
    }
    std::vector<std::string> problems;
    const HashList expected = read_hash_list(manifest, "files");
    for (const auto& [path, hash] : expected) {
        const fs::path file = context.root() / path;
        if (!fs::exists(file, error)) {
            problems.push_back(path + " is missing");
        } else if (sha256_file_or_empty(file) != hash) {
            problems.push_back(path + " was edited");
        }
    }
    for (const std::string& extra : unlisted_files(context, expected)) {
        problems.push_back(extra +
                           " is not in the class's copy (a file the manifest does not list, such "
                           "as a header named like the course's, could change how the tests "
                           "compile): remove it");
    }
    if (!problems.empty()) {
        out << style.bad("verify-tests: " + std::to_string(problems.size()) + " of " +
                         std::to_string(expected.size()) +
                         " course files differ from the class's copy:")
            << "\n";
        for (const std::string& problem : problems) {
            out << "  " << problem << "\n";
        }
        out << "Only the exercise files under exercises/ are yours to change. Restore the others "
               "with `git checkout <first commit> -- <file>`.\n";
        return ExitCode::kTestsEdited;
    }
    out << style.good("verify-tests: ok") << ", " << expected.size() << " course files match "
        << kTestManifest << " (SHA-256 " << manifest_digest << ").\n";
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
