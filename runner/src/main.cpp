/// @file
/// @brief torchlings-runner: the command line. Parses arguments, builds the context, runs one
/// verb, and turns its outcome (or exception) into the exit code. The only place that does.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "tl_runner/commands.h"
#include "tl_runner/errors.h"

namespace {

using namespace torchlings::runner;
namespace fs = std::filesystem;

constexpr const char* kExitCodes =
    "Exit codes: 0 all checked exercises pass, 1 a test failed, crashed or timed out,\n"
    "2 build error, 3 environment problem (set-up, missing tool or binary), 4 every test was\n"
    "skipped (e.g. needs a GPU), 5 tests edited (check --verify-tests), 64 usage error,\n"
    "130 interrupted. `run` exits with the lesson's "
    "code.";

/// Global options, shared by every verb.
struct GlobalOptions {
    std::string root;
    std::string build_dir;
    std::string state;
    std::string color = "auto";
};

std::string env_or(const char* name, std::string fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? std::string(value) : std::move(fallback);
}

/// --root, else $TORCHLINGS_ROOT, else the nearest folder above with lessons/ and exercises/.
fs::path course_root(const GlobalOptions& options) {
    const std::string given = options.root.empty() ? env_or("TORCHLINGS_ROOT", "") : options.root;
    if (!given.empty()) {
        return fs::absolute(given).lexically_normal();
    }
    return find_course_root(fs::current_path());
}

Context make_context(const GlobalOptions& options) {
    const fs::path root = course_root(options);
    const std::string build = options.build_dir.empty() ? env_or("TORCHLINGS_BUILD_DIR",
                                                                 (root / "build" / "dev").string())
                                                        : options.build_dir;
    const fs::path state =
        options.state.empty() ? root / ".torchlings" / "state.json" : fs::path(options.state);
    return {root,
            fs::absolute(build).lexically_normal(),
            fs::absolute(state),
            Style::detect(parse_color_mode(options.color)),
            std::cout,
            std::cerr};
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"torchlings: numbered lessons and exercises on GPU programming with LibTorch.",
                 "torchlings"};
    app.footer(kExitCodes);
    app.require_subcommand(0, 1);  // no verb: the help (`./torchlings` alone only sets up)
    app.fallthrough();             // global options are accepted after the verb too

    GlobalOptions global;
    app.add_option("--root", global.root,
                   "Course folder (default: $TORCHLINGS_ROOT, else the nearest folder above with "
                   "lessons/ and exercises/)");
    app.add_option("--build-dir", global.build_dir,
                   "Build folder (default: $TORCHLINGS_BUILD_DIR, else <root>/build/dev)");
    app.add_option("--state", global.state,
                   "Progress file (default: <root>/.torchlings/state.json)");
    app.add_option("--color", global.color,
                   "Colour: auto (a terminal without NO_COLOR), always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}));

    CLI::App* list = app.add_subcommand("list", "Lessons and exercises, with your progress");

    RunOptions run_options;
    CLI::App* run = app.add_subcommand(
        "run", "Build and run a lesson's demo: run 01 [--device cuda] [-- args]");
    run->add_option("lesson", run_options.lesson, "Lesson number, e.g. 01")->required();
    run->add_option("--device", run_options.device, "auto, cpu, cuda, cuda:N or mps");
    run->add_option("args", run_options.extra_args, "Arguments for the lesson, after --");

    CheckOptions check_options;
    CLI::App* check = app.add_subcommand(
        "check", "Build an exercise and run its tests: check <id>|<lesson> [--all]");
    check->add_option("targets", check_options.targets, "Exercise ids or lesson numbers");
    check->add_flag("--all", check_options.all, "Check every exercise");
    check->add_flag("--json", check_options.json,
                    "Print the results as JSON (Exercism test-runner v3) on stdout; the text "
                    "goes to stderr");
    check->add_option("--junit", check_options.junit_file, "Also write JUnit XML to this file");
    check->add_option("--classroom", check_options.classroom_file,
                      "Also write the GitHub Classroom autograding result to this file");
    check->add_flag("--verify-tests", check_options.verify_tests,
                    "First refuse (exit 5) if the course's tests differ from "
                    "torchlings-manifest.json; alone, only that");

    WatchOptions watch_options;
    CLI::App* watch =
        app.add_subcommand("watch", "Check the current exercise on every save (keys: n h l c q)");
    watch->add_option("id", watch_options.target, "Exercise id (default: the first not done)");
    watch->add_flag("--poll", watch_options.poll,
                    "Poll the file instead of using file notifications (network drives)");

    CLI::App* progress =
        app.add_subcommand("progress", "Progress bars per lesson and for the course");

    ResetOptions reset_options;
    CLI::App* reset = app.add_subcommand(
        "reset",
        "Back up your file, then restore the exercise's original stub: reset <id>|<lesson>");
    reset->add_option("targets", reset_options.targets, "Exercise ids or lesson numbers");
    reset->add_flag("--all", reset_options.all, "Reset every exercise");
    reset->add_flag("-y,--yes", reset_options.yes, "Do not ask for confirmation");

    SolutionOptions solution_options;
    CLI::App* solution =
        app.add_subcommand("solution", "Show the reference solution of an exercise you have done");
    solution->add_option("id", solution_options.id, "Exercise id")->required();
    solution->add_flag("--force", solution_options.force, "Show it although you are not done");
    solution->add_flag("!--no-diff", solution_options.diff, "Leave out the diff with your file");

    ExportOptions export_options;
    CLI::App* export_verb = app.add_subcommand(
        "export", "Teachers: write the course without solutions, for a class repository");
    export_verb->add_option("--learner", export_options.learner_dir, "Folder to create")
        ->required();

    bool pristine_write = false;
    CLI::App* pristine =
        app.add_subcommand("pristine", "Maintainers: verify (or --write) exercises/pristine.json");
    pristine->group("");
    pristine->add_flag("--write", pristine_write, "Rewrite it from the current stubs");

    std::string hint_id;
    CLI::App* hint = app.add_subcommand("hint", "Show the next hint for an exercise");
    hint->add_option("id", hint_id, "Exercise id")->required();

    std::vector<std::string> ctest_args;
    CLI::App* test =
        app.add_subcommand("test", "Build everything and run every test (ctest) [-- ctest args]");
    test->add_option("ctest_args", ctest_args, "Extra arguments for ctest, after --");

    CLI::App* doctor =
        app.add_subcommand("doctor", "Check the tools, the GPU and the build set-up");

    CLI::App* help = app.add_subcommand("help", "Show this list of commands");

    CheckOptions verify_options;
    CLI::App* verify = app.add_subcommand(
        "verify-stub", "CI: the untouched stub must fail every test by assertion");
    verify->group("");  // hidden from --help: for CI, not for learners
    verify->add_option("targets", verify_options.targets, "Exercise ids or lesson numbers");
    verify->add_flag("--all", verify_options.all, "Verify every stub");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = app.exit(error);
        return code == 0 ? 0 : static_cast<int>(ExitCode::kUsage);
    }

