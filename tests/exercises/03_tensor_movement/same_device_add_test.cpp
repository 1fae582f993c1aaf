/// @file same_device_add_test.cpp
/// @brief Tests of exercise same_device_add, built against the learner's file and the solution.
///
/// A machine without a GPU still has two devices: the CPU and "meta", which holds shapes but no
/// data. Adding a CPU tensor to a meta tensor fails with the same "Expected all tensors to be on
/// the same device" check as mixing CPU and CUDA, so the moving logic is tested everywhere.
#include "same_device_add.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {
const c10::Device kCpu("cpu");
const c10::Device kMeta("meta");
}  // namespace

namespace {

// A CPU tensor added to one on `device`: the sum is computed there, whichever comes first. On
// the stand-in accelerator (tl_test/standin.h), as on CUDA, adding across devices throws.
void check_cpu_added_on(const c10::Device& device) {
    const auto a = torch::arange(4, torch::TensorOptions().device(device));
    const auto b = torch::full({4}, 0.5F);
    const auto expected = torch::tensor({0.5F, 1.5F, 2.5F, 3.5F}).to(a.device());
    TL_CHECK_TENSOR_CLOSE(ex::add_on_device_of_first(a, b), expected);
    TL_CHECK_TENSOR_CLOSE(ex::add_on_compute_device(b, a), expected);
}

}  // namespace

TEST_CASE("tensors on one device add as usual", "[task_1]") {
    const auto a = torch::arange(4, torch::kFloat32);
    const auto b = torch::full({4}, 0.5F);
    const auto sum = ex::add_on_device_of_first(a, b);
    TL_CHECK_TENSOR_CLOSE(sum, torch::tensor({0.5F, 1.5F, 2.5F, 3.5F}));
}

TEST_CASE("the second tensor is moved to the first one's device", "[task_1]") {
    const auto a = torch::ones({2, 3}, kMeta);
    const auto b = torch::ones({3});  // on the CPU; also broadcast over a's rows
    const auto sum = ex::add_on_device_of_first(a, b);
    CHECK(sum.device() == kMeta);
    CHECK(sum.sizes() == a.sizes());
    CHECK(b.device() == kCpu);  // moving returns a new tensor; b itself stays where it was
}

TEST_CASE("type promotion is kept", "[task_1]") {
    const auto a = torch::arange(3, torch::kInt64);
    const auto b = torch::full({3}, 0.25, torch::kFloat64);
    TL_CHECK_TENSOR_CLOSE(ex::add_on_device_of_first(a, b),
                          torch::tensor({0.25, 1.25, 2.25}, torch::kFloat64));
}

TEST_CASE("undefined tensors are rejected", "[task_1]") {
    CHECK_THROWS_AS(ex::add_on_device_of_first(torch::Tensor(), torch::ones({1})),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::add_on_device_of_first(torch::ones({1}), torch::Tensor()),
                    std::invalid_argument);
}

TEST_CASE("compute_device prefers the device that is not the CPU", "[task_2]") {
    CHECK(ex::compute_device(kCpu, c10::Device("cuda:1")) == c10::Device("cuda:1"));
    CHECK(ex::compute_device(c10::Device("cuda:0"), kCpu) == c10::Device("cuda:0"));
    CHECK(ex::compute_device(kCpu, kMeta) == kMeta);
    CHECK(ex::compute_device(c10::Device("mps"), kCpu) == c10::Device("mps"));
}

TEST_CASE("compute_device keeps the first device otherwise", "[task_2]") {
    CHECK(ex::compute_device(kCpu, kCpu) == kCpu);
    CHECK(ex::compute_device(c10::Device("cuda:1"), c10::Device("cuda:0")) ==
          c10::Device("cuda:1"));
    CHECK(ex::compute_device(c10::Device("cuda:0"), c10::Device("cuda:1")) ==
          c10::Device("cuda:0"));
}

TEST_CASE("add_on_compute_device moves only the CPU tensor", "[task_3]") {
    const auto on_cpu = torch::ones({3});
    const auto on_meta = torch::ones({3}, kMeta);
    // A meta tensor has no data to copy to the CPU: moving the wrong one would throw.
    CHECK(ex::add_on_compute_device(on_cpu, on_meta).device() == kMeta);
    CHECK(ex::add_on_compute_device(on_meta, on_cpu).device() == kMeta);
}

TEST_CASE("add_on_compute_device adds CPU tensors on the CPU", "[task_3]") {
    const auto a = torch::tensor({1.0F, 2.0F});
    const auto b = torch::tensor({10.0F, 20.0F});
    TL_CHECK_TENSOR_CLOSE(ex::add_on_compute_device(a, b), torch::tensor({11.0F, 22.0F}));
    CHECK_THROWS_AS(ex::add_on_compute_device(a, torch::Tensor()), std::invalid_argument);
}

TEST_CASE("a CPU tensor is added to a CUDA tensor on the GPU", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    check_cpu_added_on(c10::Device(torch::kCUDA));
}

TEST_CASE("a CPU tensor is added to a stand-in tensor on its device", "[task_1]") {
    check_cpu_added_on(tl_test::standin::device(2));
}
