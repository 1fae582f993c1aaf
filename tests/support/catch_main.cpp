/// @file
/// @brief The Catch2 main of every torchlings test program, and the `torchlings` reporter
/// through which the runner reads results. It builds with Catch2 v2 (2.13) and v3, whichever
/// tl_test/catch_version.h names; the events and the exit status are the same with either.
///
/// `ex_<id> --reporter torchlings [--out FILE]` writes JSON Lines, one event per line, flushed
/// line by line so that a crash leaves a readable prefix:
///
///     {"event":"run_start"}
///     {"event":"case_start","name":"...","tags":["..."],"file":"...","line":7}
///     {"event":"assertion","case":"...","ok":false,"macro":"CHECK","expr":"a == b",
///      "expanded":"1 == 2","message":"","messages":["INFO text"],"file":"...","line":12,
///      "kind":"assertion"}
///     {"event":"case_end","name":"...","status":"passed|failed|skipped","skip_reason":null,
///      "assertions":4,"duration_s":0.01}
///     {"event":"run_end","passed":3,"failed":1,"skipped":0}
///
/// An assertion event is written for every failed assertion. kind is "assertion", "exception"
/// (an unexpected exception), "todo" (an exception whose message starts with "TODO:", which is
/// what unfinished stubs throw) or "crash" (a fatal signal that Catch2 caught just before the
/// process dies). For an exception or crash outside any check, "macro" is "" with the line of
/// the last check that finished, or "TEST_CASE" with the test case's own line when no check
/// had finished yet (Catch2, v2 and v3 alike, records a check's location only once it
/// completes).
/// Run by the runner, the events go instead to a pipe it passes as an open descriptor named by
/// TORCHLINGS_EVENTS_FD (no path that code in the program could reopen); main() closes it when
/// the tests end, before exit handlers and destructors of globals run, and the runner accepts a
/// pass only when the exit status agrees with these events.
/// The runner also passes a fresh random key for the run, through a pipe named by
/// TORCHLINGS_EVENTS_KEY_FD. The reporter takes it before any other code of the program runs (a
/// function in the executable's .preinit_array, linked first: reporter_first.cpp), closes that
/// pipe, removes both variables from the environment, and keeps the key in a page of its own
/// that is unreadable except while a line is signed. Every line then ends with a sequence number
/// and an HMAC-SHA256 of the line up to the MAC, so that code of the learner's file, which runs
/// in this process, cannot write a line that the runner accepts:
///
///     {"event":"run_start","seq":0,"mac":"<64 hex digits>"}
///
/// Without a key (CTest, a run by hand) the lines are as shown above, with neither field.
/// A case with a `TL_SKIP: ` warning (tl_test/skip.h) and no failure is "skipped". The default
/// reporter stays Catch2's console reporter, which CTest uses.
///
/// The exit status of a test run is the same with either version: 0 when every case that ran
/// passed (skipped ones included) or when no case was selected at all, 1 when a case failed, a
/// test spec on the command line matched no case, or the command line was wrong (Catch2's own
/// codes differ: v2 counts failed assertions, v3.7 says 42, v3 has codes for "no test ran" and
/// "all skipped"). Catch2's own listings exit as Catch2 makes them; `--list-cases-for-ctest`
/// (exit 0) lists the cases for CTest and the runner, so that neither depends on Catch2's
/// listing options, which v3 changed.
#include "tl_test/catch_version.h"

#if TL_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/interfaces/catch_interfaces_config.hpp>
#include <catch2/internal/catch_clara.hpp>
#include <catch2/internal/catch_stdstreams.hpp>
#include <catch2/internal/catch_test_case_registry_impl.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>
#include <catch2/reporters/catch_reporter_streaming_base.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tl_test/skip.h"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace {

// --- What differs between Catch2 v2 and v3, in one place ---
#if TL_CATCH2_MAJOR >= 3
using StreamingBase = Catch::StreamingReporterBase;
namespace cli = Catch::Clara;

