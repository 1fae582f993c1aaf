/// @file
/// @brief The test manifest of a learner copy, and the stub manifest of the course with its
/// `pristine` verb.
#include "tl_runner/manifest.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <system_error>

#include "tl_runner/commands.h"
#include "tl_runner/hashing.h"
#include "tl_runner/text.h"

namespace torchlings::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kManifestFormatVersion = 1;

/// Set by a class's workflow to the manifest's own SHA-256, which `export` prints, so that an
/// edited manifest is refused as well as an edited test.
constexpr const char* kManifestDigestVariable = "TORCHLINGS_MANIFEST_SHA256";

/// Files of a learner copy that the manifest does not list but that cannot change how a test
/// compiles: Markdown, notebooks, the learners' exercise files, and what lies in hidden folders
/// (.git, .torchlings) and build folders.
std::vector<std::string> unlisted_files(const Context& context, const HashList& listed) {
    std::set<std::string> learner_files;
    for (const Exercise& exercise : context.course().exercises()) {
        learner_files.insert(
            fs::relative(context.course().learner_file(exercise), context.root()).generic_string());
    }
    std::vector<std::string> found;
    std::error_code error;
    fs::recursive_directory_iterator walk(context.root(),
                                          fs::directory_options::skip_permission_denied, error);
    for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
        const fs::path& path = walk->path();
        const std::string name = path.filename().string();
        if (walk->is_directory(error) && !walk->is_symlink(error)) {
            if ((!name.empty() && name.front() == '.') ||
                (walk.depth() == 0 && name.rfind("build", 0) == 0) ||
                fs::exists(path / "CMakeCache.txt", error)) {
                walk.disable_recursion_pending();
            }
            continue;
        }
        const std::string relative = fs::relative(path, context.root()).generic_string();
        const std::string extension = path.extension().string();
        if (listed.contains(relative) || learner_files.contains(relative) ||
            relative == kTestManifest || extension == ".md" || extension == ".ipynb" ||
            (!name.empty() && name.front() == '.')) {
            continue;
        }
        found.push_back(relative);
    }
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace

void write_hash_list(const fs::path& file, std::string_view key, const HashList& hashes) {
    json list = json::object();
    for (const auto& [path, hash] : hashes) {
        list[path] = hash;
    }
    const json document = {{"format_version", kManifestFormatVersion}, {std::string(key), list}};
    write_file(file, document.dump(2) + "\n");
}

HashList read_hash_list(const fs::path& file, std::string_view key) {
    const json document = json::parse(read_file(file), nullptr, /*allow_exceptions=*/false);
    const std::string expected = "a JSON object {\"format_version\": 1, \"" + std::string(key) +
                                 "\": {\"<path>\": \"<hash>\", ...}}";
    if (document.is_discarded() || !document.is_object()) {
        throw EnvironmentError(file.string() + " is not valid JSON; expected " + expected + ".");
    }
    if (document.value("format_version", json()) != kManifestFormatVersion) {
        throw EnvironmentError(file.string() + " has format_version " +
                               document.value("format_version", json()).dump() + "; expected " +
                               std::to_string(kManifestFormatVersion) + ".");
    }
    const auto list = document.find(std::string(key));
    if (list == document.end() || !list->is_object()) {
        throw EnvironmentError(file.string() + " has no \"" + std::string(key) +
                               "\" object; expected " + expected + ".");
    }
    HashList hashes;
    for (const auto& [path, hash] : list->items()) {
        if (!hash.is_string()) {
            throw EnvironmentError(file.string() + ": the hash of " + path +
                                   " is not a string; expected " + expected + ".");
        }
        hashes.emplace(path, hash.get<std::string>());
    }
    return hashes;
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

HashList pristine_stubs(const Context& context) {
    const fs::path file = context.root() / kPristineManifest;
    std::error_code error;
    if (!fs::exists(file, error)) {
        return {};
    }
    return read_hash_list(file, "stubs");
}

ExitCode pristine_command(Context& context, bool write) {
    const Course& course = context.course();
    HashList current;
    for (const Exercise& exercise : course.exercises()) {
        const fs::path file = course.learner_file(exercise);
        current.emplace(fs::relative(file, context.root()).generic_string(),
                        git_blob_id(read_file(file)));
    }
    const fs::path manifest = context.root() / kPristineManifest;
    if (write) {
        write_hash_list(manifest, "stubs", current);
        context.out() << "pristine: wrote " << context.show(manifest) << " (" << current.size()
                      << " stubs).\n";
        return ExitCode::kOk;
    }
    const HashList recorded = pristine_stubs(context);
    std::vector<std::string> stale;
    for (const auto& [path, id] : current) {
        const auto found = recorded.find(path);
        if (found == recorded.end()) {
            stale.push_back(path + " is not listed");
        } else if (found->second != id) {
            stale.push_back(path + " has changed (git blob " + id + ", listed " + found->second +
                            ")");
        }
    }
    for (const auto& [path, id] : recorded) {
        if (!current.contains(path)) {
            stale.push_back(path + " is listed but is no exercise");
        }
    }
    if (stale.empty()) {
        context.out() << "pristine: ok, " << context.show(manifest) << " lists the "
                      << current.size() << " stubs as they are.\n";
        return ExitCode::kOk;
    }
    context.out() << "pristine: " << context.show(manifest) << " is out of date:\n";
    for (const std::string& line : stale) {
        context.out() << "  " << line << "\n";
    }
    context.out() << "After changing a stub, commit it and run: build/dev/bin/torchlings-runner "
                     "pristine --write\n";
    return ExitCode::kTestsFailed;
}

}  // namespace torchlings::runner
