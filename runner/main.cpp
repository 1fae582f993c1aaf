/// @file
/// @brief torchlings-runner: the command line. Parses arguments, builds the context, runs one
/// verb, and turns its outcome (or exception) into the exit code. The only place that does.
#include <unistd.h>

#include <cerrno>
#include <optional>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>

#include "core/errors.h"
#include "core/messages.h"
#include "core/text.h"
#include "learner/verbs.h"
#include "maintainer/verbs.h"
#include "teacher/verbs.h"

namespace {

using namespace torchlings::runner;
namespace fs = std::filesystem;

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

Context make_context(const GlobalOptions& options) {
    // --root, else $TORCHLINGS_ROOT, else the nearest folder above with lessons/ and exercises/.
    const std::string given = options.root.empty() ? env_or("TORCHLINGS_ROOT", "") : options.root;
    const fs::path root = given.empty() ? find_course_root(fs::current_path())
                                        : fs::absolute(given).lexically_normal();
    const std::string build = options.build_dir.empty() ? env_or("TORCHLINGS_BUILD_DIR",
                                                                 (root / "build" / "dev").string())
                                                        : options.build_dir;
    const fs::path state =
        options.state.empty() ? root / ".torchlings" / "state.json" : fs::path(options.state);
    const Style style = Style::detect(parse_color_mode(options.color));
    const LanguageChoice language = language_from_environment();
    if (!language.warning.empty()) {
        std::cerr << style.warn("warning: ") << language.warning << "\n";
    }
    return {root,
            fs::absolute(build).lexically_normal(),
            fs::absolute(state),
            style,
            std::cout,
            std::cerr,
            language.language};
}

/// The options of every verb, filled in by the parser.
struct Options {
    RunOptions run;
    GradeOptions check;  ///< a learner's check, and what a class grades from it
    WatchOptions watch;
    ResetOptions reset;
    SolutionOptions solution;
    ExportOptions export_;
    bool pristine_write = false;
    bool list_json = false;
    std::string hint_id;
    std::vector<std::string> ctest_args;
    CheckOptions verify;
    std::string mistake_id;
    std::string mistake_slug;
    bool mistake_record = false;
    bool solution_record = false;
    DevOptions dev;
};

/// One verb of the command line: its name, its help, its options and what it does. A verb with
/// `hidden` set is left out of --help (CI and maintainers' verbs).
struct Verb {
    const char* name;
    std::string help;
    bool hidden;
    std::function<void(CLI::App&)> declare_options;
    std::function<ExitCode(Context&)> handler;
};

/// The operands of a verb that takes exercises: ids or lesson numbers, or --all.
void add_targets(CLI::App& verb, std::vector<std::string>& targets, bool& all,
                 const std::string& all_help) {
    verb.add_option("targets", targets, "Exercise ids or lesson numbers");
    verb.add_flag("--all", all, all_help);
}

/// Every verb, in the order --help lists them. A new verb is one entry here and its command.
std::vector<Verb> verbs(Options& o, Language language) {
    const auto help = [language](Msg id) { return message(language, id); };
    return {
        {"list", help(Msg::kHelpList), false,
         [&o](CLI::App& v) {
             v.add_flag("--json", o.list_json,
                        "Print the course as JSON on stdout: lessons, exercises, hints, time "
                        "limits, files and statuses (titles and hints in the runner's language)");
         },
         [&o](Context& c) { return list_command(c, o.list_json); }},
        {"run", help(Msg::kHelpRun), false,
         [&o](CLI::App& v) {
             v.add_option("lesson", o.run.lesson, "Lesson number, e.g. 01")->required();
             v.add_option("--device", o.run.device, "auto, cpu, cuda, cuda:N or mps");
             v.add_option("args", o.run.extra_args, "Arguments for the lesson, after --");
             v.add_option("--processes", o.run.processes,
                          "Processes for a lesson launched by torchrun (default: the lesson's)")
                 ->check(CLI::Range(1, 64));
         },
         [&o](Context& c) { return static_cast<ExitCode>(run_command(c, o.run)); }},
        {"check", help(Msg::kHelpCheck), false,
         [&o](CLI::App& v) {
             add_targets(v, o.check.check.targets, o.check.check.all, "Check every exercise");
             v.add_flag("--json", o.check.json,
                        "Print the results as JSON (Exercism test-runner v3) on stdout; the text "
                        "goes to stderr");
             v.add_option("--junit", o.check.junit_file, "Also write JUnit XML to this file");
             v.add_option("--classroom50", o.check.classroom50_file,
                          "Also write Classroom 50's result.json (classroom50/result/v1) here");
             v.add_option("--gradescope", o.check.gradescope_file,
                          "Also write Gradescope's results.json here");
             v.add_flag("--verify-tests", o.check.verify_tests,
                        "First refuse (exit 5) if the course's tests differ from "
                        "torchlings-manifest.json; alone, only that");
         },
         [&o](Context& c) {
             CheckOptions& check = o.check.check;
             if (check.targets.empty() && !check.all && !o.check.verify_tests) {
                 check.targets.push_back(c.current_exercise().id);
             }
             return o.check.any() ? grade_command(c, o.check) : check_command(c, check);
         }},
        {"watch", help(Msg::kHelpWatch), false,
         [&o](CLI::App& v) {
             v.add_option("id", o.watch.target, "Exercise id (default: the first not done)");
             v.add_flag("--poll", o.watch.poll,
                        "Poll the file instead of using file notifications (network drives)");
         },
         [&o](Context& c) { return watch_command(c, o.watch); }},
        {"progress", help(Msg::kHelpProgress), false, [](CLI::App&) {}, progress_command},
        {"reset", help(Msg::kHelpReset), false,
         [&o](CLI::App& v) {
             add_targets(v, o.reset.targets, o.reset.all, "Reset every exercise");
             v.add_flag("-y,--yes", o.reset.yes, "Do not ask for confirmation");
         },
         [&o](Context& c) { return reset_command(c, o.reset); }},
        {"solution", help(Msg::kHelpSolution), false,
         [&o](CLI::App& v) {
             v.add_option("id", o.solution.id, "Exercise id")->required();
             v.add_flag("--force", o.solution.force, "Show it although you are not done");
             v.add_flag("!--no-diff", o.solution.diff, "Leave out the diff with your file");
         },
         [&o](Context& c) { return solution_command(c, o.solution); }},
        {"export", help(Msg::kHelpExport), false,
         [&o](CLI::App& v) {
             v.add_option("--learner", o.export_.learner_dir, "Folder to create")->required();
             v.add_option("--lessons", o.export_.lessons,
                          "Only these lessons' exercises, e.g. 01-03 or 01,04 (default: all)");
         },
         [&o](Context& c) { return export_command(c, o.export_); }},
        {"pristine", "Maintainers: verify (or --write) exercises/pristine.json", true,
         [&o](CLI::App& v) {
             v.add_flag("--write", o.pristine_write, "Rewrite it from the current stubs");
         },
         [&o](Context& c) { return pristine_command(c, o.pristine_write); }},
        {"hint", help(Msg::kHelpHint), false,
         [&o](CLI::App& v) { v.add_option("id", o.hint_id, "Exercise id"); },
         [&o](Context& c) {
             return hint_command(c, o.hint_id.empty() ? c.current_exercise().id : o.hint_id);
         }},
        {"test", help(Msg::kHelpTest), false,
         [&o](CLI::App& v) {
             v.add_option("ctest_args", o.ctest_args, "Extra arguments for ctest, after --");
         },
         [&o](Context& c) { return suite_command(c, o.ctest_args); }},
        {"doctor", help(Msg::kHelpDoctor), false, [](CLI::App&) {}, doctor_command},
        {"help", help(Msg::kHelpHelp), false, [](CLI::App&) {}, nullptr},
        {"verify-stub", "CI: the untouched stub must fail every test by assertion", true,
         [&o](CLI::App& v) { add_targets(v, o.verify.targets, o.verify.all, "Verify every stub"); },
         [&o](Context& c) { return verify_stub_command(c, o.verify); }},
        {"verify-solution",
         "CI: the solution must pass every test with the assertions recorded: "
         "verify-solution [--record] ID|NN|--all",
         true,
         [&o](CLI::App& v) {
             add_targets(v, o.verify.targets, o.verify.all, "Verify every solution");
             v.add_flag("--record", o.solution_record,
                        "Write the observed counts into tests/exercises/assertion_counts.json");
         },
         [&o](Context& c) { return verify_solution_command(c, o.verify, o.solution_record); }},
        {"verify-mistake",
         "CI: the tests must catch one catalogued mistake, as its signature says: "
         "verify-mistake [--record] ID SLUG",
         true,
         [&o](CLI::App& v) {
             v.add_option("id", o.mistake_id, "Exercise id")->required();
             v.add_option("slug", o.mistake_slug, "The mistake's slug (its `## <slug>:` heading)")
                 ->required();
             v.add_flag("--record", o.mistake_record,
                        "Write the observed signature into its `caught by:` line");
         },
         [&o](Context& c) {
             return verify_mistake_command(c, o.mistake_id, o.mistake_slug, o.mistake_record);
         }},
        {"dev",
         "Maintainers: dev new <lesson> <id> scaffolds an exercise; dev check; dev index "
         "[--check]",
         false,
         [&o](CLI::App& v) {
             v.add_option("action", o.dev.action, "new, check or index")->required();
             v.add_option("args", o.dev.args, "new: the lesson number and the exercise id");
             v.add_flag("--check", o.dev.check,
                        "index: write nothing; fail naming each stale generated file");
         },
         [&o](Context& c) { return dev_command(c, o.dev); }},
        {"mistakes", "Maintainers: the catalogue of mistakes, with its counts", true,
         [](CLI::App&) {}, mistakes_command},
    };
}

/// A verb's option given before the verb (`torchlings --device cpu run 01`), said plainly with the
/// command line that works; nothing when the command line has no such mistake.
std::optional<std::string> misplaced_option(int argc, char** argv, const std::vector<Verb>& table) {
    const auto is_verb = [&](std::string_view word) {
        return std::ranges::find(table, word, &Verb::name) != table.end();
    };
    const auto is_global = [](std::string_view word) {
        const std::string_view name = word.substr(0, word.find('='));
        return word == "-h" || word == "--help" || name == "--root" || name == "--build-dir" ||
               name == "--state" || name == "--color";
    };
    std::vector<std::string> before;
    std::vector<std::string> moved;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (is_verb(word)) {
            break;
        }
        if (is_global(word)) {
            before.emplace_back(word);
            if (word.find('=') == std::string_view::npos && word != "-h" && word != "--help" &&
                i + 1 < argc) {
                before.emplace_back(argv[++i]);
            }
            continue;
        }
        if (word.empty() || word.front() != '-') {
            return std::nullopt;  // not a verb and not an option: CLI11 says so
        }
        moved.emplace_back(word);
        if (word.find('=') == std::string_view::npos && i + 1 < argc && argv[i + 1][0] != '-' &&
            !is_verb(argv[i + 1])) {
            moved.emplace_back(argv[++i]);
        }
    }
    if (moved.empty() || i >= argc) {
        return std::nullopt;
    }
    std::vector<std::string> fixed(argv + i, argv + argc);
    // Before a "--" (arguments for the lesson), so that the option stays the runner's.
    const auto dashes = std::find(fixed.begin(), fixed.end(), "--");
    fixed.insert(dashes, moved.begin(), moved.end());
    return moved.front() + " is an option of `" + std::string(argv[i]) +
           "`, so it goes after the verb:\n  " + std::string(kCommand) + " " + join(fixed, " ");
}

