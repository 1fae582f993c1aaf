/// @file
/// @brief `pristine`: keeps exercises/pristine.json, from which `reset` restores stubs, current.
#include <ostream>
#include <string>
#include <vector>

#include "core/hashing.h"
#include "core/text.h"
#include "maintainer/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

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