/// The tags as written, without brackets.
std::vector<std::string> tag_names(const Catch::TestCaseInfo& info) {
    std::vector<std::string> names;
    for (const Catch::Tag& tag : info.tags) {
        names.emplace_back(tag.original);
    }
    return names;
}

bool has_tag(const Catch::TestCaseInfo& info, std::string_view lower_case_tag) {
    // Catch::Tag compares without regard to case.
    const Catch::Tag wanted(Catch::StringRef(lower_case_tag.data(), lower_case_tag.size()));
    return std::find(info.tags.begin(), info.tags.end(), wanted) != info.tags.end();
}

const Catch::TestCaseInfo& case_info(const Catch::TestCaseStats& stats) { return *stats.testInfo; }

/// A test spec that matches no case is an error, as v2 with `--warn NoTests` makes it; a run that
/// selects no case at all (no spec, no cases) succeeds, as on v2.
void use_course_exit_rules(Catch::ConfigData& data) {
    data.warnings =
        static_cast<Catch::WarnAbout::What>(data.warnings | Catch::WarnAbout::UnmatchedTestSpec);
    data.allowZeroTests = true;
}

/// Whether the command line asks for one of Catch2's own listings rather than a test run.
bool is_listing(const Catch::ConfigData& data) {
    return data.listTests || data.listTags || data.listReporters || data.listListeners;
}
#else
class TorchlingsReporter;
using StreamingBase = Catch::StreamingReporterBase<TorchlingsReporter>;
namespace cli = Catch::clara;

/// The tags as written, without brackets, less the "!hide" that v2 adds to hidden cases.
std::vector<std::string> tag_names(const Catch::TestCaseInfo& info) {
    std::vector<std::string> names;
    std::copy_if(info.tags.begin(), info.tags.end(), std::back_inserter(names),
                 [](const std::string& tag) { return tag != "!hide"; });
    return names;
}

bool has_tag(const Catch::TestCaseInfo& info, std::string_view lower_case_tag) {
    return std::find(info.lcaseTags.begin(), info.lcaseTags.end(), lower_case_tag) !=
           info.lcaseTags.end();
}

const Catch::TestCaseInfo& case_info(const Catch::TestCaseStats& stats) { return stats.testInfo; }

/// A test spec that matches no case is an error (as on v3 with `--warn UnmatchedTestSpec`).
void use_course_exit_rules(Catch::ConfigData& data) {
    data.warnings = static_cast<Catch::WarnAbout::What>(data.warnings | Catch::WarnAbout::NoTests);
}

bool is_listing(const Catch::ConfigData& data) {
    return data.listTests || data.listTestNamesOnly || data.listTags || data.listReporters;
}
#endif

/// Keys stay in the documented order, which keeps the lines readable by people too.
using json = nlohmann::ordered_json;

constexpr std::string_view kSkipPrefix = TL_SKIP_PREFIX;
constexpr std::string_view kTodoPrefix = "TODO:";

}  // namespace

#include "run_key.h"  // the run's key, g_events_fd, signed_line(), forget_key()

namespace {

/// For a program whose .preinit_array did not run (not an ELF executable): the same, from main.
void take_events_fd() { take_key_and_events(environ, /*use_key=*/true); }

/// Writes the whole line to the events pipe.
void write_events(const std::string& line) {
    std::size_t done = 0;
    while (done < line.size()) {
        const ssize_t count = ::write(g_events_fd, line.data() + done, line.size() - done);
        if (count < 0 && errno == EINTR) {
            continue;
        }
        if (count <= 0) {
            return;
        }
        done += static_cast<std::size_t>(count);
    }
}

/// What made an assertion fail, in the reporter's words.
const char* failure_kind(const Catch::AssertionResult& result) {
    switch (result.getResultType()) {
        case Catch::ResultWas::ThrewException:
            return std::string(result.getMessage()).rfind(kTodoPrefix, 0) == 0 ? "todo"
                                                                               : "exception";
        case Catch::ResultWas::FatalErrorCondition:
            return "crash";
        default:
            return "assertion";
    }
}

/// Streams the events above to Catch's configured stream (stdout, or --out FILE).
class TorchlingsReporter : public StreamingBase {
    using Base = StreamingBase;
    using Clock = std::chrono::steady_clock;

