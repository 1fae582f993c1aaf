/// @file move_if_needed_test.cpp
/// @brief Tests of exercise move_if_needed, built against the learner's file and the solution.
#include "move_if_needed.h"

#include <c10/core/DeviceGuard.h>
#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {
const c10::Device kCpu("cpu");
const c10::Device kMeta("meta");
}  // namespace

namespace {

// A move to device 0 of a type copies; a second move to that type without an index (the current
// device, 0 here) finds the tensor there and copies no more.
void check_moves_once_to(const c10::Device& first_device) {
    const c10::DeviceGuard current(first_device);
    const auto t = torch::arange(5, torch::kFloat32);
    const auto first = ex::move_if_needed(t, first_device);
    CHECK(first.copied);
    REQUIRE(first.tensor.device() == first_device);
    const auto second = ex::move_if_needed(first.tensor, c10::Device(first_device.type()));
    CHECK_FALSE(second.copied);
    CHECK(second.tensor.data_ptr() == first.tensor.data_ptr());
    TL_CHECK_TENSOR_CLOSE(second.tensor.cpu(), t);
}

}  // namespace

TEST_CASE("a device equal to the tensor's is already there", "[task_1]") {
    CHECK(ex::already_on(kCpu, kCpu, 0));
    CHECK(ex::already_on(c10::Device("cuda:0"), c10::Device("cuda:0"), 0));
    CHECK(ex::already_on(c10::Device("cuda:2"), c10::Device("cuda:2"), 0));
    CHECK(ex::already_on(kMeta, kMeta, 0));
}

TEST_CASE("another device type or another GPU is elsewhere", "[task_1]") {
    CHECK_FALSE(ex::already_on(kCpu, c10::Device("cuda:0"), 0));
    CHECK_FALSE(ex::already_on(c10::Device("cuda:0"), kCpu, 0));
    CHECK_FALSE(ex::already_on(c10::Device("cuda:1"), c10::Device("cuda:0"), 1));
    CHECK_FALSE(ex::already_on(kCpu, kMeta, 0));
}

TEST_CASE("cuda without an index means the current GPU", "[task_1]") {
    CHECK(ex::already_on(c10::Device("cuda:0"), c10::Device("cuda"), 0));
    CHECK(ex::already_on(c10::Device("cuda:1"), c10::Device("cuda"), 1));
    CHECK_FALSE(ex::already_on(c10::Device("cuda:0"), c10::Device("cuda"), 1));
    CHECK_FALSE(ex::already_on(c10::Device("cuda:3"), c10::Device("cuda"), 0));
}

TEST_CASE("a CUDA tensor device without an index is rejected", "[task_1]") {
    CHECK_THROWS_AS(ex::already_on(c10::Device("cuda"), c10::Device("cuda:0"), 0),
                    std::invalid_argument);
}

TEST_CASE("a tensor already in place is returned itself", "[task_2]") {
    const auto t = torch::arange(5, torch::kFloat32);
    const auto moved = ex::move_if_needed(t, kCpu);
    CHECK_FALSE(moved.copied);
    CHECK(moved.tensor.data_ptr() == t.data_ptr());
    CHECK(moved.tensor.is_same(t));
    const auto same_dtype = ex::move_if_needed(t, kCpu, torch::kFloat32);
    CHECK_FALSE(same_dtype.copied);
    CHECK(same_dtype.tensor.data_ptr() == t.data_ptr());
}

TEST_CASE("a new dtype is a copy with converted values", "[task_2]") {
    const auto t = torch::arange(5, torch::kFloat32);
    const auto moved = ex::move_if_needed(t, kCpu, torch::kFloat64);
    CHECK(moved.copied);
    CHECK(moved.tensor.data_ptr() != t.data_ptr());
    TL_CHECK_TENSOR_CLOSE(moved.tensor, torch::arange(5, torch::kFloat64));
}

TEST_CASE("an empty tensor in a new dtype is a copy too", "[task_2]") {
    // No elements, no memory: its data pointer is null before and after the copy, so only
    // is_same() can tell whether to() returned the tensor itself.
    const auto t = torch::empty({0, 3});
    const auto moved = ex::move_if_needed(t, kCpu, torch::kFloat64);
    CHECK(moved.copied);
    CHECK(moved.tensor.scalar_type() == torch::kFloat64);
    CHECK_FALSE(ex::move_if_needed(t, kCpu).copied);
}

TEST_CASE("another device is a copy", "[task_2]") {
    const auto t = torch::ones({2, 2});
    const auto moved = ex::move_if_needed(t, kMeta);
    CHECK(moved.copied);
    CHECK(moved.tensor.device() == kMeta);
    CHECK(moved.tensor.sizes() == t.sizes());
    CHECK(t.device() == kCpu);
}

TEST_CASE("an undefined tensor is rejected", "[task_2]") {
    CHECK_THROWS_AS(ex::move_if_needed(torch::Tensor(), kCpu), std::invalid_argument);
}

TEST_CASE("a move to the GPU copies once and then no more", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_moves_once_to(c10::Device("cuda:0"));
}

TEST_CASE("a move to a stand-in device copies once and then no more", "[task_2]") {
    check_moves_once_to(tl_test::standin::device(0));
}
