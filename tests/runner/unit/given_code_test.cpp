/// @file
/// @brief Unit tests of the Given code check of `dev check`: the code a stub gives after its
/// `// Given:` line must be the solution's, to the end of the file.
#include "tl_test/catch.h"

#include <optional>
#include <string>

#include "maintainer/verbs.h"

namespace tl = torchlings::runner;

namespace {

const std::string kStub =
    "int add(int a, int b) {\n"
    "    // TODO: return a + b.\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "// Given: the kernel and its launch.\n"
    "#if defined(__CUDACC__)\n"
    "__global__ void add_kernel(int* out) { *out = add(1, 2); }\n"
    "#endif\n";

std::optional<std::string> problem(const std::string& stub, const std::string& solution) {
    return tl::given_code_problem("add", stub, solution, "exercises/09_kernels/add.cpp",
                                  "solutions/09_kernels/add.cpp");
}

}  // namespace

TEST_CASE("given code: the same after the solution's own marker passes") {
    const std::string solution =
        "int add(int a, int b) { return a + b; }\n\n"
        "// Given: the kernel and its launch.\n"
        "#if defined(__CUDACC__)\n"
        "__global__ void add_kernel(int* out) { *out = add(1, 2); }\n"
        "#endif\n";
    CHECK_FALSE(problem(kStub, solution).has_value());
}

TEST_CASE("given code: a solution without the marker is read from the Given code's first line") {
    const std::string solution =
        "int add(int a, int b) { return a + b; }\n\n"
        "#if defined(__CUDACC__)\n"
        "__global__ void add_kernel(int* out) { *out = add(1, 2); }\n"
        "#endif\n";
    CHECK_FALSE(problem(kStub, solution).has_value());
}

TEST_CASE("given code: a stub that gives nothing passes") {
    CHECK_FALSE(
        problem("int add(int a, int b);  // TODO\n", "int add(int a, int b);\n").has_value());
    CHECK_FALSE(problem("int f();\n// Given: nothing\n\n", "int f();\n").has_value());
}

TEST_CASE("given code: a differing line is named, with the exercise, both files and lines") {
    const std::string solution =
        "int add(int a, int b) { return a + b; }\n\n"
        "#if defined(__CUDACC__)\n"
        "__global__ void add_kernel(int* out) { *out = add(2, 1); }\n"
        "#endif\n";
    const std::optional<std::string> found = problem(kStub, solution);
    REQUIRE(found.has_value());
    CHECK_THAT(*found, Catch::Matchers::StartsWith(
                           "add: the Given code of exercises/09_kernels/add.cpp (from line 6) is "
                           "not solutions/09_kernels/add.cpp's; the first line that differs:"));
    CHECK_THAT(
        *found,
        Catch::Matchers::ContainsSubstring(
            "\n  stub     line 8: __global__ void add_kernel(int* out) { *out = add(1, 2); }"
            "\n  solution line 4: __global__ void add_kernel(int* out) { *out = add(2, 1); }"));
    CHECK_THAT(*found, Catch::Matchers::ContainsSubstring("copy it again"));
}

TEST_CASE("given code: a line more on either side is a difference at the shorter file's end") {
    const std::string solution =
        "int add(int a, int b) { return a + b; }\n"
        "#if defined(__CUDACC__)\n"
        "__global__ void add_kernel(int* out) { *out = add(1, 2); }\n"
        "#endif\n";
    const std::optional<std::string> longer_stub = problem(kStub + "// more\n", solution);
    REQUIRE(longer_stub.has_value());
    CHECK_THAT(*longer_stub,
               Catch::Matchers::ContainsSubstring(
                   "\n  stub     line 10: // more\n  solution (the file ends after line 4)"));
    const std::optional<std::string> longer_solution = problem(kStub, solution + "// more\n");
    REQUIRE(longer_solution.has_value());
    CHECK_THAT(*longer_solution,
               Catch::Matchers::ContainsSubstring(
                   "\n  stub     (the file ends after line 9)\n  solution line 5: // more"));
}

TEST_CASE("given code: a solution without the Given code's first line is named") {
    const std::optional<std::string> found = problem(kStub, "int add(int a, int b);\n");
    REQUIRE(found.has_value());
    CHECK_THAT(*found, Catch::Matchers::ContainsSubstring(
                           "the solution has no line `#if defined(__CUDACC__)` (line 7 of the "
                           "stub), where the Given code begins"));
}
