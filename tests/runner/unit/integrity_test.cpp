/// @file
/// @brief Unit tests of the defences against forged results: signed event lines (core/events.h)
/// and the scan of a learner's file (core/integrity.h), including every solution of the course,
/// none of which may be flagged.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/events.h"
#include "core/exercise_run.h"
#include "core/integrity.h"
#include "core/process.h"
#include "tl_test/catch.h"

namespace tl = torchlings::runner;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kBodies{
    R"({"event":"run_start","seq":0})",
    R"({"event":"case_start","name":"passes","tags":[],"seq":1})",
    R"({"event":"case_end","name":"passes","status":"passed","skip_reason":null,"duration_s":0.1,"seq":2})",
    R"({"event":"run_end","passed":1,"failed":0,"skipped":0,"seq":3})"};

std::string signed_run(const std::string& key, const std::vector<std::string>& bodies) {
    std::string text;
    for (const std::string& body : bodies) {
        text += tl::sign_event_line(key, body) + "\n";
    }
    return text;
}

bool has_flag(const std::vector<tl::IntegrityFlag>& flags, const std::string& code, bool refused) {
    for (const tl::IntegrityFlag& flag : flags) {
        if (flag.code == code && flag.refused == refused) {
            return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("signed events: a run signed with its key is read and passes") {
    const std::string key = tl::make_event_key();
    REQUIRE(key.size() == 32);
    CHECK(tl::make_event_key() != key);
    const tl::TestRun run = tl::parse_test_events(signed_run(key, kBodies), key);
    CHECK(run.authenticated);
    CHECK_FALSE(run.forged());
    CHECK(run.finished);
    CHECK(run.count(tl::CaseStatus::kPassed) == 1);
    tl::ProcessResult exited;
    exited.exit_code = 0;
    CHECK(tl::classify(exited, run) == tl::Verdict::kPassed);
}

TEST_CASE("signed events: the MAC is HMAC-SHA256, as RFC 4231 gives it") {
    // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?". The line keeps the
    // body but its last character (the closing brace of a real line) and ends with the MAC.
    CHECK(tl::sign_event_line("Jefe", "what do ya want for nothing?") ==
          "what do ya want for nothing,\"mac\":\""
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843\"}");
}

TEST_CASE("signed events: any line that does not verify refuses the run") {
    const std::string key = tl::make_event_key();
    const std::string good = signed_run(key, kBodies);
    tl::ProcessResult exited;
    exited.exit_code = 0;

    SECTION("an unsigned line") {
        const std::string text =
            signed_run(key, {kBodies[0], kBodies[1]}) +
            R"({"event":"case_end","name":"passes","status":"passed","skip_reason":null,"duration_s":0.1})"
            "\n" +
            signed_run(key, {kBodies[3]});
        const tl::TestRun run = tl::parse_test_events(text, key);
        CHECK(run.forged_lines >= 1);
        CHECK(tl::classify(exited, run) == tl::Verdict::kRefused);
        CHECK(tl::forgery_reason(run).find("did not come from the course's reporter") !=
              std::string::npos);
    }
    SECTION("a line signed with another key") {
        const std::string text = signed_run(tl::make_event_key(), kBodies);
        CHECK(tl::parse_test_events(text, key).forged_lines == 4);
    }
    SECTION("a signed line changed afterwards") {
        std::string text = good;
        text.replace(text.find("\"passed\",\"skip"), 8, "\"failed\"");
        CHECK(tl::parse_test_events(text, key).forged_lines >= 1);
    }
    SECTION("lines out of sequence, or one of them twice") {
        const std::string swapped =
            signed_run(key, {kBodies[0], kBodies[2], kBodies[1], kBodies[3]});
        CHECK(tl::parse_test_events(swapped, key).forged());
        const std::string twice = signed_run(key, {kBodies[0], kBodies[1], kBodies[1], kBodies[2]});
        CHECK(tl::parse_test_events(twice, key).forged());
    }
    SECTION("a run_end whose totals its cases contradict") {
        const std::string text =
            signed_run(key, {kBodies[0], kBodies[1], kBodies[2],
                             R"({"event":"run_end","passed":2,"failed":0,"skipped":0,"seq":3})"});
        const tl::TestRun run = tl::parse_test_events(text, key);
        CHECK(run.counts_disagree);
        CHECK(tl::classify(exited, run) == tl::Verdict::kRefused);
    }
    SECTION("a case that passed without running one assertion (its body patched to return)") {
        const std::string text = signed_run(
            key,
            {kBodies[0], kBodies[1],
             R"({"event":"case_end","name":"passes","status":"passed","skip_reason":null,"assertions":0,"duration_s":0.1,"seq":2})",
             kBodies[3]});
        const tl::TestRun run = tl::parse_test_events(text, key);
        CHECK(run.passed_without_assertions() == std::vector<std::string>{"passes"});
        CHECK(tl::classify(exited, run) == tl::Verdict::kRefused);
        CHECK(tl::forgery_reason(run).find(
                  "passed without running any of its checks (\"passes\")") != std::string::npos);
        // The same case with its assertion counted, or from a reporter that does not count: read
        // as before.
        CHECK_FALSE(
            tl::parse_test_events(
                signed_run(
                    key,
                    {kBodies[0], kBodies[1],
                     R"({"event":"case_end","name":"passes","status":"passed","skip_reason":null,"assertions":3,"duration_s":0.1,"seq":2})",
                     kBodies[3]}),
                key)
                .forged());
        CHECK_FALSE(tl::parse_test_events(good, key).forged());
    }
    SECTION("a last line cut short by a crash is unreadable, not forged") {
        const std::string text = good.substr(0, good.size() - 20);
        const tl::TestRun run = tl::parse_test_events(text, key);
        CHECK_FALSE(run.forged());
        CHECK(run.unreadable_lines == 1);
        CHECK_FALSE(run.finished);
    }
}

TEST_CASE("unsigned events are read as before when the run has no key") {
    const std::string text =
        R"({"event":"run_start"}
{"event":"case_start","name":"passes","tags":[]}
{"event":"case_end","name":"passes","status":"passed","skip_reason":null,"duration_s":0.1}
{"event":"run_end","passed":1,"failed":0,"skipped":0}
)";
    const tl::TestRun run = tl::parse_test_events(text);
    CHECK_FALSE(run.authenticated);
    CHECK_FALSE(run.forged());
    CHECK(run.count(tl::CaseStatus::kPassed) == 1);
}

TEST_CASE("scan: symbols that replace a library's, or reach the reporter, are found") {
    // nm -P: name, type, value, size.
    const std::string nm =
        "write T 0 10\n"
        "_ZN2ex6answerEv T 10 4\n"
        "_ZN5Catch10getCurrentEv T 20 4\n"
        "DW.ref.__gxx_personality_v0 V 0 8\n"
        "_ZNSt6vectorIiSaIiEE9push_backERKi W 0 8\n"
        "_ZL6helperv t 30 4\n"
        "resolver i 40 4\n"
        "_exit U\n"
        "getenv U\n"
        "dlsym U\n"
        "_ZN5Catch4cerrEv U\n"
        "memcpy U\n";
    const std::vector<tl::IntegrityFlag> flags = tl::flags_from_symbols(nm);
    CHECK(has_flag(flags, "interposes-symbol", true));
    CHECK(has_flag(flags, "catch2-internals", true));
    CHECK(has_flag(flags, "ifunc", true));
    CHECK(has_flag(flags, "exit-path", false));
    CHECK(has_flag(flags, "environment", false));
    CHECK(has_flag(flags, "dynamic-symbols", false));
    CHECK(has_flag(flags, "catch2-internals", false));
    CHECK(tl::refusal_text(flags).find("defines write outside any namespace") != std::string::npos);
    // An answer's own symbols, template instantiations, and the compiler's are nothing.
    CHECK(tl::flags_from_symbols(
              "_ZN2ex6answerEv T 0 4\n_ZNSt6vectorIiSaIiEE9push_backERKi W 0 8\n"
              "DW.ref.__gxx_personality_v0 V 0 8\nmemcpy U\n"
              "_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_"
              "deleteIS1_EEPFvvE U\n")
              .empty());
}

TEST_CASE("scan: nvcc's own atexit() in a file compiled as CUDA is not the learner's") {
    CHECK(tl::flags_from_symbols("__cudaRegisterFatBinary U\natexit U\n").empty());
    CHECK(has_flag(tl::flags_from_symbols("__cudaRegisterFatBinary U\natexit U\n_exit U\n"),
                   "exit-path", false));
    CHECK(has_flag(tl::flags_from_symbols("atexit U\n"), "exit-path", false));
}

TEST_CASE("scan: sections that order start-up") {
    CHECK(has_flag(tl::flags_from_sections({".text", ".preinit_array"}), "preinit-array", true));
    CHECK(has_flag(tl::flags_from_sections({".init_array.00101"}), "startup-order", false));
    CHECK(tl::flags_from_sections({".text", ".init_array", ".rodata", ".text.startup"}).empty());
}

TEST_CASE(
    "scan: no solution or stub of the course, and no fixture answer, is flagged by its text") {
    const fs::path fixtures(TL_RUNNER_FIXTURES);
    const fs::path course = fixtures.parent_path().parent_path().parent_path();
    const fs::path solutions = course / "solutions";
    int scanned = 0;
    for (const fs::path& root : {solutions, course / "exercises", fixtures / "exercises"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root)) {
            if (entry.path().extension() != ".cpp" ||
                entry.path().parent_path().filename() == "mistakes") {
                continue;
            }
            std::ifstream in(entry.path());
            std::stringstream text;
            text << in.rdbuf();
            INFO(entry.path().string());
            CHECK(tl::flags_from_source(text.str()).empty());
            ++scanned;
        }
    }
    CHECK(scanned >= 82);
    CHECK(has_flag(tl::flags_from_source("std::ifstream f(\"/proc/self/maps\");"), "process-files",
                   false));
    CHECK(has_flag(tl::flags_from_source("__attribute__((constructor)) void f() {}"),
                   "startup-order", false));
}

TEST_CASE("scan: no solution's object, as this build compiled it, is flagged") {
    // CI builds every solution (ex_<id>_solution); a build without them checks none.
    const fs::path fixtures(TL_RUNNER_FIXTURES);
    const fs::path solutions = fixtures.parent_path().parent_path().parent_path() / "solutions";
    const std::optional<fs::path> nm = tl::find_program("nm");
    if (!nm) {
        WARN("nm is not installed: no object scanned");
        return;
    }
    int scanned = 0;
    for (const auto& lesson : fs::directory_iterator(solutions)) {
        if (!lesson.is_directory()) {
            continue;
        }
        for (const auto& file : fs::directory_iterator(lesson.path())) {
            if (file.path().extension() != ".cpp") {
                continue;
            }
            const std::string target = file.path().stem().string() + "_solution";
            for (const fs::path& object : tl::learner_objects(TL_RUNNER_BUILD_DIR, target)) {
                const tl::ProcessResult listed =
                    tl::run_process(tl::command_spec({nm->string(), "-P", object.string()}));
                REQUIRE(listed.succeeded());
                std::vector<tl::IntegrityFlag> flags = tl::flags_from_symbols(listed.output);
                for (tl::IntegrityFlag& flag :
                     tl::flags_from_sections(tl::elf_section_names(object))) {
                    flags.push_back(flag);
                }
                std::string found;
                for (const tl::IntegrityFlag& flag : flags) {
                    found += "\n  " + flag.code + ": " + flag.detail;
                }
                INFO(object.string() << found);
                CHECK(flags.empty());
                ++scanned;
            }
        }
    }
    if (scanned == 0) {
        WARN("no solution object in " << TL_RUNNER_BUILD_DIR << ": none scanned");
    }
}
