/// @file tensor_on_device_test.cpp
/// @brief Tests of exercise tensor_on_device, built against the learner's file and the solution.
#include "tensor_on_device.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

const c10::Device kCpu(c10::DeviceType::CPU);
// meta: a device with shapes and dtypes but no data, on every machine. A tensor made on the CPU
// instead shows up there even without a GPU.
const c10::Device kMeta(c10::DeviceType::Meta);

// The reference: made directly with the full options, the way the exercise asks.
torch::Tensor expected_full(c10::IntArrayRef shape, c10::ScalarType dtype,
                            const c10::Device& device, double value) {
    return torch::full(shape, value, torch::TensorOptions().dtype(dtype).device(device));
}

// The device cases, run on a GPU where there is one and on the stand-in accelerator
// (tl_test/standin.h) everywhere: a tensor made on the CPU and moved, or made on the wrong
// device, is seen on a machine without a GPU too.
void check_made_directly_on(const c10::Device& device) {
    const auto t = ex::filled_on({64, 64}, torch::kFloat64, device, 0.1);
    CHECK(t.device() == device);
    TL_CHECK_TENSOR_CLOSE(t, expected_full({64, 64}, torch::kFloat64, device, 0.1),
                          tl_test::Tolerance{0.0, 0.0});
}

void check_zeros_next_to_one_on(const c10::Device& device) {
    const auto like = torch::ones({2}, torch::TensorOptions().device(device).dtype(torch::kHalf));
    TL_CHECK_TENSOR_CLOSE(
        ex::zeros_next_to(like, {3}),
        torch::zeros({3}, torch::TensorOptions().device(device).dtype(torch::kHalf)));
}

}  // namespace

TEST_CASE("a float32 tensor of the right shape and value on the CPU", "[task_1]") {
    const auto t = ex::filled_on({2, 3}, torch::kFloat32, kCpu, 1.5);
    TL_CHECK_TENSOR_CLOSE(t, expected_full({2, 3}, torch::kFloat32, kCpu, 1.5));
}

TEST_CASE("the dtype is the one asked for", "[task_1]") {
    for (const auto dtype : {torch::kFloat64, torch::kInt32, torch::kInt64, torch::kFloat16}) {
        INFO("dtype " << dtype);
        CHECK(ex::filled_on({4}, dtype, kCpu, 3.0).scalar_type() == dtype);
    }
}

TEST_CASE("float64 keeps 0.1 exactly as float64 stores it", "[task_1]") {
    // Made as float32 and then converted, 0.1 becomes 0.10000000149011612.
    const auto t = ex::filled_on({3}, torch::kFloat64, kCpu, 0.1);
    TL_CHECK_TENSOR_CLOSE(t, expected_full({3}, torch::kFloat64, kCpu, 0.1),
                          tl_test::Tolerance{0.0, 0.0});
}

TEST_CASE("int64 keeps 16777217 which float32 cannot hold", "[task_1]") {
    // 2^24 + 1: the first integer float32 rounds (to 16777216).
    const auto t = ex::filled_on({2, 2}, torch::kInt64, kCpu, 16777217.0);
    TL_CHECK_TENSOR_CLOSE(t, expected_full({2, 2}, torch::kInt64, kCpu, 16777217.0));
}

TEST_CASE("the result matches a tensor moved there with to", "[task_1]") {
    // Same values as the long way round through .to(), the detour this exercise avoids.
    const auto t = ex::filled_on({5}, torch::kFloat32, kCpu, -2.0);
    TL_CHECK_TENSOR_CLOSE(t, torch::full({5}, -2.0).to(kCpu, torch::kFloat32));
}

TEST_CASE("an empty shape gives a tensor with no elements", "[task_1]") {
    const auto t = ex::filled_on({0, 4}, torch::kFloat32, kCpu, 7.0);
    TL_CHECK_TENSOR_CLOSE(t, expected_full({0, 4}, torch::kFloat32, kCpu, 7.0));
}

TEST_CASE("a tensor is made on the device asked for", "[task_1]") {
    const auto t = ex::filled_on({2, 3}, torch::kFloat64, kMeta, 0.1);
    CHECK(t.device() == kMeta);
    CHECK(t.scalar_type() == torch::kFloat64);
    CHECK(t.sizes() == c10::IntArrayRef({2, 3}));
}

TEST_CASE("zeros next to a tensor on another device are on that device", "[task_2]") {
    const auto like = torch::ones({2}, torch::TensorOptions().device(kMeta).dtype(torch::kHalf));
    const auto t = ex::zeros_next_to(like, {3, 4});
    CHECK(t.device() == kMeta);
    CHECK(t.scalar_type() == torch::kHalf);
    CHECK(t.sizes() == c10::IntArrayRef({3, 4}));
}

TEST_CASE("zeros next to a float64 tensor are float64 on its device", "[task_2]") {
    const auto like = torch::ones({2}, torch::kFloat64);
    const auto t = ex::zeros_next_to(like, {3, 2});
    TL_CHECK_TENSOR_CLOSE(t, torch::zeros({3, 2}, torch::kFloat64));
}

TEST_CASE("zeros next to an int tensor are int", "[task_2]") {
    const auto like = torch::arange(4, torch::kInt32);
    const auto t = ex::zeros_next_to(like, {2});
    TL_CHECK_TENSOR_CLOSE(t, torch::zeros({2}, torch::kInt32));
}

TEST_CASE("zeros next to a tensor are a new tensor", "[task_2]") {
    const auto like = torch::ones({4});
    const auto t = ex::zeros_next_to(like, {4});
    REQUIRE(t.defined());
    CHECK_FALSE(t.is_same(like));
    CHECK(like.sum().item<float>() == 4.0F);  // the input is untouched
}

TEST_CASE("zeros next to an undefined tensor is an error", "[task_2]") {
    CHECK_THROWS_AS(ex::zeros_next_to(torch::Tensor(), {2}), std::invalid_argument);
}

TEST_CASE("a tensor is made directly on the GPU", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    check_made_directly_on(c10::Device(c10::DeviceType::CUDA, 0));
}

TEST_CASE("zeros next to a GPU tensor are on that GPU", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_zeros_next_to_one_on(c10::Device(
        c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(torch::cuda::device_count() - 1)));
}

TEST_CASE("a tensor is made directly on a stand-in device", "[task_1]") {
    check_made_directly_on(tl_test::standin::device(1));
}

TEST_CASE("zeros next to a stand-in tensor are on its device", "[task_2]") {
    // Index 3, not the current device 0: the index must come from `like` too.
    check_zeros_next_to_one_on(tl_test::standin::device(3));
}
