/// @file speedup_table_test.cpp
/// @brief Tests of exercise speedup_table, built against the learner's file and the solution.
#include "speedup_table.h"

#include "tl_test/catch.h"

#include <cmath>
#include <limits>
#include <stdexcept>

using ex::Measurement;

TEST_CASE("a matrix product of n x n does 2 n^3 FLOPs and moves three matrices", "[task_1]") {
    const auto cost = ex::matmul_cost(1024, 4);
    CHECK(cost.flops == Catch::Approx(2.0 * 1024 * 1024 * 1024));
    CHECK(cost.bytes == Catch::Approx(3.0 * 1024 * 1024 * 4));
    const auto half = ex::matmul_cost(64, 2);
    CHECK(half.flops == Catch::Approx(2.0 * 64 * 64 * 64));
    CHECK(half.bytes == Catch::Approx(3.0 * 64 * 64 * 2));
}

TEST_CASE("an elementwise add does one FLOP per element and moves three vectors", "[task_1]") {
    const auto cost = ex::add_cost(1000, 4);
    CHECK(cost.flops == Catch::Approx(1000.0));
    CHECK(cost.bytes == Catch::Approx(12000.0));
    CHECK(ex::add_cost(10, 8).bytes == Catch::Approx(240.0));
}

TEST_CASE("intensity: an add stays memory-bound, a matmul grows with n", "[task_1]") {
    CHECK(ex::arithmetic_intensity(ex::add_cost(1 << 20, 4)) == Catch::Approx(1.0 / 12.0));
    // 2 n^3 / (12 n^2) = n / 6 for float32.
    CHECK(ex::arithmetic_intensity(ex::matmul_cost(600, 4)) == Catch::Approx(100.0));
    CHECK(ex::arithmetic_intensity(ex::matmul_cost(60, 4)) == Catch::Approx(10.0));
}

TEST_CASE("the roofline is the lower of the bandwidth roof and the compute roof", "[task_1]") {
    // A device with 1000 GFLOP/s and 100 GB/s: the ridge is at 10 FLOP/byte.
    CHECK(ex::roofline_gflops(1.0 / 12.0, 1000.0, 100.0) == Catch::Approx(100.0 / 12.0));
    CHECK(ex::roofline_gflops(5.0, 1000.0, 100.0) == Catch::Approx(500.0));
    CHECK(ex::roofline_gflops(10.0, 1000.0, 100.0) == Catch::Approx(1000.0));
    CHECK(ex::roofline_gflops(100.0, 1000.0, 100.0) == Catch::Approx(1000.0));
}