    if (app.get_subcommands().empty() || help->parsed()) {
        // app.help() would describe the `help` verb itself once it is parsed.
        std::cout << app.get_formatter()->make_help(&app, app.get_name(),
                                                    CLI::AppFormatMode::Normal);
        return static_cast<int>(ExitCode::kOk);
    }

    try {
        Context context = make_context(global);
        ExitCode code = ExitCode::kOk;
        if (run->parsed()) {
            return run_command(context, run_options);
        }
        if (list->parsed()) {
            code = list_command(context);
        }
        if (check->parsed()) {
            code = check_command(context, check_options);
        }
        if (watch->parsed()) {
            code = watch_command(context, watch_options);
        }
        if (progress->parsed()) {
            code = progress_command(context);
        }
        if (reset->parsed()) {
            code = reset_command(context, reset_options);
        }
        if (solution->parsed()) {
            code = solution_command(context, solution_options);
        }
        if (export_verb->parsed()) {
            code = export_command(context, export_options);
        }
        if (pristine->parsed()) {
            code = pristine_command(context, pristine_write);
        }
        if (hint->parsed()) {
            code = hint_command(context, hint_id);
        }
        if (test->parsed()) {
            code = test_command(context, ctest_args);
        }
        if (doctor->parsed()) {
            code = doctor_command(context);
        }
        if (verify->parsed()) {
            code = verify_stub_command(context, verify_options);
        }
        return static_cast<int>(code);
    } catch (const UsageError& error) {
        std::cerr << error.what();
        if (std::string_view(error.what()).back() != '\n') {
            std::cerr << "\n";
        }
        return static_cast<int>(ExitCode::kUsage);
    } catch (const EnvironmentError& error) {
        std::cerr << "error: " << error.what() << "\n";
        if (!error.fix().empty()) {
            std::cerr << "fix:   " << error.fix() << "\n";
        }
        return static_cast<int>(ExitCode::kEnvironment);
    } catch (const Interrupted&) {
        std::cerr << "\ninterrupted; the running program was stopped.\n";
        return static_cast<int>(ExitCode::kInterrupted);
    } catch (const std::exception& error) {
        std::cerr << "internal error in torchlings-runner: " << error.what() << "\n";
        return static_cast<int>(ExitCode::kInternal);
    }
}
