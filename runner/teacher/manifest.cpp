/// @file
/// @brief The test manifest of a learner copy, which `check --verify-tests` compares.
#include "teacher/manifest.h"

#include <algorithm>
#include <array>
#include <cctype>
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

/// Files of a learner copy that the manifest does not list and that are not passed over without a
/// word: what lies in hidden folders (.git, .torchlings), build folders and the graders' folder,
/// Markdown, notebooks and the learners' exercise files are; inert files go into `inert`, every
/// other one is returned.
std::vector<std::string> unlisted_files(const Context& context, const HashList& listed,
                                        std::vector<std::string>& inert) {
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
            name.starts_with('.') ||
            (walk.depth() == 0 &&
             std::ranges::find(kPlatformRootFiles, name) != kPlatformRootFiles.end())) {
            continue;
        }
        (is_inert_file(relative) ? inert : found).push_back(relative);
    }
    std::sort(found.begin(), found.end());
    std::sort(inert.begin(), inert.end());
    return found;
}

}  // namespace

bool is_inert_file(const fs::path& relative) {
    static constexpr std::array<std::string_view, 16> kInert = {
        ".txt", ".pdf", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".csv",
        ".log", ".zip", ".gz",  ".tar", ".docx", ".odt", ".rtf", ".html"};
    std::string extension = relative.extension().string();
    std::ranges::transform(extension, extension.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string name = relative.filename().string();
    return std::ranges::find(kInert, extension) != kInert.end() && name != "CMakeLists.txt";
}

std::vector<std::string> learner_files(const Context& context) {
    std::vector<std::string> files;
    for (const Exercise& exercise : context.course().exercises()) {
        files.push_back(
            fs::relative(context.course().learner_file(exercise), context.root()).generic_string());
    }
    return files;
}

Verification verify_tests(Context& context) {
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
        return {ExitCode::kTestsEdited, {std::string(kTestManifest) + " was edited"}};
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
    std::vector<std::string> inert;
    for (const std::string& extra : unlisted_files(context, expected, inert)) {
        problems.push_back(extra +
                           " is not in the class's copy (a file the manifest does not list, such "
                           "as a header named like the course's, could change how the tests "
                           "compile): remove it");
    }
    for (const std::string& file : inert) {
        out << "verify-tests: " << file
            << " passed over (not in the class's copy, but no build step takes it in)\n";
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
        return {ExitCode::kTestsEdited, std::move(problems)};
    }
    out << style.good("verify-tests: ok") << ", " << expected.size() << " course files match "
        << kTestManifest << " (SHA-256 " << manifest_digest << ").\n";
    return {};
}

}  // namespace torchlings::runner
