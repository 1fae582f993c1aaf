/// @file
/// @brief `reset`: back up the learner's file, then bring back the exercise's original stub.
///
/// The original is found by its git blob id (exercises/pristine.json) among git's objects, so
/// that a reset works even after the learner has committed their own version of the file.
#include <unistd.h>

#include <ctime>
#include <iostream>
#include <system_error>

#include "core/exercise_run.h"
#include "core/hashing.h"
#include "core/messages.h"
#include "core/process.h"
#include "core/text.h"
#include "learner/verbs.h"

namespace torchlings::runner {
namespace fs = std::filesystem;

namespace {

/// One exercise to reset: its file, what is there now, and the stub to put back.
struct Plan {
    const Exercise* exercise = nullptr;
    fs::path file;
    std::string relative;
    bool exists = false;
    std::string stub;
};

/// The original stub's text, from git's objects; throws EnvironmentError when it is not there.
std::string original_stub(const Context& context, const std::string& relative,
                          const HashList& stubs) {
    const auto found = stubs.find(relative);
    if (found == stubs.end()) {
        throw EnvironmentError(context.show(context.root() / kPristineManifest) +
                                   " does not list " + relative +
                                   ", so its original stub is unknown. Nothing was changed.",
                               "git checkout -- " + relative + "   (if you never committed it)");
    }
    if (!find_program("git")) {
        throw EnvironmentError(
            "reset needs git to find the original stub of " + relative + ". Nothing was changed.",
            "apt-get install git");
    }
    const ProcessResult shown = run_process(
        command_spec({"git", "-C", context.root().string(), "cat-file", "blob", found->second}));
    if (!shown.succeeded() || git_blob_id(shown.output) != found->second) {
        throw EnvironmentError(
            "The original stub of " + relative + " (git blob " + found->second +
                ") is not in this folder's git history: is it a git clone of the course? "
                "Nothing was changed.",
            "git clone the course again and copy your files across");
    }
    return shown.output;
}

/// Asks on the terminal; false unless the answer starts with y.
bool confirm(Context& context, const std::vector<Plan>& plans) {
    std::ostream& out = context.out();
    out << context.message(plans.size() == 1 ? Msg::kResetReplacesOne : Msg::kResetReplacesMany)
        << "\n";
    for (const Plan& plan : plans) {
        out << "  " << plan.relative << "\n";
    }
    out << context.message(Msg::kResetConfirm) << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    return answer.starts_with('y') || answer.starts_with('Y');
}

/// A new folder for this reset's backups: .torchlings/backups/<time>[-N]/, the time as
/// "20261122-104833".
fs::path backup_folder(const Context& context) {
    const fs::path base = context.root() / ".torchlings" / "backups";
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    fs::path folder = base / stamp;
    std::error_code error;
    for (int n = 2; fs::exists(folder, error); ++n) {
        folder = base / (std::string(stamp) + "-" + std::to_string(n));
    }
    return folder;
}

/// Writes the file through a temporary sibling and a rename: never half a file.
void restore_file(const fs::path& file, const std::string& content) {
    fs::path temporary = file;
    temporary += ".reset." + std::to_string(::getpid());
    write_file(temporary, content);
    std::error_code error;
    fs::rename(temporary, file, error);
    if (error) {
        fs::remove(temporary, error);
        throw EnvironmentError("cannot write " + file.string() + ": " + error.message());
    }
}

}  // namespace

ExitCode reset_command(Context& context, const ResetOptions& options) {
    const Course& course = context.course();
    const std::vector<const Exercise*> exercises =
        select_exercises(course, options.targets, options.all, "reset");
    const HashList stubs = pristine_stubs(context);
    std::ostream& out = context.out();

    // Everything is looked up before anything is touched: a reset does all or nothing.
    std::vector<Plan> plans;
    for (const Exercise* exercise : exercises) {
        Plan plan{exercise, course.learner_file(*exercise), {}, false, {}};
        plan.relative = fs::relative(plan.file, context.root()).generic_string();
        std::error_code error;
        plan.exists = fs::exists(plan.file, error);
        const auto listed = stubs.find(plan.relative);
        if (plan.exists && listed != stubs.end() &&
            git_blob_id(read_file(plan.file)) == listed->second) {
            out << context.message(Msg::kResetAlreadyStub, {exercise->id, plan.relative}) << "\n";
            continue;
        }
        plan.stub = original_stub(context, plan.relative, stubs);
        plans.push_back(std::move(plan));
    }
    if (plans.empty()) {
        return ExitCode::kOk;
    }
    if (!options.yes) {
        if (::isatty(STDIN_FILENO) == 0) {
            throw UsageError(context.message(
                Msg::kResetNeedsYes, {std::string(kCommand) + " reset --yes " +
                                      (options.all ? "--all" : join(options.targets, " "))}));
        }
        if (!confirm(context, plans)) {
            out << context.message(Msg::kNothingChanged) << "\n";
            return ExitCode::kOk;
        }
    }

    const fs::path folder = backup_folder(context);
    for (const Plan& plan : plans) {
        if (plan.exists) {
            const fs::path backup = folder / plan.relative;
            fs::create_directories(backup.parent_path());
            std::error_code error;
            fs::copy_file(plan.file, backup, error);
            if (error) {
                throw EnvironmentError("cannot back up " + plan.relative + " to " +
                                       context.show(backup) + " (" + error.message() +
                                       "); it was not reset.");
            }
            restore_file(plan.file, plan.stub);
            out << context.message(Msg::kResetSaved,
                                   {plan.exercise->id, context.show(backup), plan.relative});
        } else {
            fs::create_directories(plan.file.parent_path());
            restore_file(plan.file, plan.stub);
            out << context.message(Msg::kResetMissing, {plan.exercise->id, plan.relative});
        }
        out << "\n";
        context.state().forget_check(plan.exercise->id);
    }
    context.save_state();
    return ExitCode::kOk;
}

}  // namespace torchlings::runner