/// What a bare `torchlings` does: watch on a terminal (the learner's main loop), else the help.
bool bare_starts_watch() { return isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0; }

}  // namespace

int main(int argc, char** argv) {
    // --help in the learner's language; the options of each verb stay English.
    const Language language = language_from_environment().language;
    CLI::App app{message(language, Msg::kHelpAbout), "torchlings"};
    app.set_help_flag("-h,--help", message(language, Msg::kHelpFlag));
    app.footer(exit_codes_help());
    app.require_subcommand(0, 1);  // no verb: watch on a terminal, else the help
    app.fallthrough();             // global options are accepted after the verb too

    GlobalOptions global;
    app.add_option("--root", global.root, message(language, Msg::kHelpRoot));
    app.add_option("--build-dir", global.build_dir, message(language, Msg::kHelpBuildDir));
    app.add_option("--state", global.state, message(language, Msg::kHelpState));
    app.add_option("--color", global.color, message(language, Msg::kHelpColor))
        ->check(CLI::IsMember({"auto", "always", "never"}));

    Options options;
    const std::vector<Verb> table = verbs(options, language);
    for (const Verb& verb : table) {
        CLI::App* command = app.add_subcommand(verb.name, verb.help);
        if (verb.hidden) {
            command->group("");
        }
        verb.declare_options(*command);
    }

    if (const std::optional<std::string> problem = misplaced_option(argc, argv, table)) {
        std::cerr << *problem << "\n";
        return static_cast<int>(ExitCode::kUsage);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = app.exit(error);
        return code == 0 ? 0 : static_cast<int>(ExitCode::kUsage);
    }

    const std::vector<CLI::App*> chosen = app.get_subcommands();
    const std::string name =
        chosen.empty() ? (bare_starts_watch() ? "watch" : "help") : chosen.front()->get_name();
    if (name == "help") {
        // app.help() would describe the `help` verb itself once it is parsed.
        std::cout << app.get_formatter()->make_help(&app, app.get_name(),
                                                    CLI::AppFormatMode::Normal);
        return static_cast<int>(ExitCode::kOk);
    }

    try {
        Context context = make_context(global);
        const auto verb = std::ranges::find(table, name, &Verb::name);
        return static_cast<int>(verb->handler(context));
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
    } catch (const fs::filesystem_error& error) {
        // A folder or file the runner needs cannot be written or read: say which, and why.
        const fs::path& path = error.path1();
        std::cerr << "error: cannot use " << (path.empty() ? std::string("a file") : path.string())
                  << ": " << error.code().message() << "\n";
        const int number = error.code().value();
        const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
        if (number == EACCES || number == EPERM || number == EROFS) {
            std::cerr << "fix:   make it writable: chmod -R u+w " << folder.string() << "\n";
        } else if (number == ENOSPC || number == EDQUOT) {
            std::cerr << "fix:   free some disk space (df -h " << folder.string() << ")\n";
        } else if (number == ENOTDIR || number == EEXIST || number == EISDIR) {
            // The nearest part of the path that exists: the file (or folder) in the way.
            fs::path blocker = path;
            std::error_code ignored;
            while (blocker.has_parent_path() && blocker != blocker.parent_path() &&
                   !fs::exists(blocker, ignored)) {
                blocker = blocker.parent_path();
            }
            std::cerr << "fix:   a file or folder is in the way; move it: mv " << blocker.string()
                      << " " << blocker.string() << ".old\n";
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
