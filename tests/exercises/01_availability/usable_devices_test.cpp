/// @file usable_devices_test.cpp
/// @brief Tests of exercise usable_devices, built against the learner's file and the solution.
#include "usable_devices.h"

#include <tl_test/compare.h>

#include <ATen/ops/zeros.h>
#include <torch/cuda.h>

#include <stdexcept>

using Devices = std::vector<c10::Device>;

TEST_CASE("no GPUs gives the CPU", "[task_2]") {
    CHECK(ex::usable_devices(1, 0) == Devices{c10::Device("cpu")});
    CHECK(ex::usable_devices(8, 0) == Devices{c10::Device("cpu")});
}

TEST_CASE("fewer GPUs than wanted gives all of them", "[task_1]") {
    CHECK(ex::usable_devices(4, 2) == Devices{c10::Device("cuda:0"), c10::Device("cuda:1")});
}

TEST_CASE("more GPUs than wanted gives the first ones in order", "[task_1]") {
    CHECK(ex::usable_devices(2, 8) == Devices{c10::Device("cuda:0"), c10::Device("cuda:1")});
    CHECK(ex::usable_devices(1, 8) == Devices{c10::Device("cuda:0")});
}

TEST_CASE("wanting no device is an error", "[task_0]") {
    CHECK_THROWS_AS(ex::usable_devices(0, 2), std::invalid_argument);
    CHECK_THROWS_AS(ex::usable_devices(-3, 0), std::invalid_argument);
}

TEST_CASE("the list for this machine is never empty and every device works", "[task_2]") {
    const auto devices = ex::usable_devices(2, static_cast<int>(torch::cuda::device_count()));
    REQUIRE_FALSE(devices.empty());
    for (const auto& device : devices) {
        INFO("device " << device);
        CHECK(at::zeros({2}, at::TensorOptions().device(device)).device() == device);
    }
}