  public:
#if TL_CATCH2_MAJOR >= 3
    explicit TorchlingsReporter(Catch::ReporterConfig&& config) : Base(std::move(config)) {}
#else
    explicit TorchlingsReporter(const Catch::ReporterConfig& config) : Base(config) {}
#endif

    /// Shown by `--list-reporters`.
    static std::string getDescription() {
        return "JSON Lines for the torchlings runner (one event per line, flushed)";
    }

    void testRunStarting(const Catch::TestRunInfo& info) override {
        Base::testRunStarting(info);
        emit({{"event", "run_start"}});
    }

    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        Base::testCaseStarting(info);
        skip_reason_.reset();
        case_started_ = Clock::now();
        emit({{"event", "case_start"},
              {"name", info.name},
              {"tags", tag_names(info)},
              {"file", std::string(info.lineInfo.file)},  // where TEST_CASE is, as compiled
              {"line", info.lineInfo.line}});
    }

    void assertionStarting(const Catch::AssertionInfo& /*info*/) override {}

#if TL_CATCH2_MAJOR >= 3
    void assertionEnded(const Catch::AssertionStats& stats) override { on_assertion(stats); }
#else
    bool assertionEnded(const Catch::AssertionStats& stats) override {
        on_assertion(stats);
        return true;
    }
#endif

    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        const bool failed = stats.totals.assertions.failed > 0;
        const bool skipped = !failed && skip_reason_.has_value();
        const char* status = failed ? "failed" : skipped ? "skipped" : "passed";
        (failed ? failed_ : skipped ? skipped_ : passed_) += 1;
        const double seconds = std::chrono::duration<double>(Clock::now() - case_started_).count();
        emit({{"event", "case_end"},
              {"name", case_info(stats).name},
              {"status", status},
              {"skip_reason", skipped ? json(*skip_reason_) : json(nullptr)},
              // Every case of the course runs at least one: a pass with none is refused.
              {"assertions", stats.totals.assertions.total()},
              {"duration_s", seconds}});
        Base::testCaseEnded(stats);
    }

    void testRunEnded(const Catch::TestRunStats& stats) override {
        emit({{"event", "run_end"},
              {"passed", passed_},
              {"failed", failed_},
              {"skipped", skipped_}});
        Base::testRunEnded(stats);
    }

  private:
    void on_assertion(const Catch::AssertionStats& stats) {
        const Catch::AssertionResult& result = stats.assertionResult;
        if (result.getResultType() == Catch::ResultWas::Warning) {
            const std::string message(result.getMessage());
            if (message.rfind(kSkipPrefix, 0) == 0) {
                skip_reason_ = message.substr(kSkipPrefix.size());
            }
            return;
        }
        if (!result.isOk()) {
            emit(assertion_event(stats));
        }
    }

    [[nodiscard]] json assertion_event(const Catch::AssertionStats& stats) const {
        const Catch::AssertionResult& result = stats.assertionResult;
        const std::string macro(result.getTestMacroName());
        json messages = json::array();
        // Catch2 appends the result's own message to infoMessages; keep INFO/CAPTURE text only.
        for (const Catch::MessageInfo& info : stats.infoMessages) {
            if (info.type == Catch::ResultWas::Info) {
                messages.push_back(info.message);
            }
        }
        // Outside any assertion, Catch2 names the expression "{Unknown expression after the
        // reported line}"; the kind and the line already say that, so leave it empty.
        const bool has_expr = !macro.empty() && result.hasExpression();
        return {{"event", "assertion"},
                {"case", currentTestCaseInfo ? currentTestCaseInfo->name : std::string()},
                {"ok", false},
                {"macro", macro},
                {"expr", has_expr ? result.getExpression() : std::string()},
                {"expanded", has_expr ? result.getExpandedExpression() : std::string()},
                {"message", std::string(result.getMessage())},
                {"messages", messages},
                {"file", std::string(result.getSourceInfo().file)},
                {"line", result.getSourceInfo().line},
                {"kind", failure_kind(result)}};
    }

    /// One line per event, flushed, so that a crash leaves every earlier line intact.
    void emit(const json& event) {
        // Expanded values may hold arbitrary bytes; replace invalid UTF-8 rather than throw.
        if (g_events_fd >= 0 && g_key_page != nullptr) {
            json numbered = event;
            numbered["seq"] = g_sequence++;
            write_events(
                signed_line(numbered.dump(-1, ' ', false, json::error_handler_t::replace)));
            return;
        }
        const std::string line = event.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
        if (g_events_fd >= 0) {
            write_events(line);
            return;
        }
#if TL_CATCH2_MAJOR >= 3
        std::ostream& out = m_stream;
#else
        std::ostream& out = stream;
#endif
        out << line;
        out.flush();
    }

    std::optional<std::string> skip_reason_;
    Clock::time_point case_started_;
    int passed_ = 0;
    int failed_ = 0;
    int skipped_ = 0;
};

}  // namespace

