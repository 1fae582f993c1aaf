/// @file count_devices_test.cpp
/// @brief Tests of exercise count_devices, built against the learner's file and the solution.
#include "count_devices.h"

#include <tl_test/compare.h>

#include <torch/cuda.h>

#include <stdexcept>

TEST_CASE("zero devices reads 'no CUDA devices'", "[task_1]") {
    CHECK(ex::describe_device_count(0) == "no CUDA devices");
}

TEST_CASE("one device is singular", "[task_1]") {
    CHECK(ex::describe_device_count(1) == "1 CUDA device");
}

TEST_CASE("several devices print as digits and not characters", "[task_1]") {
    // 8 and 65 are the codes of a backspace and of 'A': the classic int8_t printing bug.
    CHECK(ex::describe_device_count(2) == "2 CUDA devices");
    CHECK(ex::describe_device_count(8) == "8 CUDA devices");
    CHECK(ex::describe_device_count(65) == "65 CUDA devices");
}

TEST_CASE("this machine's count is described with its number", "[task_1]") {
    const auto count = torch::cuda::device_count();
    const std::string text = ex::describe_device_count(count);
    INFO("described as: " << text);
    if (count == 0) {
        CHECK(text == "no CUDA devices");
    } else {
        CHECK(text.rfind(std::to_string(static_cast<int>(count)) + " CUDA device", 0) == 0);
    }
}

TEST_CASE("a negative count is rejected", "[task_2]") {
    CHECK_THROWS_AS(ex::describe_device_count(-1), std::invalid_argument);
}
