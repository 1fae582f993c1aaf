/// @file fits_in_memory_test.cpp
/// @brief Tests of exercise fits_in_memory, built against the learner's file and the solution.
#include "fits_in_memory.h"

#include <tl_test/compare.h>

#include <ATen/ops/empty.h>

#include <limits>
#include <stdexcept>

TEST_CASE("bytes are numel times element size", "[task_1]") {
    CHECK(ex::tensor_bytes({2, 3}, c10::kFloat) == 24);
    CHECK(ex::tensor_bytes({1024, 1024}, c10::kHalf) == 2 * 1024 * 1024);
    CHECK(ex::tensor_bytes({10}, c10::kDouble) == 80);
}

TEST_CASE("bytes agree with a real tensor's nbytes()", "[task_1]") {
    const auto t = at::empty({7, 5, 3}, at::kBFloat16);
    CHECK(ex::tensor_bytes(t.sizes(), t.scalar_type()) == t.nbytes());
}

TEST_CASE("a 0-dim tensor holds one element and an empty one none", "[task_1]") {
    CHECK(ex::tensor_bytes({}, c10::kFloat) == 4);
    CHECK(ex::tensor_bytes({0, 1000}, c10::kFloat) == 0);
}

TEST_CASE("negative sizes and overflow are errors", "[task_2]") {
    CHECK_THROWS_AS(ex::tensor_bytes({-1, 3}, c10::kFloat), std::invalid_argument);
    const int64_t huge = std::numeric_limits<int64_t>::max();
    CHECK_THROWS_AS(ex::tensor_bytes({huge, 4}, c10::kFloat), std::overflow_error);
}

TEST_CASE("a product that wraps round to a small number is still an overflow", "[task_2]") {
    // 2^62 float32 elements are 2^64 bytes: modulo 2^64 that is 0, neither negative nor large.
    const int64_t quarter = int64_t{1} << 62;
    CHECK_THROWS_AS(ex::tensor_bytes({quarter}, c10::kFloat), std::overflow_error);
    CHECK_THROWS_AS(ex::tensor_bytes({quarter, 4}, c10::kFloat), std::overflow_error);
    CHECK(ex::tensor_bytes({quarter}, c10::kByte) == static_cast<std::uint64_t>(quarter));
}

TEST_CASE("fits only within the free memory minus headroom", "[task_3]") {
    // 1000 float32 = 4000 bytes.
    CHECK(ex::fits_in_memory({1000}, c10::kFloat, 4000, 0.0));
    CHECK_FALSE(ex::fits_in_memory({1000}, c10::kFloat, 3999, 0.0));
    CHECK(ex::fits_in_memory({1000}, c10::kFloat, 5001, 0.2));  // 4000.8 usable
    CHECK_FALSE(ex::fits_in_memory({1000}, c10::kFloat, 4000, 0.1));
}

TEST_CASE("the headroom is taken from the free memory, far from the limit too", "[task_3]") {
    // 4000 bytes, 7000 free, half kept spare: 3500 usable. Adding the headroom to the tensor
    // instead (4000 * 1.5 = 6000 <= 7000) would say it fits.
    CHECK_FALSE(ex::fits_in_memory({1000}, c10::kFloat, 7000, 0.5));
    CHECK(ex::fits_in_memory({1000}, c10::kFloat, 8000, 0.5));
    CHECK(ex::fits_in_memory({1000}, c10::kFloat, 1000000, 0.9));
    CHECK_FALSE(ex::fits_in_memory({1000}, c10::kFloat, 100, 0.0));
}

TEST_CASE("headroom below 0 or from 1 up is rejected", "[task_3]") {
    CHECK_THROWS_AS(ex::fits_in_memory({1}, c10::kFloat, 100, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(ex::fits_in_memory({1}, c10::kFloat, 100, -0.1), std::invalid_argument);
}

TEST_CASE("a NaN headroom is rejected", "[task_3]") {
    // Every comparison with NaN is false: `headroom < 0 || headroom >= 1` lets it through.
    CHECK_THROWS_AS(
        ex::fits_in_memory({1}, c10::kFloat, 100, std::numeric_limits<double>::quiet_NaN()),
        std::invalid_argument);
}
