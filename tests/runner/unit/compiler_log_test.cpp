/// @file
/// @brief Unit tests of picking the compiler error to show from gcc, nvcc and linker logs.
#include "tl_test/catch.h"

#include "core/compiler_log.h"

namespace tl = torchlings::runner;

namespace {

const std::filesystem::path kLearner = "/course/exercises/01_a/choose_device.cpp";
const std::filesystem::path kBuild = "/course/build/dev";

std::optional<tl::CompilerError> first(const std::string& log,
                                       const std::filesystem::path& learner = kLearner) {
    return tl::first_error(log, learner, kBuild);
}

}  // namespace

TEST_CASE("gcc: the first error in the learner's file wins over an earlier one in a header") {
    const std::string log =
        R"LOG([1/2] Building CXX object CMakeFiles/ex_choose_device.dir/choose_device.cpp.o
FAILED: CMakeFiles/ex_choose_device.dir/choose_device.cpp.o
/usr/bin/c++ -Werror=format -I/course/common/include -c /course/exercises/01_a/choose_device.cpp
In file included from /course/exercises/01_a/choose_device.cpp:3:
/course/common/include/torchlings/device.h:10:5: error: 'foo' does not name a type
   10 |     foo bar;
      |     ^~~
/course/exercises/01_a/choose_device.cpp:12:12: error: 'missing' was not declared in this scope
   12 |     return missing;
      |            ^~~~~~~
/course/exercises/01_a/choose_device.cpp:14:1: error: expected ';' before '}' token
ninja: build stopped: subcommand failed.
)LOG";
    const auto error = first(log);
    REQUIRE(error);
    CHECK(error->in_learner_file);
    CHECK(error->file == kLearner.string());
    CHECK(error->line == 12);
    CHECK(error->column == 12);
    CHECK(error->message == "'missing' was not declared in this scope");
    CHECK(error->context ==
          std::vector<std::string>{"   12 |     return missing;", "      |            ^~~~~~~"});
}

TEST_CASE("clang 16: the quoted source line and its caret are the error's context") {
    // Clang before 17 quotes the line as it stands in the file (here unindented), unnumbered.
    const std::string log = R"LOG(FAILED: CMakeFiles/ex_choose_device.dir/choose_device.cpp.o
/course/exercises/01_a/choose_device.cpp:3:43: error: use of undeclared identifier 'missing'
int fx_add(int a, int b) { return a + b + missing; }
                                          ^
1 error generated.
ninja: build stopped: subcommand failed.
)LOG";
    const auto error = first(log);
    REQUIRE(error);
    CHECK(error->in_learner_file);
    CHECK(error->line == 3);
    CHECK(error->column == 43);
    CHECK(error->message == "use of undeclared identifier 'missing'");
    CHECK(error->context ==
          std::vector<std::string>{"int fx_add(int a, int b) { return a + b + missing; }",
                                   "                                          ^"});
}

TEST_CASE("gcc: an error only in a header falls back to the first error, tied to the include") {
    const std::string log = R"LOG(In file included from /course/exercises/01_a/choose_device.cpp:3:
/course/common/include/torchlings/device.h:10:5: error: 'foo' does not name a type
   10 |     foo bar;
      |     ^~~
)LOG";
    const auto error = first(log);
    REQUIRE(error);
    CHECK_FALSE(error->in_learner_file);
    CHECK(error->file == "/course/common/include/torchlings/device.h");
    CHECK(error->line == 10);
    CHECK(error->origin_file == kLearner.string());
    CHECK(error->origin_line == 3);
}

TEST_CASE("gcc: a template error in a header is tied to the learner's 'required from here' line") {
    const std::string log =
        R"LOG(/usr/include/c++/12/bits/stl_vector.h: In instantiation of 'class std::vector<int&>':
/course/exercises/01_a/choose_device.cpp:7:22:   required from here
/usr/include/c++/12/bits/stl_vector.h:427:66: error: static assertion failed
)LOG";
    const auto error = first(log);
    REQUIRE(error);
    CHECK_FALSE(error->in_learner_file);
    CHECK(error->origin_line == 7);
}

TEST_CASE("gcc: paths relative to the build folder are resolved") {
    const auto error =
        first("../../exercises/01_a/choose_device.cpp:3:1: fatal error: x.h: No such file\n");
    REQUIRE(error);
    CHECK(error->in_learner_file);
    CHECK(error->message == "x.h: No such file");
}

TEST_CASE("nvcc: file(line): error, with the source line and caret as context") {
    const std::filesystem::path kernel = "/course/exercises/09_k/saxpy.cu";
    const std::string log =
        R"LOG(/course/exercises/09_k/saxpy.cu(12): error: identifier "idx" is undefined
      y[idx] = a * x[idx] + y[idx];
        ^

1 error detected in the compilation of "/course/exercises/09_k/saxpy.cu".
)LOG";
    const auto error = first(log, kernel);
    REQUIRE(error);
    CHECK(error->in_learner_file);
    CHECK(error->line == 12);
    CHECK(error->column == 0);
    CHECK(error->message == "identifier \"idx\" is undefined");
    CHECK(error->context.size() == 2);

    const auto numbered = first(
        "/course/exercises/09_k/saxpy.cu(5): error #20-D: identifier \"x\" is undefined\n", kernel);
    REQUIRE(numbered);
    CHECK(numbered->line == 5);
    CHECK(numbered->message == "identifier \"x\" is undefined");
}

TEST_CASE("linker errors: the undefined reference, not collect2's summary") {
    const std::string ld =
        R"LOG(/usr/bin/ld: CMakeFiles/ex_x.dir/choose_device.cpp.o: in function `main':
choose_device.cpp:(.text+0x9): undefined reference to `fx_add(int, int)'
collect2: error: ld returned 1 exit status
)LOG";
    const auto error = first(ld);
    REQUIRE(error);
    CHECK_FALSE(error->in_learner_file);
    CHECK(error->file.empty());
    CHECK_THAT(error->message,
               Catch::Matchers::ContainsSubstring("undefined reference to `fx_add(int, int)'"));

    // mold and lld print the same shape: the symbol, then where it is referenced.
    for (const std::string linker : {"mold", "ld.lld"}) {
        const std::string log = linker + R"LOG(: error: undefined symbol: fx_add(int, int)
>>> referenced by fx_test.cpp:12
>>>               CMakeFiles/ex_fx_tests.dir/fx_test.cpp.o:(C_A_T_C_H_T_E_S_T_0())
collect2: error: ld returned 1 exit status
)LOG";
        const auto linker_error = first(log);
        INFO(linker);
        REQUIRE(linker_error);
        CHECK(linker_error->message == "undefined symbol: fx_add(int, int)");
        CHECK(linker_error->context.size() == 2);
    }
}

TEST_CASE("context is capped and a log without errors gives nothing") {
    std::string log = "/course/exercises/01_a/choose_device.cpp:1:1: error: long\n";
    for (int i = 0; i < 20; ++i) {
        log += "   | note line\n";
    }
    const auto error = first(log);
    REQUIRE(error);
    CHECK(error->context.size() == tl::kMaxContextLines);
    CHECK_FALSE(first("ninja: no work to do.\n[1/1] Linking CXX executable bin/ex_x\n"));
    CHECK_FALSE(first(""));
    const auto cmake_error =
        first("CMake Error at CMakeLists.txt:3 (add_executable):\n  Cannot find source file\n");
    REQUIRE(cmake_error);
    CHECK_THAT(cmake_error->headline, Catch::Matchers::StartsWith("CMake Error"));
}