CATCH_REGISTER_REPORTER("torchlings", TorchlingsReporter)

/// Writes one line per test case that a run without arguments runs, in the order it runs them:
/// `gpu` or `any`, a tab, the case's name. A case is `gpu` when it carries the tag [gpu]. The
/// CTest registration (cmake/TorchlingsDiscoverTests.cmake) and the runner read it: one start of
/// the program, and the same listing whichever Catch2 the program was built with.
void list_cases_for_ctest(Catch::Session& session) {
    for (const auto& test_case : Catch::getAllTestCasesSorted(session.config())) {
        const Catch::TestCaseInfo& info = test_case.getTestCaseInfo();
        if (info.isHidden()) {
            continue;
        }
        Catch::cout() << (has_tag(info, "gpu") ? "gpu\t" : "any\t") << info.name << "\n";
    }
    Catch::cout() << std::flush;
}

/// Catch2's own runner with one more option (--list-cases-for-ctest, above) and the exit rules
/// of the file comment; only the reporter above is added, and the events pipe is closed as soon
/// as the tests end.
int main(int argc, char* argv[]) {
    take_events_fd();
    Catch::Session session;
    bool list_for_ctest = false;
    session.cli(session.cli() |
                cli::Opt(list_for_ctest)["--list-cases-for-ctest"](
                    "list each case as gpu|any, a tab and its name (for CTest and the runner)"));
    // Declaration order unless the command line says otherwise: the runner lists the cases in it,
    // and [gpu] cases come before stand-in cases (tl_test/standin.h). Catch2 2.x and 3.x up to
    // 3.8 default to it; 3.9 made random order the default.
#if TL_CATCH2_MAJOR >= 3
    session.configData().runOrder = Catch::TestRunOrder::Declared;
#else
    session.configData().runOrder = Catch::RunTests::InDeclarationOrder;
#endif
    int failures = session.applyCommandLine(argc, argv) == 0 ? 0 : 1;
    if (failures == 0) {
        use_course_exit_rules(session.configData());
        if (list_for_ctest) {
            list_cases_for_ctest(session);
        } else if (is_listing(session.configData())) {
            failures = session.run();  // as Catch2's own catch_discover_tests expects it
        } else {
            // v2 exits with the number of failed assertions, v3.7 with 42, ...: one code for all.
            failures = session.run() == 0 ? 0 : 1;
        }
    }
    if (g_events_fd >= 0) {
        ::close(g_events_fd);
        g_events_fd = -1;
    }
    forget_key();
    return failures;
}