TEST_CASE("bad sizes and roofs are errors", "[task_1]") {
    CHECK_THROWS_AS(ex::matmul_cost(0, 4), std::invalid_argument);
    CHECK_THROWS_AS(ex::matmul_cost(8, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex::add_cost(-1, 4), std::invalid_argument);
    CHECK_THROWS_AS(ex::arithmetic_intensity(ex::OpCost{10.0, 0.0}), std::invalid_argument);
    CHECK_THROWS_AS(ex::roofline_gflops(0.0, 1.0, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(ex::roofline_gflops(1.0, -1.0, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(ex::roofline_gflops(1.0, 1.0, 0.0), std::invalid_argument);
}

TEST_CASE("a NaN intensity, roof or byte count is an error, not a NaN roofline", "[task_1]") {
    // Every comparison with NaN is false: a check written as `x <= 0` lets NaN through, and a
    // NaN roofline then compares below and above everything in a plot or a sort.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(ex::arithmetic_intensity(ex::OpCost{10.0, nan}), std::invalid_argument);
    CHECK_THROWS_AS(ex::roofline_gflops(nan, 1000.0, 100.0), std::invalid_argument);
    CHECK_THROWS_AS(ex::roofline_gflops(1.0, nan, 100.0), std::invalid_argument);
    CHECK_THROWS_AS(ex::roofline_gflops(1.0, 1000.0, nan), std::invalid_argument);
}

TEST_CASE("an infinite median on either device is an error", "[task_2]") {
    // A run that never finished is not "infinitely slow": a speedup of 0 or inf would go into the
    // table as if measured.
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(ex::speedup_table({{"add", 8, "cpu", inf}, {"add", 8, "cuda", 0.5}}, "cuda"),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::speedup_table({{"add", 8, "cpu", 1.0}, {"add", 8, "cuda", inf}}, "cuda"),
                    std::invalid_argument);
}

TEST_CASE("speedup is CPU time over device time, and names the faster one", "[task_2]") {
    const std::vector<Measurement> m{{"matmul", 64, "cpu", 0.05},
                                     {"matmul", 64, "cuda", 0.10},
                                     {"matmul", 4096, "cpu", 2000.0},
                                     {"matmul", 4096, "cuda", 4.0}};
    const auto rows = ex::speedup_table(m, "cuda");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].op == "matmul");
    CHECK(rows[0].size == 64);
    CHECK(rows[0].cpu_ms == Catch::Approx(0.05));
    CHECK(rows[0].device_ms == Catch::Approx(0.10));
    INFO("speedup = cpu_ms / device_ms: below 1 the CPU wins");
    CHECK(rows[0].speedup == Catch::Approx(0.5));
    CHECK(rows[0].faster == "cpu");
    CHECK(rows[1].size == 4096);
    CHECK(rows[1].speedup == Catch::Approx(500.0));
    CHECK(rows[1].faster == "cuda");
}

TEST_CASE("a tie is no speedup and names the CPU", "[task_2]") {
    const auto rows = ex::speedup_table({{"add", 8, "cpu", 2.5}, {"add", 8, "cuda", 2.5}}, "cuda");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].speedup == Catch::Approx(1.0));
    INFO("the device is faster only when speedup > 1");
    CHECK(rows[0].faster == "cpu");
}

TEST_CASE("rows are sorted by op, then numerically by size, whatever the input order", "[task_2]") {
    const std::vector<Measurement> m{{"matmul", 1024, "cuda", 1.0}, {"add", 100000, "cpu", 1.0},
                                     {"matmul", 256, "cpu", 2.0},   {"matmul", 1024, "cpu", 8.0},
                                     {"add", 9000, "cuda", 0.5},    {"add", 9000, "cpu", 0.2},
                                     {"matmul", 256, "cuda", 1.0},  {"add", 100000, "cuda", 0.5}};
    const auto rows = ex::speedup_table(m, "cuda");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].op == "add");
    CHECK(rows[0].size == 9000);
    CHECK(rows[0].speedup == Catch::Approx(0.4));
    CHECK(rows[1].op == "add");
    CHECK(rows[1].size == 100000);
    CHECK(rows[1].speedup == Catch::Approx(2.0));
    CHECK(rows[2].op == "matmul");
    CHECK(rows[2].size == 256);
    CHECK(rows[2].speedup == Catch::Approx(2.0));
    CHECK(rows[3].op == "matmul");
    CHECK(rows[3].size == 1024);
    CHECK(rows[3].speedup == Catch::Approx(8.0));
}

TEST_CASE("the same size of two ops are two rows, each with its own times", "[task_2]") {
    const std::vector<Measurement> m{{"add", 512, "cpu", 1.0},
                                     {"matmul", 512, "cpu", 30.0},
                                     {"add", 512, "mps", 2.0},
                                     {"matmul", 512, "mps", 3.0}};
    const auto rows = ex::speedup_table(m, "mps");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].op == "add");
    CHECK(rows[0].speedup == Catch::Approx(0.5));
    CHECK(rows[0].faster == "cpu");
    CHECK(rows[1].op == "matmul");
    CHECK(rows[1].speedup == Catch::Approx(10.0));
    CHECK(rows[1].faster == "mps");
}

TEST_CASE("measurements on other devices are ignored", "[task_2]") {
    const std::vector<Measurement> m{
        {"add", 8, "cpu", 1.0}, {"add", 8, "cuda:1", 0.25}, {"add", 8, "cuda", 0.5}};
    const auto rows = ex::speedup_table(m, "cuda");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].device_ms == Catch::Approx(0.5));
    CHECK(rows[0].speedup == Catch::Approx(2.0));
}

TEST_CASE("missing, repeated or impossible measurements are errors", "[task_2]") {
    const Measurement cpu{"add", 8, "cpu", 1.0};
    const Measurement gpu{"add", 8, "cuda", 0.5};
    CHECK_THROWS_AS(ex::speedup_table({cpu, gpu}, "cpu"), std::invalid_argument);
    CHECK_THROWS_AS(ex::speedup_table({cpu}, "cuda"), std::invalid_argument);
    CHECK_THROWS_AS(ex::speedup_table({gpu}, "cuda"), std::invalid_argument);
    CHECK_THROWS_AS(ex::speedup_table({cpu, gpu, cpu}, "cuda"), std::invalid_argument);
    CHECK_THROWS_AS(ex::speedup_table({cpu, {"add", 8, "cuda", 0.0}}, "cuda"),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::speedup_table({cpu, {"add", 8, "cuda", -2.0}}, "cuda"),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        ex::speedup_table({cpu, {"add", 8, "cuda", std::numeric_limits<double>::quiet_NaN()}},
                          "cuda"),
        std::invalid_argument);
    CHECK(ex::speedup_table({}, "cuda").empty());
}
